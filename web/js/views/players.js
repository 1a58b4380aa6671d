// players.js - the Players view (#/players?card=&name=): who is seated at
// the tables now (GET /tables/{t}/seats of every table), and a search by
// card or by a part of the name (GET /players?card=&name=; by name for the
// roles that read personal data), and for the cage, the floor and a pit boss
// a named player registered (card and name; the cage adds his
// identification), then opened on his page.  A seated patron near a Title 31
// limit is marked.  Each player links to his page.
import * as api from '../api.js';
import {h, section, dataTable, note} from '../dom.js';
import {pageHeader, errorNote} from '../common.js';
import {playerLink, anonymousBadge, maySearchByName, mayRegister, mayCage, playersCurrency} from '../players.js';
import {nearLimitMark} from '../cash.js';
import {registerForm} from '../register.js';

export const name = 'players';

export async function render(main, params, ctx) {
  ctx.setTitle('Players');
  main.append(pageHeader('Players', {sub: 'Who sits at the tables now, and a search by card or name. Open a player for his sessions and rating.'}));
  const q = ctx.query;
  const card = h('input', {type: 'text', id: 'pl-card', name: 'card', maxlength: '32', spellcheck: 'false', value: q.get('card') || ''});
  const byName = maySearchByName();
  const nameIn = h('input', {type: 'text', id: 'pl-name', name: 'name', maxlength: '200', value: q.get('name') || ''});
  const form = h('form', {class: 'filters', 'aria-label': 'Find a player'},
    h('div', {class: 'filter-fields'},
      h('div', {class: 'field'}, h('label', {for: 'pl-card'}, 'Card'), card),
      byName ? h('div', {class: 'field'}, h('label', {for: 'pl-name'}, 'Name (or a part of it)'), nameIn) : null,
      h('div', {class: 'field field-submit'}, h('button', {type: 'submit', class: 'btn btn-primary'}, 'Search'))));
  const [foundSec, foundBody] = section('Search', {id: 'players-found'});
  foundBody.append(form);
  const results = h('div', {class: 'players-results', 'aria-live': 'polite'});
  foundBody.append(results);
  const [seatedSec, seatedBody] = section('Seated now', {id: 'players-seated'});
  main.append(foundSec, seatedSec);
  if (mayRegister()) {
    const [regSec, regBody] = section('Register a player', {id: 'players-register'});
    regBody.append(registerForm('pl-reg', {identification: mayCage(),
      registered: p => { location.hash = `#/players/${encodeURIComponent(p.id)}`; }}));
    foundSec.after(regSec);
  }
  const cur = playersCurrency(api.tables());

  const playerCols = [
    {label: 'Player', rowHeader: true, render: p => h('span', null, playerLink(p.id, p), ' ', anonymousBadge(p))},
    {label: 'Card', render: p => p.card || '—'},
  ];

  async function search() {
    const params2 = {card: card.value.trim(), name: byName ? nameIn.value.trim() : ''};
    ctx.setQuery(Object.fromEntries(Object.entries(params2).filter(([, v]) => v)));
    if (!params2.card && !params2.name) {
      results.replaceChildren(h('p', {class: 'muted'}, byName ? 'Type a card number or a name.' : 'Type a card number.'));
      return;
    }
    results.replaceChildren(h('p', {class: 'muted'}, 'Searching…'));
    try {
      const b = await api.get('/players' + api.qs(params2));
      if (!ctx.alive()) return;
      results.replaceChildren(dataTable(playerCols, b.players, {caption: 'Players found', empty: 'No player has that card or name.'}));
    } catch (e) {
      if (ctx.alive()) results.replaceChildren(errorNote(e, 'Players') || '');
    }
  }
  form.addEventListener('submit', ev => { ev.preventDefault(); search(); });

  async function loadSeated() {
    const rows = [];
    const problems = [];
    await Promise.all(api.tables().map(async t => {
      try {
        const b = await api.get(`/tables/${encodeURIComponent(t.id)}/seats`);
        for (const s of b.seats) if (s.player) rows.push({table: t.id, seat: s.seat, today: s.cash_today, ...s.player});
      } catch (e) {
        if (e.status !== 401) problems.push(`${t.id}: ${e.message}`);
      }
    }));
    if (!ctx.alive()) return;
    rows.sort((a, b) => a.table.localeCompare(b.table) || a.seat - b.seat);
    seatedBody.replaceChildren(
      problems.length ? note('warn', `Some tables could not be read: ${problems.join('; ')}`) : '',
      dataTable([
        {label: 'Table', rowHeader: true, render: r => h('a', {href: `#/table/${encodeURIComponent(r.table)}`}, r.table)},
        {label: 'Seat', num: true, render: r => String(r.seat)},
        ...playerCols.map(c => ({...c, rowHeader: false})),
        {label: 'Title 31 today', render: r => nearLimitMark(r.today, cur) || h('span', {class: 'muted'}, '—')},
      ], rows, {caption: 'Players seated now', empty: 'Nobody is seated at the tables.'}));
  }
  if (card.value || nameIn.value) search();
  await loadSeated();
}
