"""
The start-up integrity check in two parts (docs/audit.md, "The check at start").

With `checkpoint.startup_check: "full"` (the default) pitbossd checks every
table's last signed checkpoint and its chain since that checkpoint before it
listens, then walks the chains before the checkpoints in a background thread,
in file order, in chunks of `checkpoint.startup_walk_chunk` events, pausing
`checkpoint.startup_walk_pause_ms` between them.  These
tests run the real daemon on a small record (dealt once, signed at a clean
stop) and check that:

  - an event altered BEFORE the last checkpoint is found by the background
    walk, after the daemon listens: the table is put on hold (writes 409
    integrity_hold), an integrity_failure significant event is recorded, and
    GET /api/v1/integrity shows the progress ("startup_check") until done;
  - an untouched record reaches "done" with nothing held;
  - an event altered AFTER the last checkpoint is still caught before the
    daemon listens: the very first write is refused;
  - SIGTERM during the walk stops the daemon promptly; SIGHUP during the walk
    reloads and the walk finishes;
  - "since_checkpoint" has no background part.
"""
import sys
import json
import os
import re
import shutil
import sqlite3
import time
import unittest

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
import pbtest  # noqa: E402
from pbtest import DEALER, PITBOSS_TOKEN, AUDITOR  # noqa: E402

T1_WHOLE = {
    "bets": {"1": {"ante": 2500, "pair_plus": 500}, "3": {"ante": 1000, "six_card": 500}},
    "hands": {"1": ["As", "Ks", "Qs"], "3": ["2c", "3d", "4h"]},
    "dealer": ["Qd", "7c", "2h"],
    "decisions": {"1": "play", "3": "fold"}}
T3_WHOLE = {
    "bets": {"1": {"pair_plus": 1000}, "4": {"ante": 1000}},
    "hands": {"1": ["9d", "9s", "2c"], "4": ["7h", "7d", "7s"]},
    "dealer": ["2s", "2h", "7c"],
    "decisions": {"4": "play"}}

G = {}      # the record every test starts from: "daemon", "db", "key"


def build_record():
    """Whole rounds at T1 and T3, then a clean stop, which signs a checkpoint of every chain.  T1 gets more rounds
    than the start-up check compares with their events before listening (the newest 100, table/audit/audit.h): its
    first round, which the tests alter, is then the background walk's to find."""
    d = pbtest.Daemon()
    G["daemon"] = d
    d.start()
    for _ in range(103):
        st, js = d.call("POST", "/api/v1/tables/T1/rounds", T1_WHOLE)
        assert st == 201, js
    st, js = d.call("POST", "/api/v1/tables/T3/rounds", T3_WHOLE)
    assert st == 201, js
    d.stop()
    G["db"] = d.db_path
    G["key"] = d.db_path + ".signing-key"


def setUpModule():
    try:
        build_record()
    except BaseException:
        if "daemon" in G:
            G["daemon"].close()
        raise


def tearDownModule():
    if "daemon" in G:
        G["daemon"].close()


class StartupCheck(unittest.TestCase):
    """Each test: a copy of the record in a fresh daemon directory."""

    def setUp(self):
        self.d = pbtest.Daemon()
        self.addCleanup(self.d.close)
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(G["db"] + suffix):
                shutil.copy(G["db"] + suffix, self.d.db_path + suffix)
        shutil.copy(G["key"], self.d.db_path + ".signing-key")
        os.chmod(self.d.db_path + ".signing-key", 0o600)

    def configure(self, mode="full", pause_ms=None, chunks=None):
        ck = {"startup_check": mode}
        if pause_ms is not None:
            ck["startup_walk_pause_ms"] = pause_ms
        if chunks is not None:
            # the walk reads the events in file order, `chunks` reads (a pause after each)
            before = self.d.db_value("SELECT coalesce(sum(s), 0) FROM (SELECT max(table_seq) AS s FROM checkpoints "
                                     "GROUP BY table_id)")
            ck["startup_walk_chunk"] = max(100, before // chunks + 1)
        self.d.config["checkpoint"] = ck
        self.d.write_config()

    def alter_event(self, table, seq, old, new):
        """Edits one event's body as someone holding the file would (daemon stopped, trigger dropped)."""
        self.assertFalse(self.d.running)
        conn = sqlite3.connect(self.d.db_path)
        conn.isolation_level = None
        try:
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("DROP TRIGGER IF EXISTS events_no_update")
            body = conn.execute("SELECT body FROM events WHERE table_id = ? AND table_seq = ?", (table, seq)).fetchone()[0]
            self.assertIn(old, body)
            conn.execute("UPDATE events SET body = ? WHERE table_id = ? AND table_seq = ?",
                         (body.replace(old, new, 1), table, seq))
            conn.execute("COMMIT")
        finally:
            conn.close()

    def first_event(self, table, type_, after=0):
        return self.d.db_value("SELECT min(table_seq) FROM events WHERE table_id = ? AND type = ? AND table_seq > ?",
                               (table, type_, after))

    def last_checkpoint(self, table):
        return self.d.db_value("SELECT max(table_seq) FROM checkpoints WHERE table_id = ?", (table,))

    def get(self, path, token=AUDITOR, status=200):
        st, js = self.d.call("GET", path, token=token)
        self.assertEqual(st, status, "GET %s -> %d %s" % (path, st, json.dumps(js)))
        return js

    def failures(self, table):
        evs = self.get("/api/v1/events?limit=1000")["events"]
        return [e for e in evs if e["code"] == "integrity_failure" and e["table"] == table]

    def metric(self, name):
        st, hdrs, raw = self.d.request("GET", "/metrics", token=AUDITOR)
        self.assertEqual(st, 200)
        for l in raw.decode().splitlines():
            if l.startswith(name + " "):
                return float(l.split()[-1])
        self.fail("no %s in /metrics" % name)

    def log_index(self, log, fragment):
        i = log.find(fragment)
        self.assertGreaterEqual(i, 0, "no %r in the log:\n%s" % (fragment, log))
        return i

    def test_altered_before_checkpoint_held_by_the_background_walk(self):
        seq = self.first_event("T1", "cards_dealt")
        self.assertLess(seq, self.last_checkpoint("T1"))
        self.alter_event("T1", seq, '"Qs"', '"Js"')
        # a pause between chunks long enough to see the walk running (5 chunks, 6 s in all:
        # on a loaded machine the daemon can take 4 s to answer its first request)
        self.configure("full", pause_ms=1200, chunks=5)
        self.d.start()
        sc = self.d.startup_check()
        self.assertEqual(sc["mode"], "full")
        self.assertEqual(sc["state"], "running", json.dumps(sc))
        self.assertIs(sc["background"], True)
        self.assertIsNone(sc["finished_at"])
        self.assertLess(sc["tables_checked"], sc["tables"])
        self.assertEqual(self.metric("pitboss_startup_check_running"), 1)
        sc = self.d.wait_startup_check()
        self.assertEqual(sc["state"], "done", json.dumps(sc))
        self.assertEqual(sc["tables_checked"], sc["tables"])
        self.assertEqual(sc["tables_held"], 1)
        self.assertEqual(sc["problems"], 1)
        self.assertEqual(sc["events_checked"], sc["events"])
        self.assertRegex(sc["finished_at"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
        self.assertLessEqual(sc["started_at"], sc["finished_at"])
        self.assertEqual(self.metric("pitboss_startup_check_running"), 0)
        self.assertEqual(self.metric("pitboss_startup_check_tables_held"), 1)
        # found after listening, by the walk
        log = self.d.run_log()
        listening = self.log_index(log, "listening on")
        self.assertLess(self.log_index(log, "start-up integrity check: every chain matches its last signed checkpoint"),
                        listening)
        self.assertGreater(self.log_index(log, "start-up integrity check: table T1 failed before its last checkpoint"),
                           listening)
        self.assertGreater(self.log_index(log, "start-up integrity check: 1 table(s) failed"), listening)
        self.assertRegex(log, r"background walk: \d+ events of 5 table\(s\) in \d+\.\d s")
        # the table is held: writes refused, reads served; other tables deal on
        before = pbtest.snapshot(self.d)
        st, js = self.d.call("POST", "/api/v1/tables/T1/rounds", T1_WHOLE)
        self.assertEqual((st, js["error"]["code"]), (409, "integrity_hold"), js)
        self.assertIn("event %d (cards_dealt)" % seq, js["error"]["message"])
        self.assertEqual(before, pbtest.snapshot(self.d))
        self.assertEqual(self.get("/api/v1/tables/T1", token=PITBOSS_TOKEN)["table"]["id"], "T1")
        st, js = self.d.call("POST", "/api/v1/tables/T3/rounds", T3_WHOLE)
        self.assertEqual(st, 201, js)
        # the significant event, with what was found and by which part
        fails = self.failures("T1")
        self.assertEqual(len(fails), 1, json.dumps(fails, indent=1))
        self.assertEqual(fails[0]["source"], "pitbossd")
        self.assertEqual(fails[0]["detail"]["part"], "before_checkpoint")
        self.assertIn("event %d (cards_dealt): its hash does not match its content" % seq,
                      fails[0]["detail"]["problems"][0]["problem"])
        self.assertEqual([e for e in self.get("/api/v1/events?limit=1000")["events"]
                          if e["code"] == "integrity_failure" and e["table"] != "T1"], [])
        js = self.get("/api/v1/integrity")
        self.assertIs(js["ok"], False)
        self.assertEqual(js["startup_check"]["state"], "done")
        self.d.stop(allow_errors=True)      # the failure is logged as an error

    def test_untouched_record_done_without_hold(self):
        self.configure("full")
        self.d.start()
        sc = self.d.wait_startup_check()
        self.assertEqual(sc["state"], "done", json.dumps(sc))
        self.assertIs(sc["background"], True)
        self.assertEqual((sc["tables_held"], sc["problems"]), (0, 0))
        self.assertEqual(sc["tables_checked"], sc["tables"])
        self.assertEqual(sc["tables"], 5)
        self.assertEqual(sc["events_checked"], sc["events"])
        self.assertEqual(sc["events"], self.d.db_value("SELECT count(*) FROM events"))
        self.assertEqual(self.failures("T1"), [])
        st, js = self.d.call("POST", "/api/v1/tables/T1/rounds", T1_WHOLE)
        self.assertEqual(st, 201, js)
        log = self.d.run_log()
        self.assertGreater(self.log_index(log, "start-up integrity check: done; the "), self.log_index(log, "listening on"))
        self.assertIs(self.get("/api/v1/integrity")["ok"], True)
        self.d.stop()       # no error in the log

    def test_altered_after_checkpoint_held_before_listening(self):
        # more rounds at T1 after the record's checkpoint, then a crash: no checkpoint covers them
        self.configure("full")
        self.d.start()
        head = self.last_checkpoint("T1")
        st, js = self.d.call("POST", "/api/v1/tables/T1/rounds", T1_WHOLE)
        self.assertEqual(st, 201, js)
        self.d.kill9()
        seq = self.first_event("T1", "cards_dealt", after=head)
        self.assertEqual(self.last_checkpoint("T1"), head)
        self.alter_event("T1", seq, '"Qs"', '"Js"')
        # a slow background walk: the hold must not wait for it
        self.configure("full", pause_ms=2000, chunks=5)
        self.d.start()
        st, js = self.d.call("POST", "/api/v1/tables/T1/rounds", T1_WHOLE)
        self.assertEqual((st, js["error"]["code"]), (409, "integrity_hold"), js)
        self.assertIn("event %d (cards_dealt)" % seq, js["error"]["message"])
        log = self.d.run_log()
        self.assertLess(self.log_index(log, "start-up integrity check: 1 table(s) failed"), self.log_index(log, "listening on"))
        fails = self.failures("T1")
        self.assertEqual(len(fails), 1, json.dumps(fails, indent=1))
        self.assertEqual(fails[0]["detail"]["part"], "since_checkpoint")
        sc = self.d.startup_check()
        self.assertEqual(sc["state"], "running")
        self.assertEqual(sc["tables_held"], 1)
        self.d.stop(allow_errors=True)

    def test_sigterm_during_the_walk_stops_promptly(self):
        self.configure("full", pause_ms=3000, chunks=5)      # 15 s of walk
        self.d.start()
        self.assertEqual(self.d.startup_check()["state"], "running")
        t0 = time.monotonic()
        self.d.stop()
        took = time.monotonic() - t0
        self.assertLess(took, 2.5, "SIGTERM took %.2f s with the walk running" % took)
        log = self.d.run_log()
        self.assertIn("the background walk stopped with the daemon", log)
        # the next start walks again, to the end
        self.configure("full")
        self.d.start()
        self.assertEqual(self.d.wait_startup_check()["state"], "done")
        self.d.stop()

    def test_sighup_during_the_walk(self):
        # 5 chunks, 1.2 s after each: still walking after the round and the reload on a loaded machine
        self.configure("full", pause_ms=1200, chunks=5)
        self.d.start()
        self.assertEqual(self.d.startup_check()["state"], "running")
        # writes are served while the walk runs
        st, js = self.d.call("POST", "/api/v1/tables/T3/rounds", T3_WHOLE)
        self.assertEqual(st, 201, js)
        cfg = self.d.config
        cfg["idempotency"] = {"retention_seconds": 3600}
        cfg["checkpoint"]["startup_walk_pause_ms"] = 0      # taken at start only
        self.d.write_config(cfg)
        self.d.sighup()
        pbtest.wait_until(lambda: "the reload:\n" + self.d.run_log(), lambda: "configuration reloaded" in self.d.run_log())
        self.assertEqual(self.d.startup_check()["state"], "running")
        sc = self.d.wait_startup_check()
        self.assertEqual((sc["state"], sc["tables_held"]), ("done", 0), json.dumps(sc))
        self.assertEqual(sc["tables_checked"], sc["tables"])
        st, js = self.d.call("POST", "/api/v1/tables/T1/rounds", T1_WHOLE)
        self.assertEqual(st, 201, js)
        self.d.stop()

    def test_since_checkpoint_has_no_background_part(self):
        seq = self.first_event("T1", "cards_dealt")
        self.alter_event("T1", seq, '"Qs"', '"Js"')
        self.configure("since_checkpoint")
        self.d.start()
        sc = self.d.startup_check()
        self.assertEqual((sc["mode"], sc["state"], sc["background"]), ("since_checkpoint", "done", False), json.dumps(sc))
        self.assertEqual(sc["tables_held"], 0)
        self.assertLess(sc["events"], self.d.db_value("SELECT count(*) FROM events"))
        # the change before the checkpoint is for GET /integrity and `pitboss verify` to find
        self.assertIs(self.get("/api/v1/integrity")["ok"], False)
        self.assertEqual(self.failures("T1"), [])
        self.d.stop()


if __name__ == "__main__":
    pbtest.main()
