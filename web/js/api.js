// api.js - talks to pitbossd's /api/v1 with the signed-in token.
// The token lives in sessionStorage only: it ends with the browser session
// (docs/page.md says why).  A token is either a terminal token typed in, or
// a person's session token from POST /sessions ("pbs_…").

const TOKEN_KEY = 'pitboss.token';
const BASE = '/api/v1';

export function getToken() {
  try { return sessionStorage.getItem(TOKEN_KEY); } catch { return null; }
}

export function setToken(t) {
  sessionStorage.setItem(TOKEN_KEY, t);
}

export function clearToken() {
  try { sessionStorage.removeItem(TOKEN_KEY); } catch { /* storage unavailable */ }
}

/** An answer other than 2xx (status 0: the server could not be reached). */
export class ApiError extends Error {
  constructor(status, code, message, path) {
    super(message || `HTTP ${status}`);
    this.status = status;
    this.code = code;
    this.path = path;
  }
  get unreachable() {
    return this.status === 0;
  }
}

let onUnauthorized = () => {};
/**
 * Called with the error on a 401 that ends the signed-in token (unknown
 * token, session_expired): the app goes back to sign-in.  A 401 about a
 * password in the body (wrong_password) is not one.
 */
export function setUnauthorizedHandler(fn) {
  onUnauthorized = fn;
}

let onPasswordChange = () => {};
/** Called on 403 password_change_required: the session must change its one-time password first. */
export function setPasswordChangeHandler(fn) {
  onPasswordChange = fn;
}

const BODY_CODES = new Set(['wrong_password']);

// When the page last sent a request with the stored token (ms, this browser's clock).
let lastSentMs = 0;
export function lastRequestAt() {
  return lastSentMs;
}

/*
 * One request.  token: undefined for the stored one (its 401s and 403
 * password_change_required go to the handlers), null for none, or a
 * token to try (its refusals only throw).  body: an object sent as JSON.
 */
async function request(path, {method = 'GET', accept = 'application/json', signal, token, body} = {}) {
  const t = token === undefined ? getToken() : token;
  const headers = {Accept: accept};
  if (t) headers.Authorization = `Bearer ${t}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token === undefined && t) lastSentMs = Date.now();
  let res;
  try {
    res = await fetch(BASE + path, {method, headers, signal, cache: 'no-store',
      body: body === undefined ? undefined : JSON.stringify(body)});
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    throw new ApiError(0, 'unreachable', 'The server cannot be reached.', path);
  }
  if (!res.ok) {
    let code = null, message = null;
    try {
      const answer = await res.json();
      code = answer?.error?.code ?? null;
      message = answer?.error?.message ?? null;
    } catch { /* not JSON */ }
    const err = new ApiError(res.status, code, message || `${res.status} ${res.statusText}`, path);
    if (token === undefined && t === getToken()) {
      if (res.status === 401 && !BODY_CODES.has(code)) onUnauthorized(err);
      else if (res.status === 403 && code === 'password_change_required') onPasswordChange(err);
    }
    throw err;
  }
  return res;
}

/** GET a JSON resource. */
export async function get(path, opts) {
  const res = await request(path, opts);
  return res.json();
}

/** GET a resource as a Blob with its suggested file name (from Content-Disposition). */
export async function getBlob(path, accept = 'text/csv') {
  const res = await request(path, {accept});
  const cd = res.headers.get('Content-Disposition') || '';
  const m = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(cd);
  return {blob: await res.blob(), filename: m ? decodeURIComponent(m[1]) : null};
}

/** Checks a token without touching the stored one; resolves true or throws ApiError. */
export async function checkToken(token) {
  await request('/tables', {token});
  return true;
}

/**
 * POST /sessions {"person", "password"} (no token).  Resolves with the
 * answer and `skewMs`, the server's clock minus this browser's (from the
 * Date header; 0 without one), so that expires_at can be timed here.
 */
export async function openSession(person, password) {
  const res = await request('/sessions', {method: 'POST', token: null, body: {person, password}});
  const answer = await res.json();
  const date = Date.parse(res.headers.get('Date') || '');
  answer.skewMs = Number.isNaN(date) ? 0 : date - Date.now();
  return answer;
}

/** DELETE /sessions/current with the given session token; never throws (the session may be over already). */
export async function closeSession(token) {
  try { await request('/sessions/current', {method: 'DELETE', token}); } catch { /* ended or unreachable */ }
}

/** PUT /people/{id}/password {"current", "password"} with the stored (session) token. */
export async function changeOwnPassword(id, current, password) {
  const res = await request(`/people/${encodeURIComponent(id)}/password`, {method: 'PUT', body: {current, password}});
  return res.json();
}

/** Builds a query string from an object, leaving out empty values. */
export function qs(params) {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') u.set(k, v);
  const s = u.toString();
  return s ? `?${s}` : '';
}

// ---- tables, cached for currency and names ----

let tablesCache = [];
let propertyCache = null;
export function tables() {
  return tablesCache;
}
export async function loadTables() {
  const body = await get('/tables');
  tablesCache = body.tables;
  propertyCache = body.property || null;
  return tablesCache;
}
/** The property beside the tables (GET /tables): {time_zone, chips, shifts, gaming_day}; null from an older daemon. */
export function property() {
  return propertyCache;
}

/** POST (or PUT) a JSON body with the stored token; resolves with the answer's JSON, throws ApiError. */
export async function send(method, path, body) {
  const res = await request(path, {method, body});
  return res.json();
}
export function currencyOf(tableId) {
  return tablesCache.find(t => t.id === tableId)?.currency || tablesCache[0]?.currency || 'USD';
}
export function tableName(tableId) {
  return tablesCache.find(t => t.id === tableId)?.name || tableId;
}

/** Saves a Blob as a file through a temporary object URL. */
export function saveBlob(blob, filename) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}
