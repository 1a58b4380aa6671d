// dealer.js - the dealer's page: sign in, choose the table, then record each
// round as it happens through the step-by-step API, and be told what to pay.
// docs/dealer.md describes it; tests/browser/dealer.test.mjs drives it.
// The requests, money, cards and the element builder are the pit boss page's
// modules (web/js/): api.js sends the steps, each recorded once.  The token
// is kept in sessionStorage as the pit boss page keeps it, and beside it who
// signed in and the table chosen, so that a reload goes on where it was.
import * as api from '../js/api.js';
import {h} from '../js/dom.js';
import {refusalText as sharedRefusalText} from '../js/refusals.js';
import {currencySymbol, minorDigits, money, parseAmount, toMajor} from '../js/format.js';
import {RANKS, SUITS, cardLabel, isRed, parseCards} from '../js/cards.js';
import {bonusUnpaid, returnedWagers, roundLabel, seatFee} from '../js/rounds.js';

const WAGERS = [['ante', 'Ante'], ['pair_plus', 'Pair Plus'], ['six_card', '6-Card']];
const WAGER_NAMES = {ante: 'Ante', play: 'Play', pair_plus: 'Pair Plus', six_card: '6-Card Bonus', ante_bonus: 'Ante Bonus'};
// the chips when the daemon names none (GET /tables' property.chips): minor units of the table's currency
const CHIPS = [100, 500, 2500, 10000, 50000, 100000, 500000];
const STATE_WORDS = {betting: 'bets', closed: 'no more bets', dealt: 'dealt', revealed: 'revealed',
  settled: 'settled', void: 'void'};
// What the page keeps in sessionStorage beside the token: {person: {id, name, roles}, table: ID|null}.
const SAVED_KEY = 'pitboss.dealer';

const $ = id => document.getElementById(id);
const st = {person: null, table: null, round: null, phase: '', lastInput: null, handFocus: 0, decideSeat: 0, seats: {}};

// The table's currency (GET /tables gives each table's): amounts are its minor units.
const currency = () => st.table?.currency || 'USD';
/** An amount of the table's currency as the dealer reads it: "$25", "$25.50", "¥500". */
const amount = minor => money(minor, currency(), {stripIfWhole: true});
/** A typed amount ("25", "$1,000") in minor units; null when blank, NaN when not an amount. */
const typed = text => parseAmount(text, currency());
/** Minor units as the amount typed in a field ("25.5"). */
const field = minor => String(toMajor(minor, currency()));
const amountMode = () => (minorDigits(currency()) ? 'decimal' : 'numeric');

api.setUnauthorizedHandler(() => signOut('Your session ended: sign in again.'));

function show(screen) {
  for (const id of ['signin', 'pick', 'deal']) $(id).hidden = id !== screen;
}

/** Shows what to fix; a new message clears the line of the last step recorded or refused (not one still unanswered). */
function error(text) {
  $('error').textContent = text || '';
  const status = $('status');
  if (text && ['ok', 'refused'].includes(status.dataset.kind)) {
    status.replaceChildren();
    status.className = 'status';
    status.dataset.kind = '';
  }
}

// Sentences for the refusals a dealer meets, by the API's error code; any other refusal reads as the
// daemon's message. (The pit boss page's table, web/js/refusals.js, is to replace this one.)
const REFUSALS = {
  invalid_body: 'The page sent something the server could not read: reload the page and try again.',
  malformed_json: 'The page sent something the server could not read: reload the page and try again.',
  unknown_field: 'The page sent something the server could not read: reload the page and try again.',
  unauthorized: 'Unknown employee id or wrong password: check both and sign in again.',
  session_expired: 'Your session ended: sign in again.',
  forbidden: 'Your sign-in may not do this: ask the floor supervisor.',
  person_required: 'Sign in with your own employee id to do this.',
  not_a_dealer: 'You do not hold the dealer role: ask the floor supervisor.',
  table_closed: 'This table is closed: ask the floor supervisor to open it, or choose another table.',
  table_not_found: 'This table is not on the floor any more: choose another table.',
  round_in_progress: 'A round is still open at this table: reload the page to go on with it.',
  round_not_found: 'This round is not on record: reload the page.',
  no_bets: 'No seat has a bet: record at least one bet before "No more bets".',
  bet_not_found: 'This seat has no bet to take down.',
  wager_not_offered: 'This table does not offer that wager: take it off the seat.',
  play_must_equal_ante: 'The Play wager must equal the Ante.',
  banker_seat_bet: 'The banker\u2019s seat cannot bet: clear its amounts.',
  banker_required: 'This table is player-banked: give the banker\u2019s seat and bank.',
  banker_not_allowed: 'This table is house-banked: it takes no banker.',
  invalid_banker_seat: 'The banker\u2019s seat is not a seat of this table: choose another.',
  duplicate_card: 'A card is entered twice: check the hands and enter each card once.',
  missing_cards: 'Each hand needs its three cards: complete the hands.',
  cards_for_empty_seat: 'Cards were entered for a seat with no bet: clear that hand.',
  decision_without_ante: 'Only a seat with an Ante plays or folds.',
  already_decided: 'This seat has decided already: reload the page to see the round as recorded.',
  decisions_pending: 'A seat has not played or folded yet: record its decision first.',
  dealer_cards_missing: 'Enter the dealer\u2019s three cards first.',
  dealer_already_dealt: 'The dealer\u2019s cards are recorded already: reload the page.',
  event_out_of_order: 'The round has moved on since this page last read it: reload the page.',
  witness_required: 'After the deal a floor supervisor or pit boss must sign: give the witness id and password.',
  witness_refused: 'The witness\u2019s id or password is wrong, or the witness may not sign this: check and try again.',
  witness_same_person: 'The witness must be someone else: ask a floor supervisor or pit boss.',
  invalid_witness: 'Give the witness\u2019s employee id and password.',
  reason_required: 'Say why: give a reason.',
  invalid_text: 'The text typed has characters that cannot be kept: type it again in plain letters.',
  invalid_idempotency_key: 'The page sent a step the server could not read: reload the page.',
};

/**
 * A refusal (ApiError) as a sentence that says what to do: the dealer's own sentence of its code above
 * (said as a dealer at the table needs it), else the pit boss page's (web/js/refusals.js), which falls
 * back to the daemon's message tidied. Never a code in parentheses, never a JSON body.
 */
function refusalText(e) {
  if (e && e.code && REFUSALS[e.code] && !e.unreachable) return REFUSALS[e.code];
  return sharedRefusalText(e);
}

// ---- who signed in and where, kept over a reload ----

function saved() {
  try { return JSON.parse(sessionStorage.getItem(SAVED_KEY) || 'null'); } catch { return null; }
}

function save() {
  try {
    sessionStorage.setItem(SAVED_KEY, JSON.stringify({person: st.person, table: st.table ? st.table.id : null}));
  } catch { /* storage unavailable: a reload signs in again */ }
}

function forget() {
  try { sessionStorage.removeItem(SAVED_KEY); } catch { /* storage unavailable */ }
}

// ---- the status line: what is recorded, what is not ----

api.setStepStatusHandler(s => {
  const el = $('status');
  el.className = 'status ' + s.kind;
  el.replaceChildren();
  $('work').disabled = s.kind === 'pending' || s.kind === 'unrecorded';
  for (const id of ['misdeal-open', 'change-table', 'signout']) $(id).disabled = $('work').disabled;
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
      if (e.status !== 401) error(`${label.charAt(0).toUpperCase() + label.slice(1)}: ${refusalText(e)}`);
      return null;
    }
    throw e;
  }
}

// ---- sign-in and the table ----

/** Back to the sign-in form, the token and what was kept beside it forgotten. */
function signOut(message) {
  api.clearToken();
  forget();
  st.person = null;
  st.table = null;
  st.round = null;
  document.onkeydown = onKey;
  show('signin');
  $('signin-message').textContent = message || '';
  $('person').focus();
}

/** Whether the round at the table is under way (not finished): the dealer stays with it. */
function roundLive() {
  return !!st.round && !['settled', 'void'].includes(st.round.state);
}

/** Takes the dealer off the table he leaves (best effort: the next dealer sets himself anyway). */
async function leaveTable() {
  if (!st.table || roundLive()) return;
  try { await api.send('PUT', `/tables/${st.table.id}/dealer`, {person: null}); } catch { /* left as it was */ }
}

/** "Sign out": ends the session (DELETE /sessions/current) and goes back to the sign-in form. */
async function signOutNow() {
  if (api.pendingStepNow()) return;
  await leaveTable();
  await api.closeSession(api.getToken());
  signOut('Signed out.');
}

/** "Change table": back to the list of tables, unless a round is under way here. */
async function changeTable() {
  if (api.pendingStepNow()) return;
  if (roundLive()) {
    return error(`Round ${roundLabel(st.round)} is under way: finish it, or void it as a misdeal, before changing table.`);
  }
  error('');
  await leaveTable();
  st.table = null;
  st.round = null;
  save();
  await pickTable();
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
      $('signin-message').textContent = `${js.person.id} does not hold the dealer role: ask the floor supervisor.`;
      return;
    }
    api.setToken(js.token);
    st.person = {id: js.person.id, name: js.person.name, roles: js.person.roles};
    save();
    await pickTable();
  } catch (e) {
    if (!(e instanceof api.ApiError)) throw e;
    $('signin-message').textContent = e.status === 429 ? `Locked out: ${refusalText(e)}` : refusalText(e);
  }
}

async function pickTable(message = '') {
  show('pick');
  $('pick-who').textContent = `${st.person.name} (${st.person.id})`;
  $('pick-message').textContent = message;
  let open;
  try {
    open = (await api.loadTables()).filter(t => t.status === 'open');
  } catch (e) {
    if (e instanceof api.ApiError && e.status !== 401) $('pick-message').textContent = refusalText(e);
    return;
  }
  const list = $('pick-tables');
  list.replaceChildren(...open.map((t, i) => h('button', {type: 'button', dataset: {table: t.id},
    onclick: () => chooseTable(t)}, `${i + 1}. ${t.name} (${t.id}) \u2014 ${gameName(t)}, ${t.seats} seats`)));
  if (!open.length) $('pick-message').textContent = 'No table is open: ask the floor supervisor.';
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
    if (e instanceof api.ApiError && e.status !== 401) $('pick-message').textContent = refusalText(e);
    return;
  }
  document.onkeydown = onKey;
  st.table = t;
  save();
  show('deal');
  error('');
  $('status').replaceChildren();
  $('status').className = 'status';
  $('status').dataset.kind = '';
  $('banker-bank-label').textContent = `Bank (${currencySymbol(currency())})`;
  $('banker-bank').inputMode = amountMode();
  $('bets-hint').textContent = `tap a box and the chips, or type amounts in ${currencySymbol(currency())}; ` +
    'Record (or Enter) records the seat';
  $('table-name').textContent = `${t.name} (${t.id})`;
  $('table-game').textContent = `${gameName(t)} \u00b7 ${t.banking === 'player' ? 'player-banked' : 'house-banked'}`;
  $('table-limits').textContent = WAGERS.filter(([w]) => t.limits[w])
    .map(([w, name]) => `${name} ${amount(t.limits[w].min)}\u2013${amount(t.limits[w].max)}`).join(' \u00b7 ');
  $('dealer-name').textContent = `dealer ${st.person.name} (${st.person.id})`;
  st.round = null;
  st.seats = {};
  await loadSeats();
  if (t.current_round) {
    try {
      const js = await api.get(`/rounds/${t.current_round.id ?? t.current_round}`);
      setRound(js.round);
    } catch (e) {
      if (e instanceof api.ApiError && e.status !== 401) error(`The open round: ${refusalText(e)}`);
    }
  } else {
    phaseStart();
  }
}

/** Who sits at each seat now (GET /tables/{t}/seats): st.seats {seat: "Ana L."}; left as it was when unreadable. */
async function loadSeats() {
  try {
    const js = await api.get(`/tables/${st.table.id}/seats`);
    st.seats = {};
    for (const s of js.seats || []) {
      if (s.player) st.seats[s.seat] = s.player.display || s.player.name || s.player.card || `player ${s.player.id}`;
    }
  } catch (e) {
    if (!(e instanceof api.ApiError)) throw e;
  }
}

/** "Seat 3" with the player seated there beneath, as the seat's label in every list. */
function seatLabel(seat, extra) {
  const who = st.seats[seat];
  return h('span', {class: 'seat'}, `Seat ${seat}`, extra || null,
    who ? h('span', {class: 'player', dataset: {player: seat}}, who) : null);
}

/** After a reload: signed in again from the kept token, at the table kept, in its open round. */
async function resume() {
  const was = saved();
  if (!api.getToken() || !was || !was.person) {
    // (a token without a dealer kept beside it is the pit boss page's, in this tab: left to it)
    forget();
    show('signin');
    $('person').focus();
    return;
  }
  st.person = was.person;
  if (!was.table) return pickTable();
  let tables;
  try {
    tables = await api.loadTables();
  } catch (e) {
    if (e instanceof api.ApiError && e.status !== 401) return pickTable(refusalText(e));
    return;
  }
  const t = tables.find(x => x.id === was.table);
  if (!t || t.status !== 'open') return pickTable(`Table ${was.table} is not open now: choose a table.`);
  if (t.dealer && t.dealer.id !== st.person.id) {
    return pickTable(`${t.dealer.name} deals at ${t.id} now: choose a table.`);
  }
  await chooseTable(t);
}

// ---- the round's phases ----

function setRound(r) {
  st.round = r;
  $('round-label').textContent = r ? `${roundLabel(r)} \u00b7 ${STATE_WORDS[r.state] || r.state}` : '';
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
  const seated = Object.keys(st.seats).map(Number).sort((a, b) => a - b);
  $('seated').replaceChildren(...(seated.length ? ['Seated: ', ...seated.map((s, i) =>
    h('span', {dataset: {player: s}}, `${i ? ', ' : ''}seat ${s} ${st.seats[s]}`))] : ['No player is seated.']));
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
  if (!js) return;
  await loadSeats();
  setRound(js.round);
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
    h('span', {class: 'colhead'}, ''), h('span', {class: 'colhead'}, '')));
  for (let seat = 1; seat <= st.table.seats; seat++) {
    const banker = r.banker && r.banker.seat === seat;
    const bet = r.bets[seat] || {};
    const row = h('div', {class: 'row' + (banker ? ' banker' : ''), dataset: {seat}},
      seatLabel(seat),
      ...WAGERS.map(([w, name]) => st.table.limits[w] && !banker
        ? h('input', {type: 'text', inputmode: amountMode(), 'aria-label': `Seat ${seat} ${name}`, dataset: {seat, wager: w},
          value: bet[w] ? field(bet[w]) : '', onfocus: ev => { st.lastInput = ev.target; markRow(row); },
          oninput: () => checkRow(row, false), onkeydown: ev => betKey(ev, row)})
        : h('span', {}, banker ? (w === 'ante' ? 'banker' : '') : '')),
      banker ? h('span', {}) : h('button', {type: 'button', class: 'record', dataset: {record: seat},
        'aria-label': `Record seat ${seat}`, onmousedown: ev => ev.preventDefault(), onclick: () => recordRow(row)},
      'Record'),
      h('span', {class: 'note' + (bet.ante || bet.pair_plus || bet.six_card ? ' done' : ''), dataset: {note: seat}},
        bet.ante || bet.pair_plus || bet.six_card ? 'recorded' : ''));
    rows.append(row);
  }
  const chips = (api.property()?.chips || []).length ? api.property().chips : CHIPS;
  $('chips').replaceChildren(...chips.map(c => h('button', {type: 'button', class: 'chip', dataset: {cents: c},
    'aria-label': `add a ${amount(c)} chip`, onmousedown: ev => ev.preventDefault(), onclick: () => addChip(c)},
  chipLabel(c))),
  h('button', {type: 'button', class: 'clear', id: 'chip-clear', onmousedown: ev => ev.preventDefault(),
    onclick: clearWager}, 'Clear the box'));
  void wagers;
  firstBetInput()?.focus();
}

/** A chip's face: "$5", "$100", "$1K", "$5K" (thousands and millions shortened when whole), "¥2,500". */
function chipLabel(minor) {
  const major = toMajor(minor, currency());
  for (const [size, suffix] of [[1e6, 'M'], [1e3, 'K']]) {
    if (major >= size && major % size === 0) return `${currencySymbol(currency())}${major / size}${suffix}`;
  }
  return amount(minor);
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
  const row = input.closest('.row');
  checkRow(row, false);
  markRow(row);
  if (document.activeElement !== input && !matchMedia('(pointer: coarse)').matches) input.focus();
}

/** "Clear the box": empties the wager being entered (a wrong chip tapped). */
function clearWager() {
  const input = st.lastInput && st.lastInput.isConnected ? st.lastInput : null;
  if (!input) return;
  input.value = '';
  checkRow(input.closest('.row'), false);
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
  const wasBad = note.classList.contains('bad');
  note.className = 'note' + (problem ? ' bad' : '');
  const kept = note.textContent === 'recorded' ? 'changed: Record it' : note.textContent;
  note.textContent = problem || (final || wasBad ? '' : kept);
  // the row put right: its message goes too
  if (!problem && wasBad && $('error').textContent.startsWith(`Seat ${seat}:`)) error('');
  return problem ? null : {seat, bet};
}

async function betKey(ev, row) {
  if (ev.key !== 'Enter') return;
  ev.preventDefault();
  if (await recordRow(row)) {
    // on to the next seat's first wager, or to "No more bets" after the last
    let next = row.nextElementSibling;
    while (next && !next.querySelector('input')) next = next.nextElementSibling;
    (next ? next.querySelector('input') : $('close-bets')).focus();
  }
}

/** Whether the row's amounts differ from the seat's bet as recorded. */
function rowChanged(checked) {
  const had = st.round.bets[checked.seat] || {};
  return !['ante', 'pair_plus', 'six_card'].every(w => (checked.bet[w] || 0) === (had[w] || 0));
}

/** Records the seat's row (its "Record" button, Enter in it): the bet, or its taking down; resolves whether recorded. */
async function recordRow(row) {
  const checked = checkRow(row, true);
  if (!checked) {
    error(`Seat ${row.dataset.seat}: ${row.querySelector('.note').textContent}.`);
    return false;
  }
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
  if (!js) return false;
  st.round = js.round;
  const note = row.querySelector('.note');
  note.className = 'note done';
  note.textContent = Object.keys(bet).length ? 'recorded' : '';
  return true;
}

/** "No more bets": first records every row typed or chipped but not recorded yet, then closes betting. */
async function closeBets() {
  for (const row of $('bet-rows').querySelectorAll('.row[data-seat]')) {
    if (!row.querySelector('input')) continue;
    const checked = checkRow(row, true);
    if (!checked) return error(`Seat ${row.dataset.seat}: ${row.querySelector('.note').textContent}; fix the bet first.`);
    if (rowChanged(checked) && !await recordRow(row)) return;
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
      seatLabel(seat),
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

/** Whether the line is a dealer's action: an Ante Bonus the bank could not pay is no bet to return. */
function shownLine(p) {
  return !bonusUnpaid(p);
}

function phasePayouts() {
  phase('payouts');
  const r = st.round;
  const box = $('payouts');
  $('round-label').textContent = `${roundLabel(r)} \u00b7 ${STATE_WORDS[r.state] || r.state}`;
  if (r.state === 'void') {
    box.replaceChildren(h('p', {class: 'bank-summary', id: 'void-note'},
      `Round ${roundLabel(r)} is void (${r.void_reason}): return every wager as it lies.`));
  } else {
    const banked = !!r.banker;
    const cols = banked ? 6 : 5;
    const rows = [];
    const seatRows = (seat, lines) => {
      let net = 0;
      for (const [i, p] of lines.entries()) {
        net += p.net;
        const a = lineAction(p);
        rows.push(h('tr', {class: a.kind, dataset: {seq: p.seq, seat: p.seat, wager: p.wager, net: p.net, result: p.result}},
          h('td', {}, i ? h('span', {class: 'seat'}, `Seat ${p.seat}`) : seatLabel(p.seat)),
          h('td', {}, WAGER_NAMES[p.wager] || p.wager), h('td', {}, amount(p.stake)), h('td', {}, p.result),
          banked ? h('td', {}, p.bank_after !== undefined ? `bank ${amount(p.bank_after)}` : '') : null,
          h('td', {class: 'amount'}, a.text)));
      }
      const f = seatFee(r, seat);
      const isBanker = banked && r.banker.seat === seat;
      if (f) {
        rows.push(h('tr', {class: 'take fee', dataset: {fee: seat}},
          h('td', {}, seatLabel(seat, isBanker ? ' (banker)' : '')),
          h('td', {colspan: cols - 2}, 'Collection fee (the house\u2019s)'),
          h('td', {class: 'amount'}, `TAKE ${amount(f)}`)));
      }
      if (!lines.length && !f) return;
      const all = net - f;
      rows.push(h('tr', {class: 'seat-total', dataset: {total: seat}}, h('td', {}, `Seat ${seat}`),
        h('td', {colspan: cols - 2},
        (all > 0 ? `pays ${amount(all)} in all` : all < 0 ? `takes ${amount(-all)} in all` : 'even') +
        (f ? ` (the ${amount(f)} fee counted)` : '')), h('td', {})));
    };
    // seats in payout order; a seat that only pays a fee (the banker's) after them
    const order = [];
    for (const p of r.payouts) if (!order.includes(p.seat)) order.push(p.seat);
    const feeSeats = Object.keys(r.collections?.seats || {}).map(Number);
    if (banked) feeSeats.push(r.banker.seat);
    for (const s of feeSeats) if (!order.includes(s)) order.push(s);
    for (const seat of order) seatRows(seat, r.payouts.filter(p => p.seat === seat && shownLine(p)));
    const head = h('tr', {}, ...['Seat', 'Wager', 'Stake', 'Result', ...(banked ? ['Bank after'] : []), 'Do'].map(t => h('th', {}, t)));
    box.replaceChildren(h('table', {class: 'pay'}, h('thead', {}, head), h('tbody', {}, rows)));
    if (banked) {
      const {count: n, total} = returnedWagers(r.payouts);
      box.append(h('p', {class: 'bank-summary', id: 'bank-summary'},
        `Banker (seat ${r.banker.seat}): bank ${amount(r.banker.bank)} \u2192 ${amount(r.banker.bank_end)}` +
        (n ? `; the bank ran out: ${n} wager${n === 1 ? '' : 's'} returned (${amount(total)})` : '')));
      if (r.collections?.total) {
        box.append(h('p', {class: 'bank-summary', id: 'fee-summary'},
          `Collection fees: take ${amount(r.collections.total)} in all for the house, as the lines above say.`));
      }
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
  $('next-round').addEventListener('click', async () => {
    st.round = null;
    $('round-label').textContent = '';
    await loadSeats();
    phaseStart();
  });
  $('misdeal-open').addEventListener('click', openMisdeal);
  $('misdeal-go').addEventListener('click', misdeal);
  $('misdeal-cancel').addEventListener('click', () => { $('misdeal').hidden = true; });
  $('signout').addEventListener('click', signOutNow);
  $('pick-signout').addEventListener('click', signOutNow);
  $('change-table').addEventListener('click', changeTable);
  document.onkeydown = onKey;
}

wire();
resume();
