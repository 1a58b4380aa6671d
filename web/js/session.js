// session.js - who is signed in, and when the page signs them out by itself.
//
// A person's session (POST /sessions) is kept as the token (api.js) and, in
// sessionStorage under 'pitboss.session', what the page shows and times:
// {person: {id, name, roles}, must_change_password, idle_seconds,
// ends_at_ms (expires_at on this browser's clock)}.  Never a password.
// A terminal token has no such entry: it does not expire by itself.
//
// The page ends a person's session by itself (docs/page.md):
//  - idle: after idle_seconds without the person touching the page (a key,
//    a click or tap, the wheel, a scroll, moving to another view).  The
//    page's own polling is not activity: a floor left alone signs out;
//  - absolute: at expires_at.
// While the person is active on a view that does not poll, the page sends
// a light request now and then so that the daemon's idle clock (counted
// from the last request) does not end a session in use.

const SESSION_KEY = 'pitboss.session';
const ACTIVITY = ['keydown', 'pointerdown', 'wheel', 'scroll', 'touchstart', 'hashchange'];

/** The stored person's session, or null (signed out, or a terminal token). */
export function current() {
  try {
    const s = JSON.parse(sessionStorage.getItem(SESSION_KEY) || 'null');
    return s && s.person && s.person.id ? s : null;
  } catch {
    return null;
  }
}

/** Keeps the sign-in answer of POST /sessions (its token is kept by api.setToken). */
export function remember(answer) {
  const idle = Number(answer.idle_seconds) || 0;
  const expires = Date.parse(answer.expires_at);
  const s = {
    person: {id: answer.person.id, name: answer.person.name, roles: answer.person.roles || []},
    must_change_password: !!answer.must_change_password,
    idle_seconds: idle,
    ends_at_ms: Number.isNaN(expires) ? null : expires - (answer.skewMs || 0),
  };
  sessionStorage.setItem(SESSION_KEY, JSON.stringify(s));
  return s;
}

/** Marks the one-time password as changed. */
export function passwordChanged() {
  const s = current();
  if (!s) return;
  s.must_change_password = false;
  sessionStorage.setItem(SESSION_KEY, JSON.stringify(s));
}

export function forget() {
  try { sessionStorage.removeItem(SESSION_KEY); } catch { /* storage unavailable */ }
}

/** "Ana Ruiz" with "E1027 · Pit boss, Floor" for the header. */
const ROLE_NAMES = {dealer: 'Dealer', floor: 'Floor supervisor', pitboss: 'Pit boss', cage: 'Cage', count: 'Count',
  security: 'Security', surveillance: 'Surveillance', auditor: 'Auditor', admin: 'Admin'};
export function rolesText(roles) {
  return (roles || []).map(r => ROLE_NAMES[r] || r).join(', ');
}

// ---- the timers ----

let timers = null;

/**
 * Starts timing the stored session: onEnd('idle' | 'absolute') once, when
 * the person has been away idle_seconds or expires_at has come.
 * keepAlive() is called while the person is active and the page has sent
 * no request for a third of the idle time.  lastRequestAt() reads when.
 */
export function startTimers({onEnd, keepAlive, lastRequestAt}) {
  stopTimers();
  const s = current();
  if (!s) return;
  const idleMs = s.idle_seconds * 1000;
  const t = {lastActive: Date.now(), idle: null, absolute: null, onActivity: null};
  const end = why => { stopTimers(); onEnd(why); };
  const armIdle = () => {
    if (t.idle) clearTimeout(t.idle);
    if (idleMs > 0) t.idle = setTimeout(() => end('idle'), idleMs);
  };
  t.onActivity = () => {
    const now = Date.now();
    if (now - t.lastActive < 250) return;
    t.lastActive = now;
    armIdle();
    if (idleMs > 0 && now - lastRequestAt() > idleMs / 3) keepAlive();
  };
  for (const ev of ACTIVITY) window.addEventListener(ev, t.onActivity, {capture: true, passive: true});
  armIdle();
  if (s.ends_at_ms !== null) {
    // setTimeout holds at most 2^31-1 ms; sessions last at most 7 days.
    const left = Math.max(0, Math.min(s.ends_at_ms - Date.now(), 2 ** 31 - 1));
    t.absolute = setTimeout(() => end('absolute'), left);
  }
  timers = t;
}

export function stopTimers() {
  if (!timers) return;
  clearTimeout(timers.idle);
  clearTimeout(timers.absolute);
  for (const ev of ACTIVITY) window.removeEventListener(ev, timers.onActivity, {capture: true});
  timers = null;
}
