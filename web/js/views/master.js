// master.js - the master game report: per table and in total, the gaming
// day's (or a shift's) counted win from the accounting documents against
// the hand win of the rounds between the opener and the closer, the
// variance, flagged rows highlighted, incomplete rows (no opener or no
// closer) marked, what explains each variance (mispays, voids, pending
// slips, the openers' discrepancies kept apart, the rest unexplained) and
// its investigation, whose next step a floor supervisor or pit boss records
// here (docs/accounting.md); a CSV download; and the accounting exceptions
// of that day (inventory discrepancies, count variances, serial exceptions)
// with their acknowledgment, which a pit boss gives with a note (a serial
// exception is explained instead: a pit boss or a cashier with a witness,
// then it shows its explanation), and the slips still pending (issued at
// the cage, not received at the table).
import * as api from '../api.js';
import * as session from '../session.js';
import {h, section, dataTable, note} from '../dom.js';
import {money, moneyCell, percent, when, label} from '../format.js';
import {pageHeader, errorNote, csvButton, witnessFields, refusal, formField} from '../common.js';
import {describeException} from '../exception-text.js';

export const name = 'master';

const KINDS = ['inventory_discrepancy', 'count_variance', 'pending_slip', 'serial_gap'];

function pct(x) {
  return x === null || x === undefined ? '—' : `${Number(x).toFixed(2)}%`;
}

/** A row with no document at all: nothing was counted at the table. */
function undocumented(r) {
  const d = r.documents;
  return !!d && !d.opener && !d.segments && !d.fills && !d.credits && !d.drops && !(r.out_of_order || []).length;
}

function flagBadge(r) {
  if (undocumented(r)) return h('span', {class: 'muted', 'data-complete': 'false'}, 'No documents');
  if (r.complete === false) {
    return h('span', {class: 'badge badge-closed', 'data-complete': 'false', title: 'No opener or no closer: the count is not complete'}, 'Incomplete');
  }
  return r.flagged
    ? h('span', {class: 'badge flag-high', title: 'Variance at or beyond the thresholds'}, h('span', {'aria-hidden': 'true'}, '⚠ '), 'Flagged')
    : h('span', {class: 'muted'}, 'OK');
}

const EXPLAINED = [['mispays', 'Mispays'], ['voids', 'Voids'], ['pending_slips', 'Pending slips'], ['discrepancies', 'Discrepancies (apart)']];

/** What explains a row's variance: the parts that are not 0, and the unexplained rest. */
function explainedCell(r, cur) {
  const e = r.explained;
  if (!e || (r.complete === false && !EXPLAINED.some(([k]) => e[k]))) return '—';
  const parts = EXPLAINED.filter(([k]) => e[k]).map(([k, text]) =>
    h('span', {'data-explained': k}, `${text} ${money(e[k], cur, {signed: true})}`));
  parts.push(h('span', {'data-explained': 'unexplained', class: e.unexplained ? 'strong' : 'muted'},
    e.unexplained === null ? 'Unexplained —' : `Unexplained ${money(e.unexplained, cur, {signed: true})}`));
  return h('span', {class: 'stack'}, parts);
}

const NEXT = {none: 'assigned', assigned: 'cause_found', cause_found: 'resolved'};

export async function render(main, params, ctx) {
  ctx.setTitle('Master game');
  const prop = api.property();
  const q = ctx.query;
  const state = {day: q.get('day') || prop?.gaming_day || '', shift: q.get('shift') || ''};
  main.append(pageHeader('Master game', {sub: 'The count against the hands, per table: opener, closer, fills, credits, drop, win and its variance from the hand win.'}));

  const day = h('input', {type: 'date', id: 'mg-day', value: state.day});
  const shift = h('select', {id: 'mg-shift'}, h('option', {value: ''}, 'Whole gaming day'),
    (prop?.shifts || []).map(s => h('option', {value: s.name, selected: s.name === state.shift ? true : null}, `${label(s.name)} (from ${s.start})`)));
  const form = h('form', {class: 'filters', 'aria-label': 'Master game filters'},
    h('div', {class: 'filter-fields'},
      h('div', {class: 'field'}, h('label', {for: 'mg-day'}, 'Gaming day'), day),
      h('div', {class: 'field'}, h('label', {for: 'mg-shift'}, 'Shift'), shift),
      h('div', {class: 'field field-submit'}, h('button', {type: 'submit', class: 'btn btn-primary'}, 'Show'))));
  main.append(h('section', {class: 'panel', 'aria-label': 'Filters'}, h('div', {class: 'panel-body'}, form)));

  const query = (extra = {}) => api.qs({gaming_day: state.day, shift: state.shift, ...extra});
  const [sec, body] = section('Master game report', {id: 'master-game',
    actions: csvButton('Download CSV', () => '/reports/master-game' + query({format: 'csv'}), 'master-game.csv', api)});
  const [exSec, exBody] = section('Accounting exceptions', {id: 'master-exceptions'});
  main.append(sec, exSec);

  async function loadReport() {
    body.replaceChildren(h('p', {class: 'muted'}, 'Loading…'));
    let b;
    try {
      b = await api.get('/reports/master-game' + query());
    } catch (e) {
      if (ctx.alive()) body.replaceChildren(errorNote(e, 'Master game report') || '');
      return;
    }
    if (!ctx.alive()) return;
    const curOf = r => (r === b.total ? api.tables()[0]?.currency : api.currencyOf(r.table)) || 'USD';
    const m = (k, signed = false) => r => (r[k] === null || r[k] === undefined ? '—' : signed ? moneyCell(r[k], curOf(r), {signed}) : money(r[k], curOf(r)));
    body.replaceChildren(
      h('p', {class: 'muted small'}, `Gaming day ${b.gaming_day}${b.shift ? `, ${b.shift} shift` : ''} (${b.time_zone}). ` +
        `Flagged at a variance of ${money(b.thresholds.variance, curOf(b.total))} or ${b.thresholds.variance_percent}% of the drop.`),
      dataTable([
        {label: 'Table', rowHeader: true, render: r => r === b.total ? 'Total'
          : h('a', {href: `#/table/${encodeURIComponent(r.table)}`}, `${r.table}${r.player_banked ? ' (player-banked)' : ''}`)},
        {label: 'Opener', num: true, render: m('opener')},
        {label: 'Closer', num: true, render: m('closer')},
        {label: 'Fills', num: true, render: m('fills')},
        {label: 'Credits', num: true, render: m('credits')},
        {label: 'Drop', num: true, render: m('drop')},
        {label: 'Win', num: true, render: m('win', true)},
        {label: 'Win/drop', num: true, render: r => percent(r.win_per_drop, true)},
        {label: 'Hand win', num: true, render: m('hand_win', true)},
        {label: 'Variance', num: true, render: m('variance', true)},
        {label: 'Variance %', num: true, render: r => pct(r.variance_percent)},
        {label: 'Flag', render: r => flagBadge(r)},
        {label: 'Explained', className: 'explain', render: r => explainedCell(r, curOf(r))},
        {label: 'Investigation', className: 'explain', render: r => r === b.total ? '' : investigationCell(r, b.gaming_day)},
      ], b.tables, {caption: 'Master game report', empty: 'No tables in this report.', foot: b.total,
        rowClass: r => r.flagged ? 'row-flagged' : r.complete === false ? 'row-incomplete' : null}));
    body.querySelector('tfoot tr')?.classList.toggle('row-flagged', !!b.total.flagged);
  }

  async function loadExceptions() {
    exBody.replaceChildren(h('p', {class: 'muted'}, 'Loading…'));
    let b;
    try {
      b = await api.get('/reports/exceptions' + api.qs({from: state.day, to: state.day}));
    } catch (e) {
      if (ctx.alive()) exBody.replaceChildren(errorNote(e, 'Exceptions report') || '');
      return;
    }
    if (!ctx.alive()) return;
    const list = b.exceptions.filter(x => KINDS.includes(x.kind));
    const mayAck = (session.current()?.person.roles || []).includes('pitboss');
    exBody.replaceChildren(dataTable([
      {label: 'Time', rowHeader: true, render: x => when(x.at, 'short')},
      {label: 'Table', render: x => x.table ? h('a', {href: `#/table/${encodeURIComponent(x.table)}`}, x.table) : '—'},
      {label: 'Kind', render: x => h('span', {class: 'badge badge-kind'}, label(x.kind))},
      {label: 'Detail', className: 'wrap', render: x => describeException(x)},
      {label: 'Acknowledgment', className: 'wrap', render: x => ackCell(x, mayAck)},
    ], list, {caption: 'Accounting exceptions',
      empty: 'No inventory discrepancy, count variance, pending slip or serial exception on this gaming day.'}));
  }

  /**
   * A row's investigation: its status, assignee and cause; for a floor supervisor or pit boss, the form
   * of its next step (assigned, cause found, resolved with a second person) while its variance stands.
   */
  function investigationCell(r, gamingDay) {
    const inv = r.investigation;
    const state = inv ? h('span', {class: 'stack', 'data-investigation': inv.status},
      h('span', null, label(inv.status), inv.assignee ? ` · ${inv.assignee}` : ''),
      inv.cause ? h('small', {class: 'muted'}, inv.cause) : null) : h('span', {class: 'muted'}, r.variance ? 'Not investigated' : '—');
    const roles = session.current()?.person.roles || [];
    const next = NEXT[inv ? inv.status : 'none'];
    if (!next || !r.complete || !r.variance || !(roles.includes('floor') || roles.includes('pitboss'))) return state;
    const status = h('select', {name: 'inv-status', 'aria-label': `Step for ${r.table}`},
      (inv?.status === 'assigned' ? ['assigned', 'cause_found'] : [next]).map(v => h('option', {value: v, selected: v === next ? true : null}, label(v))));
    const assignee = h('input', {type: 'text', name: 'inv-assignee', maxlength: '32'});
    const cause = h('input', {type: 'text', name: 'inv-cause', maxlength: '500'});
    const text = h('input', {type: 'text', name: 'inv-note', maxlength: '500'});
    const w = witnessFields('var');
    const msg = h('span', {class: 'form-msg', role: 'status'});
    const f = h('form', {class: 'inv-form', 'data-table': r.table}, formField('Step', status), formField('Assignee (person id)', assignee),
      formField('Cause', cause), formField('Note', text), w.el,
      h('button', {type: 'submit', class: 'btn btn-small'}, 'Record'), msg);
    f.addEventListener('submit', async ev => {
      ev.preventDefault();
      const body = {status: status.value, note: text.value.trim()};
      if (assignee.value.trim()) body.assignee = assignee.value.trim();
      if (cause.value.trim()) body.cause = cause.value.trim();
      if (w.read().person) body.witness = w.read();
      w.clear();
      try {
        await api.send('POST', `/variances/${encodeURIComponent(r.table)}/${gamingDay}`, body);
        loadReport();
        loadExceptions();
      } catch (e) {
        if (e.status !== 401) msg.replaceChildren(refusal(e));
      }
    });
    return h('span', {class: 'stack'}, state, h('details', {class: 'inv-step'}, h('summary', null, 'Investigate'), f));
  }

  /**
   * The Explain action of a serial exception (a pit boss's or a cashier's session): a note, the table and the
   * serial's year (the exception's by default), a floor supervisor's or pit boss's witness; the exception then
   * shows its explanation (POST /serials/{fill|credit}/{serial}/explanation).
   */
  function explainForm(x) {
    const text = h('input', {type: 'text', name: 'serial-note', maxlength: '500',
      'aria-label': `Explanation of ${x.slip} ${x.ref}`, placeholder: 'What became of these serials'});
    const table = h('select', {name: 'serial-table', 'aria-label': 'Table'},
      api.tables().map(t => h('option', {value: t.id, selected: t.id === x.table ? true : null}, t.id)));
    const year = h('input', {type: 'number', name: 'serial-year', min: '2000', max: '9999', step: '1',
      value: String(x.year), 'aria-label': 'Year of the serial'});
    const w = witnessFields('serial');
    const msg = h('span', {class: 'form-msg', role: 'status'});
    const f = h('form', {class: 'serial-form', 'data-serial': x.ref},
      formField('Note', text), formField('Table', table), formField('Year', year), w.el,
      h('button', {type: 'submit', class: 'btn btn-small'}, 'Explain'), msg);
    f.addEventListener('submit', async ev => {
      ev.preventDefault();
      const body = {note: text.value.trim(), witness: w.read(), table: table.value, year: Number(year.value)};
      w.clear();
      try {
        await api.send('POST', `/serials/${encodeURIComponent(x.slip)}/${encodeURIComponent(x.ref)}/explanation`, body);
        loadExceptions();
      } catch (e) {
        if (e.status !== 401) msg.replaceChildren(refusal(e));
      }
    });
    return h('details', {class: 'serial-explain', 'data-ref': x.ref}, h('summary', null, 'Explain'), f);
  }

  /** The acknowledgment of an exception, or (for a pit boss) a note and an Acknowledge button. */
  function ackCell(x, mayAck) {
    if (x.kind === 'pending_slip') return h('span', {class: 'muted'}, 'To be received at the table, or voided');
    if (x.kind === 'serial_gap') {       // accounted for by a void or an explanation with a witness, not acknowledged
      const e = x.explained;
      if (e) {
        return h('span', {class: 'stack', 'data-ack': 'done'},
          h('span', null, h('span', {'aria-hidden': 'true'}, '✔ '), `Explained by ${e.by} (witness ${e.witness})`,
            e.table ? ` for ${e.table}` : ''),
          h('small', {class: 'muted'}, when(e.at, 'short'), ` — ${e.note}`));
      }
      const status = h('span', {class: 'muted'}, 'Not accounted for: void the slip, or explain it with a witness');
      const roles = session.current()?.person.roles || [];
      const mayExplain = roles.includes('pitboss') || roles.includes('cage');
      return mayExplain ? h('span', {class: 'stack'}, status, explainForm(x)) : status;
    }
    if (x.acknowledged) {
      return h('span', {class: 'stack', 'data-ack': 'done'}, h('span', null, h('span', {'aria-hidden': 'true'}, '✔ '),
        `Acknowledged by ${x.acknowledged.by}`), h('small', {class: 'muted'}, when(x.acknowledged.at, 'short'), ` — ${x.acknowledged.note}`));
    }
    if (!mayAck) return h('span', {class: 'muted'}, 'Not acknowledged');
    const text = h('input', {type: 'text', name: 'ack-note', maxlength: '500', required: true,
      title: `Note for ${label(x.kind).toLowerCase()} at ${x.table}`});
    const msg = h('span', {class: 'form-msg', role: 'status'});
    const f = h('form', {class: 'ack-form', 'data-ref': x.ref, novalidate: true},
      formField('Note (what was done)', text), h('button', {type: 'submit', class: 'btn btn-small'}, 'Acknowledge'), msg);
    f.addEventListener('submit', async ev => {
      ev.preventDefault();
      if (!text.value.trim()) {
        msg.replaceChildren(note('warn', 'Write a note first: what was done about it.'));
        text.focus();
        return;
      }
      try {
        await api.send('POST', '/exceptions/acknowledgments', {kind: x.kind, table: x.table, ref: String(x.ref), note: text.value.trim()});
        loadExceptions();
      } catch (e) {
        if (e.status !== 401) msg.replaceChildren(refusal(e));
      }
    });
    return f;
  }

  form.addEventListener('submit', ev => {
    ev.preventDefault();
    state.day = day.value || prop?.gaming_day || '';
    state.shift = shift.value;
    ctx.setQuery({...(state.day ? {day: state.day} : {}), ...(state.shift ? {shift: state.shift} : {})});
    loadReport();
    loadExceptions();
  });
  if (!prop) main.prepend(note('info', 'This server does not say its gaming day or shifts; the report shows its current gaming day.'));
  await Promise.all([loadReport(), loadExceptions()]);
}
