// figures.js - the summary report's figures as every view shows them.
// The report computes the win, the win per handle, its theoretical and the
// high/low flag (docs/reports.md, "Every figure"); the page only formats
// them, and a figure the report gives as null (no handle) is shown as "—".
//
// "Win" is the report's `win`: the house's win on the rounds it banked plus
// its collection fees on player-banked rounds.  On player-banked rounds the
// house is no party to the wagers: their result is the banker's, shown as
// "Banker result" beside the collections, and no flag is raised on it.
// "Win/handle" is `win_per_handle` (the house-banked win over the handle
// wagered against the house); it is not the pit's hold (win over drop,
// from the count: the master game report).  An older daemon without the
// new fields is read through the deprecated `hold`/`theoretical_hold`.
import {h} from './dom.js';
import {label, percent, money, moneyCell} from './format.js';

/** The house's win of a summary group or of the totals: win (house win + collections). */
export function winOf(g) {
  if (g.win !== undefined && g.win !== null) return g.win;
  return g.house_win.total;
}

/** Whether a group has player-banked rounds only (no house-banked figure to judge). */
export function bankerOnly(g) {
  return Number(g.player_banked_rounds) > 0 && Number(g.player_banked_rounds) >= Number(g.rounds);
}

/** Whether a group has any player-banked round. */
export function hasBanker(g) {
  return Number(g.player_banked_rounds) > 0;
}

/** Win per handle of a summary group or of the totals, as a percentage. */
export function perHandleText(g, precise = false) {
  return percent(g.win_per_handle !== undefined ? g.win_per_handle : g.hold, precise);
}

/** Theoretical win per handle of a summary group or of the totals, as a percentage. */
export function theoPerHandleText(g, precise = false) {
  return percent(g.theoretical_win_per_handle !== undefined ? g.theoretical_win_per_handle : g.theoretical_hold, precise);
}

/** high/low flag from the summary report; '' when the win is in range (never on a banker's result). */
export function holdFlag(flag) {
  if (!flag) return '';
  const high = flag === 'high';
  return h('span', {class: `badge flag-${flag}`, title: high ? 'Win above the expected range' : 'Win below the expected range'},
    h('span', {'aria-hidden': 'true'}, high ? '▲ ' : '▼ '), high ? 'High' : label(flag));
}

/** A table cell's win per handle: the percentage with its flag beneath ("—" on player-banked rounds only). */
export function perHandleCell(g, precise = false) {
  if (bankerOnly(g)) return h('span', {class: 'stack end'}, h('span', {class: 'muted', title: 'Player-banked: the house banks no wager'}, '—'));
  return h('span', {class: 'stack end'}, h('span', null, perHandleText(g, precise)), holdFlag(g.hold_flag));
}

/**
 * A table cell's win: the house's win (house win + collections), and on
 * groups with player-banked rounds the banker's result and the collections
 * beneath, each named.
 */
export function winCell(g, cur) {
  if (!hasBanker(g)) return moneyCell(winOf(g), cur, {signed: true});
  return h('span', {class: 'stack end'}, moneyCell(winOf(g), cur, {signed: true}),
    h('small', {class: 'muted', 'data-figure': 'banker_result'}, `Banker result ${money(g.banker_result?.total ?? 0, cur, {signed: true})}`),
    h('small', {class: 'muted', 'data-figure': 'collections'}, `Collections ${money(g.collections ?? 0, cur)}`));
}

/** One bar of a chart by hour: the group's win per handle, with its theoretical as the reference mark. */
export function perHandleBar(g, barLabel, title) {
  const v = g.win_per_handle !== undefined ? g.win_per_handle : g.hold;
  const r = g.theoretical_win_per_handle !== undefined ? g.theoretical_win_per_handle : g.theoretical_hold;
  return {label: barLabel, value: v, ref: r, title};
}
