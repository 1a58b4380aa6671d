// dealer.js - the dealer's page: sign in, choose the table, then record each
// round as it happens through the step-by-step API, and be told what to pay.
// docs/dealer.md describes it; tests/browser/dealer.test.mjs drives it.
// The requests, money, cards and the element builder are the pit boss page's
// modules (web/js/): api.js sends the steps, each recorded once.
import * as api from '../js/api.js';
import {h} from '../js/dom.js';
import {currencySymbol, minorDigits, money, parseAmount, toMajor} from '../js/format.js';
import {RANKS, SUITS, cardLabel, isRed, parseCards} from '../js/cards.js';

const WAGERS = [['ante', 'Ante'], ['pair_plus', 'Pair Plus'], ['six_card', '6-Card']];
const WAGER_NAMES = {ante: 'Ante', play: 'Play', pair_plus: 'Pair Plus', six_card: '6-Card Bonus', ante_bonus: 'Ante Bonus'};
const CHIPS = [100, 500, 2500, 10000, 50000];       // minor units of the table's currency

const $ = id => document.getElementById(id);
const st = {person: null, table: null, round: null, phase: '', lastInput: null, handFocus: 0, decideSeat: 0};

// The table's currency (GET /tables gives each table's): amounts are its minor units.
const currency = () => st.table?.currency || 'USD';
/** An amount of the table's currency as the dealer reads it: "$25", "$25.50", "¥500". */
const amount = minor => money(minor, currency(), {stripIfWhole: true});
/** A typed amount ("25", "$1,000") in minor units; null when blank, NaN when not an amount. */
const typed = text => parseAmount(text, currency());
/** Minor units as the amount typed in a field ("25.5"). */
const field = minor => String(toMajor(minor, currency()));
const amountMode = () => (minorDigits(currency()) ? 'decimal' : 'numeric');

api.keepTokenInMemory();
api.setUnauthorizedHandler(() => signOut('Your session ended: sign in again.'));

function show(screen) {
  for (const id of ['signin', 'pick', 'deal']) $(id).hidden = id !== screen;
}

function error(text) { $('error').textContent = text || ''; }

// ---- the status line: what is recorded, what is not ----

api.setStepStatusHandler(s => {
  const el = $('status');
  el.className = 'status ' + s.kind;
  el.replaceChildren();
  $('work').disabled = s.kind === 'pending' || s.kind === 'unrecorded';
  $('misdeal-open').disabled = $('work').disabled;
  if (s.kind === 'pending') el.append(`Recording: ${s.label}\u2026`);
  else if (s.kind === 'ok') el.append(`Recorded: ${s.label}`);
  else if (s.kind === 'refused') el.append(`Not recorded: ${s.label} was refused`);
  else if (s.kind === 'unrecorded') {
    el.append(`NOT RECORDED: ${s.label}. The network did not answer; sending it again with the same key ` +
      `(attempt ${s.attempt}). Do not go on with the round.`);
    el.append(h('button', {type: 'button', id: 'retry-now', onclick: () => api.retryStepNow()}, 'Send again now'));
  }
  el.dataset.kind = s.kind;
});

/** Runs a step; on refusal shows what to fix and resolves null (a 401 has signed out already). */
async function step(label, method, path, body) {
  error('');
  try {
    return await api.step(label, method, path, body);
  } catch (e) {
    if (e instanceof api.ApiError) {
      if (e.status !== 401) error(`${label}: ${e.message}`);
      return null;
    }
    throw e;
  }
}

// ---- sign-in and the table ----

function signOut(message) {
  api.clearToken();
  st.person = null;
  show('signin');
  $('signin-message').textContent = message || '';
  $('person').focus();
}

async function signIn(ev) {
  ev.preventDefault();
  $('signin-message').textContent = '';
  try {
    const js = await api.openSession($('person').value.trim(), $('password').value);
    $('password').value = '';
    if (js.must_change_password) {
      $('signin-message').textContent = 'Your password is a one-time password: change it on the pit boss page first.';
      return;
    }
    if (!js.person.roles.includes('dealer')) {
      $('signin-message').textContent = `${js.person.id} does not hold the dealer role.`;
      return;
    }
    api.setToken(js.token);
    st.person = js.person;
    await pickTable();
  } catch (e) {
    $('signin-message').textContent = e.status === 429 ? `Locked out: ${e.message}` : e.message;
  }
}

async function pickTable() {
  show('pick');
  const open = (await api.loadTables()).filter(t => t.status === 'open');
  const list = $('pick-tables');
  list.replaceChildren(...open.map((t, i) => h('button', {type: 'button', dataset: {table: t.id},
    onclick: () => chooseTable(t)}, `${i + 1}. ${t.name} (${t.id}) \u2014 ${gameName(t)}, ${t.seats} seats`)));
  if (!open.length) $('pick-message').textContent = 'No table is open.';
  list.onkeydown = null;
  document.onkeydown = ev => {
    if ($('pick').hidden) return;
    const n = parseInt(ev.key, 10);
    if (n >= 1 && n <= open.length) { ev.preventDefault(); chooseTable(open[n - 1]); }
  };
  list.firstChild?.focus();
}

function gameName(t) {
  return {standard: 'Three Card Poker', florida: 'Florida', tricard: 'Tri-Card'}[t.game] || t.game;
}

async function chooseTable(t) {
  $('pick-message').textContent = '';
  try {
    await api.send('PUT', `/tables/${t.id}/dealer`, {person: st.person.id});
  } catch (e) {
    $('pick-message').textContent = e.message;
    return;
  }
  document.onkeydown = onKey;
  st.table = t;
  show('deal');
  $('banker-bank-label').textContent = `Bank (${currencySymbol(currency())})`;
  $('banker-bank').inputMode = amountMode();
  $('bets-hint').textContent = `type amounts in ${currencySymbol(currency())}, Tab to the next wager, Enter records the seat`;
  $('table-name').textContent = `${t.name} (${t.id})`;
  $('table-game').textContent = `${gameName(t)} \u00b7 ${t.banking === 'player' ? 'player-banked' : 'house-banked'}`;
  $('table-limits').textContent = WAGERS.filter(([w]) => t.limits[w])
    .map(([w, name]) => `${name} ${amount(t.limits[w].min)}\u2013${amount(t.limits[w].max)}`).join(' \u00b7 ');
  $('dealer-name').textContent = `dealer ${st.person.name} (${st.person.id})`;
  st.round = null;
  if (t.current_round) {
    const js = await api.get(`/rounds/${t.current_round.id ?? t.current_round}`);
    setRound(js.round);
  } else {
    phaseStart();
  }
}

// ---- the round's phases ----

function setRound(r) {
  st.round = r;
  $('round-label').textContent = r ? `round ${r.round_no} \u00b7 ${r.state}` : '';
  if (!r) return phaseStart();
  const anteSeats = Object.keys(r.bets || {}).filter(s => r.bets[s].ante > 0);
  if (r.state === 'betting') return phaseBets();
  if (r.state === 'closed') return phaseCards(false);
  if (r.state === 'dealt') {
    return anteSeats.every(s => r.decisions && r.decisions[s]) ? phaseCards(true) : phaseDecisions();
  }
  if (r.state === 'revealed') return phaseSettle();
  return phasePayouts();
}

function phase(name) {
  st.phase = name;
  for (const p of ['start', 'bets', 'cards', 'decisions', 'settle', 'payouts']) $('phase-' + p).hidden = p !== name;
  const live = st.round && !['settled', 'void'].includes(st.round.state);
  $('misdeal-open').hidden = !live;
  if (!live) $('misdeal').hidden = true;
}

function phaseStart() {
  phase('start');
  const banked = st.table.banking === 'player';
  $('banker-entry').hidden = !banked;
  if (banked) {
    const b = st.table.banker || {};
    $('bank-limits').textContent = `bank ${amount(b.min_bank)}\u2013${amount(b.max_bank)}`;
    $('banker-seat').focus();
  } else {
    $('open-round').focus();
  }
}

async function openRound() {
  let body = {};
  if (st.table.banking === 'player') {
    const seat = parseInt($('banker-seat').value, 10), bank = typed($('banker-bank').value);
    const b = st.table.banker || {};
    if (!(seat >= 1 && seat <= st.table.seats)) return error(`Banker's seat: 1 to ${st.table.seats}.`);
    if (!(bank >= b.min_bank && bank <= b.max_bank)) return error(`Bank: ${amount(b.min_bank)} to ${amount(b.max_bank)}.`);
    body = {banker: {seat, bank}};
  }
  const js = await step('open the round', 'POST', `/tables/${st.table.id}/rounds`, body);
  if (js) setRound(js.round);
}

function offered() {
  return WAGERS.filter(([w]) => st.table.limits[w]);
}

function phaseBets() {
  phase('bets');
  const r = st.round, rows = $('bet-rows');
  const wagers = offered();
  rows.replaceChildren(h('div', {class: 'row'}, h('span', {class: 'colhead'}, 'Seat'),
    ...WAGERS.map(([w, name]) => h('span', {class: 'colhead'}, st.table.limits[w]
      ? `${name} ${amount(st.table.limits[w].min)}\u2013${amount(st.table.limits[w].max)}` : '')),
    h('span', {class: 'colhead'}, '')));
  for (let seat = 1; seat <= st.table.seats; seat++) {
    const banker = r.banker && r.banker.seat === seat;
    const bet = r.bets[seat] || {};
    const row = h('div', {class: 'row' + (banker ? ' banker' : ''), dataset: {seat}},
      h('span', {class: 'seat'}, `Seat ${seat}`),
      ...WAGERS.map(([w, name]) => st.table.limits[w] && !banker
        ? h('input', {type: 'text', inputmode: amountMode(), 'aria-label': `Seat ${seat} ${name}`, dataset: {seat, wager: w},
          value: bet[w] ? field(bet[w]) : '', onfocus: ev => { st.lastInput = ev.target; markRow(row); },
          oninput: () => checkRow(row, false), onkeydown: ev => betKey(ev, row)})
        : h('span', {}, banker ? (w === 'ante' ? 'banker' : '') : '')),
      h('span', {class: 'note' + (bet.ante || bet.pair_plus || bet.six_card ? ' done' : ''), dataset: {note: seat}},
        bet.ante || bet.pair_plus || bet.six_card ? 'recorded' : ''));
    rows.append(row);
  }
  $('chips').replaceChildren(...CHIPS.map(c => h('button', {type: 'button', class: 'chip', dataset: {cents: c},
    'aria-label': `add a ${amount(c)} chip`, onmousedown: ev => ev.preventDefault(), onclick: () => addChip(c)}, amount(c))));
  void wagers;
  firstBetInput()?.focus();
}

function firstBetInput() {
  return $('bet-rows').querySelector('input');
}

function markRow(row) {
  for (const r of $('phase-bets').querySelectorAll('.row.current')) r.classList.remove('current');
  row.classList.add('current');
}

function addChip(c) {
  const input = st.lastInput && st.lastInput.isConnected ? st.lastInput : firstBetInput();
  if (!input) return;
  const now = typed(input.value) || 0;
  input.value = field(now + c);
  checkRow(input.closest('.row'), false);
  input.focus();
}

/** The row's amounts checked against the table's limits; the bet, or null with the row marked. */
function checkRow(row, final) {
  const seat = Number(row.dataset.seat), bet = {};
  const note = row.querySelector('.note');
  let problem = '';
  for (const input of row.querySelectorAll('input')) {
    const w = input.dataset.wager, v = typed(input.value), lim = st.table.limits[w];
    input.classList.remove('bad');
    if (v === null || v === 0) continue;
    if (Number.isNaN(v)) problem = problem || `${WAGER_NAMES[w]}: "${input.value}" is not an amount`;
    else if (v < lim.min) problem = problem || `${WAGER_NAMES[w]} ${amount(v)} is below the minimum ${amount(lim.min)}`;
    else if (v > lim.max) problem = problem || `${WAGER_NAMES[w]} ${amount(v)} is over the maximum ${amount(lim.max)}`;
    else { bet[w] = v; continue; }
    input.classList.add('bad');
  }
  const needsAnte = st.round.rules ? st.round.rules.pair_plus_requires_ante !== false : true;
  if (!problem && !bet.ante && bet.six_card) problem = 'the 6-Card Bonus needs an Ante';
  if (!problem && !bet.ante && bet.pair_plus && needsAnte) problem = 'Pair Plus needs an Ante at this table';
  note.className = 'note' + (problem ? ' bad' : '');
  note.textContent = problem || (final ? '' : note.textContent === 'recorded' ? 'changed: Enter records it' : note.textContent);
  return problem ? null : {seat, bet};
}

async function betKey(ev, row) {
  if (ev.key !== 'Enter') return;
  ev.preventDefault();
  const checked = checkRow(row, true);
  if (!checked) return;
  const {seat, bet} = checked;
  const had = st.round.bets[seat];
  let js = null;
  if (Object.keys(bet).length) {
    js = await step(`seat ${seat}'s bet`, 'PUT', `/rounds/${st.round.id}/bets/${seat}`, bet);
  } else if (had) {
    js = await step(`seat ${seat}'s bet taken down`, 'DELETE', `/rounds/${st.round.id}/bets/${seat}`);
  } else {
    js = {round: st.round};
  }
  if (!js) return;
  st.round = js.round;
  const note = row.querySelector('.note');
  note.className = 'note done';
  note.textContent = Object.keys(bet).length ? 'recorded' : '';
  // on to the next seat's first wager, or to "No more bets" after the last
  let next = row.nextElementSibling;
  while (next && !next.querySelector('input')) next = next.nextElementSibling;
  (next ? next.querySelector('input') : $('close-bets')).focus();
}

async function closeBets() {
  // a seat typed but not recorded must not be left behind
  for (const row of $('bet-rows').querySelectorAll('.row[data-seat]')) {
    const checked = checkRow(row, true);
    if (!checked) return error(`Seat ${row.dataset.seat}: fix the bet first.`);
    const same = ['ante', 'pair_plus', 'six_card'].every(w => (checked.bet[w] || 0) === ((st.round.bets[checked.seat] || {})[w] || 0));
    if (!same) return error(`Seat ${checked.seat}: the bet typed is not recorded yet; press Enter in its row.`);
  }
  const js = await step('no more bets', 'POST', `/rounds/${st.round.id}/close`);
  if (js) setRound(js.round);
}

// ---- cards ----

function betSeats() {
  return Object.keys(st.round.bets).map(Number).sort((a, b) => a - b);
}

/** forDealer: the dealer's cards at reveal; else each seat's. */
function phaseCards(forDealer) {
  phase('cards');
  st.cardsForDealer = forDealer;
  $('cards-title').firstChild.textContent = forDealer ? "The dealer's cards " : 'Each seat\u2019s three cards ';
  $('cards-go').textContent = forDealer ? 'Reveal (Enter)' : 'Record the deal (Enter)';
  const who = forDealer ? ['dealer'] : betSeats();
  $('hand-rows').replaceChildren(...who.map(w => {
    const input = h('input', {type: 'text', autocomplete: 'off', spellcheck: 'false', autocapitalize: 'off',
      'aria-label': w === 'dealer' ? "Dealer's cards" : `Seat ${w} cards`, dataset: {hand: w},
      oninput: () => handInput(input), onfocus: () => { st.lastHand = input; }, onkeydown: ev => {
        if (ev.key === 'Enter') { ev.preventDefault(); sendCards(); }
      }});
    return h('div', {class: 'row hand', dataset: {hand: w}}, h('span', {class: 'seat'}, w === 'dealer' ? 'Dealer' : `Seat ${w}`),
      input, h('span', {class: 'note', dataset: {note: w}}));
  }));
  drawGrid();
  st.lastHand = $('hand-rows').querySelector('input');
  st.lastHand.focus();
}

/** Every card typed in the other hands, and the seats' cards when the dealer's are entered. */
function cardsElsewhere(input) {
  const used = new Map();
  if (st.cardsForDealer) {
    for (const [seat, hand] of Object.entries(st.round.hands || {})) for (const c of hand.cards) used.set(c, `seat ${seat}`);
  }
  for (const other of $('hand-rows').querySelectorAll('input')) {
    if (other === input) continue;
    for (const c of parseCards(other.value).cards) used.set(c, other.dataset.hand === 'dealer' ? 'the dealer' : `seat ${other.dataset.hand}`);
  }
  return used;
}

/** Checks a hand as it is typed: unknown cards and duplicates are refused at once. */
function handInput(input) {
  const p = parseCards(input.value);
  const note = input.parentElement.querySelector('.note');
  let problem = p.error;
  const used = cardsElsewhere(input);
  const seen = new Set();
  for (const c of p.cards) {
    if (seen.has(c)) problem = problem || `${cardLabel(c)} is typed twice`;
    else if (used.has(c)) problem = problem || `${cardLabel(c)} is already ${used.get(c) === 'the dealer' ? "the dealer's" : `at ${used.get(c)}`}`;
    seen.add(c);
  }
  if (!problem && p.cards.length > 3) problem = 'three cards only';
  input.classList.toggle('bad', !!problem);
  input.classList.toggle('done', !problem && p.cards.length === 3 && !p.partial);
  note.className = 'note' + (problem ? ' bad' : p.cards.length === 3 ? ' done' : '');
  note.replaceChildren(...(problem ? [problem] : p.cards.map(c => h('span', {class: 'face' + (isRed(c) ? ' red' : '')}, cardLabel(c)))));
  drawGrid();
  if (!problem && p.cards.length === 3 && !p.partial) {
    // the next hand still to type, or the button
    const inputs = [...$('hand-rows').querySelectorAll('input')];
    const next = inputs.slice(inputs.indexOf(input) + 1).find(i => parseCards(i.value).cards.length < 3);
    (next || $('cards-go')).focus();
  }
  return !problem;
}

function drawGrid() {
  const used = cardsElsewhere(null);
  const grid = $('card-grid');
  grid.replaceChildren();
  for (const s of SUITS) {
    for (const r of [...RANKS].reverse()) {
      const c = r + s;
      grid.append(h('button', {type: 'button', class: isRed(c) ? 'red' : '', dataset: {card: c}, disabled: used.has(c),
        'aria-label': cardLabel(c), onmousedown: ev => ev.preventDefault(), onclick: () => tapCard(c)}, cardLabel(c)));
    }
  }
}

function tapCard(c) {
  const inputs = [...$('hand-rows').querySelectorAll('input')];
  let input = st.lastHand && st.lastHand.isConnected && parseCards(st.lastHand.value).cards.length < 3 ? st.lastHand
    : inputs.find(i => parseCards(i.value).cards.length < 3);
  if (!input) return;
  const p = parseCards(input.value);
  input.value = [...p.cards, c].join(' ');
  st.lastHand = input;
  handInput(input);
  if (document.activeElement === document.body) input.focus();
}

async function sendCards() {
  const hands = {};
  for (const input of $('hand-rows').querySelectorAll('input')) {
    const p = parseCards(input.value);
    if (!handInput(input) || p.cards.length !== 3 || p.partial) {
      input.focus();
      return error(`${input.getAttribute('aria-label')}: three cards, e.g. "As Kd 10h".`);
    }
    hands[input.dataset.hand] = p.cards;
  }
  const js = st.cardsForDealer
    ? await step("the dealer's cards (reveal)", 'POST', `/rounds/${st.round.id}/reveal`, {dealer: hands.dealer})
    : await step('the deal', 'POST', `/rounds/${st.round.id}/deal`, {hands});
  if (js) setRound(js.round);
}

// ---- play or fold ----

function anteSeats() {
  return betSeats().filter(s => st.round.bets[s].ante > 0);
}

function phaseDecisions() {
  phase('decisions');
  const seats = anteSeats();
  const next = seats.find(s => !st.round.decisions[s]);
  st.decideSeat = next;
  $('decision-rows').replaceChildren(...seats.map(seat => {
    const d = st.round.decisions[seat];
    const cards = (st.round.hands[seat] || {}).cards || [];
    return h('div', {class: 'row decide' + (seat === next ? ' current' : ''), dataset: {seat}},
      h('span', {class: 'seat'}, `Seat ${seat}`),
      h('span', {}, ...cards.map(c => h('span', {class: 'face' + (isRed(c) ? ' red' : '')}, cardLabel(c)))),
      h('button', {type: 'button', class: d === 'play' ? 'chosen' : '', disabled: !!d || seat !== next, dataset: {action: 'play'},
        onclick: () => decide(seat, 'play')}, 'Play (P)'),
      h('button', {type: 'button', class: d === 'fold' ? 'chosen' : '', disabled: !!d || seat !== next, dataset: {action: 'fold'},
        onclick: () => decide(seat, 'fold')}, 'Fold (F)'),
      h('span', {class: 'note' + (d ? ' done' : '')}, d ? `${d}: recorded` : seat === next ? 'deciding now' : ''));
  }));
  $('decision-rows').querySelector('.current button')?.focus();
}

async function decide(seat, action) {
  if (seat !== st.decideSeat) return;
  const js = await step(`seat ${seat} ${action}s`, 'POST', `/rounds/${st.round.id}/decisions`, {seat, action});
  if (js) setRound(js.round);
}

// ---- settle and the payouts ----

function phaseSettle() {
  phase('settle');
  $('settle-go').focus();
}

async function settle() {
  const js = await step('settle', 'POST', `/rounds/${st.round.id}/settle`);
  if (js) setRound(js.round);
}

/** What the dealer does for a line: pay, take, or nothing, and how much. */
function lineAction(p) {
  if (p.result === 'returned') return {kind: 'return', text: `RETURN the ${amount(p.stake)} bet (no action)`};
  if (p.net > 0) return {kind: 'pay', text: `PAY ${amount(p.net)}` + (p.short ? ` (bank short ${amount(p.short)})` : '')};
  if (p.net < 0) return {kind: 'take', text: `TAKE ${amount(-p.net)}`};
  return {kind: 'push', text: p.result === 'push' ? 'push: leave it' : '\u2014'};
}

function phasePayouts() {
  phase('payouts');
  const r = st.round;
  const box = $('payouts');
  $('round-label').textContent = `round ${r.round_no} \u00b7 ${r.state}`;
  if (r.state === 'void') {
    box.replaceChildren(h('p', {class: 'bank-summary', id: 'void-note'},
      `Round ${r.round_no} is void (${r.void_reason}): return every wager as it lies.`));
  } else {
    const banked = !!r.banker;
    const rows = [];
    let seat = null, seatNet = 0;
    const flush = () => {
      if (seat !== null) rows.push(h('tr', {class: 'seat-total'}, h('td', {}, `Seat ${seat}`), h('td', {colspan: banked ? 4 : 3},
        seatNet > 0 ? `pays ${amount(seatNet)} in all` : seatNet < 0 ? `takes ${amount(-seatNet)} in all` : 'even'), h('td', {})));
    };
    for (const p of r.payouts) {
      if (p.seat !== seat) { flush(); seat = p.seat; seatNet = 0; }
      seatNet += p.net;
      const a = lineAction(p);
      rows.push(h('tr', {class: a.kind, dataset: {seq: p.seq, seat: p.seat, wager: p.wager, net: p.net, result: p.result}},
        h('td', {}, `Seat ${p.seat}`), h('td', {}, WAGER_NAMES[p.wager] || p.wager), h('td', {}, amount(p.stake)),
        h('td', {}, p.result), banked ? h('td', {}, p.bank_after !== undefined ? `bank ${amount(p.bank_after)}` : '') : null,
        h('td', {class: 'amount'}, a.text)));
    }
    flush();
    const head = h('tr', {}, ...['Seat', 'Wager', 'Stake', 'Result', ...(banked ? ['Bank after'] : []), 'Do'].map(t => h('th', {}, t)));
    box.replaceChildren(h('table', {class: 'pay'}, h('thead', {}, head), h('tbody', {}, rows)));
    if (banked) {
      const returned = r.payouts.filter(p => p.result === 'returned');
      box.append(h('p', {class: 'bank-summary', id: 'bank-summary'},
        `Banker (seat ${r.banker.seat}): bank ${amount(r.banker.bank)} \u2192 ${amount(r.banker.bank_end)}` +
        (returned.length ? `; the bank ran out: ${returned.length} wager(s) returned (${amount(returned.reduce((a, p) => a + p.stake, 0))})` : '')));
    }
  }
  $('next-round').focus();
}

// ---- misdeal ----

function openMisdeal() {
  if (!st.round || ['settled', 'void'].includes(st.round.state) || api.pendingStepNow()) return;
  $('misdeal').hidden = false;
  $('misdeal-witness').hidden = !['dealt', 'revealed'].includes(st.round.state);
  $('misdeal-reason').focus();
}

async function misdeal() {
  const reason = $('misdeal-reason').value.trim();
  if (!reason) return error('Misdeal: say why (e.g. "exposed card").');
  const body = {reason};
  if (!$('misdeal-witness').hidden) {
    body.witness = {person: $('witness-person').value.trim(), password: $('witness-password').value};
    if (!body.witness.person || !body.witness.password) return error('Misdeal: the witness signs with their id and password.');
  }
  const js = await step('misdeal (void)', 'POST', `/rounds/${st.round.id}/void`, body);
  $('witness-password').value = '';
  if (!js) return;
  $('misdeal').hidden = true;
  $('misdeal-reason').value = '';
  setRound(js.round);
}

// ---- keys ----

function onKey(ev) {
  if ($('deal').hidden) return;
  if (ev.altKey && (ev.key === 'm' || ev.key === 'M')) { ev.preventDefault(); return openMisdeal(); }
  if (api.pendingStepNow()) { ev.preventDefault(); return; }
  if (ev.target.closest && ev.target.closest('#misdeal')) {
    if (ev.key === 'Enter' && ev.target.tagName === 'INPUT') { ev.preventDefault(); misdeal(); }
    if (ev.key === 'Escape') $('misdeal').hidden = true;
    return;
  }
  if (st.phase === 'decisions' && st.decideSeat && !ev.ctrlKey && !ev.metaKey) {
    const k = ev.key.toLowerCase();
    if (k === 'p' || k === 'f') { ev.preventDefault(); decide(st.decideSeat, k === 'p' ? 'play' : 'fold'); }
  }
}

function wire() {
  $('signin-form').addEventListener('submit', signIn);
  $('open-round').addEventListener('click', openRound);
  for (const id of ['banker-seat', 'banker-bank']) {
    $(id).addEventListener('keydown', ev => {
      if (ev.key !== 'Enter') return;
      ev.preventDefault();
      if (id === 'banker-seat') $('banker-bank').focus(); else openRound();
    });
  }
  $('close-bets').addEventListener('click', closeBets);
  $('cards-go').addEventListener('click', sendCards);
  $('settle-go').addEventListener('click', settle);
  $('next-round').addEventListener('click', () => { st.round = null; $('round-label').textContent = ''; phaseStart(); });
  $('misdeal-open').addEventListener('click', openMisdeal);
  $('misdeal-go').addEventListener('click', misdeal);
  $('misdeal-cancel').addEventListener('click', () => { $('misdeal').hidden = true; });
  document.onkeydown = onKey;
}

wire();
show('signin');
$('person').focus();
