"""
The retention of stored Idempotency-Key answers ("idempotency":
{"retention_seconds"}): a retry within the retention gets the first answer;
once the answer is older than the retention pitbossd deletes it (logged,
counted in /metrics) and the key is unknown again; the record itself (rounds,
the event chain) is untouched; SIGHUP changes the retention; `pitbossd -t`
names the key of a bad setting.  The answers age on the test clock: a test
moves it past the retention instead of waiting, so a retry "within the
retention" is within it however slow the machine.
"""
import sys
import json
import os
import random
import re
import subprocess
import time
import unittest

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
import pbtest  # noqa: E402
from pbtest import AUDITOR, PITBOSSD

DECK = [r + s for r in "23456789TJQKA" for s in "cdhs"]
RETENTION = 600        # seconds of the test clock: a pass every minute (a tenth of it, at most 60 s)
DEALER_NAME = "demo-dealer"
wait_until = pbtest.wait_until


def whole_round(seed):
    cards = random.Random(seed).sample(DECK, 9)
    return {"bets": {"1": {"ante": 1000}, "2": {"ante": 1000, "pair_plus": 500}},
            "hands": {"1": cards[0:3], "2": cards[3:6]},
            "decisions": {"1": "play", "2": "fold"},
            "dealer": cards[6:9]}


class Expiry(unittest.TestCase):
    """A daemon per test, so that the pruning counter and the log start from zero."""

    overrides = {"idempotency": {"retention_seconds": RETENTION}}

    def setUp(self):
        self.d = pbtest.Daemon(overrides=self.overrides, clock=True)
        self.addCleanup(self.d.close)
        self.d.start()

    def stored(self, key):
        return self.d.db_value("SELECT count(*) FROM idempotency WHERE actor = ? AND key = ?", (DEALER_NAME, key))

    def pruned_metric(self):
        st, hdrs, raw = self.d.request("GET", "/metrics", token=None)
        self.assertEqual(st, 200)
        m = re.search(r"^pitboss_idempotency_pruned_total (\d+)$", raw.decode(), re.M)
        self.assertIsNotNone(m, "no pitboss_idempotency_pruned_total in /metrics")
        return int(m.group(1))

    def test_retry_honored_then_pruned(self):
        body = whole_round(1)
        st1, js1 = self.d.call("POST", "/api/v1/tables/T1/rounds", body, idem="expiring-1")
        self.assertEqual(st1, 201, js1)
        self.assertEqual(self.stored("expiring-1"), 1)
        self.assertEqual(self.pruned_metric(), 0)

        # Within the retention: the same answer, nothing recorded twice.
        snap = pbtest.snapshot(self.d)
        st2, js2 = self.d.call("POST", "/api/v1/tables/T1/rounds", body, idem="expiring-1")
        self.assertEqual((st2, js2), (st1, js1))
        self.assertEqual(pbtest.snapshot(self.d), snap)

        # After the retention: pruned, logged and counted.
        self.d.advance_clock(RETENTION + 1)
        wait_until("the stored answer of expiring-1 is deleted", lambda: self.stored("expiring-1") == 0)
        wait_until("pitboss_idempotency_pruned_total counts it", lambda: self.pruned_metric() == 1)
        wait_until("the pruning is logged", lambda: "idempotency: pruned 1 stored answer older than %d s" % RETENTION
                   in self.d.run_log())
        self.assertEqual(self.d.db_value("SELECT count(*) FROM idempotency"), 0)

        # The record is untouched: the round reads back as answered, and every chain recomputes.
        rid = js1["round"]["id"]
        got = self.d.call("GET", "/api/v1/rounds/%d" % rid, token=AUDITOR)
        self.assertEqual(got[0], 200)
        self.assertEqual(got[1]["round"]["payouts"], js1["round"]["payouts"])
        conn = self.d.db_connect()
        try:
            self.assertEqual(pbtest.chain_problems(conn), [])
        finally:
            conn.close()

        # The key is unknown again: the same request with it is a new request (a second round) ...
        st3, js3 = self.d.call("POST", "/api/v1/tables/T1/rounds", body, idem="expiring-1")
        self.assertEqual(st3, 201, js3)
        self.assertNotEqual(js3["round"]["id"], rid)
        self.assertEqual(self.d.db_value("SELECT count(*) FROM rounds"), 2)
        self.assertEqual(self.stored("expiring-1"), 1)
        # ... and another request with it is not "reused" until that answer expires in turn.
        st4, js4 = self.d.call("POST", "/api/v1/tables/T1/rounds", whole_round(2), idem="expiring-1")
        self.assertEqual((st4, js4["error"]["code"]), (422, "idempotency_key_reused"), js4)
        self.d.advance_clock(RETENTION + 1)
        wait_until("the second answer of expiring-1 is deleted", lambda: self.stored("expiring-1") == 0)
        st5, js5 = self.d.call("POST", "/api/v1/tables/T1/rounds", whole_round(2), idem="expiring-1")
        self.assertEqual(st5, 201, js5)
        self.d.stop()


class Backlog(unittest.TestCase):
    """More expired answers than one batch (1000), as after an upgrade: all go in one pass of several
    transactions, logged once; answers within the default retention (24 h) stay."""

    def test_backlog_drained_recent_kept(self):
        d = pbtest.Daemon()
        self.addCleanup(d.close)
        d.start()
        d.stop()
        old, recent = 2500, 40
        now = time.time()
        stamp = lambda t: time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + ".%03dZ" % int((t % 1) * 1000)
        conn = d.db_connect(read_only=False)
        with conn:
            conn.executemany("INSERT INTO idempotency (actor, key, request_hash, status, response, created_at) "
                             "VALUES (?, ?, 'h', 201, '{}', ?)",
                             [(DEALER_NAME, "old-%d" % i, stamp(now - 86400 - 3600 - i)) for i in range(old)] +
                             [(DEALER_NAME, "recent-%d" % i, stamp(now - 86400 + 3600 - i)) for i in range(recent)])
        conn.close()
        d.start()
        wait_until("the backlog is deleted", lambda: d.db_value(
            "SELECT count(*) FROM idempotency WHERE key LIKE 'old-%'") == 0)
        wait_until("the pass is logged once", lambda: "idempotency: pruned %d stored answers older than 86400 s" % old
                   in d.run_log())
        self.assertEqual(d.run_log().count("idempotency: pruned"), 1, d.run_log())
        self.assertEqual(d.db_value("SELECT count(*) FROM idempotency WHERE key LIKE 'recent-%'"), recent)
        st, hdrs, raw = d.request("GET", "/metrics", token=None)
        self.assertIn("\npitboss_idempotency_pruned_total %d\n" % old, raw.decode())
        d.stop()


class ReloadedRetention(unittest.TestCase):
    """The default keeps answers for a day; SIGHUP with a shorter retention prunes them without a restart."""

    def test_sighup_applies_a_shorter_retention(self):
        d = pbtest.Daemon(clock=True)
        self.addCleanup(d.close)
        d.start()
        st, js = d.call("POST", "/api/v1/tables/T1/rounds", whole_round(4), idem="old-1")
        self.assertEqual(st, 201, js)
        d.advance_clock(23 * 3600)
        st, js = d.call("POST", "/api/v1/tables/T1/rounds", whole_round(3), idem="kept-1")
        self.assertEqual(st, 201, js)
        # Two hours on, a pass under the default prunes the answer of a day and an hour ago, and only that one.
        d.advance_clock(2 * 3600)
        wait_until("old-1 is pruned under the default retention",
                   lambda: d.db_value("SELECT count(*) FROM idempotency WHERE key = 'old-1'") == 0)
        self.assertEqual(d.db_value("SELECT count(*) FROM idempotency WHERE key = 'kept-1'"), 1)
        cfg = json.loads(json.dumps(d.config))
        cfg["idempotency"] = {"retention_seconds": 1}
        d.write_config(cfg)
        d.sighup()
        wait_until("kept-1 is pruned after the reload",
                   lambda: d.db_value("SELECT count(*) FROM idempotency WHERE key = 'kept-1'") == 0)
        self.assertIn("configuration reloaded", d.run_log())
        d.stop()


class Settings(unittest.TestCase):
    """pitbossd -t on the idempotency setting."""

    def setUp(self):
        self.d = pbtest.Daemon()
        self.addCleanup(self.d.close)

    def check(self, idempotency):
        cfg = json.loads(json.dumps(self.d.config))
        cfg["idempotency"] = idempotency
        path = os.path.join(self.d.tmpdir, "check.json")
        with open(path, "w") as f:
            json.dump(cfg, f)
        p = subprocess.run([PITBOSSD, "-t", "-c", path], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=30)
        text = p.stdout.decode() + p.stderr.decode()
        self.assertIsNone(pbtest.sanitizer_report(text), text)
        return p.returncode, text

    def test_good_settings(self):
        for v in ({}, {"retention_seconds": 1}, {"retention_seconds": 60}, {"retention_seconds": 86400},
                  {"retention_seconds": 366 * 86400}):
            with self.subTest(setting=v):
                rc, text = self.check(v)
                self.assertEqual(rc, 0, text)
                self.assertIn("configuration ok", text)

    def test_bad_settings_name_the_key(self):
        rng = "idempotency.retention_seconds: must be an integer from 1 to %d" % (366 * 86400)
        cases = [
            ({"retention_seconds": 0}, rng),
            ({"retention_seconds": -60}, rng),
            ({"retention_seconds": 1.5}, rng),
            ({"retention_seconds": "86400"}, rng),
            ({"retention_seconds": 366 * 86400 + 1}, rng),
            ({"retention_seconds": None}, rng),
            ({"retention": 60}, "idempotency.retention: unknown key; idempotency has retention_seconds"),
            (86400, 'idempotency: must be {"retention_seconds": SECONDS}'),
            ([], 'idempotency: must be {"retention_seconds": SECONDS}'),
        ]
        for setting, message in cases:
            with self.subTest(setting=setting):
                rc, text = self.check(setting)
                self.assertEqual(rc, 1, text)
                self.assertIn(message, text)


if __name__ == "__main__":
    pbtest.main()
