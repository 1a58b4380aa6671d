// reports.js - the summary report (table + SVG bar chart + CSV) for a date
// range and grouping, and the large payouts list.
import * as api from '../api.js';
import {h, section, dataTable, note} from '../dom.js';
import {money, moneyCell, int, label, when, whenText, miniCards, toMinor, minorDigits} from '../format.js';
import {barChart} from '../chart.js';
import {roundHref, roundLabel} from '../rounds.js';
import {pageHeader, errorNote, localDate, addDays, csvButton} from '../common.js';
import {perHandleCell, perHandleText, theoPerHandleText, winCell, winOf, bankerOnly} from '../figures.js';

export const name = 'reports';

const GROUPS = [['hour', 'Hour'], ['day', 'Day'], ['shift', 'Shift'], ['table', 'Table'], ['dealer', 'Dealer']];
const WAGERS = ['ante', 'play', 'pair_plus', 'six_card', 'ante_bonus'];

function field(labelText, control, id) {
  control.id = id;
  return h('div', {class: 'field'}, h('label', {for: id}, labelText), control);
}

function keyLabel(group, key) {
  if (key === null || key === undefined) return '—';
  if (group === 'table') return `${key} · ${api.tableName(String(key))}`;
  if (group === 'hour') return whenText(String(key), 'short');
  return String(key);
}

export async function render(main, params, ctx) {
  ctx.setTitle('Reports');
  const q = ctx.query;
  // The property's gaming days (GET /tables' property), whatever the browser's zone: the daemon
  // reads a date in from and to as that gaming day of the property (docs/api.md, "Reports").
  const today = api.property()?.gaming_day || localDate();
  const state = {
    from: q.get('from') || today,
    to: q.get('to') || today,
    group: GROUPS.some(([g]) => g === q.get('group')) ? q.get('group') : 'table',
    table: q.get('table') || '',
    min: q.get('min') || '1000',
  };
  const tables = api.tables();

  main.append(pageHeader('Reports', {sub: 'Handle, win, win per handle and theoretical win over a range of the property\u2019s gaming days; large payouts.'}));

  // The filter form.
  const from = h('input', {type: 'date', name: 'from', value: state.from, required: true});
  const to = h('input', {type: 'date', name: 'to', value: state.to, required: true});
  const group = h('select', {name: 'group'}, GROUPS.map(([v, t]) => h('option', {value: v, selected: v === state.group ? true : null}, t)));
  const table = h('select', {name: 'table'}, h('option', {value: ''}, 'All tables'),
    tables.map(t => h('option', {value: t.id, selected: t.id === state.table ? true : null}, `${t.id} · ${t.name}`)));
  const formMsg = h('div', {class: 'form-msg', role: 'status'});
  const preset = (text, f, t) => {
    const b = h('button', {type: 'button', class: 'btn btn-quiet btn-small'}, text);
    b.addEventListener('click', () => { from.value = f; to.value = t; form.requestSubmit(); });
    return b;
  };
  const monthStart = today.slice(0, 8) + '01';
  const form = h('form', {class: 'filters', 'aria-label': 'Report filters'},
    h('div', {class: 'filter-fields'},
      field('From', from, 'rep-from'), field('To (inclusive)', to, 'rep-to'),
      field('Group by', group, 'rep-group'), field('Table', table, 'rep-table'),
      h('div', {class: 'field field-submit'}, h('button', {type: 'submit', class: 'btn btn-primary'}, 'Show report'))),
    h('div', {class: 'presets', role: 'group', 'aria-label': 'Quick ranges'},
      h('span', {class: 'muted small'}, 'Quick ranges:'),
      preset('Today', today, today), preset('Yesterday', addDays(today, -1), addDays(today, -1)),
      preset('Last 7 days', addDays(today, -6), today), preset('This month', monthStart, today)),
    formMsg);
  main.append(h('section', {class: 'panel', 'aria-label': 'Filters'}, h('div', {class: 'panel-body'}, form)));

  const summaryQuery = (extra = {}) => api.qs({table: state.table, group: state.group,
    from: state.from, to: state.to, ...extra});
  const [sumSec, sumBody] = section('Summary', {id: 'report-summary',
    actions: csvButton('Download CSV', () => '/reports/summary' + summaryQuery({format: 'csv'}), 'summary.csv', api)});
  main.append(sumSec);

  // Large payouts.
  const cur0 = state.table ? api.currencyOf(state.table) : (tables[0]?.currency || 'USD');
  const minInput = h('input', {type: 'number', min: '0', step: minorDigits(cur0) ? '0.01' : '1', value: state.min, inputmode: 'decimal'});
  const payForm = h('form', {class: 'inline-form', 'aria-label': 'Large payouts filter'},
    field(`Minimum win (${cur0})`, minInput, 'pay-min'),
    h('button', {type: 'submit', class: 'btn'}, 'Show payouts'));
  const payQuery = (extra = {}) => api.qs({min: toMinor(state.min, cur0), table: state.table,
    from: state.from, to: state.to, ...extra});
  const [paySec, payBody] = section('Large payouts', {id: 'report-payouts',
    actions: csvButton('Download CSV', () => '/reports/payouts' + payQuery({format: 'csv'}), 'payouts.csv', api)});
  const payList = h('div');
  payBody.append(payForm, payList);
  main.append(paySec);

  function currencyFor(g) {
    if (state.table) return api.currencyOf(state.table);
    if (state.group === 'table') return api.currencyOf(String(g.key));
    return cur0;
  }

  async function loadSummary() {
    sumBody.replaceChildren(h('p', {class: 'muted'}, 'Loading…'));
    let b;
    try {
      b = await api.get('/reports/summary' + summaryQuery());
    } catch (e) {
      if (ctx.alive()) sumBody.replaceChildren(errorNote(e, 'Summary report') || '');
      return;
    }
    if (!ctx.alive()) return;
    const groups = b.groups;
    if (!groups.length) {
      sumBody.replaceChildren(h('p', {class: 'empty'}, 'No rounds in this range.'));
      return;
    }
    const currencies = new Set(groups.map(currencyFor));
    const mixed = currencies.size > 1;
    const cols = [
      {label: GROUPS.find(([g]) => g === state.group)?.[1] || 'Group', rowHeader: true, render: g => g === b.totals ? 'Total' : keyLabel(state.group, g.key)},
      {label: 'Rounds', num: true, render: g => int(g.rounds)},
      {label: 'Voids', num: true, render: g => int(g.voids)},
      {label: 'Hands', num: true, render: g => int(g.hands)},
      {label: 'Handle', num: true, render: g => money(g.handle.total, currencyFor(g))},
      {label: 'Win', num: true, render: g => winCell(g, currencyFor(g))},
      {label: 'Win/handle', num: true, render: g => perHandleCell(g, true)},
      {label: 'Theoretical win', num: true, render: g => bankerOnly(g) ? h('span', {class: 'muted'}, '—') : h('span', {class: 'stack end'}, money(g.theoretical_win, currencyFor(g)),
        g.win_interval ? h('small', {class: 'muted', title: 'The range the house win is expected to fall in; outside it the win is flagged'},
          `${money(g.win_interval.low, currencyFor(g))} to ${money(g.win_interval.high, currencyFor(g))}`) : null)},
      {label: 'Theo. win/handle', num: true, render: g => bankerOnly(g) ? '—' : theoPerHandleText(g, true)},
      {label: 'Hands / hour', num: true, render: g => g.hands_per_hour !== null ? int(Math.round(g.hands_per_hour)) : '—'},
      {label: 'Average bet', num: true, render: g => money(g.average_bet, currencyFor(g))},
    ];
    const chartCur = [...currencies][0];
    const chart = barChart(groups.map(g => ({
      label: state.group === 'table' ? String(g.key)
        : state.group === 'hour' ? whenText(String(g.key), state.from === state.to ? 'hour' : 'short') : String(g.key),
      value: winOf(g),
      ref: bankerOnly(g) ? null : g.theoretical_win,
      title: `${keyLabel(state.group, g.key)}: win ${money(winOf(g), currencyFor(g), {signed: true})}, win/handle ${perHandleText(g)}`,
    })), {fmt: v => money(Math.round(v), chartCur), title: 'Win by ' + state.group, valueLabel: 'Win',
      refLabel: 'Theoretical win', width: sumBody.clientWidth - 32, description: `${groups.length} groups from ${state.from} to ${state.to}`});

    const tot = b.totals;
    const breakdown = dataTable([
      {label: 'Wager', rowHeader: true, render: w => label(w)},
      {label: 'Handle', num: true, render: w => w === 'ante_bonus' ? h('span', {class: 'muted'}, 'n/a') : money(tot.handle[w], chartCur)},
      {label: 'House win (house-banked)', num: true, render: w => moneyCell(tot.house_win[w], chartCur, {signed: true})},
    ], WAGERS, {caption: 'Totals by wager'});

    sumBody.replaceChildren(
      mixed ? note('info', 'The tables use different currencies; the chart and totals mix them and are for orientation only.') : '',
      chart,
      dataTable(cols, groups, {caption: 'Summary report', foot: tot}),
      h('details', {class: 'chart-data'}, h('summary', null, 'Totals by wager'), breakdown));
    focusableTables(sumBody);
  }

  async function loadPayouts() {
    payList.replaceChildren(h('p', {class: 'muted'}, 'Loading…'));
    try {
      const b = await api.get('/reports/payouts' + payQuery());
      if (!ctx.alive()) return;
      const list = b.payouts;
      payList.replaceChildren(dataTable([
        {label: 'Time', rowHeader: true, render: p => when(p.at, 'short')},
        {label: 'Table', render: p => h('a', {href: `#/table/${encodeURIComponent(p.table)}`}, p.table)},
        {label: 'Round', render: p => {
          const r = {id: p.round, table: p.table, round_no: p.round_no};
          return h('a', {href: roundHref(r)}, roundLabel(r));
        }},
        {label: 'Seat', num: true, render: p => int(p.seat)},
        {label: 'Wager', render: p => label(p.wager)},
        {label: 'Hand', render: p => h('span', {class: 'stack'}, label(p.hand), p.cards ? miniCards(p.cards, 'small') : null)},
        {label: 'Dealer', render: p => p.dealer ? miniCards(p.dealer) : '—'},
        {label: 'Stake', num: true, render: p => money(p.stake, api.currencyOf(p.table))},
        {label: 'Win', num: true, render: p => moneyCell(p.net, api.currencyOf(p.table), {signed: true})},
      ], list, {caption: 'Large payouts', empty: `No payout of ${money(toMinor(state.min, cur0), cur0)} or more in this range.`}));
      focusableTables(payList);
    } catch (e) {
      if (ctx.alive()) payList.replaceChildren(errorNote(e, 'Large payouts report') || '');
    }
  }

  function readForm() {
    state.from = from.value || today;
    state.to = to.value || state.from;
    if (state.to < state.from) [state.from, state.to] = [state.to, state.from];
    from.value = state.from;
    to.value = state.to;
    state.group = group.value;
    state.table = table.value;
    state.min = String(minInput.value || '0');
    ctx.setQuery({from: state.from, to: state.to, group: state.group, ...(state.table ? {table: state.table} : {}), min: state.min});
  }

  form.addEventListener('submit', ev => {
    ev.preventDefault();
    readForm();
    formMsg.textContent = `Showing ${state.from === state.to ? state.from : `${state.from} to ${state.to}`}, grouped by ${state.group}.`;
    loadSummary();
    loadPayouts();
  });
  payForm.addEventListener('submit', ev => {
    ev.preventDefault();
    readForm();
    loadPayouts();
  });
  await Promise.all([loadSummary(), loadPayouts()]);
}

/** The wrappers of el's wide tables made reachable by keyboard: a focusable region named after its table. */
function focusableTables(el) {
  for (const wrap of el.querySelectorAll('.table-wrap')) {
    wrap.setAttribute('tabindex', '0');
    wrap.setAttribute('role', 'region');
    wrap.setAttribute('aria-label', wrap.querySelector('caption')?.textContent.trim() || 'Table');
  }
  return el;
}

