// dealer.test.mjs - the dealer's page (/dealer/) in Debian's headless Chromium,
// against the real pitbossd on a free loopback port with a temporary database.
// Rounds are entered through the page, and what the daemon recorded (GET
// /rounds/{id}) is compared with what the page told the dealer to pay.
//
//   PB_BUILD_DIR, PB_SOURCE_DIR, PB_CHROMIUM: as page.test.mjs.
// Screenshots for docs/dealer.md land in docs/img/dealer-*.png.
import {describe, it, before, after} from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {CHROMIUM, SOURCE, axeViolations, jargonIn, recordCspViolations, startPitbossd, stopPitbossd, tryInline, until}
  from './harness.mjs';
import {launchChromium} from './harness.mjs';

const IMG = path.join(SOURCE, 'docs', 'img');
const ADMIN = 'demo-admin';
const DEALER_P = {id: 'D3001', name: 'Dana Weiss', roles: ['dealer'], password: 'first-shift-1234', next: 'copper-lantern-88'};
const FLOOR_P = {id: 'F4001', name: 'Flo Marsh', roles: ['floor'], password: 'first-shift-5678', next: 'silver-harbor-42'};

let run, base, browser;
// The players seated before the test: {table: {seat: display}} as GET /tables/{t}/seats gives the dealer.
const seated = {};
const pageErrors = [];
// Every Content-Security-Policy violation in the test's pages (harness.mjs).
const cspViolations = [];

/** A request to the daemon at `at` (the test's own by default). */
async function http(method, p, {token = ADMIN, body, at = base} = {}) {
  const res = await fetch(at + p, {
    method,
    headers: {...(token ? {Authorization: `Bearer ${token}`} : {}), Accept: 'application/json',
      ...(body ? {'Content-Type': 'application/json'} : {})},
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let json = null;
  try { json = JSON.parse(text); } catch { /* not JSON */ }
  return {status: res.status, json, text};
}

async function startDaemon() {
  run = await startPitbossd('pitboss-dealer-');
  base = run.base;
}

/** A person made by the admin, whose one-time password is changed, as at a first sign-in. */
async function makePerson(p, at = base) {
  const r = await http('POST', '/api/v1/people', {at, body: {id: p.id, name: p.name, roles: p.roles, password: p.password}});
  assert.equal(r.status, 201, r.text);
  const s = await http('POST', '/api/v1/sessions', {at, token: null, body: {person: p.id, password: p.password}});
  assert.equal(s.status, 201, s.text);
  const c = await http('PUT', `/api/v1/people/${p.id}/password`, {at, token: s.json.token,
    body: {current: p.password, password: p.next}});
  assert.equal(c.status, 200, c.text);
}

async function newPage(viewport = {width: 1024, height: 768}, options = {}) {
  const context = await browser.newContext({viewport, locale: 'en-US', ...options});
  await recordCspViolations(context, cspViolations);
  const page = await context.newPage();
  page.on('pageerror', e => pageErrors.push(String(e)));
  page.on('console', m => { if (m.type() === 'error' && /Content Security Policy/.test(m.text())) pageErrors.push(m.text()); });
  return page;
}

async function shot(page, name) {
  fs.mkdirSync(IMG, {recursive: true});
  await page.screenshot({path: path.join(IMG, `dealer-${name}.png`)});
}

/** Counts what the dealer types: each key press, each character typed. */
function keyboard(page) {
  const k = {count: 0};
  k.press = async key => { k.count++; await page.keyboard.press(key); };
  k.type = async text => { k.count += text.length; await page.keyboard.type(text); };
  return k;
}

async function signIn(page, table, at = base) {
  await page.goto(`${at}/dealer/`);
  await page.locator('#person').waitFor({state: 'visible'});
  await page.keyboard.type(DEALER_P.id);
  await page.keyboard.press('Tab');
  await page.keyboard.type(DEALER_P.next);
  await page.keyboard.press('Enter');
  await page.locator('#pick-tables button').first().waitFor();
  const ids = await page.locator('#pick-tables button').evaluateAll(bs => bs.map(b => b.dataset.table));
  const n = ids.indexOf(table);
  assert.ok(n >= 0 && n < 9, `table ${table} among ${ids}`);
  await page.keyboard.press(String(n + 1));
  await page.locator('#deal').waitFor({state: 'visible'});
  await page.locator('#phase-start').waitFor({state: 'visible'});
}

async function waitRecorded(page, label) {
  await page.waitForFunction(l => {
    const s = document.getElementById('status');
    return s.dataset.kind === 'ok' && s.textContent.includes(l);
  }, label, {timeout: 15000});
}

/** The payout lines the page shows: [{seq, seat, wager, net, result, text}]. */
async function shownPayouts(page) {
  await page.locator('#phase-payouts').waitFor({state: 'visible'});
  return page.locator('#payouts tr[data-seq]').evaluateAll(rows => rows.map(r => ({
    seq: Number(r.dataset.seq), seat: Number(r.dataset.seat), wager: r.dataset.wager, net: Number(r.dataset.net),
    result: r.dataset.result, text: r.querySelector('.amount').textContent})));
}

/** Cents of USD as the dealer's page writes them: "$25", "$25.50", "$1,000". */
function dollars(c) {
  const v = Math.abs(c);
  return '$' + Math.floor(v / 100).toLocaleString('en-US') + (v % 100 ? '.' + String(v % 100).padStart(2, '0') : '');
}

/** Yen (no minor units: 500 is ¥500) as the dealer's page writes them: "¥500", "¥1,000". */
function yen(n) {
  return '¥' + Math.abs(n).toLocaleString('en-US');
}

/**
 * The recorded round of the table's last round: the page's lines equal its
 * payouts, and each says pay or take (amounts written by `written`).
 */
async function checkAgainstRecord(page, table, {at = base, written = dollars} = {}) {
  const shown = await shownPayouts(page);
  const list = await http('GET', `/api/v1/tables/${table}/rounds?limit=1`, {at});
  assert.equal(list.status, 200, list.text);
  const id = list.json.rounds[0].id;
  const rec = (await http('GET', `/api/v1/rounds/${id}`, {at})).json.round;
  assert.equal(rec.state, 'settled');
  // every line of the record but an Ante Bonus the bank could not pay (not a bet: nothing to return)
  const acted = rec.payouts.filter(p => !(p.wager === 'ante_bonus' && p.result === 'returned'));
  assert.deepEqual(shown.map(({seq, seat, wager, net, result}) => ({seq, seat, wager, net, result})),
    acted.map(({seq, seat, wager, net, result}) => ({seq, seat, wager, net, result})));
  assert.equal(await page.locator('#round-label').textContent(), `${table}-${rec.round_no} \u00b7 settled`);
  for (const l of shown) {
    if (l.result === 'returned') assert.match(l.text, /^RETURN/);
    else if (l.net > 0) assert.ok(l.text.startsWith(`PAY ${written(l.net)}`), l.text);
    else if (l.net < 0) assert.equal(l.text, `TAKE ${written(-l.net)}`);
  }
  return rec;
}

/** Types a seat's bet: amounts of the offered wagers in order (dollars, "" to skip), then Enter. */
async function bet(k, amounts) {
  for (let i = 0; i < amounts.length; i++) {
    if (i) await k.press('Tab');
    if (amounts[i] !== '') await k.type(String(amounts[i]));
  }
  await k.press('Enter');
}

before(async () => {
  await startDaemon();
  await makePerson(DEALER_P);
  await makePerson(FLOOR_P);
  const players = [['T1', 2, {card: '100001', name: 'Ana Lopez'}], ['P1', 5, {description: 'tall man, red cap'}]];
  for (const [table, seat, body] of players) {
    const pl = await http('POST', '/api/v1/players', {body});
    assert.equal(pl.status, 201, pl.text);
    const sit = await http('PUT', `/api/v1/tables/${table}/seats/${seat}/player`,
      {body: {player: (pl.json.player || pl.json).id}});
    assert.equal(sit.status, 200, sit.text);
    const seats = await http('GET', `/api/v1/tables/${table}/seats`, {token: 'demo-dealer'});
    seated[table] = {[seat]: seats.json.seats.find(x => x.seat === seat).player.display};
    assert.ok(seated[table][seat], seats.text);
  }
  assert.ok(fs.existsSync(CHROMIUM), `no Chromium at ${CHROMIUM}`);
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await stopPitbossd(run);
});

describe('the dealer page', () => {
  it('is served at /dealer/ and signs the dealer in at the table he picks', async () => {
    const r = await fetch(`${base}/dealer/`);
    assert.equal(r.status, 200);
    assert.match(await r.text(), /Dealer sign-in/);
    const page = await newPage();
    await page.goto(`${base}/dealer/`);
    await page.locator('#person').waitFor({state: 'visible'});
    await shot(page, 'signin');
    await signIn(page, 'T1');
    const t1 = await http('GET', '/api/v1/tables/T1');
    assert.equal(t1.json.table.dealer.id, DEALER_P.id, 'PUT /tables/T1/dealer set him');
    assert.match(await page.locator('#table-limits').textContent(), /Ante \$5\u2013\$500/);
    // the players seated at the table, by seat, before the round opens
    assert.equal(await page.locator('#seated [data-player="2"]').textContent(), `seat 2 ${seated.T1[2]}`);
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(await jargonIn(page), []);
    // change of table: back to the list (he leaves T1), and on to T2
    await page.locator('#change-table').click();
    await page.locator('#pick-tables button').first().waitFor();
    assert.equal((await http('GET', '/api/v1/tables/T1')).json.table.dealer, null, 'he left T1');
    await page.locator('#pick-tables button[data-table="T2"]').click();
    await page.locator('#phase-start').waitFor({state: 'visible'});
    assert.match(await page.locator('#table-name').textContent(), /\(T2\)/);
    assert.equal((await http('GET', '/api/v1/tables/T2')).json.table.dealer.id, DEALER_P.id);
    await page.context().close();
  });

  it('records a six-seat round from the keyboard alone, and counts the keys', async () => {
    const page = await newPage();
    await signIn(page, 'T1');
    const k = keyboard(page);
    const started = Date.now();
    await k.press('Enter');                                   // open the round
    await page.locator('#phase-bets').waitFor({state: 'visible'});
    for (let seat = 1; seat <= 6; seat++) {
      await bet(k, ['25']);                                   // Ante $25; Enter records the seat
      await waitRecorded(page, `seat ${seat}'s bet`);
    }
    assert.equal(await page.evaluate(() => document.activeElement.id), 'close-bets');
    await k.press('Enter');                                   // no more bets
    await page.locator('#phase-cards').waitFor({state: 'visible'});
    const hands = ['askdqh', '2c3d5h', 'jsjd4c', '9s8s7s', 'kc7d3s', '6h6c2d'];
    for (const hnd of hands) await k.type(hnd);                 // each hand moves on by itself after 3 cards
    await shot(page, 'cards');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'cards-go');
    await k.press('Enter');                                   // record the deal
    await page.locator('#phase-decisions').waitFor({state: 'visible'});
    for (const d of ['p', 'f', 'p', 'p', 'p', 'p']) {
      await k.press(d);
      await page.waitForFunction(() => !document.getElementById('work').disabled);
    }
    await page.locator('#phase-cards').waitFor({state: 'visible'});
    await k.type('qd7c2h');                                   // the dealer's cards
    await k.press('Enter');                                   // reveal
    await page.locator('#phase-settle').waitFor({state: 'visible'});
    await k.press('Enter');                                   // settle
    const rec = await checkAgainstRecord(page, 'T1');
    const seconds = (Date.now() - started) / 1000;
    assert.equal(Object.keys(rec.bets).length, 6);
    assert.equal(k.count, 71, `keystrokes for a six-seat round: ${k.count}`);
    console.log(`# six-seat round: ${k.count} keystrokes, ${seconds.toFixed(1)} s in the test`);
    await shot(page, 'payouts');
    await k.press('Enter');                                   // next round
    await page.locator('#phase-start').waitFor({state: 'visible'});
    await page.context().close();
  });

  it('takes a round on a 1280x800 tablet by taps alone: chips that fit, a Record button per seat, ' +
    '"No more bets" records the rest',
    async () => {
      const page = await newPage({width: 1280, height: 800}, {hasTouch: true, isMobile: false});
      await signIn(page, 'T1');
      const sent = [];
      page.on('request', r => { if (r.method() !== 'GET') sent.push(`${r.method()} ${new URL(r.url()).pathname}`); });
      const tap = sel => page.locator(sel).tap();
      const box = (seat, wager) => `input[data-seat="${seat}"][data-wager="${wager}"]`;
      const chip = c => `.chip[data-cents="${c}"]`;
      await tap('#open-round');
      await page.locator('#phase-bets').waitFor({state: 'visible'});
      // the header on one row: its height (less its padding) is that of its tallest item, each item on the same row
      const bar = await page.evaluate(() => {
        const el = document.querySelector('#deal header.bar');
        const cs = getComputedStyle(el);
        const items = [...el.querySelectorAll('.who > *')].filter(e => e.getClientRects().length).map(e => e.getBoundingClientRect());
        return {inner: el.clientHeight - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom), ids: [...el.querySelectorAll('.who > *')]
          .filter(e => e.getClientRects().length).map(e => e.id), tallest: Math.max(...items.map(r => r.height)),
        top: Math.min(...items.map(r => r.top)), bottom: Math.max(...items.map(r => r.bottom))};
      });
      assert.deepEqual(bar.ids, ['table-name', 'round-label', 'dealer-name', 'misdeal-open', 'change-table', 'signout']);
      assert.ok(Math.abs(bar.inner - bar.tallest) <= 1, `the header is one row: ${JSON.stringify(bar)}`);
      assert.ok(bar.bottom - bar.top <= bar.tallest + 1, `its items on one row: ${JSON.stringify(bar)}`);
      // the player seated at seat 2, under its number
      assert.equal(await page.locator('#bet-rows [data-player="2"]').textContent(), seated.T1[2]);
      // the property's chips, each label whole inside its chip ("$100" is not "$10")
      const {property} = (await http('GET', '/api/v1/tables')).json;
      const face = c => (c >= 100000 && c % 100000 === 0 ? `$${c / 100000}K` : dollars(c));
      const chips = await page.locator('#chips .chip').evaluateAll(cs => cs.map(c => {
        const range = document.createRange();
        range.selectNodeContents(c);
        const t = range.getBoundingClientRect(), b = c.getBoundingClientRect();
        return {text: c.textContent, scroll: c.scrollWidth, client: c.clientWidth, text_box: [t.left, t.right],
          chip_box: [b.left, b.right]};
      }));
      assert.deepEqual(chips.map(c => c.text), property.chips.map(face));
      assert.ok(chips.some(c => c.text === '$100') && chips.some(c => c.text === '$1K'), chips.map(c => c.text).join());
      for (const c of chips) {
        assert.ok(c.scroll <= c.client, `${c.text}: ${c.scroll} px of text in ${c.client} px`);
        assert.ok(c.text_box[0] >= c.chip_box[0] + 4 && c.text_box[1] <= c.chip_box[1] - 4,
          `${c.text} inside its chip: ${JSON.stringify(c)}`);
      }
      // below the table's minimum: said at once, refused on the page, nothing sent; "Clear the box" empties it
      const before = sent.length;
      await tap(box(1, 'ante'));
      await tap(chip(100));
      assert.match(await page.locator('#bet-rows [data-note="1"]').textContent(), /below the minimum \$5/);
      await tap('[data-record="1"]');
      assert.equal(sent.length, before, 'a bet under the minimum is not sent');
      assert.equal(await page.locator('#error').textContent(), 'Seat 1: Ante $1 is below the minimum $5.');
      await tap('#chip-clear');
      assert.equal(await page.locator(box(1, 'ante')).inputValue(), '');
      assert.equal(await page.locator('#error').textContent(), '', 'the message goes when the seat is put right');
      // seat 1: $25 Ante, $5 + $5 Pair Plus, $5 6-Card, recorded by its button
      await tap(box(1, 'ante'));
      await tap(chip(2500));
      await tap(box(1, 'pair_plus'));
      await tap(chip(500));
      await tap(chip(500));
      await tap(box(1, 'six_card'));
      await tap(chip(500));
      await shot(page, 'bets');
      await tap('[data-record="1"]');
      await waitRecorded(page, "seat 1's bet");
      // seat 2: $10 Ante, $10 Pair Plus
      await tap(box(2, 'ante'));
      await tap(chip(500));
      await tap(chip(500));
      await tap(box(2, 'pair_plus'));
      await tap(chip(500));
      await tap(chip(500));
      await tap('[data-record="2"]');
      await waitRecorded(page, "seat 2's bet");
      // seat 3: a 6-Card alone is refused on the page, and the stale "Recorded" line goes with the new message
      await tap(box(3, 'six_card'));
      await tap(chip(500));
      await tap('[data-record="3"]');
      assert.match(await page.locator('#error').textContent(), /Seat 3: the 6-Card Bonus needs an Ante/);
      assert.equal(await page.locator('#status').textContent(), '', 'no "Recorded" line above the new message');
      await tap(box(3, 'ante'));
      await tap(chip(500));
      await tap(chip(500));
      // "No more bets" records seat 3 first, then closes
      await tap('#close-bets');
      await page.locator('#phase-cards').waitFor({state: 'visible'});
      const id = /rounds\/(\d+)\/close$/.exec(sent.at(-1))?.[1];
      assert.deepEqual(sent.slice(-2), [`PUT /api/v1/rounds/${id}/bets/3`, `POST /api/v1/rounds/${id}/close`]);
      // cards: a duplicate and an unknown card are refused as they are typed (a keyboard too may be used)
      for (const c of ['As', 'Ks', 'Qs']) await tap(`#card-grid button[data-card="${c}"]`);   // seat 1: a straight flush
      assert.equal(await page.locator('#card-grid button[data-card="As"]').isDisabled(), true, 'a card dealt is greyed');
      await page.locator('input[data-hand="2"]').fill('as');
      assert.match(await page.locator('#hand-rows [data-note="2"]').textContent(), /already at seat 1/);
      assert.equal(await page.locator('input[data-hand="2"]').evaluate(e => e.classList.contains('bad')), true);
      await page.locator('input[data-hand="2"]').fill('zz');
      assert.match(await page.locator('#hand-rows [data-note="2"]').textContent(), /is not a card/);
      await page.locator('input[data-hand="2"]').fill('');
      await tap('input[data-hand="2"]');
      for (const c of ['9h', '9d', '4c', '2c', '3d', 'Th']) await tap(`#card-grid button[data-card="${c}"]`);
      await tap('#cards-go');
      await page.locator('#phase-decisions').waitFor({state: 'visible'});
      for (const [seat, d] of [[1, 'play'], [2, 'play'], [3, 'fold']]) {
        await tap(`#decision-rows [data-seat="${seat}"] button[data-action="${d}"]`);
        await page.waitForFunction(() => !document.getElementById('work').disabled);
      }
      await page.locator('#phase-cards').waitFor({state: 'visible'});
      for (const c of ['Qd', '7c', '2h']) await tap(`#card-grid button[data-card="${c}"]`);
      await tap('#cards-go');
      await page.locator('#phase-settle').waitFor({state: 'visible'});
      await tap('#settle-go');
      const rec = await checkAgainstRecord(page, 'T1');
      const wagers = new Set(rec.payouts.map(p => p.wager));
      for (const w of ['ante', 'play', 'pair_plus', 'six_card', 'ante_bonus']) assert.ok(wagers.has(w), `a ${w} line`);
      assert.deepEqual(rec.bets['3'] && [rec.bets['3'].ante, rec.bets['3'].six_card], [1000, 500],
        'seat 3 recorded by "No more bets"');
      assert.deepEqual(await axeViolations(page), []);
      assert.deepEqual(await jargonIn(page), []);
      await shot(page, 'tablet');
      // sign-out ends the session: the token the page held is refused from now on
      const token = await page.evaluate(() => sessionStorage.getItem('pitboss.token'));
      assert.match(token, /^pbs_/);
      await tap('#next-round');
      await tap('#signout');
      await page.locator('#signin').waitFor({state: 'visible'});
      assert.equal(await page.evaluate(() => sessionStorage.getItem('pitboss.token')), null);
      assert.equal((await http('GET', '/api/v1/tables', {token})).status, 401);
      assert.equal((await http('GET', '/api/v1/tables/T1')).json.table.dealer, null, 'he left the table');
      await page.context().close();
    });

  for (const [table, hands] of [['F1', ['ahadac', '5s6d9c']], ['T3', ['kskdkh', '2s3s4s']]]) {
    it(`records a round at ${table} (${table === 'F1' ? 'Florida' : 'Tri-Card'})`, async () => {
      const page = await newPage();
      await signIn(page, table);
      const k = keyboard(page);
      await k.press('Enter');
      await page.locator('#phase-bets').waitFor({state: 'visible'});
      await bet(k, ['10', '5']);
      await waitRecorded(page, "seat 1's bet");
      await bet(k, ['20', '']);
      await waitRecorded(page, "seat 2's bet");
      await page.locator('#close-bets').click();
      await page.locator('#phase-cards').waitFor({state: 'visible'});
      for (const hnd of hands) await k.type(hnd);
      await k.press('Enter');
      await page.locator('#phase-decisions').waitFor({state: 'visible'});
      for (const d of ['p', 'p']) {
        await k.press(d);
        await page.waitForFunction(() => !document.getElementById('work').disabled);
      }
      await k.type('jh8c2d');
      await k.press('Enter');
      await page.locator('#phase-settle').waitFor({state: 'visible'});
      await k.press('Enter');
      const rec = await checkAgainstRecord(page, table);
      assert.equal(rec.table, table);
      await page.context().close();
    });
  }

  it('shows a player-banked bank line by line, and what is returned when it runs out', async () => {
    const page = await newPage();
    await signIn(page, 'P1');
    const k = keyboard(page);
    await k.type('4');                                        // the banker's seat
    await k.press('Enter');
    await k.type('100');                                      // a $100 bank, the table's least
    await k.press('Enter');
    await page.locator('#phase-bets').waitFor({state: 'visible'});
    // seats 5 and 6 after the banker: 5 wins more than the bank, 6 is returned
    await page.locator('input[data-seat="5"][data-wager="ante"]').focus();
    await bet(k, ['50', '']);
    await waitRecorded(page, "seat 5's bet");
    await bet(k, ['50', '']);
    await waitRecorded(page, "seat 6's bet");
    await page.locator('#close-bets').click();
    await page.locator('#phase-cards').waitFor({state: 'visible'});
    await k.type('ahadac');
    await k.type('kskdkh');
    await k.press('Enter');
    await page.locator('#phase-decisions').waitFor({state: 'visible'});
    for (const d of ['p', 'p']) {
      await k.press(d);
      await page.waitForFunction(() => !document.getElementById('work').disabled);
    }
    await k.type('qc8d4s');
    await k.press('Enter');
    await page.locator('#phase-settle').waitFor({state: 'visible'});
    await k.press('Enter');
    const rec = await checkAgainstRecord(page, 'P1');
    assert.ok(rec.payouts.some(p => p.result === 'returned'), 'the bank ran out');
    // seat 6's trips: its Ante Bonus is returned with the rest, but it is no bet: no line, not counted
    assert.ok(rec.payouts.some(p => p.wager === 'ante_bonus' && p.result === 'returned'), 'a bonus the bank could not pay');
    assert.equal(await page.locator('#payouts tr[data-wager="ante_bonus"][data-result="returned"]').count(), 0);
    for (const line of await page.locator('#payouts tr').allInnerTexts()) {
      if (line.includes('Ante Bonus')) assert.doesNotMatch(line, /RETURN/, line);
    }
    const returned = rec.payouts.filter(p => p.result === 'returned' && p.wager !== 'ante_bonus');
    const summary = await page.locator('#bank-summary').textContent();
    const back = dollars(returned.reduce((a, p) => a + p.stake, 0));
    assert.equal(summary, `Banker (seat 4): bank ${dollars(rec.banker.bank)} \u2192 ${dollars(rec.banker.bank_end)}; ` +
      `the bank ran out: ${returned.length} wager${returned.length === 1 ? '' : 's'} returned (${back})`);
    assert.deepEqual(returned.map(p => [p.seat, p.wager, p.stake]), [[6, 'ante', 5000], [6, 'play', 5000]],
      'seat 6 put up $100');
    assert.equal(rec.banker.bank, 10000, 'the $100 bank typed');
    const banks = await page.locator('#payouts tr[data-seq] td:nth-child(5)').allTextContents();
    assert.deepEqual(banks, rec.payouts.filter(p => !(p.wager === 'ante_bonus' && p.result === 'returned'))
      .map(p => `bank ${dollars(p.bank_after)}`));
    // the collection fees, each where it is taken: a line per seat that pays one, and the banker's
    assert.ok(rec.collections && rec.collections.total > 0, JSON.stringify(rec.collections));
    const fees = await page.locator('#payouts tr[data-fee]').evaluateAll(rows => rows.map(r => [Number(r.dataset.fee),
      r.querySelector('.amount').textContent]));
    const owed = new Map(Object.entries(rec.collections.seats).map(([seat, c]) => [Number(seat), c]));
    owed.set(rec.banker.seat, (owed.get(rec.banker.seat) || 0) + rec.collections.banker);
    assert.deepEqual(new Map(fees),
      new Map([...owed].filter(([, c]) => c > 0).map(([seat, c]) => [seat, `TAKE ${dollars(c)}`])));
    // P1's schedule (config/pitboss.json): a $50 Ante is in the "up to $100" band, $2; the banker pays $3; seat 6,
    // whose wagers were all returned, had no action and pays none
    assert.deepEqual(fees, [[5, 'TAKE $2'], [4, 'TAKE $3']]);
    assert.equal(await page.locator('#fee-summary').textContent(),
      `Collection fees: take ${dollars(rec.collections.total)} in all for the house, as the lines above say.`);
    // the player seated at seat 5, beside his lines
    assert.equal(await page.locator('#payouts tr[data-seat="5"] [data-player="5"]').first().textContent(), seated.P1[5]);
    assert.deepEqual(await jargonIn(page), []);
    await shot(page, 'banked');
    await page.context().close();
  });

  it('voids a misdeal after the deal, signed by a floor supervisor', async () => {
    const page = await newPage();
    await signIn(page, 'T2');
    const k = keyboard(page);
    await k.press('Enter');
    await page.locator('#phase-bets').waitFor({state: 'visible'});
    await bet(k, ['10', '']);
    await waitRecorded(page, "seat 1's bet");
    await page.locator('#close-bets').click();
    await page.locator('#phase-cards').waitFor({state: 'visible'});
    await k.type('2s3s4s');
    await k.press('Enter');
    await page.locator('#phase-decisions').waitFor({state: 'visible'});
    // a reload keeps the session and goes on with the open round, at the step it was at
    const label = await page.locator('#round-label').textContent();
    assert.match(label, /^T2-\d+ \u00b7 dealt$/);
    await page.reload();
    await page.locator('#phase-decisions').waitFor({state: 'visible'});
    assert.equal(await page.locator('#round-label').textContent(), label);
    assert.equal(await page.locator('#signin').isVisible(), false, 'still signed in');
    assert.equal(await page.locator('#decision-rows [data-seat="1"] button[data-action="play"]').isEnabled(), true);
    assert.deepEqual(await axeViolations(page), []);
    await page.keyboard.press('Alt+m');
    await page.locator('#misdeal-witness').waitFor({state: 'visible'});
    await page.keyboard.type('misdeal: exposed card');
    await page.locator('#witness-person').fill(FLOOR_P.id);
    // a wrong witness password: refused, said as a sentence (no code, no JSON), nothing recorded
    await page.locator('#witness-password').fill('not-the-password');
    await page.locator('#witness-password').press('Enter');
    await page.waitForFunction(() => document.getElementById('error').textContent !== '');
    const refusal = await page.locator('#error').textContent();
    assert.match(refusal, /^Misdeal \(void\): [A-Z][^()]*\.$/, refusal);
    assert.deepEqual(await jargonIn(page), []);
    await page.locator('#witness-password').fill(FLOOR_P.next);
    await page.locator('#witness-password').press('Enter');
    await page.locator('#void-note').waitFor();
    const list = await http('GET', '/api/v1/tables/T2/rounds?limit=1');
    const rec = (await http('GET', `/api/v1/rounds/${list.json.rounds[0].id}`)).json.round;
    assert.equal(rec.state, 'void');
    assert.equal(rec.void_reason, 'misdeal: exposed card');
    const voided = rec.events.find(e => e.type === 'round_voided');
    assert.equal(voided.body.witness, FLOOR_P.id);
    await page.context().close();
  });

  it('sends a step again with the same key when its answer was lost, and records it once', async () => {
    const page = await newPage();
    await signIn(page, 'T2');
    const k = keyboard(page);
    await k.press('Enter');
    await page.locator('#phase-bets').waitFor({state: 'visible'});
    await bet(k, ['10', '']);
    await waitRecorded(page, "seat 1's bet");
    // "no more bets" reaches the daemon, but its answer never reaches the page
    const keys = [];
    let dropped = false;
    await page.route('**/api/v1/rounds/*/close', async route => {
      keys.push(route.request().headers()['idempotency-key']);
      if (!dropped) {
        dropped = true;
        await route.fetch();                                  // recorded by the daemon...
        await route.abort('connectionreset');                 // ...and the connection drops
        return;
      }
      await route.continue();
    });
    await page.locator('#close-bets').click();
    await page.waitForFunction(() => document.getElementById('status').dataset.kind === 'unrecorded');
    assert.match(await page.locator('#status').textContent(), /NOT RECORDED: no more bets/);
    assert.equal(await page.locator('#work').evaluate(e => e.disabled), true, 'nothing goes on past the unrecorded step');
    await shot(page, 'unrecorded');
    await waitRecorded(page, 'no more bets');
    await page.locator('#phase-cards').waitFor({state: 'visible'});
    assert.ok(keys.length >= 2, `sent ${keys.length} times`);
    assert.ok(keys[0] && keys.every(x => x === keys[0]), `one key: ${keys}`);
    const list = await http('GET', '/api/v1/tables/T2/rounds?limit=1');
    const rec = (await http('GET', `/api/v1/rounds/${list.json.rounds[0].id}`)).json.round;
    assert.equal(rec.state, 'closed');
    assert.equal(rec.events.filter(e => e.type === 'betting_closed').length, 1, 'closed once');
    await page.unroute('**/api/v1/rounds/*/close');
    // the round goes on: misdeal before the deal needs no witness
    await page.keyboard.press('Alt+m');
    await page.keyboard.type('test over');
    await page.keyboard.press('Enter');
    await page.locator('#void-note').waitFor();
    await page.context().close();
  });

  it('writes amounts in the table\'s currency: a currency without minor units (JPY) is not shown 100 times too large', async () => {
    // The same property with every table in yen: a limit of 500 is ¥500 (JPY has no minor units), not ¥5 or ¥50,000.
    const yenRun = await startPitbossd('pitboss-dealer-yen-', cfg => { for (const t of cfg.tables) t.currency = 'JPY'; });
    try {
      const at = yenRun.base;
      await makePerson(DEALER_P, at);
      const page = await newPage();
      await signIn(page, 'T1', at);
      assert.equal(await page.locator('#table-limits').textContent(),
        'Ante ¥500\u2013¥50,000 \u00b7 Pair Plus ¥500\u2013¥10,000 \u00b7 6-Card ¥500\u2013¥2,500');
      const k = keyboard(page);
      await k.press('Enter');
      await page.locator('#phase-bets').waitFor({state: 'visible'});
      assert.match(await page.locator('#bets-hint').textContent(), /type amounts in ¥/);
      // the chips in yen, whole thousands shortened: ¥100, ¥2,500, ¥10K
      const {property} = (await http('GET', '/api/v1/tables', {at})).json;
      assert.deepEqual(await page.locator('#chips .chip').allTextContents(),
        property.chips.map(c => (c >= 1000 && c % 1000 === 0 ? `¥${c / 1000}K` : yen(c))));
      // yen are typed whole: a decimal is not an amount, and the minimum is ¥500
      await bet(k, ['300']);
      assert.match(await page.locator('#bet-rows [data-note="1"]').textContent(), /Ante ¥300 is below the minimum ¥500/);
      await page.locator('input[data-seat="1"][data-wager="ante"]').fill('');
      await page.locator('input[data-seat="1"][data-wager="ante"]').focus();
      await bet(k, ['1000.5']);
      assert.match(await page.locator('#bet-rows [data-note="1"]').textContent(), /"1000\.5" is not an amount/);
      await page.locator('input[data-seat="1"][data-wager="ante"]').fill('');
      await page.locator('input[data-seat="1"][data-wager="ante"]').focus();
      await bet(k, ['1,000', '500']);                         // seat 1: Ante ¥1,000, Pair Plus ¥500
      await waitRecorded(page, "seat 1's bet");
      // seat 2 with chips: ¥2,500 + ¥500 on the Ante, written back as 3000 in the field
      await page.locator('input[data-seat="2"][data-wager="ante"]').click();
      await page.locator('.chip[data-cents="2500"]').click();
      await page.locator('.chip[data-cents="500"]').click();
      assert.equal(await page.locator('input[data-seat="2"][data-wager="ante"]').inputValue(), '3000');
      await page.keyboard.press('Enter');
      await waitRecorded(page, "seat 2's bet");
      await page.locator('#close-bets').click();
      await page.locator('#phase-cards').waitFor({state: 'visible'});
      await k.type('asksqs');                                 // seat 1: a straight flush
      await k.type('2c3d5h');                                 // seat 2: five high
      await k.press('Enter');
      await page.locator('#phase-decisions').waitFor({state: 'visible'});
      for (const d of ['p', 'p']) {
        await k.press(d);
        await page.waitForFunction(() => !document.getElementById('work').disabled);
      }
      await k.type('qd7c2h');
      await k.press('Enter');
      await page.locator('#phase-settle').waitFor({state: 'visible'});
      await k.press('Enter');
      const rec = await checkAgainstRecord(page, 'T1', {at, written: yen});
      assert.equal(rec.bets['1'].ante, 1000, 'typed ¥1,000 is recorded as 1000');
      assert.equal(rec.bets['1'].pair_plus, 500);
      assert.equal(rec.bets['2'].ante, 3000);
      const texts = (await shownPayouts(page)).map(l => l.text).join(' | ');
      assert.ok(!/¥[\d,]+\./.test(texts) && !/\$/.test(texts), `no decimals, no dollars: ${texts}`);
      const ante1 = rec.payouts.find(p => p.seat === 1 && p.wager === 'ante');
      assert.equal(ante1.net, 1000);
      assert.equal((await shownPayouts(page)).find(l => l.seq === ante1.seq).text, 'PAY ¥1,000');
      await shot(page, 'yen');
      await page.context().close();
      // the pit boss page writes the same round in yen too
      const pit = await browser.newContext({viewport: {width: 1366, height: 768}, locale: 'en-US'});
      await recordCspViolations(pit, cspViolations);
      await pit.addInitScript(() => sessionStorage.setItem('pitboss.token', 'demo-pitboss'));
      const pp = await pit.newPage();
      pp.on('pageerror', e => pageErrors.push(String(e)));
      await pp.goto(`${at}/#/round/${rec.id}`);
      await pp.locator('#round-payouts .totals').waitFor();
      const totals = await pp.locator('#round-payouts .totals').innerText();
      assert.ok(totals.includes(yen(rec.totals.handle)), `handle ${yen(rec.totals.handle)} in ${totals}`);
      assert.ok(!/¥[\d,]+\./.test(totals), totals);
      await pit.close();
    } finally {
      await stopPitbossd(yenRun);
    }
  });

  it('is served under a policy that refuses inline style and script, and reports it', async () => {
    const probe = await browser.newContext();
    const seen = [];
    await recordCspViolations(probe, seen);
    const page = await probe.newPage();
    const res = await page.goto(`${base}/dealer/`);
    assert.match(res.headers()['content-security-policy'], /frame-ancestors 'none'/);
    assert.equal(res.headers()['x-frame-options'], 'DENY');
    await page.locator('#person').waitFor({state: 'visible'});
    assert.deepEqual(seen, [], 'the page itself breaks no rule of the policy');
    assert.deepEqual(await tryInline(page), {styled: false, ran: false, seen: ['script-src-elem', 'style-src-attr']});
    assert.ok(await until(() => seen.length === 2), `recorded: ${JSON.stringify(seen)}`);
    assert.deepEqual(seen.map(v => v.directive).sort(), ['script-src-elem', 'style-src-attr']);
    await probe.close();
  });

  it('raised no error in the page and broke no rule of the policy', () => {
    assert.deepEqual(pageErrors, []);
    assert.deepEqual(cspViolations, []);
  });
});
