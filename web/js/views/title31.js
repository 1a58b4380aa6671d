// title31.js - the Title 31 view (#/title31?day=D) for a gaming day
// (docs/players.md, docs/page.md "Title 31"):
//
//   one item per patron and side of the day: its alert (reached at the alert
//   limit, acknowledged with a note in a labelled box, a note required before
//   it is sent: POST /title31/acknowledgments, again and again: the later
//   acknowledgments are notes) and its CTR item when over the CTR limit, with
//   its status (open, identified, filed, amended; who and when), the due date
//   (overdue ones highlighted), the BSA id, the filing date; one history of
//   the alert's and the CTR's notes; for the cage and a pit boss "Status or
//   note" moves the CTR on (POST /title31/ctr/{id}: only the statuses allowed
//   next are offered) or adds a note;
//   the per-player cash in and cash out, summed apart and never netted;
//   the MTL entries: who recorded each, where (a table and seat, or the cage
//   and its window), its type, the patron's name and description as written
//   then; the void ones marked, and the day's voids apart;
//   a CSV download.  Then the ratings report of the same gaming day (GET
//   /reports/ratings) with its coverage: the share of the day's hands played
//   by a known player.
import * as api from '../api.js';
import {h, section, dataTable, note, facts} from '../dom.js';
import {money, moneyCell, label, when, int, percent} from '../format.js';
import {pageHeader, errorNote, csvButton, formField, refusal} from '../common.js';
import {playerLink, playerText, mayAcknowledge, duration, playersCurrency} from '../players.js';
import {sideText, whereCell, patronCell, typeName, voidMark, transactionsTable, cashRefusal} from '../cash.js';

export const name = 'title31';

/** The statuses a CTR item may move to from each (the daemon refuses the others: invalid_transition). */
const CTR_NEXT = {open: ['identified', 'filed'], identified: ['filed'], filed: ['amended'], amended: ['amended']};
const STATUS_ICON = {open: '○', identified: '◐', filed: '✔', amended: '✎'};

/**
 * The report's alerts and CTR items joined per patron and side (player and
 * direction), ordered by when the first was reached; each with one history:
 * the alert's acknowledgments and notes and the CTR's notes, oldest first.
 */
function itemsOf(b) {
  const byKey = new Map();
  const of = x => {
    const key = `${x.player}|${x.direction}`;
    if (!byKey.has(key)) byKey.set(key, {player: x.player, direction: x.direction, patron: x.patron, total: x.total, limits: b.limits});
    return byKey.get(key);
  };
  for (const a of b.alerts || []) of(a).alert = a;
  for (const c of b.ctr || []) Object.assign(of(c), {ctr: c, total: c.total, patron: c.patron || of(c).patron});
  const items = [...byKey.values()];
  for (const x of items) {
    x.history = [...(x.alert ? history(x.alert) : []), ...(x.ctr ? history(x.ctr) : [])].sort((p, q) => String(p.at).localeCompare(String(q.at)));
    x.first = [x.alert?.at, x.ctr?.at].filter(Boolean).sort()[0] || '';
  }
  return items.sort((p, q) => p.first.localeCompare(q.first));
}

function statusBadge(status) {
  return h('span', {class: `badge ${status === 'open' ? 'flag-high' : ''}`.trim(), 'data-status': status},
    h('span', {'aria-hidden': 'true'}, `${STATUS_ICON[status] || '•'} `), label(status));
}

/** A list of notes, oldest first: the note, who and when, and the status or BSA id it recorded. */
function notesList(notes) {
  if (!notes.length) return h('span', {class: 'muted'}, 'No note yet.');
  return h('ul', {class: 'notes'}, notes.map(n => h('li', {'data-note': ''},
    h('span', null, n.note || ''),
    h('small', {class: 'muted'}, ' — ', n.by, ', ', when(n.at, 'short'),
      n.status ? `, status ${label(n.status).toLowerCase()}` : '', n.bsa_id ? `, BSA id ${n.bsa_id}` : ''))));
}

/** An item's acknowledgment and notes as one history (the acknowledgment first, when not among the notes). */
function history(x) {
  const notes = [...(x.notes || [])];
  const a = x.acknowledged;
  if (a && !notes.some(n => n.at === a.at && n.by === a.by && n.note === a.note)) notes.unshift(a);
  return notes;
}

export async function render(main, params, ctx) {
  ctx.setTitle('Title 31');
  const prop = api.property();
  const cur = playersCurrency(api.tables());
  const state = {day: ctx.query.get('day') || prop?.gaming_day || ''};
  main.append(pageHeader('Title 31', {sub: 'Cash at the tables and the cage for a gaming day: the CTR items and their filing, ' +
    'the alerts, each patron\u2019s cash in and cash out (never netted), the multiple transaction log with its voids; and the day\u2019s ratings.'}));
  const day = h('input', {type: 'date', id: 't31-day', value: state.day});
  const form = h('form', {class: 'filters', 'aria-label': 'Gaming day'},
    h('div', {class: 'filter-fields'},
      h('div', {class: 'field'}, h('label', {for: 't31-day'}, 'Gaming day'), day),
      h('div', {class: 'field field-submit'}, h('button', {type: 'submit', class: 'btn btn-primary'}, 'Show'))));
  main.append(h('section', {class: 'panel', 'aria-label': 'Filters'}, h('div', {class: 'panel-body'}, form)));

  const dayQuery = (extra = {}) => api.qs({gaming_day: state.day, ...extra});
  const [itemsSec, itemsBody] = section('Alerts and CTR items, per patron and side', {id: 't31-ctr',
    actions: csvButton('Download CSV', () => '/reports/title31' + dayQuery({format: 'csv'}), 'title31.csv', api)});
  const [totSec, totBody] = section('Cash in and cash out per patron', {id: 't31-totals'});
  const [voidSec, voidBody] = section('Voided cash transactions', {id: 't31-voids'});
  const [mtlSec, mtlBody] = section('Multiple transaction log', {id: 't31-mtl'});
  const [ratSec, ratBody] = section('Ratings of the gaming day', {id: 't31-ratings',
    actions: csvButton('Download CSV', () => '/reports/ratings' + dayQuery({format: 'csv'}), 'ratings.csv', api)});
  main.append(itemsSec, totSec, mtlSec, voidSec, ratSec);
  const ctrList = h('div', {class: 'ctr-list'});
  const mover = mayAcknowledge() ? ctrForm(cur, () => loadTitle31()) : null;
  itemsBody.append(ctrList, mover ? h('div', {class: 'doc-forms'}, mover.el) : '');

  /** An item's alert: when it was reached, acknowledged or not, and for the cage and a pit boss a labelled note to add. */
  function alertCell(x) {
    const a = x.alert;
    if (!a) return h('span', {class: 'muted'}, 'No alert');
    const reached = h('small', {class: 'muted'}, 'Reached ', when(a.at, 'short'));
    const done = a.acknowledged ? h('span', {'data-ack': 'done'}, h('span', {'aria-hidden': 'true'}, '\u2714 '),
      `Acknowledged by ${a.acknowledged.by}`) : null;
    if (!mayAcknowledge()) {
      return h('span', {class: 'stack'}, done || h('span', {class: 'badge flag-high'}, h('span', {'aria-hidden': 'true'}, '\u26a0 '), 'Open'), reached);
    }
    const text = h('input', {type: 'text', name: 't31-note', maxlength: '500', required: true});
    const msg = h('span', {class: 'form-msg', role: 'status'});
    const f = h('form', {class: 'ack-form', 'data-item': `alert-${a.player}-${a.direction}`, novalidate: true},
      formField(a.acknowledged ? 'Another note' : 'Note (what was done)', text),
      h('button', {type: 'submit', class: 'btn btn-small'}, a.acknowledged ? 'Add a note' : 'Acknowledge'), msg);
    f.addEventListener('submit', async ev => {
      ev.preventDefault();
      if (!text.value.trim()) {
        msg.replaceChildren(note('warn', 'Write a note first: what was done about this alert.'));
        text.focus();
        return;
      }
      try {
        await api.send('POST', '/title31/acknowledgments', {gaming_day: state.day, player: a.player, direction: a.direction,
          kind: 'alert', note: text.value.trim()});
        loadTitle31();
      } catch (e) {
        if (e.status !== 401) msg.replaceChildren(refusal(e));
      }
    });
    return h('span', {class: 'stack'}, done, reached, f);
  }

  /** An item's CTR: its status, who moved it, due date (overdue marked), BSA id and filing date; or none yet. */
  function ctrCell(x) {
    const c = x.ctr;
    if (!c) return h('span', {class: 'muted'}, `None: not over ${money(x.limits.ctr_over, cur)}`);
    return h('span', {class: 'stack'}, statusBadge(c.status),
      c.status_by ? h('small', {class: 'muted'}, `${c.status_by}, `, when(c.status_at, 'short')) : null,
      h('small', null, `Crossed `, when(c.at, 'short')),
      h('small', null, `Due ${c.due || '\u2014'}`),
      c.overdue ? h('span', {class: 'badge flag-high', 'data-overdue': 'yes'}, h('span', {'aria-hidden': 'true'}, '\u26a0 '), 'Overdue') : null,
      c.bsa_id ? h('small', null, `BSA id ${c.bsa_id}`) : null,
      c.filed_on ? h('small', null, `Filed on ${c.filed_on}`) : null);
  }

  /** One row per patron and side: the alert and the CTR item of it together, with one history. */
  function itemsTable(items) {
    return dataTable([
      {label: 'Patron', rowHeader: true, render: x => h('span', {class: 'stack'}, playerLink(x.player, x.patron ? {name: x.patron} : null),
        x.ctr ? h('small', {class: x.ctr.identified ? 'muted' : 'voided-note', 'data-identified': x.ctr.identified ? 'yes' : 'no'},
          x.ctr.identified ? 'ID on record' : 'No ID on record') : null)},
      {label: 'Side', render: x => sideText(x.direction)},
      {label: 'Day total', num: true, render: x => h('span', {class: 'stack end'}, money(x.total, cur),
        x.ctr?.below_limit ? h('small', {class: 'badge', 'data-below': 'yes'}, 'Below the limit now (a void)') : null)},
      {label: 'Alert', className: 'notes', render: alertCell},
      {label: 'CTR', render: ctrCell},
      {label: 'History', className: 'notes', render: x => notesList(x.history)},
      ...(mover ? [{label: '', render: x => {
        if (!x.ctr) return '';
        const b = h('button', {type: 'button', class: 'btn btn-small', 'data-action': 'ctr', 'data-ctr': x.ctr.id}, 'Status or note');
        b.addEventListener('click', () => mover.open(x.ctr));
        return b;
      }}] : []),
    ], items, {caption: 'Alerts and CTR items', empty: 'No alert and no CTR item on this gaming day.',
      rowClass: x => x.ctr?.overdue ? 'row-flagged row-overdue' : x.ctr?.status === 'open' ? 'row-flagged' : null});
  }

  async function loadTitle31() {
    ctrList.replaceChildren(h('p', {class: 'muted'}, 'Loading…'));
    let b;
    try {
      b = await api.get('/reports/title31' + dayQuery());
    } catch (e) {
      if (!ctx.alive()) return;
      const n = errorNote(e, 'Title 31 report') || '';
      ctrList.replaceChildren(n);
      for (const x of [totBody, mtlBody, voidBody]) x.replaceChildren();
      return;
    }
    if (!ctx.alive()) return;
    if (!state.day) state.day = b.gaming_day;
    const lim = b.limits;
    const items = itemsOf(b);
    const table = itemsTable(items);
    for (const [i, tr] of [...table.querySelectorAll('tbody tr')].entries()) {
      tr.dataset.item = `${items[i].player}-${items[i].direction}`;
      if (items[i].ctr) tr.dataset.ctr = items[i].ctr.id;
    }
    ctrList.replaceChildren(
      h('p', {class: 'muted small'}, `Gaming day ${b.gaming_day}. A CTR item when a patron\u2019s cash in, or cash out, exceeds ` +
        `${money(lim.ctr_over, cur)}, due 15 days after the gaming day; an alert when it reaches ${money(lim.alert_at, cur)}; ` +
        `an MTL entry for each cash transaction of ${money(lim.mtl_threshold, cur)} or more.`),
      table);
    const patrons = new Map([...b.mtl, ...b.ctr, ...b.alerts].map(x => [x.counted_for || x.player, x.patron]));
    const totals = Object.entries(b.totals).map(([player, t]) => ({player, ...t}));
    totBody.replaceChildren(dataTable([
      {label: 'Patron', rowHeader: true, render: r => playerLink(r.player, patrons.get(r.player) ? {name: patrons.get(r.player)} : null)},
      {label: 'Cash in', num: true, render: r => money(r.cash_in, cur)},
      {label: 'Cash out', num: true, render: r => money(r.cash_out, cur)},
    ], totals, {caption: 'Cash in and cash out per patron', empty: 'No cash recorded on this gaming day.'}));
    const mtl = dataTable([
      {label: 'At', rowHeader: true, render: x => when(x.at, 'short')},
      {label: 'Patron', render: patronCell},
      {label: 'By', className: 'nowrap', render: x => x.by || '—'},
      {label: 'Where', render: whereCell},
      {label: 'Type', render: x => typeName(x.type)},
      {label: 'Side', render: x => sideText(x.direction)},
      {label: 'Amount', num: true, render: x => x.void ? h('del', null, money(x.amount, cur)) : money(x.amount, cur)},
      {label: 'Void', className: 'notes', render: x => x.void ? voidMark(x.void) : ''},
    ], b.mtl, {caption: 'Multiple transaction log', empty: 'No cash transaction at or above the MTL threshold.',
      rowClass: x => x.void ? 'row-voided' : null});
    for (const [i, tr] of [...mtl.querySelectorAll('tbody tr')].entries()) tr.dataset.txn = String(b.mtl[i].id);
    mtlBody.replaceChildren(mtl);
    voidBody.replaceChildren(transactionsTable(b.voids || [], cur, {caption: 'Voided cash transactions',
      empty: 'No cash transaction was voided on this gaming day.'}));
  }

  async function loadRatings() {
    ratBody.replaceChildren(h('p', {class: 'muted'}, 'Loading…'));
    let b;
    try {
      b = await api.get('/reports/ratings' + dayQuery());
    } catch (e) {
      if (ctx.alive()) ratBody.replaceChildren(errorNote(e, 'Ratings report') || '');
      return;
    }
    if (!ctx.alive()) return;
    const c = b.coverage;
    ratBody.replaceChildren(
      facts([
        ['Coverage', h('span', {'data-fig': 'coverage'}, c.share === null || c.share === undefined ? '—' : percent(c.share))],
        ['Hands', int(c.hands)],
        ['Hands by a known player', int(c.rated_hands)],
      ]),
      h('p', {class: 'muted small'}, 'Coverage: the share of the day\u2019s hands (a seat\u2019s bet in a settled round) played by a known player.'),
      dataTable([
        {label: 'Player', rowHeader: true, render: r => playerLink(r.player)},
        {label: 'Hands', num: true, render: r => int(r.hands)},
        {label: 'Time', num: true, render: r => duration(r.seconds)},
        {label: 'Wagered', num: true, render: r => money(r.wagered, cur)},
        {label: 'Average bet', num: true, render: r => money(r.average_bet, cur)},
        {label: 'Result', num: true, render: r => moneyCell(r.result, cur, {signed: true})},
        {label: 'Theoretical', num: true, render: r => money(r.theoretical, cur)},
        {label: 'Estimate', num: true, render: r => money(r.estimated_theoretical, cur)},
        {label: 'Comps', num: true, render: r => money(r.comps, cur)},
      ], b.players, {caption: 'Ratings of the gaming day', empty: 'No rated player on this gaming day.'}));
  }

  form.addEventListener('submit', ev => {
    ev.preventDefault();
    state.day = day.value || prop?.gaming_day || '';
    ctx.setQuery(state.day ? {day: state.day} : {});
    loadTitle31();
    loadRatings();
  });
  await Promise.all([loadTitle31(), loadRatings()]);
}

/**
 * The form that moves a CTR item on, in a box a row's "Status or note"
 * opens (open(item)): the statuses allowed next from the item's, the BSA
 * id and filing date for a filing or an amendment, and the note (alone: a
 * note).  done() after the daemon recorded it.
 */
function ctrForm(cur, done) {
  let item = null;
  const which = h('p', {class: 'muted small', 'data-ctr-which': ''}, 'Choose a CTR item above.');
  const status = h('select', {name: 'ctr-status'});
  const bsa = h('input', {type: 'text', name: 'ctr-bsa', maxlength: '64', autocomplete: 'off', spellcheck: 'false'});
  const filedOn = h('input', {type: 'date', name: 'ctr-filed-on'});
  const text = h('textarea', {name: 'ctr-note', rows: '2', maxlength: '500'});
  const filing = h('div', {class: 'doc-form', 'data-filing': ''}, formField('BSA id', bsa, 'The BSA identifier FinCEN gave the filed report.'),
    formField('Filed on', filedOn, 'Left empty: today.'));
  const showFiling = () => { filing.hidden = !['filed', 'amended'].includes(status.value); };
  status.addEventListener('change', showFiling);
  const msg = h('div', {class: 'form-msg', role: 'status', 'aria-live': 'polite'});
  const btn = h('button', {type: 'submit', class: 'btn btn-primary'}, 'Record');
  const form = h('form', {class: 'doc-form', 'data-form': 'ctr', 'aria-label': 'A CTR item\u2019s status or a note', novalidate: true},
    which, formField('Status', status), filing, formField('Note', text, 'What was done: required, and kept in the item\u2019s history.'),
    h('div', {class: 'field-submit'}, btn), msg);
  form.addEventListener('submit', async ev => {
    ev.preventDefault();
    if (!item) { msg.replaceChildren(note('warn', 'Choose a CTR item above first.')); return; }
    if (!text.value.trim()) { msg.replaceChildren(note('warn', 'Write a note: what was done.')); text.focus(); return; }
    const body = {note: text.value.trim()};
    if (status.value) body.status = status.value;
    if (!filing.hidden && bsa.value.trim()) body.bsa_id = bsa.value.trim();
    if (!filing.hidden && filedOn.value) body.filed_on = filedOn.value;
    btn.disabled = true;
    msg.replaceChildren('Recording…');
    try {
      const a = await api.send('POST', `/title31/ctr/${encodeURIComponent(item.id)}`, body);
      text.value = '';
      bsa.value = '';
      filedOn.value = '';
      msg.replaceChildren(note('ok', body.status
        ? `CTR item ${a.id} is now ${label(a.status).toLowerCase()}${a.bsa_id ? ` (BSA id ${a.bsa_id})` : ''}.`
        : `Note added to CTR item ${a.id}.`));
      open(a);
      done(a);
    } catch (e) {
      if (e.status !== 401) msg.replaceChildren(cashRefusal(e, item.player, 'Identifying or filing this CTR item'));
    } finally {
      btn.disabled = false;
    }
  });
  const box = h('details', {class: 'doc-form-box', 'data-box': 'ctr'}, h('summary', null, 'A CTR item\u2019s status or a note'), form);
  function open(x) {
    item = x;
    which.textContent = `CTR item ${x.id}: ${playerText(x.patron ? {id: x.player, name: x.patron} : x.player)}, ${sideText(x.direction).toLowerCase()} of ${money(x.total, cur)}, ` +
      `${label(x.status).toLowerCase()}${x.bsa_id ? `, BSA id ${x.bsa_id}` : ''}.`;
    status.replaceChildren(h('option', {value: ''}, 'No change: a note'),
      ...(CTR_NEXT[x.status] || []).map(s => h('option', {value: s}, label(s))));
    showFiling();
  }
  return {
    el: box,
    open(x) {
      box.open = true;
      msg.replaceChildren();
      open(x);
      status.focus();
    },
  };
}
