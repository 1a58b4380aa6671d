// app.js - the pit boss page: hash routing, the shell, and who is signed
// in (the forms are js/signin.js; a person's session and its timers,
// js/session.js).
//
// Routes: #/floor, #/table/T1, #/round/T1-277 (a round by its label; #/round/1390 by its id), #/reports,
// #/master, #/statistics, #/exceptions, #/events, #/players, #/players/P1, #/title31, #/cage, #/drop.
// A person sees only the menus his roles may use, and lands where his work is
// (js/menus.js): a view his roles may not use sends him there instead.
// Each view module exports render(main, params, ctx) and may return a
// function that stops what it started (pollers) when the route changes.
import * as api from './js/api.js';
import {h, note} from './js/dom.js';
import * as session from './js/session.js';
import * as signin from './js/signin.js';
import * as floor from './js/views/floor.js';
import * as table from './js/views/table.js';
import * as round from './js/views/round.js';
import * as reports from './js/views/reports.js';
import * as exceptions from './js/views/exceptions.js';
import * as events from './js/views/events.js';
import * as master from './js/views/master.js';
import * as statistics from './js/views/statistics.js';
import * as players from './js/views/players.js';
import * as player from './js/views/player.js';
import * as title31 from './js/views/title31.js';
import * as cage from './js/views/cage.js';
import * as drop from './js/views/drop.js';
import * as menus from './js/menus.js';

const $ = id => document.getElementById(id);

const ROUTES = [
  {re: /^\/floor$/, view: floor, nav: 'floor'},
  {re: /^\/table\/([A-Za-z0-9_.-]+)$/, view: table, nav: 'floor', params: m => ({table: decodeURIComponent(m[1])})},
  {re: /^\/round\/([A-Za-z0-9_.%-]+)$/, view: round, nav: 'floor', params: m => ({round: decodeURIComponent(m[1])})},
  {re: /^\/reports$/, view: reports, nav: 'reports'},
  {re: /^\/master$/, view: master, nav: 'master'},
  {re: /^\/statistics$/, view: statistics, nav: 'statistics'},
  {re: /^\/exceptions$/, view: exceptions, nav: 'exceptions'},
  {re: /^\/events$/, view: events, nav: 'events'},
  {re: /^\/players$/, view: players, nav: 'players'},
  {re: /^\/players\/([A-Za-z0-9_.-]+)$/, view: player, nav: 'players', params: m => ({player: decodeURIComponent(m[1])})},
  {re: /^\/title31$/, view: title31, nav: 'title31'},
  {re: /^\/cage$/, view: cage, nav: 'cage'},
  {re: /^\/drop$/, view: drop, nav: 'drop'},
];
// Every role reads the tables and rounds (the cage and the count sign their documents on a table's view).
const OPEN_TO_ALL = new Set([table, round]);

let stopView = null;
let generation = 0;
let firstRender = true;

function parseHash() {
  const raw = location.hash.replace(/^#/, '') || '/floor';
  const [path, query = ''] = raw.split('?');
  return {path, query: new URLSearchParams(query)};
}

/** Shows the sign-in form (opts: signin.show's) and stops the view. */
function showSignIn(message, opts) {
  if (stopView) { stopView(); stopView = null; }
  generation++;
  $('shell').hidden = true;
  $('signin').hidden = false;
  signin.show(message, opts);
}

/** Shows the change of a one-time password (the session allows nothing else). */
function showPasswordChange(message) {
  if (stopView) { stopView(); stopView = null; }
  generation++;
  $('shell').hidden = true;
  $('signin').hidden = false;
  signin.showPasswordChange(message);
}

/** The header's "who is signed in": a person's name, id and roles, or a token. */
function showWho() {
  const s = session.current();
  const who = $('who');
  if (s) {
    who.replaceChildren(h('span', {class: 'visually-hidden'}, 'Signed in: '),
      h('strong', {class: 'who-name'}, s.person.name), ' ',
      h('span', {class: 'who-meta'}, h('span', {class: 'who-id'}, s.person.id), ' · ',
        h('span', {class: 'who-roles'}, session.rolesText(s.person.roles))));
    who.title = `${s.person.name} (${s.person.id}): ${session.rolesText(s.person.roles)}`;
  } else {
    who.replaceChildren(h('span', {class: 'who-meta'}, 'Signed in with a token'));
    who.title = 'Signed in with an access token';
  }
  // The top bar offers the views of the roles signed in (the daemon decides what each may read and do).
  for (const a of document.querySelectorAll('.mainnav [data-nav]')) a.closest('li').hidden = !menus.allows(a.dataset.nav);
  $('brand').href = menus.landing() || '#/floor';
}

/** The property's gaming day in the top bar (GET /tables' property): the day every view shows, whatever the browser's zone. */
function showDay() {
  const p = api.property();
  if (!p?.gaming_day) return;
  $('tz').textContent = `Gaming day ${p.gaming_day}`;
  $('tz').title = `The property's gaming day, in its time zone ${p.time_zone}`;
}

/** Makes the scrolling tables of el reachable by keyboard: a focusable region named after its table. */
function focusableTables(el) {
  for (const wrap of el.querySelectorAll('.table-wrap:not([tabindex])')) {
    const caption = wrap.querySelector('caption')?.textContent.trim() || wrap.querySelector('table')?.getAttribute('aria-label');
    wrap.setAttribute('tabindex', '0');
    wrap.setAttribute('role', 'region');
    wrap.setAttribute('aria-label', caption || 'Table');
  }
}

async function showApp() {
  $('signin').hidden = true;
  $('shell').hidden = false;
  await route();
}

/** Renders the view for the current hash. */
async function route() {
  if (!api.getToken()) return showSignIn();
  if (stopView) { stopView(); stopView = null; }
  const gen = ++generation;
  const {path, query} = parseHash();
  const main = $('main');
  const found = ROUTES.map(r => ({r, m: r.re.exec(path)})).find(x => x.m);
  if (!location.hash && menus.landing()?.startsWith('#')) { location.replace(menus.landing()); return; }
  if (found && !OPEN_TO_ALL.has(found.r.view) && !menus.allows(found.r.nav)) {
    // Not a view of this person's roles: where his work is instead.
    const to = menus.landing();
    if (to && to.startsWith('#') && to !== `#${path}`) { location.replace(to); return; }
    if (to === '/dealer/') { location.assign('/dealer/'); return; }
  }
  for (const a of document.querySelectorAll('[data-nav]')) {
    if (found && a.dataset.nav === found.r.nav) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  main.replaceChildren();
  main.removeAttribute('data-view');
  if (!found) {
    document.title = 'Not found — pitboss';
    main.append(h('h1', {tabindex: '-1'}, 'Page not found'),
      note('info', 'There is no page at ', h('code', null, location.hash), '. ', h('a', {href: '#/floor'}, 'Go to the floor'), '.'));
    return;
  }
  main.dataset.view = found.r.view.name;
  const ctx = {
    alive: () => gen === generation,
    query,
    setTitle: t => { document.title = `${t} — pitboss`; },
    // Renders the view again (after a change it shows), unless another view has come since.
    reload: () => { if (gen === generation) route(); },
    // Updates the hash query without re-rendering (for bookmarkable filters).
    setQuery: params => {
      const q = new URLSearchParams(params).toString();
      history.replaceState(null, '', `#${path}${q ? `?${q}` : ''}`);
    },
  };
  try {
    if (!api.tables().length) await api.loadTables();
  } catch (e) {
    if (!ctx.alive()) return;
    if (e.status !== 401) main.append(note('error', `Could not load the tables: ${e.message}`));
    return;
  }
  if (!ctx.alive()) return;
  showDay();
  const stop = await found.r.view.render(main, found.m && found.r.params ? found.r.params(found.m) : {}, ctx);
  if (!ctx.alive()) { if (typeof stop === 'function') stop(); return; }
  stopView = typeof stop === 'function' ? stop : null;
  // Move focus to the new page's heading, as a page load would (not on the first load).
  if (!firstRender) main.querySelector('h1')?.focus({preventScroll: false});
  firstRender = false;
}

/** "30 minutes", "8 seconds": an idle time for a message. */
function duration(seconds) {
  if (seconds >= 120 && seconds % 60 === 0) return `${seconds / 60} minutes`;
  return seconds === 1 ? '1 second' : `${seconds} seconds`;
}

/**
 * Signs out: a person's session is ended at the daemon (DELETE
 * /sessions/current), the token forgotten.  The hash stays, so signing in
 * again returns to the same view; after a person's session the form offers
 * the person's id again.
 */
function signOut(message, {ended = false} = {}) {
  const s = session.current();
  const token = api.getToken();
  session.stopTimers();
  if (s && token && !ended) api.closeSession(token);
  api.clearToken();
  session.forget();
  showSignIn(message, s ? {mode: 'person', person: s.person.id} : {mode: 'token'});
}

/** Someone is in: start the session's timers, show who, then the view (or the password change first). */
async function signedIn({passwordChange = false} = {}) {
  const s = session.current();
  if (s) {
    session.startTimers({
      onEnd: why => signOut(why === 'idle'
        ? `You were signed out after ${duration(s.idle_seconds)} without activity. Sign in again.`
        : 'Your session has reached its time limit. Sign in again.'),
      // Not while the one-time password is being changed: the daemon refuses the call (403), and its
      // answer would bring the form back afresh, emptying what the person is typing.
      keepAlive: () => { if (!session.current()?.must_change_password) api.get('/tables').catch(() => {}); },
      lastRequestAt: api.lastRequestAt,
    });
  }
  if (passwordChange || (s && s.must_change_password)) return showPasswordChange();
  showWho();
  firstRender = true;
  await showApp();
}

function init() {
  new MutationObserver(() => focusableTables($('main'))).observe($('main'), {childList: true, subtree: true});
  signin.init({signedIn, signOut: message => signOut(message)});
  $('signout').addEventListener('click', () => signOut('You have signed out.'));
  $('skip-link').addEventListener('click', ev => {
    ev.preventDefault();
    ($('main').querySelector('h1') || $('main')).focus();
  });
  api.setUnauthorizedHandler(e => {
    const person = session.current();
    if (!person) return signOut('Your session has ended or the token is no longer valid. Please sign in again.', {ended: true});
    signOut(e.code === 'session_expired' ? 'Your session has expired. Sign in again.'
      : 'Your session has ended. Sign in again.', {ended: true});
  });
  api.setPasswordChangeHandler(() => showPasswordChange('Change your one-time password first.'));
  window.addEventListener('hashchange', () => { if (api.getToken() && !session.current()?.must_change_password) route(); });
  if (api.getToken()) signedIn();
  else showSignIn(null, {mode: 'person'});
}

init();
