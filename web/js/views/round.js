// round.js - one round as dealt, named by its label (T1-277): the cards drawn
// as cards per seat and the dealer, bets and decisions, payouts in payout
// order with what the dealer does at each line (on a player-banked table the
// wagers returned and the collection fees taken), totals, the corrections of
// its payouts (and, for a floor supervisor or pit boss, the form to record
// one, with a witness), the event timeline and the verification (replay).
import * as api from '../api.js';
import {h, note, section, dataTable, facts} from '../dom.js';
import {money, moneyCell, label, when, cards, miniCards, int, parseAmount, currencySymbol} from '../format.js';
import {pageHeader, stateBadge, errorNote, formField, witnessFields, refusalNote} from '../common.js';
import {bankerWho, playerLink, roles} from '../players.js';
import {roundLabel, isWager, lineAction, bonusUnpaid, returnedText, returnedWagers, seatFee, feeLines, correctionText}
  from '../rounds.js';

export const name = 'round';

const WAGERS = ['ante', 'play', 'pair_plus', 'six_card'];
const RESULT_ICON = {win: '▲', lose: '▼', push: '＝', forfeit: '✕', returned: '↺'};

function resultBadge(p) {
  if (bonusUnpaid(p)) return h('span', {class: 'result result-unpaid'}, 'Not paid: the bank ran out');
  const r = p.result;
  return h('span', {class: `result result-${r}`}, h('span', {'aria-hidden': 'true'}, `${RESULT_ICON[r] || '•'} `), label(r));
}

function seatNet(round, seat) {
  return round.payouts.filter(p => p.seat === seat).reduce((a, p) => a + p.net, 0);
}

/*
 * The mistake of a decided seat in words (docs/protection.md): "Folded a hand worth $x more played" when folding
 * was the lower of the two exact values given its own cards, the same for a play; null otherwise.
 */
function decisionNote(hand, decision, cur) {
  if (!hand || !hand.decision_ev || !hand.mistake) return null;
  const more = Math.round(Math.abs(hand.decision_ev.play - hand.decision_ev.fold));
  return h('p', {class: 'decision-mistake muted small', 'data-mistake': decision,
    title: `Exact values given the seat's cards: play ${money(Math.round(hand.decision_ev.play), cur)}, ` +
      `fold ${money(Math.round(hand.decision_ev.fold), cur)}`},
  decision === 'fold' ? `Folded a hand worth ${money(more, cur)} more played` : `Played a hand worth ${money(more, cur)} more folded`);
}

function seatBox(round, seat, cur) {
  const bet = round.bets[seat];
  const hand = round.hands[seat];
  const decision = round.decisions[seat];
  const isBanker = round.banker && round.banker.seat === Number(seat);
  const hasPayout = round.payouts.some(p => p.seat === Number(seat));
  const net = seatNet(round, Number(seat));
  return h('article', {class: `seat${isBanker ? ' seat-banker' : ''}${decision === 'fold' ? ' seat-folded' : ''}`, 'data-seat': seat,
    'aria-labelledby': `seat-${seat}-title`},
  h('header', {class: 'seat-head'},
    h('h3', {id: `seat-${seat}-title`}, `Seat ${seat}`),
    isBanker ? h('span', {class: 'badge badge-banker'}, h('span', {'aria-hidden': 'true'}, '♛ '), 'Banker') : null,
    decision ? h('span', {class: `badge decision-${decision}`}, decision === 'play' ? 'Plays' : decision === 'fold' ? 'Folds' : label(decision)) : null),
  hand ? cards(hand.cards, {label: `Seat ${seat} cards`})
    : h('p', {class: 'muted no-cards'}, isBanker ? 'Banks the dealer’s hand' : 'No cards dealt'),
  hand ? h('p', {class: 'hand-name'}, label(hand.hand)) : null,
  decisionNote(hand, decision, cur),
  bet ? h('dl', {class: 'bets'}, WAGERS.filter(w => bet[w]).map(w => h('div', null, h('dt', null, label(w)), h('dd', null, money(bet[w], cur))))) : null,
  isBanker && round.banker ? h('p', {class: 'seat-net'}, 'Bank ', h('span', null, money(round.banker.bank, cur)), ' → ',
    h('span', null, money(round.banker.bank_end, cur))) : null,
  hasPayout ? h('p', {class: 'seat-net'}, 'Net ', moneyCell(net, cur, {signed: true})) : null,
  seatFee(round, seat) ? h('p', {class: 'seat-net seat-fee'}, 'Collection taken ', h('span', null, money(seatFee(round, seat), cur))) : null);
}

/** One event of the timeline in words; the types and bodies are those of docs/audit.md. */
function eventSummary(ev, cur, r) {
  const b = ev.body;
  switch (ev.type) {
    case 'round_opened':
      return [`Round ${roundLabel({table: r.table, round_no: b.round_no})} opened`, b.banker ? ` · banker seat ${b.banker.seat}, bank ${money(b.banker.bank, cur)}` : ''];
    case 'bet_placed':
      return [`Seat ${b.seat}: `, WAGERS.filter(w => b[w]).map(w => `${label(w)} ${money(b[w], cur)}`).join(', ') || 'no wager'];
    case 'bet_removed':
      return [`Seat ${b.seat}: bet taken down`];
    case 'betting_closed':
      return ['No more bets'];
    case 'cards_dealt': {
      const seats = Object.keys(b.hands);
      return [h('span', {class: 'stack-inline'},
        seats.map(s => h('span', {class: 'ev-hand'}, `Seat ${s} `, miniCards(b.hands[s]))),
        b.dealer ? h('span', {class: 'ev-hand'}, 'Dealer ', miniCards(b.dealer)) : null)];
    }
    case 'decision':
      return [`Seat ${b.seat} ${b.action === 'play' ? 'plays' : b.action === 'fold' ? 'folds' : b.action}`];
    case 'dealer_revealed':
      return ['Dealer shows ', miniCards(b.dealer)];
    case 'round_settled':
      return [`Settled: ${b.payouts.length} payout lines; players net ${money(b.players_net, cur, {signed: true})}`,
        b.bank_end !== undefined ? `; bank at the end ${money(b.bank_end, cur)}` : '',
        b.dealer_qualifies !== undefined ? (b.dealer_qualifies ? '; dealer qualifies' : '; dealer does not qualify') : ''];
    case 'round_voided':
      return [`Voided: ${b.reason}`];
    default: {
      const parts = Object.entries(b).filter(([, v]) => v === null || typeof v !== 'object').map(([k, v]) => `${label(k)}: ${v}`);
      return [parts.join(' · ')];
    }
  }
}

/** GET /rounds/{id}/verify: {round, ok, problems: [{table, round, problem}]}. */
function verifyView(v) {
  const problems = v.problems;
  if (v.ok && !problems.length) {
    return note('ok', h('strong', null, 'Verified. '), 'Replayed from its recorded events under the rules in force: every payout recomputes and the integrity chain holds.');
  }
  return note('error', h('strong', null, v.ok ? 'Verified with remarks:' : 'Verification failed:'),
    h('ul', {class: 'problems'}, problems.map(p => h('li', null, p.problem))));
}

export async function render(main, params, ctx) {
  const asked = String(params.round);
  ctx.setTitle(`Round ${asked}`);
  let r;
  try {
    r = (await api.get(`/rounds/${encodeURIComponent(asked)}`)).round;
  } catch (e) {
    if (!ctx.alive()) return;
    main.append(pageHeader(`Round ${asked}`, {crumbs: [['Floor', '#/floor'], [`Round ${asked}`]]}),
      e.status === 404 ? note('warn', `There is no round ${asked}. A round is named by its table and number, as T1-277.`)
        : errorNote(e, 'Round'));
    return;
  }
  if (!ctx.alive()) return;
  const cur = api.currencyOf(r.table);
  const banked = r.banking === 'player';
  const name = roundLabel(r);
  ctx.setTitle(`Round ${name}`);
  main.append(pageHeader(`Round ${name}`, {
    crumbs: [['Floor', '#/floor'], [r.table, `#/table/${encodeURIComponent(r.table)}`], [`Round ${name}`]],
    sub: h('span', {class: 'inline-list'}, stateBadge(r.state),
      ` ${api.tableName(r.table)} · round ${r.round_no} of the table · ${banked ? 'player-banked' : 'house-banked'} · rules “${r.rules.name}”`),
  }));

  if (r.state === 'void') main.append(note('warn', h('strong', null, 'Void round. '), `Every wager was returned. Reason: ${r.void_reason || 'not given'}.`));

  main.append(h('div', {class: 'times'}, facts([
    ['Opened', h('span', null, when(r.opened_at), r.opened_by ? ` by ${r.opened_by}` : '')],
    r.dealer && r.dealer.id ? ['Dealer', `${r.dealer.name} (${r.dealer.id})`] : null,
    ['No more bets', r.closed_at ? when(r.closed_at) : '—'],
    [r.state === 'void' ? 'Voided' : 'Settled', r.settled_at ? when(r.settled_at) : '—'],
    banked && r.banker ? ['Banker', h('span', null, `Seat ${r.banker.seat}`, bankerWho(r.banker) ? ', ' : '', bankerWho(r.banker),
      `: bank ${money(r.banker.bank, cur)} → ${money(r.banker.bank_end, cur)} at the end`)] : null,
    r.players && Object.keys(r.players).length ? ['Players', h('span', {class: 'inline-list'},
      Object.entries(r.players).map(([seat, id], i) => h('span', null, i ? ', ' : '', `seat ${seat}: `, playerLink(id))))] : null,
  ])));

  // The layout: the dealer on top, the seats below in seat order.
  const [feltSec, feltBody] = section('Cards', {id: 'round-cards'});
  // "dealer" holds who dealt (id, name) and, once known, the dealer's hand (cards, hand, qualifies).
  const d = r.dealer && r.dealer.cards ? r.dealer : null;
  const dealerBox = h('article', {class: 'seat dealer', 'aria-labelledby': 'dealer-title'},
    h('header', {class: 'seat-head'}, h('h3', {id: 'dealer-title'}, 'Dealer'),
      d ? h('span', {class: `badge ${d.qualifies ? 'q-yes' : 'q-no'}`}, h('span', {'aria-hidden': 'true'}, d.qualifies ? '✔ ' : '✕ '),
        d.qualifies ? 'Qualifies' : 'Does not qualify') : null),
    d ? cards(d.cards, {label: 'Dealer cards', size: 'lg'}) : h('p', {class: 'muted no-cards'}, 'Not revealed'),
    d ? h('p', {class: 'hand-name'}, label(d.hand)) : null,
    h('p', {class: 'muted small'}, `Qualifies with ${r.rules.dealer_qualifier} high or better`));
  const seatNos = [...new Set([...Object.keys(r.bets), ...Object.keys(r.hands),
    ...(r.banker ? [String(r.banker.seat)] : [])])].map(Number).sort((a, b) => a - b);
  feltBody.append(h('div', {class: 'felt'},
    h('div', {class: 'felt-dealer'}, dealerBox),
    seatNos.length ? h('div', {class: 'seats'}, seatNos.map(s => seatBox(r, String(s), cur))) : h('p', {class: 'muted'}, 'No seat has bet.')));
  main.append(feltSec);

  // Payouts, in payout order.
  const [paySec, payBody] = section('Payouts', {id: 'round-payouts'});
  const pcols = [
    {label: '#', num: true, render: p => int(p.seq), rowHeader: true},
    {label: 'Seat', num: true, render: p => int(p.seat)},
    {label: 'Wager', render: p => label(p.wager)},
    {label: 'Stake', num: true, render: p => isWager(p) ? money(p.stake, cur) : h('span', {class: 'muted'}, 'paid on the Ante')},
    {label: 'Result', render: p => resultBadge(p)},
    {label: 'Player net', num: true, render: p => moneyCell(p.net, cur, {signed: true})},
    {label: 'Dealer', render: p => h('span', {class: `do do-${lineAction(p, x => money(x, cur)).kind}`}, lineAction(p, x => money(x, cur)).text)},
  ];
  if (banked) {
    pcols.push({label: 'Bank after', num: true, render: p => money(p.bank_after, cur)});
    pcols.push({label: 'Short', num: true, render: p => p.short ? h('span', {class: 'short'}, h('span', {'aria-hidden': 'true'}, '⚠ '), money(p.short, cur), ' unpaid') : ''});
  }
  payBody.append(
    banked && r.banker ? h('p', {class: 'muted small'}, `Paid from the seat after the banker’s (seat ${r.banker.seat}), clockwise; the bank starts at ${money(r.banker.bank, cur)}.`)
      : h('p', {class: 'muted small'}, 'In payout order: from the dealer’s left, clockwise.'),
    dataTable(pcols, r.payouts, {caption: 'Payouts in payout order', empty: r.state === 'settled' || r.state === 'void' ? 'No payout lines.' : 'Not settled yet.',
      rowClass: p => p.short ? 'row-short' : null}));
  const returned = returnedWagers(r.payouts);
  if (banked && r.state === 'settled' && returned.count) {
    payBody.append(h('p', {class: 'bank-ran-out', id: 'round-returned'}, h('span', {'aria-hidden': 'true'}, '⚠ '),
      `The bank ran out: ${returnedText(r.payouts, x => money(x, cur))}, each left as it lies.`));
  }
  const fees = feeLines(r);
  let feeSec = null;
  if (fees.length) {
    const [fSec, fBody] = section('Collection fees taken', {id: 'round-fees'});
    feeSec = fSec;
    fBody.append(h('div', {class: 'round-fees'},
      dataTable([
        {label: 'Seat', rowHeader: true, render: x => x.total ? 'Total' : `Seat ${x.seat}${x.banker ? ' (banker)' : ''}`},
        {label: 'Fee', num: true, render: x => money(x.fee, cur)},
      ], fees, {caption: 'Collection fees, by seat', foot: {total: true, fee: r.collections.total}})));
  }
  if (r.totals) {
    const tt = r.totals;
    payBody.append(h('div', {class: 'totals', role: 'group', 'aria-label': 'Totals'},
      facts([
        ['Handle', money(tt.handle, cur)],
        ['Paid to players', money(tt.paid, cur)],
        ['Players net', moneyCell(tt.players_net, cur, {signed: true})],
        [banked ? 'Banker result' : 'House win', moneyCell(tt.house_win, cur, {signed: true})],
        banked && r.collections ? ['Collections (house)', money(r.collections.total, cur)] : null,
      ])));
  }
  main.append(paySec);
  if (feeSec) main.append(feeSec);

  main.append(correctionsSection(r, cur));

  // Verification and timeline.
  const [verSec, verBody] = section('Verification', {id: 'round-verify'});
  verBody.append(h('p', {class: 'muted'}, 'Replaying…'));
  const [evSec, evBody] = section('Event timeline', {id: 'round-events'});
  const events = r.events;
  evBody.append(events.length ? h('ol', {class: 'timeline'}, events.map(ev => h('li', {class: `ev ev-${ev.type}`},
    h('div', {class: 'ev-time'}, when(ev.at, 'ms')),
    h('div', {class: 'ev-main'},
      h('span', {class: 'ev-type'}, label(ev.type)),
      h('span', {class: 'ev-text'}, ...eventSummary(ev, cur, r))),
    h('div', {class: 'ev-meta muted'}, `by ${ev.actor}`, h('code', {title: `event hash ${ev.hash}`}, ` ${ev.hash.slice(0, 10)}…`)))))
    : h('p', {class: 'empty'}, 'No events recorded.'));
  main.append(verSec, evSec);

  try {
    const v = await api.get(`/rounds/${encodeURIComponent(r.id)}/verify`);
    if (ctx.alive()) verBody.replaceChildren(verifyView(v));
  } catch (e) {
    if (ctx.alive()) verBody.replaceChildren(errorNote(e, 'Verification') || '');
  }
}

// ---- corrections: the mispays recorded against the round's payout lines ----

const mayCorrect = () => roles().some(x => x === 'floor' || x === 'pitboss');

/** The round's corrections, each line's latest first in its line, with who, when, why and the figures. */
function correctionsTable(r, cur) {
  return dataTable([
    {label: 'Recorded', rowHeader: true, render: c => when(c.at, 'short')},
    {label: 'Line', render: c => `Seat ${c.seat} ${label(c.wager)}`},
    {label: 'Owed', num: true, render: c => moneyCell(c.owed, cur, {signed: true})},
    {label: 'Paid', num: true, render: c => moneyCell(c.paid, cur, {signed: true})},
    {label: 'Difference', num: true, render: c => h('span', null, moneyCell(c.difference, cur, {signed: true}),
      h('small', {class: 'muted'}, c.difference > 0 ? ' overpaid' : ' underpaid'))},
    {label: 'Reason', render: c => c.reason},
    {label: 'By', render: c => c.by},
    {label: 'Witness', render: c => c.witness},
    {label: 'Status', render: c => c.superseded_by ? h('span', {class: 'muted'}, 'replaced by a later correction') : 'counts'},
  ], r.corrections || [], {caption: `Corrections of round ${roundLabel(r)}`, empty: 'No correction recorded.',
    rowClass: c => c.superseded_by ? 'row-superseded' : null});
}

/** The section: the corrections and, to a floor supervisor or pit boss on a settled round, the form. */
function correctionsSection(r, cur) {
  const [sec, body] = section('Corrections', {id: 'round-corrections'});
  const list = h('div', {class: 'corrections-list'}, correctionsTable(r, cur));
  body.append(h('p', {class: 'muted small'}, 'A mispay at the table: what a payout line owed and what the dealer actually paid ' +
    'or took, recorded with a witness. The round\u2019s own payouts stay as dealt.'), list);
  if (r.state === 'settled' && r.payouts.length && mayCorrect()) body.append(correctionForm(r, cur, list));
  return sec;
}

/** POST /rounds/{id}/corrections {seat, wager, paid, reason, witness, supersedes?}; the list redrawn from the round after. */
function correctionForm(r, cur, list) {
  const lines = r.payouts;
  const lineSel = h('select', {name: 'correction-line'}, lines.map((p, i) => h('option', {value: String(i)},
    `Seat ${p.seat} ${label(p.wager)}: ${label(p.result)}, player net ${money(p.net, cur, {signed: true})}`)));
  const direction = h('select', {name: 'correction-direction'}, h('option', {value: 'paid'}, 'Paid to the player'),
    h('option', {value: 'took'}, 'Taken from the player'));
  const amount = h('input', {type: 'text', name: 'correction-amount', inputmode: 'decimal', autocomplete: 'off',
    placeholder: `${currencySymbol(cur)}0.00`});
  const reason = h('textarea', {name: 'correction-reason', rows: '2', maxlength: '511'});
  const w = witnessFields('correction');
  const owedNote = h('p', {class: 'muted small', 'aria-live': 'polite'});
  const msg = h('div', {class: 'form-msg', role: 'status', 'aria-live': 'polite'});
  const btn = h('button', {type: 'submit', class: 'btn btn-primary'}, 'Record the correction');
  const latestOf = p => (r.corrections || []).find(c => c.seat === p.seat && c.wager === p.wager && !c.superseded_by);
  const showOwed = () => {
    const p = lines[Number(lineSel.value)];
    const latest = latestOf(p);
    owedNote.textContent = `The round owed: ${lineAction(p, x => money(x, cur)).text}.` +
      (latest ? ` Already corrected (paid ${money(latest.paid, cur, {signed: true})}): this one replaces it.` : '');
  };
  lineSel.addEventListener('change', showOwed);
  showOwed();
  const form = h('form', {class: 'doc-form', 'data-form': 'correction', 'aria-label': 'Record a correction', novalidate: true},
    formField('Payout line', lineSel), owedNote,
    h('div', {class: 'field-row'}, formField('What the dealer did', direction), formField('Amount', amount, 'what actually changed hands at that line')),
    formField('Reason', reason, 'what happened at the table'), w.el, h('div', {class: 'field-submit'}, btn), msg);
  form.addEventListener('submit', async ev => {
    ev.preventDefault();
    const p = lines[Number(lineSel.value)];
    const minor = parseAmount(amount.value, cur);
    if (minor === null || Number.isNaN(minor)) {
      msg.replaceChildren(note('warn', `Type the amount the dealer ${direction.value === 'took' ? 'took' : 'paid'}, as ${money(2500, cur)}.`));
      amount.focus();
      return;
    }
    if (!reason.value.trim()) {
      msg.replaceChildren(note('warn', 'Say what happened at the table.'));
      reason.focus();
      return;
    }
    const witness = w.read();
    if (!witness.person || !witness.password) {
      msg.replaceChildren(note('warn', 'A second floor supervisor or pit boss witnesses the correction: type their id and password.'));
      form.querySelector('[name="correction-witness"]').focus();
      return;
    }
    const body = {seat: p.seat, wager: p.wager, paid: direction.value === 'took' ? -minor : minor, reason: reason.value.trim(), witness};
    const latest = latestOf(p);
    if (latest) body.supersedes = latest.id;
    w.clear();
    btn.disabled = true;
    try {
      const c = await api.send('POST', `/rounds/${encodeURIComponent(r.id)}/corrections`, body);
      const fresh = (await api.get(`/rounds/${encodeURIComponent(r.id)}`)).round;
      r.corrections = fresh.corrections;
      list.replaceChildren(correctionsTable(r, cur));
      showOwed();
      amount.value = '';
      reason.value = '';
      msg.replaceChildren(note('ok', `Recorded: ${correctionText(c, x => money(x, cur), label)}; witness ${c.witness}.`));
    } catch (e) {
      if (e.status !== 401) msg.replaceChildren(refusalNote(e));
    } finally {
      btn.disabled = false;
    }
  });
  return h('details', {class: 'doc-form-box', 'data-box': 'correction'}, h('summary', null, 'Record a correction (mispay)'), form);
}
