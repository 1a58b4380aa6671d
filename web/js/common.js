// common.js - pieces every view shares: headers, badges, error notes,
// date ranges and a poller that never overlaps itself.  Views import from
// here and from the other modules of js/, never from each other.
import {h, note} from './dom.js';
import {label, whenText} from './format.js';
import {refusalText} from './refusals.js';

/** The page title with breadcrumbs above it. crumbs: [[text, href], ...]. */
export function pageHeader(title, {crumbs = [], sub, actions} = {}) {
  return h('header', {class: 'page-head'},
    crumbs.length ? h('nav', {class: 'crumbs', 'aria-label': 'Breadcrumb'},
      h('ol', null, crumbs.map(([t, href]) => h('li', null, href ? h('a', {href}, t) : h('span', {'aria-current': 'page'}, t))))) : null,
    h('div', {class: 'page-title'},
      h('div', null, h('h1', {tabindex: '-1'}, title), sub ? h('p', {class: 'sub'}, sub) : null),
      actions ? h('div', {class: 'page-actions'}, actions) : null));
}

/** Open/closed table status: a shape and a word, never colour alone. */
export function statusBadge(status) {
  const open = status === 'open';
  return h('span', {class: `badge ${open ? 'badge-open' : 'badge-closed'}`},
    h('span', {class: 'dot', 'aria-hidden': 'true'}, open ? '●' : '○'), open ? 'Open' : label(status || 'unknown'));
}

const STATE_ICON = {betting: '◔', closed: '◑', dealt: '◕', revealed: '◕', settled: '✔', void: '⊘'};
export function stateBadge(state) {
  return h('span', {class: `badge state-${state}`},
    h('span', {class: 'dot', 'aria-hidden': 'true'}, STATE_ICON[state] || '•'), label(state));
}

/**
 * The note for a failed request, or null on 401 (the app is already back at
 * sign-in).
 */
export function errorNote(e, what) {
  if (e?.status === 401 || e?.name === 'AbortError') return null;
  if (e?.status === 403) return note('warn', `${what}: your sign-in is not allowed to read this.`);
  if (e?.unreachable) return note('error', `${what}: the server cannot be reached. Retrying…`);
  return note('error', `${what}: ${e?.code || e?.status ? refusalText(e) : e?.message || e}`);
}

// ---- dates: the browser's local days, sent as UTC ISO instants ----

export function localDate(d = new Date()) {
  const p = n => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

export function addDays(ymd, n) {
  const [y, m, d] = ymd.split('-').map(Number);
  return localDate(new Date(y, m - 1, d + n));
}

/** Minutes east of UTC in the browser's zone (for the reports' day and shift keys). */
export function tzOffset(d = new Date()) {
  return -d.getTimezoneOffset();
}

/**
 * Calls fn now and then every `ms` after each call finishes (so calls never
 * overlap); pauses while the tab is hidden. Returns stop().
 */
export function poll(fn, ms) {
  let timer = null, stopped = false;
  const tick = async () => {
    timer = null;
    if (stopped) return;
    if (!document.hidden) {
      try { await fn(); } catch { /* fn shows its own errors */ }
    }
    if (!stopped) timer = setTimeout(tick, ms);
  };
  const onVisible = () => {
    if (!document.hidden && !stopped && timer) { clearTimeout(timer); tick(); }
  };
  document.addEventListener('visibilitychange', onVisible);
  tick();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    document.removeEventListener('visibilitychange', onVisible);
  };
}

/** A small live status line: "Live · updated 12:03:05" or a connection warning. */
export function liveStatus() {
  const el = h('p', {class: 'live'}, h('span', {class: 'live-dot', 'aria-hidden': 'true'}), h('span', {class: 'live-text'}, 'Loading…'));
  const text = el.querySelector('.live-text');
  return {
    el,
    ok(at = new Date()) {
      el.classList.remove('stale');
      const t = `Live · updated ${whenText(at.toISOString(), 'time')}`;
      if (text.textContent !== t) text.textContent = t;
    },
    stale(msg) {
      el.classList.add('stale');
      text.textContent = msg;
    },
  };
}

// ---- form pieces ----

let fieldSeq = 0;
/** A labelled control (the control gets an id when it has none), with an optional hint below. */
export function formField(labelText, control, hint) {
  control.id = control.id || `f-${++fieldSeq}`;
  return h('div', {class: 'field'}, h('label', {for: control.id}, labelText), control,
    hint ? h('small', {class: 'muted'}, hint) : null);
}

/** The witness's person id and password fields (inputs named NAME-witness, NAME-witness-password). */
export function witnessFields(name) {
  const person = h('input', {type: 'text', name: `${name}-witness`, autocomplete: 'off', spellcheck: 'false', maxlength: '32'});
  const password = h('input', {type: 'password', name: `${name}-witness-password`, autocomplete: 'off', maxlength: '128'});
  return {
    el: h('fieldset', {class: 'witness'}, h('legend', null, 'Witness'), formField('Witness id', person),
      formField('Witness password', password)),
    read: () => ({person: person.value.trim(), password: password.value}),
    clear: () => { password.value = ''; },
  };
}

/**
 * A refused request as a note saying what to do (refusals.js: a sentence per
 * error code, else the daemon's message tidied); the code stays in
 * data-code for tests and support, never in the text.
 */
export function refusal(e) {
  const n = note('error', h('strong', null, 'Refused: '), refusalText(e));
  if (e?.code) n.dataset.code = e.code;
  return n;
}

/** The former name of refusal(e), kept for the callers not yet renamed. */
export const refusalNote = refusal;

/** A "Download CSV" button: fetches with the Authorization header, saves via a Blob. */
export function csvButton(text, pathFn, fallbackName, api) {
  const status = h('span', {class: 'csv-status', role: 'status'});
  const btn = h('button', {type: 'button', class: 'btn', 'data-csv': fallbackName}, h('span', {'aria-hidden': 'true'}, '⤓ '), text);
  btn.addEventListener('click', async () => {
    btn.disabled = true;
    status.textContent = 'Preparing…';
    try {
      const {blob, filename} = await api.getBlob(pathFn(), 'text/csv');
      api.saveBlob(blob, filename || fallbackName);
      status.textContent = 'Downloaded.';
    } catch (e) {
      if (e.status === 401) return;
      status.textContent = `Download failed: ${e.message}`;
    } finally {
      btn.disabled = false;
    }
  });
  return h('span', {class: 'csv'}, btn, status);
}
