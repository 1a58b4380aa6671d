// rounds.js - what both pages say about a round: its label (one number for a
// round everywhere: the table and the table's number of the round, "T1-277";
// the global id only in API links and CSV), and what the dealer does at each
// payout line (pay, take, return, nothing), with the wagers returned when a
// player's bank ran out and the house's collection fees.
//
// An Ante Bonus line is no wager: it is paid on the Ante, never put up, so it
// is never "returned" and never counted among the returned wagers.  When the
// bank ran out before it, the bonus is simply not paid.
//
// No DOM here: the pit page's round view and the dealer page both import it.

/** "T1-277": a round's label, from its table and its table's number ({table, round_no}). */
export function roundLabel(r) {
  if (!r) return '';
  return r.round_no ? `${r.table}-${r.round_no}` : `#${r.id}`;
}

/** The hash of the pit page's round view for a round (by label when it has one). */
export function roundHref(r) {
  return r.round_no ? `#/round/${encodeURIComponent(roundLabel(r))}` : `#/round/${r.id}`;
}

/** "T1-277" -> {table: "T1", round_no: 277}; a global id "1390" -> {id: 1390}; null for anything else. */
export function parseRoundName(text) {
  const s = String(text ?? '');
  if (/^[1-9]\d*$/.test(s)) return {id: Number(s)};
  const m = /^([A-Za-z0-9_.-]{1,32})-([1-9]\d{0,17})$/.exec(s);
  return m ? {table: m[1], round_no: Number(m[2])} : null;
}

/** Whether a payout line is a wager put up (everything but the Ante Bonus, which is paid on the Ante). */
export function isWager(p) {
  return p.wager !== 'ante_bonus';
}

/** The wagers returned as they lie (no action: the bank ran out, or the round is void): {count, total, lines}. */
export function returnedWagers(payouts) {
  const lines = (payouts || []).filter(p => p.result === 'returned' && isWager(p));
  return {count: lines.length, total: lines.reduce((a, p) => a + p.stake, 0), lines};
}

/** An Ante Bonus the bank could not pay (its line "returned": the bank ran out before it). */
export function bonusUnpaid(p) {
  return !isWager(p) && p.result === 'returned';
}

/**
 * What the dealer does at a line: {kind, text}.  kind is pay, take, return,
 * push or none; fmt formats an amount of minor units (the page's money).
 */
export function lineAction(p, fmt) {
  if (bonusUnpaid(p)) return {kind: 'none', text: 'no bonus: the bank ran out'};
  if (p.result === 'returned') return {kind: 'return', text: `RETURN the ${fmt(p.stake)} bet (no action)`};
  if (p.net > 0) return {kind: 'pay', text: `PAY ${fmt(p.net)}` + (p.short ? ` (bank short ${fmt(p.short)})` : '')};
  if (p.net < 0) return {kind: 'take', text: `TAKE ${fmt(-p.net)}`};
  return {kind: 'push', text: p.result === 'push' ? 'push: leave it' : '\u2014'};
}

/** "1 wager returned ($50.00)", "3 wagers returned ($450.00)"; '' when none. */
export function returnedText(payouts, fmt) {
  const {count, total} = returnedWagers(payouts);
  if (!count) return '';
  return `${count} ${count === 1 ? 'wager' : 'wagers'} returned (${fmt(total)})`;
}

/**
 * The house's collection fee taken from a seat (and from the banker when the
 * seat banks) on a player-banked round: 0 when none (a seat with no action pays none).
 */
export function seatFee(round, seat) {
  const c = round.collections;
  if (!c) return 0;
  const isBanker = round.banker && round.banker.seat === Number(seat);
  return (c.seats?.[seat] || 0) + (isBanker ? c.banker || 0 : 0);
}

/** The collection fees of a round, seat by seat in seat order: [{seat, fee, banker}] (the banker's on his seat). */
export function feeLines(round) {
  const c = round.collections;
  if (!c) return [];
  const seats = new Set(Object.keys(c.seats || {}).map(Number));
  if (round.banker && c.banker) seats.add(round.banker.seat);
  return [...seats].sort((a, b) => a - b).map(seat => ({seat, fee: seatFee(round, seat),
    banker: !!(round.banker && round.banker.seat === seat)})).filter(x => x.fee > 0);
}

/** A correction's line in words: "seat 2 Pair Plus: owed $5.00, paid $25.00 (overpaid $20.00)". */
export function correctionText(c, fmt, wagerName = w => w) {
  const diff = c.paid - c.owed;
  return `seat ${c.seat} ${wagerName(c.wager)}: owed ${fmt(c.owed)}, paid ${fmt(c.paid)} ` +
    `(${diff > 0 ? 'overpaid' : 'underpaid'} ${fmt(Math.abs(diff))})`;
}
