"""
Durability and operations: idempotent retries (also across restarts), the
record read back identically after a restart, kill -9 in the middle of a
burst of rounds, a round continued after a restart, the hash chain
recomputed independently, the append-only triggers, `pitbossd -t`, databases
pitbossd must refuse, the loopback rule for demo tokens, and SIGHUP reloads.
"""
import sys
import http.client
import json
import os
import random
import shutil
import sqlite3
import subprocess
import threading
import unittest

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
import pbtest  # noqa: E402
from pbtest import DEALER, PITBOSS_TOKEN, AUDITOR, PITBOSSD

DECK = [r + s for r in "23456789TJQKA" for s in "cdhs"]
T2_SECRET = "t2-only-dealer-secret"


def whole_round(rng, ante=1000, seats=(1, 2)):
    cards = rng.sample(DECK, 3 * len(seats) + 3)
    body = {"bets": {}, "hands": {}, "decisions": {}, "dealer": cards[-3:]}
    for i, s in enumerate(seats):
        body["bets"][str(s)] = {"ante": ante}
        body["hands"][str(s)] = cards[3 * i:3 * i + 3]
        body["decisions"][str(s)] = rng.choice(["play", "fold"])
    return body


def burst(d, interrupt, tables=("T1", "T2", "T3", "F1"), after=40, during=None, min_during=0):
    """Whole rounds from one thread per table until `after` are acknowledged (a failure when they are not within
    60 s), then interrupt() while the threads keep sending; returns (acknowledged answers, unexpected answers).  during(), if given, is
    called repeatedly while waiting, at least min_during times (a fast daemon acknowledges `after` rounds
    before a slow loop of during() has run)."""
    stop, interrupting = threading.Event(), threading.Event()
    acked, errors = [], []
    lock = threading.Lock()

    def worker(table, seed):
        rng = random.Random(seed)
        while not stop.is_set():
            body = whole_round(rng, 1000, seats=(1, 2, 3))
            try:
                st, js = d.call("POST", "/api/v1/tables/%s/rounds" % table, body, timeout=20)
            except (OSError, http.client.HTTPException):
                if not interrupting.is_set():
                    with lock:
                        errors.append((table, "connection failed while the daemon runs"))
                return      # the daemon is gone
            with lock:
                if st == 201:
                    acked.append(js)
                else:
                    errors.append((table, st, js))

    threads = [threading.Thread(target=worker, args=(t, i)) for i, t in enumerate(tables)]
    for t in threads:
        t.start()
    try:
        calls = [0]

        def enough():
            with lock:
                if len(acked) >= after and calls[0] >= min_during:
                    return True
            if during is not None:
                during()
                calls[0] += 1
            return False
        pbtest.wait_until(lambda: "%d rounds acknowledged, during() called %d times (%d acknowledged, %d calls, "
                          "errors %r)" % (after, min_during, len(acked), calls[0], errors[:3]), enough, timeout=60,
                          every=0.01)
        interrupting.set()
        interrupt()         # while the workers are still sending
    finally:
        stop.set()
        for t in threads:
            t.join(60)
    return acked, errors


class DaemonPerTest(unittest.TestCase):
    """A fresh daemon (and database) for each test."""

    daemon_kwargs = {}

    def setUp(self):
        self.d = pbtest.Daemon(**self.daemon_kwargs)
        self.addCleanup(self.d.close)
        self.d.start()

    def call(self, *a, **kw):
        return self.d.call(*a, **kw)

    def ok(self, method, path, body=None, status=200, **kw):
        st, js = self.d.call(method, path, body, **kw)
        self.assertEqual(st, status, "%s %s %r -> %d %s" % (method, path, body, st, json.dumps(js)))
        return js

    def all_rounds(self):
        ids = [r[0] for r in self.d.db_rows("SELECT id FROM rounds ORDER BY id")]
        return {i: self.ok("GET", "/api/v1/rounds/%d" % i, token=AUDITOR) for i in ids}

    def floor(self):
        out = {"tables": self.ok("GET", "/api/v1/tables", token=AUDITOR)}
        for t in out["tables"]["tables"]:
            out[t["id"]] = self.ok("GET", "/api/v1/tables/%s/rounds?limit=200" % t["id"], token=AUDITOR)
        return out


class Idempotency(DaemonPerTest):
    daemon_kwargs = {"extra_tokens": [pbtest.token("dealer-t2", "dealer", T2_SECRET, tables=["T2"])]}

    def same(self, method, path, body, key, status, token=DEALER):
        """Sends a request twice with one key: the same status and answer, and nothing recorded twice."""
        st1, js1 = self.call(method, path, body, idem=key, token=token)
        self.assertEqual(st1, status, js1)
        snap = pbtest.snapshot(self.d)
        st2, js2 = self.call(method, path, body, idem=key, token=token)
        self.assertEqual((st2, js2), (st1, js1))
        self.assertEqual(pbtest.snapshot(self.d), snap)
        return js1

    def test_retries_of_every_write(self):
        rng = random.Random(7)
        w = self.same("POST", "/api/v1/tables/T1/rounds", whole_round(rng), "whole-1", 201)
        self.assertEqual(w["round"]["state"], "settled")

        o = self.same("POST", "/api/v1/tables/T1/rounds", {}, "open-1", 201)
        rid = o["round"]["id"]
        r = "/api/v1/rounds/%d" % rid
        self.same("PUT", r + "/bets/1", {"ante": 1000, "pair_plus": 500}, "bet-1", 200)
        self.same("PUT", r + "/bets/2", {"ante": 700}, "bet-2", 200)
        self.same("DELETE", r + "/bets/2", None, "unbet-2", 200)
        closed = self.same("POST", r + "/close", {}, "close-1", 200)
        self.same("POST", r + "/deal", {"hands": {"1": ["As", "Ad", "4c"]}}, "deal-1", 200)
        decided = self.same("POST", r + "/decisions", {"seat": 1, "action": "play"}, "decide-1", 200)
        self.same("POST", r + "/reveal", {"dealer": ["Kc", "Qd", "2h"]}, "reveal-1", 200)
        settled = self.same("POST", r + "/settle", {}, "settle-1", 200)
        self.assertEqual(settled["round"]["state"], "settled")
        # a retry after the round moved on still gets the first answer, not a 409
        st, js = self.call("POST", r + "/close", {}, idem="close-1")
        self.assertEqual((st, js), (200, closed))
        st, js = self.call("POST", r + "/decisions", {"seat": 1, "action": "play"}, idem="decide-1")
        self.assertEqual((st, js), (200, decided))
        # ... and the retried open did not open a second round
        self.assertEqual(self.d.db_value("SELECT count(*) FROM rounds"), 2)
        self.assertEqual(self.d.db_value("SELECT count(*) FROM decisions WHERE round_id = ?", (rid,)), 1)

        self.same("POST", "/api/v1/tables/T2/close", {}, "tclose-1", 200, token=PITBOSS_TOKEN)
        self.same("POST", "/api/v1/tables/T2/open", {}, "topen-1", 200, token=PITBOSS_TOKEN)
        self.same("PUT", "/api/v1/tables/T2/limits", {"ante": {"min": 1000, "max": 5000}}, "limits-1", 200,
                  token=PITBOSS_TOKEN)
        v = self.same("POST", "/api/v1/tables/T3/rounds", {}, "open-t3", 201)
        self.same("POST", "/api/v1/rounds/%d/void" % v["round"]["id"], {"reason": "test"}, "void-1", 200,
                  token=PITBOSS_TOKEN)

        # a key belongs to its token: the same key from another token is another request
        st, js = self.call("POST", "/api/v1/tables/T2/rounds", {}, idem="open-1", token=T2_SECRET)
        self.assertEqual(st, 201, js)
        self.assertNotEqual(js["round"]["id"], rid)
        self.ok("POST", "/api/v1/rounds/%d/void" % js["round"]["id"], {"reason": "test"}, token=PITBOSS_TOKEN)

        # after a clean restart and after kill -9, the retries still get the first answers
        snap = pbtest.snapshot(self.d)
        for how in ("restart", "kill9"):
            if how == "restart":
                self.d.restart()
            else:
                self.d.kill9()
                self.d.start()
            st, js = self.call("POST", "/api/v1/tables/T1/rounds", whole_round(random.Random(7)), idem="whole-1")
            self.assertEqual((st, js), (201, w), how)
            st, js = self.call("POST", r + "/settle", {}, idem="settle-1")
            self.assertEqual((st, js), (200, settled), how)
            st, js = self.call("POST", "/api/v1/tables/T1/rounds", {}, idem="open-1")
            self.assertEqual((st, js), (201, o), how)
            self.assertEqual(pbtest.snapshot(self.d), snap, how)
        self.d.stop()

    def test_refused_request_is_not_remembered(self):
        # a refusal is not stored under its key: the corrected request with a new key goes through,
        # and the refused one retried is refused again (not answered from a store)
        rid = self.ok("POST", "/api/v1/tables/T1/rounds", {}, status=201)["round"]["id"]
        st, js = self.call("PUT", "/api/v1/rounds/%d/bets/1" % rid, {"ante": 1}, idem="k-low")
        self.assertEqual(st, 422)
        st2, js2 = self.call("PUT", "/api/v1/rounds/%d/bets/1" % rid, {"ante": 1}, idem="k-low")
        self.assertEqual((st2, js2), (st, js))
        self.assertEqual(self.d.db_value("SELECT count(*) FROM bets"), 0)
        self.d.stop()

    def test_concurrent_retries_record_once(self):
        # the same whole round sent from several threads at once with one key: recorded once
        body = whole_round(random.Random(11))
        results = []

        def send():
            results.append(self.call("POST", "/api/v1/tables/T1/rounds", body, idem="race-1"))

        threads = [threading.Thread(target=send) for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(len(results), 6)
        for st, js in results:
            self.assertEqual((st, js), results[0])
        self.assertEqual(results[0][0], 201)
        self.assertEqual(self.d.db_value("SELECT count(*) FROM rounds"), 1)
        self.d.stop()


class Restart(DaemonPerTest):

    def make_history(self):
        rng = random.Random(3)
        for table, ante in (("T1", 1000), ("T3", 500), ("F1", 200), ("T2", 1000), ("T1", 2500)):
            self.ok("POST", "/api/v1/tables/%s/rounds" % table, whole_round(rng, ante), status=201)
        self.ok("POST", "/api/v1/tables/T3/rounds",
                {"bets": {"1": {"pair_plus": 500}, "2": {"ante": 500}}, "hands": {"1": ["9d", "9s", "2c"], "2": ["Ah", "Kh", "Qh"]},
                 "dealer": ["2s", "2h", "7c"], "decisions": {"2": "play"}}, status=201)
        rid = self.ok("POST", "/api/v1/tables/F1/rounds", {}, status=201)["round"]["id"]
        self.ok("PUT", "/api/v1/rounds/%d/bets/3" % rid, {"ante": 400, "pair_plus": 200})
        self.ok("POST", "/api/v1/rounds/%d/void" % rid, {"reason": "misdeal: exposed card"}, token=PITBOSS_TOKEN)
        self.ok("PUT", "/api/v1/tables/T2/limits", {"ante": {"min": 2000, "max": 4000}}, token=PITBOSS_TOKEN)
        self.ok("POST", "/api/v1/tables/F1/close", token=PITBOSS_TOKEN)

    def open_round_in_progress(self):
        """A round on T1 dealt (dealer's cards not yet shown), one decision made."""
        rid = self.ok("POST", "/api/v1/tables/T1/rounds", {}, status=201)["round"]["id"]
        r = "/api/v1/rounds/%d" % rid
        self.ok("PUT", r + "/bets/1", {"ante": 1000, "pair_plus": 1000})
        self.ok("PUT", r + "/bets/4", {"ante": 2000})
        self.ok("POST", r + "/close")
        self.ok("POST", r + "/deal", {"hands": {"1": ["Jh", "Jd", "3c"], "4": ["Kc", "8s", "2d"]}})
        self.ok("POST", r + "/decisions", {"seat": 4, "action": "fold"})
        return rid

    def finish_round(self, rid):
        r = "/api/v1/rounds/%d" % rid
        self.ok("POST", r + "/decisions", {"seat": 1, "action": "play"})
        self.ok("POST", r + "/reveal", {"dealer": ["Qs", "Td", "5c"]})
        got = self.ok("POST", r + "/settle")["round"]
        self.assertEqual(pbtest.payout_core(got["payouts"]), pbtest.lines(
            (1, "ante", 1000, "win", 1000),        # pair of jacks beats Q-T-5
            (1, "play", 1000, "win", 1000),
            (1, "pair_plus", 1000, "win", 1000),
            (4, "ante", 2000, "forfeit", -2000),
        ))

    def test_restart_reads_back_everything_identically(self):
        self.make_history()
        rid = self.open_round_in_progress()
        rounds, floor = self.all_rounds(), self.floor()
        self.assertEqual(len(rounds), 8)
        conn = self.d.db_connect()
        head = conn.execute("SELECT table_id, max(table_seq), hash FROM events GROUP BY table_id").fetchall()
        conn.close()
        self.d.restart()
        self.assertEqual(self.all_rounds(), rounds)
        self.assertEqual(self.floor(), floor)
        # the API's limits and closed table survive the restart
        tables = {t["id"]: t for t in floor["tables"]["tables"]}
        self.assertEqual(tables["T2"]["limits"]["ante"], {"min": 2000, "max": 4000})
        self.assertEqual(tables["F1"]["status"], "closed")
        self.assertEqual(tables["T1"]["current_round"], rid)
        # a restart with the same config adds nothing to the chain
        conn = self.d.db_connect()
        self.assertEqual(conn.execute("SELECT table_id, max(table_seq), hash FROM events GROUP BY table_id").fetchall(), head)
        conn.close()
        # the round left open continues
        self.finish_round(rid)
        self.d.stop()

    def test_round_left_open_survives_kill9(self):
        rid = self.open_round_in_progress()
        before = self.ok("GET", "/api/v1/rounds/%d" % rid, token=AUDITOR)
        self.d.kill9()
        self.d.start()
        self.assertEqual(self.ok("GET", "/api/v1/rounds/%d" % rid, token=AUDITOR), before)
        st, js = self.call("POST", "/api/v1/tables/T1/rounds", {})
        self.assertEqual(st, 409, js)
        self.assertEqual(js["error"]["code"], "round_in_progress")
        self.finish_round(rid)
        self.d.stop()

    def test_kill9_during_a_burst(self):
        acked, errors = burst(self.d, self.d.kill9)
        self.assertEqual(errors, [])
        self.assertGreater(len(acked), 0)

        conn = self.d.db_connect()
        try:
            self.assertEqual(conn.execute("PRAGMA integrity_check").fetchall(), [("ok",)])
        finally:
            conn.close()
        self.d.start()
        conn = self.d.db_connect()
        try:
            self.assertEqual(conn.execute("PRAGMA integrity_check").fetchall(), [("ok",)])
            self.assertEqual(conn.execute("PRAGMA foreign_key_check").fetchall(), [])
            self.assertEqual(pbtest.chain_problems(conn), [])
            self.assertEqual(conn.execute("SELECT count(*) FROM rounds WHERE state <> 'settled'").fetchone()[0], 0)
        finally:
            conn.close()
        for js in acked:
            rid = js["round"]["id"]
            got = self.ok("GET", "/api/v1/rounds/%d" % rid, token=AUDITOR)
            self.assertEqual(got["round"]["state"], "settled")
            self.assertEqual(got, js, "round %d is not what was acknowledged" % rid)
        # and the daemon takes rounds again on every table
        for table in ("T1", "T2", "T3", "F1"):
            self.ok("POST", "/api/v1/tables/%s/rounds" % table, whole_round(random.Random(table)), status=201)
        self.d.stop()

    def test_sigterm_during_a_burst(self):
        # SIGTERM lets the requests in flight finish and stops cleanly (exit 0, nothing for the sanitizers)
        acked, errors = burst(self.d, self.d.stop)
        # While it stops, pitbossd answers new requests 503 shutting_down and records nothing for them.
        self.assertEqual([e for e in errors if not (e[1] == 503 and e[2]["error"]["code"] == "shutting_down")], [])
        self.assertGreater(len(acked), 0)
        self.d.start()
        conn = self.d.db_connect()
        try:
            self.assertEqual(conn.execute("PRAGMA integrity_check").fetchall(), [("ok",)])
            self.assertEqual(pbtest.chain_problems(conn), [])
        finally:
            conn.close()
        for js in acked:
            self.assertEqual(self.ok("GET", "/api/v1/rounds/%d" % js["round"]["id"], token=AUDITOR), js)
        # a request the daemon took in was finished: answered; every recorded round was acknowledged
        recorded = sorted(r[0] for r in self.d.db_rows("SELECT id FROM rounds"))
        answered = sorted(js["round"]["id"] for js in acked)
        self.assertEqual(recorded, answered,
                         "rounds recorded whose request got no answer at SIGTERM: %s" % sorted(set(recorded) - set(answered)))
        self.d.stop()


class Chain(DaemonPerTest):

    def test_chain_recomputed_from_the_events(self):
        rng = random.Random(5)
        for table in ("T1", "T2", "T3", "F1", "T1"):
            self.ok("POST", "/api/v1/tables/%s/rounds" % table, whole_round(rng, 1000), status=201)
        rid = self.ok("POST", "/api/v1/tables/T1/rounds", {}, status=201)["round"]["id"]
        self.ok("PUT", "/api/v1/rounds/%d/bets/1" % rid, {"ante": 1000})
        self.ok("POST", "/api/v1/rounds/%d/void" % rid, {"reason": "chain test \u00e9\u2660"}, token=PITBOSS_TOKEN)
        self.ok("POST", "/api/v1/tables/T2/close", token=PITBOSS_TOKEN)
        self.ok("PUT", "/api/v1/tables/T3/limits", {"ante": {"min": 500, "max": 1000}}, token=PITBOSS_TOKEN)
        conn = self.d.db_connect()
        try:
            self.assertEqual(pbtest.chain_problems(conn), [])
            n = conn.execute("SELECT count(*) FROM events").fetchone()[0]
            self.assertGreater(n, 20)
            # the first event of each table chains to the genesis hash
            for (prev,) in conn.execute("SELECT prev_hash FROM events WHERE table_seq = 1"):
                self.assertEqual(prev, "0" * 64)
            # table events carry no round id; round events do
            self.assertGreater(conn.execute("SELECT count(*) FROM events WHERE round_id IS NULL").fetchone()[0], 0)
            rows = conn.execute("SELECT table_seq, type, hash FROM events WHERE round_id = ? ORDER BY table_seq", (rid,)).fetchall()
        finally:
            conn.close()
        # the events of a round as the API shows them are those of the record
        ev = self.ok("GET", "/api/v1/rounds/%d" % rid, token=AUDITOR)["round"]["events"]
        self.assertEqual([(e["table_seq"], e["type"], e["hash"]) for e in ev], [tuple(r) for r in rows])
        # the recomputation does notice a change (the checker itself is sound)
        tampered = sqlite3.connect(":memory:")
        tampered.execute("CREATE TABLE events (table_id, table_seq, round_id, type, at, actor, body, prev_hash, hash)")
        src = self.d.db_rows("SELECT table_id, table_seq, round_id, type, at, actor, body, prev_hash, hash FROM events")
        tampered.executemany("INSERT INTO events VALUES (?,?,?,?,?,?,?,?,?)", src)
        self.assertEqual(pbtest.chain_problems(tampered), [])
        tampered.execute("UPDATE events SET body = replace(body, '1000', '1001') WHERE type = 'bet_placed' AND round_id = ?", (rid,))
        self.assertNotEqual(pbtest.chain_problems(tampered), [])
        tampered.close()
        self.d.stop()

    def test_append_only_triggers(self):
        rng = random.Random(9)
        settled = self.ok("POST", "/api/v1/tables/T1/rounds",
                          {"bets": {"1": {"ante": 1000, "pair_plus": 500}}, "hands": {"1": ["As", "Ad", "3c"]},
                           "dealer": ["Kc", "Qd", "2h"], "decisions": {"1": "play"}}, status=201)["round"]["id"]
        self.ok("POST", "/api/v1/tables/T2/rounds", whole_round(rng), status=201)
        self.d.stop()
        conn = self.d.db_connect(read_only=False)
        conn.isolation_level = None
        before = {t: conn.execute("SELECT count(*) FROM %s" % t).fetchone()[0]
                  for t in ("events", "payouts", "hands", "decisions", "rounds", "bets")}
        dump = {t: conn.execute("SELECT * FROM %s ORDER BY 1, 2" % t).fetchall()
                for t in ("events", "payouts", "hands", "decisions", "rounds", "bets")}
        attempts = [
            "UPDATE events SET body = '{}' WHERE id = 1",
            "UPDATE events SET hash = prev_hash",
            "DELETE FROM events WHERE id = (SELECT max(id) FROM events)",
            "DELETE FROM events",
            "UPDATE payouts SET net = net + 1",
            "DELETE FROM payouts WHERE round_id = %d" % settled,
            "UPDATE hands SET cards = 'AsAhAc' WHERE round_id = %d AND seat = 1" % settled,
            "DELETE FROM hands",
            "UPDATE decisions SET action = 'fold'",
            "DELETE FROM decisions",
            "UPDATE rounds SET players_net = 0 WHERE id = %d" % settled,
            "UPDATE rounds SET state = 'void' WHERE id = %d" % settled,
            "DELETE FROM rounds WHERE id = %d" % settled,
            "UPDATE bets SET ante = 1 WHERE round_id = %d" % settled,
            "DELETE FROM bets WHERE round_id = %d" % settled,
        ]
        for sql in attempts:
            with self.subTest(sql=sql):
                with self.assertRaises(sqlite3.DatabaseError) as cm:
                    conn.execute(sql)
                msg = str(cm.exception)
                self.assertTrue("append-only" in msg or "final" in msg or "no more bets" in msg, msg)
        for t in before:
            self.assertEqual(conn.execute("SELECT count(*) FROM %s" % t).fetchone()[0], before[t], t)
            self.assertEqual(conn.execute("SELECT * FROM %s ORDER BY 1, 2" % t).fetchall(), dump[t], t)
        self.assertEqual(pbtest.chain_problems(conn), [])
        conn.close()
        # the daemon still opens the database and serves the round
        self.d.start()
        self.assertEqual(self.ok("GET", "/api/v1/rounds/%d" % settled, token=AUDITOR)["round"]["state"], "settled")
        self.d.stop()


class Configs(unittest.TestCase):
    """pitbossd -t, and the databases and listen addresses pitbossd refuses."""

    def setUp(self):
        self.d = pbtest.Daemon()
        self.addCleanup(self.d.close)

    def check(self, cfg):
        path = os.path.join(self.d.tmpdir, "check.json")
        with open(path, "w") as f:
            f.write(cfg if isinstance(cfg, str) else json.dumps(cfg))
        p = subprocess.run([PITBOSSD, "-t", "-c", path], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=30)
        text = p.stdout.decode() + p.stderr.decode()
        self.assertIsNone(pbtest.sanitizer_report(text), text)
        return p.returncode, text, path

    def test_check_good_configs(self):
        rc, text, path = self.check(self.d.config)
        self.assertEqual(rc, 0, text)
        self.assertIn("configuration ok", text)
        self.assertFalse(os.path.exists(self.d.db_path), "-t created the database")
        # -t also checks the database's directory (the example's ../var/ exists only once the demo made it)
        p = subprocess.run([PITBOSSD, "-t", "-c", pbtest.EXAMPLE_CONFIG, "--database",
                            os.path.join(self.d.tmpdir, "example.db")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=30)
        self.assertEqual(p.returncode, 0, p.stderr.decode())

    def test_check_bad_configs_name_the_place(self):
        def mutate(fn):
            cfg = json.loads(json.dumps(self.d.config))
            fn(cfg)
            return cfg

        cases = [
            (mutate(lambda c: c["tables"][0]["limits"]["ante"].update({"min": -5})), "tables[0].limits.ante.min"),
            (mutate(lambda c: c["tables"][0]["limits"]["ante"].update({"min": 1.5})), "tables[0].limits.ante.min"),
            (mutate(lambda c: c["tables"][1]["limits"]["ante"].update({"min": 9000, "max": 100})), "tables[1].limits.ante"),
            (mutate(lambda c: c["tables"][2].update({"seats": 9})), "tables[2].seats"),
            (mutate(lambda c: c["tables"][2].update({"seats": 0})), "tables[2].seats"),
            (mutate(lambda c: c["tables"][0].update({"game": "baccarat"})), "tables[0].game"),
            (mutate(lambda c: c["tables"][3].update({"colour": "green"})), "tables[3].colour"),
            (mutate(lambda c: c["tables"][1].update({"id": "T1"})), "tables[1].id"),
            (mutate(lambda c: c["tables"][0].update({"banking": "casino"})), "tables[0].banking"),
            (mutate(lambda c: c["tables"][0]["limits"].pop("ante")), "tables[0].limits.ante"),
            (mutate(lambda c: c["tokens"][0].update({"sha256": "xyz"})), "tokens[0].sha256"),
            (mutate(lambda c: c["tokens"][1].update({"role": "boss"})), "tokens[1].role"),
            (mutate(lambda c: c["tokens"][2].update({"tables": ["NOPE"]})), "tokens[2].tables"),
            (mutate(lambda c: c["games"].update({"standard": "/nonexistent/standard.json"})), "games.standard"),
            (mutate(lambda c: c["games"].update({"florida": {"dealer_qualifier": "Z"}})), "games.florida"),
            (mutate(lambda c: c.update({"listen": "nonsense"})), "listen"),
            (mutate(lambda c: c.update({"synchronous": "OFF"})), "synchronous"),
            (mutate(lambda c: c.update({"colour": "green"})), "colour"),
            ('{"listen": "127.0.0.1:1", "games": {', "line"),
        ]
        for cfg, place in cases:
            with self.subTest(place=place):
                rc, text, path = self.check(cfg)
                self.assertEqual(rc, 1, text)
                self.assertIn(place, text)
                self.assertIn(path, text)

    def test_newer_schema_refused(self):
        self.d.start()
        self.d.stop()
        copy = os.path.join(self.d.tmpdir, "newer.db")
        shutil.copy(self.d.db_path, copy)
        conn = sqlite3.connect(copy)
        conn.execute("PRAGMA user_version = 999")
        conn.commit()
        conn.close()
        rc, text = self.d.run_expect_failure(["--database", copy])
        self.assertNotEqual(rc, 0, text)
        self.assertIn("999", text)
        self.assertIn("newer", text)
        self.assertIn(copy, text)
        conn = sqlite3.connect(copy)
        self.assertEqual(conn.execute("PRAGMA user_version").fetchone()[0], 999)     # left as it was
        conn.close()

    def test_foreign_databases_refused(self):
        other = os.path.join(self.d.tmpdir, "other.db")
        conn = sqlite3.connect(other)
        conn.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)")
        conn.execute("INSERT INTO customers (name) VALUES ('x')")
        conn.commit()
        conn.close()
        rc, text = self.d.run_expect_failure(["--database", other])
        self.assertNotEqual(rc, 0, text)
        self.assertIn("not a pitboss database", text)
        self.assertIn(other, text)
        conn = sqlite3.connect(other)
        self.assertEqual([r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")], ["customers"])
        conn.close()

        app = os.path.join(self.d.tmpdir, "app.db")
        conn = sqlite3.connect(app)
        conn.execute("PRAGMA application_id = 1234")
        conn.commit()
        conn.close()
        rc, text = self.d.run_expect_failure(["--database", app])
        self.assertNotEqual(rc, 0, text)
        self.assertIn("another application", text)

    def test_non_sqlite_file_refused(self):
        junk = os.path.join(self.d.tmpdir, "junk.db")
        with open(junk, "wb") as f:
            f.write(b"this is not an SQLite database, just some text\n" * 100)
        rc, text = self.d.run_expect_failure(["--database", junk])
        self.assertNotEqual(rc, 0, text)
        self.assertIn("not a database", text)
        self.assertIn(junk, text)

    def test_demo_tokens_only_on_loopback(self):
        port = pbtest.free_port()
        for listen in ("0.0.0.0:%d" % port, "[::]:%d" % port, "192.0.2.1:%d" % port):
            with self.subTest(listen=listen):
                rc, text = self.d.run_expect_failure(["--listen", listen])
                self.assertEqual(rc, 1, text)
                self.assertIn("refusing to listen", text)
        cfg = json.loads(json.dumps(self.d.config))
        cfg["listen"] = "0.0.0.0:%d" % port
        self.d.write_config(cfg)
        rc, text = self.d.run_expect_failure()
        self.assertEqual(rc, 1, text)
        self.assertIn("refusing to listen", text)
        self.assertIn("demo", text)
        # -t says the same
        p = subprocess.run([PITBOSSD, "-t", "-c", self.d.config_path], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=30)
        self.assertEqual(p.returncode, 1)
        self.assertIn("refusing to listen", p.stderr.decode())


class Reload(DaemonPerTest):

    def wait_for(self, fn, what, timeout=30):
        pbtest.wait_until(lambda: "%s\n%s" % (what, self.d.run_log()), fn, timeout=timeout)

    def status_with(self, secret):
        """The status of GET /tables with secret, then a good request after a 401.  (A good request does not clear
        127.0.0.1's failure count: five 401s within lockout_seconds lock the address out.)"""
        st = self.call("GET", "/api/v1/tables", token=secret)[0]
        if st == 401:
            self.ok("GET", "/api/v1/tables", token=PITBOSS_TOKEN)
        return st

    def test_sighup_under_load(self):
        # reloads while rounds are being recorded: every request answered, nothing for the sanitizers
        cfg = json.loads(json.dumps(self.d.config))
        count = [0]

        def hup():
            count[0] += 1
            if count[0] % 5 == 0:
                cfg["tables"][1]["limits"]["ante"]["max"] = 100000 + count[0]     # T2 changes each time
                self.d.write_config(cfg)
                self.d.sighup()

        acked, errors = burst(self.d, lambda: None, after=60, during=hup, min_during=10)
        self.assertEqual(errors, [])
        self.assertGreater(count[0], 5)
        self.wait_for(lambda: "configuration reloaded" in self.d.run_log(), "a reload")
        conn = self.d.db_connect()
        try:
            self.assertEqual(pbtest.chain_problems(conn), [])
        finally:
            conn.close()
        self.d.stop()

    def test_sighup_reload(self):
        self.ok("PUT", "/api/v1/tables/T2/limits", {"ante": {"min": 2000, "max": 3000}}, token=PITBOSS_TOKEN)
        rid = self.ok("POST", "/api/v1/tables/T1/rounds", {}, status=201)["round"]["id"]
        cfg = json.loads(json.dumps(self.d.config))
        cfg["tokens"].append(pbtest.token("late-dealer", "dealer", "late-secret", tables=["T1"]))
        cfg["tokens"] = [t for t in cfg["tokens"] if t["name"] != "demo-auditor"]
        cfg["tables"][0]["limits"]["ante"] = {"min": 1000, "max": 3000}
        self.assertEqual(self.status_with("late-secret"), 401)
        self.d.write_config(cfg)
        self.d.sighup()
        # Waited for in the log (written once the new configuration is in use), not by trying the token: each
        # try before the reload would be a failure of 127.0.0.1, and five lock it out (429 for the removed one).
        self.wait_for(lambda: "configuration reloaded" in self.d.run_log(), "the reload")
        self.assertEqual(self.status_with("late-secret"), 200)
        # the removed token no longer works; the others still do
        self.assertEqual(self.status_with(AUDITOR), 401)
        self.ok("GET", "/api/v1/tables", token=PITBOSS_TOKEN)
        # the new token's scope applies
        self.assertEqual([t["id"] for t in self.ok("GET", "/api/v1/tables", token="late-secret")["tables"]], ["T1"])
        st, js = self.call("POST", "/api/v1/tables/T2/rounds", {}, token="late-secret")
        self.assertEqual(st, 403, js)
        # changed limits: shown for the table, used from the next round; the round in progress keeps its own
        t1 = self.ok("GET", "/api/v1/tables/T1", token=PITBOSS_TOKEN)["table"]
        self.assertEqual(t1["limits"]["ante"], {"min": 1000, "max": 3000})
        # T2's entry did not change: the limits a pit boss set through the API stay
        t2 = self.ok("GET", "/api/v1/tables/T2", token=PITBOSS_TOKEN)["table"]
        self.assertEqual(t2["limits"]["ante"], {"min": 2000, "max": 3000})
        self.ok("PUT", "/api/v1/rounds/%d/bets/1" % rid, {"ante": 500}, token="late-secret")
        self.ok("POST", "/api/v1/rounds/%d/void" % rid, {"reason": "reload test"}, token=PITBOSS_TOKEN)
        rid = self.ok("POST", "/api/v1/tables/T1/rounds", {}, status=201, token="late-secret")["round"]["id"]
        st, js = self.call("PUT", "/api/v1/rounds/%d/bets/1" % rid, {"ante": 500}, token="late-secret")
        self.assertEqual((st, js["error"]["code"]), (422, "below_minimum"))
        self.ok("PUT", "/api/v1/rounds/%d/bets/1" % rid, {"ante": 2000}, token="late-secret")
        self.assertIn("configuration reloaded", self.d.run_log())

        # an invalid config on reload: refused, the running one stays
        bad = json.loads(json.dumps(cfg))
        bad["tables"][0]["seats"] = 99
        bad["tokens"].append(pbtest.token("bad-dealer", "dealer", "bad-secret"))
        self.d.write_config(bad)
        self.d.sighup()
        self.wait_for(lambda: "reload refused" in self.d.run_log(), "the refused reload")
        self.assertIn("tables[0].seats", self.d.run_log())
        self.assertTrue(self.d.running)
        self.assertEqual(self.status_with("bad-secret"), 401)
        self.ok("GET", "/api/v1/tables", token="late-secret")
        self.assertEqual(self.ok("GET", "/api/v1/tables/T1", token=PITBOSS_TOKEN)["table"]["limits"]["ante"],
                         {"min": 1000, "max": 3000})
        self.assertEqual(self.ok("GET", "/api/v1/tables/T1", token=PITBOSS_TOKEN)["table"]["seats"], 6)
        # an unreadable file too
        self.d.write_config("{ this is not json")
        self.d.sighup()
        self.wait_for(lambda: self.d.run_log().count("reload refused") >= 2, "the second refused reload")
        self.ok("POST", "/api/v1/rounds/%d/close" % rid, token="late-secret")
        self.ok("POST", "/api/v1/rounds/%d/void" % rid, {"reason": "reload test"}, token=PITBOSS_TOKEN)
        self.assertEqual(self.ok("GET", "/api/v1/health", token=None), {"status": "ok"})
        self.d.stop(allow_errors=True)


if __name__ == "__main__":
    pbtest.main()
