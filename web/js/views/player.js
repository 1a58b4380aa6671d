// player.js - one player (#/players/P1): the record as the reader may read
// it (GET /players/{id}: the personal fields only when the daemon gives
// them), the seat sessions from its seatings, and the rating over a range
// (GET /players/{id}/rating?from&to): hands, time, wagered, average bet,
// result, the exact theoretical win beside the conventional estimate, and
// comps (docs/players.md, "Rated play, exact").
import * as api from '../api.js';
import {h, section, dataTable, facts, note} from '../dom.js';
import {money, moneyCell, label, when, int} from '../format.js';
import {pageHeader, errorNote, dayStartISO, dayEndISO} from '../common.js';
import {playerName, anonymousBadge, duration, playersCurrency} from '../players.js';

export const name = 'player';

// The record's fields in the order shown; only those the answer carries are shown.
const FIELDS = [['card', 'Card'], ['name', 'Name'], ['display', 'Shown to the dealer as'], ['description', 'Description'],
  ['date_of_birth', 'Date of birth'], ['id_type', 'ID type'], ['id_number', 'ID number'], ['id_issuer', 'ID issued by'],
  ['id_expiry', 'ID expires'], ['address', 'Address']];

/** Seat sessions from the seatings ([{table, seat, seated, at}] in order): a sitting down and the leaving after it. */
export function sessionsOf(seatings) {
  const open = new Map(), out = [];
  for (const s of seatings || []) {
    const key = `${s.table}/${s.seat}`;
    if (s.seated) {
      const x = {table: s.table, seat: s.seat, from: s.at, to: null};
      open.set(key, x);
      out.push(x);
    } else if (open.has(key)) {
      open.get(key).to = s.at;
      open.delete(key);
    }
  }
  return out.reverse();
}

export async function render(main, params, ctx) {
  const id = params.player;
  ctx.setTitle(`Player ${id}`);
  let p;
  try {
    p = await api.get(`/players/${encodeURIComponent(id)}`);
  } catch (e) {
    if (!ctx.alive()) return;
    main.append(pageHeader(`Player ${id}`, {crumbs: [['Players', '#/players'], [id]]}),
      e.status === 404 ? note('warn', `There is no player “${id}”. `, h('a', {href: '#/players'}, 'Find a player'), '.') : errorNote(e, 'Player') || '');
    return;
  }
  if (!ctx.alive()) return;
  const cur = playersCurrency(api.tables());
  const personal = !('display' in p);   // a reader without the personal roles gets a display instead
  main.append(pageHeader(`${p.id} · ${playerName(p)}`, {crumbs: [['Players', '#/players'], [p.id]],
    sub: h('span', {class: 'inline-list'}, anonymousBadge(p), p.anonymous ? ' ' : '',
      personal ? 'The whole record (your roles read personal data).' : 'What a dealer or the count team reads of the record: no personal data.')}));

  const [recSec, recBody] = section('Record', {id: 'player-record'});
  recBody.append(facts([
    ['Player', p.id],
    ...FIELDS.filter(([k]) => p[k] !== undefined && p[k] !== null).map(([k, l]) => [l, String(p[k])]),
    p.created_at ? ['Registered', when(p.created_at, 'short')] : null,
    p.updated_at ? ['Changed', when(p.updated_at, 'short')] : null,
  ]));
  const sessions = sessionsOf(p.seatings);
  const [sesSec, sesBody] = section('Seat sessions', {id: 'player-sessions'});
  sesBody.append(dataTable([
    {label: 'Table', rowHeader: true, render: s => h('a', {href: `#/table/${encodeURIComponent(s.table)}`}, s.table)},
    {label: 'Seat', num: true, render: s => int(s.seat)},
    {label: 'Sat down', render: s => when(s.from, 'short')},
    {label: 'Left', render: s => s.to ? when(s.to, 'short') : h('strong', null, 'Seated now')},
    {label: 'Time', num: true, render: s => duration(((s.to ? Date.parse(s.to) : Date.now()) - Date.parse(s.from)) / 1000)},
  ], sessions, {caption: 'Seat sessions, newest first', empty: 'Never seated.'}));
  main.append(h('div', {class: 'grid-2'}, recSec, sesSec));

  // The rating over a range of local days; no range: all his play.
  const q = ctx.query;
  const from = h('input', {type: 'date', id: 'rating-from', value: q.get('from') || ''});
  const to = h('input', {type: 'date', id: 'rating-to', value: q.get('to') || ''});
  const form = h('form', {class: 'filters', 'aria-label': 'Rating range'},
    h('div', {class: 'filter-fields'},
      h('div', {class: 'field'}, h('label', {for: 'rating-from'}, 'From'), from),
      h('div', {class: 'field'}, h('label', {for: 'rating-to'}, 'To'), to),
      h('div', {class: 'field field-submit'}, h('button', {type: 'submit', class: 'btn btn-primary'}, 'Show rating'))));
  const [ratSec, ratBody] = section('Rating', {id: 'player-rating'});
  main.append(ratSec);
  ratSec.querySelector('.panel-body').before(h('div', {class: 'panel-body'}, form));

  async function loadRating() {
    ratBody.replaceChildren(h('p', {class: 'muted'}, 'Loading…'));
    const range = {from: from.value ? dayStartISO(from.value) : '', to: to.value ? dayEndISO(to.value) : ''};
    let r;
    try {
      r = await api.get(`/players/${encodeURIComponent(p.id)}/rating` + api.qs(range));
    } catch (e) {
      if (ctx.alive()) ratBody.replaceChildren(errorNote(e, 'Rating') || '');
      return;
    }
    if (!ctx.alive()) return;
    const diff = r.theoretical - r.estimated_theoretical;
    const fig = (k, v, title) => h('div', {class: 'fact', 'data-fig': k, title}, h('dt', null, title ? title.split(':')[0] : k), h('dd', null, v));
    ratBody.replaceChildren(
      h('p', {class: 'muted small'}, r.from || r.to ? `Rounds settled from ${r.from ? new Date(r.from).toLocaleString() : 'the start'} ` +
        `to ${r.to ? new Date(r.to).toLocaleString() : 'now'}.` : 'All his play.'),
      h('dl', {class: 'facts rating'},
        fig('hands', int(r.hands), 'Hands: settled rounds in which his seat had a payout line'),
        fig('seconds', duration(r.seconds), 'Time seated: within the range'),
        fig('wagered', money(r.wagered, cur), 'Wagered: every stake, Play included, returned ones left out'),
        fig('average_bet', money(r.average_bet, cur), 'Average bet: Ante + Pair Plus + 6 Card per hand'),
        fig('result', moneyCell(r.result, cur, {signed: true}), 'Result: the player\u2019s net (positive: he won)'),
        fig('theoretical', money(r.theoretical, cur), 'Theoretical win: each stake × its wager\u2019s exact edge'),
        fig('estimated_theoretical', money(r.estimated_theoretical, cur), 'Conventional estimate: average bet × hands × the Ante/Play edge'),
        fig('difference', moneyCell(diff, cur, {signed: true}), 'Exact − estimate: how far the estimate is from his own choices'),
        fig('comps', money(r.comps, cur), 'Comps: the configured share of the theoretical win')),
      r.wagered_by_wager ? dataTable([
        {label: 'Wager', rowHeader: true, render: w => label(w[0])},
        {label: 'Wagered', num: true, render: w => money(w[1], cur)},
      ], Object.entries(r.wagered_by_wager), {caption: 'Wagered by wager'}) : '');
  }
  form.addEventListener('submit', ev => {
    ev.preventDefault();
    ctx.setQuery({...(from.value ? {from: from.value} : {}), ...(to.value ? {to: to.value} : {})});
    loadRating();
  });
  await loadRating();
}
