// app.js - the pit boss page: sign-in, hash routing, the shell.
//
// Routes: #/floor, #/table/T1, #/round/17, #/reports, #/exceptions, #/events.
// Each view module exports render(main, params, ctx) and may return a
// function that stops what it started (pollers) when the route changes.
import * as api from './js/api.js';
import {h, note} from './js/dom.js';
import * as floor from './js/views/floor.js';
import * as table from './js/views/table.js';
import * as round from './js/views/round.js';
import * as reports from './js/views/reports.js';
import * as exceptions from './js/views/exceptions.js';
import * as events from './js/views/events.js';

const $ = id => document.getElementById(id);

const ROUTES = [
  {re: /^\/floor$/, view: floor, nav: 'floor'},
  {re: /^\/table\/([A-Za-z0-9_.-]+)$/, view: table, nav: 'floor', params: m => ({table: decodeURIComponent(m[1])})},
  {re: /^\/round\/(\d+)$/, view: round, nav: 'floor', params: m => ({round: Number(m[1])})},
  {re: /^\/reports$/, view: reports, nav: 'reports'},
  {re: /^\/exceptions$/, view: exceptions, nav: 'exceptions'},
  {re: /^\/events$/, view: events, nav: 'events'},
];

let stopView = null;
let generation = 0;
let firstRender = true;

function parseHash() {
  const raw = location.hash.replace(/^#/, '') || '/floor';
  const [path, query = ''] = raw.split('?');
  return {path, query: new URLSearchParams(query)};
}

function showSignIn(message) {
  if (stopView) { stopView(); stopView = null; }
  generation++;
  $('shell').hidden = true;
  $('signin').hidden = false;
  const msg = $('signin-message');
  msg.replaceChildren(message ? note('warn', message) : '');
  document.title = 'Sign in — pitboss';
  const input = $('token');
  input.value = '';
  input.focus();
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
  const stop = await found.r.view.render(main, found.m && found.r.params ? found.r.params(found.m) : {}, ctx);
  if (!ctx.alive()) { if (typeof stop === 'function') stop(); return; }
  stopView = typeof stop === 'function' ? stop : null;
  // Move focus to the new page's heading, as a page load would (not on the first load).
  if (!firstRender) main.querySelector('h1')?.focus({preventScroll: false});
  firstRender = false;
}

/** Forgets the token; the hash stays, so signing in again returns to the same view. */
function signOut(message) {
  api.clearToken();
  showSignIn(message);
}

async function onSignIn(ev) {
  ev.preventDefault();
  const input = $('token');
  const token = input.value.trim();
  const msg = $('signin-message');
  if (!token) {
    msg.replaceChildren(note('warn', 'Enter your access token.'));
    input.focus();
    return;
  }
  const button = ev.target.querySelector('button[type=submit]');
  button.disabled = true;
  msg.replaceChildren(h('p', {class: 'muted'}, 'Signing in…'));
  try {
    await api.checkToken(token);
    api.setToken(token);
    input.value = '';
    msg.replaceChildren();
    firstRender = true;
    await showApp();
  } catch (e) {
    msg.replaceChildren(note(e.status === 401 ? 'warn' : 'error',
      e.status === 401 ? 'That token was not accepted. Check it and try again.'
        : e.status === 403 ? 'That token may not read the floor (a dealer token?). Use a pit boss, auditor or admin token.'
          : `Could not sign in: ${e.message}`));
    input.select();
    input.focus();
  } finally {
    button.disabled = false;
  }
}

function init() {
  $('signin-form').addEventListener('submit', onSignIn);
  $('signout').addEventListener('click', () => signOut('You have signed out.'));
  $('skip-link').addEventListener('click', ev => {
    ev.preventDefault();
    ($('main').querySelector('h1') || $('main')).focus();
  });
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
  $('tz').textContent = tz ? `Local time: ${tz}` : '';
  api.setUnauthorizedHandler(() => {
    api.clearToken();
    showSignIn('Your session has ended or the token is no longer valid. Please sign in again.');
  });
  window.addEventListener('hashchange', () => { if (api.getToken()) route(); });
  if (api.getToken()) showApp();
  else showSignIn();
}

init();
