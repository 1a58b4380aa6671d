// figures.js - the summary report's hold figures as every view shows them.
// The report computes hold, theoretical hold and the high/low flag
// (docs/reports.md, "Every figure"); the page only formats them, and a
// figure the report gives as null (no handle) is shown as "—".
import {h} from './dom.js';
import {label, percent} from './format.js';

/** Hold (house win over handle) of a summary group or of the totals, as a percentage. */
export function holdText(g, precise = false) {
  return percent(g.hold, precise);
}

/** Theoretical hold of a summary group or of the totals, as a percentage. */
export function theoHoldText(g, precise = false) {
  return percent(g.theoretical_hold, precise);
}

/** high/low hold flag from the summary report; '' when the hold is in range. */
export function holdFlag(flag) {
  if (!flag) return '';
  const high = flag === 'high';
  return h('span', {class: `badge flag-${flag}`, title: high ? 'Hold above the expected range' : 'Hold below the expected range'},
    h('span', {'aria-hidden': 'true'}, high ? '▲ ' : '▼ '), high ? 'High' : label(flag));
}

/** A table cell's hold: the percentage with its flag beneath. */
export function holdCell(g, precise = false) {
  return h('span', {class: 'stack end'}, h('span', null, holdText(g, precise)), holdFlag(g.hold_flag));
}

/** One bar of a hold chart: the group's hold, with its theoretical hold as the reference mark. */
export function holdBar(g, barLabel, title) {
  return {label: barLabel, value: g.hold, ref: g.theoretical_hold, title};
}
