// round.js - one round as dealt: the cards drawn as cards per seat and the
// dealer, bets and decisions, payouts in payout order, totals, the event
// timeline and the verification (replay) result.
import * as api from '../api.js';
import {h, note, section, dataTable, facts} from '../dom.js';
import {money, moneyCell, label, when, cards, miniCards, int} from '../format.js';
import {pageHeader, stateBadge, errorNote} from '../common.js';
import {bankerWho, playerLink} from '../players.js';

export const name = 'round';

const WAGERS = ['ante', 'play', 'pair_plus', 'six_card'];
const RESULT_ICON = {win: '▲', lose: '▼', push: '＝', forfeit: '✕', returned: '↺'};

function resultBadge(r) {
  return h('span', {class: `result result-${r}`}, h('span', {'aria-hidden': 'true'}, `${RESULT_ICON[r] || '•'} `), label(r));
}

function seatNet(round, seat) {
  return round.payouts.filter(p => p.seat === seat).reduce((a, p) => a + p.net, 0);
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
  bet ? h('dl', {class: 'bets'}, WAGERS.filter(w => bet[w]).map(w => h('div', null, h('dt', null, label(w)), h('dd', null, money(bet[w], cur))))) : null,
  isBanker && round.banker ? h('p', {class: 'seat-net'}, 'Bank ', h('span', null, money(round.banker.bank, cur)), ' → ',
    h('span', null, money(round.banker.bank_end, cur))) : null,
  hasPayout ? h('p', {class: 'seat-net'}, 'Net ', moneyCell(net, cur, {signed: true})) : null,
  fee(round, seat, isBanker) ? h('p', {class: 'seat-net'}, 'Collection ', h('span', null, money(fee(round, seat, isBanker), cur))) : null);
}

/** The house's collection (fee) from a seat or the banker, on player-banked tables (a seat with no action pays none). */
function fee(round, seat, isBanker) {
  const c = round.collections;
  if (!c) return 0;
  return (c.seats[seat] || 0) + (isBanker ? c.banker : 0);
}

/** One event of the timeline in words; the types and bodies are those of docs/audit.md. */
function eventSummary(ev, cur) {
  const b = ev.body;
  switch (ev.type) {
    case 'round_opened':
      return [`Round ${b.round_no} opened`, b.banker ? ` · banker seat ${b.banker.seat}, bank ${money(b.banker.bank, cur)}` : ''];
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
  const id = params.round;
  ctx.setTitle(`Round ${id}`);
  let r;
  try {
    r = (await api.get(`/rounds/${id}`)).round;
  } catch (e) {
    if (!ctx.alive()) return;
    main.append(pageHeader(`Round ${id}`, {crumbs: [['Floor', '#/floor'], [`Round ${id}`]]}),
      e.status === 404 ? note('warn', `There is no round ${id}.`) : errorNote(e, 'Round'));
    return;
  }
  if (!ctx.alive()) return;
  const cur = api.currencyOf(r.table);
  const banked = r.banking === 'player';
  ctx.setTitle(`Round ${r.id} at ${r.table}`);
  main.append(pageHeader(`Round ${r.id}`, {
    crumbs: [['Floor', '#/floor'], [r.table, `#/table/${encodeURIComponent(r.table)}`], [`Round ${r.id}`]],
    sub: h('span', {class: 'inline-list'}, stateBadge(r.state),
      ` ${api.tableName(r.table)} · round no. ${r.round_no} · ${banked ? 'player-banked' : 'house-banked'} · rules “${r.rules.name}”`),
  }));

  if (r.state === 'void') main.append(note('warn', h('strong', null, 'Void round. '), `Every wager was returned. Reason: ${r.void_reason || 'not given'}.`));

  main.append(h('div', {class: 'times'}, facts([
    ['Opened', h('span', null, when(r.opened_at), r.opened_by ? ` by ${r.opened_by}` : '')],
    r.dealer && r.dealer.id ? ['Dealer', `${r.dealer.name} (${r.dealer.id})`] : null,
    ['No more bets', r.closed_at ? when(r.closed_at) : '—'],
    [r.state === 'void' ? 'Voided' : 'Settled', r.settled_at ? when(r.settled_at) : '—'],
    banked && r.banker ? ['Banker', h('span', null, `Seat ${r.banker.seat}`, bankerWho(r.banker) ? ' (' : '', bankerWho(r.banker), bankerWho(r.banker) ? ')' : '',
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
    {label: 'Stake', num: true, render: p => money(p.stake, cur)},
    {label: 'Result', render: p => resultBadge(p.result)},
    {label: 'Player net', num: true, render: p => moneyCell(p.net, cur, {signed: true})},
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

  // Verification and timeline.
  const [verSec, verBody] = section('Verification', {id: 'round-verify'});
  verBody.append(h('p', {class: 'muted'}, 'Replaying…'));
  const [evSec, evBody] = section('Event timeline', {id: 'round-events'});
  const events = r.events;
  evBody.append(events.length ? h('ol', {class: 'timeline'}, events.map(ev => h('li', {class: `ev ev-${ev.type}`},
    h('div', {class: 'ev-time'}, when(ev.at, 'ms')),
    h('div', {class: 'ev-main'},
      h('span', {class: 'ev-type'}, label(ev.type)),
      h('span', {class: 'ev-text'}, ...eventSummary(ev, cur))),
    h('div', {class: 'ev-meta muted'}, `by ${ev.actor}`, h('code', {title: `event hash ${ev.hash}`}, ` ${ev.hash.slice(0, 10)}…`)))))
    : h('p', {class: 'empty'}, 'No events recorded.'));
  main.append(verSec, evSec);

  try {
    const v = await api.get(`/rounds/${r.id}/verify`);
    if (ctx.alive()) verBody.replaceChildren(verifyView(v));
  } catch (e) {
    if (ctx.alive()) verBody.replaceChildren(errorNote(e, 'Verification') || '');
  }
}
