// table.js - one table: a bar of links to its sections at the top (the
// inventory reachable at once), its facts and limits, seats, inventory, the
// gaming day's variance with the corrections (mispays) beside it, win over
// time, banker rotation (player-banked) and game recall (recent rounds by
// their label, T1-277, paged).  Days are the property's gaming days.
import * as api from '../api.js';
import {h, note, section, dataTable, facts} from '../dom.js';
import {money, moneyCell, percent, label, when, whenText, miniCards, int} from '../format.js';
import {barChart} from '../chart.js';
import {inventoryPanel} from '../inventory.js';
import {seatsPanel} from '../seats.js';
import {bankerWho, roles} from '../players.js';
import * as session from '../session.js';
import {pageHeader, statusBadge, stateBadge, errorNote} from '../common.js';
import {roundLabel, roundHref, correctionText} from '../rounds.js';
import {perHandleBar, perHandleCell, perHandleText, theoPerHandleText, winCell, winOf} from '../figures.js';

export const name = 'table';

const PAGE = 15;
// The roles that read the reports (the master game's variance, the exceptions' mispays).
const REPORT_READERS = ['pitboss', 'floor', 'auditor', 'surveillance', 'admin'];

function limitsTable(limits, cur) {
  const rows = ['ante', 'pair_plus', 'six_card'].map(w => ({w, l: limits[w]}));
  return dataTable([
    {label: 'Wager', render: r => label(r.w), rowHeader: true},
    {label: 'Minimum', num: true, render: r => r.l ? money(r.l.min, cur) : '—'},
    {label: 'Maximum', num: true, render: r => r.l ? money(r.l.max, cur) : h('span', {class: 'muted'}, 'not offered')},
  ], rows, {caption: 'Table limits'});
}

export async function render(main, params, ctx) {
  const id = params.table;
  ctx.setTitle(`Table ${id}`);
  let t;
  try {
    t = (await api.get(`/tables/${encodeURIComponent(id)}`)).table;
  } catch (e) {
    if (!ctx.alive()) return;
    main.append(pageHeader(`Table ${id}`, {crumbs: [['Floor', '#/floor'], [id]]}),
      e.status === 404 ? note('warn', `There is no table “${id}”. `, h('a', {href: '#/floor'}, 'Back to the floor'), '.') : errorNote(e, 'Table'));
    return;
  }
  if (!ctx.alive()) return;
  const cur = t.currency;
  const banked = t.banking === 'player';
  const status = h('span', {id: 'table-status'}, statusBadge(t.status));
  const sessionNote = h('div', {id: 'table-session'});
  main.append(pageHeader(`${t.id} · ${t.name}`, {
    crumbs: [['Floor', '#/floor'], [t.id]],
    sub: h('span', {class: 'inline-list'}, status, ` ${label(t.game)} game · ${banked ? 'player-banked' : 'house-banked'} · ${t.seats} seats · ${cur}`),
  }), sessionNote);
  // The sections at once: a bar of links at the top (no hash change: the address is the view's).
  const jumps = h('nav', {class: 'jump-bar', id: 'table-jumps', 'aria-label': `Sections of ${t.id}`});
  main.append(jumps);
  /** The table's status and, when its closer closed it, why and what reopens it (docs/accounting.md). */
  function showSession(tt) {
    status.replaceChildren(statusBadge(tt.status));
    const doc = tt.session?.document;
    sessionNote.replaceChildren(tt.closed_by === 'closer' && doc
      ? note('info', `Closed by its closer (document #${doc.id}, ${whenText(doc.at, 'short')}): rounds are refused until a floor supervisor or pit boss records an opener.`)
      : tt.closed_by === 'pit_boss' ? note('info', 'Closed by a pit boss.') : '');
  }
  showSession(t);
  async function refreshSession() {
    try {
      const tt = (await api.get(`/tables/${encodeURIComponent(id)}`)).table;
      if (ctx.alive()) showSession(tt);
    } catch (e) {
      /* the status stays as it was; the panel shows the document recorded */
    }
  }

  // Facts and limits side by side.
  const [factsSec, factsBody] = section('Table', {id: 'table-facts'});
  factsBody.append(facts([
    ['Current round', t.current_round ? h('a', {href: `#/round/${t.current_round}`, id: 'table-current-round'}, 'In progress') : 'None in progress'],
    ['Game', label(t.game)],
    ['Dealer qualifies with', `${t.rules.dealer_qualifier} high or better`],
    ['Pair Plus', t.rules.pair_plus ? (t.rules.pair_plus_mode === 'must_beat_dealer' ? 'must beat the dealer' : 'standard') : 'not offered'],
    banked ? ['Banker rules', `at most ${t.banker.max_consecutive} rounds in a row; bank ${money(t.banker.min_bank, cur)}${t.banker.max_bank ? ` to ${money(t.banker.max_bank, cur)}` : ' or more'}`] : null,
  ]));
  const [limSec, limBody] = section('Limits', {id: 'table-limits'});
  limBody.append(limitsTable(t.limits, cur));
  main.append(h('div', {class: 'grid-2'}, factsSec, limSec));

  // Who sits at each seat, and for the roles that may: seating, leaving, cash and chips.
  main.append(seatsPanel(t, ctx));

  // The gaming day's accounting documents, and the forms for the roles that sign them.
  main.append(inventoryPanel(t, ctx, {onInventory: refreshSession}));

  // The gaming day's variance (the master game's row of the table) with the day's corrections beside it.
  if (!session.current() || roles().some(x => REPORT_READERS.includes(x))) main.append(variancePanel(t, ctx));

  // Win per handle over time, by hour (on a player-banked table, the house's win: its collections).
  const hoursSel = h('select', {id: 'hold-hours', 'aria-label': 'Period of the chart'},
    [6, 12, 24, 48, 168].map(n => h('option', {value: n, selected: n === 24 ? true : null}, n === 168 ? 'Last 7 days' : `Last ${n} hours`)));
  const [holdSec, holdBody] = section(banked ? 'Win (collections) over time' : 'Win/handle over time', {id: 'table-hold', actions: h('label', {class: 'inline-field'}, h('span', {class: 'visually-hidden'}, 'Period'), hoursSel)});
  main.append(holdSec);
  async function loadHold() {
    const hours = Number(hoursSel.value);
    const to = new Date(), from = new Date(to.getTime() - hours * 3600e3);
    from.setMinutes(0, 0, 0);
    holdBody.replaceChildren(h('p', {class: 'muted'}, 'Loading…'));
    try {
      const b = await api.get('/reports/summary' + api.qs({table: t.id, group: 'hour', from: from.toISOString(), to: to.toISOString()}));
      if (!ctx.alive()) return;
      const groups = b.groups;
      if (!groups.length) {
        holdBody.replaceChildren(h('p', {class: 'empty'}, 'No settled rounds in this period.'));
        return;
      }
      // Every hour of the period gets a slot, so the time axis is even; hours without play stay empty.
      // An hour's key is the UTC instant it starts at ("2026-11-21T08:00Z").
      const byHour = new Map(groups.map(g => [Date.parse(g.key), g]));
      const items = [];
      for (let ms = from.getTime(); ms < to.getTime(); ms += 3600e3) {
        const g = byHour.get(ms), key = new Date(ms).toISOString();
        const hourLabel = whenText(key, hours > 48 ? 'short' : 'hour');
        const title = g ? `${whenText(key, 'short')}: win ${money(winOf(g), cur, {signed: true})} on ${money(g.handle.total, cur)} handle` +
          (banked ? '' : `, win/handle ${perHandleText(g)}`) : '';
        items.push(!g ? {label: hourLabel, value: null, ref: null}
          : banked ? {label: hourLabel, value: winOf(g), ref: null, title} : perHandleBar(g, hourLabel, title));
      }
      const tot = b.totals;
      holdBody.replaceChildren(
        facts([
          ['Rounds', int(tot.rounds)], ['Handle', money(tot.handle.total, cur)],
          ['Win', money(winOf(tot), cur, {signed: true})],
          banked ? ['Banker result', money(tot.banker_result?.total ?? 0, cur, {signed: true})] : ['Win/handle', perHandleText(tot)],
          banked ? ['Collections', money(tot.collections ?? 0, cur)]
            : ['Theoretical', `${money(tot.theoretical_win, cur)} (${theoPerHandleText(tot)} of handle)`],
        ]),
        barChart(items, {fmt: banked ? v => money(Math.round(v), cur) : v => percent(v),
          title: banked ? `Win (collections) by hour at ${t.id}` : `Win/handle by hour at ${t.id}`,
          valueLabel: banked ? 'Win' : 'Win/handle', refLabel: banked ? null : 'Theoretical win/handle',
          width: holdBody.clientWidth - 32, description: `${groups.length} hours with play in the last ${hours} hours`}),
        h('details', {class: 'chart-data'}, h('summary', null, 'Show the figures'),
          dataTable([
            {label: 'Hour', render: g => when(g.key, 'short'), rowHeader: true},
            {label: 'Rounds', num: true, render: g => int(g.rounds)},
            {label: 'Handle', num: true, render: g => money(g.handle.total, cur)},
            {label: 'Win', num: true, render: g => winCell(g, cur)},
            {label: 'Win/handle', num: true, render: g => perHandleCell(g)},
            {label: 'Theoretical win/handle', num: true, render: g => banked ? '—' : theoPerHandleText(g)},
          ], groups, {caption: 'Win by hour'})));
    } catch (e) {
      if (ctx.alive()) holdBody.replaceChildren(errorNote(e, 'Win over time (summary report)') || '');
    }
  }
  hoursSel.addEventListener('change', loadHold);
  loadHold();

  // Banker rotation (player-banked tables).
  let bankersBody = null, bankersData = null;
  if (banked) {
    const [bSec, bBody] = section('Banker rotation', {id: 'table-bankers'});
    bankersBody = bBody;
    main.append(bSec);
    api.get(`/tables/${encodeURIComponent(t.id)}/bankers` + api.qs({limit: 50})).then(b => {
      if (!ctx.alive()) return;
      bankersData = b;
      renderBankers();
    }, e => {
      if (ctx.alive()) bBody.replaceChildren(errorNote(e, 'Banker rotation') || '');
    });
  }

  // Game recall: recent rounds, newest first, paged with next_before.
  const pager = {stack: [], before: null, next: null, rounds: []};
  const refreshBtn = h('button', {type: 'button', class: 'btn btn-small'}, h('span', {'aria-hidden': 'true'}, '↻ '), 'Refresh');
  refreshBtn.addEventListener('click', () => loadRounds());
  const [recSec, recBody] = section('Recent rounds', {id: 'table-rounds', actions: refreshBtn});
  main.append(recSec);

  // GET /tables/{t}/bankers (docs/api.md): {max_consecutive, min_bank,
  // current: {seat, consecutive, must_pass, next_seat}|null,
  // history: [{round, seat, kind: bank|declined, at, consecutive}]}, newest first.
  // The bank column reads the rounds on the page of recent rounds.
  function renderBankers() {
    const b = bankersData;
    if (!bankersBody || !b) return;
    const list = b.history;
    const c = b.current;
    const byRound = new Map(pager.rounds.map(r => [r.id, r]));
    bankersBody.replaceChildren(
      c ? facts([
        ['Banker now', h('span', null, `Seat ${c.seat}`, c.player || c.provider ? ': ' : '', bankerWho(c))],
        ['In a row', `${c.consecutive} of at most ${b.max_consecutive}` +
          (c.person_consecutive !== undefined ? ` (this banker: ${c.person_consecutive}${c.person_must_pass ? ', must pass' : ''})` : '')],
        ['Next', c.must_pass ? h('span', null, h('span', {'aria-hidden': 'true'}, '⚠ '), `must pass; offered to seat ${c.next_seat} next`) : `may bank again; else seat ${c.next_seat}`],
        ['Minimum bank', money(b.min_bank, cur)],
      ]) : h('p', {class: 'muted'}, 'No banker has held the bank yet.'),
      !list.length ? '' : dataTable([
        {label: 'Round', rowHeader: true, render: x => {
          const r = byRound.get(x.round);
          return h('a', {href: r ? roundHref(r) : `#/round/${x.round}`}, r ? roundLabel(r) : `round id ${x.round}`);
        }},
        {label: 'Seat', num: true, render: x => int(x.seat)},
        {label: 'Turn', render: x => x.kind === 'declined'
          ? h('span', {class: 'badge'}, h('span', {'aria-hidden': 'true'}, '↷ '), 'Declined')
          : h('span', {class: 'badge badge-banker'}, h('span', {'aria-hidden': 'true'}, '♛ '), 'Banked')},
        {label: 'Banker', render: x => bankerWho(x) || h('span', {class: 'muted'}, '—')},
        {label: 'In a row', num: true, render: x => x.consecutive ?? '—'},
        {label: 'Bank', num: true, render: x => {
          const r = byRound.get(x.round);
          return r?.banker && x.kind !== 'declined' ? `${money(r.banker.bank, cur)} → ${money(r.banker.bank_end, cur)}` : '—';
        }},
        {label: 'At', render: x => when(x.at, 'short')},
      ], list, {caption: 'Banker rotation, newest first'}),
      offersTable(b.offers));
  }

  // The offers of the bank and their answers (GET /tables/{t}/bankers "offers"), newest first.
  function offersTable(offers) {
    if (!offers) return '';
    return h('div', {class: 'bank-offers', id: 'bank-offers'}, h('h3', null, 'Offers of the bank'), dataTable([
      {label: 'At', rowHeader: true, render: o => when(o.at, 'short')},
      {label: 'Seat', num: true, render: o => int(o.seat)},
      {label: 'Answer', render: o => o.answer === 'accepted'
        ? h('span', {class: 'badge badge-banker'}, h('span', {'aria-hidden': 'true'}, '✔ '), 'Accepted')
        : h('span', {class: 'badge'}, h('span', {'aria-hidden': 'true'}, '↷ '), 'Declined')},
      {label: 'Who', render: o => bankerWho(o) || h('span', {class: 'muted'}, 'not named')},
      {label: 'Recorded by', render: o => o.by || '—'},
    ], offers, {caption: 'Offers of the bank, newest first', empty: 'No offer of the bank recorded.'}));
  }

  async function loadRounds(focusPage = null) {
    recBody.setAttribute('aria-busy', 'true');
    try {
      const b = await api.get(`/tables/${encodeURIComponent(t.id)}/rounds` + api.qs({limit: PAGE, before: pager.before}));
      if (!ctx.alive()) return;
      pager.rounds = b.rounds;
      pager.next = b.next_before;
      const cols = [
        // by label; the link by id, which opens the same round (the addresses page.test.mjs follows)
        {label: 'Round', rowHeader: true, render: r => h('a', {href: `#/round/${r.id}`, 'data-round': r.id, 'data-label': roundLabel(r)},
          roundLabel(r))},
        {label: 'Opened', render: r => when(r.opened_at, 'short')},
        {label: 'State', render: r => stateBadge(r.state)},
        {label: 'Seats', num: true, render: r => int(Object.keys(r.bets).length)},
        {label: 'Dealer', render: r => r.dealer && r.dealer.cards ? miniCards(r.dealer.cards) : h('span', {class: 'muted'}, '—')},
        {label: 'Handle', num: true, render: r => r.totals ? money(r.totals.handle, cur) : '—'},
        {label: banked ? 'Banker result' : 'House win', num: true, render: r => r.totals ? moneyCell(r.totals.house_win, cur, {signed: true}) : '—'},
      ];
      if (banked) {
        cols.push({label: 'Banker', render: r => r.banker ? h('span', {class: 'stack'},
          `Seat ${r.banker.seat}: ${money(r.banker.bank, cur)} → ${money(r.banker.bank_end, cur)}`,
          bankerWho(r.banker) ? h('small', null, bankerWho(r.banker)) : null) : '—'});
      }
      const page = pager.stack.length + 1;
      const newer = h('button', {type: 'button', class: 'btn', 'data-page': 'newer', disabled: pager.stack.length ? null : true}, '← Newer');
      const older = h('button', {type: 'button', class: 'btn', 'data-page': 'older', disabled: pager.next ? null : true}, 'Older →');
      const newest = h('button', {type: 'button', class: 'btn btn-quiet', 'data-page': 'newest', disabled: pager.stack.length ? null : true}, 'Newest');
      newer.addEventListener('click', () => { pager.before = pager.stack.pop() ?? null; loadRounds('newer'); });
      older.addEventListener('click', () => { pager.stack.push(pager.before); pager.before = pager.next; loadRounds('older'); });
      newest.addEventListener('click', () => { pager.stack = []; pager.before = null; loadRounds('newest'); });
      recBody.replaceChildren(
        dataTable(cols, pager.rounds, {caption: `Rounds at ${t.id}, newest first`, empty: 'No rounds at this table yet.'}),
        h('nav', {class: 'pager', 'aria-label': 'Round pages'}, newest, newer, h('span', {class: 'muted page-no', 'aria-live': 'polite'}, `Page ${page}`), older));
      renderBankers();
      const current = pager.rounds.find(r => r.id === t.current_round);
      const currentLink = document.getElementById('table-current-round');
      if (current && currentLink) {
        currentLink.href = roundHref(current);
        currentLink.textContent = `Round ${roundLabel(current)}`;
      }
      // Keep keyboard focus on the pager after a page change.
      if (focusPage) {
        const order = {older: ['older', 'newer'], newer: ['newer', 'older'], newest: ['older', 'newest']}[focusPage] || [];
        const btn = order.map(k => recBody.querySelector(`[data-page="${k}"]`)).find(b => b && !b.disabled);
        (btn || recBody.querySelector('.pager button:not(:disabled)') || recBody.querySelector('.pager'))?.focus();
      }
    } catch (e) {
      if (ctx.alive()) recBody.replaceChildren(errorNote(e, 'Recent rounds') || '');
    } finally {
      recBody.removeAttribute('aria-busy');
    }
  }
  jumpBar(jumps, main);
  await loadRounds();
}

/** Fills the bar with a link to each section of the view (h2 of section.panel with an id): a click scrolls there and focuses it. */
function jumpBar(bar, main) {
  const secs = [...main.querySelectorAll('section[id]')].filter(sec => sec.querySelector('h2'));
  bar.replaceChildren(h('span', {class: 'jump-label'}, 'Go to'), ...secs.map(sec => {
    const a = h('a', {href: location.hash, 'data-jump': sec.id}, sec.querySelector('h2').textContent);
    a.addEventListener('click', ev => {
      ev.preventDefault();
      const head = sec.querySelector('h2');
      head.setAttribute('tabindex', '-1');
      sec.scrollIntoView({block: 'start'});
      head.focus({preventScroll: true});
    });
    return a;
  }));
}

/**
 * The table's variance of a gaming day (GET /reports/master-game: count win
 * against the hands' win, and what the mispays explain of it) and that day's
 * corrections of payouts (the exceptions report's mispays), side by side.
 */
function variancePanel(t, ctx) {
  const cur = t.currency;
  const day = h('input', {type: 'date', id: 'variance-day', value: api.property()?.gaming_day || ''});
  const [sec, body] = section('Variance and corrections', {id: 'table-variance',
    actions: h('label', {class: 'inline-field'}, h('span', null, 'Gaming day '), day)});
  const varBox = h('div', {class: 'variance-box', id: 'variance-figures'});
  const corrBox = h('div', {class: 'variance-box', id: 'variance-corrections'});
  body.append(h('div', {class: 'grid-2 variance-grid'},
    h('div', null, h('h3', null, 'Count against the hands'), varBox),
    h('div', null, h('h3', null, 'Corrections of payouts'), corrBox)));
  const q = () => day.value ? {table: t.id, gaming_day: day.value} : {table: t.id};
  const range = () => day.value ? {table: t.id, from: day.value, to: day.value} : {table: t.id};
  async function loadVariance() {
    try {
      const b = await api.get('/reports/master-game' + api.qs(q()));
      if (!ctx.alive()) return;
      const row = (b.tables || []).find(x => x.table === t.id);
      if (!day.value && b.gaming_day) day.value = b.gaming_day;
      varBox.replaceChildren(!row ? h('p', {class: 'empty'}, 'No count and no hands this gaming day.') : facts([
        ['Count win', row.win === null ? h('span', {class: 'muted'}, 'not complete (no closer yet)') : moneyCell(row.win, cur, {signed: true})],
        ['Hands win', moneyCell(row.hand_win, cur, {signed: true})],
        ['Variance', row.variance === null ? '—' : h('span', null, moneyCell(row.variance, cur, {signed: true}),
          row.flagged ? h('span', {class: 'badge badge-warn'}, ' beyond the threshold') : '')],
        ['Explained by corrections', row.explained ? moneyCell(row.explained.mispays, cur, {signed: true}) : '—'],
        ['Unexplained', row.explained && row.explained.unexplained !== null ? moneyCell(row.explained.unexplained, cur, {signed: true}) : '—'],
      ]));
    } catch (e) {
      if (ctx.alive()) varBox.replaceChildren(errorNote(e, 'Variance (master game report)') || '');
    }
  }
  async function loadCorrections() {
    try {
      const b = await api.get('/reports/exceptions' + api.qs(range()));
      if (!ctx.alive()) return;
      const rows = (b.exceptions || []).filter(e => e.kind === 'mispay' && e.table === t.id);
      const fmt = x => money(x, cur);
      corrBox.replaceChildren(!rows.length ? h('p', {class: 'empty'}, 'No correction recorded this gaming day.') : h('div', null,
        dataTable([
          {label: 'Round', rowHeader: true, render: e => {
            const r = {id: e.round, table: e.table, round_no: e.round_no};
            return h('a', {href: roundHref(r)}, roundLabel(r));
          }},
          {label: 'Line', render: e => correctionText(e, fmt, label)},
          {label: 'Reason', render: e => e.reason},
          {label: 'By', render: e => `${e.by}, witness ${e.witness}`},
          {label: 'At', render: e => when(e.at, 'short')},
        ], rows, {caption: `Corrections at ${t.id}`}),
        h('p', {class: 'corrections-total'}, `${rows.length} ${rows.length === 1 ? 'correction' : 'corrections'}: `,
          moneyCell(rows.reduce((a, e) => a + e.difference, 0), cur, {signed: true}), ' paid against what was owed')));
    } catch (e) {
      if (ctx.alive()) corrBox.replaceChildren(errorNote(e, 'Corrections (exceptions report)') || '');
    }
  }
  const load = () => Promise.all([loadVariance(), loadCorrections()]);
  day.addEventListener('change', load);
  load();
  return sec;
}
