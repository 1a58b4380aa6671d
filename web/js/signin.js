// signin.js - the sign-in form (a person's id and password, or a token for
// admins and machines) and the change of a one-time password right after.
// app.js shows it and is told when someone is signed in.
import * as api from './api.js';
import * as session from './session.js';
import {h, note} from './dom.js';

const $ = id => document.getElementById(id);

let mode = 'person';            // which way the form signs in: 'person' or 'token'
let onSignedIn = () => {};

/** Shows one way of signing in and hides the other (the hidden one is disabled, so Enter submits the shown one). */
function setMode(m) {
  mode = m === 'token' ? 'token' : 'person';
  const person = mode === 'person';
  $('signin-form').dataset.mode = mode;
  $('signin-person').hidden = !person;
  $('signin-person').disabled = !person;
  $('signin-token').hidden = person;
  $('signin-token').disabled = person;
  $('signin-switch').textContent = person ? 'Sign in with a token' : 'Sign in with employee id and password';
}

function say(where, kind, ...text) {
  $(where).replaceChildren(kind ? note(kind, ...text) : '');
}

function busy(form, on, text) {
  for (const b of form.querySelectorAll('button')) b.disabled = on;
  if (on) form.querySelector('.signin-message').replaceChildren(h('p', {class: 'muted'}, text));
}

/** Clears every field that held a secret. */
function clearSecrets() {
  for (const id of ['token', 'password', 'current', 'new-password', 'confirm-password']) $(id).value = '';
}

/**
 * Shows the sign-in form with an optional message.  opts.mode picks the
 * way ('person' or 'token'; by default the one used last), opts.person
 * fills in the id (after an expiry, the person only types the password).
 */
export function show(message, opts = {}) {
  clearSecrets();
  if (opts.mode) setMode(opts.mode);
  $('password-form').hidden = true;
  $('signin-form').hidden = false;
  say('signin-message', message ? 'warn' : null, message || '');
  document.title = 'Sign in — pitboss';
  if (opts.person) $('person').value = opts.person;
  const first = mode === 'token' ? $('token') : ($('person').value ? $('password') : $('person'));
  first.focus();
}

/** Shows the change of the signed-in person's one-time password. */
export function showPasswordChange(message) {
  const s = session.current();
  if (!s) return show();
  // Shown again while the person is at it (a refused change, a request answered "change it first"):
  // what he typed stays, so a refusal costs him one field, not three.
  const already = !$('password-form').hidden && !$('signin').hidden;
  if (already) {
    if (message) say('password-message', 'warn', message);
    return;
  }
  clearSecrets();
  $('signin-form').hidden = true;
  $('password-form').hidden = false;
  $('password-who').textContent = `${s.person.name} (${s.person.id})`;
  $('password-username').value = s.person.id;
  say('password-message', message ? 'warn' : null, message || '');
  document.title = 'Choose your password — pitboss';
  $('current').focus();
}

/** Whether a token may read the floor: null if so, else the message to show. */
async function floorRefusal(token, who) {
  try {
    await api.checkToken(token);
    return null;
  } catch (e) {
    if (e.status === 403 && who) {
      return `You are signed in as ${who.name}, but your roles (${session.rolesText(who.roles)}) may not read the floor. ` +
        'The page is for pit bosses, auditors and admins.';
    }
    if (e.status === 403) return 'That token may not read the floor (a dealer token?). Use a pit boss, auditor or admin token.';
    throw e;
  }
}

/** floorRefusal for a person's session just opened: never throws (a failure to ask is a refusal too). */
async function personFloorRefusal(token, who) {
  try {
    return await floorRefusal(token, who);
  } catch (e) {
    return `Signed in, but the floor could not be read: ${e.message}`;
  }
}

/** The message for a refused sign-in with a person's id and password. */
function personRefusal(e) {
  if (e.status === 401) {
    return ['warn', 'Unknown employee id or wrong password. Check them and try again ',
      '(repeated wrong passwords lock the account for a while).'];
  }
  if (e.status === 429) return ['error', `Locked out: ${e.message}.`];
  if (e.status === 400) return ['warn', `Could not sign in: ${e.message}`];
  return ['error', `Could not sign in: ${e.message}`];
}

async function signInPerson(form) {
  const id = $('person').value.trim();
  const password = $('password').value;
  if (!id || !password) {
    say('signin-message', 'warn', 'Enter your employee id and your password.');
    (id ? $('password') : $('person')).focus();
    return;
  }
  busy(form, true, 'Signing in…');
  try {
    const answer = await api.openSession(id, password);
    $('password').value = '';
    api.setToken(answer.token);
    const s = session.remember(answer);
    if (s.must_change_password) {
      onSignedIn({passwordChange: true});
      return;
    }
    const refused = await personFloorRefusal(answer.token, s.person);
    if (refused) {
      await api.closeSession(answer.token);
      api.clearToken();
      session.forget();
      say('signin-message', 'warn', refused);
      return;
    }
    say('signin-message', null);
    onSignedIn({});
  } catch (e) {
    const [kind, ...text] = personRefusal(e);
    say('signin-message', kind, ...text);
    $('password').value = '';
    $('password').focus();
  } finally {
    busy(form, false);
  }
}

async function signInToken(form) {
  const input = $('token');
  const token = input.value.trim();
  if (!token) {
    say('signin-message', 'warn', 'Enter your access token.');
    input.focus();
    return;
  }
  busy(form, true, 'Signing in…');
  try {
    const refused = await floorRefusal(token, null);
    if (refused) {
      say('signin-message', 'warn', refused);
      input.select();
      input.focus();
      return;
    }
    api.setToken(token);
    session.forget();
    input.value = '';
    say('signin-message', null);
    onSignedIn({});
  } catch (e) {
    say('signin-message', e.status === 401 ? 'warn' : 'error',
      e.status === 401 ? 'That token was not accepted. Check it and try again.'
        : e.status === 429 ? `Too many failed sign-ins: ${e.message}` : `Could not sign in: ${e.message}`);
    input.select();
    input.focus();
  } finally {
    busy(form, false);
  }
}

/** The message for a refused change of the one-time password. */
function changeRefusal(e) {
  if (e.code === 'wrong_password') return 'That is not your one-time password. (Wrong passwords count towards a lockout.)';
  if (e.code === 'weak_password' || e.code === 'invalid_password') return `That password cannot be used: ${e.message}`;
  if (e.status === 429) return `Locked out: ${e.message}.`;
  return `Could not change the password: ${e.message}`;
}

async function changePassword(ev) {
  ev.preventDefault();
  const form = ev.target;
  const s = session.current();
  if (!s) return show();
  const current = $('current').value, next = $('new-password').value, again = $('confirm-password').value;
  let problem = null;
  if (!current || !next) problem = 'Enter your one-time password and a new password.';
  else if (next !== again) problem = 'The two new passwords differ. Type the same new password twice.';
  else if (next === current) problem = 'The new password must differ from the one-time password.';
  if (problem) {
    say('password-message', 'warn', problem);
    (current ? $('new-password') : $('current')).focus();
    return;
  }
  busy(form, true, 'Changing the password…');
  try {
    await api.changeOwnPassword(s.person.id, current, next);
    clearSecrets();
    session.passwordChanged();
    const refused = await personFloorRefusal(api.getToken(), s.person);
    if (refused) {
      onSignedOut(refused);
      return;
    }
    say('password-message', null);
    onSignedIn({});
  } catch (e) {
    if (e.status === 401 && e.code !== 'wrong_password') return;   // the session ended: app.js shows the form
    say('password-message', e.status === 429 ? 'error' : 'warn', changeRefusal(e));
    $(e.code === 'wrong_password' ? 'current' : 'new-password').focus();
  } finally {
    busy(form, false);
  }
}

let onSignedOut = () => {};

/**
 * Binds the forms.  signedIn({passwordChange}) is called once a person or
 * token is in (passwordChange: the one-time password must be changed
 * first); signOut(message) when the person cancels the change.
 */
export function init({signedIn, signOut}) {
  onSignedIn = signedIn;
  onSignedOut = signOut;
  setMode(mode);
  $('signin-form').addEventListener('submit', ev => {
    ev.preventDefault();
    if (mode === 'token') signInToken(ev.target);
    else signInPerson(ev.target);
  });
  $('signin-switch').addEventListener('click', () => {
    setMode(mode === 'person' ? 'token' : 'person');
    say('signin-message', null);
    (mode === 'token' ? $('token') : $('person')).focus();
  });
  $('password-form').addEventListener('submit', changePassword);
  $('password-cancel').addEventListener('click', () => onSignedOut('You have signed out.'));
}

/** The way of signing in the form shows now. */
export function currentMode() {
  return mode;
}
