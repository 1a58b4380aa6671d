// exception-text.js - an exception of GET /reports/exceptions as a
// sentence, for the exceptions view and the master game's (docs/reports.md
// lists the kinds): money in the table's currency from the row's figures,
// wagers by name, a significant event's JSON detail as words; and the
// label of its round, `${table}-${round_no}` (e.g. "T1-277"), or the
// global "#1390" where the row has no round number.
import * as api from './api.js';
import {label, money, percent} from './format.js';
import {playerText} from './players.js';

/** The round of an exception as a person names it: "T1-277", else "#1390"; '' when none. */
export function exceptionRound(x) {
  if (x.round === null || x.round === undefined) return '';
  return x.round_no !== null && x.round_no !== undefined && x.table ? `${x.table}-${x.round_no}` : `#${x.round}`;
}

const LEVEL = {recorded: 'recorded', reported: 'reported', regulator: 'for the regulator\u2019s copy'};

/** "Seat 2's Pair Plus". */
function seatWager(x) {
  return `Seat ${x.seat}\u2019s ${label(x.wager)}`;
}

/** A significant event's detail (JSON text, or an object) as "Client 203.0.113.5; failures 5". */
function eventWords(detail) {
  let d = detail;
  if (typeof d === 'string') {
    try { d = JSON.parse(d); } catch { return d; }
  }
  if (!d || typeof d !== 'object') return String(d ?? '');
  const parts = [];
  for (const [k, v] of Object.entries(d)) {
    if (v === null || v === undefined || v === '') continue;
    const text = typeof v === 'object' ? (Array.isArray(v) ? v.join(', ') : eventWords(v)) : String(v);
    parts.push(`${label(k).toLowerCase()} ${text.replace(/_/g, ' ')}`);
  }
  const s = parts.join('; ');
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** An exception as a sentence (its detail as the daemon writes it only where it is words already). */
export function describeException(x) {
  const cur = api.currencyOf(x.table);
  const m = v => money(v, cur);
  switch (x.kind) {
  case 'void':
    return `Round voided: ${x.detail}`;
  case 'coverage_short':
    return `${seatWager(x)}: a win of ${m(x.net + x.short)} was paid ${m(x.net)}; ${m(x.short)} short, the bank ran out.`;
  case 'mispay': {
    const d = x.paid - x.owed;
    return `${seatWager(x)} was owed ${m(x.owed)} and paid ${m(x.paid)}: ${d > 0 ? 'overpaid' : 'underpaid'} ${m(Math.abs(d))}. ` +
      `${x.reason} (by ${x.by}, witness ${x.witness})`;
  }
  case 'inventory_discrepancy':
    return `The opener is ${m(Math.abs(x.amount))} ${x.amount < 0 ? 'short of' : 'over'} the table\u2019s last closer ` +
      `(${LEVEL[x.level] || label(x.level).toLowerCase()}). Reason: ${x.reason}`;
  case 'count_variance':
    return `Gaming day ${x.ref}: the count win differs from the hands\u2019 win by ${money(x.variance, cur, {signed: true})}` +
      (x.variance_percent === null || x.variance_percent === undefined ? '.' : ` (${percent(x.variance_percent / 100, true)} of the drop).`) +
      (x.investigation ? ` Investigation: ${label(x.investigation.status).toLowerCase()}.` : ' Not investigated yet.');
  case 'pending_slip':
    return `${label(x.slip)} ${x.serial} of ${m(x.amount)} was issued and is not received at the table: the dealer and a floor ` +
      'supervisor receive it, or it is voided.';
  case 'decision_knowledge': {
    const who = x.group === 'player' ? (x.player ? playerText(x.player) : `${String(x.key).replace('/', ' seat ')}`)
      : x.group === 'dealer' ? (/\/dealer$/.test(String(x.key)) ? `the dealers of ${String(x.key).slice(0, -7)} with no name recorded`
        : `dealer ${x.name || x.dealer || x.key}`) : `table ${x.key}`;
    return `Gaming day ${x.gaming_day}: the ${x.decisions} decisions of ${who} knew the dealer’s hand ` +
      `(z = ${Number(x.z).toFixed(2)}); ${x.mistakes} mistakes, ${m(x.ev_lost)} of expected value lost. ` +
      `The decisions that weighed most: ${(x.evidence || []).map(e => `${e.table}-${e.round_no} seat ${e.seat} ` +
        `${e.decision === 'play' ? 'played' : 'folded'} ${e.cards.join(' ')} against ${e.dealer.join(' ')}`).join('; ')}.`;
  }
  case 'serial_gap':
    return String(x.detail || '').replace(/\s*\((\d{4})\)/, ' ($1)');
  default:
    return eventWords(x.detail) + (x.source ? ` (from ${x.source})` : '');
  }
}
