// cage.js - the cage view (#/cage?day=D&where=W; docs/page.md, "Cage"):
//
//   Record a cage transaction (the cage role): the patron (by card, name or
//   id), the type and the directions it allows, the amount typed in the
//   currency's units and read into cents exactly, the window; POST
//   /cage/transactions.  As the amount is typed, what it would make of the
//   patron's gaming day (his cash_today from GET /players/{id}): an MTL
//   entry, the alert with "take identification now", the CTR.  Register a
//   player (card, name, identification; POST /players), then chosen as the
//   patron.  The answer's Title 31 figures are shown at once: the
//   patron's cash in and cash out of the day, what this side may still take
//   before the CTR limit, a warning at the alert level or over the limit; a
//   refusal identification_required says so and links to his page.
//   Transactions of the gaming day: the cage's and the tables' (GET
//   /transactions), void ones struck through; "Void" on each for the floor,
//   a pit boss and the cage (POST /transactions/{id}/void, witnessed).
import * as api from '../api.js';
import {h, section, note} from '../dom.js';
import {money, parseAmount, currencySymbol} from '../format.js';
import {pageHeader, errorNote, csvButton, formField} from '../common.js';
import {mayCage, mayVoidCash, playersCurrency} from '../players.js';
import {CAGE_TYPES, typeName, directionChoice, transactionsTable, voidBox, patronPicker, title31Answer,
  cashRefusal, title31Effect, title31Box, title31Limits, nearLimitMark} from '../cash.js';
import {mayRegister} from '../players.js';
import {registerForm} from '../register.js';

export const name = 'cage';

/**
 * The form of a cage transaction; recorded(answer) after each one recorded.
 * Returns {form, pick(record)}: pick chooses a patron (one just registered).
 */
function recordForm(cur, recorded) {
  // the chosen patron's cash of the gaming day (GET /players/{id} cash_today), for the preview as the amount is typed
  let today = null, identified = false, reading = 0;
  const preview = h('div', {class: 'title31-preview', 'aria-live': 'polite', 'data-preview': ''});
  const standing = h('p', {class: 'muted small', 'data-standing': ''});
  const picker = patronPicker('cage', async rec => {
    const n = ++reading;
    today = null;
    identified = !!(rec.id_type && rec.id_number);
    standing.replaceChildren();
    showPreview();
    try {
      const full = await api.get(`/players/${encodeURIComponent(rec.id)}`);
      if (n !== reading) return;
      today = full.cash_today || null;
      identified = today ? today.identified : !!(full.id_type && full.id_number);
      showStanding(rec.id);
    } catch (e) {
      if (n === reading && e.status !== 401) standing.replaceChildren(cashRefusal(e, rec.id));
    }
    showPreview();
  });
  function showStanding(id) {
    if (!today) { standing.replaceChildren(); return; }
    standing.replaceChildren(`${id} today: cash in ${money(today.cash_in, cur)}, cash out ${money(today.cash_out, cur)}; `,
      today.identified ? 'identification on record.' : 'no identification on record.', ' ', nearLimitMark(today, cur) || '');
  }
  const type = h('select', {name: 'cage-type'}, CAGE_TYPES.map(t => h('option', {value: t.type}, typeName(t.type))));
  const direction = h('select', {name: 'cage-direction'});
  const fillDirections = () => {
    const keep = direction.value;
    const allowed = CAGE_TYPES.find(t => t.type === type.value).directions;
    direction.replaceChildren(...allowed.map(d => h('option', {value: d}, directionChoice(type.value, d))));
    if (allowed.includes(keep)) direction.value = keep;
  };
  type.addEventListener('change', fillDirections);
  fillDirections();
  const amount = h('input', {type: 'text', name: 'cage-amount', inputmode: 'decimal', autocomplete: 'off', maxlength: '24'});
  const read = h('output', {class: 'running-total', 'aria-live': 'polite', 'data-amount': ''});
  const showAmount = () => {
    const v = parseAmount(amount.value, cur);
    read.textContent = v === null ? '' : Number.isNaN(v) ? 'Not an amount' : money(v, cur);
    showPreview();
  };
  // what the amount typed would make of his gaming day: the MTL entry, the alert, the CTR
  function showPreview() {
    const v = parseAmount(amount.value, cur);
    const e = title31Effect({player: picker.chosen(), direction: direction.value, kind: 'cash', amount: v, today, identified,
      limits: title31Limits()}, cur);
    preview.replaceChildren(e.lines.length ? title31Box(e) : '');
  }
  amount.addEventListener('input', showAmount);
  direction.addEventListener('change', showPreview);
  const windowIn = h('input', {type: 'text', name: 'cage-window', maxlength: '32', autocomplete: 'off', spellcheck: 'false'});
  const result = h('div', {class: 'form-msg', role: 'status', 'aria-live': 'polite', 'data-result': ''});
  const btn = h('button', {type: 'submit', class: 'btn btn-primary'}, 'Record');
  const form = h('form', {class: 'doc-form', 'data-form': 'cage', 'aria-label': 'Record a cage transaction', novalidate: true},
    picker.el, formField('Type', type), formField('Direction', direction),
    formField(`Amount (${currencySymbol(cur)})`, amount, 'In the currency: 3000, 3,000.50.'), read, standing, preview,
    formField('Window (optional)', windowIn, 'Left empty: "cage".'), h('div', {class: 'field-submit'}, btn), result);

  form.addEventListener('submit', async ev => {
    ev.preventDefault();
    const player = picker.chosen();
    const cents = parseAmount(amount.value, cur);
    if (!player) { result.replaceChildren(note('warn', 'Find the patron and choose him first.')); return; }
    if (cents === null || Number.isNaN(cents) || cents <= 0) {
      result.replaceChildren(note('warn', `Type the amount in ${cur}, more than zero: 3000 or 3,000.50.`));
      amount.focus();
      return;
    }
    const body = {player, direction: direction.value, type: type.value, amount: cents};
    if (windowIn.value.trim()) body.window = windowIn.value.trim();
    btn.disabled = true;
    result.replaceChildren('Recording…');
    try {
      const a = await api.send('POST', '/cage/transactions', body);
      if (a.totals && picker.chosen() === player) {
        today = {...a.totals, identified: !!a.title31?.identified, alert: !!a.title31?.alert, ctr: !!a.title31?.ctr};
        identified = today.identified;
        showStanding(player);
      }
      amount.value = '';
      showAmount();
      result.replaceChildren(...title31Answer(a, cur));
      recorded(a);
    } catch (e) {
      if (e.status !== 401) result.replaceChildren(cashRefusal(e, player));
    } finally {
      btn.disabled = false;
    }
  });
  return {form, pick: rec => picker.pick(rec)};
}

export async function render(main, params, ctx) {
  ctx.setTitle('Cage');
  const prop = api.property();
  const cur = playersCurrency(api.tables());
  const q = ctx.query;
  const state = {day: q.get('day') || prop?.gaming_day || '', where: q.get('where') || ''};
  main.append(pageHeader('Cage', {sub: 'Cash at the cage: a patron\u2019s transaction with its Title 31 figures at once, ' +
    'and the gaming day\u2019s transactions of the cage and the tables, with their voids.'}));

  const [recSec, recBody] = section('Record a cage transaction', {id: 'cage-record'});
  const [listSec, listBody] = section('Transactions of the gaming day', {id: 'cage-transactions',
    actions: csvButton('Download CSV', () => '/transactions' + api.qs({gaming_day: state.day, where: state.where, format: 'csv'}),
      'transactions.csv', api)});
  main.append(recSec, listSec);

  const day = h('input', {type: 'date', id: 'cage-day', value: state.day});
  const where = h('select', {id: 'cage-where'}, h('option', {value: ''}, 'The cage and every table'),
    h('option', {value: 'cage'}, 'The cage'), api.tables().map(t => h('option', {value: t.id}, `Table ${t.id}`)));
  where.value = state.where;
  const filters = h('form', {class: 'filters', 'aria-label': 'Gaming day and place'},
    h('div', {class: 'filter-fields'},
      h('div', {class: 'field'}, h('label', {for: 'cage-day'}, 'Gaming day'), day),
      h('div', {class: 'field'}, h('label', {for: 'cage-where'}, 'Where'), where),
      h('div', {class: 'field field-submit'}, h('button', {type: 'submit', class: 'btn btn-primary'}, 'Show'))));
  const list = h('div', {class: 'txn-list'});
  const voids = mayVoidCash() ? voidBox(cur, () => load()) : null;
  listBody.append(filters, list, voids ? h('div', {class: 'doc-forms'}, voids.el) : '');

  async function load() {
    list.setAttribute('aria-busy', 'true');
    try {
      const b = await api.get('/transactions' + api.qs({gaming_day: state.day, where: state.where}));
      if (!ctx.alive()) return;
      if (!state.day) { state.day = b.gaming_day; day.value = b.gaming_day; }
      const live = b.transactions.filter(x => !x.void);
      const voided = b.transactions.length - live.length;
      list.replaceChildren(
        h('p', {class: 'muted small', 'data-count': String(b.transactions.length)},
          `Gaming day ${b.gaming_day}: ${b.transactions.length} transaction${b.transactions.length === 1 ? '' : 's'}` +
          (voided ? `, ${voided} of them void (struck through: they no longer count).` : '.')),
        transactionsTable(b.transactions, cur, {onVoid: voids ? x => voids.open(x) : null,
          caption: 'Transactions of the gaming day', empty: 'No transaction on this gaming day here.'}));
    } catch (e) {
      if (ctx.alive()) list.replaceChildren(errorNote(e, 'Transactions') || '');
    } finally {
      list.removeAttribute('aria-busy');
    }
  }
  filters.addEventListener('submit', ev => {
    ev.preventDefault();
    state.day = day.value || prop?.gaming_day || '';
    state.where = where.value;
    ctx.setQuery(Object.fromEntries(Object.entries({day: state.day, where: state.where}).filter(([, v]) => v)));
    load();
  });

  if (mayCage()) {
    const rec = recordForm(cur, () => load());
    recBody.append(rec.form);
    if (mayRegister()) {
      const [regSec, regBody] = section('Register a player', {id: 'cage-register'});
      regBody.append(h('p', {class: 'muted small'}, 'A patron with no record yet: his card and name, and the identification ' +
        'a CTR needs. Once registered he is the patron of the transaction above.'),
      registerForm('cage-reg', {identification: true, registered: p => rec.pick(p)}));
      recSec.after(regSec);
    }
  } else {
    recBody.append(h('p', {class: 'muted small'}, 'Recording a cage transaction is for a cage cashier, signed in as himself. ' +
      'A floor supervisor, a pit boss and the cage void transactions below.'));
  }
  await load();
}
