// seats.js - the table view's Seats panel (docs/page.md, docs/players.md):
// who sits at each seat now (GET /tables/{t}/seats), and for the roles
// that may (a dealer at the table he deals at, a floor supervisor, a pit
// boss, an admin: a person's session):
//
//   Seat a player   find him by card or name (GET /players?card=&name=; a
//                   dealer searches by card only), or register an anonymous
//                   player with a description (cage, floor, pitboss, admin),
//                   then PUT /tables/{t}/seats/{s}/player
//   Leave           DELETE /tables/{t}/seats/{s}/player
//   Cash and chips  POST /tables/{t}/transactions {seat, player, direction,
//                   kind, type, amount}; as the amount is typed, what it
//                   would make of the patron's gaming day (the seat's
//                   cash_today and the property's Title 31 limits): an MTL
//                   entry, the alert with "take identification now", the
//                   CTR; the answer says the same, and a refusal for want
//                   of identification links to the player's record
//
// A patron near a limit (a side of his day at the alert level or over the
// CTR limit) is marked at his seat.  A named player (card and name) may be
// registered and seated at once, as an anonymous one.
//
// A refusal is shown as the daemon words it, with its code.
import * as api from './api.js';
import {h, section, dataTable, note} from './dom.js';
import {money, toMinor, minorDigits} from './format.js';
import {errorNote, refusal} from './common.js';
import {refusalText} from './refusals.js';
import {maySeat, mayRegister, maySearchByName, playerLink, playerText, anonymousBadge} from './players.js';
import {title31Effect, title31Box, title31Limits, answerWarnings, nearLimitMark} from './cash.js';

let seq = 0;
function field(labelText, control, hint) {
  control.id = control.id || `seat-f-${++seq}`;
  return h('div', {class: 'field'}, h('label', {for: control.id}, labelText), control,
    hint ? h('small', {class: 'muted'}, hint) : null);
}


/** The panel for table t; returns the section.  Reloads itself after every change. */
export function seatsPanel(t, ctx) {
  const cur = t.currency;
  const base = `/tables/${encodeURIComponent(t.id)}`;
  const [sec, body] = section('Seats', {id: 'table-seats'});
  const list = h('div', {class: 'seat-list'});
  const msg = h('div', {class: 'form-msg', role: 'status', 'aria-live': 'polite'});
  body.append(list, msg);
  let seats = [];
  const say = (...n) => msg.replaceChildren(...n);

  const mayAct = maySeat();
  let seatForm = null, txnForm = null;

  async function leave(s) {
    try {
      await api.send('DELETE', `${base}/seats/${s.seat}/player`);
      say(note('ok', `${playerText(s.player)} left seat ${s.seat}.`));
      await load();
    } catch (e) {
      if (e.status !== 401) say(refusal(e));
    }
  }

  function render() {
    const cols = [
      {label: 'Seat', rowHeader: true, num: true, render: s => String(s.seat)},
      {label: 'Player', render: s => s.player
        ? h('span', {class: 'stack', 'data-seated': s.player.id}, h('span', null, playerLink(s.player.id, s.player), ' ',
          anonymousBadge(s.player)), s.player.card ? h('small', {class: 'muted'}, `card ${s.player.card}`) : null,
        nearLimitMark(s.cash_today, cur))
        : h('span', {class: 'muted'}, 'Empty')},
    ];
    if (mayAct) {
      cols.push({label: 'Actions', render: s => {
        if (!s.player) {
          const b = h('button', {type: 'button', class: 'btn btn-small', 'data-action': 'seat', 'data-seat': s.seat}, 'Seat a player');
          b.addEventListener('click', () => seatForm.open(s.seat));
          return b;
        }
        const l = h('button', {type: 'button', class: 'btn btn-small', 'data-action': 'leave', 'data-seat': s.seat}, 'Leave');
        l.addEventListener('click', () => leave(s));
        const c = h('button', {type: 'button', class: 'btn btn-small', 'data-action': 'cash', 'data-seat': s.seat}, 'Cash or chips');
        c.addEventListener('click', () => txnForm.open(s.seat));
        return h('span', {class: 'inline-list'}, l, ' ', c);
      }});
    }
    list.replaceChildren(dataTable(cols, seats, {caption: `Who sits at ${t.id}`}));
    seatForm?.seatsChanged();
    txnForm?.seatsChanged();
  }

  async function load() {
    list.setAttribute('aria-busy', 'true');
    try {
      const b = await api.get(`${base}/seats`);
      if (!ctx.alive()) return;
      seats = b.seats;
      render();
    } catch (e) {
      if (ctx.alive()) list.replaceChildren(errorNote(e, 'Seats') || '');
    } finally {
      list.removeAttribute('aria-busy');
    }
  }

  if (mayAct) {
    seatForm = seatPlayerForm(t, base, () => seats, async text => { say(note('ok', text)); await load(); });
    txnForm = transactionForm(t, base, cur, () => seats, load);
    body.append(h('div', {class: 'doc-forms'}, seatForm.el, txnForm.el));
  } else {
    body.append(h('p', {class: 'muted small'}, 'Seating players and recording cash and chips is for the dealer at this table, ' +
      'a floor supervisor or a pit boss, signed in as themselves.'));
  }
  load();
  return sec;
}

/** A <select> of seats, those for which pick(s) is true. */
function seatSelect(name, seatsOf, pick) {
  const sel = h('select', {name});
  sel.refill = () => {
    const keep = sel.value;
    sel.replaceChildren(...seatsOf().filter(pick).map(s => h('option', {value: s.seat},
      s.player ? `Seat ${s.seat}: ${playerText(s.player)}` : `Seat ${s.seat}`)));
    if ([...sel.options].some(o => o.value === keep)) sel.value = keep;
  };
  return sel;
}

/** "Seat a player": search by card or name, or register an anonymous player; then seat him. */
function seatPlayerForm(t, base, seatsOf, seated) {
  const seat = seatSelect('seat-seat', seatsOf, s => !s.player);
  const card = h('input', {type: 'text', name: 'seat-card', maxlength: '32', spellcheck: 'false', autocomplete: 'off'});
  const name = maySearchByName() ? h('input', {type: 'text', name: 'seat-name', maxlength: '200', autocomplete: 'off'}) : null;
  const results = h('div', {class: 'seat-results', 'aria-live': 'polite'});
  const msg = h('div', {class: 'form-msg', role: 'status', 'aria-live': 'polite'});
  const search = h('form', {class: 'doc-form', 'data-form': 'seat-search', 'aria-label': 'Find a player', novalidate: true},
    field('Seat', seat), field('Card', card), name ? field('Name (or a part of it)', name) : null,
    h('div', {class: 'field-submit'}, h('button', {type: 'submit', class: 'btn btn-primary'}, 'Search')), results);

  async function sit(id) {
    msg.replaceChildren('Seating…');
    try {
      const a = await api.send('PUT', `${base}/seats/${seat.value}/player`, {player: id});
      msg.replaceChildren();
      results.replaceChildren();
      card.value = '';
      if (name) name.value = '';
      await seated(`${playerText(a.player)} sits at seat ${a.seat} of ${a.table}.`);
    } catch (e) {
      if (e.status !== 401) msg.replaceChildren(refusal(e));
    }
  }

  search.addEventListener('submit', async ev => {
    ev.preventDefault();
    const q = {card: card.value.trim(), name: name ? name.value.trim() : ''};
    if (!q.card && !q.name) {
      msg.replaceChildren(note('warn', name ? 'Type a card number or a name.' : 'Type a card number.'));
      return;
    }
    msg.replaceChildren('Searching…');
    try {
      const b = await api.get('/players' + api.qs(q));
      msg.replaceChildren();
      results.replaceChildren(dataTable([
        {label: 'Player', rowHeader: true, render: p => h('span', null, playerLink(p.id, p), ' ', anonymousBadge(p))},
        {label: 'Card', render: p => p.card || '—'},
        {label: '', render: p => {
          const b2 = h('button', {type: 'button', class: 'btn btn-small', 'data-seat-player': p.id}, `Seat ${playerText(p)} here`);
          b2.addEventListener('click', () => sit(p.id));
          return b2;
        }},
      ], b.players, {caption: 'Players found', empty: 'No player has that card or name.'}));
    } catch (e) {
      if (e.status !== 401) msg.replaceChildren(refusal(e));
    }
  });

  let anon = null, named = null;
  if (mayRegister()) {
    const regCard = h('input', {type: 'text', name: 'seat-reg-card', maxlength: '32', spellcheck: 'false', autocomplete: 'off'});
    const regName = h('input', {type: 'text', name: 'seat-reg-name', maxlength: '200', autocomplete: 'off'});
    named = h('form', {class: 'doc-form', 'data-form': 'seat-register', 'aria-label': 'Register a named player', novalidate: true},
      field('Card', regCard, 'A player with no record yet: his card and name (his identification is recorded on his page).'),
      field('Name', regName), h('div', {class: 'field-submit'}, h('button', {type: 'submit', class: 'btn'}, 'Register and seat')));
    named.addEventListener('submit', async ev => {
      ev.preventDefault();
      if (!regCard.value.trim() || !regName.value.trim()) {
        msg.replaceChildren(note('warn', 'Type his card number and his name.'));
        (regCard.value.trim() ? regName : regCard).focus();
        return;
      }
      try {
        const p = await api.send('POST', '/players', {card: regCard.value.trim(), name: regName.value.trim()});
        regCard.value = '';
        regName.value = '';
        await sit(p.id);
      } catch (e) {
        if (e.status !== 401) msg.replaceChildren(refusal(e));
      }
    });
    const desc = h('input', {type: 'text', name: 'seat-description', maxlength: '200', autocomplete: 'off'});
    anon = h('form', {class: 'doc-form', 'data-form': 'seat-anonymous', 'aria-label': 'Register an anonymous player', novalidate: true},
      field('Description', desc, 'An anonymous player: what he looks like (changed later on the player page when he is known).'),
      h('div', {class: 'field-submit'}, h('button', {type: 'submit', class: 'btn'}, 'Register and seat')));
    anon.addEventListener('submit', async ev => {
      ev.preventDefault();
      try {
        const p = await api.send('POST', '/players', {description: desc.value.trim()});
        desc.value = '';
        await sit(p.id);
      } catch (e) {
        if (e.status !== 401) msg.replaceChildren(refusal(e));
      }
    });
  }
  const box = h('details', {class: 'doc-form-box', 'data-box': 'seat'}, h('summary', null, 'Seat a player'), search, named, anon, msg);
  return {
    el: box,
    seatsChanged: () => seat.refill(),
    open(n) {
      box.open = true;
      seat.refill();
      seat.value = String(n);
      card.focus();
    },
  };
}

/** "Cash or chips": a transaction at an occupied seat; reload() after one is recorded (the seats' cash of the day). */
function transactionForm(t, base, cur, seatsOf, reload) {
  const seat = seatSelect('txn-seat', seatsOf, s => !!s.player);
  const direction = h('select', {name: 'txn-direction'}, h('option', {value: 'in'}, 'In (the player buys in)'),
    h('option', {value: 'out'}, 'Out (paid to the player)'));
  const kind = h('select', {name: 'txn-kind'}, h('option', {value: 'cash'}, 'Cash'), h('option', {value: 'chips'}, 'Chips'),
    h('option', {value: 'marker'}, 'Marker'));
  // what it was (docs/players.md, "Types at the table"); the kinds and directions each takes
  const TYPES = {
    chip_purchase: {label: 'Chip purchase (cash for chips)', kinds: ['cash'], dirs: ['in']},
    money_play: {label: 'Money play (cash bet without chips)', kinds: ['cash'], dirs: ['in']},
    marker_issue: {label: 'Marker issued (credit)', kinds: ['marker'], dirs: ['in']},
    marker_redemption: {label: 'Marker paid off', kinds: ['cash', 'chips'], dirs: ['in']},
    other: {label: 'Other', kinds: ['cash', 'chips', 'marker'], dirs: ['in', 'out']},
  };
  const type = h('select', {name: 'txn-type'}, ...Object.entries(TYPES).map(([v, t]) => h('option', {value: v}, t.label)));
  // the type limits the kinds and directions to those it can have
  const fit = () => {
    const t = TYPES[type.value];
    for (const o of kind.options) o.disabled = !t.kinds.includes(o.value);
    for (const o of direction.options) o.disabled = !t.dirs.includes(o.value);
    if (!t.kinds.includes(kind.value)) kind.value = t.kinds[0];
    if (!t.dirs.includes(direction.value)) direction.value = t.dirs[0];
  };
  type.addEventListener('change', fit);
  fit();
  const amount = h('input', {type: 'number', min: '0', step: minorDigits(cur) ? '0.01' : '1', inputmode: 'decimal', name: 'txn-amount'});
  const msg = h('div', {class: 'form-msg', role: 'status', 'aria-live': 'polite'});
  const preview = h('div', {class: 'title31-preview', 'aria-live': 'polite', 'data-preview': ''});
  const btn = h('button', {type: 'submit', class: 'btn btn-primary'}, 'Record');
  const form = h('form', {class: 'doc-form', 'data-form': 'transaction', 'aria-label': 'Cash or chips at a seat', novalidate: true},
    field('Seat', seat), field('Type', type), field('Direction', direction), field('Kind', kind),
    field(`Amount (${cur})`, amount), preview,
    h('div', {class: 'field-submit'}, btn), msg);
  // what the amount typed would make of the seat's patron's gaming day (cash only)
  const showPreview = () => {
    const s = seatsOf().find(x => String(x.seat) === seat.value);
    const cents = amount.value === '' ? null : toMinor(amount.value, cur);
    const e = title31Effect({player: s?.player?.id, direction: direction.value, kind: kind.value, amount: cents,
      today: s?.cash_today, identified: s?.cash_today?.identified, limits: title31Limits()}, cur);
    preview.replaceChildren(e.lines.length ? title31Box(e) : '');
  };
  for (const c of [amount, seat, direction, kind, type]) c.addEventListener(c === amount ? 'input' : 'change', showPreview);
  form.addEventListener('submit', async ev => {
    ev.preventDefault();
    const s = seatsOf().find(x => String(x.seat) === seat.value);
    if (!s?.player) {
      msg.replaceChildren(note('warn', 'Pick a seat with a player.'));
      return;
    }
    btn.disabled = true;
    try {
      const a = await api.send('POST', `${base}/transactions`, {seat: s.seat, player: s.player.id,
        direction: direction.value, kind: kind.value, type: type.value,
        amount: amount.value === '' ? 0 : toMinor(amount.value, cur)});
      amount.value = '';
      const lines = [note('ok', `Recorded: ${TYPES[a.type]?.label || a.type}, ${a.kind} ${a.direction} of ${money(a.amount, cur)} ` +
        `for ${playerText(a.player)} at seat ${s.seat} (transaction #${a.id}, gaming day ${a.gaming_day}).`,
      a.totals ? ` Cash today: in ${money(a.totals.cash_in, cur)}, out ${money(a.totals.cash_out, cur)}.` : '')];
      // Title 31 at the moment it matters: the MTL entry, the alert, the CTR, the identification still missing
      lines.push(...answerWarnings(a, cur));
      msg.replaceChildren(...lines);
      await reload?.();
    } catch (e) {
      if (e.status === 401) return;
      if (e.code === 'identification_required') {
        msg.replaceChildren(note('error', h('strong', null, 'Identification needed first: '), refusalText(e), ' ',
          h('a', {href: `#/players/${encodeURIComponent(s.player.id)}`}, `Record the identification of ${playerText(s.player)}`)));
      } else {
        msg.replaceChildren(refusal(e));
      }
    } finally {
      btn.disabled = false;
    }
  });
  const box = h('details', {class: 'doc-form-box', 'data-box': 'transaction'}, h('summary', null, 'Cash or chips at a seat'), form);
  return {
    el: box,
    seatsChanged: () => { seat.refill(); showPreview(); },
    open(n) {
      box.open = true;
      seat.refill();
      seat.value = String(n);
      showPreview();
      amount.focus();
    },
  };
}
