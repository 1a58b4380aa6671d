// harness.mjs - the real pitbossd for the browser tests (page.test.mjs,
// dealer.test.mjs): the example config/ on a free loopback port with a
// database in a temporary directory, started and stopped the same way, on
// request on the test clock (docs/reliability.md, "The test clock"); and
// what both suites check of the daemon's Content-Security-Policy.
import assert from 'node:assert/strict';
import {execFile, spawn} from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {promisify} from 'node:util';
import {chromium} from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const SOURCE = path.resolve(process.env.PB_SOURCE_DIR || path.join(here, '..', '..'));
export const BUILD = path.resolve(process.env.PB_BUILD_DIR || '/work/main/build');
export const CHROMIUM = process.env.PB_CHROMIUM || '/usr/bin/chromium';
// The one writer of the test clock's file (one 8-byte store), shared with the integration tests.
const PBCLOCK = path.join(SOURCE, 'tests', 'integration', 'pbclock.py');
const run_ = promisify(execFile);

/**
 * The daemon's test clock, kept in run: its file (passed in PITBOSS_TEST_CLOCK),
 * run.advanceClock(seconds) moving the daemon's wall clock forward at once,
 * run.now() the daemon's time (the real time plus run.clockOffsetMs).
 */
function testClock(run, env) {
  run.clockPath = path.join(run.tmp, 'test-clock');
  fs.writeFileSync(run.clockPath, Buffer.alloc(8), {mode: 0o600});
  env.PITBOSS_TEST_CLOCK = run.clockPath;
  run.clockOffsetMs = 0;
  run.now = () => Date.now() + run.clockOffsetMs;
  run.advanceClock = async seconds => {
    assert.ok(seconds >= 0, 'the test clock only moves forward');
    run.clockOffsetMs += Math.round(seconds * 1000);
    await run_('python3', ['-B', PBCLOCK, run.clockPath, String(run.clockOffsetMs)]);
  };
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const {port} = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts pitbossd on the example configuration, changed by configure(cfg),
 * and waits for /health. Returns {tmp, daemon, base, log}, log growing with
 * the daemon's output; with {clock: true} the daemon runs on the test clock
 * (run.advanceClock, run.now: see testClock).
 */
export async function startPitbossd(prefix, configure = () => {}, {clock = false} = {}) {
  const run = {tmp: fs.mkdtempSync(path.join(os.tmpdir(), prefix)), log: ''};
  const port = await freePort();
  const cfg = JSON.parse(fs.readFileSync(path.join(SOURCE, 'config', 'pitboss.json'), 'utf8'));
  cfg.listen = `127.0.0.1:${port}`;
  cfg.database = path.join(run.tmp, 'pitboss.db');
  cfg.web_root = path.join(SOURCE, 'web');
  for (const [k, v] of Object.entries(cfg.games)) {
    if (typeof v === 'string') cfg.games[k] = path.resolve(SOURCE, 'config', v);
  }
  configure(cfg);
  const cfgPath = path.join(run.tmp, 'pitboss.json');
  fs.writeFileSync(cfgPath, JSON.stringify(cfg, null, 2));
  const bin = path.join(BUILD, 'pitbossd');
  assert.ok(fs.existsSync(bin), `no pitbossd at ${bin} (set PB_BUILD_DIR)`);
  const env = {...process.env};
  delete env.PITBOSS_TEST_CLOCK;
  if (clock) testClock(run, env);
  run.daemon = spawn(bin, ['-f', '-c', cfgPath], {stdio: ['ignore', 'pipe', 'pipe'], env});
  run.daemon.stdout.on('data', d => { run.log += d; });
  run.daemon.stderr.on('data', d => { run.log += d; });
  run.base = `http://127.0.0.1:${port}`;
  const healthy = await until(async () => {
    if (run.daemon.exitCode !== null) throw new Error(`pitbossd exited ${run.daemon.exitCode}:\n${run.log}`);
    try {
      return (await fetch(`${run.base}/api/v1/health`)).ok;
    } catch {
      return false;
    }
  }, 30000);
  if (!healthy) throw new Error(`pitbossd did not answer /health:\n${run.log}`);
  if (clock && !await until(() => run.log.includes('TEST CLOCK IN USE'), 5000)) {
    throw new Error(`pitbossd does not use the test clock (build it with -DPITBOSS_TEST_CLOCK=ON):\n${run.log}`);
  }
  return run;
}

/** Stops it (SIGTERM, at most 5 s) and removes its directory; run may be undefined. */
export async function stopPitbossd(run) {
  if (!run) return;
  if (run.daemon && run.daemon.exitCode === null) {
    run.daemon.kill('SIGTERM');
    await new Promise(r => { run.daemon.once('exit', r); setTimeout(r, 5000); });
  }
  fs.rmSync(run.tmp, {recursive: true, force: true});
}

/**
 * Records into list every Content-Security-Policy violation in any page of
 * context ({directive, blocked, source, page}): a securitypolicyviolation
 * listener on each document reports to Node at once, so a violation is
 * kept across navigations and after its page is closed.
 */
export async function recordCspViolations(context, list) {
  await context.exposeBinding('__pbCspViolation', ({page}, v) => { list.push({...v, page: page?.url()}); });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', e => {
      window.__pbCspViolation({directive: e.effectiveDirective, blocked: e.blockedURI,
        source: `${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`});
    });
  });
}

/**
 * Tries an inline style attribute and an inline script on page p, as an
 * injected script would.  Returns {styled, ran, seen}: whether the style
 * applied, whether the script ran, and the directives of the violations
 * the document saw.  Under the daemon's policy both are refused, and the
 * promise settles on their two violation events; when either got through
 * it settles at once.
 */
export function tryInline(p) {
  return p.evaluate(() => new Promise(resolve => {
    const seen = [];
    let styled = false, ran = false;
    const on = e => {
      seen.push(e.effectiveDirective);
      if (seen.length === 2) {
        document.removeEventListener('securitypolicyviolation', on);
        resolve({styled, ran, seen: seen.sort()});
      }
    };
    document.addEventListener('securitypolicyviolation', on);
    const box = document.createElement('div');
    document.body.append(box);
    box.setAttribute('style', 'outline-style: dotted');
    styled = getComputedStyle(box).outlineStyle === 'dotted';
    const script = document.createElement('script');
    script.textContent = 'window.__pbInlineRan = true;';
    document.head.append(script);
    ran = window.__pbInlineRan === true;
    box.remove();
    script.remove();
    if (styled || ran) resolve({styled, ran, seen});
  }));
}

/** Waits until test() (sync or async) holds, polling every 20 ms, at most ms; returns whether it held. */
export async function until(test, ms = 5000) {
  for (const end = Date.now() + ms; Date.now() < end;) {
    if (await test()) return true;
    await new Promise(r => setTimeout(r, 20));
  }
  return test();
}

/**
 * Serves on a free loopback port (another origin than the daemon's) a page
 * that frames the daemon's pages (the pit boss page as #pit, the dealer's
 * page as #dealer) and one of its own (#own, which must show).  Returns
 * {origin, close}.
 */
export async function framingOrigin(base) {
  const srv = http.createServer((req, res) => {
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    if (req.url === '/own') {
      res.end('<!doctype html><title>own</title><p id="own-text">framed here</p>');
      return;
    }
    res.end(`<!doctype html><title>framing</title><iframe id="own" src="/own"></iframe>
<iframe id="pit" src="${base}/"></iframe><iframe id="dealer" src="${base}/dealer/"></iframe>`);
  });
  await new Promise((resolve, reject) => { srv.once('error', reject); srv.listen(0, '127.0.0.1', resolve); });
  return {origin: `http://127.0.0.1:${srv.address().port}`, close: () => new Promise(r => srv.close(r))};
}

/**
 * Collects the page's console errors and uncaught exceptions into errors, but for the refusals
 * allowed() answers a pattern for at that moment (a refusal the test asks for is logged by the
 * browser as a failed resource load).
 */
export function watchConsole(p, errors, allowed) {
  p.on('console', msg => {
    if (msg.type() !== 'error') return;
    const ok = allowed();
    if (ok && ok.test(msg.text())) return;
    errors.push(`console: ${msg.text()} (${msg.location()?.url || ''})`);
  });
  p.on('pageerror', e => errors.push(`pageerror: ${e.message}`));
}

/** A full-page screenshot of p into file, from the top; its path logged for the run's record. */
export async function screenshot(p, file) {
  await p.evaluate(() => window.scrollTo(0, 0));
  await p.screenshot({path: file, fullPage: true});
  console.log(`# screenshot: ${file}`);
}

/**
 * Signs p in as person {id, name} with password at base's address hash (after signing out whoever
 * is in): signing in opens it, so no other view is read on the way.
 */
export async function signInAs(p, base, person, password, hash) {
  if (await p.locator('#signout').isVisible()) await p.locator('#signout').click();
  await p.goto(`${base}/${hash}`);
  await p.locator('#signin-form').waitFor({state: 'visible'});
  const id = p.locator('input[name="person"]');
  if (!await id.isVisible()) await p.locator('#signin-switch', {hasText: 'employee id'}).click();
  await id.fill(person.id);
  await p.locator('#signin-form input[name="password"]').fill(password);
  await p.locator('#signin-form input[name="password"]').press('Enter');
  await p.locator('#who', {hasText: person.name}).waitFor();
}

const AXE_SOURCE = path.join(here, 'node_modules', 'axe-core', 'axe.min.js');

/**
 * The serious and critical accessibility violations axe-core finds in p as it is now, as
 * ["rule-id: target …"] (empty when clean).  axe is evaluated through the debugging protocol,
 * which the page's Content-Security-Policy does not govern, so no policy is loosened for it.
 */
export async function axeViolations(p, {include = 'body'} = {}) {
  if (!await p.evaluate(() => typeof window.axe === 'object')) await p.evaluate(fs.readFileSync(AXE_SOURCE, 'utf8'));
  const found = await p.evaluate(async sel => {
    const r = await window.axe.run(document.querySelector(sel) || document, {resultTypes: ['violations']});
    return r.violations.map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 5)}));
  }, include);
  return found.filter(v => v.impact === 'serious' || v.impact === 'critical').map(v => `${v.id}: ${v.nodes.join(' | ')}`);
}

/**
 * What a person reading p's visible text should never see: an amount in cents, a JSON body, an
 * API error code in parentheses or a snake_case word.  Returns the offending fragments (empty when
 * clean); allowed is a list of fragments the view shows on purpose (an id typed by the user, say).
 */
export async function jargonIn(p, allowed = []) {
  const text = await p.evaluate(() => document.body.innerText);
  const found = [];
  const patterns = [/\bcents?\b/gi, /[{}]/g, /"[a-z_]+"\s*:/g, /\([a-z]+(?:_[a-z]+)+\)/g, /\b[a-z]+_[a-z_]+\b/g];
  for (const re of patterns) for (const m of text.matchAll(re)) {
    const at = Math.max(0, m.index - 30);
    const frag = text.slice(at, m.index + m[0].length + 30).replace(/\s+/g, ' ');
    if (!allowed.some(a => frag.includes(a))) found.push(frag);
  }
  return found;
}

/**
 * The daemon's API as a suite uses it, at the address base() gives (a suite learns it in its before hook):
 *   http(method, path, {token, body}) -> {status, json, text}: token defaults to the pit boss's terminal
 *     token, null sends none;
 *   ok(method, path, opts, status = 201) -> the answer's JSON, its status asserted;
 *   makePerson(p, password, {own = true, session = false}): the admin makes person p ({id, name, roles})
 *     with a one-time password; with own, p changes it to password (as the page's sign-in wants); with
 *     session, returns a session token of p's, else signs the change's session out.
 */
export function apiClient(base, {token: defaultToken = 'demo-pitboss', admin = 'demo-admin'} = {}) {
  async function http(method, p, {token = defaultToken, body} = {}) {
    const res = await fetch(base() + p, {
      method,
      headers: {...(token ? {Authorization: `Bearer ${token}`} : {}), Accept: 'application/json',
        ...(body ? {'Content-Type': 'application/json'} : {})},
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    let json = null;
    try { json = JSON.parse(text); } catch { /* CSV or empty */ }
    return {status: res.status, json, text};
  }
  async function ok(method, p, opts = {}, status = 201) {
    const r = await http(method, p, opts);
    assert.equal(r.status, status, `${method} ${p}: ${r.text}`);
    return r.json;
  }
  async function makePerson(p, password, {own = true, session = false} = {}) {
    const first = `${password}-first`;
    await ok('POST', '/api/v1/people', {token: admin, body: {id: p.id, name: p.name, roles: p.roles, password: first}});
    if (!own) return undefined;
    const s = await ok('POST', '/api/v1/sessions', {token: null, body: {person: p.id, password: first}});
    await ok('PUT', `/api/v1/people/${p.id}/password`, {token: s.token, body: {current: first, password}}, 200);
    if (!session) {
      await http('DELETE', '/api/v1/sessions/current', {token: s.token});
      return undefined;
    }
    return (await ok('POST', '/api/v1/sessions', {token: null, body: {person: p.id, password}})).token;
  }
  return {http, ok, makePerson};
}

/** Debian's headless Chromium as every suite launches it: no sandbox (CI containers), no GPU, no background traffic. */
export function launchChromium() {
  return chromium.launch({executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--no-first-run']});
}
