// title31.js - the Title 31 view (#/title31?day=D) for a gaming day
// (docs/players.md): the alerts and CTR items with their state, and for the
// cage and a pit boss a note and "Acknowledge" (POST
// /title31/acknowledgments); the per-player cash in and cash out, summed
// apart and never netted; the MTL entries; a CSV download.  Then the
// ratings report of the same gaming day (GET /reports/ratings) with its
// coverage: the share of the day's hands played by a known player.
import * as api from '../api.js';
import {h, section, dataTable, note, facts} from '../dom.js';
import {money, moneyCell, label, when, int, percent} from '../format.js';
import {pageHeader, errorNote, csvButton} from '../common.js';
import {playerLink, mayAcknowledge, duration, playersCurrency} from '../players.js';

export const name = 'title31';

function directionText(d) {
  return d === 'in' ? 'Cash in' : d === 'out' ? 'Cash out' : label(d);
}

export async function render(main, params, ctx) {
  ctx.setTitle('Title 31');
  const prop = api.property();
  const cur = playersCurrency(api.tables());
  const state = {day: ctx.query.get('day') || prop?.gaming_day || ''};
  main.append(pageHeader('Title 31', {sub: 'Cash at the tables for a gaming day: the CTR items and alerts, each patron\u2019s cash in and cash out (never netted), the multiple transaction log; and the day\u2019s ratings.'}));
  const day = h('input', {type: 'date', id: 't31-day', value: state.day});
  const form = h('form', {class: 'filters', 'aria-label': 'Gaming day'},
    h('div', {class: 'filter-fields'},
      h('div', {class: 'field'}, h('label', {for: 't31-day'}, 'Gaming day'), day),
      h('div', {class: 'field field-submit'}, h('button', {type: 'submit', class: 'btn btn-primary'}, 'Show'))));
  main.append(h('section', {class: 'panel', 'aria-label': 'Filters'}, h('div', {class: 'panel-body'}, form)));

  const dayQuery = (extra = {}) => api.qs({gaming_day: state.day, ...extra});
  const [itemsSec, itemsBody] = section('CTR items and alerts', {id: 't31-items',
    actions: csvButton('Download CSV', () => '/reports/title31' + dayQuery({format: 'csv'}), 'title31.csv', api)});
  const [totSec, totBody] = section('Cash in and cash out per patron', {id: 't31-totals'});
  const [mtlSec, mtlBody] = section('Multiple transaction log', {id: 't31-mtl'});
  const [ratSec, ratBody] = section('Ratings of the gaming day', {id: 't31-ratings',
    actions: csvButton('Download CSV', () => '/reports/ratings' + dayQuery({format: 'csv'}), 'ratings.csv', api)});
  main.append(itemsSec, h('div', {class: 'grid-2'}, totSec, mtlSec), ratSec);

  function ackCell(x, kind) {
    if (x.acknowledged) {
      return h('span', {class: 'stack', 'data-ack': 'done'}, h('span', null, h('span', {'aria-hidden': 'true'}, '✔ '),
        `Acknowledged by ${x.acknowledged.by}`), h('small', {class: 'muted'}, when(x.acknowledged.at, 'short'), ` — ${x.acknowledged.note}`));
    }
    if (!mayAcknowledge()) return h('span', {class: 'badge flag-high'}, h('span', {'aria-hidden': 'true'}, '⚠ '), 'Open');
    const text = h('input', {type: 'text', name: 't31-note', maxlength: '500', 'aria-label': `Note for the ${kind} of ${x.player}, ${directionText(x.direction)}`});
    const msg = h('span', {class: 'form-msg', role: 'status'});
    const f = h('form', {class: 'ack-form', 'data-item': `${kind}-${x.player}-${x.direction}`}, text,
      h('button', {type: 'submit', class: 'btn btn-small'}, 'Acknowledge'), msg);
    f.addEventListener('submit', async ev => {
      ev.preventDefault();
      try {
        await api.send('POST', '/title31/acknowledgments', {gaming_day: state.day, player: x.player, direction: x.direction,
          kind, note: text.value.trim()});
        loadTitle31();
      } catch (e) {
        if (e.status !== 401) msg.replaceChildren(note('error', h('strong', null, 'Refused: '), e.message, e.code ? ` (${e.code})` : ''));
      }
    });
    return f;
  }

  async function loadTitle31() {
    itemsBody.replaceChildren(h('p', {class: 'muted'}, 'Loading…'));
    let b;
    try {
      b = await api.get('/reports/title31' + dayQuery());
    } catch (e) {
      if (!ctx.alive()) return;
      const n = errorNote(e, 'Title 31 report') || '';
      itemsBody.replaceChildren(n);
      totBody.replaceChildren();
      mtlBody.replaceChildren();
      return;
    }
    if (!ctx.alive()) return;
    if (!state.day) state.day = b.gaming_day;
    const items = [...b.ctr.map(x => ({...x, kind: 'ctr'})), ...b.alerts.map(x => ({...x, kind: 'alert'}))];
    const lim = b.limits;
    itemsBody.replaceChildren(
      h('p', {class: 'muted small'}, `Gaming day ${b.gaming_day}. A CTR item when a patron\u2019s cash in, or cash out, exceeds ` +
        `${money(lim.ctr_over, cur)}; an alert when it reaches ${money(lim.alert_at, cur)}; an MTL entry for each cash transaction ` +
        `of ${money(lim.mtl_threshold, cur)} or more.`),
      dataTable([
        {label: 'Item', rowHeader: true, render: x => x.kind === 'ctr'
          ? h('span', {class: 'badge flag-high'}, h('span', {'aria-hidden': 'true'}, '⚑ '), 'CTR')
          : h('span', {class: 'badge'}, h('span', {'aria-hidden': 'true'}, '⚠ '), 'Alert')},
        {label: 'Patron', render: x => h('span', {class: 'stack'}, playerLink(x.player), h('small', null, x.patron || ''))},
        {label: 'Side', render: x => directionText(x.direction)},
        {label: 'Day total', num: true, render: x => money(x.total, cur)},
        {label: 'Crossed at', render: x => when(x.at, 'short')},
        {label: 'State', className: 'wrap', render: x => ackCell(x, x.kind)},
      ], items, {caption: 'CTR items and alerts', empty: 'No CTR item or alert on this gaming day.',
        rowClass: x => x.kind === 'ctr' && !x.acknowledged ? 'row-flagged' : null}));
    const patrons = new Map([...b.mtl, ...b.ctr, ...b.alerts].map(x => [x.player, x.patron]));
    const totals = Object.entries(b.totals).map(([player, t]) => ({player, ...t}));
    totBody.replaceChildren(dataTable([
      {label: 'Patron', rowHeader: true, render: r => h('span', {class: 'stack'}, playerLink(r.player), patrons.get(r.player) ? h('small', null, patrons.get(r.player)) : null)},
      {label: 'Cash in', num: true, render: r => money(r.cash_in, cur)},
      {label: 'Cash out', num: true, render: r => money(r.cash_out, cur)},
    ], totals, {caption: 'Cash in and cash out per patron', empty: 'No cash recorded at the tables on this gaming day.'}));
    mtlBody.replaceChildren(dataTable([
      {label: 'At', rowHeader: true, render: x => when(x.at, 'short')},
      {label: 'Patron', render: x => h('span', {class: 'stack'}, playerLink(x.player), h('small', null, x.patron || ''))},
      {label: 'Table', render: x => h('a', {href: `#/table/${encodeURIComponent(x.table)}`}, x.table)},
      {label: 'Side', render: x => directionText(x.direction)},
      {label: 'Amount', num: true, render: x => money(x.amount, cur)},
    ], b.mtl, {caption: 'Multiple transaction log', empty: 'No cash transaction at or above the MTL threshold.'}));
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
