// exceptions.js - the exceptions report: voids, refusals, short banks and
// other things a pit boss should look at, over a range of local days; each
// row in a sentence (exception-text.js), its round by its table's number.
import * as api from '../api.js';
import {h, section, dataTable, note} from '../dom.js';
import {label, when} from '../format.js';
import {describeException, exceptionRound} from '../exception-text.js';
import {pageHeader, errorNote, localDate, addDays, csvButton} from '../common.js';

export const name = 'exceptions';

export async function render(main, params, ctx) {
  ctx.setTitle('Exceptions');
  const today = api.property()?.gaming_day || localDate();   // the property's gaming day, not the browser's
  const q = ctx.query;
  const state = {from: q.get('from') || addDays(today, -6), to: q.get('to') || today, table: q.get('table') || ''};

  main.append(pageHeader('Exceptions', {sub: 'Voided rounds, refused requests, short banks and other events to review.'}));
  const from = h('input', {type: 'date', id: 'exc-from', value: state.from});
  const to = h('input', {type: 'date', id: 'exc-to', value: state.to});
  const table = h('select', {id: 'exc-table'}, h('option', {value: ''}, 'All tables'),
    api.tables().map(t => h('option', {value: t.id, selected: t.id === state.table ? true : null}, `${t.id} · ${t.name}`)));
  const form = h('form', {class: 'filters', 'aria-label': 'Exception filters'},
    h('div', {class: 'filter-fields'},
      h('div', {class: 'field'}, h('label', {for: 'exc-from'}, 'From'), from),
      h('div', {class: 'field'}, h('label', {for: 'exc-to'}, 'To (inclusive)'), to),
      h('div', {class: 'field'}, h('label', {for: 'exc-table'}, 'Table'), table),
      h('div', {class: 'field field-submit'}, h('button', {type: 'submit', class: 'btn btn-primary'}, 'Show'))));
  main.append(h('section', {class: 'panel', 'aria-label': 'Filters'}, h('div', {class: 'panel-body'}, form)));

  const query = (extra = {}) => api.qs({from: state.from, to: state.to, table: state.table, ...extra});   // gaming days
  const [sec, body] = section('Exceptions', {id: 'exceptions-list',
    actions: csvButton('Download CSV', () => '/reports/exceptions' + query({format: 'csv'}), 'exceptions.csv', api)});
  main.append(sec);

  async function load() {
    body.replaceChildren(h('p', {class: 'muted'}, 'Loading…'));
    try {
      const b = await api.get('/reports/exceptions' + query());
      if (!ctx.alive()) return;
      const list = [...b.exceptions].reverse();
      body.replaceChildren(
        b.truncated ? note('warn', `Only the first ${b.limit} exceptions of this range are listed; narrow the range to see the rest.`) : '',
        h('p', {class: 'muted small'}, `${list.length} exception${list.length === 1 ? '' : 's'}, newest first.`),
        dataTable([
        {label: 'Time', rowHeader: true, render: x => when(x.at, 'short')},
        {label: 'Table', render: x => x.table ? h('a', {href: `#/table/${encodeURIComponent(x.table)}`}, x.table) : '—'},
        {label: 'Round', render: x => x.round ? h('a', {href: `#/round/${x.round}`}, exceptionRound(x)) : '—'},
        {label: 'Kind', render: x => h('span', {class: 'badge badge-kind'}, label(x.kind))},
        {label: 'Detail', render: x => describeException(x), className: 'wrap'},
      ], list, {caption: 'Exceptions', empty: 'No exceptions in this range.'}));
    } catch (e) {
      if (ctx.alive()) body.replaceChildren(errorNote(e, 'Exceptions report') || '');
    }
  }

  form.addEventListener('submit', ev => {
    ev.preventDefault();
    state.from = from.value || today;
    state.to = to.value || state.from;
    state.table = table.value;
    ctx.setQuery({from: state.from, to: state.to, ...(state.table ? {table: state.table} : {})});
    load();
  });
  await load();
}
