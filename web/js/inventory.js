// inventory.js - a table's inventory panel (the table view): the gaming
// day's accounting documents (opener, fills, credits, their voids and
// receipts, shift changes, closer, drop) with who signed and the
// witnesses, and the forms to record them for the roles that sign each
// (docs/accounting.md, "Who signs"; accounting.signatures "nj" by default):
//
//   opener, closer,   dealer | floor | pitboss  (witness: the other of the dealer and the floor)
//   shift change
//   fill, credit      cage                      (witnesses: floor or pitboss, and the runner: security)
//   receipt of a slip dealer | floor | pitboss  (witness: the other of the dealer and the floor)
//   void of a slip    cage | floor | pitboss    (witness: floor, pitboss)
//   drop              count                     (witnesses: count, three people in all by default;
//                                                a back-dated day: a pit boss's or admin's approval)
//
// A slip issued and not yet received is "pending": it is marked in the list,
// with a Receive button that opens the receipt form on it, and left out of
// the day's totals as the master game leaves it out.  A slip is voided by
// choosing it (its row's Void button, or the form's list of the day's slips);
// a void's row shows its amount negative.  A fill's runner is typed by name
// or id (the people holding security offered).  Under "basic" a slip
// counts when issued, one witness each, and the runner's password is not
// asked.  A count is typed per denomination of the property's chips (GET
// /tables answers them) and its running total shown as it is typed; the
// drop's count sheet also per US bill.  A refusal is shown as the daemon
// words it; opener_discrepancy asks for a reason.
import * as api from './api.js';
import * as session from './session.js';
import {h, section, dataTable, note} from './dom.js';
import {money, when, toMinor, minorDigits} from './format.js';
import {errorNote, witnessFields, refusal} from './common.js';

const TITLES = {opener: 'Opener', closer: 'Closer', fill: 'Fill', credit: 'Credit', fill_void: 'Void of fill',
  credit_void: 'Void of credit', fill_receipt: 'Receipt of fill', credit_receipt: 'Receipt of credit', drop: 'Drop',
  shift_change: 'Shift change'};

let seq = 0;
function field(labelText, control, hint) {
  control.id = control.id || `inv-${++seq}`;
  return h('div', {class: 'field'}, h('label', {for: control.id}, labelText), control,
    hint ? h('small', {class: 'muted'}, hint) : null);
}

/** The roles of the signed-in person ([] for a token: a token signs nothing). */
function roles() {
  return session.current()?.person.roles || [];
}
const any = (...want) => want.some(r => roles().includes(r));

/** "$25 × 40, $5 × 20" from a count {"2500": 40, ...}. */
function chipsText(chips, cur) {
  if (!chips || typeof chips !== 'object') return '';
  return Object.entries(chips).sort((a, b) => Number(b[0]) - Number(a[0]))
    .map(([d, n]) => `${money(Number(d), cur)} × ${n}`).join(', ');
}

function detail(d, cur) {
  const parts = [];
  if (d.type === 'drop') {
    parts.push(`box ${d.box}: cash ${money(d.cash, cur)}, chips ${money(d.chips, cur)}, markers ${money(d.markers, cur)}`);
    if (d.count?.cash && Object.keys(d.count.cash).length) parts.push(`bills ${chipsText(d.count.cash, cur)}`);
    if (d.count?.chips && Object.keys(d.count.chips).length) parts.push(`chips ${chipsText(d.count.chips, cur)}`);
    if (d.count?.coupons) parts.push(`coupons ${money(d.count.coupons, cur)} (not counted)`);
    if (d.collections) parts.push(`collections ${money(d.collections, cur)}`);
    if (d.shift) parts.push(`shift ${d.shift}`);
    if (d.approval) parts.push(`back-dated, approved by ${d.approval}`);
  } else {
    if (d.chips) parts.push(chipsText(d.chips, cur));
    if (d.discrepancy !== undefined && d.discrepancy !== null && d.discrepancy !== 0) {
      parts.push(`${money(d.discrepancy, cur, {signed: true})} against the last closer`);
    }
    if (d.runner) parts.push(`runner ${d.runner}`);
    if (d.reason) parts.push(`reason: ${d.reason}`);
  }
  return parts.join('; ');
}

function docRow(d) {
  const name = TITLES[d.type] || d.type;
  return d.serial && d.type !== 'drop' ? `${name} ${d.serial}` : name;
}

/** A slip's status: pending (with a Receive button when onReceive is given), received by whom, void, issued. */
function slipStatus(d, onReceive) {
  if (d.status === 'pending') {
    return h('span', {class: 'stack'}, h('span', {class: 'badge badge-pending'}, 'Pending'),
      onReceive ? h('button', {type: 'button', class: 'btn btn-small', 'data-receive': d.serial,
        onclick: () => onReceive(d)}, 'Receive') : null);
  }
  if (d.status === 'received' && d.received) {
    return h('span', {class: 'stack'}, 'Received', h('small', {class: 'muted'},
      `by ${d.received.signer} (witness ${(d.received.witnesses || [d.received.witness]).join(', ')})`));
  }
  return d.status === 'void' ? 'Void' : d.status === 'issued' ? 'Issued' : '';
}

/** Whether d is a fill or credit that may still be voided (not voided, not a void or receipt itself). */
function voidable(d) {
  return (d.type === 'fill' || d.type === 'credit') && !d.voided && d.status !== 'void';
}

/**
 * The documents as a table; a voided slip is struck through with its void's reason, a pending one marked;
 * onVoid(d): a "Void" button on each slip that may be voided.
 */
function documentsTable(docs, cur, onReceive, onVoid) {
  return dataTable([
    {label: 'Time', rowHeader: true, render: d => when(d.at, 'short')},
    {label: 'Document', render: d => d.voided ? h('span', {class: 'stack'}, h('del', null, docRow(d)),
      h('small', {class: 'voided-note'}, `Voided by ${d.voided.signer} (witness ${d.voided.witness}): ${d.voided.reason}`)) : docRow(d)},
    {label: 'Amount', num: true, render: d => d.voided ? h('del', null, money(d.total, cur))
      : d.type.endsWith('_void') ? h('span', {class: 'neg', 'data-void-amount': ''}, money(-Math.abs(d.total), cur)) : money(d.total, cur)},
    {label: 'Detail', className: 'wrap', render: d => detail(d, cur)},
    {label: 'Status', render: d => onVoid && voidable(d) ? h('span', {class: 'stack'}, slipStatus(d, onReceive),
      h('button', {type: 'button', class: 'btn btn-small', 'data-void-slip': d.serial, onclick: () => onVoid(d)}, 'Void'))
      : slipStatus(d, onReceive)},
    {label: 'Signed by', render: d => d.signer},
    {label: 'Witness', render: d => (d.witnesses || [d.witness]).join(', ')},
  ], docs, {caption: 'The gaming day\u2019s documents', empty: 'No documents for this gaming day yet.',
    rowClass: d => d.voided ? 'row-voided' : d.status === 'pending' ? 'row-pending' : null});
}

/**
 * Totals of the day's documents that count, as the report sums them: voided
 * slips, voids, receipts and pending slips left out; how many slips are pending.
 */
function dayTotals(docs) {
  const live = docs.filter(d => !d.voided && !d.type.endsWith('_void') && !d.type.endsWith('_receipt') &&
    d.status !== 'pending');
  const sum = type => live.filter(d => d.type === type).reduce((a, d) => a + d.total, 0);
  const openers = live.filter(d => d.type === 'opener'), closers = live.filter(d => d.type === 'closer');
  return {opener: openers.length ? openers[0].total : null, closer: closers.length ? closers[closers.length - 1].total : null,
    fills: sum('fill'), credits: sum('credit'), drop: sum('drop'), pending: docs.filter(d => d.status === 'pending').length};
}

/** The US bills a drop's count sheet counts, in cents. */
const BILLS = [10000, 5000, 2000, 1000, 500, 200, 100];

/**
 * Counts per denomination, with the running total; returns {el, read(),
 * value(), clear()}.  attr: the data- attribute naming an input's
 * denomination ("denom" for chips, "bill" for a drop's bills).
 */
function chipCounts(denoms, cur, name, {legend = 'Chips counted', attr = 'denom', onChange} = {}) {
  const total = h('output', {class: 'running-total', 'aria-live': 'polite'}, money(0, cur));
  const inputs = denoms.map(d => h('input', {type: 'number', min: '0', step: '1', inputmode: 'numeric',
    name: `${name}-${d}`, [`data-${attr}`]: String(d), class: 'count'}));
  const counted = i => (Number(i.value) > 0 ? Math.floor(Number(i.value)) : 0);
  const value = () => inputs.reduce((a, i) => a + counted(i) * Number(i.dataset[attr]), 0);
  const update = () => { total.textContent = money(value(), cur); if (onChange) onChange(); };
  for (const i of inputs) i.addEventListener('input', update);
  const el = h('fieldset', {class: 'chip-counts'}, h('legend', null, legend),
    h('div', {class: 'count-grid'}, inputs.map((i, k) => field(money(denoms[k], cur), i))),
    h('p', {class: 'total-line'}, 'Total: ', total));
  return {
    el,
    value,
    read() {
      const chips = {};
      for (const i of inputs) if (i.value !== '' && Number(i.value) !== 0) chips[i.dataset[attr]] = Number(i.value);
      return chips;
    },
    clear() { for (const i of inputs) i.value = ''; update(); },
  };
}

/** "YYYY-MM-DD" of the day before day ("YYYY-MM-DD"), "" when day is not one. */
function dayBefore(day) {
  const t = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(t) ? '' : new Date(t - 86400000).toISOString().slice(0, 10);
}

/**
 * The drop's count team: a witness id and password per witness (two, as
 * accounting.count_team_min's default of three signers asks with the
 * session), another added on request; returns {el, read(), clear()}.
 */
function countTeam() {
  const list = [];
  const group = h('div', {class: 'count-team'});
  const add = () => {
    const w = witnessFields(`drop-${list.length + 1}`);
    w.el.querySelector('legend').textContent = `Witness ${list.length + 1} (count team)`;
    list.push(w);
    group.append(w.el);
  };
  add();
  add();
  const more = h('button', {type: 'button', class: 'btn', 'data-add-witness': ''}, 'Add a witness');
  more.addEventListener('click', () => { if (list.length < 7) add(); });
  return {
    el: h('div', null, group, more),
    read: () => list.map(w => w.read()).filter(w => w.person !== ''),
    clear: () => { for (const w of list) w.clear(); },
  };
}

/**
 * One form: build(fields) returns the controls; body() the request's
 * [path, body]; after a 201 `done(answer)`.  Refusals shown in the form.
 */
function docForm(title, name, controls, submit, {onRefused} = {}) {
  const msg = h('div', {class: 'form-msg', role: 'status', 'aria-live': 'polite'});
  const btn = h('button', {type: 'submit', class: 'btn btn-primary'}, title);
  const form = h('form', {class: 'doc-form', 'data-form': name, 'aria-label': title, novalidate: true}, controls, h('div', {class: 'field-submit'}, btn), msg);
  form.addEventListener('submit', async ev => {
    ev.preventDefault();
    btn.disabled = true;
    msg.replaceChildren('Recording…');
    try {
      const text = await submit();
      msg.replaceChildren(note('ok', text));
    } catch (e) {
      if (e.status === 401) { msg.replaceChildren(); return; }
      msg.replaceChildren(refusal(e));
      if (onRefused) onRefused(e);
    } finally {
      btn.disabled = false;
    }
  });
  return h('details', {class: 'doc-form-box', 'data-box': name}, h('summary', null, title), form);
}

/**
 * The panel: the day's documents and, for the roles that sign, the forms. Returns the section.
 * opts.onInventory: called once an opener, closer or shift change is recorded (the table's session changed).
 */
export function inventoryPanel(t, ctx, opts = {}) {
  const cur = t.currency;
  const prop = api.property();
  const denoms = prop?.chips || [];
  const day = h('input', {type: 'date', id: 'inv-day', value: prop?.gaming_day || ''});
  const [sec, body] = section('Inventory', {id: 'table-inventory',
    actions: h('label', {class: 'inline-field'}, h('span', null, 'Gaming day '), day)});
  const list = h('div', {class: 'inv-list'});
  const forms = h('div', {class: 'doc-forms'});
  body.append(list, forms);
  const base = `/tables/${encodeURIComponent(t.id)}`;
  let onReceive = null;        // set below for the roles that receive a slip at the table
  let onVoid = null;           // set below for the roles that void a slip
  let slipsChanged = () => {}; // the void form's list of the day's slips
  let docs = [];

  async function load() {
    list.setAttribute('aria-busy', 'true');
    try {
      const b = await api.get(`${base}/documents` + api.qs({gaming_day: day.value}));
      if (!ctx.alive()) return;
      const tot = dayTotals(b.documents);
      docs = b.documents;
      slipsChanged();
      list.replaceChildren(
        h('dl', {class: 'facts inv-totals'}, [['Opener', tot.opener], ['Fills', tot.fills], ['Credits', tot.credits],
          ['Closer', tot.closer], ['Drop', tot.drop]].map(([k, v]) =>
          h('div', {class: 'fact', 'data-total': k.toLowerCase()}, h('dt', null, k), h('dd', null, v === null ? '—' : money(v, cur)))),
          tot.pending ? h('div', {class: 'fact', 'data-total': 'pending'}, h('dt', null, 'Pending slips'),
            h('dd', null, `${tot.pending} not received`)) : null),
        documentsTable(b.documents, cur, onReceive, onVoid));
    } catch (e) {
      if (ctx.alive()) list.replaceChildren(errorNote(e, 'Inventory documents') || '');
    } finally {
      list.removeAttribute('aria-busy');
    }
  }
  day.addEventListener('change', load);

  const recorded = (what, a) => {
    load();
    const pending = a.status === 'pending' ? ' Pending until received at the table.' : '';
    return `Recorded: ${what} of ${money(a.total, cur)} (document #${a.id}), signed by ${a.signer}, ` +
      `witness ${(a.witnesses || [a.witness]).join(', ')}.${pending}`;
  };

  if (!denoms.length && any('floor', 'pitboss', 'cage')) {
    forms.append(note('info', 'This server does not say its chip denominations, so counts cannot be entered here.'));
  }
  if (denoms.length && any('dealer', 'floor', 'pitboss')) {
    const kind = h('select', {name: 'inv-kind'}, h('option', {value: 'opener'}, 'Opener'), h('option', {value: 'closer'}, 'Closer'),
      h('option', {value: 'shift_change'}, 'Shift change'));
    const counts = chipCounts(denoms, cur, 'inv');
    const reason = h('textarea', {name: 'inv-reason', rows: '2', maxlength: '500'});
    const w = witnessFields('inv');
    forms.append(docForm('Record an opener or closer', 'inventory',
      [field('Document', kind), counts.el, field('Reason', reason, 'Needed when an opener differs from the last closer.'), w.el],
      async () => {
        const b = {kind: kind.value, chips: counts.read(), witness: w.read()};
        if (reason.value.trim()) b.reason = reason.value.trim();
        w.clear();
        const a = await api.send('POST', `${base}/inventory`, b);
        counts.clear();
        reason.value = '';
        opts.onInventory?.();
        return recorded(TITLES[kind.value].toLowerCase(), a);
      }, {onRefused: e => { if (e.code === 'opener_discrepancy') reason.focus(); }}));
  }
  if (denoms.length && any('cage')) {
    const kind = h('select', {name: 'slip-kind'}, h('option', {value: 'fills'}, 'Fill'), h('option', {value: 'credits'}, 'Credit'));
    const serial = h('input', {type: 'text', name: 'slip-serial', maxlength: '32', spellcheck: 'false'});
    const runners = h('datalist', {id: `slip-runners-${t.id}`});
    const runner = h('input', {type: 'text', name: 'slip-runner', maxlength: '200', spellcheck: 'false', autocomplete: 'off',
      list: runners.id});
    const runnerWho = h('small', {class: 'muted', 'data-runner-who': '', 'aria-live': 'polite'});
    let people = [];
    // the people holding security (GET /people): chosen by name, sent by id
    api.get('/people').then(b => {
      people = (b.people || []).filter(p => p.active !== false);
      runners.replaceChildren(...people.filter(p => (p.roles || []).includes('security'))
        .map(p => h('option', {value: p.name}, `${p.name} (${p.id})`)));
    }, () => {});
    const runnerId = () => {
      const v = runner.value.trim();
      const p = people.find(x => x.id === v) || people.find(x => x.name.toLowerCase() === v.toLowerCase());
      return p ? p.id : v;
    };
    runner.addEventListener('input', () => {
      const id = runnerId(), p = people.find(x => x.id === id);
      runnerWho.textContent = p ? `${p.name}, ${p.id}` : '';
    });
    const runnerPassword = h('input', {type: 'password', name: 'slip-runner-password', maxlength: '128', autocomplete: 'off'});
    const counts = chipCounts(denoms, cur, 'slip');
    const w = witnessFields('slip');
    const runnerBox = h('fieldset', {class: 'witness'}, h('legend', null, 'Runner (security)'),
      field('Runner: his name or id', runner), runnerWho, runners,
      field('Runner password', runnerPassword, 'The runner signs the slip too (accounting.signatures "nj").'));
    forms.append(docForm('Record a fill or credit', 'slip',
      [field('Slip', kind), field('Serial', serial), counts.el, w.el, runnerBox],
      async () => {
        const b = {serial: serial.value.trim(), chips: counts.read()};
        if (runner.value.trim()) b.runner = runnerId();
        if (runnerPassword.value) b.witnesses = [w.read(), {person: runnerId(), password: runnerPassword.value}];
        else b.witness = w.read();
        w.clear();
        runnerPassword.value = '';
        const a = await api.send('POST', `${base}/${kind.value}`, b);
        counts.clear();
        serial.value = '';
        return recorded(`${kind.value === 'fills' ? 'fill' : 'credit'} ${a.serial}`, a);
      }));
  }
  if (any('dealer', 'floor', 'pitboss')) {
    const kind = h('select', {name: 'receipt-kind'}, h('option', {value: 'fills'}, 'Fill'), h('option', {value: 'credits'}, 'Credit'));
    const serial = h('input', {type: 'text', name: 'receipt-serial', maxlength: '32', spellcheck: 'false'});
    const w = witnessFields('receipt');
    const box = docForm('Receive a fill or credit at the table', 'receipt',
      [field('Slip', kind), field('Serial', serial, 'The dealer and a floor supervisor or pit boss sign: one signed in, the other as witness.'), w.el],
      async () => {
        const b = {witness: w.read()};
        w.clear();
        const a = await api.send('POST', `${base}/${kind.value}/${encodeURIComponent(serial.value.trim())}/receipt`, b);
        serial.value = '';
        load();
        return `Recorded: ${kind.value === 'fills' ? 'fill' : 'credit'} ${a.serial} received (document #${a.id}); it counts now.`;
      });
    forms.append(box);
    onReceive = d => {
      kind.value = d.type === 'credit' ? 'credits' : 'fills';
      serial.value = d.serial;
      box.open = true;
      box.querySelector('input[name="receipt-witness"]').focus();
    };
  }
  if (any('cage', 'floor', 'pitboss')) {
    const kind = h('select', {name: 'void-kind'}, h('option', {value: 'fills'}, 'Fill'), h('option', {value: 'credits'}, 'Credit'));
    const serial = h('input', {type: 'text', name: 'void-serial', maxlength: '32', spellcheck: 'false'});
    const reason = h('input', {type: 'text', name: 'void-reason', maxlength: '500'});
    // the day's slips that may be voided, to choose from (the kind and serial follow the choice)
    const pick = h('select', {name: 'void-slip'});
    const slipKey = d => `${d.type === 'credit' ? 'credits' : 'fills'}/${d.serial}`;
    slipsChanged = () => {
      const keep = pick.value;
      pick.replaceChildren(h('option', {value: ''}, 'Choose a slip of the day…'), ...docs.filter(voidable).map(d =>
        h('option', {value: slipKey(d)}, `${TITLES[d.type]} ${d.serial}, ${money(d.total, cur)}` +
          (d.status === 'pending' ? ', pending' : ''))));
      if ([...pick.options].some(o => o.value === keep)) pick.value = keep;
    };
    slipsChanged();
    pick.addEventListener('change', () => {
      if (!pick.value) return;
      const [k, ...rest] = pick.value.split('/');
      kind.value = k;
      serial.value = rest.join('/');
    });
    const w = witnessFields('void');
    const box = docForm('Void a fill or credit', 'void',
      [field('Slip to void', pick, 'Or press Void on its row above.'), field('Kind', kind), field('Serial', serial),
        field('Reason', reason), w.el],
      async () => {
        const b = {reason: reason.value.trim(), witness: w.read()};
        w.clear();
        const a = await api.send('POST', `${base}/${kind.value}/${encodeURIComponent(serial.value.trim())}/void`, b);
        serial.value = '';
        reason.value = '';
        pick.value = '';
        load();
        return `Recorded: ${kind.value === 'fills' ? 'fill' : 'credit'} ${a.serial} voided (document #${a.id}).`;
      });
    forms.append(box);
    onVoid = d => {
      slipsChanged();
      pick.value = slipKey(d);
      kind.value = d.type === 'credit' ? 'credits' : 'fills';
      serial.value = d.serial;
      box.open = true;
      reason.focus();
    };
  }
  if (any('count')) {
    const step = minorDigits(cur) ? '0.01' : '1';
    const amount = n => h('input', {type: 'number', min: '0', step, inputmode: 'decimal', name: `drop-${n}`});
    const minor = i => (i.value === '' ? 0 : toMinor(i.value, cur));
    const box = h('input', {type: 'text', name: 'drop-box', maxlength: '32', spellcheck: 'false'});
    // the count is made the next morning: the day that ended, unless another is picked
    const counted = h('input', {type: 'date', name: 'drop-day', value: dayBefore(prop?.gaming_day || '')});
    const total = h('output', {class: 'running-total drop-total', 'aria-live': 'polite'}, money(0, cur));
    const update = () => { total.textContent = money(bills.value() + chipsIn.value() + minor(markers), cur); };
    const bills = chipCounts(BILLS, cur, 'drop-bill', {legend: 'Bills counted', attr: 'bill', onChange: update});
    const chipsIn = chipCounts(denoms, cur, 'drop-chip', {legend: 'Chips in the box', onChange: update});
    const markers = amount('markers'), coupons = amount('coupons');
    const coll = t.banking === 'player' ? amount('collections') : null;
    markers.addEventListener('input', update);
    const team = countTeam();
    const approver = witnessFields('drop-approval');
    approver.el.querySelector('legend').textContent = 'Approval (pit boss or admin), for a day before the last that ended';
    forms.append(docForm('Record the drop', 'drop',
      [field('Box', box), field('Gaming day counted', counted, 'By default the gaming day that ended.'), bills.el,
        denoms.length ? chipsIn.el : null, field(`Markers (${cur})`, markers),
        field(`Coupons (${cur})`, coupons, 'Kept on the count sheet; not counted in the drop.'),
        coll ? field(`Collections (${cur})`, coll) : null, h('p', {class: 'total-line'}, 'Drop: ', total), team.el,
        approver.el],
      async () => {
        const count = {cash: bills.read(), chips: chipsIn.read(), markers: minor(markers)};
        if (coupons.value !== '') count.coupons = minor(coupons);
        const b = {box: box.value.trim(), count, witnesses: team.read()};
        if (counted.value) b.gaming_day = counted.value;
        if (coll && coll.value !== '') b.collections = minor(coll);
        const ap = approver.read();
        if (ap.person) b.approval = ap;
        team.clear();
        approver.clear();
        const a = await api.send('POST', `${base}/drop`, b);
        for (const i of [box, markers, coupons, coll].filter(Boolean)) i.value = '';
        bills.clear();
        chipsIn.clear();
        return recorded(`drop ${a.box} for ${a.gaming_day}`, a);
      }));
  }
  load();
  return sec;
}
