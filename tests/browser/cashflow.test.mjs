// cashflow.test.mjs - players and Title 31 warnings at the moment of action on the pit boss page
// (docs/page.md, "Cage", "Players", "Seats"; docs/players.md, "Title 31 at the moment of action") in
// Debian's headless Chromium, against the real pitbossd on a free loopback port with a temporary database:
// a cage cashier registers a named player and the cage form says what an amount would make of his day;
// a floor supervisor edits his record on his page; at his seat a $3,500 and a $4,600 buy-in: the MTL
// entry and the alert ("take identification now") shown as the second is typed, before it is sent, the
// refusal to come and, identified, the CTR shown before a third passes $10,000; the seat, the players view
// and the floor mark him; a fill's runner typed by name; a slip voided by choosing it, its void's row
// negative.  Every figure asserted is computed here from the amounts typed and the configured limits;
// the views' visible text is free of cents, JSON and codes, and axe-core finds no serious violation.
//
// Run: tests/browser/run.sh cashflow.test.mjs (PB_BUILD_DIR, PB_SOURCE_DIR, PB_CHROMIUM as run.sh says).
// Screenshots land in tests/browser/out/cashflow-*.png.
import {describe, it, before, after} from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {CHROMIUM, axeViolations, jargonIn, recordCspViolations, screenshot, signInAs, startPitbossd, stopPitbossd,
  watchConsole} from './harness.mjs';
import {launchChromium} from './harness.mjs';
import {apiClient} from './harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const OUT = path.join(here, 'out');
const ADMIN = 'demo-admin';
const PITBOSS = 'demo-pitboss';
const LIMITS = {mtl_threshold: 300000, alert_at: 800000, ctr_over: 1000000};
const STAFF = {
  cage: {id: 'Z-CG', name: 'Wren Cole', roles: ['cage']},
  floor: {id: 'Z-FL', name: 'Wade Ford', roles: ['floor']},
  pb: {id: 'Z-PB', name: 'Wes Pryor', roles: ['pitboss']},
  sc: {id: 'Z-SC', name: 'Sam Guard', roles: ['security']},
};
const password = p => `copper-meadow-${p.id.slice(2).toLowerCase()}-83`;
const MARA = {card: '920001', name: 'Mara Stone'};
const MARA_EDIT = {name: 'Mara J. Stone', address: '12 Harbor Road, Reno NV'};
const MARA_ID = {id_type: 'passport', id_number: 'MS-440912'};

let run, base, browser, page;
const api = apiClient(() => base);
const {http} = api;
let player = '';
const consoleErrors = [];
const allowed = {cageAtTable: false};
const cspViolations = [];

const usd = cents => new Intl.NumberFormat('en-US', {style: 'currency', currency: 'USD'}).format(cents / 100);
const dollars = cents => (cents / 100).toFixed(2);

/** Makes a person with a one-time password, changed to his own; keeps a session token of his in p.token. */
async function makePerson(p) {
  p.token = await api.makePerson(p, password(p), {session: true});
}

const shot = name => screenshot(page, path.join(OUT, `cashflow-${name}.png`));
const as = (p, hash) => signInAs(page, base, p, password(p), hash);
const go = async hash => { await page.evaluate(h => { location.hash = h; }, hash); };

/** The view as the floor reads it: no cents, JSON or codes; no serious accessibility violation. */
async function clean(what, allowed = []) {
  assert.deepEqual(await jargonIn(page, allowed), [], `${what}: jargon on screen`);
  assert.deepEqual(await axeViolations(page), [], `${what}: accessibility`);
}

before(async () => {
  fs.mkdirSync(OUT, {recursive: true});
  run = await startPitbossd('pitboss-cashflow-', cfg => {
    cfg.title31 = {...LIMITS};
    cfg.sessions = {idle_seconds: 900, absolute_seconds: 3600};
  });
  base = run.base;
  for (const p of Object.values(STAFF)) await makePerson(p);
  browser = await launchChromium();
  const context = await browser.newContext({viewport: {width: 1366, height: 900}, locale: 'en-US', timezoneId: 'UTC'});
  await recordCspViolations(context, cspViolations);
  page = await context.newPage();
  // the table view's figures are not the cage's to read (a 403 the browser logs while the cage visits it)
  watchConsole(page, consoleErrors, () => (allowed.cageAtTable ? /status of 403 / : null));
});

after(async () => {
  await browser?.close();
  await stopPitbossd(run);
});

describe('players and warnings at the moment of action', () => {
  it('the page learns the Title 31 limits beside the tables', async () => {
    const prop = (await http('GET', '/api/v1/tables')).json.property;
    assert.deepEqual(prop.title31, LIMITS);
  });

  it('a cage cashier registers a named player, who becomes the patron; the amount typed is read against his day', async () => {
    await as(STAFF.cage, '#/cage');
    const reg = page.locator('#cage-register form[data-form="register"]');
    await reg.locator('input[name="cage-reg-card"]').fill(MARA.card);
    await reg.locator('input[name="cage-reg-name"]').fill(MARA.name);
    // an ID type without its number is refused by the page, nothing sent
    await reg.locator('input[name="cage-reg-id-type"]').fill('Passport');
    await reg.locator('button[type="submit"]').click();
    await reg.locator('.note-warn', {hasText: 'ID number'}).waitFor();
    await reg.locator('input[name="cage-reg-id-type"]').fill('');
    await reg.locator('button[type="submit"]').click();
    const ok = reg.locator('.note-ok');
    await ok.waitFor();
    player = /Registered .*\(player (P\d+)\)/.exec(await ok.innerText())[1];
    assert.match(await ok.innerText(), /no identification yet/);
    const rec = await http('GET', `/api/v1/players/${player}`);
    assert.equal(rec.json.name, MARA.name);
    assert.equal(rec.json.card, MARA.card);
    const f = page.locator('form[data-form="cage"]');
    await f.locator(`[data-picked="${player}"]`).waitFor();
    await f.locator('[data-standing]', {hasText: `cash in ${usd(0)}`}).waitFor();
    // $3,500.00 in at the cage: an MTL entry (at or over the threshold), under the alert
    await f.locator('select[name="cage-type"]').selectOption('front_money');
    await f.locator('select[name="cage-direction"]').selectOption('in');
    await f.locator('input[name="cage-amount"]').fill('3500');
    const pv = f.locator('[data-preview] [data-title31="preview"]');
    await pv.waitFor();
    assert.equal(await pv.getAttribute('data-mtl'), 350000 >= LIMITS.mtl_threshold ? 'yes' : 'no');
    assert.equal(await pv.getAttribute('data-level'), 'none');
    assert.ok((await pv.innerText()).includes(usd(LIMITS.ctr_over - 350000)), 'what is left before the limit');
    // more than the CTR limit at once: the refusal to come, with "take identification now"
    await f.locator('input[name="cage-amount"]').fill(dollars(LIMITS.ctr_over + 100));
    await f.locator('[data-preview] [data-title31="preview"][data-level="refused"]').waitFor();
    assert.match(await pv.innerText(), /take identification now/i);
    await f.locator('input[name="cage-amount"]').fill('');
    await clean('cage', [player]);
    await shot('01-cage-register');
  });

  it('a runner is typed by his name at the cage, and sent by his id', async () => {
    allowed.cageAtTable = true;
    await go('#/table/T1');
    await page.locator('[data-box="slip"] summary').click();
    const slip = page.locator('form[data-form="slip"]');
    await slip.locator('input[name="slip-runner"]').fill(STAFF.sc.name);
    await slip.locator('[data-runner-who]', {hasText: STAFF.sc.id}).waitFor();
    allowed.cageAtTable = false;
  });

  it('a floor supervisor edits the record on his page', async () => {
    await as(STAFF.floor, `#/players/${player}`);
    await page.locator('[data-box="player-edit"] summary').click();
    const f = page.locator('form[data-form="player-edit"]');
    assert.equal(await f.locator('input[name="edit-card"]').inputValue(), MARA.card);
    await f.locator('input[name="edit-name"]').fill(MARA_EDIT.name);
    await f.locator('input[name="edit-address"]').fill(MARA_EDIT.address);
    await f.locator('button[type="submit"]').click();
    await page.locator('#player-record', {hasText: MARA_EDIT.address}).waitFor();
    const rec = (await http('GET', `/api/v1/players/${player}`)).json;
    assert.equal(rec.name, MARA_EDIT.name);
    assert.equal(rec.address, MARA_EDIT.address);
    assert.equal(rec.card, MARA.card);
    await clean('player page', [player]);
    await shot('02-player-edit');
  });

  it('at his seat: the alert as the second buy-in is typed, the CTR before a third passes the limit; marked', async () => {
    let r = await http('PUT', `/api/v1/tables/T1/seats/3/player`, {body: {player}});
    assert.equal(r.status, 200, r.text);
    await go('#/table/T1');
    const cashIn = [350000, 460000, 200000];
    let total = 0;
    const f = page.locator('form[data-form="transaction"]');
    const pv = f.locator('[data-preview] [data-title31="preview"]');
    const open = async () => {
      await page.locator('#table-seats button[data-action="cash"][data-seat="3"]').click();
      await f.locator('select[name="txn-type"]').selectOption('chip_purchase');
    };
    const send = async cents => {
      await f.locator('button[type="submit"]').click();
      total += cents;
      await f.locator('.form-msg .note-ok', {hasText: `in ${usd(total)}`}).waitFor();
      await page.locator(`#table-seats [data-seated="${player}"]`).waitFor();
    };
    await open();
    await f.locator('input[name="txn-amount"]').fill(dollars(cashIn[0]));
    await pv.waitFor();
    assert.equal(await pv.getAttribute('data-level'), 'none', 'under the alert');
    assert.equal(await pv.getAttribute('data-mtl'), 'yes');
    await send(cashIn[0]);
    await f.locator('.form-msg [data-title31="mtl"]').waitFor();
    assert.equal(await f.locator('.form-msg [data-title31="warning"]').count(), 0, 'no warning under the alert');
    // the second, as it is typed: his day would reach the alert level, and he has no identification
    assert.ok(cashIn[0] + cashIn[1] >= LIMITS.alert_at && cashIn[0] + cashIn[1] <= LIMITS.ctr_over);
    await f.locator('input[name="txn-amount"]').fill(dollars(cashIn[1]));
    await f.locator('[data-preview] [data-title31="preview"][data-level="alert"]').waitFor();
    const alertText = await pv.innerText();
    assert.ok(alertText.includes(usd(cashIn[0] + cashIn[1])), 'his day after it');
    assert.ok(alertText.includes(usd(LIMITS.ctr_over - cashIn[0] - cashIn[1])), 'what is left before the limit');
    assert.match(alertText, /Take identification now/);
    await shot('03-seat-alert-as-typed');
    await send(cashIn[1]);
    const warn = f.locator('.form-msg [data-title31="warning"]');
    await warn.waitFor();
    assert.equal(await warn.getAttribute('data-ctr'), 'no');
    assert.match(await warn.innerText(), /Take identification now/);
    const mark = page.locator(`#table-seats [data-seated="${player}"] [data-near-limit="alert"]`);
    await mark.waitFor();
    assert.ok((await mark.innerText()).includes(usd(total)));
    // a third that passes the limit: refused without identification, said before it is sent
    assert.ok(total + cashIn[2] > LIMITS.ctr_over);
    await f.locator('input[name="txn-amount"]').fill(dollars(cashIn[2]));
    await f.locator('[data-preview] [data-title31="preview"][data-level="refused"]').waitFor();
    assert.ok((await pv.innerText()).includes(usd(total + cashIn[2])));
    // identified, the same amount is a CTR, said before it is sent, and in the answer
    r = await http('PATCH', `/api/v1/players/${player}`, {body: MARA_ID});
    assert.equal(r.status, 200, r.text);
    await page.reload();
    await page.locator(`#table-seats [data-seated="${player}"]`).waitFor();
    await open();
    await f.locator('input[name="txn-amount"]').fill(dollars(cashIn[2]));
    await f.locator('[data-preview] [data-title31="preview"][data-level="ctr"]').waitFor();
    assert.match(await pv.innerText(), /CTR:/);
    assert.ok((await pv.innerText()).includes(usd(total + cashIn[2])));
    await shot('04-seat-ctr-as-typed');
    await send(cashIn[2]);
    const ctr = f.locator('.form-msg [data-title31="warning"][data-ctr="yes"]');
    await ctr.waitFor();
    assert.ok((await ctr.innerText()).includes(usd(total)));
    await page.locator(`#table-seats [data-seated="${player}"] [data-near-limit="ctr"]`).waitFor();
    await clean('table view', [player]);
  });

  it('the floor and the players view mark him near the limit', async () => {
    await go('#/floor');
    const row = page.locator(`tr[data-table="T1"] [data-near-player="${player}"]`);
    await row.waitFor();
    assert.equal(await row.locator('[data-near-limit]').getAttribute('data-near-limit'), 'ctr');
    assert.match(await row.innerText(), /Seat 3/);
    await clean('floor', [player]);
    await shot('05-floor-marks');
    await go('#/players');
    await page.locator(`#players-seated [data-near-limit="ctr"]`).waitFor();
  });

  it('a slip is voided by choosing it; the void\u2019s row shows its amount negative', async () => {
    const chips = {2500: 8};
    const cents = 2500 * 8;
    const w = p => ({person: p.id, password: password(p)});
    const r = await http('POST', '/api/v1/tables/T1/fills', {token: STAFF.cage.token,
      body: {serial: 'WF-7', chips, runner: STAFF.sc.id, witnesses: [w(STAFF.pb), w(STAFF.sc)]}});
    assert.equal(r.status, 201, r.text);
    await go('#/floor');
    await go('#/table/T1');
    await page.locator('#table-inventory button[data-void-slip="WF-7"]').click();
    const f = page.locator('form[data-form="void"]');
    assert.equal(await f.locator('select[name="void-slip"]').inputValue(), 'fills/WF-7');
    assert.equal(await f.locator('input[name="void-serial"]').inputValue(), 'WF-7');
    await f.locator('input[name="void-reason"]').fill('written for the wrong table');
    await f.locator('input[name="void-witness"]').fill(STAFF.pb.id);
    await f.locator('input[name="void-witness-password"]').fill(password(STAFF.pb));
    await f.locator('button[type="submit"]').click();
    await f.locator('.note-ok', {hasText: 'voided'}).waitFor();
    const row = page.locator('#table-inventory tbody tr', {hasText: 'Void of fill'});
    await row.waitFor();
    assert.equal(await row.locator('[data-void-amount]').innerText(), usd(-cents));
    assert.equal(await page.locator('#table-inventory button[data-void-slip="WF-7"]').count(), 0, 'no second void');
    await clean('inventory', [player]);
    await shot('06-slip-void');
  });

  it('logged no console errors and no policy violation', () => {
    assert.deepEqual(consoleErrors, []);
    assert.deepEqual(cspViolations, []);
  });
});
