// harness.mjs - the real pitbossd for the browser tests (page.test.mjs,
// dealer.test.mjs): the example config/ on a free loopback port with a
// database in a temporary directory, started and stopped the same way.
import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const SOURCE = path.resolve(process.env.PB_SOURCE_DIR || path.join(here, '..', '..'));
export const BUILD = path.resolve(process.env.PB_BUILD_DIR || '/work/main/build');
export const CHROMIUM = process.env.PB_CHROMIUM || '/usr/bin/chromium';

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
 * the daemon's output.
 */
export async function startPitbossd(prefix, configure = () => {}) {
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
  run.daemon = spawn(bin, ['-f', '-c', cfgPath], {stdio: ['ignore', 'pipe', 'pipe']});
  run.daemon.stdout.on('data', d => { run.log += d; });
  run.daemon.stderr.on('data', d => { run.log += d; });
  run.base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (run.daemon.exitCode !== null) throw new Error(`pitbossd exited ${run.daemon.exitCode}:\n${run.log}`);
    try {
      if ((await fetch(`${run.base}/api/v1/health`)).ok) return run;
    } catch { /* not yet */ }
    await new Promise(r => setTimeout(r, 100));
  }
  throw new Error(`pitbossd did not answer /health:\n${run.log}`);
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
