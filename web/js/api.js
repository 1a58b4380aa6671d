// api.js - talks to pitbossd's /api/v1 with the signed-in token.
// The token lives in sessionStorage only: it ends with the browser session.

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
/** Called with the error on every 401: the app goes back to sign-in. */
export function setUnauthorizedHandler(fn) {
  onUnauthorized = fn;
}

async function request(path, {method = 'GET', accept = 'application/json', signal, token} = {}) {
  const t = token ?? getToken();
  const headers = {Accept: accept};
  if (t) headers.Authorization = `Bearer ${t}`;
  let res;
  try {
    res = await fetch(BASE + path, {method, headers, signal, cache: 'no-store'});
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    throw new ApiError(0, 'unreachable', 'The server cannot be reached.', path);
  }
  if (!res.ok) {
    let code = null, message = null;
    try {
      const body = await res.json();
      code = body?.error?.code ?? null;
      message = body?.error?.message ?? null;
    } catch { /* not JSON */ }
    const err = new ApiError(res.status, code, message || `${res.status} ${res.statusText}`, path);
    if (res.status === 401 && token === undefined) onUnauthorized(err);
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

/** Builds a query string from an object, leaving out empty values. */
export function qs(params) {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') u.set(k, v);
  const s = u.toString();
  return s ? `?${s}` : '';
}

// ---- tables, cached for currency and names ----

let tablesCache = [];
export function tables() {
  return tablesCache;
}
export async function loadTables() {
  const body = await get('/tables');
  tablesCache = body.tables;
  return tablesCache;
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
