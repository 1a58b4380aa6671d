// api.js - talks to pitbossd's /api/v1 for both pages (the pit boss page and
// the dealer's): the token, JSON answers and errors, the hooks for a 401 and
// a password to change, and the writes that must be recorded once (an
// Idempotency-Key, sent again until answered: the dealer's steps).
// Both pages keep the token in sessionStorage only: it ends with the browser
// session and survives a reload (docs/page.md says why).  A token is either a terminal token typed in,
// or a person's session token from POST /sessions ("pbs_…").

import {setTimeZone} from './format.js';

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

/**
 * An answer other than 2xx, or none: status 0 when the server could not
 * be reached or did not answer in time.  fromDaemon: the answer was the
 * daemon's JSON (a proxy's error page is not).
 */
export class ApiError extends Error {
  constructor(status, code, message, path, fromDaemon = true) {
    super(message || `HTTP ${status}`);
    this.status = status;
    this.code = code;
    this.path = path;
    this.fromDaemon = fromDaemon;
  }
  get unreachable() {
    return this.status === 0;
  }
  /**
   * Whether the daemon may not have acted on it, or told nothing of it: no
   * answer, a gateway's 502/504, a 503 (busy, or a proxy's), or an answer
   * that was not the daemon's JSON.  Such a write is sent again with the
   * same Idempotency-Key; anything else the daemon answered for certain.
   */
  get unanswered() {
    return this.status === 0 || [502, 503, 504].includes(this.status) || !this.fromDaemon;
  }
}

let onUnauthorized = () => {};
/**
 * Called with the error on a 401 that ends the signed-in token (unknown
 * token, session_expired): the page goes back to sign-in.  A 401 about a
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

/** A 2xx answer's JSON (null for a 204); an answer that is not JSON is ApiError (fromDaemon false). */
async function readJson(res, path) {
  if (res.status === 204) return null;
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(res.status, null, `The answer was not JSON (HTTP ${res.status}).`, path, false);
  }
}

/*
 * One request.  token: undefined for the stored one (its 401s and 403
 * password_change_required go to the handlers), null for none, or a
 * token to try (its refusals only throw).  body: an object sent as JSON.
 * key: an Idempotency-Key.  timeoutMs: no answer (body included) within it
 * is ApiError status 0, code 'timeout'.  read(res) reads a 2xx answer
 * (within the time); resolves what it returns.
 */
async function request(path, {method = 'GET', accept = 'application/json', signal, token, body, key, timeoutMs} = {},
  read = res => readJson(res, path)) {
  const t = token === undefined ? getToken() : token;
  const headers = {Accept: accept};
  if (t) headers.Authorization = `Bearer ${t}`;
  if (key) headers['Idempotency-Key'] = key;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token === undefined && t) lastSentMs = Date.now();
  const ctl = new AbortController();
  let timedOut = false;
  const timer = timeoutMs ? setTimeout(() => { timedOut = true; ctl.abort(); }, timeoutMs) : null;
  const passAbort = () => ctl.abort();
  if (signal?.aborted) ctl.abort();
  signal?.addEventListener('abort', passAbort);
  const lost = e => {
    if (timedOut) return new ApiError(0, 'timeout', `No answer within ${timeoutMs / 1000} seconds.`, path);
    if (e.name === 'AbortError') return e;
    return new ApiError(0, 'unreachable', 'The server cannot be reached.', path);
  };
  try {
    let res;
    try {
      res = await fetch(BASE + path, {method, headers, signal: ctl.signal, cache: 'no-store',
        body: body === undefined ? undefined : JSON.stringify(body)});
    } catch (e) {
      throw lost(e);
    }
    if (!res.ok) {
      let code = null, message = null, fromDaemon = false;
      try {
        const answer = JSON.parse(await res.text());
        code = answer?.error?.code ?? null;
        message = answer?.error?.message ?? null;
        fromDaemon = code !== null;
      } catch (e) {
        if (timedOut || e.name === 'AbortError') throw lost(e);
        /* not JSON */
      }
      const err = new ApiError(res.status, code, message || `${res.status} ${res.statusText}`, path, fromDaemon);
      if (token === undefined && t === getToken()) {
        if (res.status === 401 && !BODY_CODES.has(code)) onUnauthorized(err);
        else if (res.status === 403 && code === 'password_change_required') onPasswordChange(err);
      }
      throw err;
    }
    try {
      return await read(res);
    } catch (e) {
      if (timedOut || e.name === 'AbortError') throw lost(e);
      throw e;
    }
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', passAbort);
  }
}

/** GET a JSON resource. */
export async function get(path, opts) {
  return request(path, opts);
}

/** GET a resource as a Blob with its suggested file name (from Content-Disposition). */
export async function getBlob(path, accept = 'text/csv') {
  return request(path, {accept}, async res => {
    const cd = res.headers.get('Content-Disposition') || '';
    const m = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(cd);
    return {blob: await res.blob(), filename: m ? decodeURIComponent(m[1]) : null};
  });
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
  return request('/sessions', {method: 'POST', token: null, body: {person, password}}, async res => {
    const answer = await readJson(res, '/sessions');
    const date = Date.parse(res.headers.get('Date') || '');
    answer.skewMs = Number.isNaN(date) ? 0 : date - Date.now();
    return answer;
  });
}

/** DELETE /sessions/current with the given session token; never throws (the session may be over already). */
export async function closeSession(token) {
  try { await request('/sessions/current', {method: 'DELETE', token}); } catch { /* ended or unreachable */ }
}

/** PUT /people/{id}/password {"current", "password"} with the stored (session) token. */
export async function changeOwnPassword(id, current, password) {
  return request(`/people/${encodeURIComponent(id)}/password`, {method: 'PUT', body: {current, password}});
}

/** Builds a query string from an object, leaving out empty values. */
export function qs(params) {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') u.set(k, v);
  const s = u.toString();
  return s ? `?${s}` : '';
}

// ---- tables, cached for currency and names (both pages read GET /tables: every role may) ----

let tablesCache = [];
let propertyCache = null;
export function tables() {
  return tablesCache;
}
export async function loadTables() {
  const body = await get('/tables');
  tablesCache = body.tables;
  propertyCache = body.property || null;
  setTimeZone(propertyCache?.time_zone);   // times in the property's zone on both pages
  return tablesCache;
}
/** The property beside the tables (GET /tables): {time_zone, chips, shifts, gaming_day}; null from an older daemon. */
export function property() {
  return propertyCache;
}

/** POST (or PUT) a JSON body with the stored token; resolves with the answer's JSON, throws ApiError. */
export async function send(method, path, body) {
  return request(path, {method, body});
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

// ---- steps: writes recorded once, sent until answered ----
// Every step carries a new Idempotency-Key; a step the daemon did not answer
// (the network dropped, STEP_TIMEOUT_MS without an answer, a 502-504) is sent
// again with the same key until it is answered, so it is recorded once.
// One step at a time: while one is unanswered, no other can be sent.

const STEP_TIMEOUT_MS = 6000;
const STEP_RETRY_MS = [1000, 2000, 3000, 5000];

let pendingStep = null;
let onStepStatus = () => {};

/** A new Idempotency-Key: the prefix and 32 random hex digits. */
export function newIdempotencyKey(prefix = 'step') {
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  return `${prefix}-${Array.from(b, x => x.toString(16).padStart(2, '0')).join('')}`;
}

/** The step not answered yet ({label, key, attempts}), or null. */
export function pendingStepNow() {
  return pendingStep;
}

/** fn({kind: 'pending'|'unrecorded'|'ok'|'refused', label, attempt, message}) on every change of a step. */
export function setStepStatusHandler(fn) {
  onStepStatus = fn;
}

/**
 * A step: method and path with the JSON body and the stored token, sent
 * with a new Idempotency-Key and, until answered, again with the same one.
 * Resolves the answer's JSON; rejects with ApiError when the daemon refused
 * it (nothing recorded: fix and send again).
 */
export async function step(label, method, path, body) {
  if (pendingStep) throw new Error(`"${pendingStep.label}" is not recorded yet`);
  const key = newIdempotencyKey();
  pendingStep = {label, key, attempts: 0, retryNow: null};
  onStepStatus({kind: 'pending', label, attempt: 1});
  try {
    for (;;) {
      pendingStep.attempts++;
      try {
        const answer = await request(path, {method, body, key, timeoutMs: STEP_TIMEOUT_MS});
        onStepStatus({kind: 'ok', label});
        return answer;
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        if (!e.unanswered) {
          onStepStatus({kind: 'refused', label, message: e.message});
          throw e;
        }
        const wait = STEP_RETRY_MS[Math.min(pendingStep.attempts - 1, STEP_RETRY_MS.length - 1)];
        onStepStatus({kind: 'unrecorded', label, attempt: pendingStep.attempts, message: e.message});
        await new Promise(resolve => {
          const t = setTimeout(resolve, wait);
          pendingStep.retryNow = () => { clearTimeout(t); resolve(); };
        });
        onStepStatus({kind: 'pending', label, attempt: pendingStep.attempts + 1});
      }
    }
  } finally {
    pendingStep = null;
  }
}

/** Sends the unanswered step again now (the dealer's "Send again now"). */
export function retryStepNow() {
  if (pendingStep && pendingStep.retryNow) pendingStep.retryNow();
}
