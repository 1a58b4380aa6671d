// round.test.mjs - one number for a round, and the round view (docs/page.md, "Round") in Debian's
// headless Chromium, against the real pitbossd on a free loopback port with a temporary database:
// `#/round/T1-2` opens the table's second round (and an address by id shows the label); a correction
// recorded through the round view with a witness, listed on the round and beside the table's variance;
// the table's sections reachable at once from its bar of links; a player-banked round whose bank ran
// out, its lines as the API gives them (no return line for an Ante Bonus, the wagers returned counted and
// summed without it, the collection fees shown); the round view free of cents, JSON and codes, and clean
// under axe-core.  Every figure asserted is computed here from the rounds' answers and the amounts typed.
//
//   PB_BUILD_DIR   where pitbossd is (default /work/main/build)
//   PB_SOURCE_DIR  the repository (default: two levels up from here)
//   PB_CHROMIUM    the browser (default /usr/bin/chromium)
//
// Run: tests/browser/run.sh round.test.mjs.  Screenshots land in tests/browser/out/round-*.png.
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
const DEALER = 'demo-dealer';
const PITBOSS = 'demo-pitboss';
// A pit boss records the correction through the page; a floor supervisor witnesses it.
const PEOPLE = {
  pb: {id: 'R-PB', name: 'Rae Pike', roles: ['pitboss'], word: 'heron'},
  fl: {id: 'R-FL', name: 'Ros Fenn', roles: ['floor'], word: 'plover'},
};
const password = p => `cobalt-ledger-${p.word}-83`;

// Two rounds at T1: the first has a straight flush at Pair Plus (the line the correction is about).
const T1_ROUNDS = [
  {bets: {1: {ante: 2500, pair_plus: 500}, 3: {ante: 1000}}, hands: {1: ['As', 'Ks', 'Qs'], 3: ['2c', '3d', '5h']},
    dealer: ['Qd', '7c', '2h'], decisions: {1: 'play', 3: 'fold'}},
  {bets: {2: {ante: 1000}}, hands: {2: ['9h', '9d', '4c']}, dealer: ['Jc', '8s', '3d'], decisions: {2: 'play'}},
];
// A player-banked round at P1 whose bank runs out at seat 3's Pair Plus: its Ante Bonus (a straight) is
// then not paid, and the later wagers are returned as they lie.
const P1_ROUND = {
  banker: {seat: 2, bank: 10000},
  bets: {3: {ante: 3000, pair_plus: 1000}, 5: {ante: 1000}, 1: {ante: 500}},
  hands: {3: ['5c', '6d', '7h'], 5: ['2c', '9d', 'Th'], 1: ['8c', '8d', 'As']},
  dealer: ['Qd', '7c', '2h'],
  decisions: {3: 'play', 5: 'fold', 1: 'play'},
};

// A seat at T2 that sees the dealer's hand: it plays 6-4-2 (a fold on its own cards) when the dealer does not
// qualify, and folds K-Q-9 (a play on its own cards) when the dealer holds A-K: its decisions knew the hand.
const PEEKS = 20;
const PEEK_ROUNDS = [
  {bets: {1: {ante: 1000}}, hands: {1: ['6c', '4d', '2h']}, dealer: ['Jc', '8d', '5s'], decisions: {1: 'play'}},
  {bets: {1: {ante: 1000}}, hands: {1: ['Kc', 'Qd', '9h']}, dealer: ['Ac', 'Kd', '3s'], decisions: {1: 'fold'}},
];

let run, base, browser, context, page;
const api = apiClient(() => base);
const {http, ok} = api;
const rounds = {};
const consoleErrors = [];
// Refusals the tests cause on purpose (the browser logs the failed request): 404 round_not_found.
const allowed = {notFound: false};
const cspViolations = [];

const usd = cents => new Intl.NumberFormat('en-US', {style: 'currency', currency: 'USD'}).format(cents / 100);
const usdSigned = cents => new Intl.NumberFormat('en-US', {style: 'currency', currency: 'USD', signDisplay: 'exceptZero'})
  .format(cents / 100);

/** Makes a person with a one-time password and changes it to his own (as the page's sign-in wants). */
async function makePerson(p) {
  await api.makePerson(p, password(p));
}

async function shot(name) {
  await screenshot(page, path.join(OUT, `round-${name}.png`));
}

before(async () => {
  fs.mkdirSync(OUT, {recursive: true});
  run = await startPitbossd('pitboss-round-', cfg => {
    cfg.sessions = {idle_seconds: 900, absolute_seconds: 3600};
    cfg.protection = {z_flag: 4, min_decisions: 10};   // a group of PEEKS decisions may be flagged
  });
  base = run.base;
  for (const p of Object.values(PEOPLE)) await makePerson(p);
  rounds.t1 = [];
  for (const body of T1_ROUNDS) rounds.t1.push((await ok('POST', '/api/v1/tables/T1/rounds', {token: DEALER, body})).round);
  rounds.p1 = (await ok('POST', '/api/v1/tables/P1/rounds', {token: DEALER, body: P1_ROUND})).round;
  rounds.t2 = [];
  for (let i = 0; i < PEEKS; i++) {
    rounds.t2.push((await ok('POST', '/api/v1/tables/T2/rounds', {token: DEALER, body: PEEK_ROUNDS[i % 2]})).round);
  }
  browser = await launchChromium();
  context = await browser.newContext({viewport: {width: 1280, height: 800}, locale: 'en-US', timezoneId: 'UTC'});
  await recordCspViolations(context, cspViolations);
  page = await context.newPage();
  watchConsole(page, consoleErrors, () => (allowed.notFound ? /Failed to load resource.*status of 404/ : null));
  await page.goto(`${base}/`);
});

after(async () => {
  await browser?.close();
  await stopPitbossd(run);
});

describe('one number for a round, and the round view', () => {
  it('#/round/T1-2 opens the table\'s second round; an address by id shows its label', async () => {
    const [first, second] = rounds.t1;
    assert.equal(second.round_no, first.round_no + 1);
    const label = `T1-${second.round_no}`;
    await signInAs(page, base, PEOPLE.pb, password(PEOPLE.pb), `#/round/${label}`);
    await page.locator('h1', {hasText: `Round ${label}`}).waitFor();
    // The seat that bet in the second round is the one shown, and its payouts are those of its id.
    assert.deepEqual(await page.locator('#round-cards article.seat[data-seat]').evaluateAll(as => as.map(a => a.dataset.seat)),
      Object.keys(second.bets));
    // By its global id the same round opens, under its label.
    await page.goto(`${base}/#/round/${first.id}`);
    await page.locator('h1', {hasText: `Round T1-${first.round_no}`}).waitFor();
    // A label of no round says so in words.
    allowed.notFound = true;
    await page.goto(`${base}/#/round/T1-${second.round_no + 40}`);
    await page.locator('.note', {hasText: `There is no round T1-${second.round_no + 40}`}).waitFor();
    allowed.notFound = false;
  });

  it('a correction through the round view, with a witness: listed on the round and beside the table\'s variance', async () => {
    const round = rounds.t1[0];
    const label = `T1-${round.round_no}`;
    const line = round.payouts.find(p => p.seat === 1 && p.wager === 'pair_plus');
    const paid = 2000;                                  // the dealer paid $20 where the line owed line.net
    await page.goto(`${base}/#/round/${label}`);
    await page.locator('h1', {hasText: `Round ${label}`}).waitFor();
    await page.locator('#round-corrections .empty', {hasText: 'No correction recorded'}).waitFor();
    await page.locator('[data-box="correction"] summary').click();
    const f = page.locator('form[data-form="correction"]');
    await f.locator('select[name="correction-line"]').selectOption(String(round.payouts.indexOf(line)));
    await f.locator('select[name="correction-direction"]').selectOption('paid');
    await f.locator('input[name="correction-amount"]').fill(String(paid / 100));
    await f.locator('textarea[name="correction-reason"]').fill('paid 4 to 1 on a straight flush');
    await f.locator('input[name="correction-witness"]').fill(PEOPLE.fl.id);
    await f.locator('input[name="correction-witness-password"]').fill(password(PEOPLE.fl));
    await f.locator('button[type="submit"]').click();
    await f.locator('.note-ok', {hasText: 'Recorded'}).waitFor();
    // The record: one correction of that line, with the figures typed and the witness.
    const rec = (await ok('GET', `/api/v1/rounds/${round.id}`, {}, 200)).round.corrections;
    assert.deepEqual(rec.map(c => [c.seat, c.wager, c.owed, c.paid, c.by, c.witness]),
      [[1, 'pair_plus', line.net, paid, PEOPLE.pb.id, PEOPLE.fl.id]]);
    // Listed on the round, in dollars, with who and why.
    const row = page.locator('#round-corrections table tbody tr');
    assert.equal(await row.count(), 1);
    const text = await row.innerText();
    for (const want of [usdSigned(line.net), usdSigned(paid), usdSigned(paid - line.net), 'paid 4 to 1', PEOPLE.pb.id, PEOPLE.fl.id]) {
      assert.ok(text.includes(want), `"${want}" in the correction's row: ${text}`);
    }
    assert.deepEqual(await jargonIn(page), []);
    assert.deepEqual(await axeViolations(page), []);
    await shot('correction');

    // Beside the table's variance: the day's corrections with the round's label and their sum.
    await page.goto(`${base}/#/table/T1`);
    const box = page.locator('#variance-corrections');
    await box.locator('a', {hasText: label}).waitFor();
    assert.equal(await box.locator('a', {hasText: label}).getAttribute('href'), `#/round/${label}`);
    assert.ok((await box.innerText()).includes(usdSigned(paid - line.net)));
    await page.locator('#variance-figures dl').waitFor();
    // The recent rounds by label.
    await page.locator('#table-rounds a[data-label]').first().waitFor();
    const labels = await page.locator('#table-rounds a[data-label]').evaluateAll(as => as.map(a => a.textContent));
    assert.deepEqual(labels, [...rounds.t1].reverse().map(r => `T1-${r.round_no}`));
    // The inventory at once: the bar's link brings it into view at 1280x800.
    await page.locator('#table-jumps a[data-jump="table-inventory"]').click();
    const top = await page.locator('#table-inventory').evaluate(el => el.getBoundingClientRect().top);
    assert.ok(top > -2 && top < 800, `the inventory's top at ${top}px`);   // scrolled to it: within a pixel of the top
    assert.ok(await page.locator('#table-inventory-title').evaluate(el => el === document.activeElement));
    assert.deepEqual(await axeViolations(page), []);
    await shot('table');
  });

  it('a player-banked round whose bank ran out: its lines as the API gives them, the fees shown', async () => {
    const r = (await ok('GET', `/api/v1/rounds/${rounds.p1.id}`, {}, 200)).round;
    const label = `P1-${r.round_no}`;
    // The case this is about: a returned Ante Bonus line, beside wagers returned.
    const bonus = r.payouts.filter(p => p.wager === 'ante_bonus' && p.result === 'returned');
    const returned = r.payouts.filter(p => p.wager !== 'ante_bonus' && p.result === 'returned');
    assert.ok(bonus.length && returned.length, JSON.stringify(r.payouts));
    await page.goto(`${base}/#/round/${label}`);
    await page.locator('h1', {hasText: `Round ${label}`}).waitFor();
    const rows = page.locator('#round-payouts table').first().locator('tbody tr');
    assert.equal(await rows.count(), r.payouts.length);
    const texts = await rows.allInnerTexts();
    let returnLines = 0;
    r.payouts.forEach((p, i) => {
      if (p.wager === 'ante_bonus' && p.result === 'returned') {
        assert.ok(!/RETURN/.test(texts[i]) && /not paid/i.test(texts[i]), `the bonus line: ${texts[i]}`);
      } else if (p.result === 'returned') {
        assert.ok(texts[i].includes(`RETURN the ${usd(p.stake)} bet`), texts[i]);
        returnLines++;
      } else if (p.net > 0) {
        assert.ok(texts[i].includes(`PAY ${usd(p.net)}`), texts[i]);
      } else if (p.net < 0) {
        assert.ok(texts[i].includes(`TAKE ${usd(-p.net)}`), texts[i]);
      }
    });
    assert.equal(returnLines, returned.length);
    const sum = returned.reduce((a, p) => a + p.stake, 0);
    const n = returned.length;
    assert.ok((await page.locator('#round-returned').innerText()).includes(`${n} ${n === 1 ? 'wager' : 'wagers'} returned (${usd(sum)})`));
    // The collection fees, seat by seat and in all, as the round records them.
    const fees = page.locator('#round-fees');
    const feeText = await fees.innerText();
    for (const [seat, fee] of Object.entries(r.collections.seats)) {
      const own = fee + (Number(seat) === r.banker.seat ? r.collections.banker : 0);
      assert.ok(feeText.includes(`Seat ${seat}`) && feeText.includes(usd(own)), `seat ${seat}'s fee in ${feeText}`);
    }
    if (r.collections.banker) assert.ok(feeText.includes(`Seat ${r.banker.seat} (banker)`), feeText);
    assert.ok(feeText.includes(usd(r.collections.total)), feeText);
    assert.deepEqual(await jargonIn(page), []);
    assert.deepEqual(await axeViolations(page), []);
    await shot('banked');
  });

  it('a decision judged: the round says what a mistaken fold was worth; the seat that knew the dealer\u2019s hand is an exception', async () => {
    const folded = rounds.t2[1];
    const ev = folded.hands['1'].decision_ev;
    assert.equal(folded.hands['1'].mistake, true);
    assert.ok(ev.play > ev.fold, 'K-Q-9 is worth more played');
    await page.goto(`${base}/#/round/T2-${folded.round_no}`);
    const note = page.locator('.decision-mistake[data-mistake="fold"]');
    await note.waitFor();
    assert.equal(await note.innerText(), `Folded a hand worth ${usd(Math.round(ev.play - ev.fold))} more played`);
    assert.equal(await page.locator('.decision-mistake').count(), 1, 'one decided seat, one mistake');
    // the report flags the seat (z over the threshold), and the exceptions view says so in words
    const day = (await http('GET', '/api/v1/tables')).json.property.gaming_day;
    const rep = (await http('GET', `/api/v1/reports/decisions?gaming_day=${day}&group=player`)).json;
    const seat = rep.groups.find(g => g.key === 'T2/1');
    assert.equal(seat.decisions, PEEKS);
    assert.ok(seat.flagged && seat.z >= 4, `z ${seat.z}`);
    await page.goto(`${base}/#/exceptions`);
    const row = page.locator('#exceptions-list tbody tr', {hasText: 'knew the dealer\u2019s hand'}).filter({hasText: 'T2 seat 1'});
    await row.first().waitFor();
    assert.match(await row.first().innerText(), new RegExp(`the ${PEEKS} decisions of T2 seat 1`));
    assert.deepEqual(await jargonIn(page), []);
    assert.deepEqual(await axeViolations(page), []);
    await shot('decision-exception');
  });

  it('logged no console error and no CSP violation', () => {
    assert.deepEqual(consoleErrors, []);
    assert.deepEqual(cspViolations, []);
  });
});
