// page.test.mjs - the pit boss page in Debian's headless Chromium, against
// the real pitbossd on a free loopback port with a temporary database.
//
//   PB_BUILD_DIR   where pitbossd is (default /work/main/build)
//   PB_SOURCE_DIR  the repository (default: two levels up from here)
//   PB_CHROMIUM    the browser (default /usr/bin/chromium)
//
// Run: tests/browser/run.sh   (or: cd tests/browser && node --test)
// Screenshots of every view land in tests/browser/out/.
//
// Time: no test waits for a session to end.  The daemon runs on the test
// clock (harness.mjs, run.advanceClock) and the pages on Playwright's clock,
// installed on the context at the daemon's time; both run like the real one
// until a test that times a session stops the page's clock and moves it,
// or moves the daemon's, and after it they tell the daemon's time again.
import {describe, it, before, after} from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import nodeHttp from 'node:http';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {CHROMIUM, framingOrigin, recordCspViolations, startPitbossd, stopPitbossd, tryInline, until} from './harness.mjs';
import {launchChromium} from './harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const OUT = path.join(here, 'out');
const DEALER = 'demo-dealer';
const PITBOSS = 'demo-pitboss';
const ADMIN = 'demo-admin';
// People signing in through the page (made over HTTP with the admin token):
// a pit boss and floor supervisor with a one-time password, and one to lock out.
const ANA = {id: 'E1027', name: 'Ana Ruiz', roles: ['pitboss', 'floor'], password: 'first-shift-7731',
  next: 'lantern-harbor-71'};
const BO = {id: 'E2001', name: 'Bo Lund', roles: ['pitboss'], password: 'quiet-river-2040'};
// The daemon's idle time for sessions: long, so that no slow step of the suite (ctest gives it 300 s in
// all) ends a session; the tests of the page's timers move the clocks past it instead.
const IDLE_SECONDS = 600;
const IDLE_TEXT = '10 minutes';   // IDLE_SECONDS as the page's message writes it
const TABLE_IDS = ['T1', 'T2', 'T3', 'F1', 'P1'];
const TZ = 'America/New_York';

let run, base, browser, context, page;
const fixtures = {};
const consoleErrors = [];
// Every Content-Security-Policy violation in the pages of the test's contexts (harness.mjs).
const cspViolations = [];
const missing = {summary: false, payouts: false, exceptions: false, events: false, verify: false, bankers: false};
const screenshots = [];

// ---- the daemon ----

async function http(method, p, {token = PITBOSS, body, accept = 'application/json'} = {}) {
  const res = await fetch(base + p, {
    method,
    headers: {...(token ? {Authorization: `Bearer ${token}`} : {}), Accept: accept,
      ...(body ? {'Content-Type': 'application/json'} : {})},
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let json = null;
  try { json = JSON.parse(text); } catch { /* CSV or empty */ }
  return {status: res.status, json, text};
}

/** A sign-in sent from another loopback address (localAddress), so that its failures are not the browser's. */
function signInFrom(localAddress, person, password) {
  const body = JSON.stringify({person, password});
  const url = new URL('/api/v1/sessions', base);
  return new Promise((resolve, reject) => {
    const req = nodeHttp.request({host: url.hostname, port: url.port, path: url.pathname, method: 'POST', localAddress,
      headers: {'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body)}}, res => {
      let text = '';
      res.on('data', c => { text += c; });
      res.on('end', () => resolve({status: res.statusCode, text}));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function postRound(table, round) {
  const r = await http('POST', `/api/v1/tables/${table}/rounds`, {token: DEALER, body: round});
  assert.equal(r.status, 201, `POST round at ${table}: ${r.text}`);
  return r.json.round;
}

async function startDaemon() {
  run = await startPitbossd('pitboss-browser-', cfg => { cfg.sessions = {idle_seconds: IDLE_SECONDS, absolute_seconds: 3600}; },
    {clock: true});
  base = run.base;
}

/**
 * Stops the page's clock (Playwright's, the whole context's) a moment on from
 * the page's now: its timers then fire only when the test moves it
 * (context.clock.fastForward).  Returns the instant it stopped at.
 */
async function pausePageClock(p) {
  // pauseAt only moves forward: five seconds on covers the round trip from here, however slow.
  const at = await p.evaluate(() => Date.now()) + 5000;
  await context.clock.pauseAt(at);
  return at;
}

/** The pages' clock runs again, telling the daemon's time. */
async function resumePageClock() {
  await context.clock.resume();
  await context.clock.setSystemTime(run.now());
}

/** Deterministic rounds with known cards; ids are kept in `fixtures`. */
async function fillRounds() {
  // T1: a straight flush that plays (ante bonus, Pair Plus 40 to 1) and a fold.
  fixtures.sf = await postRound('T1', {
    bets: {1: {ante: 2500, pair_plus: 500, six_card: 500}, 3: {ante: 1000}},
    hands: {1: ['As', 'Ks', 'Qs'], 3: ['2c', '3d', '4h']},
    dealer: ['Qd', '7c', '2h'],
    decisions: {1: 'play', 3: 'fold'},
  });
  // T1: the dealer does not qualify: ante wins, play pushes.
  fixtures.nq = await postRound('T1', {
    bets: {2: {ante: 1000}}, hands: {2: ['9h', '9d', '4c']}, dealer: ['Jc', '8s', '3d'], decisions: {2: 'play'},
  });
  // T1: the dealer's pair beats king high.
  fixtures.lose = await postRound('T1', {
    bets: {1: {ante: 500, pair_plus: 500}}, hands: {1: ['2s', '7h', 'Kd']}, dealer: ['Ah', 'Ac', '5s'], decisions: {1: 'play'},
  });
  // P1, player-banked: the bank of $200 runs short on seat 1's Pair Plus.
  fixtures.banked = await postRound('P1', {
    bets: {1: {ante: 5000, pair_plus: 1000}, 2: {ante: 2000}, 4: {ante: 3000}},
    hands: {1: ['Ah', 'Ad', 'Ac'], 2: ['Kh', 'Kd', '2c'], 4: ['3s', '5d', '9h']},
    dealer: ['Qd', '7c', '2h'],
    decisions: {1: 'play', 2: 'play', 4: 'fold'},
    banker: {seat: 3, bank: 20000},
  });
  fixtures.banked2 = await postRound('P1', {
    bets: {1: {ante: 1000}}, hands: {1: ['Ts', 'Js', '4d']}, dealer: ['Kc', '6h', '3c'], decisions: {1: 'play'},
    banker: {seat: 3, bank: 18000},
  });
  // F1, Florida rules.
  fixtures.florida = await postRound('F1', {
    bets: {2: {ante: 1000, pair_plus: 500}}, hands: {2: ['5h', '5c', '9s']}, dealer: ['4d', '4s', 'Kh'], decisions: {2: 'play'},
  });
  // F1: sixteen more, so that its recall has a second page.
  const deck = ['2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A'];
  for (let i = 0; i < 16; i++) {
    await postRound('F1', {
      bets: {1: {ante: 500}}, hands: {1: [`${deck[i % 13]}c`, `${deck[(i + 3) % 13]}d`, `${deck[(i + 7) % 13]}h`]},
      dealer: [`${deck[(i + 1) % 13]}s`, `${deck[(i + 5) % 13]}s`, `${deck[(i + 9) % 13]}s`], decisions: {1: 'play'},
    });
  }
  // T2: a void round, then a round left in betting (the table's current round).
  const v = await http('POST', '/api/v1/tables/T2/rounds', {token: DEALER, body: {}});
  assert.equal(v.status, 201, v.text);
  fixtures.voided = v.json.round;
  assert.equal((await http('PUT', `/api/v1/rounds/${v.json.round.id}/bets/1`, {token: DEALER, body: {ante: 1000}})).status, 200);
  const vv = await http('POST', `/api/v1/rounds/${v.json.round.id}/void`, {token: DEALER, body: {reason: 'misdeal: exposed card'}});
  assert.equal(vv.status, 200, vv.text);
  const open = await http('POST', '/api/v1/tables/T2/rounds', {token: DEALER, body: {}});
  assert.equal(open.status, 201, open.text);
  fixtures.open = open.json.round;
  assert.equal((await http('PUT', `/api/v1/rounds/${open.json.round.id}/bets/2`, {token: DEALER, body: {ante: 2000}})).status, 200);
}

/** The people who sign in through the page. */
async function addPeople() {
  for (const p of [ANA, BO]) {
    const r = await http('POST', '/api/v1/people', {token: ADMIN,
      body: {id: p.id, name: p.name, roles: p.roles, password: p.password}});
    assert.equal(r.status, 201, `POST /people ${p.id}: ${r.text}`);
  }
}

/** Which optional endpoints this daemon offers yet (404 = not yet). */
async function probe() {
  const now = new Date().toISOString();
  const is404 = async p => (await http('GET', p)).status === 404;
  missing.summary = await is404(`/api/v1/reports/summary?group=table&to=${encodeURIComponent(now)}`);
  missing.payouts = await is404('/api/v1/reports/payouts?min=1');
  missing.exceptions = await is404('/api/v1/reports/exceptions');
  missing.events = await is404('/api/v1/events?after=0');
  missing.verify = await is404(`/api/v1/rounds/${fixtures.sf.id}/verify`);
  missing.bankers = await is404('/api/v1/tables/P1/bankers');
  const absent = Object.entries(missing).filter(([, v]) => v).map(([k]) => k);
  // Every endpoint the page uses is part of the daemon now: a missing one is a failure.
  if (absent.length) throw new Error(`the daemon does not offer: ${absent.join(', ')}`);
}

/** A 404 console line is expected only from an endpoint the probe found missing. */
function expectedConsoleError(msg) {
  const url = msg.location()?.url || '';
  if (!/Failed to load resource/.test(msg.text())) return false;
  if (/status of 401/.test(msg.text()) && expectedConsoleError.allow401) return true;
  if (/status of 429/.test(msg.text()) && expectedConsoleError.allow429) return true;
  if (/status of 400/.test(msg.text()) && expectedConsoleError.allow400) return true;
  // Table accounting: a cage or count session may not read the summary (403); a refused document (409).
  if (/status of (403|409)/.test(msg.text()) && expectedConsoleError.allowAccounting) return true;
  if (!/status of 404/.test(msg.text())) return false;
  return (missing.summary && /\/api\/v1\/reports\/summary/.test(url)) ||
    (missing.payouts && /\/api\/v1\/reports\/payouts/.test(url)) ||
    (missing.exceptions && /\/api\/v1\/reports\/exceptions/.test(url)) ||
    (missing.events && /\/api\/v1\/events/.test(url)) ||
    (missing.verify && /\/api\/v1\/rounds\/\d+\/verify/.test(url)) ||
    (missing.bankers && /\/api\/v1\/tables\/[^/]+\/bankers/.test(url));
}
expectedConsoleError.allow401 = false;
expectedConsoleError.allow429 = false;
expectedConsoleError.allow400 = false;
expectedConsoleError.allowAccounting = false;

function watch(p) {
  p.on('console', msg => {
    if (msg.type() !== 'error') return;
    if (expectedConsoleError(msg)) return;
    consoleErrors.push(`console: ${msg.text()} (${msg.location()?.url || ''})`);
  });
  p.on('pageerror', e => consoleErrors.push(`pageerror: ${e.message}`));
}

async function shot(p, name) {
  const file = path.join(OUT, `${name}.png`);
  await p.screenshot({path: file, fullPage: true});
  screenshots.push(file);
  console.log(`# screenshot: ${file}`);
}

/** Signs in with a token: the form opens on the person's id and password, the token is behind a switch. */
async function signIn(p, token = PITBOSS) {
  const input = p.locator('input[name="token"]');
  await p.locator('#signin-form').waitFor({state: 'visible'});
  if (!await input.isVisible()) await p.locator('#signin-switch', {hasText: 'Sign in with a token'}).click();
  await input.waitFor({state: 'visible'});
  await input.fill('');
  await input.type(token);
  await input.press('Enter');
}

/** Signs in with a person's id and password (the form's main way), pressing Enter. */
async function signInPerson(p, id, password) {
  await p.locator('#signin-form').waitFor({state: 'visible'});
  const person = p.locator('input[name="person"]');
  if (!await person.isVisible()) await p.locator('#signin-switch', {hasText: 'employee id'}).click();
  await person.fill(id);
  const pw = p.locator('#signin-form input[name="password"]');
  await pw.fill('');
  await pw.type(password);
  await pw.press('Enter');
}

/** The session token the page keeps, and what it keeps beside it. */
async function stored(p) {
  return p.evaluate(() => ({token: sessionStorage.getItem('pitboss.token'), session: sessionStorage.getItem('pitboss.session'),
    all: JSON.stringify(Object.fromEntries(Object.entries(sessionStorage))), local: localStorage.length}));
}

/** Waits until a session token is refused by the daemon as ended (the page's sign-out reached it). */
async function sessionEnded(token) {
  let r;
  for (let i = 0; i < 50; i++) {
    r = await http('GET', '/api/v1/tables', {token});
    if (r.status === 401) break;
    await new Promise(res => setTimeout(res, 100));
  }
  assert.equal(r.status, 401, `the session still works: ${r.text}`);
  assert.equal(r.json?.error?.code, 'session_expired');
}

async function noHorizontalOverflow(p) {
  const {sw, iw} = await p.evaluate(() => ({sw: document.documentElement.scrollWidth, iw: window.innerWidth}));
  assert.ok(sw <= iw + 1, `the page scrolls sideways: ${sw} > ${iw}`);
}

before(async () => {
  fs.mkdirSync(OUT, {recursive: true});
  await startDaemon();
  await fillRounds();
  await addPeople();
  await probe();
  assert.ok(fs.existsSync(CHROMIUM), `no Chromium at ${CHROMIUM}`);
  browser = await launchChromium();
  // A zone away from UTC, to see that times are shown in the browser's zone.
  context = await browser.newContext({viewport: {width: 1366, height: 768}, acceptDownloads: true,
    locale: 'en-US', timezoneId: TZ});
  await recordCspViolations(context, cspViolations);
  await context.clock.install({time: run.now()});
  page = await context.newPage();
  watch(page);
});

after(async () => {
  await browser?.close();
  await stopPitbossd(run);
  if (screenshots.length) console.log(`# screenshots in ${OUT}:\n${screenshots.map(s => `#   ${s}`).join('\n')}`);
});

describe('the pit boss page', () => {
  it('opens on the sign-in form and refuses a bad token', async () => {
    await page.goto(`${base}/`);
    // The main way is a person's id and password; the token is behind a switch.
    await page.locator('input[name="person"]').waitFor({state: 'visible'});
    assert.equal(await page.locator('#signin-form input[name="password"]').isVisible(), true);
    assert.equal(await page.locator('input[name="token"]').isVisible(), false, 'the token field waits behind its switch');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'person', 'the id field has the focus');
    assert.equal(await page.locator('#shell').isVisible(), false, 'nothing but sign-in before a token');
    await shot(page, '01-signin');
    expectedConsoleError.allow401 = true;
    await signIn(page, 'not-a-token');
    await page.getByText('That token was not accepted').waitFor();
    expectedConsoleError.allow401 = false;
    assert.equal(await page.evaluate(() => sessionStorage.length), 0);
  });

  it('signs in with Enter and shows every table on the floor', async () => {
    await signIn(page);
    await page.locator('table.floor').waitFor();
    for (const id of TABLE_IDS) {
      const row = page.locator(`tr[data-table="${id}"]`);
      await row.waitFor();
      assert.match(await row.innerText(), new RegExp(`\\b${id}\\b`));
    }
    assert.match(await page.locator('tr[data-table="T1"]').innerText(), /Three Card 1/);
    assert.match(await page.locator('tr[data-table="T1"]').innerText(), /Open/);
    // The round in betting at T2 is its current round; P1 shows its banker.
    await page.locator('tr[data-table="T2"]').getByText(`Round ${fixtures.open.table}-${fixtures.open.round_no}`).waitFor();
    await page.locator('tr[data-table="P1"]').getByText('Seat 3').waitFor();
    // The token is kept in sessionStorage only.
    assert.equal(await page.evaluate(() => sessionStorage.getItem('pitboss.token')), PITBOSS);
    assert.equal(await page.evaluate(() => localStorage.length), 0);
    if (!missing.summary) {
      await page.locator('tr[data-table="T1"] td:nth-child(5)').filter({hasText: /^3$/}).waitFor({timeout: 8000});
    } else {
      await page.getByText('come from the summary report').waitFor();
    }
    await noHorizontalOverflow(page);
    await shot(page, '02-floor');
  });

  it('updates the floor by itself, in place', async () => {
    const marked = await page.evaluate(() => { document.querySelector('tr[data-table="T3"]').dataset.marker = 'x'; return true; });
    assert.ok(marked);
    const r = await http('POST', '/api/v1/tables/T3/rounds', {token: DEALER, body: {}});
    assert.equal(r.status, 201, r.text);
    fixtures.t3open = r.json.round;
    // The floor's next poll, at once: the page runs on the test's clock (POLL_MS is 5 s).
    await context.clock.fastForward(5000);
    await page.locator('tr[data-table="T3"]').getByText(`Round ${r.json.round.table}-${r.json.round.round_no}`).waitFor({timeout: 12000});
    assert.equal(await page.evaluate(() => document.querySelector('tr[data-table="T3"]').dataset.marker), 'x',
      'the row was updated in place, not rebuilt');
  });

  it('reaches the views with the keyboard', async () => {
    await page.reload();
    await page.locator('table.floor').waitFor();
    let label = '';
    for (let i = 0; i < 12 && label !== 'Reports'; i++) {
      await page.keyboard.press('Tab');
      label = await page.evaluate(() => document.activeElement?.textContent?.trim() || '');
    }
    assert.equal(label, 'Reports', 'Tab reaches the Reports link');
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
    assert.notEqual(outline, 'none', 'the focused link shows a focus ring');
    await page.keyboard.press('Enter');
    await page.waitForURL(/#\/reports/);
    await page.locator('h1', {hasText: 'Reports'}).waitFor();
    await page.locator('nav.mainnav a', {hasText: 'Floor'}).click();
    await page.locator('tr[data-table="T1"] a').first().waitFor();
  });

  it('opens a table: recall, limits, hold chart', async () => {
    await page.locator('tr[data-table="T1"] a.table-id').click();
    await page.waitForURL(/#\/table\/T1$/);
    await page.locator('h1', {hasText: 'T1 · Three Card 1'}).waitFor();
    for (const f of [fixtures.sf, fixtures.nq, fixtures.lose]) await page.locator(`a[data-round="${f.id}"]`).waitFor();
    const limits = await page.locator('#table-limits').innerText();
    assert.match(limits, /\$5\.00/);
    assert.match(limits, /\$500\.00/);
    if (missing.summary) await page.locator('#table-hold').getByText('not available').waitFor();
    else await page.locator('#table-hold svg.chart').waitFor();
    await noHorizontalOverflow(page);
    await shot(page, '03-table-T1');
  });

  it('opens a round: cards drawn as cards, payouts in payout order', async () => {
    await page.locator(`a[data-round="${fixtures.sf.id}"]`).click();
    await page.waitForURL(new RegExp(`#/round/${fixtures.sf.id}$`));
    const seat1 = page.locator('[data-seat="1"]');
    for (const c of ['Ace of spades', 'King of spades', 'Queen of spades']) await seat1.locator(`.card[aria-label="${c}"]`).waitFor();
    assert.match(await seat1.innerText(), /Straight flush/);
    assert.match(await seat1.locator('.card[aria-label="Ace of spades"]').innerText(), /A/);
    assert.match(await seat1.locator('.card[aria-label="Ace of spades"]').innerText(), /♠/);
    const dealer = page.locator('.seat.dealer');
    for (const c of ['Queen of diamonds', 'Seven of clubs', 'Two of hearts']) await dealer.locator(`.card[aria-label="${c}"]`).waitFor();
    assert.match(await dealer.innerText(), /Qualifies/);
    assert.equal(await dealer.locator('.card.red').count(), 2, 'diamonds and hearts in red');
    assert.match(await page.locator('[data-seat="3"]').innerText(), /Folds/);
    // Payouts: seat 1 ante, play, Pair Plus, six card, ante bonus, then seat 3.
    const rows = page.locator('#round-payouts tbody tr');
    assert.equal(await rows.count(), 6);
    const wagers = await rows.evaluateAll(trs => trs.map(tr => tr.children[2].textContent.trim()));
    assert.deepEqual(wagers, ['Ante', 'Play', 'Pair Plus', 'Six card bonus', 'Ante bonus', 'Ante']);
    const nets = await rows.evaluateAll(trs => trs.map(tr => tr.children[5].textContent.trim()));
    assert.deepEqual(nets, ['+$25.00', '+$25.00', '+$200.00', '-$5.00', '+$125.00', '-$10.00']);
    const totals = await page.locator('#round-payouts .totals').innerText();
    assert.match(totals, /\+\$360\.00/, 'players net: 25 + 25 + 200 - 5 + 125 - 10');
    assert.match(totals, /-\$360\.00/, 'house win');
    assert.ok((await page.locator('#round-events .timeline li').count()) >= 5, 'the event timeline');
    // Times in the property's zone (GET /tables' property.time_zone), not the browser's (TZ).
    const zone = (await http('GET', '/api/v1/tables')).json.property.time_zone;
    const local = new Intl.DateTimeFormat('en-US', {timeZone: zone, timeStyle: 'medium'}).format(new Date(fixtures.sf.opened_at));
    assert.ok((await page.locator('.times').innerText()).includes(local), `opened at ${local} (${zone}; the browser in ${TZ})`);
    if (missing.verify) await page.locator('#round-verify').getByText('not available').waitFor();
    else await page.locator('#round-verify .note-ok, #round-verify .note-error').waitFor();
    await shot(page, '04-round-house');
  });

  it('shows a player-banked round with bank_after and the short line', async () => {
    await page.goto(`${base}/#/round/${fixtures.banked.id}`);
    await page.locator('#round-payouts tbody tr').first().waitFor();
    assert.match(await page.locator('#round-payouts thead').innerText(), /BANK AFTER/i);
    const shortRow = page.locator('#round-payouts tr.row-short');
    assert.equal(await shortRow.count(), 1);
    assert.match(await shortRow.innerText(), /\$170\.00 unpaid/);
    // Payout order starts after the banker's seat 3: seat 4 first.
    const seats = await page.locator('#round-payouts tbody tr').evaluateAll(trs => trs.map(tr => tr.children[1].textContent.trim()));
    assert.deepEqual(seats, ['4', '1', '1', '1', '1', '2', '2']);
    assert.match(await page.locator('[data-seat="3"]').innerText(), /Banker/);
    await shot(page, '05-round-player-banked');
    await page.goto(`${base}/#/table/P1`);
    await page.locator('#table-bankers table, #table-bankers .empty').first().waitFor();
    await shot(page, '06-table-P1');
  });

  it('pages through a table\'s rounds with next_before', async () => {
    await page.goto(`${base}/#/table/F1`);
    const rows = page.locator('#table-rounds tbody tr');
    await rows.first().waitFor();
    assert.equal(await rows.count(), 15, 'a page of 15 rounds');
    assert.equal(await page.locator(`a[data-round="${fixtures.florida.id}"]`).count(), 0, 'the oldest round is on page 2');
    await page.locator('#table-rounds button', {hasText: 'Older'}).click();
    await page.locator(`a[data-round="${fixtures.florida.id}"]`).waitFor();
    assert.match(await page.locator('#table-rounds .page-no').innerText(), /Page 2/);
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.page ?? document.activeElement?.textContent), 'newer',
      'focus stays on the pager');
    await page.locator('#table-rounds button', {hasText: 'Newer'}).click();
    await page.locator('#table-rounds .page-no', {hasText: 'Page 1'}).waitFor();
  });

  it('shows a void round as void', async () => {
    await page.goto(`${base}/#/round/${fixtures.voided.id}`);
    await page.locator('.note', {hasText: 'misdeal: exposed card'}).waitFor();
    const results = await page.locator('#round-payouts tbody tr').evaluateAll(trs => trs.map(tr => tr.children[4].textContent.trim()));
    assert.ok(results.length >= 1 && results.every(r => /Returned/.test(r)), `void lines are returned: ${results}`);
  });

  it('shows reports and downloads the summary as CSV', async (t) => {
    await page.locator('nav.mainnav a', {hasText: 'Reports'}).click();
    await page.waitForURL(/#\/reports/);
    await page.locator('#report-summary').waitFor();
    if (missing.summary) {
      await page.locator('#report-summary').getByText('not available').waitFor();
      await page.locator('#report-summary button', {hasText: 'Download CSV'}).click();
      await page.locator('#report-summary').getByText('CSV is not available').waitFor();
      await shot(page, '07-reports');
      t.skip('GET /api/v1/reports/summary is not offered yet: the page shows its "not available" note');
      return;
    }
    const summary = page.getByRole('table', {name: 'Summary report'});
    await summary.waitFor();
    await page.locator('#report-summary svg.chart').waitFor();
    const text = await summary.innerText();
    assert.match(text, /T1/);
    assert.match(text, /Total/);
    await shot(page, '07-reports');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('#report-summary button', {hasText: 'Download CSV'}).click(),
    ]);
    const file = path.join(OUT, 'summary.csv');
    await download.saveAs(file);
    const csv = fs.readFileSync(file, 'utf8');
    console.log(`# downloaded ${download.suggestedFilename()} -> ${file}`);
    const lines = csv.trim().split(/\r?\n/);
    assert.ok(lines.length >= 2, `CSV has a header and rows:\n${csv}`);
    assert.match(lines[0], /rounds/i, 'CSV header');
    assert.match(csv, /T1/, 'CSV names table T1');
    assert.ok(!/^\s*[{[]/.test(csv), 'CSV, not JSON');
  });

  it('lists large payouts', async (t) => {
    const payouts = page.locator('#report-payouts');
    await payouts.locator('input[type="number"]').fill('100');
    await payouts.locator('button[type="submit"]').click();
    if (missing.payouts) {
      await payouts.getByText('not available').waitFor();
      t.skip('GET /api/v1/reports/payouts is not offered yet');
      return;
    }
    await payouts.locator('table.data').waitFor();
    const text = await payouts.locator('table.data').innerText();
    assert.match(text, /\$200\.00|\$125\.00/, 'the $200 Pair Plus or $125 ante bonus win is listed');
  });

  it('shows exceptions and significant events', async () => {
    await page.locator('nav.mainnav a', {hasText: 'Exceptions'}).click();
    await page.locator('#exceptions-list').waitFor();
    await page.locator('#exceptions-list table.data, #exceptions-list .empty, #exceptions-list .note').first().waitFor();
    if (missing.exceptions) await page.locator('#exceptions-list').getByText('not available').waitFor();
    await shot(page, '08-exceptions');
    await page.locator('nav.mainnav a', {hasText: 'Events'}).click();
    await page.locator('#events-list').waitFor();
    await page.locator('#events-list table.data, #events-list .empty, #events-list .note').first().waitFor();
    if (missing.events) await page.locator('#events-list').getByText('not available').waitFor();
    await shot(page, '09-events');
  });

  it('goes back to sign-in on a 401, with a message', async () => {
    await page.evaluate(() => sessionStorage.setItem('pitboss.token', 'revoked-token'));
    expectedConsoleError.allow401 = true;
    await page.evaluate(() => { location.hash = '#/floor'; });
    await page.getByText('Your session has ended').waitFor();
    expectedConsoleError.allow401 = false;
    assert.equal(await page.evaluate(() => sessionStorage.getItem('pitboss.token')), null);
    await signIn(page);
    await page.locator('table.floor').waitFor();
  });

  it('signs out', async () => {
    await page.locator('#signout').click();
    await page.locator('input[name="token"]').waitFor({state: 'visible'});
    assert.equal(await page.evaluate(() => sessionStorage.getItem('pitboss.token')), null);
    assert.equal(await page.locator('#shell').isVisible(), false);
  });

  it('refuses a wrong password with its message', async () => {
    await page.locator('#signin-switch', {hasText: 'employee id'}).click();
    expectedConsoleError.allow401 = true;
    await signInPerson(page, ANA.id, 'not-the-password-1');
    await page.locator('#signin-message').getByText('Unknown employee id or wrong password').waitFor();
    expectedConsoleError.allow401 = false;
    assert.equal(await page.locator('#shell').isVisible(), false);
    assert.equal(await page.locator('#signin-form input[name="password"]').inputValue(), '', 'the wrong password is cleared');
    assert.equal(await page.evaluate(() => sessionStorage.length), 0);
  });

  it('signs in with a person: the one-time password changed, the name in the header, the floor, sign-out', async () => {
    await signInPerson(page, ANA.id, ANA.password);
    // The one-time password must be changed first: the daemon refuses anything else meanwhile.
    const form = page.locator('#password-form');
    await form.waitFor({state: 'visible'});
    assert.match(await form.innerText(), /Ana Ruiz \(E1027\)/);
    assert.equal(await page.locator('#shell').isVisible(), false);
    const pending = await stored(page);
    assert.match(pending.token, /^pbs_[0-9a-f]{64}$/, 'the session token is kept');
    const r = await http('GET', '/api/v1/tables', {token: pending.token});
    assert.equal(r.status, 403);
    assert.equal(r.json.error.code, 'password_change_required');
    await shot(page, '12-password-change');
    // Two different new passwords are refused here, before the daemon is asked.
    await form.locator('input[name="current"]').fill(ANA.password);
    await form.locator('input[name="new-password"]').fill(ANA.next);
    await form.locator('input[name="confirm-password"]').fill(`${ANA.next}x`);
    await form.locator('input[name="confirm-password"]').press('Enter');
    await form.getByText('The two new passwords differ').waitFor();
    // A password the daemon's policy refuses (it holds the person's name): its message.
    await form.locator('input[name="new-password"]').fill('ruiz-at-the-table-9');
    await form.locator('input[name="confirm-password"]').fill('ruiz-at-the-table-9');
    expectedConsoleError.allow400 = true;
    await form.locator('input[name="confirm-password"]').press('Enter');
    await form.getByText('That password cannot be used').waitFor();
    expectedConsoleError.allow400 = false;
    await form.locator('input[name="current"]').fill(ANA.password);
    await form.locator('input[name="new-password"]').fill(ANA.next);
    await form.locator('input[name="confirm-password"]').fill(ANA.next);
    await form.locator('input[name="confirm-password"]').press('Enter');
    await page.locator('table.floor').waitFor();
    // Who is signed in: name, id and roles in the header.
    const who = await page.locator('#who').innerText();
    assert.match(who, /Ana Ruiz/);
    assert.match(who, /E1027/);
    assert.match(who, /Pit boss, Floor supervisor/);
    // The session token in sessionStorage, never a password; nothing in localStorage or the address.
    const kept = await stored(page);
    assert.equal(kept.token, pending.token);
    assert.ok(!kept.all.includes(ANA.password) && !kept.all.includes(ANA.next), 'no password is stored');
    assert.equal(kept.local, 0);
    assert.ok(!page.url().includes(kept.token), 'the token is not in the address');
    assert.equal(JSON.parse(kept.session).must_change_password, false);
    // The floor, as with a token.
    for (const id of TABLE_IDS) await page.locator(`tr[data-table="${id}"]`).waitFor();
    await page.locator('tr[data-table="T2"]').getByText(`Round ${fixtures.open.table}-${fixtures.open.round_no}`).waitFor();
    await noHorizontalOverflow(page);
    await shot(page, '13-person-floor');
    await page.locator('tr[data-table="T1"] a.table-id').click();
    await page.locator('h1', {hasText: 'T1 · Three Card 1'}).waitFor();
    await page.locator(`a[data-round="${fixtures.sf.id}"]`).waitFor();
    // Sign-out ends the session at the daemon too, and offers the person's id again.
    await page.locator('#signout').click();
    await page.locator('#signin-form').getByText('You have signed out').waitFor();
    assert.equal(await page.locator('input[name="person"]').inputValue(), ANA.id);
    assert.equal(await page.evaluate(() => document.activeElement?.name), 'password');
    assert.equal(await page.evaluate(() => sessionStorage.length), 0);
    await sessionEnded(kept.token);
  });

  it('signs out by itself when the page is left idle', async () => {
    // Signing in again returns to the view of before (table T1): back to the floor.
    await signInPerson(page, ANA.id, ANA.next);
    await page.locator('h1', {hasText: 'T1 · Three Card 1'}).waitFor();
    // The page's clock stops, so that the person's last activity, the click on Floor, is at a known instant.
    await pausePageClock(page);
    await page.locator('nav.mainnav a', {hasText: 'Floor'}).click();
    await page.locator('table.floor').waitFor();
    const {token} = await stored(page);
    // The floor keeps polling (each step of the clock runs its poll); only the person's own activity counts:
    // a second before the idle time the person is still signed in ...
    const step = (IDLE_SECONDS * 1000 - 1000) / 4;
    for (let i = 0; i < 4; i++) await context.clock.fastForward(step);
    assert.equal(await page.locator('#shell').isVisible(), true, 'signed out before the idle time');
    assert.equal(await page.locator('#signin-form').isVisible(), false);
    // ... and signed out once it has passed, with a message that names it.
    await context.clock.fastForward(1000);
    await page.locator('#signin-form').getByText('without activity').waitFor();
    assert.match(await page.locator('#signin-message').innerText(), new RegExp(`after ${IDLE_TEXT} without activity`));
    assert.equal(await page.locator('#shell').isVisible(), false);
    assert.equal(await page.locator('input[name="person"]').inputValue(), ANA.id);
    assert.equal(await page.evaluate(() => sessionStorage.length), 0);
    // The page ended the session at the daemon.
    await sessionEnded(token);
    await resumePageClock();
  });

  it('goes back to the form when the daemon answers session_expired', async () => {
    await signInPerson(page, ANA.id, ANA.next);
    await page.locator('table.floor').waitFor();
    const {token} = await stored(page);
    // The session ends at the daemon (as when it expires, or the person is disabled): the next call says so.
    assert.equal((await http('DELETE', '/api/v1/sessions/current', {token})).status, 200);
    expectedConsoleError.allow401 = true;
    await page.locator('nav.mainnav a', {hasText: 'Reports'}).click();
    await page.locator('#signin-form').getByText('Your session has expired').waitFor();
    assert.equal(await page.locator('#shell').isVisible(), false);
    assert.equal(await page.evaluate(() => sessionStorage.length), 0);
    // Signing in again returns to the same view.  The view's other requests of the ended session
    // (the large payouts go to the daemon's reader pool) may answer their 401 after the first one
    // brought the form back: those stay expected until the new session's view is shown.
    await signInPerson(page, ANA.id, ANA.next);
    await page.locator('h1', {hasText: 'Reports'}).waitFor();
    expectedConsoleError.allow401 = false;
    // The daemon ends a session by itself too: its idle time passes without a request (the page asleep,
    // its own timers stopped), and the page's next call is answered session_expired.
    const {token: second} = await stored(page);
    await pausePageClock(page);
    await run.advanceClock(IDLE_SECONDS);
    expectedConsoleError.allow401 = true;
    await page.locator('nav.mainnav a', {hasText: 'Floor'}).click();
    await page.locator('#signin-form').getByText('Your session has expired').waitFor();
    assert.equal(await page.locator('#shell').isVisible(), false);
    assert.equal(await page.evaluate(() => sessionStorage.length), 0);
    const r = await http('GET', '/api/v1/tables', {token: second});
    assert.equal(r.status, 401, r.text);
    assert.equal(r.json.error.code, 'session_expired');
    assert.match(r.json.error.message, /idle too long/);
    await resumePageClock();
    // Signing in again returns to the floor; back to the reports, and sign out.
    await signInPerson(page, ANA.id, ANA.next);
    await page.locator('table.floor').waitFor();
    expectedConsoleError.allow401 = false;
    await page.locator('nav.mainnav a', {hasText: 'Reports'}).click();
    await page.locator('h1', {hasText: 'Reports'}).waitFor();
    await page.locator('#signout').click();
    await page.locator('#signin-form').getByText('You have signed out').waitFor();
  });

  it('keeps the session over a reload and signs out at expires_at', async () => {
    const signingIn = await page.evaluate(() => Date.now());
    await signInPerson(page, ANA.id, ANA.next);
    await page.locator('h1', {hasText: 'Reports'}).waitFor();
    const signedIn = await page.evaluate(() => Date.now());
    const {token, session} = await stored(page);
    // The end is kept on this browser's clock: expires_at, absolute_seconds = 3600 after sign-in (give or
    // take the Date header's second and how closely the page's clock tells the daemon's), however long
    // the sign-in took.
    const end = JSON.parse(session).ends_at_ms;
    assert.ok(end >= signingIn + 3600 * 1000 - 2000 && end <= signedIn + 3600 * 1000 + 2000,
      `the session ends ${end - signingIn} ms after the sign-in began, ${end - signedIn} ms after it ended`);
    // A reload keeps the person signed in; bring the end near to see the page act on it.
    await page.evaluate(() => {
      const s = JSON.parse(sessionStorage.getItem('pitboss.session'));
      s.ends_at_ms = Date.now() + 60000;
      sessionStorage.setItem('pitboss.session', JSON.stringify(s));
    });
    await page.reload();
    await page.locator('h1', {hasText: 'Reports'}).waitFor();
    assert.match(await page.locator('#who').innerText(), /Ana Ruiz/);
    // The page's clock to a second before the end: still signed in; then to the end: signed out.
    const near = JSON.parse((await stored(page)).session).ends_at_ms;
    await context.clock.pauseAt(near - 1000);
    assert.equal(await page.locator('#shell').isVisible(), true, 'signed out before expires_at');
    await context.clock.fastForward(1000);
    await page.locator('#signin-form').getByText('reached its time limit').waitFor();
    assert.equal(await page.locator('#shell').isVisible(), false);
    assert.equal(await page.evaluate(() => sessionStorage.length), 0);
    await sessionEnded(token);
    await resumePageClock();
  });

  it('says so when a person is locked out', async () => {
    // Five wrong passwords in a row, from another address, lock the person out at every address he has
    // not signed in from (this browser's included); the guesser's address is locked out as well.
    let last;
    for (let i = 0; i < 5; i++) last = await signInFrom('127.0.0.5', BO.id, `wrong-guess-${i}0000`);
    assert.equal(last.status, 429, last.text);
    // Even the right password is refused now, and the page says why, without naming anyone.
    expectedConsoleError.allow429 = true;
    await signInPerson(page, BO.id, BO.password);
    await page.locator('#signin-message').getByText('Locked out:').waitFor();
    expectedConsoleError.allow429 = false;
    const said = await page.locator('#signin-message').innerText();
    assert.match(said, /too many wrong passwords for this id/);
    assert.doesNotMatch(said, /E2001/);
    assert.equal(await page.locator('#shell').isVisible(), false);
    assert.equal(await page.evaluate(() => sessionStorage.length), 0);
    await shot(page, '14-locked-out');
  });

  it('is usable on a tablet', async () => {
    const tablet = await browser.newContext({viewport: {width: 820, height: 1180}, hasTouch: true, deviceScaleFactor: 1});
    await recordCspViolations(tablet, cspViolations);
    await tablet.clock.install({time: run.now()});
    const tp = await tablet.newPage();
    watch(tp);
    await tp.goto(`${base}/`);
    await signIn(tp);
    await tp.locator('tr[data-table="P1"]').waitFor();
    await noHorizontalOverflow(tp);
    await shot(tp, '10-tablet-floor');
    await tp.goto(`${base}/#/round/${fixtures.banked.id}`);
    await tp.locator('#round-payouts tbody tr').first().waitFor();
    await noHorizontalOverflow(tp);
    await shot(tp, '11-tablet-round');
    await tablet.close();
  });

  it('is served under a policy that refuses inline style and script, and reports it', async () => {
    const probe = await browser.newContext();
    const seen = [];
    await recordCspViolations(probe, seen);
    const p = await probe.newPage();
    const res = await p.goto(`${base}/`);
    assert.match(res.headers()['content-security-policy'], /frame-ancestors 'none'/);
    await p.locator('#signin-form').waitFor({state: 'visible'});
    assert.deepEqual(seen, [], 'the page itself breaks no rule of the policy');
    assert.deepEqual(await tryInline(p), {styled: false, ran: false, seen: ['script-src-elem', 'style-src-attr']});
    // The same two reach the test's list: a violation anywhere in these tests fails them.
    assert.ok(await until(() => seen.length === 2), `recorded: ${JSON.stringify(seen)}`);
    assert.deepEqual(seen.map(v => v.directive).sort(), ['script-src-elem', 'style-src-attr']);
    await probe.close();
  });

  it('refuses to be framed by a page of another origin', async () => {
    const outer = await framingOrigin(base);
    const ctx = await browser.newContext();
    try {
      const p = await ctx.newPage();
      const refused = [];
      p.on('console', m => { if (/frame-ancestors 'none'/.test(m.text())) refused.push(m.text()); });
      await p.goto(`${outer.origin}/`);
      // The framing page's own frame shows: frames work there.
      const own = await (await p.$('#own')).contentFrame();
      assert.equal(await own.locator('#own-text').innerText(), 'framed here');
      for (const id of ['pit', 'dealer']) {
        const f = await (await p.$(`#${id}`)).contentFrame();
        assert.ok(!f.url().startsWith(base), `#${id} shows ${f.url()}`);
        assert.equal(await f.locator('form').count(), 0, `#${id} shows a form of the daemon's page`);
      }
      assert.ok(await until(() => refused.length >= 2), `the browser said: ${refused}`);
      assert.ok(refused.every(m => m.includes(base)), refused.join('\n'));
    } finally {
      await ctx.close();
      await outer.close();
    }
  });

  it('never lets the browser send the sign-in form itself, with the password in the address', async () => {
    // The page's script sends the forms; here it is off and the test shows the form, so Enter makes
    // the browser send it (a GET to the page's address, the id and password in the query): refused.
    const ctx = await browser.newContext({javaScriptEnabled: false});
    try {
      const p = await ctx.newPage();
      const refused = [], sent = [];
      p.on('console', m => { if (/form-action 'none'/.test(m.text())) refused.push(m.text()); });
      p.on('request', r => sent.push(r.url()));
      await p.goto(`${base}/`);
      await p.$eval('#signin', el => { el.hidden = false; });
      await p.locator('#person').fill('E9999');
      await p.locator('#password').fill('typed-but-never-sent');
      await p.locator('#password').press('Enter', {noWaitAfter: true});
      assert.ok(await until(() => refused.length === 1), `the browser said: ${refused}`);
      assert.equal(p.url(), `${base}/`);
      assert.deepEqual(sent.filter(u => u.includes('typed-but-never-sent')), []);
    } finally {
      await ctx.close();
    }
  });

  it('logged no console errors and no policy violation', () => {
    assert.deepEqual(consoleErrors, []);
    assert.deepEqual(cspViolations, []);
  });
});

// ---- table accounting (docs/accounting.md): documents signed through the page ----

// People made over HTTP, their one-time password changed over HTTP too, so that they sign in
// with their own; each signs what their role signs, and witnesses sign with their id and password.
const ACCT = {
  pb: {id: 'A-PB', name: 'Pia Boss', roles: ['pitboss']},
  pc: {id: 'A-PC', name: 'Paco Chief', roles: ['pitboss']},
  fl: {id: 'A-FL', name: 'Fred Floor', roles: ['floor']},
  dl: {id: 'A-DL', name: 'Dora Deal', roles: ['dealer']},
  cg: {id: 'A-CG', name: 'Cato Cage', roles: ['cage']},
  ct: {id: 'A-CT', name: 'Cora Count', roles: ['count']},
  ct2: {id: 'A-CU', name: 'Curt Count', roles: ['count']},
  ct3: {id: 'A-CV', name: 'Cleo Count', roles: ['count']},
  sc: {id: 'A-SC', name: 'Sid Runner', roles: ['security']},
};
const acctPassword = p => `violet-meadow-${p.id.slice(2).toLowerCase()}${p.id.length}-9`;

async function makeAcctPerson(p) {
  const first = `${acctPassword(p)}-first`;
  let r = await http('POST', '/api/v1/people', {token: ADMIN, body: {id: p.id, name: p.name, roles: p.roles, password: first}});
  assert.equal(r.status, 201, `POST /people ${p.id}: ${r.text}`);
  r = await http('POST', '/api/v1/sessions', {token: null, body: {person: p.id, password: first}});
  assert.equal(r.status, 201, r.text);
  const tok = r.json.token;
  r = await http('PUT', `/api/v1/people/${p.id}/password`, {token: tok, body: {current: first, password: acctPassword(p)}});
  assert.equal(r.status, 200, r.text);
  await http('DELETE', '/api/v1/sessions/current', {token: tok});
}

describe('table accounting on the page', () => {
  let ap;
  const T = 'T3';
  const fig = {handWin: 0, opener: 0, fills: 0, credits: 0, drop: 0, closer: 0, closer2: 0};

  /** Signs ap in as p (after signing out whoever is in) and opens table T. */
  async function as(p) {
    if (await ap.locator('#signout').isVisible()) await ap.locator('#signout').click();
    await signInPerson(ap, p.id, acctPassword(p));
    await ap.locator('#who', {hasText: p.name}).waitFor();
    await ap.goto(`${base}/#/table/${T}`);
    await ap.locator('#table-inventory .inv-list table, #table-inventory .inv-list .empty').first().waitFor();
  }

  /** Opens a form's box, fills the witness (or each of a list: the drop's count team) and submits; returns the form. */
  async function submit(box, witness, fill) {
    const d = ap.locator(`#table-inventory [data-box="${box}"]`);
    if (!await d.evaluate(e => e.open)) await d.locator('summary').click();
    const f = d.locator('form');
    await fill(f);
    const names = Array.isArray(witness) ? witness.map((w, i) => [w, `${box}-${i + 1}-witness`]) : [[witness, null]];
    for (const [w, name] of names) {
      await f.locator(name ? `input[name="${name}"]` : 'input[name$="-witness"]').fill(w.id);
      await f.locator(name ? `input[name="${name}-password"]` : 'input[name$="-witness-password"]').fill(acctPassword(w));
    }
    await f.locator('button[type="submit"]').click();
    return f;
  }

  async function count(f, chips) {
    for (const [d, n] of Object.entries(chips)) await f.locator(`input[data-denom="${d}"]`).fill(String(n));
  }

  before(async () => {
    expectedConsoleError.allowAccounting = true;
    for (const p of Object.values(ACCT)) await makeAcctPerson(p);
    // The floor test left a round in betting at T3 (no bets): voided, it wins nothing.
    const t3 = await http('GET', `/api/v1/tables/${T}`);
    if (t3.json.table.current_round) {
      const v = await http('POST', `/api/v1/rounds/${t3.json.table.current_round}/void`, {token: DEALER, body: {reason: 'opened by the floor test'}});
      assert.equal(v.status, 200, v.text);
    }
    ap = await context.newPage();
    await ap.setViewportSize({width: 1366, height: 900});
    watch(ap);
    await ap.goto(`${base}/`);
  });

  after(async () => {
    await ap?.close();
  });

  /** Rounds at T3 once its opener is recorded: the hand win is what the house won on them, from their payout lines. */
  async function dealRounds() {
    const rounds = [
      {bets: {1: {ante: 1000}}, hands: {1: ['2s', '7h', 'Kd']}, dealer: ['Ah', 'Ac', '5s'], decisions: {1: 'play'}},
      {bets: {2: {ante: 2000, pair_plus: 500}}, hands: {2: ['9h', '9d', '4c']}, dealer: ['Jc', '8s', '3d'], decisions: {2: 'play'}},
      {bets: {3: {ante: 3000}}, hands: {3: ['2c', '3d', '5h']}, dealer: ['Qd', '7c', '2h'], decisions: {3: 'fold'}},
    ];
    for (const r of rounds) {
      const got = await postRound(T, r);
      const full = await http('GET', `/api/v1/rounds/${got.id}`);
      fig.handWin -= full.json.round.payouts.reduce((a, l) => a + l.net, 0);
    }
    assert.notEqual(fig.handWin, 0, 'a hand win that tells the figures apart');
  }

  it('a pit boss records the opener with a dealer as witness; the running total shows as counts are typed', async () => {
    await as(ACCT.pb);
    assert.equal(await ap.locator('#table-inventory [data-box="slip"]').count(), 0, 'no fill form for a pit boss');
    assert.equal(await ap.locator('#table-inventory [data-box="drop"]').count(), 0, 'no drop form for a pit boss');
    const f = await submit('inventory', ACCT.dl, async form => {
      await form.locator('select[name="inv-kind"]').selectOption('opener');
      await count(form, {2500: 40, 500: 10});
      assert.equal(await form.locator('.running-total').innerText(), '$1,050.00');
    });
    await f.locator('.note-ok', {hasText: 'Recorded: opener of $1,050.00'}).waitFor();
    fig.opener = 105000;
    const row = ap.locator('#table-inventory tbody tr', {hasText: 'Opener'});
    await row.waitFor();
    const text = await row.innerText();
    assert.match(text, /\$1,050\.00/);
    assert.match(text, /A-PB/);
    assert.match(text, /A-DL/);
    await shot(ap, '15-inventory-opener');
    await dealRounds();     // after the opener: the master game's hand win counts the rounds between opener and closer
  });

  it('a cage cashier records a fill and a credit signed by the floor and the runner, and voids a wrong fill', async () => {
    await as(ACCT.cg);
    assert.equal(await ap.locator('#table-inventory [data-box="inventory"]').count(), 0, 'no opener form for the cage');
    const slip = async (kind, serial, chips) => {
      const f = await submit('slip', ACCT.pb, async form => {
        await form.locator('select[name="slip-kind"]').selectOption(kind);
        await form.locator('input[name="slip-serial"]').fill(serial);
        await count(form, chips);
        await form.locator('input[name="slip-runner"]').fill(ACCT.sc.id);
        await form.locator('input[name="slip-runner-password"]').fill(acctPassword(ACCT.sc));
      });
      await f.locator('.note-ok', {hasText: serial}).waitFor();
    };
    await slip('fills', 'BF-100', {500: 40});
    await slip('credits', 'BC-100', {2500: 2});
    await slip('fills', 'BF-101', {10000: 3});
    fig.fills = 20000;
    fig.credits = 5000;
    const v = await submit('void', ACCT.pb, async form => {
      await form.locator('select[name="void-kind"]').selectOption('fills');
      await form.locator('input[name="void-serial"]').fill('BF-101');
      await form.locator('input[name="void-reason"]').fill('slip written for table T1');
    });
    await v.locator('.note-ok', {hasText: 'voided'}).waitFor();
    const voided = ap.locator('#table-inventory tr.row-voided');
    await voided.waitFor();
    assert.match(await voided.innerText(), /BF-101/);
    assert.match(await voided.innerText(), /slip written for table T1/);
    assert.equal(await voided.locator('del').count(), 2, 'the slip and its amount struck through');
    // Issued, not yet received at the table: pending, and not counted (accounting.signatures "nj").
    await ap.locator('#table-inventory [data-total="pending"]', {hasText: '2 not received'}).waitFor();
    assert.equal(await ap.locator('#table-inventory [data-total="fills"] dd').innerText(), '$0.00');
    const pending = ap.locator('#table-inventory tr.row-pending', {hasText: 'BF-100'});
    assert.match(await pending.innerText(), /Pending/);
    assert.match(await pending.innerText(), /A-PB, A-SC/);
    assert.equal(await ap.locator('#table-inventory button[data-receive]').count(), 0, 'the cage receives no slip');
  });

  it('a floor supervisor receives the pending slips with the dealer as witness; then they count', async () => {
    await as(ACCT.fl);
    const box = ap.locator('#table-inventory [data-box="receipt"]');
    for (const serial of ['BF-100', 'BC-100']) {
      await ap.locator(`#table-inventory button[data-receive="${serial}"]`).click();
      assert.equal(await box.evaluate(e => e.open), true, 'the receipt form opens on the slip');
      const f = box.locator('form');
      assert.equal(await f.locator('input[name="receipt-serial"]').inputValue(), serial);
      await f.locator('input[name="receipt-witness"]').fill(ACCT.dl.id);
      await f.locator('input[name="receipt-witness-password"]').fill(acctPassword(ACCT.dl));
      await f.locator('button[type="submit"]').click();
      await f.locator('.note-ok', {hasText: `${serial} received`}).waitFor();
    }
    await ap.locator('#table-inventory [data-total="fills"]', {hasText: '$200.00'}).waitFor();
    await ap.locator('#table-inventory [data-total="credits"]', {hasText: '$50.00'}).waitFor();
    assert.equal(await ap.locator('#table-inventory [data-total="pending"]').count(), 0);
    assert.equal(await ap.locator('#table-inventory button[data-receive]').count(), 0);
    const row = ap.locator('#table-inventory tbody tr', {hasText: 'Fill BF-100'}).first();
    assert.match(await row.innerText(), /Received/);
    assert.match(await row.innerText(), /by A-FL \(witness A-DL\)/);
  });

  it('the count team records the drop: a count sheet by denomination, three signers', async () => {
    await as(ACCT.ct);
    assert.equal(await ap.locator('#table-inventory [data-box="void"]').count(), 0, 'no void form for the count team');
    const bills = {10000: 2, 2000: 2, 100: 10}, chips = {2500: 2}, markers = 1000;
    const sum = o => Object.entries(o).reduce((a, [d, n]) => a + Number(d) * n, 0);
    const today = (await http('GET', '/api/v1/tables')).json.property.gaming_day;
    // two counters are not a count team: refused, the daemon saying how many more
    let f = await submit('drop', [ACCT.ct2], async form => {
      assert.notEqual(await form.locator('input[name="drop-day"]').inputValue(), today, 'the day that ended by default');
      await form.locator('input[name="drop-day"]').fill(today);
      await form.locator('input[name="drop-box"]').fill('D-T3');
      for (const [d, n] of Object.entries(bills)) await form.locator(`input[data-bill="${d}"]`).fill(String(n));
      await count(form, chips);
      await form.locator('input[name="drop-markers"]').fill(String(markers / 100));
      const usd = n => new Intl.NumberFormat('en-US', {style: 'currency', currency: 'USD'}).format(n / 100);
      assert.equal(await form.locator('.drop-total').innerText(), usd(sum(bills) + sum(chips) + markers));
    });
    const refusal = f.locator('.note-error');
    await refusal.waitFor();
    assert.match(await refusal.innerText(), /witness must sign/);
    assert.equal(await refusal.getAttribute('data-code'), 'witness_required');
    assert.match(await refusal.innerText(), /1 more/);
    // the count sheet is still there: the team signs it
    f = await submit('drop', [ACCT.ct2, ACCT.ct3], async () => {});
    await f.locator('.note-ok', {hasText: 'drop D-T3'}).waitFor();
    assert.match(await f.locator('.note-ok').innerText(), new RegExp(`witness ${ACCT.ct2.id}, ${ACCT.ct3.id}`));
    fig.drop = sum(bills) + sum(chips) + markers;
    const docs = await http('GET', `/api/v1/tables/${T}/documents`);
    const drop = docs.json.documents.find(d => d.type === 'drop');
    assert.deepEqual([drop.cash, drop.chips, drop.markers, drop.gaming_day], [sum(bills), sum(chips), markers, today]);
    assert.deepEqual(drop.witnesses, [ACCT.ct2.id, ACCT.ct3.id]);
  });

  it('a floor supervisor records the closer; a differing opener is refused until it has a reason', async () => {
    await as(ACCT.fl);
    // The closer: $25 short of what the hands say the tray should hold (a variance to flag).
    fig.closer = fig.opener + fig.fills - fig.credits - fig.drop + fig.handWin - 2500;
    assert.ok(fig.closer > 0 && fig.closer % 100 === 0, `closer ${fig.closer}`);
    const chips = {2500: Math.floor(fig.closer / 2500), 100: (fig.closer % 2500) / 100};
    let f = await submit('inventory', ACCT.dl, async form => {
      await form.locator('select[name="inv-kind"]').selectOption('closer');
      await count(form, chips);
    });
    await f.locator('.note-ok', {hasText: 'Recorded: closer'}).waitFor();
    // The closer closed the table: the view says so, and rounds are refused until the next opener.
    await ap.locator('#table-status', {hasText: 'Closed'}).waitFor();
    await ap.locator('#table-session', {hasText: 'Closed by its closer'}).waitFor();
    const refusedRound = await http('POST', `/api/v1/tables/${T}/rounds`, {token: DEALER, body: {}});
    assert.equal(refusedRound.status, 409, refusedRound.text);
    assert.equal(refusedRound.json.error.code, 'table_closed');
    // An opener that differs from that closer: refused with the daemon's words, which ask for a reason.
    f = await submit('inventory', ACCT.dl, async form => {
      await form.locator('select[name="inv-kind"]').selectOption('opener');
      await count(form, {2500: chips[2500] + 1, 100: chips[100]});
    });
    const refusal = f.locator('.note-error');
    await refusal.waitFor();
    const msg = await refusal.innerText();
    assert.doesNotMatch(msg, /opener_discrepancy|cents/);
    assert.match(msg, /reason/i);
    assert.match(msg, new RegExp(`${chips[2500] + 1} x \\$25 \\(was ${chips[2500]}\\)`));
    assert.equal(await ap.evaluate(() => document.activeElement?.name), 'inv-reason', 'the reason field is offered');
    await shot(ap, '16-inventory-refused');
    const docs = await http('GET', `/api/v1/tables/${T}/documents`);
    assert.equal(docs.json.documents.filter(d => d.type === 'opener').length, 1, 'the refused opener recorded nothing');
    f = await submit('inventory', ACCT.dl, async form => {
      await form.locator('textarea[name="inv-reason"]').fill('a $25 chip found under the tray');
    });
    await f.locator('.note-ok', {hasText: 'Recorded: opener'}).waitFor();
    await ap.locator('#table-status', {hasText: 'Open'}).waitFor();
    assert.equal(await ap.locator('#table-session .note').count(), 0, 'open again: no closer note');
    // Closed again with no play: the tray as the opener counted it (a $25 chip over: a discrepancy, kept apart).
    fig.closer2 = fig.closer + 2500;
    f = await submit('inventory', ACCT.dl, async form => {
      await form.locator('select[name="inv-kind"]').selectOption('closer');
      await count(form, {2500: chips[2500] + 1, 100: chips[100]});
    });
    await f.locator('.note-ok', {hasText: 'Recorded: closer'}).waitFor();
    await ap.locator('#table-status', {hasText: 'Closed'}).waitFor();
  });

  it('the master game view shows the figures of the documents and the rounds, the variance flagged', async () => {
    await as(ACCT.pb);
    await ap.locator('nav.mainnav a', {hasText: 'Master game'}).click();
    await ap.waitForURL(/#\/master/);
    const row = ap.locator('#master-game tbody tr', {hasText: T});
    await row.waitFor();
    const win = fig.drop + fig.closer - fig.opener + fig.credits - fig.fills;
    assert.equal(win, fig.handWin - 2500);
    const cells = await row.locator('th, td').evaluateAll(cs => cs.map(c => c.textContent.trim()));
    const usd = n => new Intl.NumberFormat('en-US', {style: 'currency', currency: 'USD'}).format(n / 100);
    const signed = n => new Intl.NumberFormat('en-US', {style: 'currency', currency: 'USD', signDisplay: 'exceptZero'}).format(n / 100);
    // Two sessions: the count win is the first one's (the second moved nothing); the closer shown is the last.
    assert.deepEqual(cells.slice(1, 7), [usd(fig.opener), usd(fig.closer2), usd(fig.fills), usd(fig.credits), usd(fig.drop), signed(win)]);
    assert.equal(cells[7], `${(100 * win / fig.drop).toFixed(2)}%`, 'win/drop');
    assert.equal(cells[8], signed(fig.handWin), 'hand win');
    assert.equal(cells[9], signed(-2500), 'variance');
    assert.equal(cells[10], `${(-2500 * 100 / fig.drop).toFixed(2)}%`, 'variance percent');
    assert.match(cells[11], /Flagged/);
    assert.match(await row.getAttribute('class'), /row-flagged/);
    // Beside it what may explain it: the voided fill (its chips did not move: it explains nothing here) and the
    // reopen's $25 over, kept apart; no mispay or pending slip, so the whole variance is unexplained.
    assert.equal(await row.locator('[data-explained="voids"]').innerText(), `Voids ${signed(30000)}`);
    assert.equal(await row.locator('[data-explained="discrepancies"]').innerText(), `Discrepancies (apart) ${signed(2500)}`);
    assert.equal(await row.locator('[data-explained="unexplained"]').innerText(), `Unexplained ${signed(-2500)}`);
    assert.match(cells[13], /Not investigated/);
    // The shift picker lists the property's shifts (none here) and a CSV link is offered.
    assert.equal(await ap.locator('#mg-shift option').count(), 1 + ((await http('GET', '/api/v1/tables')).json.property.shifts.length));
    await ap.locator('#master-game button', {hasText: 'Download CSV'}).waitFor();
    await shot(ap, '17-master-game');
  });

  it('a pit boss acknowledges the count variance with a note', async () => {
    const ex = ap.locator('#master-exceptions tbody tr', {hasText: 'Count variance'});
    await ex.waitFor();
    await ap.locator('#master-exceptions tbody tr', {hasText: 'Inventory discrepancy'}).waitFor();
    await ex.locator('input[name="ack-note"]').fill('closer recounted: one $25 chip short, surveillance asked');
    await ex.locator('button', {hasText: 'Acknowledge'}).click();
    const done = ap.locator('#master-exceptions tbody tr', {hasText: 'Count variance'}).locator('[data-ack="done"]');
    await done.waitFor();
    assert.match(await done.innerText(), /Acknowledged by A-PB/);
    assert.match(await done.innerText(), /surveillance asked/);
    const r = await http('GET', '/api/v1/reports/exceptions');
    const cv = r.json.exceptions.find(x => x.kind === 'count_variance' && x.table === T);
    assert.equal(cv.acknowledged.by, ACCT.pb.id);
  });

  it('the variance is investigated: assigned, its cause found, resolved with a second pit boss', async () => {
    const step = async (fill, want) => {
      const row = ap.locator('#master-game tbody tr', {hasText: T});
      const d = row.locator('details.inv-step');
      if (!await d.evaluate(e => e.open)) await d.locator('summary').click();
      await fill(row.locator('form.inv-form'));
      await row.locator('form.inv-form button[type="submit"]').click();
      await ap.locator(`#master-game tbody tr [data-investigation="${want}"]`).waitFor();
    };
    await step(async f => {
      await f.locator('input[name="inv-assignee"]').fill(ACCT.fl.id);
      await f.locator('input[name="inv-note"]').fill('count the closer again');
    }, 'assigned');
    await step(async f => {
      await f.locator('select[name="inv-status"]').selectOption('cause_found');
      await f.locator('input[name="inv-cause"]').fill('a $25 chip paid to seat 2 in error');
      await f.locator('input[name="inv-note"]').fill('surveillance reviewed');
    }, 'cause_found');
    await step(async f => {
      await f.locator('input[name="inv-note"]').fill('dealer retrained');
      await f.locator('input[name="var-witness"]').fill(ACCT.pc.id);
      await f.locator('input[name="var-witness-password"]').fill(acctPassword(ACCT.pc));
    }, 'resolved');
    const cell = ap.locator('#master-game tbody tr', {hasText: T}).locator('[data-investigation="resolved"]');
    assert.match(await cell.innerText(), /A-FL/);
    assert.match(await cell.innerText(), /a \$25 chip paid to seat 2 in error/);
    assert.equal(await ap.locator('#master-game tbody tr', {hasText: T}).locator('details.inv-step').count(), 0, 'resolved: no next step');
    const r = await http('GET', `/api/v1/reports/master-game?table=${T}`);
    assert.deepEqual(r.json.tables[0].investigation.steps.map(x => x.status), ['assigned', 'cause_found', 'resolved']);
    assert.equal(r.json.tables[0].investigation.steps[2].witness, ACCT.pc.id);
    await shot(ap, '18-master-investigation');
  });

  it('logged no console errors and no policy violation', () => {
    expectedConsoleError.allowAccounting = false;
    assert.deepEqual(consoleErrors, []);
    assert.deepEqual(cspViolations, []);
  });
});

// ---- players, seating, ratings and Title 31 on the page (docs/players.md) ----

describe('players on the page', () => {
  let pp;
  const T = 'T1';
  // A floor supervisor seats and records cash; a pit boss acknowledges; a dealer sees no personal data.
  const PL = {
    fl: {id: 'Y-FL', name: 'Yara Stone', roles: ['floor']},
    pb: {id: 'Y-PB', name: 'Yves Marsh', roles: ['pitboss']},
    dl: {id: 'Y-DL', name: 'Yoko Vance', roles: ['dealer']},
  };
  const NORA = {card: '700001', name: 'Nora Quinn', date_of_birth: '1975-06-07', id_type: 'passport',
    id_number: 'QX778899', id_issuer: 'IE', id_expiry: '2031-01-01'};
  const ids = {};
  const usd = n => new Intl.NumberFormat('en-US', {style: 'currency', currency: 'USD'}).format(n / 100);
  const signed = n => new Intl.NumberFormat('en-US', {style: 'currency', currency: 'USD', signDisplay: 'exceptZero'}).format(n / 100);

  /** Signs pp in as p (after signing out whoever is in) and opens the address. */
  async function as(p, hash) {
    if (await pp.locator('#signout').isVisible()) await pp.locator('#signout').click();
    await signInPerson(pp, p.id, acctPassword(p));
    await pp.locator('#who', {hasText: p.name}).waitFor();
    await pp.goto(`${base}/${hash}`);
  }

  before(async () => {
    expectedConsoleError.allowAccounting = true;   // a dealer's floor may not read the summary (403)
    for (const p of Object.values(PL)) await makeAcctPerson(p);
    const r = await http('POST', '/api/v1/players', {body: NORA});
    assert.equal(r.status, 201, r.text);
    ids.nora = r.json.id;
    const t1 = await http('GET', `/api/v1/tables/${T}`);
    if (t1.json.table.current_round) {
      const v = await http('POST', `/api/v1/rounds/${t1.json.table.current_round}/void`, {token: DEALER, body: {reason: 'left open'}});
      assert.equal(v.status, 200, v.text);
    }
    pp = await context.newPage();
    await pp.setViewportSize({width: 1366, height: 900});
    watch(pp);
    await pp.goto(`${base}/`);
  });

  after(async () => {
    await pp?.close();
  });

  it('a floor supervisor seats a registered player (by card) and an anonymous one (by description)', async () => {
    await as(PL.fl, `#/table/${T}`);
    const seats = pp.locator('#table-seats');
    await seats.locator('button[data-action="seat"][data-seat="1"]').click();
    const form = seats.locator('form[data-form="seat-search"]');
    await form.locator('input[name="seat-card"]').fill(NORA.card);
    await form.locator('button[type="submit"]').click();
    await form.locator(`button[data-seat-player="${ids.nora}"]`).click();
    await seats.locator('tbody tr', {hasText: NORA.name}).waitFor();
    await seats.locator('button[data-action="seat"][data-seat="2"]').click();
    await seats.locator('input[name="seat-description"]').fill('short woman, green scarf');
    await seats.locator('form[data-form="seat-anonymous"] button[type="submit"]').click();
    await seats.locator('tbody tr', {hasText: 'short woman, green scarf'}).waitFor();
    const got = await http('GET', `/api/v1/tables/${T}/seats`);
    assert.equal(got.json.seats[0].player.id, ids.nora);
    assert.equal(got.json.seats[1].player.anonymous, true);
    ids.anon = got.json.seats[1].player.id;
    assert.equal(await seats.locator('tbody tr').nth(1).innerText().then(t => /Anonymous/.test(t)), true);
    await shot(pp, '18-table-seats');
  });

  it('the rounds dealt record the players; the player page shows the rating the daemon computes', async () => {
    const rounds = [
      {bets: {1: {ante: 2500, pair_plus: 1000}, 2: {ante: 1000}, 3: {ante: 500}}, hands: {1: ['Ah', 'Kd', '7c'], 2: ['4s', '4h', '9d'], 3: ['2c', '6d', '8s']},
        dealer: ['Qd', 'Jc', '3h'], decisions: {1: 'play', 2: 'play', 3: 'fold'}},
      {bets: {1: {ante: 5000, six_card: 500}, 2: {ante: 1000, pair_plus: 500}}, hands: {1: ['9h', '9c', '9d'], 2: ['Ks', '5c', '2d']},
        dealer: ['Td', '8h', '3s'], decisions: {1: 'play', 2: 'fold'}},
      {bets: {1: {ante: 1000}}, hands: {1: ['3c', '7d', 'Jh']}, dealer: ['As', 'Ac', '4d'], decisions: {1: 'play'}},
    ];
    for (const r of rounds) {
      const got = await postRound(T, r);
      const full = await http('GET', `/api/v1/rounds/${got.id}`);
      assert.equal(full.json.round.players['1'], ids.nora);
      assert.equal(full.json.round.players['2'], ids.anon);
    }
    await pp.goto(`${base}/#/players/${ids.nora}`);
    const rat = pp.locator('#player-rating');
    await rat.locator('[data-fig="hands"] dd').waitFor();
    const want = (await http('GET', `/api/v1/players/${ids.nora}/rating`)).json;
    assert.equal(want.hands, 3);
    const fig = async k => (await rat.locator(`[data-fig="${k}"] dd`).innerText()).trim();
    assert.equal(await fig('hands'), String(want.hands));
    for (const k of ['wagered', 'average_bet', 'theoretical', 'estimated_theoretical', 'comps']) assert.equal(await fig(k), usd(want[k]), k);
    assert.equal(await fig('result'), signed(want.result));
    assert.equal(await fig('difference'), signed(want.theoretical - want.estimated_theoretical));
    // The whole record for a floor supervisor, and his seat session at T1.
    const rec = await pp.locator('#player-record').innerText();
    assert.match(rec, /Nora Quinn/);
    assert.match(rec, /QX778899/);
    await pp.locator('#player-sessions tbody tr', {hasText: 'Seated now'}).waitFor();
    await shot(pp, '19-player');
  });

  it('cash in above the MTL threshold and above the CTR limit shows in the Title 31 view', async () => {
    await pp.goto(`${base}/#/table/${T}`);
    const seats = pp.locator('#table-seats');
    for (const dollars of ['3500', '8000']) {
      await seats.locator('button[data-action="cash"][data-seat="1"]').click();
      const f = seats.locator('form[data-form="transaction"]');
      await f.locator('select[name="txn-direction"]').selectOption('in');
      await f.locator('select[name="txn-kind"]').selectOption('cash');
      await f.locator('input[name="txn-amount"]').fill(dollars);
      await f.locator('button[type="submit"]').click();
      await f.locator('.note-ok', {hasText: usd(Number(dollars) * 100)}).waitFor();
    }
    // the second took her cash in over the CTR limit: said at once, where the cash was recorded
    // the answer's note (the preview above the button says the same of the next amount typed)
    const t31 = seats.locator('form[data-form="transaction"] .form-msg .note', {hasText: 'CTR:'});
    await t31.waitFor();
    assert.match(await t31.innerText(), /is \$11,500\.00, over the CTR limit of \$10,000\.00: a currency transaction report is due/);
    await pp.locator('nav.mainnav a', {hasText: 'Title 31'}).click();
    await pp.waitForURL(/#\/title31/);
    const mtl = pp.locator('#t31-mtl tbody tr');
    await mtl.first().waitFor();
    const mtlText = await pp.locator('#t31-mtl').innerText();
    assert.match(mtlText, /\$3,500\.00/);
    assert.match(mtlText, /\$8,000\.00/);
    const ctr = pp.locator('#t31-ctr tbody tr', {hasText: ids.nora});
    await ctr.waitFor();
    assert.match(await ctr.innerText(), /\$11,500\.00/);
    assert.match(await ctr.innerText(), /Nora Quinn/);
    assert.equal(await ctr.locator('button[data-action="ctr"]').count(), 0, 'a floor supervisor does not move a CTR item on');
    const alert = pp.locator('#t31-ctr tbody tr', {hasText: ids.nora});
    await alert.waitFor();
    assert.equal(await alert.locator('button', {hasText: 'Acknowledge'}).count(), 0, 'a floor supervisor does not acknowledge');
    const tot = pp.locator('#t31-totals tbody tr', {hasText: ids.nora});
    assert.match(await tot.innerText(), /\$11,500\.00/);
    // The ratings of the day and the coverage, as the report says.
    const day = (await http('GET', '/api/v1/tables')).json.property.gaming_day;
    const rep = (await http('GET', `/api/v1/reports/ratings?gaming_day=${day}`)).json;
    await pp.locator('#t31-ratings [data-fig="coverage"]').waitFor();
    const cov = await pp.locator('#t31-ratings [data-fig="coverage"]').innerText();
    assert.equal(cov, `${(100 * rep.coverage.share).toFixed(1)}%`);
    await pp.locator('#t31-ratings tbody tr', {hasText: ids.nora}).waitFor();
  });

  it('a pit boss acknowledges the alert with a note', async () => {
    await as(PL.pb, '#/title31');
    const alert = pp.locator('#t31-ctr tbody tr', {hasText: ids.nora});
    await alert.locator('input[name="t31-note"]').fill('ID checked, patron told of the CTR');
    await alert.locator('button', {hasText: 'Acknowledge'}).click();
    const done = pp.locator('#t31-ctr tbody tr', {hasText: ids.nora}).locator('[data-ack="done"]');
    await done.waitFor();
    assert.match(await done.innerText(), /Acknowledged by Y-PB/);
    const day = (await http('GET', '/api/v1/tables')).json.property.gaming_day;
    const r = await http('GET', `/api/v1/reports/title31?gaming_day=${day}`);
    const item = r.json.alerts.find(x => x.player === ids.nora && x.direction === 'in');
    assert.equal(item.acknowledged.by, PL.pb.id);
    assert.equal(item.acknowledged.note, 'ID checked, patron told of the CTR');
    await shot(pp, '20-title31');
  });

  it('names the banker of a player-banked table and lists the offers of the bank', async () => {
    let r = await http('POST', '/api/v1/tables/P1/bank-offers', {token: DEALER, body: {seat: 4, answer: 'accepted', player: ids.nora}});
    assert.equal(r.status, 201, r.text);
    r = await http('POST', '/api/v1/tables/P1/bank-offers', {token: DEALER, body: {seat: 5, answer: 'declined', player: ids.anon}});
    assert.equal(r.status, 201, r.text);
    await postRound('P1', {bets: {1: {ante: 1000}}, hands: {1: ['Ts', 'Js', '4d']}, dealer: ['Kc', '6h', '3c'], decisions: {1: 'play'},
      banker: {seat: 4, bank: 18000, player: ids.nora}});
    await pp.goto(`${base}/#/table/P1`);
    const rot = pp.locator('#table-bankers');
    await rot.locator('.fact', {hasText: 'Banker now'}).waitFor();
    assert.match(await rot.locator('.fact', {hasText: 'Banker now'}).innerText(), new RegExp(`player ${ids.nora}`));
    const offers = pp.locator('#bank-offers tbody tr');
    await offers.first().waitFor();
    assert.equal(await offers.count(), 2);
    assert.match(await offers.nth(0).innerText(), /Declined/);
    assert.match(await offers.nth(1).innerText(), new RegExp(`Accepted[\\s\\S]*player ${ids.nora}`));
  });

  it('a dealer\u2019s session is sent to the dealer\u2019s page and reads no personal field', async () => {
    if (await pp.locator('#signout').isVisible()) await pp.locator('#signout').click();
    await pp.goto(`${base}/#/players/${ids.nora}`);
    await signInPerson(pp, PL.dl.id, acctPassword(PL.dl));
    await pp.waitForURL(u => u.pathname === '/dealer/');
    const token = await pp.evaluate(() => sessionStorage.getItem('pitboss.token'));
    assert.ok(token, 'the dealer\u2019s session is kept for his page');
    // what his session may read of her: her description, none of her personal fields
    const rec = await http('GET', `/api/v1/players/${encodeURIComponent(ids.nora)}`, {token});
    assert.equal(rec.status, 200, rec.text);
    assert.match(rec.text, /Nora Q\./);
    assert.doesNotMatch(rec.text, /Quinn|QX778899|1975|passport/);
    const seats = await http('GET', `/api/v1/tables/${T}/seats`, {token});
    assert.equal(seats.status, 200, seats.text);
    assert.doesNotMatch(seats.text, /Quinn|QX778899/);
    assert.equal((await http('GET', '/api/v1/reports/title31', {token})).status, 403);
    await pp.evaluate(() => sessionStorage.clear());
    await pp.goto(`${base}/`);
  });

  it('logged no console errors and no policy violation', () => {
    expectedConsoleError.allowAccounting = false;
    assert.deepEqual(consoleErrors, []);
    assert.deepEqual(cspViolations, []);
  });
});
