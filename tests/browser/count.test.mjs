// count.test.mjs - the count controls on the pit boss page (docs/page.md, "Statistics" and "Master game") in
// Debian's headless Chromium, against the real pitbossd on a free loopback port with a temporary database: a
// property with three shifts and series of fill and credit serials (accounting.serials); table T1 open across a
// shift change on a day of the month before and a day of the month reported, with a fill, a credit and a drop
// per shift, T2 opened and never closed; a fill whose serial leaves a gap.  Checked through the page: the
// statistics view's figures (per table, and each shift's month to date beside the month before, the change in
// money and in words, the table-days left out) against the figures this test computes from the report's own
// JSON, and that JSON against what the test recorded; the serial exception explained by a pit boss with a floor
// supervisor as witness through the master game view, a refusal shown first.
//
//   PB_BUILD_DIR   where pitbossd is (default /work/main/build)
//   PB_SOURCE_DIR  the repository (default: two levels up from here)
//   PB_CHROMIUM    the browser (default /usr/bin/chromium)
//
// Run: tests/browser/run.sh count.test.mjs.  Screenshots land in tests/browser/out/count-*.png.
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
const DEALER = 'demo-dealer';
const PEOPLE = {
  pb: {id: 'N-PB', name: 'Nell Pike', roles: ['pitboss']},
  fl: {id: 'N-FL', name: 'Noor Flint', roles: ['floor']},
  dl: {id: 'N-DL', name: 'Ned Dale', roles: ['dealer']},
  cg: {id: 'N-CG', name: 'Nia Cole', roles: ['cage']},
  ct1: {id: 'N-C1', name: 'Nat Count', roles: ['count']},
  ct2: {id: 'N-C2', name: 'Noa Count', roles: ['count']},
  ct3: {id: 'N-C3', name: 'Nik Count', roles: ['count']},
};
const password = p => `copper-meadow-${p.id.slice(2).toLowerCase()}-58`;
const SHIFTS = [{name: 'day', start: '06:00'}, {name: 'swing', start: '14:00'}, {name: 'grave', start: '22:00'}];

// Two gaming days ahead of the real one (the test clock only moves forward): the 10th of next month, in the
// month before the one reported, and the 3rd of the month after it, the day the report is read on.
const now = new Date();
const PRIOR_DAY = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 10));
const REPORT_DAY = new Date(Date.UTC(PRIOR_DAY.getUTCFullYear(), PRIOR_DAY.getUTCMonth() + 1, 3));
const iso = d => d.toISOString().slice(0, 10);
const at = (d, hh, mm) => Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), hh, mm);

let run, base, browser, context, page;
const api = apiClient(() => base);
const {http, ok} = api;
const consoleErrors = [];
const cspViolations = [];
// Refusals the tests cause on purpose (the browser logs the failed request): the witness's wrong password.
const allowed = {refusal: false};
const tok = {};
// What the test recorded at T1: {prior_month|month_to_date: {shift: {drop, win, hand}}}.
const ledger = {};

const usd = cents => new Intl.NumberFormat('en-US', {style: 'currency', currency: 'USD'}).format(cents / 100);
const signed = cents => new Intl.NumberFormat('en-US', {style: 'currency', currency: 'USD', signDisplay: 'exceptZero'})
  .format(cents / 100);
const pct = x => (x === null ? '—' : new Intl.NumberFormat('en-US', {style: 'percent', minimumFractionDigits: 2,
  maximumFractionDigits: 2}).format(x));

/** Makes a person with a one-time password and changes it to his own (as the page's sign-in wants). */
async function makePerson(p) {
  await api.makePerson(p, password(p));
}

/** Signs every person in over HTTP (again after a move of the clock beyond the sessions' time). */
async function signAll() {
  for (const [k, p] of Object.entries(PEOPLE)) {
    tok[k] = (await ok('POST', '/api/v1/sessions', {token: null, body: {person: p.id, password: password(p)}})).token;
  }
}

const witness = p => ({person: p.id, password: password(p)});

/** Moves the daemon's clock forward to unix ms t. */
async function advanceTo(t) {
  await run.advanceClock(Math.max(0, (t - run.now()) / 1000));
}

/** A count of chips for an amount: $25 chips, then $1 chips. */
function chipsOf(total) {
  assert.ok(total > 0 && total % 100 === 0, `a count of ${total}`);
  const chips = {2500: Math.floor(total / 2500), 100: (total % 2500) / 100};
  return Object.fromEntries(Object.entries(chips).filter(([, n]) => n));
}

async function inventory(table, kind, total) {
  return ok('POST', `/api/v1/tables/${table}/inventory`, {token: tok.fl,
    body: {kind, chips: chipsOf(total), witness: witness(PEOPLE.dl)}});
}

async function slip(kind, serial, total) {
  return ok('POST', `/api/v1/tables/T1/${kind}`, {token: tok.cg,
    body: {serial, chips: chipsOf(total), witness: witness(PEOPLE.pb)}});
}

/** Rounds of known cards at T1: the house's win, from each round's payout lines. */
async function deal(rounds) {
  let win = 0;
  for (const r of rounds) {
    const got = await ok('POST', '/api/v1/tables/T1/rounds', {token: DEALER, body: r});
    const full = await ok('GET', `/api/v1/rounds/${got.round.id}`, {}, 200);
    win -= full.round.payouts.reduce((a, l) => a + l.net, 0);
  }
  return win;
}

const DAY_ROUNDS = [
  {bets: {1: {ante: 1000}}, hands: {1: ['2s', '7h', 'Kd']}, dealer: ['Ah', 'Ac', '5s'], decisions: {1: 'play'}},
  {bets: {2: {ante: 2000, pair_plus: 500}}, hands: {2: ['9h', '9d', '4c']}, dealer: ['Jc', '8s', '3d'],
    decisions: {2: 'play'}},
];
const SWING_ROUNDS = [
  {bets: {3: {ante: 3000}}, hands: {3: ['2c', '3d', '5h']}, dealer: ['Qd', '7c', '2h'], decisions: {3: 'fold'}},
  {bets: {1: {ante: 1500}}, hands: {1: ['Ks', 'Kh', '6d']}, dealer: ['Qc', 'Jd', '4s'], decisions: {1: 'play'}},
];

/**
 * T1's gaming day: the opener at 07:00, rounds, a fill at 10:00, the shift change at 14:05 (it opens the swing
 * shift), rounds, a credit at 16:00 and the swing's other fills, the closer at 20:00, a drop for each of the two
 * shifts.  Each shift's win: its drop + its closing count − its opening count + its credits − its fills.
 */
async function t1Day(day, c) {
  await advanceTo(at(day, 7, 0));
  await signAll();
  assert.equal((await inventory('T1', 'opener', c.opener)).shift, 'day');
  const handDay = await deal(DAY_ROUNDS);
  await advanceTo(at(day, 10, 0));
  await slip('fills', c.fill[0], c.fill[1]);
  await advanceTo(at(day, 14, 5));
  assert.equal((await inventory('T1', 'shift_change', c.change)).shift, 'swing');
  await advanceTo(at(day, 14, 10));
  const handSwing = await deal(SWING_ROUNDS);
  await advanceTo(at(day, 16, 0));
  await slip('credits', c.credit[0], c.credit[1]);
  let swingFills = 0;
  for (const [serial, total] of c.swingFills || []) {
    await slip('fills', serial, total);
    swingFills += total;
  }
  await advanceTo(at(day, 20, 0));
  await inventory('T1', 'closer', c.closer);
  await advanceTo(at(day, 20, 30));
  for (const [shift, cash] of [['day', c.drops[0]], ['swing', c.drops[1]]]) {
    await ok('POST', '/api/v1/tables/T1/drop', {token: tok.ct1, body: {box: `D-T1-${shift}`,
      count: {cash: {10000: cash / 10000}}, gaming_day: iso(day), shift,
      witnesses: [witness(PEOPLE.ct2), witness(PEOPLE.ct3)]}});
  }
  return {
    day: {drop: c.drops[0], win: c.drops[0] + c.change - c.opener - c.fill[1], hand: handDay},
    swing: {drop: c.drops[1], win: c.drops[1] + c.closer - c.change + c.credit[1] - swingFills, hand: handSwing},
  };
}

function watch(p) {
  watchConsole(p, consoleErrors, () => (allowed.refusal ? /Failed to load resource.*status of 403/ : null));
}

async function shot(name) {
  await screenshot(page, path.join(OUT, `count-${name}.png`));
}

/** Signs the page in as p at the address (after signing out whoever is in). */
async function as(p, hash) {
  await signInAs(page, base, p, password(p), hash);
}

/** The texts of a table row's cells. */
function cellsOf(row) {
  return row.locator('th, td').evaluateAll(cs => cs.map(c => c.textContent.trim()));
}

/** The change cell's text as the page writes it: the signed difference, then the same in words. */
function changeText(now, before) {
  const d = now - before;
  return `${signed(d)}${d > 0 ? '▲ Up' : d < 0 ? '▼ Down' : '= No change'}`;
}

before(async () => {
  fs.mkdirSync(OUT, {recursive: true});
  run = await startPitbossd('pitboss-count-', cfg => {
    cfg.property = {...cfg.property, gaming_day_start: '06:00', shifts: SHIFTS};
    cfg.sessions = {idle_seconds: 86400, absolute_seconds: 604800};
    cfg.accounting = {...(cfg.accounting || {}), signatures: 'basic',
      serials: {fill: {prefix: 'F-', digits: 6}, credit: {prefix: 'C-', digits: 6}}};
  }, {clock: true});
  base = run.base;
  for (const p of Object.values(PEOPLE)) await makePerson(p);
  ledger.prior_month = await t1Day(PRIOR_DAY, {opener: 200000, fill: ['F-000001', 40000], change: 215000,
    credit: ['C-000001', 30000], closer: 190000, drops: [60000, 40000]});
  // The month reported: T1 opens at the count it closed at; a fill F-000005 leaves F-000003 and F-000004 missing.
  ledger.month_to_date = await t1Day(REPORT_DAY, {opener: 190000, fill: ['F-000002', 25000], change: 160000,
    credit: ['C-000002', 50000], swingFills: [['F-000005', 10000]], closer: 230000, drops: [30000, 50000]});
  // T2 opens at 21:00 (the swing shift) and never closes: its day is left out of the count.
  await advanceTo(at(REPORT_DAY, 21, 0));
  await signAll();
  await inventory('T2', 'opener', 100000);
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

describe('count controls on the page', () => {
  let stats;

  it('the statistics report\'s JSON has what the test recorded, shift by shift', async () => {
    stats = await ok('GET', '/api/v1/reports/statistics', {}, 200);
    assert.equal(stats.to_day, iso(REPORT_DAY));
    const t1 = stats.rows.find(r => r.table === 'T1');
    for (const [period, shifts] of Object.entries(ledger)) {
      const got = Object.fromEntries(t1.shifts.map(s => [s.shift, s[period]]));
      assert.deepEqual(Object.keys(got), SHIFTS.map(s => s.name));
      for (const s of SHIFTS) {
        const want = shifts[s.name] || {drop: 0, win: 0, hand: 0};
        assert.deepEqual([got[s.name].drop, got[s.name].win, got[s.name].hand_win, got[s.name].windows],
          [want.drop, want.win, want.hand, want.drop ? 1 : 0], `${period} ${s.name}`);
      }
      const whole = t1[period];
      assert.deepEqual([whole.win, whole.incomplete], [shifts.day.win + shifts.swing.win, 0], period);
    }
    const t2 = stats.rows.find(r => r.table === 'T2');
    assert.equal(t2.month_to_date.incomplete, 1);
    assert.notEqual(ledger.month_to_date.day.win, ledger.prior_month.day.win, 'a change to show');
  });

  it('shows each table\'s shifts beside the month before, the change in money and words, the days left out', async () => {
    await as(PEOPLE.pb, '#/floor');
    await page.locator('nav.mainnav a', {hasText: 'Statistics'}).click();
    await page.waitForURL(/#\/statistics/);
    await page.locator('#statistics-shifts .shift-block[data-table="total"]').waitFor();
    assert.equal(await page.locator('#st-month').inputValue(), iso(REPORT_DAY).slice(0, 7), 'the current month by default');
    // The month to date per table, from the report's JSON.
    for (const r of stats.rows) {
      const cells = await cellsOf(page.locator('#statistics tbody tr', {hasText: r.table}));
      const m = r.month_to_date;
      assert.deepEqual(cells.slice(1, 8), [r.game, usd(m.drop), signed(m.win), pct(m.win_per_drop),
        signed(r.prior_month.win), changeText(m.win, r.prior_month.win), signed(m.hand_win)], r.table);
      assert.equal(cells[10], m.incomplete ? `${m.incomplete} table-day${m.incomplete === 1 ? '' : 's'} left out` : 'None');
    }
    const foot = await cellsOf(page.locator('#statistics tfoot tr'));
    assert.deepEqual(foot.slice(2, 4), [usd(stats.total.month_to_date.drop), signed(stats.total.month_to_date.win)]);
    const why = page.locator('#statistics .note', {hasText: 'Incomplete'});
    assert.match(await why.innerText(), /session was still open/);
    assert.match(await why.innerText(), /opener without its closer/);
    // Each table's shifts, and the total's: the month to date beside the month before, and the change.
    for (const r of [...stats.rows, stats.total]) {
      const block = page.locator(`#statistics-shifts .shift-block[data-table="${r.table || 'total'}"]`);
      const rows = block.locator('tbody tr');
      assert.equal(await rows.count(), SHIFTS.length);
      for (const [i, s] of r.shifts.entries()) {
        const m = s.month_to_date, p = s.prior_month;
        const cells = await cellsOf(rows.nth(i));
        assert.deepEqual(cells.slice(0, 11), [s.shift.charAt(0).toUpperCase() + s.shift.slice(1), signed(m.win),
          signed(p.win), changeText(m.win, p.win), usd(m.drop), usd(p.drop), pct(m.win_per_drop), pct(p.win_per_drop),
          signed(m.hand_win), signed(m.win - m.hand_win), `${m.windows} / ${p.windows}`],
        `${r.table || 'total'} ${s.shift}`);
        assert.equal(cells[11], m.incomplete ? `${m.incomplete} window${m.incomplete === 1 ? '' : 's'} left out` : 'None');
      }
    }
    // The words of the change: T1's day shift went one way, as the test's own figures say.
    const d = ledger.month_to_date.day.win - ledger.prior_month.day.win;
    const day = page.locator('#statistics-shifts .shift-block[data-table="T1"] tbody tr').first().locator('[data-change]');
    assert.equal(await day.getAttribute('data-change'), d > 0 ? 'up' : 'down');
    assert.equal(await page.locator('#statistics-shifts .shift-block[data-table="T2"] [data-incomplete="1"]').count(), 1,
      'T2\'s swing window left out');
    await shot('01-statistics');
  });

  it('downloads the statistics CSV with the shifts\' lines', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('#statistics button', {hasText: 'Download CSV'}).click(),
    ]);
    const file = path.join(OUT, 'count-statistics.csv');
    await download.saveAs(file);
    const lines = fs.readFileSync(file, 'utf8').trim().split('\r\n').map(l => l.split(','));
    const col = Object.fromEntries(lines[0].map((k, i) => [k, i]));
    const t1 = stats.rows.find(r => r.table === 'T1');
    for (const s of t1.shifts) {
      const line = lines.find(l => l[col.table] === 'T1' && l[col.shift] === s.shift && l[col.period] === 'prior_month');
      assert.ok(line, `T1's ${s.shift} line of the month before`);
      assert.deepEqual([line[col.win], line[col.windows]], [String(s.prior_month.win), String(s.prior_month.windows)]);
    }
  });

  it('a floor supervisor sees the serial exception, and no Explain action', async () => {
    await as(PEOPLE.fl, '#/master');
    const ex = page.locator('#master-exceptions tbody tr', {hasText: 'Serial gap'});
    await ex.waitFor();
    assert.match(await ex.innerText(), /F-000003 to F-000004/);
    assert.match(await ex.innerText(), /Not accounted for/);
    assert.equal(await ex.locator('details.serial-explain').count(), 0);
  });

  it('a pit boss explains the serial gap, a floor supervisor as witness; a wrong password refused first', async () => {
    await as(PEOPLE.pb, '#/master');
    const ex = page.locator('#master-exceptions tbody tr', {hasText: 'Serial gap'});
    await ex.waitFor();
    const gap = (await ok('GET', `/api/v1/reports/exceptions?from=${iso(REPORT_DAY)}&to=${iso(REPORT_DAY)}`, {}, 200))
      .exceptions.find(x => x.kind === 'serial_gap');
    assert.deepEqual([gap.ref, gap.slip, gap.count, gap.table], ['F-000003', 'fill', 2, 'T1']);
    await ex.locator('details.serial-explain summary').click();
    const f = ex.locator('form.serial-form');
    assert.equal(await f.locator('select[name="serial-table"]').inputValue(), 'T1', 'the exception\'s table by default');
    assert.equal(await f.locator('input[name="serial-year"]').inputValue(), String(gap.year), 'its year by default');
    const note = 'forms F-000003 and F-000004 spoiled at the cage and destroyed';
    await f.locator('input[name="serial-note"]').fill(note);
    await f.locator('input[name="serial-witness"]').fill(PEOPLE.fl.id);
    await f.locator('input[name="serial-witness-password"]').fill('not-the-password');
    allowed.refusal = true;
    await f.locator('button[type="submit"]').click();
    const refusal = f.locator('.note-error');
    await refusal.waitFor();
    assert.match(await refusal.innerText(), /Refused/);
    assert.match(await refusal.innerText(), /witness cannot sign/);
    assert.equal(await refusal.getAttribute('data-code'), 'witness_refused');
    allowed.refusal = false;
    await shot('02-serial-refused');
    const still = (await ok('GET', '/api/v1/reports/exceptions', {}, 200)).exceptions.find(x => x.kind === 'serial_gap');
    assert.equal(still.explained, null, 'the refusal recorded nothing');
    await f.locator('input[name="serial-witness-password"]').fill(password(PEOPLE.fl));
    await f.locator('button[type="submit"]').click();
    const done = page.locator('#master-exceptions tbody tr', {hasText: 'Serial gap'}).locator('[data-ack="done"]');
    await done.waitFor();
    assert.match(await done.innerText(), new RegExp(`Explained by ${PEOPLE.pb.id} \\(witness ${PEOPLE.fl.id}\\) for T1`));
    assert.match(await done.innerText(), new RegExp(note));
    const after = (await ok('GET', `/api/v1/reports/exceptions?from=${iso(REPORT_DAY)}&to=${iso(REPORT_DAY)}`, {}, 200))
      .exceptions.find(x => x.kind === 'serial_gap');
    assert.deepEqual([after.explained.by, after.explained.witness, after.explained.note, after.explained.table],
      [PEOPLE.pb.id, PEOPLE.fl.id, note, 'T1']);
    await shot('03-serial-explained');
  });

  it('logged no console errors and no policy violation', () => {
    assert.deepEqual(consoleErrors, []);
    assert.deepEqual(cspViolations, []);
  });
});
