// statistics.js - the statistics report (GET /api/v1/reports/statistics,
// docs/reports.md "Statistics") for a month: per table and game, and in
// total, the count's drop, win and win per drop beside the hands' win, the
// month before and the change, the year to date, and the table-days left out
// of the count (their session still open); then each table's breakdown by
// the property's shifts, each shift's month to date beside the month before
// and the change, in money and in words; a CSV download.
import * as api from '../api.js';
import {h, section, dataTable, note} from '../dom.js';
import {money, moneyCell, percent, int, label} from '../format.js';
import {pageHeader, errorNote, csvButton} from '../common.js';

export const name = 'statistics';

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** The change from the month before: the difference, signed, and the same in words ("▲ Up", "▼ Down"). */
function changeCell(now, before, cur) {
  if (now === null || now === undefined || before === null || before === undefined) return '—';
  const d = now - before;
  const [sign, word] = d > 0 ? ['▲ ', 'Up'] : d < 0 ? ['▼ ', 'Down'] : ['= ', 'No change'];
  return h('span', {class: 'stack end', 'data-change': d > 0 ? 'up' : d < 0 ? 'down' : 'same',
    title: `${word}: ${money(now, cur, {signed: true})} against ${money(before, cur, {signed: true})} the month before`},
  moneyCell(d, cur, {signed: true}), h('small', {class: 'muted'}, h('span', {'aria-hidden': 'true'}, sign), word));
}

/** The baseline's flag of a period ("▲ High", "▼ Low"), or nothing. */
function baselineFlag(f) {
  const flag = f?.flags?.baseline;
  if (!flag) return null;
  const high = flag === 'high';
  return h('span', {class: `badge flag-${flag}`,
    title: `Win per drop ${high ? 'above' : 'below'} the game's baseline beyond the tolerance`},
    h('span', {'aria-hidden': 'true'}, high ? '▲ ' : '▼ '), high ? 'High' : 'Low');
}

/** Table-days (or shift windows) left out of the count, in words: "2 table-days left out" or "None". */
function incompleteCell(n, unit) {
  if (!n) return h('span', {class: 'muted', 'data-incomplete': '0'}, 'None');
  return h('span', {class: 'strong', 'data-incomplete': String(n),
    title: 'Left out of the count: the table\'s session was still open (an opener without its closer)'},
  `${int(n)} ${unit}${n === 1 ? '' : 's'} left out`);
}

export async function render(main, params, ctx) {
  ctx.setTitle('Statistics');
  const prop = api.property();
  const q = ctx.query;
  const current = (prop?.gaming_day || '').slice(0, 7);
  const state = {month: MONTH.test(q.get('month') || '') ? q.get('month') : current, table: q.get('table') || ''};
  main.append(pageHeader('Statistics', {sub: 'The count by month: drop, win and win per drop per table beside the ' +
    'hand win, the month before, the year to date, and the breakdown by shift.'}));

  const month = h('input', {type: 'month', id: 'st-month', value: state.month, max: current || null});
  const table = h('select', {id: 'st-table'}, h('option', {value: ''}, 'All tables'),
    api.tables().map(t => h('option', {value: t.id, selected: t.id === state.table ? true : null}, `${t.id} · ${t.name}`)));
  const form = h('form', {class: 'filters', 'aria-label': 'Statistics filters'},
    h('div', {class: 'filter-fields'},
      h('div', {class: 'field'}, h('label', {for: 'st-month'}, 'Month'), month),
      h('div', {class: 'field'}, h('label', {for: 'st-table'}, 'Table'), table),
      h('div', {class: 'field field-submit'}, h('button', {type: 'submit', class: 'btn btn-primary'}, 'Show'))));
  main.append(h('section', {class: 'panel', 'aria-label': 'Filters'}, h('div', {class: 'panel-body'}, form)));

  const query = (extra = {}) => api.qs({month: state.month, table: state.table, ...extra});
  const [sec, body] = section('Month to date', {id: 'statistics',
    actions: csvButton('Download CSV', () => '/reports/statistics' + query({format: 'csv'}), 'statistics.csv', api)});
  const [shiftSec, shiftBody] = section('By shift, beside the month before', {id: 'statistics-shifts'});
  main.append(sec, shiftSec);

  async function load() {
    body.replaceChildren(h('p', {class: 'muted'}, 'Loading…'));
    shiftBody.replaceChildren();
    let b;
    try {
      b = await api.get('/reports/statistics' + query());
    } catch (e) {
      if (ctx.alive()) body.replaceChildren(errorNote(e, 'Statistics report') || '');
      return;
    }
    if (!ctx.alive()) return;
    const curOf = r => (r === b.total ? api.tables()[0]?.currency : api.currencyOf(r.table)) || 'USD';
    const money0 = (r, v, signed = false) => (v === null || v === undefined ? '—' : moneyCell(v, curOf(r), {signed}));
    const left = [...b.rows, b.total].reduce((a, r) => Math.max(a, r.month_to_date.incomplete), 0);
    body.replaceChildren(
      h('p', {class: 'muted small'}, `${b.month}: gaming days ${b.from_day} to ${b.to_day}; the month before ` +
        `(${b.prior_month.month}) ${b.prior_month.from_day} to ${b.prior_month.to_day}; the year from ${b.year_from_day} ` +
        `(${b.time_zone}). Win/drop is flagged ▲ High or ▼ Low when it is more than ` +
        `${(100 * b.win_per_drop_tolerance).toFixed(1)} percentage points from its game's baseline.`),
      dataTable([
        {label: 'Table', rowHeader: true, render: r => r === b.total ? 'Total' : h('a',
          {href: `#/table/${encodeURIComponent(r.table)}`}, `${r.table}${r.player_banked ? ' (player-banked)' : ''}`)},
        {label: 'Game', render: r => r === b.total ? '' : r.game},
        {label: 'Drop', num: true, render: r => money0(r, r.month_to_date.drop)},
        {label: 'Win', num: true, render: r => money0(r, r.month_to_date.win, true)},
        {label: 'Win/drop', num: true, render: r => h('span', {class: 'stack end'},
          percent(r.month_to_date.win_per_drop, true), baselineFlag(r.month_to_date))},
        {label: 'Month before', num: true, render: r => money0(r, r.prior_month.win, true)},
        {label: 'Change', num: true, render: r => changeCell(r.month_to_date.win, r.prior_month.win, curOf(r))},
        {label: 'Hand win', num: true, render: r => money0(r, r.month_to_date.hand_win, true)},
        {label: 'Win/handle', num: true, render: r => percent(r.month_to_date.win_per_handle, true)},
        {label: 'Year to date', num: true, render: r => money0(r, r.year_to_date.win, true)},
        {label: 'Incomplete', render: r => incompleteCell(r.month_to_date.incomplete, 'table-day')},
      ], b.rows, {caption: 'Statistics, month to date', empty: 'No table had rounds or documents this year.', foot: b.total,
        rowClass: r => r.month_to_date.incomplete ? 'row-incomplete' : null}),
      left ? note('info', h('strong', null, 'Incomplete: '), 'a table-day whose session was still open at the end of ' +
        'the gaming day (an opener without its closer) is left out of the drop and the win, so that a missing closer ' +
        'never counts as a tray of zero. It counts once its closer is recorded; the master game report shows it as ' +
        'incomplete.') : '');
    showShifts(b, curOf);
  }

  /** Per table (then all tables), each shift's month to date beside the month before, and the change. */
  function showShifts(b, curOf) {
    if (!b.total.shifts.length) {
      shiftBody.replaceChildren(note('info', 'The property has no shifts (property.shifts of the configuration): ' +
        'there is no breakdown by shift.'));
      return;
    }
    const blocks = [...b.rows, b.total].map(r => {
      const cur = curOf(r);
      const m = (v, signed = false) => (v === null || v === undefined ? '—' : moneyCell(v, cur, {signed}));
      const title = r === b.total ? 'All tables' : `${r.table} · ${r.game}`;
      return h('div', {class: 'shift-block', 'data-table': r === b.total ? 'total' : r.table},
        h('h3', null, title),
        dataTable([
          {label: 'Shift', rowHeader: true, render: s => label(s.shift)},
          {label: 'Win', num: true, render: s => m(s.month_to_date.win, true)},
          {label: 'Month before', num: true, render: s => m(s.prior_month.win, true)},
          {label: 'Change', num: true, render: s => changeCell(s.month_to_date.win, s.prior_month.win, cur)},
          {label: 'Drop', num: true, render: s => m(s.month_to_date.drop)},
          {label: 'Drop before', num: true, render: s => m(s.prior_month.drop)},
          {label: 'Win/drop', num: true, render: s => percent(s.month_to_date.win_per_drop, true)},
          {label: 'Win/drop before', num: true, render: s => percent(s.prior_month.win_per_drop, true)},
          {label: 'Hand win', num: true, render: s => m(s.month_to_date.hand_win, true)},
          {label: 'Variance', num: true, render: s => m(s.month_to_date.variance, true)},
          {label: 'Windows', num: true, render: s => `${int(s.month_to_date.windows)} / ${int(s.prior_month.windows)}`},
          {label: 'Incomplete', render: s => h('span', {class: 'stack'},
            incompleteCell(s.month_to_date.incomplete, 'window'), s.prior_month.incomplete
              ? h('small', {class: 'muted'}, `${int(s.prior_month.incomplete)} the month before`) : null)},
        ], r.shifts, {caption: `${title}: by shift, month to date and the month before`}));
    });
    shiftBody.replaceChildren(
      h('p', {class: 'muted small'}, 'Each shift\'s complete windows, as the master game report counts them for that ' +
        'shift: its sessions\' segments, and the fills, credits and drops recorded for it (a drop for the whole day ' +
        'belongs to no shift). Win, drop and win/drop of the month to date, then of the month before ("before"); ' +
        'the change: the month to date less the month before. Windows: counted this month / the month before. ' +
        'Variance: win − hand win.'),
      ...blocks);
  }

  form.addEventListener('submit', ev => {
    ev.preventDefault();
    state.month = MONTH.test(month.value) ? month.value : current;
    state.table = table.value;
    ctx.setQuery({...(state.month ? {month: state.month} : {}), ...(state.table ? {table: state.table} : {})});
    load();
  });
  if (!prop) main.prepend(note('info', 'This server does not say its gaming day; the report shows its current month.'));
  await load();
}
