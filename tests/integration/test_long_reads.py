"""
Long reads off the writers' path (docs/performance.md "Long reads and
writes", http/longread.h):

- a dealer's writes keep their latency while four GET /integrity walks of a
  long chain run at once: the walks run on the reader pool, not on the
  worker threads a write lands on.  Prints p50/p99 of the writes alone and
  during the walks; asserts p99 < 1 s during the walks (before the pool a
  write behind a walk waited for the whole walk: tens of seconds at a
  million events);
- beyond the pool's running and waiting requests, a long read is answered
  503 busy with Retry-After at once, and every other one is answered 200;
- unauthenticated and wrongly-roled long reads are refused on the worker
  (401, 403) as before.

The chain is made fast: N events of an unused table appended with their
hashes by sqlite3 while the daemon runs (the daemon never writes that table);
the busy test's daemon has a quarter of them.
"""
import hashlib
import json
import os
import re
import sqlite3
import sys
import threading
import time
import unittest

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
import pbtest  # noqa: E402
from pbtest import AUDITOR, DEALER  # noqa: E402

T1_WHOLE = {
    "bets": {"1": {"ante": 2500, "pair_plus": 500}, "3": {"ante": 1000, "six_card": 500}},
    "hands": {"1": ["As", "Ks", "Qs"], "3": ["2c", "3d", "4h"]},
    "dealer": ["Qd", "7c", "2h"],
    "decisions": {"1": "play", "3": "fold"}}



def sanitized():
    """Whether pitbossd is the sanitizer build (its walks are about ten times slower)."""
    with open(pbtest.PITBOSSD, "rb") as f:
        return b"__asan_init" in f.read()


# A walk of seconds: long enough that a write behind it would show, short enough for the suite.
EVENTS = int(os.environ.get("PB_LONG_READ_EVENTS") or (100000 if sanitized() else 400000))


def append_chain(db_path, table_id, n):
    """Appends n chained table_opened events of table_id (a table nothing else writes)."""
    conn = sqlite3.connect(db_path, timeout=30)
    try:
        prev = pbtest.GENESIS
        rows = []
        at = "2026-01-01T00:00:00.000Z"
        for seq in range(1, n + 1):
            body = '{"filler":%d}' % seq
            h = hashlib.sha256(prev.encode() + pbtest.event_canonical(table_id, seq, None, "table_opened", at, "pb", body)).hexdigest()
            rows.append((table_id, seq, None, "table_opened", at, "pb", body, prev, h))
            prev = h
        conn.execute("BEGIN IMMEDIATE")
        conn.executemany("INSERT INTO events (table_id, table_seq, round_id, type, at, actor, body, prev_hash, hash) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        conn.execute("COMMIT")
    finally:
        conn.close()


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * p))]


class LongChain(pbtest.DaemonTestCase):
    """A daemon whose record has a chain of `events` events besides the rounds."""
    # request_head_timeout 1: the watchdog's grace before a body's rate counts is 1 s, shorter than
    # the walks, so a long read the watchdog took for a slow body would be dropped (it was, under ASan)
    daemon_kwargs = {"overrides": {"checkpoint": {"startup_check": "since_checkpoint"}, "request_head_timeout": 1}}
    events = EVENTS

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        t0 = time.monotonic()
        append_chain(cls.d.db_path, "LONG", cls.events)
        cls.fill_s = time.monotonic() - t0

    def integrity(self, out, i):
        t0 = time.monotonic()
        st, hdrs, raw = self.d.request("GET", "/api/v1/integrity", token=AUDITOR, timeout=600)
        out[i] = (st, hdrs, raw, time.monotonic() - t0)


class LongReads(LongChain):

    def connections_open(self):
        raw = self.d.request("GET", "/metrics", token=None)[2]
        return int(re.search(rb"^pitboss_connections_open (\d+)$", raw, re.M).group(1))

    def write_latencies(self, n=None, until=None):
        lat = []
        while (n is not None and len(lat) < n) or (until is not None and until()):
            t0 = time.monotonic()
            st, js = self.d.call("POST", "/api/v1/tables/T1/rounds", T1_WHOLE, token=DEALER)
            lat.append(time.monotonic() - t0)
            self.assertEqual(st, 201, js)
        return lat

    def test_a_writes_keep_their_latency_during_four_walks(self):
        alone = self.write_latencies(n=60)
        out = [None] * 4
        walks = [threading.Thread(target=self.integrity, args=(out, i)) for i in range(4)]
        for t in walks:
            t.start()
        # the four walks are at the daemon (and /metrics's own connection) before the writes are timed
        pbtest.wait_until("the four walks are under way", lambda: self.connections_open() >= 5
                          or not all(t.is_alive() for t in walks))
        during = self.write_latencies(until=lambda: any(t.is_alive() for t in walks))
        for t in walks:
            t.join()
        for st, hdrs, raw, secs in out:
            self.assertEqual(st, 200, raw[:300])
            js = json.loads(raw)
            self.assertGreaterEqual(js["checked"]["events"], EVENTS, js["checked"])
        walk_s = max(o[3] for o in out)
        print("\n  %d events appended in %.1f s; 4 concurrent GET /integrity: the last answered in %.1f s"
              % (EVENTS, self.fill_s, walk_s))
        print("  writes alone:      n=%d p50 %.1f ms p99 %.1f ms" % (len(alone), pct(alone, .5) * 1e3, pct(alone, .99) * 1e3))
        print("  during the walks:  n=%d p50 %.1f ms p99 %.1f ms max %.1f ms"
              % (len(during), pct(during, .5) * 1e3, pct(during, .99) * 1e3, max(during) * 1e3))
        self.assertGreater(len(during), 5, "the walks were too short to measure anything (%.2f s)" % walk_s)
        self.assertLess(pct(during, .99), 1.0)
        # a write that waited behind a walk waits about as long as the walk: none may
        self.assertLess(max(during), max(0.3, walk_s / 2), "a write waited behind a walk")


class Busy(LongChain):
    """The readers' pool full (2 running, 8 waiting): its walks need only outlast the sending of 14 requests, a
    matter of milliseconds, and the ten it takes are waited for one pair after another: a quarter of the chain."""
    events = EVENTS // 4

    def test_b_beyond_the_pool_busy_with_retry_after(self):
        n = 14
        out = [None] * n
        ts = [threading.Thread(target=self.integrity, args=(out, i)) for i in range(n)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        statuses = sorted(o[0] for o in out)
        busy = [o for o in out if o[0] == 503]
        self.assertTrue(busy, statuses)
        self.assertEqual(set(statuses), {200, 503}, statuses)
        for st, hdrs, raw, secs in busy:
            self.assertEqual(json.loads(raw)["error"]["code"], "busy")
            self.assertEqual(hdrs.get("retry-after"), "5")
            self.assertLess(secs, 1.0, "a busy answer is given at once")
        st, body = self.d.call("GET", "/metrics", token=None)
        text = self.d.request("GET", "/metrics", token=None)[2].decode()
        self.assertIn('pitboss_refusals_total{status="503",code="busy"}', text)

    def test_c_refused_on_the_worker(self):
        st, js = self.d.call("GET", "/api/v1/integrity", token=None)
        self.assertEqual(st, 401, js)
        st, js = self.d.call("GET", "/api/v1/integrity", token=DEALER)
        self.assertEqual(st, 403, js)
        st, js = self.d.call("GET", "/api/v1/integrity?bogus=1", token=AUDITOR)
        self.assertEqual(st, 400, js)
        st, js = self.d.call("GET", "/api/v1/reports/payouts?format=csv", token=AUDITOR)
        self.assertEqual(st, 200, js)


if __name__ == "__main__":
    pbtest.main()
