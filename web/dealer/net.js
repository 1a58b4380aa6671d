// net.js - the dealer's requests.  Every write carries an Idempotency-Key; a
// step the daemon did not answer (the network dropped, a timeout, a 502-504)
// is sent again with the same key until it is answered, so it is recorded
// once; while it is unanswered the page says so and lets nothing else happen.

const TIMEOUT_MS = 6000;
const RETRY_MS = [1000, 2000, 3000, 5000];

let token = '';
let pendingStep = null;
let onStatus = () => {};

export function setToken(t) { token = t; }
export function getToken() { return token; }
export function pending() { return pendingStep; }
/** fn({kind: 'pending'|'unrecorded'|'ok'|'refused', label, attempt, message}) on every change. */
export function setStatusHandler(fn) { onStatus = fn; }

export class Refused extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

function newKey() {
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  return 'dealer-' + Array.from(b, x => x.toString(16).padStart(2, '0')).join('');
}

/** One attempt; resolves {status, json}, or rejects when no answer came. */
async function attempt(method, path, body, key) {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), TIMEOUT_MS);
  try {
    const headers = {Accept: 'application/json'};
    if (token) headers.Authorization = `Bearer ${token}`;
    if (key) headers['Idempotency-Key'] = key;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body),
      signal: ctl.signal, cache: 'no-store'});
    const text = await res.text();
    let json = null;
    try { json = JSON.parse(text); } catch { /* not JSON: a proxy's page */ }
    if ([502, 503, 504].includes(res.status) || json === null) throw new Error(`no answer (HTTP ${res.status})`);
    return {status: res.status, json};
  } finally {
    clearTimeout(timer);
  }
}

/** A read (no key, no retry): the JSON, or Refused. */
export async function get(path) {
  const {status, json} = await attempt('GET', path);
  if (status >= 300) throw new Refused(status, json.error?.code, json.error?.message || `HTTP ${status}`);
  return json;
}

/** A write that is not a step of the round (sign-in): one attempt. */
export async function send(method, path, body) {
  const {status, json} = await attempt(method, path, body);
  if (status >= 300) throw new Refused(status, json.error?.code, json.error?.message || `HTTP ${status}`);
  return json;
}

/**
 * A step of the round: sent with a new Idempotency-Key and, until answered,
 * again with the same one.  Resolves the answer; rejects with Refused when
 * the daemon refused it (nothing recorded: fix and send again).
 */
export async function step(label, method, path, body) {
  if (pendingStep) throw new Error(`"${pendingStep.label}" is not recorded yet`);
  const key = newKey();
  pendingStep = {label, key, attempts: 0, retryNow: null};
  onStatus({kind: 'pending', label, attempt: 1});
  try {
    for (;;) {
      pendingStep.attempts++;
      try {
        const {status, json} = await attempt(method, path, body, key);
        if (status >= 300) {
          const e = json.error || {};
          onStatus({kind: 'refused', label, message: e.message || `HTTP ${status}`});
          throw new Refused(status, e.code, e.message || `HTTP ${status}`);
        }
        onStatus({kind: 'ok', label});
        return json;
      } catch (e) {
        if (e instanceof Refused) throw e;
        const wait = RETRY_MS[Math.min(pendingStep.attempts - 1, RETRY_MS.length - 1)];
        onStatus({kind: 'unrecorded', label, attempt: pendingStep.attempts, message: String(e.message || e)});
        await new Promise(resolve => {
          const t = setTimeout(resolve, wait);
          pendingStep.retryNow = () => { clearTimeout(t); resolve(); };
        });
        onStatus({kind: 'pending', label, attempt: pendingStep.attempts + 1});
      }
    }
  } finally {
    pendingStep = null;
  }
}

/** Sends the unanswered step again now (the "Send again" button). */
export function retryNow() {
  if (pendingStep && pendingStep.retryNow) pendingStep.retryNow();
}
