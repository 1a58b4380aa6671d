// player.js - one player (#/players/P1): the record as the reader may read
// it (GET /players/{id}: the personal fields only when the daemon gives
// them), the seat sessions from its seatings, and the rating over a range
// (GET /players/{id}/rating?from&to): hands, time, wagered, average bet,
// result, the exact theoretical win beside the conventional estimate, and
// comps (docs/players.md, "Rated play, exact").  Cash controls
// (docs/page.md, "A player"): "Merged into P9" when the record was merged
// into another; for the cage and a pit boss "Merge into…" (POST
// /players/{id}/merge, witnessed); his identification recorded (PATCH
// /players/{id}: what a transaction over the CTR limit needs) and the
// whole record edited (register.js); his mark near a Title 31 limit; his
// transactions of the gaming day (GET /transactions?player=), voids marked.
import * as api from '../api.js';
import {h, section, dataTable, facts, note} from '../dom.js';
import {money, moneyCell, label, when, whenText, int} from '../format.js';
import {pageHeader, errorNote, formField, witnessFields, refusalNote, localDate, addDays} from '../common.js';
import {allows} from '../menus.js';
import {playerText, playerLink, anonymousBadge, duration, playersCurrency, mayMerge, mayRegister} from '../players.js';
import {transactionsTable, nearLimitMark} from '../cash.js';
import {editForm, idTypeText} from '../register.js';

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
  main.append(pageHeader(playerText(p), {crumbs: [['Players', '#/players'], [playerText(p)]],
    sub: h('span', {class: 'inline-list'}, anonymousBadge(p), p.anonymous ? ' ' : '',
      personal ? 'The whole record (your roles read personal data).' : 'What a dealer or the count team reads of the record: no personal data.')}));

  const [recSec, recBody] = section('Record', {id: 'player-record'});
  recBody.append(facts([
    ['Player', p.id],
    ...FIELDS.filter(([k]) => p[k] !== undefined && p[k] !== null)
      .map(([k, l]) => [l, k === 'id_type' ? idTypeText(p[k]) : String(p[k])]),
    p.created_at ? ['Registered', when(p.created_at, 'short')] : null,
    p.updated_at ? ['Changed', when(p.updated_at, 'short')] : null,
  ]));
  const showMerged = into => recBody.prepend(h('div', {'data-merged-into': into}, note('warn', 'Merged into ', playerLink(into),
    `: his transactions, seats and ratings count for ${into}, and this record takes no more.`)));
  if (p.merged_into) showMerged(p.merged_into);
  const mark = nearLimitMark(p.cash_today, cur);
  if (mark) recBody.prepend(h('p', {'data-player-mark': p.id}, mark));
  const forms = h('div', {class: 'doc-forms'});
  if (personal && !p.merged_into && mayRegister()) {
    forms.append(identificationForm(p, () => ctx.reload()), editForm(p, () => ctx.reload()));
  }
  if (!p.merged_into && mayMerge()) forms.append(mergeForm(p, cur, into => showMerged(into)));
  if (forms.childElementCount) recBody.append(forms);
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
  const [txnSec, txnBody] = section('Transactions of the gaming day', {id: 'player-transactions'});
  main.append(txnSec, ratSec);
  ratSec.querySelector('.panel-body').before(h('div', {class: 'panel-body'}, form));

  async function loadTransactions() {
    const day = api.property()?.gaming_day || '';
    try {
      const b = await api.get('/transactions' + api.qs({gaming_day: day, player: p.id}));
      if (!ctx.alive()) return;
      const live = b.transactions.filter(x => !x.void && x.kind === 'cash');
      const sum = d => live.filter(x => x.direction === d).reduce((a, x) => a + x.amount, 0);
      txnBody.replaceChildren(
        h('p', {class: 'muted small'}, `Gaming day ${b.gaming_day}: cash in `, h('strong', {'data-fig': 'cash_in'}, money(sum('in'), cur)),
          ', cash out ', h('strong', {'data-fig': 'cash_out'}, money(sum('out'), cur)), ' (these transactions, voids left out; never netted).'),
        transactionsTable(b.transactions, cur, {caption: 'His transactions of the gaming day', empty: 'No transaction today.'}));
    } catch (e) {
      if (ctx.alive()) txnBody.replaceChildren(errorNote(e, 'Transactions') || '');
    }
  }
  if (personal) loadTransactions();
  else txnBody.append(h('p', {class: 'muted small'}, 'His transactions are for the roles that read personal data.'));

  async function loadRating() {
    ratBody.replaceChildren(h('p', {class: 'muted'}, 'Loading…'));
    const range = {from: from.value || '', to: to.value || ''};   // the property's gaming days (docs/api.md)
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
      h('p', {class: 'muted small'}, r.from || r.to ? `Rounds settled from ${r.from ? whenText(r.from) : 'the start'} ` +
        `to ${r.to ? whenText(r.to) : 'now'}.` : 'All his play.'),
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
      ], Object.entries(r.wagered_by_wager), {caption: 'Wagered by wager'}) : '',
      await decisionQuality(p, range, cur, fig));
  }
  form.addEventListener('submit', ev => {
    ev.preventDefault();
    ctx.setQuery({...(from.value ? {from: from.value} : {}), ...(to.value ? {to: to.value} : {})});
    loadRating();
  });
  await loadRating();
}

/*
 * His decision quality beside his rating (GET /reports/decisions?group=player, docs/protection.md): decisions,
 * mistakes, EV lost and z over the same range (no range: his last 30 gaming days); nothing for a role that reads no
 * reports (it is not asked).
 */
async function decisionQuality(p, range, cur, fig) {
  if (!allows('reports')) return '';
  // no range given: his last 30 gaming days (a report over every day ever would grow with the record)
  const today = api.property()?.gaming_day || localDate();
  let js;
  try {
    js = await api.get('/reports/decisions' + api.qs({group: 'player', from: range.from || addDays(today, -29),
      to: range.to || ''}));
  } catch {
    return '';
  }
  const g = (js.groups || []).find(x => x.player === p.id);
  if (!g) return h('p', {class: 'muted small', id: 'player-decisions'}, 'No play/fold decisions in the range.');
  return h('dl', {class: 'facts rating', id: 'player-decisions'},
    fig('decisions', int(g.decisions), 'Decisions: hands he played or folded'),
    fig('mistakes', int(g.mistakes), 'Mistakes: decisions worth less than the other choice, given his own cards'),
    fig('ev_lost', money(g.ev_lost, cur), 'EV lost: what his mistakes cost him in expectation'),
    fig('z', `${Number(g.z).toFixed(2)}${g.flagged ? ' ⚑ flagged' : ''}`,
      `Knowledge of the dealer’s hand (z): near 0 for anyone who cannot see it; flagged at ${js.z_flag}`));
}

/** "Record identification": the ID fields of the record (PATCH /players/{id}); saved() after. */
function identificationForm(p, saved) {
  const input = (n, v, type = 'text') => h('input', {type, name: `id-${n}`, maxlength: '200', autocomplete: 'off', value: v || ''});
  const idType = input('type', p.id_type), idNumber = input('number', p.id_number), issuer = input('issuer', p.id_issuer);
  const expiry = input('expiry', p.id_expiry, 'date');
  const msg = h('div', {class: 'form-msg', role: 'status', 'aria-live': 'polite'});
  const form = h('form', {class: 'doc-form', 'data-form': 'identification', 'aria-label': 'Record identification', novalidate: true},
    h('p', {class: 'muted small'}, 'A cash transaction that takes his cash in, or cash out, of a gaming day over the CTR limit, ' +
      'and a CTR item identified or filed, need the ID type and number on record.'),
    formField('ID type', idType, 'Passport, driver\u2019s license, state ID card…'), formField('ID number', idNumber), formField('ID issued by', issuer),
    formField('ID expires', expiry), h('div', {class: 'field-submit'}, h('button', {type: 'submit', class: 'btn btn-primary'}, 'Save')), msg);
  form.addEventListener('submit', async ev => {
    ev.preventDefault();
    const body = {};
    for (const [k, i] of [['id_type', idType], ['id_number', idNumber], ['id_issuer', issuer], ['id_expiry', expiry]]) {
      if (i.value.trim()) body[k] = i.value.trim();
    }
    if (!body.id_type || !body.id_number) { msg.replaceChildren(note('warn', 'Type at least the ID type and the ID number.')); return; }
    try {
      await api.send('PATCH', `/players/${encodeURIComponent(p.id)}`, body);
      saved();
    } catch (e) {
      if (e.status !== 401) msg.replaceChildren(refusalNote(e));
    }
  });
  const box = h('details', {class: 'doc-form-box', 'data-box': 'identification'},
    h('summary', null, p.id_type && p.id_number ? 'Change the identification' : 'Record identification'), form);
  box.open = !(p.id_type && p.id_number) && !p.anonymous;
  return box;
}

/**
 * "Merge into…": this record into another (the surviving one), with a
 * reason and a witness (POST /players/{id}/merge).  The answer's days are
 * shown: the surviving record's cash of each gaming day this one had cash in,
 * and the sides over the CTR limit.  merged(into) after it.
 */
function mergeForm(p, cur, merged) {
  const into = h('input', {type: 'text', name: 'merge-into', maxlength: '32', autocomplete: 'off', spellcheck: 'false'});
  const reason = h('input', {type: 'text', name: 'merge-reason', maxlength: '500', autocomplete: 'off'});
  const w = witnessFields('merge');
  const msg = h('div', {class: 'form-msg', role: 'status', 'aria-live': 'polite'});
  const btn = h('button', {type: 'submit', class: 'btn btn-primary'}, `Merge ${playerText(p)}`);
  const form = h('form', {class: 'doc-form', 'data-form': 'merge', 'aria-label': 'Merge into another record', novalidate: true},
    h('p', {class: 'muted small'}, `The same patron under two records: the transactions, seats and ratings of ${playerText(p)} then count ` +
      'for the other, which survives; this one takes no more. It cannot be undone, and not while he is seated.'),
    formField('Into (the surviving player id)', into), formField('Reason', reason), w.el, h('div', {class: 'field-submit'}, btn), msg);
  form.addEventListener('submit', async ev => {
    ev.preventDefault();
    const target = into.value.trim().toUpperCase();
    if (!target) { msg.replaceChildren(note('warn', 'Type the id of the record he is merged into.')); into.focus(); return; }
    if (!reason.value.trim()) { msg.replaceChildren(note('warn', 'Say why the records are one patron.')); reason.focus(); return; }
    const body = {into: target, reason: reason.value.trim(), witness: w.read()};
    w.clear();
    btn.disabled = true;
    try {
      const a = await api.send('POST', `/players/${encodeURIComponent(p.id)}/merge`, body);
      msg.replaceChildren(note('ok', `${playerText(a.player)} is merged into ${playerText(a.into)}.`, a.days?.length ? ` Cash of ${playerText(a.into)} since: ` +
        a.days.map(d => `${d.gaming_day}: in ${money(d.cash_in, cur)}, out ${money(d.cash_out, cur)}` +
          (d.ctr?.length ? ` (over the CTR limit: ${d.ctr.map(x => `cash ${x}`).join(', ')})` : '')).join('; ') + '.' : ''));
      form.querySelectorAll('input, button').forEach(i => { i.disabled = true; });
      merged(a.into);
    } catch (e) {
      if (e.status !== 401) msg.replaceChildren(refusalNote(e));
    } finally {
      btn.disabled = false;
    }
  });
  return h('details', {class: 'doc-form-box', 'data-box': 'merge'}, h('summary', null, 'Merge into…'), form);
}
