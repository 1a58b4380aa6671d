// words.test.mjs - refusals and money in sentences on the pit boss page (docs/page.md, "Refusals"), in Debian's
// headless Chromium against the real pitbossd: each kind of refusal the page shows (an opener that differs
// from the last closer, a witness refused, a serial used twice, a Title 31 alert acknowledged without a note)
// and the refusals of the daemon the pages turn into sentences (a bet under the minimum, a body the daemon
// cannot read), and the exceptions, master game and Title 31 views: the visible text free of cents, JSON and
// API codes after each, and axe-core clean.
//
//   PB_BUILD_DIR   where pitbossd is (default /work/main/build)
//   PB_SOURCE_DIR  the repository (default: two levels up from here)
//
// Run: tests/browser/run.sh words.test.mjs.
import {describe, it, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {CHROMIUM, axeViolations, jargonIn, signInAs, startPitbossd, stopPitbossd, watchConsole} from './harness.mjs';
import {launchChromium} from './harness.mjs';
import {apiClient} from './harness.mjs';

const ADMIN = 'demo-admin';
const PITBOSS = 'demo-pitboss';
const DEALER = 'demo-dealer';
const PEOPLE = {
  pb: {id: 'W-PB', name: 'Wren Pike', roles: ['pitboss']},
  fl: {id: 'W-FL', name: 'Wade Flint', roles: ['floor']},
  dl: {id: 'W-DL', name: 'Wes Dale', roles: ['dealer']},
  cg: {id: 'W-CG', name: 'Wynn Cole', roles: ['cage']},
};
const password = p => `amber-harbour-${p.id.slice(2).toLowerCase()}-73`;
const witness = p => ({person: p.id, password: password(p)});
const usd = cents => new Intl.NumberFormat('en-US', {style: 'currency', currency: 'USD'}).format(cents / 100);

let run, base, browser, page;
const api = apiClient(() => base);
const {http, ok} = api;
const consoleErrors = [];
const tok = {};

/** Makes a person with his own password; keeps a session token of his in tok. */
async function makePerson(p) {
  tok[Object.keys(PEOPLE).find(k => PEOPLE[k] === p)] = await api.makePerson(p, password(p), {session: true});
}

/** The page's text has no cents, JSON or code; and axe-core finds nothing serious. */
async function clean(what, allowed = []) {
  assert.deepEqual(await jargonIn(page, allowed), [], `${what}: jargon on screen`);
  assert.deepEqual(await axeViolations(page), [], `${what}: accessibility`);
}

/** Opens box of T1's inventory, fills it and sends it with the witness (password: the witness's, or wrong). */
async function sendDoc(box, who, fill, {wrongPassword = false} = {}) {
  const d = page.locator(`#table-inventory [data-box="${box}"]`);
  await d.waitFor();
  if (!await d.evaluate(e => e.open)) await d.locator('summary').click();
  const f = d.locator('form');
  await fill(f);
  await f.locator('input[name$="-witness"]').fill(who.id);
  await f.locator('input[name$="-witness-password"]').fill(wrongPassword ? 'not-the-password-1' : password(who));
  await f.locator('button[type="submit"]').click();
  return f;
}

async function count(f, chips) {
  for (const [d, n] of Object.entries(chips)) await f.locator(`input[data-denom="${d}"]`).fill(String(n));
}

const CLOSER = {2500: 40, 100: 20};
const ROUND = {bets: {1: {ante: 1000, pair_plus: 500}}, hands: {1: ['9h', '9d', '4c']}, dealer: ['Jc', '8s', '3d'],
  decisions: {1: 'play'}};

before(async () => {
  run = await startPitbossd('pitboss-words-', cfg => {
    cfg.sessions = {idle_seconds: 3600, absolute_seconds: 7200};
    cfg.accounting = {...(cfg.accounting || {}), signatures: 'basic'};
  });
  base = run.base;
  for (const p of Object.values(PEOPLE)) await makePerson(p);
  // T1: an opener and a closer; a round with a mispay corrected; a fill F-1.
  await ok('POST', '/api/v1/tables/T1/inventory', {token: tok.fl, body: {kind: 'opener', chips: CLOSER, witness: witness(PEOPLE.dl)}});
  const r = await ok('POST', '/api/v1/tables/T1/rounds', {token: DEALER, body: ROUND});
  const full = await ok('GET', `/api/v1/rounds/${r.round.id}`, {}, 200);
  const pp = full.round.payouts.find(l => l.wager === 'pair_plus');
  await ok('POST', `/api/v1/rounds/${r.round.id}/corrections`, {token: tok.fl,
    body: {seat: 1, wager: 'pair_plus', paid: pp.net + 2000, reason: 'paid a straight on a pair', witness: witness(PEOPLE.pb)}});
  await ok('POST', '/api/v1/tables/T1/fills', {token: tok.cg, body: {serial: 'F-1', chips: {2500: 4}, witness: witness(PEOPLE.pb)}});
  await ok('POST', '/api/v1/tables/T1/inventory', {token: tok.fl, body: {kind: 'closer', chips: CLOSER, witness: witness(PEOPLE.dl)}});
  browser = await launchChromium();
  const context = await browser.newContext({viewport: {width: 1280, height: 800}, locale: 'en-US', timezoneId: 'UTC'});
  page = await context.newPage();
  watchConsole(page, consoleErrors, () => /Failed to load resource.*status of (4\d\d)/);
});

after(async () => {
  await browser?.close();
  await stopPitbossd(run);
});

describe('refusals and money in sentences', () => {
  it('an opener that differs from the closer: the difference in dollars, what to do, no code', async () => {
    await signInAs(page, base, PEOPLE.pb, password(PEOPLE.pb), '#/table/T1');
    const f = await sendDoc('inventory', PEOPLE.dl, async form => {
      await form.locator('select[name="inv-kind"]').selectOption('opener');
      await count(form, {2500: CLOSER[2500] - 1, 100: CLOSER[100] + 2});
    });
    const msg = await f.locator('.note-error').innerText();
    assert.match(msg, new RegExp(`the opener is \\${usd(2500 - 200)} short of the table's last closer`, 'i'));
    assert.match(msg, new RegExp(`${CLOSER[2500] - 1} x \\$25 \\(was ${CLOSER[2500]}\\)`));
    assert.match(msg, /count again/i);
    await clean('opener refused');
  });

  it('a witness refused: a sentence, no code', async () => {
    const f = await sendDoc('inventory', PEOPLE.dl, async form => {
      await form.locator('select[name="inv-kind"]').selectOption('opener');
      await count(form, CLOSER);
    }, {wrongPassword: true});
    const msg = await f.locator('.note-error').innerText();
    assert.match(msg, /witness/i);
    await clean('witness refused');
  });

  it('a serial used twice: a sentence, no code', async () => {
    await signInAs(page, base, PEOPLE.cg, password(PEOPLE.cg), '#/table/T1');
    const f = await sendDoc('slip', PEOPLE.pb, async form => {
      await form.locator('select[name="slip-kind"]').selectOption('fills');
      await form.locator('input[name="slip-serial"]').fill('F-1');
      await count(form, {2500: 4});
    });
    const msg = await f.locator('.note-error').innerText();
    assert.match(msg, /serial number is used already/i);
    await clean('duplicate serial', ['F-1']);
  });

  it('the daemon\'s other refusals read as sentences: a bet under the minimum, a body it cannot read', async () => {
    const cur = await ok('POST', '/api/v1/tables/T2/rounds', {token: DEALER, body: {}});
    const bet = await http('PUT', `/api/v1/rounds/${cur.round.id}/bets/2`, {token: DEALER, body: {ante: 1}});
    assert.equal(bet.json.error.code, 'below_minimum');
    const body = await http('POST', '/api/v1/title31/acknowledgments', {token: tok.pb, body: {gaming_day: 'x'}});
    assert.equal(body.json.error.code, 'invalid_body');
    const texts = await page.evaluate(async errs => {
      const {refusalText} = await import('/js/refusals.js');
      return errs.map(e => refusalText({status: e.status, code: e.code, message: e.message}));
    }, [{status: bet.status, ...bet.json.error}, {status: body.status, ...body.json.error}]);
    assert.match(texts[0], new RegExp(`seat 2: the Ante of \\${usd(1)} is below the table's minimum`, 'i'));
    for (const t of texts) {
      assert.doesNotMatch(t, /cents|[{}]|\b[a-z]+_[a-z_]+\b|\/api\//, t);
    }
  });

  it('the exceptions view: each row in words, money in dollars, rounds by their table', async () => {
    await signInAs(page, base, PEOPLE.pb, password(PEOPLE.pb), '#/exceptions');
    const rows = page.locator('#exceptions-list tbody tr');
    await rows.first().waitFor();
    const text = await page.locator('#exceptions-list').innerText();
    assert.match(text, /Seat 1’s Pair Plus was owed \$[\d,.]+ and paid \$[\d,.]+: overpaid \$20\.00/);
    await clean('exceptions');
  });

  it('the master game: figures in dollars, a labelled note required before an acknowledgment', async () => {
    await page.goto(`${base}/#/master`);
    await page.locator('#master-game tbody tr').first().waitFor();
    await page.locator('#master-exceptions table, #master-exceptions .muted').first().waitFor();
    await clean('master game');
  });

  it('Title 31: an alert and its CTR as one item; a note asked for before it is sent', async () => {
    const pl = await ok('POST', '/api/v1/players', {body: {card: '820001', name: 'Willa Stone', id_type: 'passport', id_number: 'X1234567'}});
    const day = (await http('GET', '/api/v1/tables')).json.property.gaming_day;
    const lim = (await ok('GET', `/api/v1/reports/title31?gaming_day=${day}`, {}, 200)).limits;
    await ok('POST', '/api/v1/tables/T1/transactions', {body: {player: pl.id, direction: 'in', kind: 'cash', amount: lim.alert_at}});
    await page.goto(`${base}/#/title31?day=${day}`);
    const row = page.locator(`#t31-ctr tbody tr[data-item="${pl.id}-in"]`);
    await row.waitFor();
    assert.equal(await page.locator(`#t31-ctr tbody tr[data-item="${pl.id}-in"]`).count(), 1);
    const input = row.locator('input[name="t31-note"]');
    const id = await input.getAttribute('id');
    assert.ok(await page.locator(`label[for="${id}"]`).isVisible(), 'the note box has a visible label');
    await row.locator('button', {hasText: 'Acknowledge'}).click();
    await row.locator('.note-warn', {hasText: 'Write a note first'}).waitFor();
    await clean('Title 31, no note', [pl.id]);
    await input.fill('patron told of the limit');
    await row.locator('button', {hasText: 'Acknowledge'}).click();
    await page.locator(`#t31-ctr tbody tr[data-item="${pl.id}-in"] [data-ack="done"]`).waitFor();
    await clean('Title 31, acknowledged', [pl.id]);
  });

  it('logged no page error', () => {
    assert.deepEqual(consoleErrors, []);
  });
});
