// floor.js - every table at a glance, refreshed every 5 seconds in place;
// under a table, its seated patrons near a Title 31 limit (GET /tables/{t}/seats).
import * as api from '../api.js';
import {h, section, replaceIfChanged} from '../dom.js';
import {money, int, whenText} from '../format.js';
import {pageHeader, statusBadge, stateBadge, errorNote, poll, liveStatus} from '../common.js';
import {allows} from '../menus.js';
import {perHandleCell, perHandleText, theoPerHandleText, winCell, winOf, bankerOnly, hasBanker} from '../figures.js';
import {bankerWhoText, playerText} from '../players.js';
import {nearLimitMark} from '../cash.js';
import {roundHref, roundLabel} from '../rounds.js';

/** The seated patrons of a table (GET /tables/{t}/seats) near a Title 31 limit, marked; null when none. */
function nearLimitMarks(seats, cur) {
  const near = (seats?.seats || []).filter(s => s.player && (s.cash_today?.alert || s.cash_today?.ctr));
  if (!near.length) return null;
  return h('span', {class: 'stack', 'data-near-limits': String(near.length)}, near.map(s =>
    h('small', {'data-near-player': s.player.id}, `Seat ${s.seat}, ${playerText(s.player)}: `, nearLimitMark(s.cash_today, cur))));
}

export const name = 'floor';

const POLL_MS = 5000;

const COLUMNS = [
  {key: 'table', label: 'Table'},
  {key: 'status', label: 'State'},
  {key: 'current', label: 'Current round'},
  {key: 'banker', label: 'Banker'},
  {key: 'rounds', label: 'Rounds today', num: true},
  {key: 'handle', label: 'Handle', num: true},
  {key: 'win', label: 'Win', num: true},
  {key: 'hold', label: 'Win/handle', num: true},
  {key: 'theo', label: 'Theoretical', num: true},
];

function cellsFor(t, latest, g, rot, seats) {
  const cur = t.currency;
  const last = latest && latest.id ? latest : null;
  let current;
  if (t.current_round) {
    const st = last && last.id === t.current_round ? last.state : null;
    const open = last && last.id === t.current_round ? last : {id: t.current_round};
    current = h('span', {class: 'stack'}, h('a', {href: roundHref(open)}, `Round ${roundLabel(open)}`),
      st ? stateBadge(st) : null);
  } else if (last) {
    current = h('span', {class: 'stack'}, h('span', {class: 'muted'}, 'None in progress'),
      h('small', {class: 'muted'}, 'last ', h('a', {href: roundHref(last)}, roundLabel(last)), ` at ${whenText(last.settled_at || last.opened_at, 'time')}`));
  } else {
    current = h('span', {class: 'muted'}, 'No rounds yet');
  }
  let banker;
  if (t.banking === 'player') {
    const b = last?.banker;
    const run = rot?.current && (!b || rot.current.seat === b.seat) ? rot.current : null;
    banker = b ? h('span', {class: 'stack'}, h('span', null, `Seat ${b.seat}`, bankerWhoText(b) ? `: ${bankerWhoText(b)}` : ''),
      h('small', {class: 'muted'}, `bank ${money(b.bank, cur)}`,
        run ? ` · ${run.consecutive} in a row${run.must_pass ? ' (must pass)' : ''}` : ''))
      : h('span', {class: 'muted'}, 'Player-banked; no banker yet');
  } else {
    banker = h('span', {class: 'muted'}, 'House');
  }
  // g: the table's group in today's summary report; none when it has no round today.
  return {
    table: h('span', {class: 'stack'}, h('a', {href: `#/table/${encodeURIComponent(t.id)}`, class: 'table-id'}, t.id),
      h('small', {class: 'muted'}, t.name), nearLimitMarks(seats, cur)),
    status: h('span', {class: 'stack'}, statusBadge(t.status)),
    current,
    banker,
    rounds: h('span', {class: 'stack end'}, h('span', null, g ? int(g.rounds) : '—'),
      g?.voids ? h('small', {class: 'muted'}, `${int(g.voids)} void${g.voids === 1 ? '' : 's'}`) : null),
    handle: h('span', null, g ? money(g.handle.total, cur) : '—'),
    win: g ? winCell(g, cur) : h('span', null, '—'),
    hold: g ? perHandleCell(g) : h('span', {class: 'stack end'}, h('span', null, '—')),
    theo: g && !bankerOnly(g)
      ? h('span', {class: 'stack end'}, h('span', null, money(g.theoretical_win, cur)),
        (g.theoretical_win_per_handle ?? g.theoretical_hold) !== null ? h('small', {class: 'muted'}, `${theoPerHandleText(g)} of handle`) : null)
      : h('span', null, '—'),
  };
}

function kpi(labelText, value, sub) {
  return h('div', {class: 'kpi'}, h('div', {class: 'kpi-label'}, labelText), h('div', {class: 'kpi-value'}, value),
    sub ? h('div', {class: 'kpi-sub'}, sub) : null);
}

export async function render(main, params, ctx) {
  ctx.setTitle('Floor');
  const live = liveStatus();
  const figures = allows('reports');   // the summary is the report readers' (a runner sees the tables only)
  const sub = h('span', null, figures ? 'Every table, with the figures of the property\u2019s gaming day so far.' : 'Every table.');
  main.append(pageHeader('Floor', {sub, actions: live.el}));
  const kpis = h('div', {class: 'kpis', 'aria-label': 'Today across the floor', role: 'group'});
  const [sec, body] = section('Tables', {id: 'floor-tables'});
  const reportArea = h('div', {class: 'report-note'});
  const errorArea = h('div');
  main.append(errorArea, kpis, reportArea, sec);

  let tbody = null, ids = '';
  const rows = new Map();
  let summaryErr = null, byTable = new Map(), totals = null;

  function build(tables) {
    tbody = h('tbody');
    rows.clear();
    for (const t of tables) {
      const cells = {};
      const tr = h('tr', {'data-table': t.id});
      // Explicit roles keep the table's meaning when narrow screens lay rows out as cards.
      tr.setAttribute('role', 'row');
      COLUMNS.forEach((c, i) => {
        const cell = h(i === 0 ? 'th' : 'td', {class: c.num ? 'num' : null, scope: i === 0 ? 'row' : null,
          role: i === 0 ? 'rowheader' : 'cell', 'data-label': c.label});
        cells[c.key] = cell;
        tr.append(cell);
      });
      rows.set(t.id, cells);
      tbody.append(tr);
    }
    tbody.setAttribute('role', 'rowgroup');
    const tableEl = h('table', {class: 'data floor', role: 'table', 'aria-label': 'Tables on the floor'},
      h('caption', {class: 'visually-hidden'}, 'Tables on the floor'),
      h('thead', {role: 'rowgroup'}, h('tr', {role: 'row'}, COLUMNS.map(c => h('th', {scope: 'col', role: 'columnheader', class: c.num ? 'num' : null}, c.label)))),
      tbody);
    body.replaceChildren(h('div', {class: 'table-wrap'}, tableEl));
  }

  async function refresh() {
    let tables;
    try {
      tables = await api.loadTables();
    } catch (e) {
      if (!ctx.alive()) return;
      if (e.status === 401) return;
      live.stale(`⚠ Connection problem (${e.message}); retrying every ${POLL_MS / 1000} s.`);
      if (!tbody) replaceIfChanged(errorArea, errorNote(e, 'Tables'));
      return;
    }
    // Today is the property's gaming day (GET /tables' property), whatever the browser's zone.
    const day = api.property()?.gaming_day;
    if (figures && day) sub.textContent = `Every table, with the figures of gaming day ${day} so far.`;
    const latestP = Promise.allSettled(tables.map(t => api.get(`/tables/${encodeURIComponent(t.id)}/rounds?limit=1`)));
    const rotP = Promise.allSettled(tables.map(t => t.banking === 'player'
      ? api.get(`/tables/${encodeURIComponent(t.id)}/bankers?limit=1`) : Promise.resolve(null)));
    const summaryP = !figures ? Promise.resolve() : api.get('/reports/summary' + api.qs({group: 'table', from: day, to: day})).then(
      b => { summaryErr = null; byTable = new Map(b.groups.map(g => [g.key, g])); totals = b.totals; },
      e => { summaryErr = e; byTable = new Map(); totals = null; });
    const seatsP = Promise.allSettled(tables.map(t => api.get(`/tables/${encodeURIComponent(t.id)}/seats`)));
    const [latest, rots, , seats] = await Promise.all([latestP, rotP, summaryP, seatsP]);
    if (!ctx.alive()) return;
    errorArea.replaceChildren();

    const key = tables.map(t => t.id).join('|');
    if (key !== ids) { build(tables); ids = key; }
    tables.forEach((t, i) => {
      const l = latest[i].status === 'fulfilled' ? latest[i].value.rounds[0] : null;
      const rot = rots[i].status === 'fulfilled' ? rots[i].value : null;
      const cells = cellsFor(t, l, byTable.get(t.id), rot, seats[i].status === 'fulfilled' ? seats[i].value : null);
      const row = rows.get(t.id);
      for (const c of COLUMNS) replaceIfChanged(row[c.key], cells[c.key]);
    });

    // Today across the floor (one currency only; mixed currencies do not add up).
    const currencies = [...new Set(tables.map(t => t.currency))];
    const open = tables.filter(t => t.status === 'open').length;
    const inPlay = tables.filter(t => t.current_round).length;
    const tot = totals;
    const cur = currencies[0] || 'USD';
    const single = currencies.length <= 1;
    replaceIfChanged(kpis, h('div', {class: 'kpi-row'},
      kpi('Tables open', `${open} of ${tables.length}`, `${inPlay} with a round in progress`),
      kpi('Rounds today', tot ? int(tot.rounds) : '—'),
      kpi('Handle today', tot && single ? money(tot.handle.total, cur) : '—'),
      kpi('Win today', tot && single ? money(winOf(tot), cur, {signed: true}) : '—',
        tot && single && hasBanker(tot) ? `house ${money(tot.house_win.total, cur, {signed: true})} + collections ${money(tot.collections ?? 0, cur)}` : null),
      tot && single && hasBanker(tot) ? kpi('Banker result today', money(tot.banker_result?.total ?? 0, cur, {signed: true}), 'player-banked tables') : null,
      kpi('Win/handle today', tot ? perHandleText(tot) : '—', tot && single ? `theoretical ${theoPerHandleText(tot)}` : null)));

    replaceIfChanged(reportArea, summaryErr ? errorNote(summaryErr, 'Today\u2019s figures') || h('div') : h('div'));
    live.ok();
  }

  return poll(refresh, POLL_MS);
}
