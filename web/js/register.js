// register.js - a player's record through a form (docs/page.md, "Players";
// the fields: docs/api.md, POST /players and PATCH /players/{id}):
//
//   registerForm   a named player: card and name, and for the cage (and on
//                  request elsewhere) the identification a CTR needs: date
//                  of birth, ID type, number, issuer, expiry, address;
//                  POST /players
//   editForm       every field of an existing record, as it stands; only
//                  the changed fields are sent (an emptied one as null:
//                  removed); PATCH /players/{id}
//
// A refusal is shown as the file's callers show them today (refusalNote).
import * as api from './api.js';
import {h, note} from './dom.js';
import {formField, refusalNote} from './common.js';
import {playerText} from './players.js';

/** The ID types offered (a record may hold any other text). */
const ID_TYPES = ['Passport', 'Driver\u2019s license', 'State ID card', 'Military ID', 'Permanent resident card'];

/** The words of an ID type written by an older page or the API ("driver_license" -> "Driver's license"). */
export function idTypeText(v) {
  const known = {passport: 'Passport', driver_license: 'Driver\u2019s license', drivers_license: 'Driver\u2019s license',
    state_id: 'State ID card', military_id: 'Military ID', national_id: 'National ID card'};
  if (v === null || v === undefined) return '';
  return known[String(v).toLowerCase()] || String(v).replace(/_/g, ' ');
}

// [key, label, type, hint] of the record's fields, as the forms offer them.
const NAMED = [['card', 'Card', 'text', 'The number on his players club card: letters, digits, - and _.'], ['name', 'Name', 'text']];
const IDENTIFICATION = [['date_of_birth', 'Date of birth', 'date'], ['id_type', 'ID type', 'text'],
  ['id_number', 'ID number', 'text'], ['id_issuer', 'ID issued by', 'text', 'The state or country.'],
  ['id_expiry', 'ID expires', 'date'], ['address', 'Address', 'text']];
const DESCRIPTION = [['description', 'Description', 'text', 'What he looks like (an anonymous player).']];

let seq = 0;
/** The inputs of fields, prefilled from rec; {els, inputs: {key: input}}. */
function inputs(prefix, fields, rec = {}) {
  const list = {};
  const listId = `${prefix}-idtypes-${++seq}`;
  const els = fields.map(([k, labelText, type, hint]) => {
    const i = h('input', {type, name: `${prefix}-${k.replace(/_/g, '-')}`, maxlength: k === 'card' ? '32' : '200',
      autocomplete: 'off', spellcheck: k === 'card' || k === 'id_number' ? 'false' : null,
      list: k === 'id_type' ? listId : null, value: rec[k] === null || rec[k] === undefined ? '' :
        k === 'id_type' ? idTypeText(rec[k]) : String(rec[k])});
    list[k] = i;
    return formField(labelText, i, hint);
  });
  if (list.id_type) els.push(h('datalist', {id: listId}, ID_TYPES.map(t => h('option', {value: t}))));
  return {els, inputs: list};
}

/**
 * "Register a player": a named player (card and name), with the
 * identification fields when identification is true (the cage's form).
 * registered(record) after the daemon answered 201.  Returns the form.
 */
export function registerForm(prefix, {identification = false, registered = () => {}, title = 'Register a player'} = {}) {
  const named = inputs(prefix, NAMED);
  const ident = identification ? inputs(prefix, IDENTIFICATION) : null;
  const msg = h('div', {class: 'form-msg', role: 'status', 'aria-live': 'polite'});
  const btn = h('button', {type: 'submit', class: 'btn btn-primary'}, 'Register');
  const form = h('form', {class: 'doc-form', 'data-form': 'register', 'aria-label': title, novalidate: true},
    named.els,
    ident ? h('fieldset', {class: 'witness'}, h('legend', null, 'Identification (what a CTR needs: at least the ID type and number)'),
      ident.els) : null,
    h('div', {class: 'field-submit'}, btn), msg);
  const all = {...named.inputs, ...(ident ? ident.inputs : {})};
  form.addEventListener('submit', async ev => {
    ev.preventDefault();
    const body = {};
    for (const [k, i] of Object.entries(all)) if (i.value.trim()) body[k] = i.value.trim();
    if (!body.card) { msg.replaceChildren(note('warn', 'Type his card number: a named player has a card.')); all.card.focus(); return; }
    if (!body.name) { msg.replaceChildren(note('warn', 'Type his name.')); all.name.focus(); return; }
    if (!!body.id_type !== !!body.id_number) {
      msg.replaceChildren(note('warn', 'Type both the ID type and the ID number, or neither.'));
      (body.id_type ? all.id_number : all.id_type).focus();
      return;
    }
    btn.disabled = true;
    msg.replaceChildren('Registering…');
    try {
      const p = await api.send('POST', '/players', body);
      for (const i of Object.values(all)) i.value = '';
      msg.replaceChildren(note('ok', `Registered ${playerText(p)}, card ${p.card}` +
        (p.id_type && p.id_number ? ', identification on record.' : ', no identification yet.')));
      registered(p);
    } catch (e) {
      if (e.status !== 401) msg.replaceChildren(refusalNote(e));
    } finally {
      btn.disabled = false;
    }
  });
  return form;
}

/**
 * "Edit the record": every field of p as it stands; only the changed ones
 * sent (PATCH /players/{id}), an emptied one as null.  saved(record) after.
 * Returns the box (a details element).
 */
export function editForm(p, saved = () => {}) {
  const fields = [...NAMED, ...(p.anonymous || p.description ? DESCRIPTION : []), ...IDENTIFICATION];
  const {els, inputs: all} = inputs('edit', fields, p);
  const msg = h('div', {class: 'form-msg', role: 'status', 'aria-live': 'polite'});
  const btn = h('button', {type: 'submit', class: 'btn btn-primary'}, 'Save the changes');
  const form = h('form', {class: 'doc-form', 'data-form': 'player-edit', 'aria-label': 'Edit the record', novalidate: true},
    h('p', {class: 'muted small'}, p.anonymous ? 'An anonymous player who gives his name: type his card and name; ' +
      'his earlier transactions stay his, each as it was written.' : 'Change what is wrong or missing; empty a field to remove it.'),
    els, h('div', {class: 'field-submit'}, btn), msg);
  form.addEventListener('submit', async ev => {
    ev.preventDefault();
    const body = {};
    for (const [k, i] of Object.entries(all)) {
      const was = p[k] === null || p[k] === undefined ? '' : k === 'id_type' ? idTypeText(p[k]) : String(p[k]);
      const now = i.value.trim();
      if (now !== was) body[k] = now === '' ? null : now;
    }
    if (!Object.keys(body).length) { msg.replaceChildren(note('info', 'Nothing changed.')); return; }
    btn.disabled = true;
    msg.replaceChildren('Saving…');
    try {
      const a = await api.send('PATCH', `/players/${encodeURIComponent(p.id)}`, body);
      msg.replaceChildren(note('ok', `Saved: ${Object.keys(body).length} field${Object.keys(body).length === 1 ? '' : 's'} of ${playerText(p)} changed.`));
      saved(a);
    } catch (e) {
      if (e.status !== 401) msg.replaceChildren(refusalNote(e));
    } finally {
      btn.disabled = false;
    }
  });
  return h('details', {class: 'doc-form-box', 'data-box': 'player-edit'}, h('summary', null, 'Edit the record'), form);
}
