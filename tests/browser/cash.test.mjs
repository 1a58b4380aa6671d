// cash.test.mjs - cash controls on the pit boss page (docs/page.md, "Cage" and "Title 31") in Debian's
// headless Chromium, against the real pitbossd on a free loopback port with a temporary database:
// a cage transaction recorded through the cage view, listed, with the patron's totals and the Title 31
// warning; the refusal identification_required and the identification recorded on the player page;
// a void through the page; a CTR item moved to filed with a BSA id, and a note added again.
// Every figure asserted is computed here from the amounts typed and the configuration's limits.
//
//   PB_BUILD_DIR   where pitbossd is (default /work/main/build)
//   PB_SOURCE_DIR  the repository (default: two levels up from here)
//   PB_CHROMIUM    the browser (default /usr/bin/chromium)
//
// Run: tests/browser/run.sh cash.test.mjs.  Screenshots land in tests/browser/out/cash-*.png.
import {describe, it, before, after} from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {CHROMIUM, recordCspViolations, screenshot, signInAs, startPitbossd, stopPitbossd, watchConsole} from './harness.mjs';
import {launchChromium} from './harness.mjs';
import {apiClient} from './harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const OUT = path.join(here, 'out');
const ADMIN = 'demo-admin';
const PITBOSS = 'demo-pitboss';
// The people who sign in through the page: a cage cashier, a floor supervisor (a witness), a pit boss.
const CASH = {
  cage: {id: 'K-CG', name: 'Kim Cole', roles: ['cage']},
  floor: {id: 'K-FL', name: 'Kai Ford', roles: ['floor']},
  pb: {id: 'K-PB', name: 'Kit Pryor', roles: ['pitboss']},
};
const password = p => `amber-quarry-${p.id.slice(2).toLowerCase()}-47`;
// Nora has her identification on record; Leo has a card and a name only.
const NORA = {card: '810001', name: 'Nora Quinn', id_type: 'passport', id_number: 'QX778899', id_issuer: 'IE'};
const LEO = {card: '810002', name: 'Leo Brandt'};
const LEO_ID = {id_type: 'driver_license', id_number: 'NV-5521907'};

let run, base, browser, context, page;
const api = apiClient(() => base);
const {http} = api;
const ids = {};
let day = '';
let limits = null;
const consoleErrors = [];
const cspViolations = [];
// Refusals the tests cause on purpose (the browser logs the failed request): 422 identification_required.
const allowed = {refusal: false};

const usd = cents => new Intl.NumberFormat('en-US', {style: 'currency', currency: 'USD'}).format(cents / 100);

/** Makes a person with a one-time password and changes it to his own (as the page's sign-in wants). */
async function makePerson(p) {
  await api.makePerson(p, password(p));
}

function watch(p) {
  watchConsole(p, consoleErrors, () => (allowed.refusal ? /Failed to load resource.*status of 422/ : null));
}

async function shot(name) {
  await screenshot(page, path.join(OUT, `cash-${name}.png`));
}

/**
 * Signs the page in as p at the address (after signing out whoever is in): signing in opens it, so no
 * other view is read on the way (a cage cashier may not read the floor's summary).
 */
async function as(p, hash) {
  await signInAs(page, base, p, password(p), hash);
}

/** Records a cage transaction through the form; returns the form (its result shown in [data-result]). */
async function cageTransaction({player, card, type, direction, dollars, window}) {
  const f = page.locator('form[data-form="cage"]');
  await f.locator('input[name="cage-patron"]').fill(card);
  await f.locator('button[data-action="find-patron"]').click();
  await f.locator(`[data-picked="${player}"]`).waitFor();
  await f.locator('select[name="cage-type"]').selectOption(type);
  await f.locator('select[name="cage-direction"]').selectOption(direction);
  await f.locator('input[name="cage-amount"]').fill(dollars);
  await f.locator('input[name="cage-window"]').fill(window || '');
  await f.locator('button[type="submit"]').click();
  return f;
}

/** The text of a fact of the answer ([data-fig]). */
async function fig(f, k) {
  return (await f.locator(`[data-result] [data-fig="${k}"] dd`).innerText()).trim();
}

before(async () => {
  fs.mkdirSync(OUT, {recursive: true});
  run = await startPitbossd('pitboss-cash-', cfg => { cfg.sessions = {idle_seconds: 900, absolute_seconds: 3600}; },
    {clock: true});
  base = run.base;
  for (const p of Object.values(CASH)) await makePerson(p);
  for (const [k, rec] of [['nora', NORA], ['leo', LEO]]) {
    const r = await http('POST', '/api/v1/players', {body: rec});
    assert.equal(r.status, 201, r.text);
    ids[k] = r.json.id;
  }
  day = (await http('GET', '/api/v1/tables')).json.property.gaming_day;
  const rep = await http('GET', `/api/v1/reports/title31?gaming_day=${day}`);
  assert.equal(rep.status, 200, rep.text);
  limits = rep.json.limits;
  browser = await launchChromium();
  context = await browser.newContext({viewport: {width: 1366, height: 900}, locale: 'en-US', timezoneId: 'UTC'});
  await recordCspViolations(context, cspViolations);
  page = await context.newPage();
  watch(page);
  await page.goto(`${base}/`);
});

after(async () => {
  await browser?.close();
  await stopPitbossd(run);
});

describe('cash controls on the page', () => {
  // Nora's transactions at the cage, as typed (dollars) and in cents.
  const NORA_TXNS = [
    {type: 'front_money', direction: 'in', dollars: '3,000.50', cents: 300050, window: '2'},
    {type: 'chip_redemption', direction: 'out', dollars: '3500', cents: 350000, window: ''},
    {type: 'front_money', direction: 'in', dollars: '5000', cents: 500000, window: '2'},
  ];
  const recorded = [];

  it('offers the cage view to the cage and a pit boss, not to a floor supervisor', async () => {
    await as(CASH.floor, '#/floor');
    assert.equal(await page.locator('#nav-cage').isVisible(), false);
    await as(CASH.pb, '#/floor');
    assert.equal(await page.locator('#nav-cage').isVisible(), true);
    await as(CASH.cage, '#/cage');
    assert.equal(await page.locator('#nav-cage').isVisible(), true);
    await page.locator('h1', {hasText: 'Cage'}).waitFor();
    assert.equal(await page.locator('nav.mainnav a[aria-current="page"]').innerText(), 'Cage');
  });

  it('a cage cashier records cage transactions through the form: the totals and the alert at once, the list', async () => {
    const f = page.locator('form[data-form="cage"]');
    // The directions offered are the type's: a chip redemption is paid out only.
    await f.locator('select[name="cage-type"]').selectOption('chip_redemption');
    assert.deepEqual(await f.locator('select[name="cage-direction"] option').evaluateAll(os => os.map(o => o.value)), ['out']);
    await f.locator('select[name="cage-type"]').selectOption('marker_payment');
    assert.deepEqual(await f.locator('select[name="cage-direction"] option').evaluateAll(os => os.map(o => o.value)), ['in']);
    let cashIn = 0, cashOut = 0;
    for (const t of NORA_TXNS) {
      await cageTransaction({player: ids.nora, card: NORA.card, ...t});
      await f.locator('[data-result] .note-ok', {hasText: usd(t.cents)}).waitFor();
      if (t.direction === 'in') cashIn += t.cents; else cashOut += t.cents;
      const side = t.direction === 'in' ? cashIn : cashOut;
      assert.equal(await fig(f, 'cash_in'), usd(cashIn));
      assert.equal(await fig(f, 'cash_out'), usd(cashOut));
      assert.equal(await fig(f, 'remaining'), usd(Math.max(0, limits.ctr_over - side)));
      assert.equal(await fig(f, 'identified'), 'Yes');
      const warned = await f.locator('[data-result] [data-title31="warning"]').count();
      assert.equal(warned, side >= limits.alert_at ? 1 : 0, `the warning at ${usd(side)} (alert at ${usd(limits.alert_at)})`);
      const ok = await f.locator('[data-result] .note-ok').innerText();
      const id = Number(/#(\d+)/.exec(ok)[1]);
      recorded.push({...t, id});
      assert.match(ok, t.window ? new RegExp(`the cage, window ${t.window}`) : /at the cage \(/);
    }
    assert.ok(cashIn >= limits.alert_at && cashIn <= limits.ctr_over, 'the inputs reach the alert, not the CTR limit');
    // The alert's warning names the side's total and what is left before the limit, as computed here.
    const alert = f.locator('[data-result] [data-title31="warning"]');
    assert.equal(await alert.getAttribute('data-ctr'), 'no');
    assert.ok((await alert.innerText()).includes(usd(cashIn)), 'the total in the warning');
    assert.ok((await alert.innerText()).includes(usd(limits.ctr_over - cashIn)), 'what is left in the warning');
    // A table's cash transaction of the day is listed beside the cage's.
    const tt = await http('POST', '/api/v1/tables/T1/transactions', {body: {player: ids.nora, direction: 'in', kind: 'cash', amount: 20000}});
    assert.equal(tt.status, 201, tt.text);
    await page.locator('#cage-transactions button[type="submit"]', {hasText: 'Show'}).click();
    const list = page.locator('#cage-transactions');
    await list.locator(`tr[data-txn="${tt.json.id}"]`).waitFor();
    assert.match(await list.locator(`tr[data-txn="${tt.json.id}"]`).innerText(), /T1[\s\S]*\$200\.00/);
    for (const t of recorded) {
      const row = await list.locator(`tr[data-txn="${t.id}"]`).innerText();
      assert.match(row, t.window ? new RegExp(`Cage, window ${t.window}`) : /Cage/);
      assert.match(row, new RegExp(t.type === 'front_money' ? 'Front money' : 'Chip redemption'));
      assert.ok(row.includes(usd(t.cents)), `${row} has ${usd(t.cents)}`);
      assert.ok(row.includes(NORA.name), 'the name as written');
      assert.ok(row.includes(CASH.cage.id), 'by the cashier');
    }
    await shot('01-cage');
  });

  it('refuses a transaction over the CTR limit of a patron without identification, and says what to do', async () => {
    const f = page.locator('form[data-form="cage"]');
    const cents = limits.ctr_over + 1;
    allowed.refusal = true;
    await cageTransaction({player: ids.leo, card: LEO.card, type: 'other', direction: 'in', dollars: (cents / 100).toFixed(2)});
    const refusal = f.locator('[data-result] .note-error');
    await refusal.waitFor();
    allowed.refusal = false;
    assert.match(await refusal.innerText(), /Identification required: nothing was recorded/);
    assert.match(await refusal.innerText(), /ID type and number/);
    const none = await http('GET', `/api/v1/transactions?gaming_day=${day}&player=${ids.leo}`);
    assert.equal(none.json.transactions.length, 0, 'nothing recorded');
    await shot('02-identification-required');
    // The link opens his page, where the identification is recorded; the transaction then goes through.
    await refusal.locator(`a[data-identify="${ids.leo}"]`).click();
    await page.waitForURL(new RegExp(`#/players/${ids.leo}$`));
    const idf = page.locator('form[data-form="identification"]');
    await idf.locator('input[name="id-type"]').fill(LEO_ID.id_type);
    await idf.locator('input[name="id-number"]').fill(LEO_ID.id_number);
    await idf.locator('button[type="submit"]').click();
    await page.locator('#player-record', {hasText: LEO_ID.id_number}).waitFor();
    const rec = await http('GET', `/api/v1/players/${ids.leo}`);
    assert.equal(rec.json.id_number, LEO_ID.id_number);
    await page.goto(`${base}/#/cage`);
    await cageTransaction({player: ids.leo, card: LEO.card, type: 'other', direction: 'in', dollars: (cents / 100).toFixed(2)});
    await f.locator('[data-result] .note-ok', {hasText: usd(cents)}).waitFor();
    assert.equal(await fig(f, 'cash_in'), usd(cents));
    assert.equal(await fig(f, 'remaining'), usd(0));
    const over = f.locator('[data-result] [data-title31="warning"]');
    assert.equal(await over.getAttribute('data-ctr'), 'yes', 'over the CTR limit: said at once');
    assert.ok((await over.innerText()).includes(usd(cents)), 'the total in the warning');
    await shot('02b-over-the-limit');
  });

  it('voids a transaction through the page: struck through, out of the totals, marked in the MTL', async () => {
    const out = recorded.find(t => t.direction === 'out');
    const list = page.locator('#cage-transactions');
    await list.locator(`button[data-action="void"][data-txn="${out.id}"]`).click();
    const vf = page.locator('form[data-form="txn-void"]');
    assert.equal(await vf.locator('input[name="txnvoid-id"]').inputValue(), String(out.id));
    await vf.locator('input[name="txnvoid-reason"]').fill('keyed twice: one redemption only');
    await vf.locator('input[name="txnvoid-witness"]').fill(CASH.floor.id);
    await vf.locator('input[name="txnvoid-witness-password"]').fill(password(CASH.floor));
    await vf.locator('button[type="submit"]').click();
    const cashIn = recorded.filter(t => t.direction === 'in').reduce((a, t) => a + t.cents, 0);
    const done = vf.locator('.note-ok');
    await done.waitFor();
    // Nora's cash: her cage cash in and the table's $200.00; the cash out voided.
    assert.match(await done.innerText(), new RegExp(`in ${usd(cashIn + 20000).replace(/[$.]/g, '\\$&')}, out \\$0\\.00`));
    const row = list.locator(`tr[data-txn="${out.id}"]`);
    await row.locator('[data-void="yes"]').waitFor();
    assert.match(await row.getAttribute('class'), /row-voided/);
    assert.equal(await row.locator('del').innerText(), usd(out.cents));
    assert.match(await row.innerText(), new RegExp(`Voided by ${CASH.cage.id} \\(witness ${CASH.floor.id}\\)`));
    assert.equal(await list.locator(`button[data-action="void"][data-txn="${out.id}"]`).count(), 0, 'no second void');
    await shot('03-void');
    await page.locator('nav.mainnav a', {hasText: 'Title 31'}).click();
    const mtl = page.locator(`#t31-mtl tr[data-txn="${out.id}"]`);
    await mtl.waitFor();
    assert.ok(out.cents >= limits.mtl_threshold, 'the voided transaction is an MTL entry');
    assert.match(await mtl.innerText(), /Void/);
    assert.match(await mtl.innerText(), /Cage/);
    assert.match(await mtl.innerText(), new RegExp(CASH.cage.id));
    await page.locator(`#t31-voids tr[data-txn="${out.id}"]`).waitFor();
    const tot = page.locator('#t31-totals tbody tr', {hasText: ids.nora});
    assert.match(await tot.innerText(), new RegExp(`${usd(cashIn + 20000).replace(/[$.]/g, '\\$&')}\\s+\\$0\\.00`));
  });

  it('a pit boss moves a CTR item to filed with a BSA id, then adds a note', async () => {
    await as(CASH.pb, `#/title31?day=${day}`);
    const id = `${day}-${ids.leo}-in`;
    const row = page.locator(`#t31-ctr tr[data-ctr="${id}"]`);
    await row.waitFor();
    assert.match(await row.innerText(), new RegExp(usd(limits.ctr_over + 1).replace(/[$.]/g, '\\$&')));
    assert.match(await row.innerText(), /Open/);
    const [y, m, d] = day.split('-').map(Number);
    const due = new Date(Date.UTC(y, m - 1, d + 15)).toISOString().slice(0, 10);
    assert.match(await row.innerText(), new RegExp(due));
    await row.locator('button[data-action="ctr"]').click();
    const f = page.locator('form[data-form="ctr"]');
    assert.deepEqual(await f.locator('select[name="ctr-status"] option').evaluateAll(os => os.map(o => o.value)), ['', 'identified', 'filed']);
    await f.locator('select[name="ctr-status"]').selectOption('filed');
    await f.locator('input[name="ctr-bsa"]').fill('31000123456789');
    await f.locator('input[name="ctr-filed-on"]').fill(day);
    await f.locator('textarea[name="ctr-note"]').fill('Form 112 filed through the BSA E-Filing System');
    await f.locator('button[type="submit"]').click();
    await f.locator('.note-ok', {hasText: 'filed'}).waitFor();
    await row.locator('[data-status="filed"]').waitFor();
    const text = await row.innerText();
    assert.match(text, /31000123456789/);
    assert.ok(text.includes(day), 'filed on');
    assert.match(text, /Form 112 filed/);
    // A filed item may only be amended next; a note alone is recorded too.
    assert.deepEqual(await f.locator('select[name="ctr-status"] option').evaluateAll(os => os.map(o => o.value)), ['', 'amended']);
    await f.locator('select[name="ctr-status"]').selectOption('');
    await f.locator('textarea[name="ctr-note"]').fill('copy of the filing given to the compliance officer');
    await f.locator('button[type="submit"]').click();
    await row.locator('[data-note]', {hasText: 'compliance officer'}).waitFor();
    assert.equal(await row.locator('[data-note]').count(), 2, 'both notes in the history');
    const rep = await http('GET', `/api/v1/reports/title31?gaming_day=${day}`);
    const item = rep.json.ctr.find(x => x.id === id);
    assert.equal(item.status, 'filed');
    assert.equal(item.bsa_id, '31000123456789');
    assert.equal(item.filed_on, day);
    assert.equal(item.status_by, CASH.pb.id);
    await shot('04-title31');
  });

  it('merges an anonymous record into a known one on the player page; his cash counts for the survivor', async () => {
    const r = await http('POST', '/api/v1/players', {body: {description: 'tall man, grey coat'}});
    assert.equal(r.status, 201, r.text);
    const anon = r.json.id;
    const buyIn = 100000;
    const tt = await http('POST', '/api/v1/tables/T2/transactions', {body: {player: anon, direction: 'in', kind: 'cash', amount: buyIn}});
    assert.equal(tt.status, 201, tt.text);
    await page.goto(`${base}/#/players/${anon}`);
    const txns = page.locator('#player-transactions');
    await txns.locator(`tr[data-txn="${tt.json.id}"]`).waitFor();
    assert.equal(await txns.locator('[data-fig="cash_in"]').innerText(), usd(buyIn));
    const f = page.locator('form[data-form="merge"]');
    await page.locator('[data-box="merge"] summary').click();
    await f.locator('input[name="merge-into"]').fill(ids.nora);
    await f.locator('input[name="merge-reason"]').fill('the same patron: her card and the camera');
    await f.locator('input[name="merge-witness"]').fill(CASH.floor.id);
    await f.locator('input[name="merge-witness-password"]').fill(password(CASH.floor));
    await f.locator('button[type="submit"]').click();
    // Nora's cash in of the day: her cage deposits, the table's $200.00 and his buy-in.
    const noraIn = recorded.filter(t => t.direction === 'in').reduce((a, t) => a + t.cents, 0) + 20000 + buyIn;
    const ok = f.locator('.note-ok');
    await ok.waitFor();
    // a player is named with the word player and his id (tables are P1 too), by name when the page has seen his record
    assert.match(await ok.innerText(), new RegExp(`tall man, grey coat \\(player ${anon}\\) is merged into ` +
      `(${NORA.name} \\(player ${ids.nora}\\)|player ${ids.nora})\\.`));
    assert.ok((await ok.innerText()).includes(`${day}: in ${usd(noraIn)}, out ${usd(0)}`), await ok.innerText());
    await page.locator(`#player-record [data-merged-into="${ids.nora}"]`).waitFor();
    await page.reload();
    await page.locator(`#player-record [data-merged-into="${ids.nora}"] a[data-player="${ids.nora}"]`).waitFor();
    assert.equal(await page.locator('[data-box="merge"]').count(), 0, 'a merged record is not merged again');
    await shot('05-merged');
    await page.locator(`#player-record [data-merged-into] a[data-player="${ids.nora}"]`).click();
    const noraTxns = page.locator('#player-transactions');
    const row = noraTxns.locator(`tr[data-txn="${tt.json.id}"]`);
    await row.waitFor();
    assert.ok((await row.innerText()).includes('tall man, grey coat'), 'as written');
    await row.locator(`[data-counted-for="${ids.nora}"]`).waitFor();
    assert.equal(await noraTxns.locator('[data-fig="cash_in"]').innerText(), usd(noraIn));
  });

  it('an open CTR item past its due day is shown overdue, highlighted; a filed one is not', async () => {
    // Nora's cash out over the limit (her record holds an ID): an open item of the day.
    const out = limits.ctr_over + 5000;
    const r = await http('POST', '/api/v1/tables/T1/transactions', {body: {player: ids.nora, direction: 'out', kind: 'cash', amount: out}});
    assert.equal(r.status, 201, r.text);
    // The daemon's clock 17 days on: past the due day (the gaming day + 15), and past every session.
    await run.advanceClock(17 * 86400);
    await page.evaluate(() => sessionStorage.clear());
    await as(CASH.pb, `#/title31?day=${day}`);
    const open = page.locator(`#t31-ctr tr[data-ctr="${day}-${ids.nora}-out"]`);
    await open.locator('[data-overdue="yes"]').waitFor();
    assert.match(await open.getAttribute('class'), /row-overdue/);
    assert.ok((await open.innerText()).includes(usd(out)));
    const filed = page.locator(`#t31-ctr tr[data-ctr="${day}-${ids.leo}-in"]`);
    await filed.locator('[data-status="filed"]').waitFor();
    assert.equal(await filed.locator('[data-overdue]').count(), 0, 'a filed item is not overdue');
    await shot('06-overdue');
  });

  it('logged no console errors and no policy violation', () => {
    assert.deepEqual(consoleErrors, []);
    assert.deepEqual(cspViolations, []);
  });
});
