"""
The shipper's deadline (docs/central.md, "When the central server stalls"):
against a real PostgreSQL (pgserver.py), with central.statement_timeout_ms
small, /metrics must tell the truth while the shipper is blocked and the
shipping must heal by itself.

- A real lock: another connection holds LOCK TABLE pitboss.events.  The lag
  in events and seconds grows (read from the record when /metrics is asked,
  not from the blocked thread), `up` falls to 0 once a statement is past the
  deadline, /ready says shipping is stalled and for how long (growing), and
  after the release every event is there once, lag 0, up 1, /ready 200.
- A blackholed path: a TCP proxy here, between pitbossd and PostgreSQL,
  stops forwarding in both directions without closing a socket (what a
  silent network does; keepalives and the server's own timeout never see
  it).  After the network returns the shipping is whole again well within
  60 s: one deadline and a backoff, not a restart.
"""
import os
import re
import select
import socket
import subprocess
import threading
import time
import unittest

import pbtest
import pgserver
from test_central import WHOLE, metric, metrics, run

DEADLINE_MS = 1500


class Blackhole:
    """A TCP proxy to (host, port): forwards both ways until `drop` is set, then moves no byte (sockets held
    open, new connections accepted and held) until it is cleared."""

    def __init__(self, port):
        self.upstream = ("127.0.0.1", port)
        self.drop = threading.Event()
        self.done = threading.Event()
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.port = self.listener.getsockname()[1]
        self.threads = [threading.Thread(target=self._accept, daemon=True)]
        self.threads[0].start()

    def _accept(self):
        while not self.done.is_set():
            r, _, _ = select.select([self.listener], [], [], 0.1)
            if r:
                client, _ = self.listener.accept()
                t = threading.Thread(target=self._pump, args=(client,), daemon=True)
                self.threads.append(t)
                t.start()

    def _pump(self, client):
        server = None
        try:
            while not self.done.is_set():
                if self.drop.is_set():          # nothing read, nothing sent: the bytes wait in the kernels
                    self.done.wait(0.05)
                    continue
                if server is None:
                    server = socket.create_connection(self.upstream)
                r, _, _ = select.select([client, server], [], [], 0.05)
                for src in r:
                    data = src.recv(65536)
                    if not data:
                        return
                    (server if src is client else client).sendall(data)
        except OSError:
            return
        finally:
            client.close()
            if server is not None:
                server.close()

    def close(self):
        self.done.set()
        for t in self.threads:
            t.join(5)
        self.listener.close()


class CentralDeadlineTest(pgserver.CentralServerCase):

    def setUp(self):
        self.d = None
        self.proxy = None
        self.locker = None

    def tearDown(self):
        try:
            if self.locker is not None and self.locker.poll() is None:
                self.locker.kill()
                self.locker.wait()
            if self.d is not None:
                if self.d.running:
                    self.d.stop(allow_errors=True)     # the shipper logs the stall
                self.d.close()
        finally:
            if self.proxy is not None:
                self.proxy.close()

    def start(self, prop, conninfo):
        pcfg = dict(pbtest.example_config()["property"], id=prop)
        self.prop = prop
        self.d = pbtest.Daemon(overrides={
            "central": {"conninfo": conninfo, "statement_timeout_ms": DEADLINE_MS}, "property": pcfg,
            "checkpoint": {"every_rounds": 5, "every_seconds": 1}})
        self.d.start()

    def deal(self, n):
        for _ in range(n):
            st, js = self.d.call("POST", "/api/v1/tables/T1/rounds", WHOLE)
            self.assertEqual(st, 201, js)

    def local_head(self):
        return self.d.db_rows("SELECT coalesce(max(id), 0) FROM events")[0][0]

    def wait_whole(self, timeout):
        """Until PostgreSQL holds every local event once, /metrics says lag 0 and up 1; its metrics."""
        seen = {}

        def whole():
            n_local = self.d.db_rows("SELECT count(*) FROM events")[0][0]
            n_pg = int(self.pg.psql("SELECT count(*) FROM pitboss.events WHERE property = '%s'" % self.prop))
            m = metrics(self.d)
            seen["state"] = (n_local, n_pg, m)
            ok = (n_local == n_pg and metric(m, "pitboss_central_lag_events") == 0
                  and metric(m, "pitboss_central_up") == 1)
            return m if ok else None
        return pbtest.wait_until(lambda: "whole again: events %d local, %d central\n%s\n%s"
                                 % (seen["state"] + (self.d.full_log(),)), whole, timeout=timeout, every=0.1)

    def assert_once_and_verified(self):
        local = [tuple(str(v) for v in r) for r in
                 self.d.db_rows("SELECT table_id, table_seq, hash FROM events ORDER BY table_id, table_seq")]
        central = [tuple(l.split("|")) for l in self.pg.psql(
            "SELECT table_id, table_seq, hash FROM pitboss.events WHERE property = '%s' "
            "ORDER BY table_id, table_seq" % self.prop).split()]
        self.assertEqual(local, central)              # every event, each once
        rc, out, err = run("central", "verify", "--conninfo", self.pg.conninfo, "--property", self.prop)
        self.assertEqual(rc, 0, out + err)

    def stalled_reason(self):
        """(seconds, the reason) of /ready's reason that central shipping is stalled, else None."""
        st, js = self.d.call("GET", "/api/v1/ready", token=None)
        for r in (js or {}).get("reasons", []) if st == 503 else []:
            m = re.match(r"central: shipping stalled for (\d+) s: (\d+) events? not yet acknowledged", r)
            if m:
                return int(m.group(1)), int(m.group(2)), r
        return None

    def test_lock_lag_grows_up_falls_then_whole(self):
        self.start("P-lock", self.pg.conninfo)
        self.deal(3)
        self.wait_whole(30)
        self.assertEqual(self.d.call("GET", "/api/v1/ready", token=None)[0], 200)
        shipped = self.local_head()
        # another connection holds the central events table, as a long maintenance statement would
        self.locker = subprocess.Popen(
            [os.path.join(pgserver.PG_BIN, "psql"), "-X", "-q", "-d", self.pg.conninfo, "-v", "ON_ERROR_STOP=1"],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.locker.stdin.write("BEGIN;\nLOCK TABLE pitboss.events IN ACCESS EXCLUSIVE MODE;\n")
        self.locker.stdin.flush()
        pbtest.wait_until("the lock taken", lambda: self.pg.psql(
            "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation JOIN pg_namespace n "
            "ON n.oid = c.relnamespace WHERE n.nspname = 'pitboss' AND c.relname = 'events' AND l.granted "
            "AND l.mode = 'AccessExclusiveLock'").strip() == "1", timeout=15, every=0.1)
        locked_at = time.monotonic()
        self.deal(4)
        head = self.local_head()
        self.assertGreater(head, shipped)

        def lag_grown():
            m = metrics(self.d)
            return m if metric(m, "pitboss_central_lag_events") == head - shipped else None
        m = pbtest.wait_until(lambda: "the lag grown to %d:\n%s" % (head - shipped, metrics(self.d)), lag_grown,
                              timeout=15, every=0.1)
        self.assertLess(time.monotonic() - locked_at, 15)
        self.assertEqual(metric(m, "pitboss_central_shipped_events"), shipped)
        first = metric(m, "pitboss_central_lag_seconds")
        self.assertGreater(first, 0)
        # up falls to 0 once a statement is past the deadline, while the lock still stands
        m = pbtest.wait_until(lambda: "up 0:\n" + metrics(self.d),
                              lambda: (lambda t: t if metric(t, "pitboss_central_up") == 0 else None)(metrics(self.d)),
                              timeout=DEADLINE_MS / 1000 + 10, every=0.1)
        self.assertEqual(metric(m, "pitboss_central_lag_events"), head - shipped)
        self.assertGreater(metric(m, "pitboss_central_lag_seconds"), first)     # the oldest waiting event ages
        # /ready: stalled, with the events waiting and for how long, past the deadline and growing
        first = pbtest.wait_until(lambda: "/ready stalled: %r" % (self.d.call("GET", "/api/v1/ready", token=None),),
                                  self.stalled_reason, timeout=15, every=0.1)
        self.assertGreaterEqual(first[0], DEADLINE_MS // 1000, first[2])
        self.assertEqual(first[1], head - shipped, first[2])
        later = pbtest.wait_until(lambda: "the stall's seconds grow past %d" % first[0],
                                  lambda: (lambda r: r if r is not None and r[0] > first[0] else None)(
                                      self.stalled_reason()), timeout=15, every=0.2)
        self.assertLessEqual(later[0], time.monotonic() - locked_at + 1, later[2])
        self.assertGreater(metric(metrics(self.d), "pitboss_central_stalled_seconds"), DEADLINE_MS / 1000)
        self.assertIsNone(self.locker.poll(), "the lock was held throughout")
        self.locker.stdin.write("COMMIT;\n")
        self.locker.stdin.close()
        self.assertEqual(self.locker.wait(30), 0, self.locker.stderr.read())
        self.deal(2)
        m = self.wait_whole(30)
        self.assertGreater(metric(m, "pitboss_central_failures_total"), 0)
        self.assertEqual(metric(m, "pitboss_central_stalled_seconds"), 0)
        self.assertEqual(self.d.call("GET", "/api/v1/ready", token=None)[0], 200)
        self.assert_once_and_verified()

    def test_blackhole_heals(self):
        self.proxy = Blackhole(self.pg.port)
        self.start("P-hole", "host=127.0.0.1 port=%d user=postgres dbname=postgres" % self.proxy.port)
        self.deal(3)
        self.wait_whole(30)
        self.proxy.drop.set()
        self.deal(4)
        failures = {}

        def stalled():
            m = metrics(self.d)
            failures["n"] = metric(m, "pitboss_central_failures_total")
            return m if metric(m, "pitboss_central_up") == 0 and (failures["n"] or 0) >= 2 else None
        # up 0, and at least one attempt after the first one failed too (the path still silent)
        m = pbtest.wait_until(lambda: "stalled through the silent path:\n" + metrics(self.d), stalled,
                              timeout=20, every=0.1)
        self.assertGreater(metric(m, "pitboss_central_lag_events"), 0)
        self.proxy.drop.clear()
        back = time.monotonic()
        self.deal(2)
        self.wait_whole(60)
        healed = time.monotonic() - back
        # one deadline for the attempt under way, the backoff (at most 5 s), a connection: far under 60 s
        self.assertLess(healed, 60)
        self.assertLess(healed, DEADLINE_MS / 1000 + 5 + 10)
        self.assert_once_and_verified()


if __name__ == "__main__":
    unittest.main()
