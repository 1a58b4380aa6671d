// cash.js - what the cage view, the Title 31 view and the player page share
// about cash transactions (docs/page.md, "Cage"; the rules: docs/players.md, "Title 31"):
//
//   the types of a transaction, and the directions each allows at the cage;
//   where it was made (a table and seat, or the cage and its window);
//   a gaming day's transactions as a table (GET /transactions), void ones
//   struck through with who voided them, and a "Void" action on each;
//   the form of a void (POST /transactions/{id}/void: reason and witness);
//   the search for a patron by card, name or id (GET /players);
//   what a cash transaction makes of the patron's gaming day, as the amount
//   is typed and in the answer (the MTL entry, the alert with "take
//   identification now", the CTR), from his cash_today and the property's
//   Title 31 limits; a patron's mark near a limit; and the refusal
//   identification_required as what to do about it.
import * as api from './api.js';
import {h, dataTable, note} from './dom.js';
import {money, when} from './format.js';
import {formField, witnessFields, refusalNote} from './common.js';
import {playerLink, playerName, playerText, anonymousBadge, maySearchByName} from './players.js';

/** The cage's types, in the order offered, with the directions each allows (the daemon refuses the others). */
export const CAGE_TYPES = [
  {type: 'chip_redemption', directions: ['out']},
  {type: 'front_money', directions: ['in', 'out']},
  {type: 'safekeeping', directions: ['in', 'out']},
  {type: 'marker_payment', directions: ['in']},
  {type: 'check_cashing', directions: ['out']},
  {type: 'cash_advance', directions: ['out']},
  {type: 'other', directions: ['in', 'out']},
];

const TYPE_NAMES = {
  chip_purchase: 'Chip purchase', money_play: 'Money play', marker_issue: 'Marker issue',
  marker_redemption: 'Marker redemption', chip_redemption: 'Chip redemption', front_money: 'Front money',
  safekeeping: 'Safekeeping', marker_payment: 'Marker payment', check_cashing: 'Check cashing',
  cash_advance: 'Cash advance', other: 'Other',
};

/** "front_money" -> "Front money". */
export function typeName(type) {
  return TYPE_NAMES[type] || (type ? String(type).replace(/_/g, ' ') : '—');
}

/** What a direction means at the cage for a type: "Deposit (in)", "Out (paid to the patron)". */
export function directionChoice(type, direction) {
  const front = {in: 'Deposit (in)', out: 'Withdrawal (out)'};
  if (type === 'front_money' || type === 'safekeeping') return front[direction];
  return direction === 'in' ? 'In (the patron pays the cage)' : 'Out (the cage pays the patron)';
}

/** "Cash in", "Cash out" (a side of Title 31, or a transaction's direction). */
export function sideText(direction, kind = 'cash') {
  const k = kind === 'cash' ? 'Cash' : kind === 'chips' ? 'Chips' : kind === 'marker' ? 'Marker' : String(kind || 'Cash');
  return `${k} ${direction === 'in' ? 'in' : direction === 'out' ? 'out' : direction}`;
}

/** Where a transaction was made: "T1, seat 2", "T1", "Cage, window 3", "Cage". */
export function whereText(x) {
  if (x.table === null || x.table === undefined || x.seat === 'cage') {
    return x.window && x.window !== 'cage' ? `Cage, window ${x.window}` : 'Cage';
  }
  return Number.isInteger(x.seat) ? `${x.table}, seat ${x.seat}` : String(x.table);
}

/** The same, the table a link. */
export function whereCell(x) {
  if (x.table === null || x.table === undefined || x.seat === 'cage') return h('span', {'data-where': 'cage'}, whereText(x));
  return h('span', {'data-where': x.table}, h('a', {href: `#/table/${encodeURIComponent(x.table)}`}, x.table),
    Number.isInteger(x.seat) ? `, seat ${x.seat}` : '');
}

/**
 * The patron of a transaction or an MTL entry: his name as written at the
 * time and his id (a link: "Ana Lopez (player P3)"), the description below
 * when he has a name too; "counted for player P9" when the record was merged
 * into another.
 */
export function patronCell(x) {
  const name = x.name || x.patron || '';
  return h('span', {class: 'stack'}, playerLink(x.player, name || x.description ? {name, description: x.description} : null),
    name && x.description ? h('small', null, x.description) : null,
    x.counted_for && x.counted_for !== x.player
      ? h('small', {class: 'muted', 'data-counted-for': x.counted_for}, 'counted for ', playerLink(x.counted_for)) : null);
}

/** A void's mark: "⊘ Void", who voided it, the witness, when and why. */
export function voidMark(v) {
  return h('span', {class: 'stack', 'data-void': 'yes'},
    h('span', {class: 'badge flag-high'}, h('span', {'aria-hidden': 'true'}, '⊘ '), 'Void'),
    h('small', {class: 'voided-note'}, `Voided by ${v.by} (witness ${v.witness}), `, when(v.at, 'short'), `: ${v.reason}`));
}

/** An amount, struck through when the transaction was voided. */
function amountCell(x, cur) {
  return x.void ? h('del', null, money(x.amount, cur)) : money(x.amount, cur);
}

/**
 * A gaming day's transactions as a table, oldest first.  onVoid(x): the
 * "Void" button of each transaction not voided (left out: no button).
 */
export function transactionsTable(rows, cur, {onVoid, caption = 'Transactions', empty = 'No transaction.'} = {}) {
  const cols = [
    {label: 'At', rowHeader: true, render: x => when(x.at, 'short')},
    {label: '#', num: true, render: x => String(x.id)},
    {label: 'Where', render: whereCell},
    {label: 'Patron', render: patronCell},
    {label: 'Type', render: x => typeName(x.type)},
    {label: 'Side', render: x => sideText(x.direction, x.kind)},
    {label: 'Amount', num: true, render: x => amountCell(x, cur)},
    {label: 'By', className: 'nowrap', render: x => x.by || '—'},
    {label: 'State', className: 'notes', render: x => {
      if (x.void) return voidMark(x.void);
      if (!onVoid) return h('span', {class: 'muted'}, 'Counts');
      const b = h('button', {type: 'button', class: 'btn btn-small', 'data-action': 'void', 'data-txn': String(x.id)}, 'Void');
      b.addEventListener('click', () => onVoid(x));
      return b;
    }},
  ];
  const table = dataTable(cols, rows, {caption, empty, rowClass: x => x.void ? 'row-voided' : null});
  for (const [i, tr] of [...table.querySelectorAll('tbody tr')].entries()) tr.dataset.txn = String(rows[i].id);
  return table;
}

/** One line of a transaction for a sentence: "#12, front money, cash in of $3,000.00, Ana Lopez (player P3) at the cage, window 2". */
export function transactionLine(x, cur) {
  return `#${x.id}, ${typeName(x.type).toLowerCase()}, ${sideText(x.direction, x.kind).toLowerCase()} of ` +
    `${money(x.amount, cur)}, ${playerText(x.player)} at ${whereText(x).replace(/^Cage/, 'the cage')}`;
}

/**
 * The refusal of a write as a sentence.  identification_required: the
 * patron's record lacks its ID type and number; a link to his page, where
 * they are recorded.  what: what was refused ("This transaction").
 */
export function cashRefusal(e, player, what = 'This transaction') {
  if (e.code !== 'identification_required') return refusalNote(e);
  return note('error', h('strong', null, 'Identification required: nothing was recorded. '),
    `${what} needs the identification of ${player ? playerText(player) : 'the patron'} on record (ID type and number): `,
    'above the CTR limit of a gaming day, or to identify or file a CTR, the patron must be identified. ',
    player ? h('span', null, 'Record it on ', h('a', {href: `#/players/${encodeURIComponent(player)}`, 'data-identify': player},
      `the page of ${playerText(player)}`), ', then try again.') : 'Record it on his page, then try again.');
}

/** The property's Title 31 limits (GET /tables' property.title31), null when the server does not say them. */
export function title31Limits() {
  return api.property()?.title31 || null;
}

/**
 * What a transaction makes of the patron's gaming day (docs/players.md,
 * "Title 31 at the moment of action"), from his cash of the day before it
 * (today: {cash_in, cash_out}), whether he is identified, and the limits:
 * {level, mtl, after, lines}.  level: "none", "alert" (the side reaches
 * alert_at), "ctr" (over ctr_over, identified: a CTR is due) or "refused"
 * (over ctr_over without identification: the daemon refuses it); mtl: the
 * amount is an MTL entry.  done: the transaction is recorded (today already
 * holds it; the sentences say "is", not "would be").  Chips and markers are
 * not currency: level "none", no line.
 */
export function title31Effect({player, direction, kind = 'cash', amount, today, identified, limits, done = false}, cur) {
  const out = {level: 'none', mtl: false, after: null, lines: []};
  if (!limits || !today || kind !== 'cash' || !(amount > 0)) return out;
  const side = direction === 'out' ? 'out' : 'in';
  const before = Number(today[side === 'in' ? 'cash_in' : 'cash_out']) || 0;
  const after = done ? before : before + amount;
  const who = player ? playerText(player) : 'the patron';
  const is = done ? 'is' : 'would be';
  const m = x => money(x, cur);
  out.after = after;
  out.mtl = amount >= limits.mtl_threshold;
  if (out.mtl) {
    out.lines.push(`MTL entry: ${m(amount)} in cash is at or over ${m(limits.mtl_threshold)}, so it ${done ? 'is' : 'will be'} ` +
      'written in the multiple transaction log with his name and the time.');
  }
  const total = `cash ${side} of the gaming day for ${who} ${is} ${m(after)}`;
  const Total = total.charAt(0).toUpperCase() + total.slice(1);
  if (after > limits.ctr_over && !identified) {
    out.level = 'refused';
    out.lines.push(`${Total}, over the CTR limit of ${m(limits.ctr_over)}, and his record holds no identification: ` +
      'take identification now (ID type and number on his page); without it this transaction is refused.');
  } else if (after > limits.ctr_over) {
    out.level = 'ctr';
    out.lines.push(`CTR: ${total}, over the CTR limit of ${m(limits.ctr_over)}: a currency transaction report is due ` +
      '(listed in Title 31).');
  } else if (after >= limits.alert_at) {
    out.level = 'alert';
    out.lines.push(`Alert: ${total}, ${m(limits.ctr_over - after)} before the CTR limit of ${m(limits.ctr_over)}.` +
      (identified ? ' His identification is on record: past the limit a CTR is due.'
        : ' Take identification now: past the limit a transaction is refused without it.'));
  } else {
    out.lines.push(`${Total}, ${m(limits.ctr_over - after)} before the CTR limit.`);
  }
  return out;
}

/**
 * The effect as a box: a note per kind of line (the MTL entry; the alert,
 * the CTR or the refusal to come), marked data-title31=NAME and data-level.
 * Empty (a muted line) when there is nothing to say.
 */
export function title31Box(effect, name = 'preview') {
  const box = h('div', {'data-title31': name, 'data-level': effect.level, 'data-mtl': effect.mtl ? 'yes' : 'no'});
  const kind = {none: 'info', alert: 'warn', ctr: 'error', refused: 'error'}[effect.level];
  for (const line of effect.lines) {
    const mtl = line.startsWith('MTL entry');
    box.append(note(mtl ? 'info' : kind, h('strong', null, mtl ? 'Title 31, MTL: ' : 'Title 31: '), mtl ? line.slice(11) : line));
  }
  return box;
}

/** A patron's mark when a side of his gaming day is at the alert level or over the CTR limit (cash_today); null else. */
export function nearLimitMark(today, cur) {
  if (!today || (!today.alert && !today.ctr)) return null;
  const lim = title31Limits();
  const sides = [['in', today.cash_in], ['out', today.cash_out]]
    .filter(([, v]) => lim ? v >= lim.alert_at : true).map(([d, v]) => `cash ${d} ${money(v, cur)}`).join(', ');
  const text = today.ctr ? 'Over the CTR limit' : 'Near the CTR limit';
  const id = today.identified ? '' : '; no identification on record';
  return h('span', {class: `badge near-limit ${today.ctr ? 'near-limit-ctr' : 'near-limit-alert'}`,
    'data-near-limit': today.ctr ? 'ctr' : 'alert', title: `${text} today: ${sides}${id}`},
  h('span', {'aria-hidden': 'true'}, today.ctr ? '▲ ' : '△ '), `${text}: ${sides}${id}`);
}

/**
 * What a transaction's answer says of Title 31: the recorded line, the
 * patron's cash in and cash out of the day, whether he is identified, how
 * much this side may still take before the CTR limit, and the same
 * sentences the form showed as the amount was typed (the MTL entry; a
 * warning at the alert level or over the limit).
 */
export function title31Answer(a, cur) {
  const t = a.title31 || {};
  const tot = a.totals || {};
  const side = a.direction === 'in' ? 'cash in' : 'cash out';
  const out = [note('ok', `Recorded: ${transactionLine(a, cur)} (gaming day ${a.gaming_day}).`)];
  out.push(h('dl', {class: 'facts', 'data-title31': 'answer'},
    h('div', {class: 'fact', 'data-fig': 'cash_in'}, h('dt', null, 'Cash in today'), h('dd', null, money(tot.cash_in, cur))),
    h('div', {class: 'fact', 'data-fig': 'cash_out'}, h('dt', null, 'Cash out today'), h('dd', null, money(tot.cash_out, cur))),
    h('div', {class: 'fact', 'data-fig': 'remaining'}, h('dt', null, `Before the CTR limit (${side})`),
      h('dd', null, t.remaining === undefined ? '—' : money(t.remaining, cur))),
    h('div', {class: 'fact', 'data-fig': 'identified'}, h('dt', null, 'Identification on record'),
      h('dd', null, t.identified ? 'Yes' : 'No'))));
  out.push(...answerWarnings(a, cur));
  return out;
}

/**
 * The answer's Title 31 sentences: the MTL entry (data-title31="mtl") and,
 * at the alert level or over the limit, the warning (data-title31="warning",
 * data-ctr) with a link to Title 31.  From the page's limits when it has
 * them, else from the answer's flags.
 */
export function answerWarnings(a, cur) {
  const t = a.title31 || {};
  if ((a.kind || 'cash') !== 'cash' || !a.totals) return [];
  const e = title31Effect({player: a.player, direction: a.direction, kind: 'cash', amount: a.amount, today: a.totals,
    identified: t.identified, limits: title31Limits(), done: true}, cur);
  const out = [];
  const mtl = e.lines.find(l => l.startsWith('MTL entry'));
  if (mtl) out.push(h('div', {'data-title31': 'mtl'}, note('info', h('strong', null, 'Title 31, MTL: '), mtl.slice(11))));
  let line = e.level === 'alert' || e.level === 'ctr' || e.level === 'refused' ? e.lines[e.lines.length - 1] : '';
  const side = a.direction === 'in' ? 'cash in' : 'cash out';
  if (!e.lines.length && t.ctr) line = `The ${side} of the gaming day for ${playerText(a.player)} is over the CTR limit: a CTR is due.`;
  else if (!e.lines.length && t.alert) line = `The ${side} of the gaming day for ${playerText(a.player)} has reached the alert level.`;
  if (line && (t.alert || t.ctr)) {
    out.push(h('div', {'data-title31': 'warning', 'data-ctr': t.ctr ? 'yes' : 'no'}, note(t.ctr ? 'error' : 'warn',
      h('strong', null, 'Title 31: '), line, ' ', h('a', {href: `#/title31?day=${encodeURIComponent(a.gaming_day)}`}, 'Open Title 31'), '.')));
  }
  return out;
}

/**
 * The form of a void, in a box that a row's "Void" opens (open(x)).
 * done(answer) after the daemon recorded it.  Returns {el, open}.
 */
export function voidBox(cur, done) {
  const txn = h('input', {type: 'text', name: 'txnvoid-id', inputmode: 'numeric', maxlength: '20', autocomplete: 'off'});
  const which = h('p', {class: 'muted small', 'data-void-which': ''});
  const reason = h('input', {type: 'text', name: 'txnvoid-reason', maxlength: '500', autocomplete: 'off'});
  const w = witnessFields('txnvoid');
  const msg = h('div', {class: 'form-msg', role: 'status', 'aria-live': 'polite'});
  const btn = h('button', {type: 'submit', class: 'btn btn-primary'}, 'Void the transaction');
  const form = h('form', {class: 'doc-form', 'data-form': 'txn-void', 'aria-label': 'Void a transaction', novalidate: true},
    formField('Transaction #', txn), which, formField('Reason', reason, 'Why it is void: it stays listed, struck through, ' +
      'and no longer counts in the totals, alerts or CTR items.'), w.el, h('div', {class: 'field-submit'}, btn), msg);
  form.addEventListener('submit', async ev => {
    ev.preventDefault();
    const id = txn.value.trim();
    if (!/^\d+$/.test(id)) { msg.replaceChildren(note('warn', 'Type the number of the transaction to void.')); return; }
    if (!reason.value.trim()) { msg.replaceChildren(note('warn', 'Say why the transaction is void.')); reason.focus(); return; }
    btn.disabled = true;
    msg.replaceChildren('Recording…');
    const body = {reason: reason.value.trim(), witness: w.read()};
    w.clear();
    try {
      const a = await api.send('POST', `/transactions/${id}/void`, body);
      reason.value = '';
      which.textContent = '';
      msg.replaceChildren(note('ok', `Transaction #${a.id} is void (${a.void.reason}), voided by ${a.void.by}, witness ${a.void.witness}.`,
        a.totals ? ` The patron\u2019s cash today: in ${money(a.totals.cash_in, cur)}, out ${money(a.totals.cash_out, cur)}.` : ''));
      done(a);
    } catch (e) {
      if (e.status !== 401) msg.replaceChildren(refusalNote(e));
    } finally {
      btn.disabled = false;
    }
  });
  const box = h('details', {class: 'doc-form-box', 'data-box': 'txn-void'}, h('summary', null, 'Void a transaction'), form);
  return {
    el: box,
    open(x) {
      box.open = true;
      txn.value = String(x.id);
      which.textContent = `Voiding ${transactionLine(x, cur)}.`;
      msg.replaceChildren();
      reason.focus();
    },
  };
}

/**
 * Finds a patron by card, by a part of the name (the roles that read
 * personal data) or by his id ("P3"), and lets one be chosen.  Returns
 * {el, chosen() -> id or null, clear()}; onChange(record) when one is chosen.
 */
export function patronPicker(name, onChange = () => {}) {
  const text = h('input', {type: 'text', id: `${name}-patron`, name: `${name}-patron`, maxlength: '200', spellcheck: 'false', autocomplete: 'off'});
  const find = h('button', {type: 'button', class: 'btn', 'data-action': 'find-patron'}, 'Find');
  const results = h('div', {class: 'seat-results', 'aria-live': 'polite'});
  const picked = h('p', {class: 'picked', 'data-picked': ''}, h('span', {class: 'muted'}, 'No patron chosen yet.'));
  let chosen = null;

  function choose(p) {
    chosen = p;
    results.replaceChildren();
    picked.dataset.picked = p.id;
    picked.replaceChildren(h('span', null, 'Patron: ', playerLink(p.id, p), ' ', anonymousBadge(p),
      p.card ? h('span', {class: 'muted'}, ` · card ${p.card}`) : null,
      p.merged_into ? note('warn', `This record was merged into ${playerText(p.merged_into)}: choose `, playerLink(p.merged_into), ' instead.') : null));
    onChange(p);
  }

  async function search() {
    const t = text.value.trim();
    if (!t) { results.replaceChildren(note('warn', maySearchByName() ? 'Type a card, a name or a player id.' : 'Type a card or a player id.')); return; }
    results.replaceChildren(h('p', {class: 'muted'}, 'Searching…'));
    const found = new Map();
    try {
      if (/^P\d+$/i.test(t)) {
        const p = await api.get(`/players/${encodeURIComponent(t.toUpperCase())}`).catch(e => { if (e.status === 404) return null; throw e; });
        if (p) found.set(p.id, p);
      } else {
        for (const p of (await api.get('/players' + api.qs({card: t}))).players) found.set(p.id, p);
        if (maySearchByName()) for (const p of (await api.get('/players' + api.qs({name: t}))).players) found.set(p.id, p);
      }
    } catch (e) {
      if (e.status !== 401) results.replaceChildren(refusalNote(e));
      return;
    }
    const list = [...found.values()];
    if (list.length === 1) { choose(list[0]); return; }
    results.replaceChildren(dataTable([
      {label: 'Player', rowHeader: true, render: p => h('span', null, playerLink(p.id, p), ' ', anonymousBadge(p))},
      {label: 'Card', render: p => p.card || '—'},
      {label: '', render: p => {
        const b = h('button', {type: 'button', class: 'btn btn-small', 'data-pick': p.id}, `Choose ${p.id}`);
        b.addEventListener('click', () => choose(p));
        return b;
      }},
    ], list, {caption: 'Players found', empty: 'No player has that card, name or id.'}));
  }
  find.addEventListener('click', search);
  text.addEventListener('keydown', ev => { if (ev.key === 'Enter') { ev.preventDefault(); search(); } });
  const label = maySearchByName() ? 'Patron: card, name or player id' : 'Patron: card or player id';
  return {
    el: h('div', {class: 'patron-picker'}, h('div', {class: 'field'}, h('label', {for: text.id}, label),
      h('div', {class: 'inline-list'}, text, ' ', find)), results, picked),
    chosen: () => chosen?.id || null,
    record: () => chosen,
    pick: choose,
    clear() {
      chosen = null;
      text.value = '';
      results.replaceChildren();
      delete picked.dataset.picked;
      picked.replaceChildren(h('span', {class: 'muted'}, 'No patron chosen yet.'));
    },
    name: () => chosen ? playerName(chosen) : '',
  };
}
