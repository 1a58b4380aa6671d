"""
Tamper evidence against the real pitbossd and `pitboss verify` / `pitboss replay`
(docs/audit.md).

A record of rounds of every variant is dealt once (two daemon runs, so that each
table has two signed checkpoints: one at each clean stop).  Each test then takes
a copy of that database, alters it as an attacker holding the file would (the
daemon stopped, the append-only triggers dropped, rows changed with sqlite3),
and asserts that the change is caught, precisely:

  (a) `pitboss verify --database DB` exits 1 and a PROBLEM line names the
      table, the round or event, and what is wrong;
  (b) GET /api/v1/integrity, after a start on the altered file, says ok false
      with the same problem;
  (c) GET /api/v1/rounds/{id}/verify, for changes to a round;
  (d) for changes to the chain, the start-up check: the table is put on an
      integrity hold (writes 409 integrity_hold, reads still served, a
      significant event integrity_failure), which a pit boss lifts with
      POST /api/v1/tables/{t}/acknowledge {"note": ...}.

Untouched records always verify, and `pitboss replay` reconstructs each variant.
"""
import sys
import hashlib
import json
import os
import re
import secrets
import shutil
import sqlite3
import subprocess
import unittest

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
import pbtest  # noqa: E402
from pbtest import DEALER, PITBOSS_TOKEN, AUDITOR  # noqa: E402

# ---- the record every test starts from ----

T1_WHOLE = {  # API.md's example
    "bets": {"1": {"ante": 2500, "pair_plus": 500}, "3": {"ante": 1000, "six_card": 500}},
    "hands": {"1": ["As", "Ks", "Qs"], "3": ["2c", "3d", "4h"]},
    "dealer": ["Qd", "7c", "2h"],
    "decisions": {"1": "play", "3": "fold"}}
T3_WHOLE = {  # Tri-Card: Pair Plus alone on seat 1
    "bets": {"1": {"pair_plus": 1000}, "4": {"ante": 1000}},
    "hands": {"1": ["9d", "9s", "2c"], "4": ["7h", "7d", "7s"]},
    "dealer": ["2s", "2h", "7c"],
    "decisions": {"4": "play"}}
F1_WHOLE = {  # Florida: Pair Plus must beat the dealer; an exact tie pushes
    "bets": {"1": {"ante": 1000, "pair_plus": 500}, "2": {"pair_plus": 500}},
    "hands": {"1": ["8c", "8h", "2d"], "2": ["Qd", "9d", "4s"]},
    "dealer": ["Qs", "9h", "4c"],
    "decisions": {"1": "play"}}
P1_WHOLE = {  # player-banked, the bank runs out part way, collections posted
    "banker": {"seat": 4, "bank": 10000},
    "bets": {"1": {"ante": 5000, "pair_plus": 5000}, "2": {"ante": 3000}, "5": {"ante": 5000, "pair_plus": 1000},
             "6": {"ante": 2000}},
    "hands": {"1": ["As", "Ac", "9d"], "2": ["Ks", "Kc", "4d"], "5": ["Jc", "Td", "4c"], "6": ["8h", "8d", "3s"]},
    "dealer": ["Qd", "7c", "2h"],
    "decisions": {"1": "play", "2": "play", "5": "play", "6": "play"}}
P1_WHOLE_2 = {
    "banker": {"seat": 4, "bank": 20000},
    "bets": {"5": {"ante": 1000}, "1": {"ante": 2000, "pair_plus": 500}},
    "hands": {"5": ["Ah", "Kd", "3s"], "1": ["6c", "6d", "Ts"]},
    "dealer": ["Jd", "9c", "5h"],
    "decisions": {"5": "play", "1": "play"}}
T1_WHOLE_B1 = {
    "bets": {"1": {"ante": 1000}},
    "hands": {"1": ["Ah", "Kh", "3c"]},
    "dealer": ["5c", "5d", "9s"],
    "decisions": {"1": "play"}}
T1_WHOLE_B2 = {
    "bets": {"2": {"ante": 3000, "pair_plus": 1000}, "6": {"ante": 500}},
    "hands": {"2": ["Th", "Jh", "Qh"], "6": ["2d", "5s", "9h"]},
    "dealer": ["Ad", "8c", "6s"],
    "decisions": {"2": "play", "6": "fold"}}

G = {}      # the golden record: "daemon", "db", "key", "rounds", "public_key", ...

# The append-only triggers of the schema, by table.
TRIGGERS = {
    "events": ("events_no_update", "events_no_delete"),
    "hands": ("hands_no_update", "hands_no_delete"),
    "payouts": ("payouts_no_update", "payouts_no_delete"),
    "decisions": ("decisions_no_update", "decisions_no_delete"),
    "bets": ("bets_frozen_update", "bets_frozen_delete"),
    "rounds": ("rounds_final_no_update", "rounds_no_delete"),
    "collections": ("collections_no_update", "collections_no_delete"),
    "banker_turns": ("banker_turns_no_update", "banker_turns_no_delete"),
    "checkpoints": ("checkpoints_no_update", "checkpoints_no_delete"),
    "significant_events": ("significant_events_no_update", "significant_events_no_delete"),
}


def _ok(d, method, path, body=None, status=200, token=DEALER):
    st, js = d.call(method, path, body, token=token)
    if st != status:
        raise AssertionError("%s %s -> %d %s (wanted %d)" % (method, path, st, json.dumps(js), status))
    return js


def build_golden():
    """Deals the record: phase A (T1, T3, F1, P1, two voids at T2), clean stop, phase B (more at T1 and P1, a
    round left open at T1), clean stop.  Each stop signs a checkpoint of every chain that moved."""
    d = pbtest.Daemon()
    G["daemon"] = d
    rounds = {}
    d.start()
    rounds["t1_whole"] = _ok(d, "POST", "/api/v1/tables/T1/rounds", T1_WHOLE, 201)["round"]["id"]
    # T1 step by step, the dealer's cards at the reveal
    rid = _ok(d, "POST", "/api/v1/tables/T1/rounds", {}, 201)["round"]["id"]
    _ok(d, "PUT", "/api/v1/rounds/%d/bets/2" % rid, {"ante": 1000, "pair_plus": 500})
    _ok(d, "PUT", "/api/v1/rounds/%d/bets/5" % rid, {"ante": 2000, "six_card": 500})
    _ok(d, "POST", "/api/v1/rounds/%d/close" % rid, {})
    _ok(d, "POST", "/api/v1/rounds/%d/deal" % rid, {"hands": {"2": ["Jh", "Jd", "4c"], "5": ["9s", "8s", "7s"]}})
    _ok(d, "POST", "/api/v1/rounds/%d/decisions" % rid, {"seat": 2, "action": "play"})
    _ok(d, "POST", "/api/v1/rounds/%d/decisions" % rid, {"seat": 5, "action": "play"})
    _ok(d, "POST", "/api/v1/rounds/%d/reveal" % rid, {"dealer": ["Kc", "5d", "3h"]})
    _ok(d, "POST", "/api/v1/rounds/%d/settle" % rid, {})
    rounds["t1_steps"] = rid
    rounds["t3_pp_alone"] = _ok(d, "POST", "/api/v1/tables/T3/rounds", T3_WHOLE, 201)["round"]["id"]
    rounds["f1"] = _ok(d, "POST", "/api/v1/tables/F1/rounds", F1_WHOLE, 201)["round"]["id"]
    rounds["p1"] = _ok(d, "POST", "/api/v1/tables/P1/rounds", P1_WHOLE, 201)["round"]["id"]
    # T2: a void after the deal (pit boss) and a void in betting (dealer)
    rid = _ok(d, "POST", "/api/v1/tables/T2/rounds", {}, 201)["round"]["id"]
    _ok(d, "PUT", "/api/v1/rounds/%d/bets/1" % rid, {"ante": 2000, "pair_plus": 1000})
    _ok(d, "POST", "/api/v1/rounds/%d/close" % rid, {})
    _ok(d, "POST", "/api/v1/rounds/%d/deal" % rid, {"hands": {"1": ["As", "Ad", "Kc"]}, "dealer": ["Qc", "Jd", "9h"]})
    _ok(d, "POST", "/api/v1/rounds/%d/void" % rid, {"reason": "misdeal: exposed card"}, token=PITBOSS_TOKEN)
    rounds["t2_void_dealt"] = rid
    rid = _ok(d, "POST", "/api/v1/tables/T2/rounds", {}, 201)["round"]["id"]
    _ok(d, "PUT", "/api/v1/rounds/%d/bets/3" % rid, {"ante": 1000})
    _ok(d, "POST", "/api/v1/rounds/%d/void" % rid, {"reason": "dealer change"})
    rounds["t2_void_betting"] = rid
    d.stop()
    G["t1_head_a"] = d.db_value("SELECT max(table_seq) FROM events WHERE table_id = 'T1'")
    d.start()
    rounds["t1_b1"] = _ok(d, "POST", "/api/v1/tables/T1/rounds", T1_WHOLE_B1, 201)["round"]["id"]
    rounds["p1_b"] = _ok(d, "POST", "/api/v1/tables/P1/rounds", P1_WHOLE_2, 201)["round"]["id"]
    rounds["t1_b2"] = _ok(d, "POST", "/api/v1/tables/T1/rounds", T1_WHOLE_B2, 201)["round"]["id"]
    rid = _ok(d, "POST", "/api/v1/tables/T1/rounds", {}, 201)["round"]["id"]
    _ok(d, "PUT", "/api/v1/rounds/%d/bets/2" % rid, {"ante": 500})
    rounds["t1_open"] = rid
    G["public_key"] = _ok(d, "GET", "/api/v1/checkpoints", token=AUDITOR)["public_key"]
    G["rounds_json"] = {k: _ok(d, "GET", "/api/v1/rounds/%d" % v, token=AUDITOR)["round"] for k, v in rounds.items()}
    d.stop()
    G["rounds"] = rounds
    G["t1_head"] = d.db_value("SELECT max(table_seq) FROM events WHERE table_id = 'T1'")
    G["db"] = d.db_path
    G["key"] = d.db_path + ".signing-key"
    if not os.path.exists(G["key"]):
        raise AssertionError("no signing key beside the database: %s" % os.listdir(d.tmpdir))


def setUpModule():
    try:
        build_golden()
    except BaseException:
        if "daemon" in G:
            G["daemon"].close()
        raise


def tearDownModule():
    if "daemon" in G:
        G["daemon"].close()


# ---- helpers ----

def run_cli(*args):
    """Runs `pitboss ARGS`; returns (exit code, stdout, stderr).  Sanitizer reports fail."""
    env = dict(os.environ)
    env.setdefault("ASAN_OPTIONS", "abort_on_error=0:detect_leaks=1")
    env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1")
    p = subprocess.run([pbtest.PITBOSS] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120,
                       env=env)
    out, err = p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")
    rep = pbtest.sanitizer_report(out + err)
    if rep:
        raise AssertionError("sanitizer report from pitboss %s: %s\n%s" % (" ".join(args), rep, err))
    return p.returncode, out, err


def sha(prev, canon):
    return hashlib.sha256(prev.encode() + canon).hexdigest()


def event_hash(prev, row):
    """row: (table_id, table_seq, round_id, type, at, actor, body)."""
    return sha(prev, pbtest.event_canonical(*row))


def rehash_chain(conn, table, from_seq):
    """Rewrites the chain consistently from event from_seq to the head: each hash recomputed, each prev_hash the
    hash before it (as an attacker without the signing key would)."""
    rows = conn.execute("SELECT id, table_id, table_seq, round_id, type, at, actor, body, prev_hash FROM events "
                        "WHERE table_id = ? AND table_seq >= ? ORDER BY table_seq", (table, from_seq)).fetchall()
    prev = rows[0][8]
    for r in rows:
        h = event_hash(prev, r[1:8])
        conn.execute("UPDATE events SET prev_hash = ?, hash = ? WHERE id = ?", (prev, h, r[0]))
        prev = h


def event_row(conn, table, seq):
    return conn.execute("SELECT id, table_id, table_seq, round_id, type, at, actor, body, prev_hash, hash FROM events "
                        "WHERE table_id = ? AND table_seq = ?", (table, seq)).fetchone()


def round_event_seq(conn, rid, type_, nth=0):
    rows = conn.execute("SELECT table_seq FROM events WHERE round_id = ? AND type = ? ORDER BY table_seq",
                        (rid, type_)).fetchall()
    return rows[nth][0]


class TamperCase(unittest.TestCase):
    """Each test: a copy of the golden record in a fresh daemon directory."""

    def setUp(self):
        self.d = pbtest.Daemon()
        self.addCleanup(self.d.close)
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(G["db"] + suffix):
                shutil.copy(G["db"] + suffix, self.d.db_path + suffix)
        shutil.copy(G["key"], self.d.db_path + ".signing-key")
        os.chmod(self.d.db_path + ".signing-key", 0o600)
        self.r = G["rounds"]

    # ---- altering the file ----

    def tamper(self, fn, drop=()):
        """Opens the (stopped) daemon's database with sqlite3, drops the named tables' append-only triggers, runs
        fn(conn) and commits."""
        self.assertFalse(self.d.running)
        conn = sqlite3.connect(self.d.db_path)
        conn.isolation_level = None
        try:
            conn.execute("BEGIN IMMEDIATE")
            for t in drop:
                for trig in TRIGGERS[t]:
                    conn.execute("DROP TRIGGER IF EXISTS %s" % trig)
            fn(conn)
            conn.execute("COMMIT")
        finally:
            conn.close()

    def db(self):
        return sqlite3.connect(self.d.db_path)

    # ---- (a) pitboss verify ----

    def verify(self, *extra, expect_rc=1):
        rc, out, err = run_cli("verify", "--database", self.d.db_path, *extra)
        self.assertEqual(rc, expect_rc, "pitboss verify exit code\n%s%s" % (out, err))
        lines = [l for l in out.splitlines() if l.startswith("PROBLEM ")]
        if expect_rc == 1:
            self.assertTrue(lines, "pitboss verify failed without a PROBLEM line:\n%s%s" % (out, err))
            self.assertEqual(out.splitlines()[-1], "FAILED: the record was altered", out)
        else:
            self.assertEqual(lines, [], out)
            self.assertEqual(out.splitlines()[-1], "OK: the record is intact", out)
        return lines, out

    def assert_line(self, lines, prefix, *fragments):
        """Some PROBLEM line starts with prefix (e.g. "PROBLEM table T1 round 1: ") and contains every fragment."""
        for l in lines:
            if l.startswith(prefix) and all(f in l for f in fragments):
                return l
        self.fail("no PROBLEM line starting %r with %r among:\n%s" % (prefix, fragments, "\n".join(lines)))

    # ---- (b), (c) over HTTP ----

    def start(self):
        """Starts the daemon and waits for its start-up check to finish: the record here is altered before the
        last checkpoints, which (startup_check "full") is walked in the background once the daemon listens."""
        self.d.start()
        sc = self.d.wait_startup_check()
        self.assertEqual(sc["mode"], "full")
        self.assertEqual(sc["state"], "done", json.dumps(sc))
        self.assertEqual(sc["tables_checked"], sc["tables"], json.dumps(sc))

    def stop(self):
        self.d.stop(allow_errors=True)      # a failed start-up check is logged as an error

    def get(self, path, token=AUDITOR, status=200):
        st, js = self.d.call("GET", path, token=token)
        self.assertEqual(st, status, "GET %s -> %d %s" % (path, st, json.dumps(js)))
        return js

    def assert_problem(self, problems, table, fragments, rnd=None, event=None):
        """Some problem object of the API names the table (and round, event) and contains every fragment."""
        for p in problems:
            if p.get("table") != table:
                continue
            if rnd is not None and p.get("round") != rnd:
                continue
            if event is not None and p.get("event") != event:
                continue
            if all(f in p.get("problem", "") for f in fragments):
                return p
        self.fail("no problem for table %s round %s event %s with %r among:\n%s"
                  % (table, rnd, event, fragments, json.dumps(problems, indent=1)))

    def integrity(self, table, fragments, rnd=None, event=None):
        js = self.get("/api/v1/integrity")
        self.assertIs(js["ok"], False, json.dumps(js)[:2000])
        self.assertTrue(js["problems"])
        return self.assert_problem(js["problems"], table, fragments, rnd, event)

    def round_verify(self, rid, table, fragments, event=None):
        js = self.get("/api/v1/rounds/%d/verify" % rid)
        self.assertEqual(js["round"], rid)
        self.assertIs(js["ok"], False, json.dumps(js))
        return self.assert_problem(js["problems"], table, fragments, rid, event)

    # ---- (d) the integrity hold ----

    def whole_ok(self, table, body):
        st, js = self.d.call("POST", "/api/v1/tables/%s/rounds" % table, body)
        self.assertEqual(st, 201, json.dumps(js))
        return js["round"]

    def refused(self, status, code, method, path, body=None, token=DEALER):
        before = pbtest.snapshot(self.d)
        st, js = self.d.call(method, path, body, token=token)
        self.assertEqual(st, status, "%s %s -> %d %s (wanted %d %s)" % (method, path, st, json.dumps(js), status, code))
        self.assertEqual(js["error"]["code"], code, json.dumps(js))
        self.assertEqual(before, pbtest.snapshot(self.d), "%s %s changed the record" % (method, path))
        return js["error"]["message"]

    def assert_hold(self, table, fragments, settled_round=None, table_writes=False):
        """The start-up check put `table` on hold: writes refused, reads served, the significant event recorded; the
        dealer may not lift it, a note is required, a pit boss lifts it; then writes pass again.  table_writes: also
        the pit boss's writes to the table (limits, close), which audit.md's "refuses every write" covers."""
        t = table
        open_round = self.get("/api/v1/tables/%s" % t, token=PITBOSS_TOKEN)["table"]["current_round"]
        # writes are refused, the record unchanged
        msg = self.refused(409, "integrity_hold", "POST", "/api/v1/tables/%s/rounds" % t, {})
        for f in fragments:
            self.assertIn(f, msg)
        self.assertIn("/api/v1/tables/%s/acknowledge" % t, msg)
        self.refused(409, "integrity_hold", "POST", "/api/v1/tables/%s/rounds" % t, T1_WHOLE_B1)
        if open_round is not None:
            self.refused(409, "integrity_hold", "PUT", "/api/v1/rounds/%d/bets/3" % open_round, {"ante": 1000})
            self.refused(409, "integrity_hold", "POST", "/api/v1/rounds/%d/void" % open_round, {"reason": "hold test"},
                         token=PITBOSS_TOKEN)
        if table_writes:
            with self.subTest(write="PUT limits on a held table"):
                self.refused(409, "integrity_hold", "PUT", "/api/v1/tables/%s/limits" % t,
                             {"ante": {"min": 500, "max": 50000}}, token=PITBOSS_TOKEN)
            with self.subTest(write="POST close on a held table"):
                self.refused(409, "integrity_hold", "POST", "/api/v1/tables/%s/close" % t, token=PITBOSS_TOKEN)
            self.d.call("POST", "/api/v1/tables/%s/open" % t, token=PITBOSS_TOKEN)     # as it was, whatever happened
        # reads are served
        self.assertEqual(self.get("/api/v1/tables/%s" % t, token=PITBOSS_TOKEN)["table"]["id"], t)
        self.get("/api/v1/tables/%s/rounds" % t, token=PITBOSS_TOKEN)
        if settled_round is not None:
            self.assertEqual(self.get("/api/v1/rounds/%d" % settled_round, token=DEALER)["round"]["table"], t)
        # other tables are not held
        self.whole_ok("T3", T3_WHOLE)
        # the significant event
        evs = self.get("/api/v1/events?limit=1000")["events"]
        fails = [e for e in evs if e["code"] == "integrity_failure" and e["table"] == t]
        self.assertTrue(fails, "no integrity_failure significant event for %s:\n%s" % (t, json.dumps(evs, indent=1)))
        for e in fails:
            self.assertEqual(e["source"], "pitbossd")
        # each part of the start-up check that fails records its own event (part: since_checkpoint, before_checkpoint)
        self.assertTrue([e for e in fails if all(f in json.dumps(e["detail"]) for f in fragments)],
                        "no integrity_failure of %s says %r:\n%s" % (t, fragments, json.dumps(fails, indent=1)))
        self.assertEqual([e for e in evs if e["code"] == "integrity_failure" and e["table"] not in (t, None)], [],
                         "tables held that were not altered")
        self.assertEqual(self.d.call("GET", "/api/v1/events", token=DEALER)[0], 403)
        # lifting it: a pit boss with a note
        st, js = self.d.call("POST", "/api/v1/tables/%s/acknowledge" % t, {"note": "dealer tried"}, token=DEALER)
        self.assertEqual(st, 403, js)
        st, js = self.d.call("POST", "/api/v1/tables/%s/acknowledge" % t, {"note": "auditor tried"}, token=AUDITOR)
        self.assertEqual(st, 403, js)
        st, js = self.d.call("POST", "/api/v1/tables/%s/acknowledge" % t, {}, token=PITBOSS_TOKEN)
        self.assertEqual((st, js["error"]["code"]), (422, "note_required"), js)
        st, js = self.d.call("POST", "/api/v1/tables/%s/acknowledge" % t, {"note": ""}, token=PITBOSS_TOKEN)
        self.assertEqual((st, js["error"]["code"]), (422, "note_required"), js)
        st, js = self.d.call("POST", "/api/v1/tables/%s/acknowledge" % t, {"note": " \n\u00a0 "}, token=PITBOSS_TOKEN)
        self.assertEqual((st, js["error"]["code"]), (422, "note_required"), js)
        st, js = self.d.call("POST", "/api/v1/tables/%s/acknowledge" % t, {"note": "ok\u001b]0;x\u0007"},
                             token=PITBOSS_TOKEN)
        self.assertEqual((st, js["error"]["code"]), (400, "invalid_text"), js)
        self.assertIn("acknowledge: note", js["error"]["message"])
        self.refused(409, "integrity_hold", "POST", "/api/v1/tables/%s/rounds" % t, {})     # still held
        note = "restored from backup pending; surveillance informed (%s)" % t
        st, js = self.d.call("POST", "/api/v1/tables/%s/acknowledge" % t, {"note": note}, token=PITBOSS_TOKEN)
        self.assertEqual(st, 200, js)
        self.assertEqual(js, {"table": t, "hold": False})
        st, js = self.d.call("POST", "/api/v1/tables/%s/acknowledge" % t, {"note": note}, token=PITBOSS_TOKEN)
        self.assertEqual((st, js["error"]["code"]), (409, "no_hold"), js)
        evs = self.get("/api/v1/events?limit=1000")["events"]
        acks = [e for e in evs if e["code"] == "integrity_acknowledged" and e["table"] == t]
        self.assertEqual(len(acks), 1, json.dumps(evs, indent=1))
        self.assertEqual(acks[0]["source"], "demo-pitboss")
        self.assertIn(note, json.dumps(acks[0]["detail"]))
        # writes pass again
        if open_round is not None:
            st, js = self.d.call("PUT", "/api/v1/rounds/%d/bets/3" % open_round, {"ante": 1000})
            self.assertEqual(st, 200, js)
        else:
            self.whole_ok(t, T1_WHOLE_B1 if t == "T1" else T3_WHOLE)

    # ---- the rows of golden rounds ----

    def t1_whole_events(self, conn):
        rid = self.r["t1_whole"]
        return {typ: round_event_seq(conn, rid, typ) for typ in
                ("round_opened", "betting_closed", "cards_dealt", "round_settled")}


class Untouched(TamperCase):

    def test_untouched_record_verifies_everywhere(self):
        lines, out = self.verify(expect_rc=0)
        n_rounds = len(self.r)
        self.assertIn("%d rounds" % n_rounds, out)
        self.assertRegex(out, r"\b5 tables, \d+ events, %d rounds, \d+ checkpoints checked" % n_rounds)
        # scoped, with the key, as JSON
        self.verify("--table", "T1", expect_rc=0)
        self.verify("--from", str(self.r["p1"]), expect_rc=0)
        self.verify("--public-key", G["public_key"], expect_rc=0)
        rc, out, err = run_cli("verify", "--database", self.d.db_path, "--json")
        self.assertEqual(rc, 0, out + err)
        js = json.loads(out)
        self.assertIs(js["ok"], True)
        self.assertEqual(js["problems"], [])
        self.assertEqual(js["checked"]["rounds"], n_rounds)
        self.assertGreaterEqual(js["checked"]["checkpoints"], 7)       # 5 chains at the first stop, 2 moved after
        t1 = [t for t in js["tables"] if t["table"] == "T1"][0]
        self.assertEqual(t1["events"], G["t1_head"])
        self.assertEqual(t1["rounds_opened"], 5)
        conn = self.db()
        try:
            self.assertEqual(pbtest.chain_problems(conn), [])
            cps = conn.execute("SELECT table_id, table_seq FROM checkpoints WHERE table_id = 'T1' ORDER BY id").fetchall()
        finally:
            conn.close()
        self.assertEqual(cps, [("T1", G["t1_head_a"]), ("T1", G["t1_head"])])
        # the daemon agrees, holds nothing, and its own run verifies afterwards
        self.start()
        self.assertNotIn("failed", self.d.run_log().split("listening on")[0])
        js = self.get("/api/v1/integrity")
        self.assertIs(js["ok"], True, json.dumps(js["problems"], indent=1))
        self.assertEqual(js["problems"], [])
        self.assertEqual(js["checked"]["rounds"], n_rounds)
        for name, rid in self.r.items():
            with self.subTest(round=name):
                v = self.get("/api/v1/rounds/%d/verify" % rid)
                self.assertEqual(v, {"round": rid, "ok": True, "problems": []})
        evs = self.get("/api/v1/events?limit=1000")["events"]
        self.assertEqual([e for e in evs if e["code"] == "integrity_failure"], [])
        # verify while the daemon runs (it reads the WAL database read-only)
        self.verify(expect_rc=0)
        st, js = self.d.call("PUT", "/api/v1/rounds/%d/bets/3" % self.r["t1_open"], {"ante": 700})
        self.assertEqual(st, 200, js)
        self.whole_ok("F1", F1_WHOLE)
        self.d.stop()
        self.verify(expect_rc=0)

    def replay(self, name):
        rid = self.r[name]
        rc, out, err = run_cli("replay", "--database", self.d.db_path, str(rid))
        self.assertEqual(rc, 0, out + err)
        rnd = G["rounds_json"][name]
        lines = out.splitlines()
        self.assertEqual(lines[0], "Round %d, table %s, round %d of the table: %s"
                         % (rid, rnd["table"], rnd["round_no"], rnd["state"]), out)
        self.assertIn("  game %s, dealer qualifies with %s" % (rnd["rules"]["name"], rnd["rules"]["dealer_qualifier"]), lines)
        # the timeline: every event, in order, with its hash
        tl = [l for l in lines if re.match(r"^  \d{4}-\d\d-\d\dT\S+Z  ", l)]
        self.assertEqual([l.split()[1] for l in tl], [e["type"] for e in rnd["events"]], out)
        self.assertEqual([l.split()[-1] for l in tl], [e["hash"] for e in rnd["events"]], out)
        # payouts in the order paid
        pays = [l for l in lines if re.match(r"^\s+\d+\. seat ", l)]
        self.assertEqual(len(pays), len(rnd["payouts"]), out)
        for l, p in zip(pays, rnd["payouts"]):
            f = l.split()
            self.assertEqual(f[0:4], ["%d." % p["seq"], "seat", str(p["seat"]), p["wager"]], l)
            self.assertEqual(f[5], "%.2f" % (p["stake"] / 100.0), l)
            self.assertEqual(f[6], p["result"], l)
            self.assertEqual(f[8], ("-" if p["net"] < 0 else "") + "%d.%02d" % (abs(p["net"]) // 100, abs(p["net"]) % 100), l)
        self.assertIn("Verify: OK, the payouts recompute exactly and the chain holds", lines)
        self.assertNotIn("PROBLEM", out)
        # --json: the round as GET returns it, with the verify result
        rc, jout, err = run_cli("replay", "--database", self.d.db_path, "--json", str(rid))
        self.assertEqual(rc, 0, err)
        js = json.loads(jout)["round"]
        self.assertEqual(js["verify"], {"round": rid, "ok": True, "problems": []})
        js.pop("verify")
        self.assertEqual(js, rnd)
        return out, lines, pays

    def test_replay_t1_whole(self):
        out, lines, pays = self.replay("t1_whole")
        self.assertIn("  seat 1: ante 25.00, pair plus 5.00, six card 0.00; cards As Ks Qs (straight_flush); play", lines)
        self.assertIn("  seat 3: ante 10.00, pair plus 0.00, six card 5.00; cards 2c 3d 4h (straight); fold", lines)
        self.assertIn("  dealer: Qd 7c 2h (high_card, qualifies)", lines)
        self.assertEqual([p.split()[3] for p in pays], ["ante", "play", "pair_plus", "ante_bonus", "ante", "six_card"])
        self.assertRegex(pays[2], r"pair_plus\s+stake\s+5\.00\s+win\s+net\s+200\.00$")
        self.assertRegex(pays[4], r"seat 3 ante\s+stake\s+10\.00\s+forfeit\s+net\s+-10\.00$")

    def test_replay_t1_step_by_step_with_reveal(self):
        out, lines, pays = self.replay("t1_steps")
        self.assertIn("  seat 5: ante 20.00, pair plus 0.00, six card 5.00; cards 9s 8s 7s (straight_flush); play", lines)
        self.assertIn("  dealer: Kc 5d 3h (high_card, qualifies)", lines)
        self.assertIn("dealer_revealed", out)
        self.assertRegex(pays[-1], r"seat 5 ante_bonus\s+stake\s+20\.00\s+win\s+net\s+100\.00$")

    def test_replay_t3_pair_plus_alone(self):
        out, lines, pays = self.replay("t3_pp_alone")
        self.assertIn("  game tricard, dealer qualifies with Q", lines)
        self.assertIn("  seat 1: ante 0.00, pair plus 10.00, six card 0.00; cards 9d 9s 2c (pair)", lines)
        self.assertRegex(pays[0], r"1\. seat 1 pair_plus\s+stake\s+10\.00\s+win\s+net\s+10\.00$")
        self.assertRegex(pays[-1], r"seat 4 ante_bonus\s+stake\s+10\.00\s+win\s+net\s+30\.00$")

    def test_replay_f1(self):
        out, lines, pays = self.replay("f1")
        self.assertIn("  game florida, dealer qualifies with Q", lines)
        self.assertRegex(pays[3], r"4\. seat 2 pair_plus\s+stake\s+5\.00\s+push\s+net\s+0\.00$")

    def test_replay_p1_player_banked(self):
        out, lines, pays = self.replay("p1")
        self.assertIn("  banker: seat 4 with a bank of 100.00, ending with 0.00", lines)
        self.assertEqual([int(p.split()[2]) for p in pays], [5, 5, 5, 6, 6, 1, 1, 1, 2, 2])
        self.assertRegex(pays[0], r"seat 5 ante\s+stake\s+50\.00\s+lose\s+net\s+-50\.00\s+bank 150\.00$")
        self.assertRegex(pays[8], r"9\. seat 2 ante\s+stake\s+30\.00\s+win\s+net\s+20\.00\s+bank 0\.00\s+short 10\.00$")
        self.assertRegex(pays[9], r"10\. seat 2 play\s+stake\s+30\.00\s+returned\s+net\s+0\.00\s+bank 0\.00$")

    def test_replay_voids(self):
        out, lines, pays = self.replay("t2_void_dealt")
        self.assertTrue(lines[0].endswith(": void"), lines[0])
        self.assertIn("  void: misdeal: exposed card", lines)
        self.assertEqual([(p.split()[3], p.split()[6]) for p in pays], [("ante", "returned"), ("pair_plus", "returned")])
        out, lines, pays = self.replay("t2_void_betting")
        self.assertIn("  void: dealer change", lines)
        self.assertEqual(len(pays), 1)
        self.assertRegex(pays[0], r"1\. seat 3 ante\s+stake\s+10\.00\s+returned\s+net\s+0\.00$")

    def test_replay_round_in_progress_and_unknown(self):
        rc, out, err = run_cli("replay", "--database", self.d.db_path, str(self.r["t1_open"]))
        self.assertEqual(rc, 0, out + err)
        self.assertTrue(out.splitlines()[0].endswith(": betting"), out)
        self.assertIn("  seat 2: ante 5.00, pair plus 0.00, six card 0.00", out)
        self.assertIn("Verify: OK", out)
        rc, out, err = run_cli("replay", "--database", self.d.db_path, "9999")
        self.assertEqual(rc, 1, out + err)
        self.assertIn("9999", err)


class RoundRows(TamperCase):
    """Derived rows edited, added or changed: caught by the round's check, the table keeps dealing."""

    def test_hands_card_edited(self):
        rid = self.r["t1_whole"]
        self.tamper(lambda c: c.execute("UPDATE hands SET cards = 'AsKsJs' WHERE round_id = ? AND seat = 1", (rid,)),
                    drop=("hands",))
        lines, out = self.verify()
        self.assert_line(lines, "PROBLEM table T1 round %d: " % rid, "seat 1", "AsKsJs", "AsKsQs")
        self.start()
        self.integrity("T1", ["seat 1", "AsKsJs", "AsKsQs"], rnd=rid)
        self.round_verify(rid, "T1", ["seat 1", "AsKsJs", "AsKsQs"])
        # the events are the record: the round as read back still shows what was dealt
        got = self.get("/api/v1/rounds/%d" % rid)["round"]
        self.assertEqual(got["hands"]["1"]["cards"], ["As", "Ks", "Qs"])
        # other rounds are unaffected
        self.assertIs(self.get("/api/v1/rounds/%d/verify" % self.r["t1_steps"])["ok"], True)
        self.stop()

    def test_payout_net_edited(self):
        rid = self.r["t1_whole"]
        self.tamper(lambda c: c.execute("UPDATE payouts SET net = -900 WHERE round_id = ? AND seq = 5", (rid,)),
                    drop=("payouts",))
        want = ('the payouts table: payout line 5 is "seat 3 ante stake 1000 forfeit net -900" where '
                '"seat 3 ante stake 1000 forfeit net -1000" was expected')
        lines, out = self.verify()
        self.assert_line(lines, "PROBLEM table T1 round %d: " % rid, want)
        self.start()
        self.integrity("T1", [want], rnd=rid)
        self.round_verify(rid, "T1", [want])
        self.stop()

    def test_payout_net_edited_player_banked(self):
        rid = self.r["p1"]
        self.tamper(lambda c: c.execute("UPDATE payouts SET net = 3000, short = NULL WHERE round_id = ? AND seq = 9",
                                        (rid,)), drop=("payouts",))
        want = ('the payouts table: payout line 9 is "seat 2 ante stake 3000 win net 3000 bank_after 0 short 0" where '
                '"seat 2 ante stake 3000 win net 2000 bank_after 0 short 1000" was expected')
        lines, out = self.verify()
        self.assert_line(lines, "PROBLEM table P1 round %d: " % rid, want)
        self.start()
        self.integrity("P1", [want], rnd=rid)
        self.round_verify(rid, "P1", [want])
        self.stop()

    def test_bet_amount_edited(self):
        rid = self.r["t1_whole"]
        self.tamper(lambda c: c.execute("UPDATE bets SET ante = 1500 WHERE round_id = ? AND seat = 3", (rid,)),
                    drop=("bets",))
        frag = ("seat 3", "ante 1500, pair plus 0, six card 500", "ante 1000, pair plus 0, six card 500")
        lines, out = self.verify()
        self.assert_line(lines, "PROBLEM table T1 round %d: " % rid, *frag)
        self.start()
        self.integrity("T1", list(frag), rnd=rid)
        self.round_verify(rid, "T1", list(frag))
        self.stop()

    def test_extra_payout_row(self):
        rid = self.r["t1_whole"]
        self.tamper(lambda c: c.execute(
            # the rowid of a payout line is round_id * 64 + seq (schema 025)
            "INSERT INTO payouts (round_id, seq, seat, wager, stake, result, net, id) "
            "VALUES (?1, 7, 3, 'pair_plus', 500, 'win', 500, ?1 * 64 + 7)",
            (rid,)))
        lines, out = self.verify()
        self.assert_line(lines, "PROBLEM table T1 round %d: " % rid, "7 payout lines where 6 were expected")
        self.assert_line(lines, "PROBLEM table T1 round %d: " % rid, "rows its events do not account for", "payouts 7/6")
        self.start()
        self.integrity("T1", ["7 payout lines where 6 were expected"], rnd=rid)
        self.round_verify(rid, "T1", ["payouts 7/6"])
        self.stop()

    def test_payout_bank_after_edited(self):
        # a player-banked line's bank_after is part of the line: caught, and the message shows the difference
        rid = self.r["p1"]
        self.tamper(lambda c: c.execute("UPDATE payouts SET bank_after = 25000 WHERE round_id = ? AND seq = 1", (rid,)),
                    drop=("payouts",))
        lines, out = self.verify()
        line = self.assert_line(lines, "PROBLEM table P1 round %d: " % rid, "the payouts table: payout line 1 is")
        quoted = re.findall(r'"([^"]*)"', line)
        self.assertEqual(len(quoted), 2, line)
        self.assertNotEqual(quoted[0], quoted[1], "the message does not say what differs: " + line)
        self.assertIn("25000", quoted[0], line)
        self.assertIn("15000", quoted[1], line)

    def test_round_row_columns_edited(self):
        # audit.md: "A derived row edited, added or removed behind pitboss's back is caught: it differs from the
        # events".  Each column here is derived from the events and read by something (reports, the floor).
        cases = [
            ("t1_whole", "rounds", "UPDATE rounds SET players_net = 0 WHERE id = ?"),
            ("t1_whole", "rounds", "UPDATE rounds SET settled_at = '2020-01-01T00:00:00.000Z' WHERE id = ?"),
            ("t1_whole", "rounds", "UPDATE rounds SET opened_by = 'demo-pitboss' WHERE id = ?"),
            ("t1_whole", "rounds", "UPDATE rounds SET dealer_qualifies = 0 WHERE id = ?"),
            ("t2_void_dealt", "rounds", "UPDATE rounds SET void_reason = 'dealer change' WHERE id = ?"),
            ("t1_whole", "hands", "UPDATE hands SET hand = 'pair' WHERE round_id = ? AND seat = 1"),
            ("t1_whole", "decisions", "UPDATE decisions SET decided_by = 'demo-pitboss' WHERE round_id = ? AND seat = 1"),
            ("p1_b", "banker_turns", "UPDATE banker_turns SET consecutive = 1 WHERE round_id = ? AND kind = 'bank'"),
        ]
        for name, table, sql in cases:
            with self.subTest(sql=sql):
                self.setUp()                       # a fresh copy for each
                rid = self.r[name]
                self.tamper(lambda c: c.execute(sql, (rid,)), drop=(table,))
                rc, out, err = run_cli("verify", "--database", self.d.db_path)
                self.assertEqual(rc, 1, "not caught: %s\n%s" % (sql, out))
                tid = G["rounds_json"][name]["table"]
                self.assertTrue([l for l in out.splitlines() if l.startswith("PROBLEM table %s round %d: " % (tid, rid))],
                                out)

    def test_extra_collection_row(self):
        rid = self.r["p1"]
        self.tamper(lambda c: c.execute("INSERT INTO collections (round_id, seat, fee) VALUES (?, 3, 500)", (rid,)))
        want = "the recorded collections (total 1500) differ from its events (total 1000)"
        lines, out = self.verify()
        self.assert_line(lines, "PROBLEM table P1 round %d: " % rid, want)
        self.assert_line(lines, "PROBLEM table P1 round %d: " % rid, "rows its events do not account for", "collections 6/5")
        self.start()
        self.integrity("P1", [want], rnd=rid)
        self.round_verify(rid, "P1", [want])
        self.stop()

    def test_round_state_changed(self):
        rid = self.r["t1_whole"]
        self.tamper(lambda c: c.execute("UPDATE rounds SET state = 'void', void_reason = 'x' WHERE id = ?", (rid,)),
                    drop=("rounds",))
        lines, out = self.verify()
        self.assert_line(lines, "PROBLEM table T1 round %d: " % rid, "the round row says void, its events say settled")
        self.start()
        self.integrity("T1", ["the round row says void, its events say settled"], rnd=rid)
        self.round_verify(rid, "T1", ["the round row says void, its events say settled"])
        self.stop()

    def test_round_rows_without_events(self):
        # a whole round inserted behind pitboss's back
        def fn(c):
            cols = [r[1] for r in c.execute("PRAGMA table_info(rounds)")]
            row = dict(zip(cols, c.execute("SELECT * FROM rounds WHERE id = ?", (self.r["t1_whole"],)).fetchone()))
            row["id"] = 500
            row["round_no"] = 500
            c.execute("INSERT INTO rounds (%s) VALUES (%s)" % (", ".join(cols), ", ".join("?" * len(cols))),
                      [row[k] for k in cols])
        self.tamper(fn)
        lines, out = self.verify()
        self.assert_line(lines, "PROBLEM table T1 round 500: ", "no recorded events", "outside pitboss")
        self.start()
        self.integrity("T1", ["no recorded events"], rnd=500)
        self.round_verify(500, "T1", ["no recorded events"])
        self.stop()


    def test_report_aggregate_edited(self):
        # The per-hour sums the reports read are recomputed from the rounds by a full check.
        self.tamper(lambda c: c.execute("UPDATE report_hours SET win_ante = win_ante + 100 WHERE table_id = 'T1'"))
        lines, out = self.verify()
        self.assertEqual([l for l in lines if "report aggregates of table T1" in l and "a report figure was altered" in l], lines, out)
        self.assertEqual(len(lines), 1, out)
        self.start()
        js = self.get("/api/v1/integrity")
        self.assertIs(js["ok"], False)
        self.assertTrue([p for p in js["problems"] if "report aggregates of table T1" in p["problem"]], json.dumps(js["problems"]))
        self.stop()


class Events(TamperCase):
    """The chain itself altered: caught by the walk and the round's check, and the table is held at start."""

    def test_event_card_edited(self):
        rid = self.r["t1_whole"]
        conn = self.db()
        seq = self.t1_whole_events(conn)["cards_dealt"]
        conn.close()

        def fn(c):
            body = c.execute("SELECT body FROM events WHERE table_id = 'T1' AND table_seq = ?", (seq,)).fetchone()[0]
            self.assertIn('"Qs"', body)
            c.execute("UPDATE events SET body = ? WHERE table_id = 'T1' AND table_seq = ?", (body.replace('"Qs"', '"Js"'), seq))
        self.tamper(fn, drop=("events",))
        want = "event %d (cards_dealt): its hash does not match its content; the event was altered after it was recorded" % seq
        lines, out = self.verify()
        self.assert_line(lines, "PROBLEM table T1 round %d: " % rid, want)
        # the replay of the altered events no longer gives the recorded payouts
        self.assert_line(lines, "PROBLEM table T1 round %d: " % rid, "replay: payout line")
        rc, rout, rerr = run_cli("replay", "--database", self.d.db_path, str(rid))
        self.assertEqual(rc, 1, rout + rerr)
        self.assertIn("Verify: FAILED", rout)
        self.assertIn("  PROBLEM: " + want, rout.splitlines())
        self.start()
        self.assertIn("start-up integrity check: 1 table(s) failed", self.d.run_log())
        self.integrity("T1", [want], rnd=rid, event=seq)
        self.round_verify(rid, "T1", [want], event=seq)
        self.assert_hold("T1", ["event %d (cards_dealt)" % seq], settled_round=rid, table_writes=True)
        self.stop()
        # the hold comes back at the next start for as long as the altered record is there
        self.start()
        self.refused(409, "integrity_hold", "PUT", "/api/v1/rounds/%d/bets/4" % self.r["t1_open"], {"ante": 1000})
        evs = self.get("/api/v1/events?limit=1000")["events"]
        self.assertEqual(len([e for e in evs if e["code"] == "integrity_failure" and e["table"] == "T1"]), 2)
        self.stop()
        lines, out = self.verify()
        self.assert_line(lines, "PROBLEM table T1 round %d: " % rid, want)

    def test_event_amount_edited(self):
        rid = self.r["t1_whole"]
        conn = self.db()
        seq = self.t1_whole_events(conn)["round_settled"]
        conn.close()

        def fn(c):
            body = c.execute("SELECT body FROM events WHERE table_id = 'T1' AND table_seq = ?", (seq,)).fetchone()[0]
            old = '"net":20000,"result":"win","seat":1,"seq":3'
            self.assertIn(old, body)
            c.execute("UPDATE events SET body = ? WHERE table_id = 'T1' AND table_seq = ?",
                      (body.replace(old, old.replace("20000", "2000")), seq))
        self.tamper(fn, drop=("events",))
        want = "event %d (round_settled): its hash does not match its content" % seq
        replay = ('replay: payout line 3 is "seat 1 pair_plus stake 500 win net 2000" where '
                  '"seat 1 pair_plus stake 500 win net 20000" was expected')
        lines, out = self.verify()
        self.assert_line(lines, "PROBLEM table T1 round %d: " % rid, want)
        self.assert_line(lines, "PROBLEM table T1 round %d: " % rid, replay)
        self.start()
        self.integrity("T1", [want], rnd=rid, event=seq)
        self.round_verify(rid, "T1", [want], event=seq)
        self.round_verify(rid, "T1", [replay])
        self.assert_hold("T1", ["event %d (round_settled)" % seq])
        self.stop()

    def test_event_rehashed_next_link_broken(self):
        rid = self.r["t1_whole"]
        conn = self.db()
        seq = round_event_seq(conn, rid, "bet_placed", 1)         # seat 3's bet
        conn.close()

        def fn(c):
            row = event_row(c, "T1", seq)
            body = row[7].replace('"ante":1000', '"ante":100')
            self.assertNotEqual(body, row[7])
            h = event_hash(row[8], (row[1], row[2], row[3], row[4], row[5], row[6], body))
            c.execute("UPDATE events SET body = ?, hash = ? WHERE id = ?", (body, h, row[0]))
        self.tamper(fn, drop=("events",))
        nxt = seq + 1
        lines, out = self.verify()
        self.assert_line(lines, "PROBLEM table T1 round %d: " % rid,
                         "event %d: its prev_hash does not match the hash of the event before it" % nxt)
        self.assertFalse([l for l in lines if "event %d (bet_placed): its hash does not match" % seq in l],
                         "the rehashed event's own hash matches")
        self.start()
        self.integrity("T1", ["event %d: its prev_hash does not match" % nxt], event=nxt)
        self.round_verify(rid, "T1", ["event %d: its prev_hash does not match event %d's hash" % (nxt, seq)], event=nxt)
        self.assert_hold("T1", ["event %d" % nxt])
        self.stop()

    def test_event_deleted_in_the_middle(self):
        rid = self.r["t1_whole"]
        conn = self.db()
        seq = round_event_seq(conn, rid, "decision", 0)
        conn.close()
        self.tamper(lambda c: c.execute("DELETE FROM events WHERE table_id = 'T1' AND table_seq = ?", (seq,)),
                    drop=("events",))
        lines, out = self.verify()
        self.assert_line(lines, "PROBLEM table T1 round %d: " % rid, "events %d to %d are missing (deleted)" % (seq, seq))
        self.assert_line(lines, "PROBLEM table T1 round %d: " % rid, "event %d: its prev_hash does not match" % (seq + 1))
        self.start()
        self.integrity("T1", ["events %d to %d are missing" % (seq, seq)], event=seq + 1)
        self.round_verify(rid, "T1", ["event %d: event %d before it is missing" % (seq + 1, seq)], event=seq + 1)
        # the newest rounds' own check at start finds it first, as the round's verify words it
        self.assert_hold("T1", ["event %d: event %d before it is missing" % (seq + 1, seq)])
        self.stop()

    def test_event_inserted(self):
        rid = self.r["t1_whole"]
        conn = self.db()
        after = round_event_seq(conn, rid, "bet_placed", 1)       # a forged bet after the last real one
        conn.close()

        def fn(c):
            c.execute("UPDATE events SET table_seq = -(table_seq + 1) WHERE table_id = 'T1' AND table_seq > ?", (after,))
            c.execute("UPDATE events SET table_seq = -table_seq WHERE table_id = 'T1' AND table_seq < 0")
            prev = event_row(c, "T1", after)
            row = ("T1", after + 1, rid, "bet_placed", prev[5], prev[6],
                   '{"ante":20000,"pair_plus":0,"seat":5,"six_card":0}')
            c.execute("INSERT INTO events (table_id, table_seq, round_id, type, at, actor, body, prev_hash, hash) "
                      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", row + (prev[9], event_hash(prev[9], row)))
        self.tamper(fn, drop=("events",))
        nxt = after + 2
        lines, out = self.verify()
        self.assert_line(lines, "PROBLEM table T1 round %d: " % rid,
                         "event %d: its prev_hash does not match the hash of the event before it" % nxt)
        self.assert_line(lines, "PROBLEM table T1: ", "no longer has the signed hash")
        self.start()
        self.integrity("T1", ["event %d: its prev_hash does not match" % nxt], event=nxt)
        self.round_verify(rid, "T1", ["event %d: its prev_hash does not match event %d's hash" % (nxt, after + 1)],
                          event=nxt)
        # the start-up check looks at the last checkpoint first: the renumbering moved its event
        self.assert_hold("T1", ["checkpoint", "no longer has the signed hash"])
        self.stop()

    def test_chain_rewritten_consistently(self):
        rid = self.r["t1_whole"]
        conn = self.db()
        seq = self.t1_whole_events(conn)["cards_dealt"]
        cps = conn.execute("SELECT id, table_seq FROM checkpoints WHERE table_id = 'T1' ORDER BY id").fetchall()
        conn.close()
        self.assertEqual([c[1] for c in cps], [G["t1_head_a"], G["t1_head"]])
        self.assertLess(seq, cps[0][1], "the changed event is covered by both checkpoints")

        def fn(c):
            # seat 3's 4h becomes a 4s: the same straight, the same fold, the same six card result; the derived
            # row follows, and every hash from the change to the head is recomputed
            body = c.execute("SELECT body FROM events WHERE table_id = 'T1' AND table_seq = ?", (seq,)).fetchone()[0]
            self.assertIn('["2c","3d","4h"]', body)
            c.execute("UPDATE events SET body = ? WHERE table_id = 'T1' AND table_seq = ?",
                      (body.replace('["2c","3d","4h"]', '["2c","3d","4s"]'), seq))
            self.assertEqual(c.execute("SELECT cards FROM hands WHERE round_id = ? AND seat = 3", (rid,)).fetchone()[0],
                             "2c3d4h")
            c.execute("UPDATE hands SET cards = '2c3d4s' WHERE round_id = ? AND seat = 3", (rid,))
            rehash_chain(c, "T1", seq)
            self.assertEqual(pbtest.chain_problems(c), [], "the rewrite is consistent")
        self.tamper(fn, drop=("events", "hands"))
        lines, out = self.verify()
        want = ["PROBLEM table T1: checkpoint %d: event %d no longer has the signed hash; the chain before the "
                "checkpoint was rewritten" % (cid, cseq) for cid, cseq in cps]
        self.assertEqual(sorted(lines), sorted(want), "caught by the signed checkpoints, and only by them:\n" + out)
        self.start()
        js = self.get("/api/v1/integrity")
        self.assertIs(js["ok"], False)
        self.assertEqual(len(js["problems"]), 2, json.dumps(js["problems"], indent=1))
        for cid, cseq in cps:
            self.assert_problem(js["problems"], "T1", ["checkpoint %d:" % cid, "was rewritten"], event=cseq)
        self.assert_hold("T1", ["checkpoint %d" % cps[-1][0], "rewritten"])
        self.stop()

    def test_unknown_event_type_rechained(self):
        # a table event's type rewritten to one pitboss never records, every hash from it to the head recomputed
        # and the table's checkpoints deleted (an attacker holding the file, not the key): the numbering, the links
        # and the hashes all hold, and only the registry of event types (docs/audit.md "The event types") names it;
        # what it leaves is named too: the event was T3's table_configured, so no event derives T3's stored state
        conn = self.db()
        seq = conn.execute("SELECT table_seq FROM events WHERE table_id = 'T3' AND type = 'table_configured'").fetchone()[0]
        conn.close()

        def fn(c):
            c.execute("UPDATE events SET type = 'table_reconfigured' WHERE table_id = 'T3' AND table_seq = ?", (seq,))
            rehash_chain(c, "T3", seq)
            c.execute("DELETE FROM checkpoints WHERE table_id = 'T3'")
            self.assertEqual(pbtest.chain_problems(c), [], "the rewrite is consistent")
        self.tamper(fn, drop=("events", "checkpoints"))
        want = ('event %d of table T3 has the type "table_reconfigured", which is no type of event pitboss records '
                '(pitboss event-types lists them)' % seq)
        state = "it has a stored state (open or closed, limits, dealer) that no table_configured event records"
        lines, out = self.verify()
        self.assertEqual(lines, ["PROBLEM table T3: " + want, "PROBLEM table T3: " + state],
                         "named by the type check, and only by it:\n" + out)
        self.start()
        js = self.get("/api/v1/integrity")
        self.assertIs(js["ok"], False)
        self.assertEqual([p["problem"] for p in js["problems"]], [want, state], json.dumps(js["problems"], indent=1))
        self.assert_problem(js["problems"], "T3", [want], event=seq)
        self.stop()

    def test_round_event_field_retyped_rechained(self):
        # seat 3's bet_placed rewritten with "seat": "3" (the replay used to read a string as seat 0), every hash from
        # it to the head recomputed and the table's checkpoints deleted: numbering, links and hashes all hold, the body
        # is canonical, and the replay, reading every field with common/event_read.h, names the field
        rid = self.r["t1_whole"]
        conn = self.db()
        seq = round_event_seq(conn, rid, "bet_placed", 1)         # seat 3's bet
        conn.close()

        def fn(c):
            body = event_row(c, "T1", seq)[7]
            self.assertIn('"seat":3', body)
            c.execute("UPDATE events SET body = ? WHERE table_id = 'T1' AND table_seq = ?",
                      (body.replace('"seat":3', '"seat":"3"'), seq))
            rehash_chain(c, "T1", seq)
            c.execute("DELETE FROM checkpoints WHERE table_id = 'T1'")
            self.assertEqual(pbtest.chain_problems(c), [], "the rewrite is consistent")
        self.tamper(fn, drop=("events", "checkpoints"))
        want = 'event %d: a bet_placed event\'s "seat" is a string, not an integer' % seq
        lines, out = self.verify()
        self.assertEqual(self.assert_line(lines, "PROBLEM table T1 round %d: " % rid, want),
                         "PROBLEM table T1 round %d: %s" % (rid, want))
        self.assertFalse([l for l in lines if "hash" in l or "PROBLEM table T1: " in l], "the chain holds:\n" + out)
        rc, rout, rerr = run_cli("replay", "--database", self.d.db_path, str(rid))
        self.assertEqual(rc, 1, rout + rerr)
        self.assertIn("  PROBLEM: " + want, rout.splitlines())
        self.start()
        self.integrity("T1", [want], rnd=rid, event=seq)
        self.round_verify(rid, "T1", [want], event=seq)
        # the round is still shown as far as its events can be read, as for any unreadable body
        self.assertEqual(self.get("/api/v1/rounds/%d" % rid)["round"]["id"], rid)
        self.stop()

    def test_truncated_head_before_checkpoint(self):
        # the last two T1 rounds (one settled, one open) removed, events and rows, as a careful attacker would
        gone = (self.r["t1_b2"], self.r["t1_open"])
        conn = self.db()
        first = conn.execute("SELECT min(table_seq) FROM events WHERE round_id IN (?, ?)", gone).fetchone()[0]
        cp = conn.execute("SELECT id, table_seq FROM checkpoints WHERE table_id = 'T1' ORDER BY id DESC").fetchone()
        conn.close()
        self.assertEqual(cp[1], G["t1_head"])

        def fn(c):
            c.execute("DELETE FROM events WHERE table_id = 'T1' AND table_seq >= ?", (first,))
            for t in ("payouts", "hands", "decisions", "bets", "collections"):
                c.execute("DELETE FROM %s WHERE round_id IN (?, ?)" % t, gone)
            c.execute("DELETE FROM rounds WHERE id IN (?, ?)", gone)
            self.assertEqual(pbtest.chain_problems(c), [])
        self.tamper(fn, drop=("events", "payouts", "hands", "decisions", "bets", "collections", "rounds"))
        want = ("checkpoint %d: event %d, signed as the chain head, is gone (the chain was truncated)" % cp)
        lines, out = self.verify()
        # The removed rounds also leave the report aggregates without rounds behind them.
        self.assertEqual([l for l in lines if "report aggregates of table T1" not in l], ["PROBLEM table T1: " + want], out)
        self.start()
        self.integrity("T1", [want], event=cp[1])
        self.assert_hold("T1", ["truncated"])
        self.stop()

    def test_truncated_and_newest_checkpoint_deleted(self):
        # deleting the newest checkpoint does not hide a truncation that reaches back past an older one
        conn = self.db()
        cps = conn.execute("SELECT id, table_seq FROM checkpoints WHERE table_id = 'T1' ORDER BY id").fetchall()
        gone = [r[0] for r in conn.execute("SELECT id FROM rounds WHERE table_id = 'T1' AND id <> ?", (self.r["t1_whole"],))]
        first = conn.execute("SELECT min(table_seq) FROM events WHERE round_id = ?", (self.r["t1_steps"],)).fetchone()[0]
        conn.close()
        self.assertLess(first, cps[0][1])
        marks = ", ".join("?" * len(gone))

        def fn(c):
            c.execute("DELETE FROM checkpoints WHERE id = ?", (cps[-1][0],))
            c.execute("DELETE FROM events WHERE table_id = 'T1' AND table_seq >= ?", (first,))
            for t in ("payouts", "hands", "decisions", "bets"):
                c.execute("DELETE FROM %s WHERE round_id IN (%s)" % (t, marks), gone)
            c.execute("DELETE FROM rounds WHERE id IN (%s)" % marks, gone)
        self.tamper(fn, drop=("checkpoints", "events", "payouts", "hands", "decisions", "bets", "rounds"))
        lines, out = self.verify()
        self.assertEqual([l for l in lines if "report aggregates of table T1" not in l], ["PROBLEM table T1: checkpoint %d: event %d, signed as the chain head, is gone "
                                 "(the chain was truncated)" % cps[0]], out)
        self.start()
        self.integrity("T1", ["checkpoint %d: event %d, signed as the chain head, is gone" % cps[0]])
        self.assert_hold("T1", ["truncated"])
        self.stop()


class TableRows(unittest.TestCase):
    """The rows of a table's own events and of its seats (docs/audit.md "Verifying"): table_state, dealer_changes
    and seat_changes, altered in a copy of the file, are named by `pitboss verify`; the untouched copy verifies (each
    alteration on a copy of its own: pbtest.Daemon.verify_altered_copy)."""

    @classmethod
    def setUpClass(cls):
        d = cls.d = pbtest.Daemon()
        try:
            d.start()
            d.stop()
            conn = d.db_connect(read_only=False)
            with conn:
                for pid, name in (("E1027", "Ana Ruiz"), ("E1028", "Ben Ode")):
                    conn.execute("INSERT INTO people (id, name, roles, active, password_hash, must_change, created_at, "
                                 "updated_at) VALUES (?, ?, 1, 1, 'not used', 0, '2026-01-01T00:00:00.000Z', "
                                 "'2026-01-01T00:00:00.000Z')", (pid, name))
            conn.close()
            d.start()
            _ok(d, "PUT", "/api/v1/tables/T1/dealer", {"person": "E1027"}, token=PITBOSS_TOKEN)
            _ok(d, "PUT", "/api/v1/tables/T1/dealer", {"person": "E1028"}, token=PITBOSS_TOKEN)
            _ok(d, "POST", "/api/v1/tables/T2/close", token=PITBOSS_TOKEN)
            _ok(d, "PUT", "/api/v1/tables/T3/limits", {"ante": {"min": 1000, "max": 20000}}, token=PITBOSS_TOKEN)
            pid = _ok(d, "POST", "/api/v1/players", {"card": "100001", "name": "Ana Lopez"}, 201, token=PITBOSS_TOKEN)["id"]
            _ok(d, "PUT", "/api/v1/tables/T1/seats/1/player", {"player": pid})
            _ok(d, "DELETE", "/api/v1/tables/T1/seats/1/player")
            _ok(d, "POST", "/api/v1/tables/T1/rounds", T1_WHOLE_B1, 201)
        except BaseException:
            d.close()
            raise

    @classmethod
    def tearDownClass(cls):
        cls.d.close()

    def seq(self, table, type_, nth=0):
        return self.d.db_rows("SELECT table_seq FROM events WHERE table_id = ? AND type = ? ORDER BY table_seq",
                              (table, type_))[nth][0]

    def altered(self, triggers, *sql):
        """pitboss verify's PROBLEM lines on a copy altered by the statements (the triggers named dropped first)."""
        def alter(conn):
            for t in triggers:
                conn.execute("DROP TRIGGER %s" % t)
            for s in sql:
                conn.execute(s)
        rc, out, err = self.d.verify_altered_copy(alter)
        self.assertEqual(rc, 1, out + err)
        self.assertEqual(out.splitlines()[-1], "FAILED: the record was altered", out)
        return [l for l in out.splitlines() if l.startswith("PROBLEM ")]

    def test_untouched_verifies(self):
        self.d.stop()
        try:
            rc, out, err = run_cli("verify", "--database", self.d.db_path)
        finally:
            self.d.start()
        self.assertEqual(rc, 0, out + err)
        self.assertEqual(out.splitlines()[-1], "OK: the record is intact", out)

    def test_table_state_altered(self):
        lines = self.altered((), "UPDATE table_state SET status = 'open' WHERE table_id = 'T2'",
                             "UPDATE table_state SET limits_json = '{\"ante\":{\"max\":20000,\"min\":100}}' "
                             "WHERE table_id = 'T3'")
        self.assertEqual(lines, [
            "PROBLEM table T2: its stored state says open, its last event (%d) closed it" % self.seq("T2", "table_closed"),
            "PROBLEM table T3: its stored limits are {\"ante\":{\"max\":20000,\"min\":100}}, its last event (%d, "
            "limits_changed) set {\"ante\":{\"max\":20000,\"min\":1000}}" % self.seq("T3", "limits_changed")])

    def test_dealer_changes_row_deleted(self):
        at = self.d.db_value("SELECT at FROM dealer_changes WHERE person_id = 'E1027'")
        lines = self.altered(("dealer_changes_no_delete",), "DELETE FROM dealer_changes WHERE person_id = 'E1027'")
        self.assertEqual(len(lines), 1, lines)
        self.assertTrue(lines[0].startswith(
            "PROBLEM table T1: event %d (dealer_changed): no dealer_changes row is the change it records, E1027 (Ana "
            "Ruiz) at %s by demo-pitboss; the table's next row" % (self.seq("T1", "dealer_changed"), at)), lines)

    def test_seat_changes_row_changed(self):
        lines = self.altered(("seat_changes_no_update",),
                             "UPDATE seat_changes SET seat = 2 WHERE id = (SELECT max(id) FROM seat_changes)")
        self.assertEqual(len(lines), 1, lines)
        self.assertRegex(lines[0], r"^PROBLEM .*: the seat_changes rows differ from what their events record: a row "
                                   r"was altered, added or removed")


class Checkpoints(TamperCase):

    def test_forged_signature(self):
        conn = self.db()
        cid, cseq, sig = conn.execute("SELECT id, table_seq, signature FROM checkpoints WHERE table_id = 'T1' "
                                      "ORDER BY id DESC").fetchone()
        conn.close()
        forged = ("0" if sig[0] != "0" else "1") + sig[1:]
        self.tamper(lambda c: c.execute("UPDATE checkpoints SET signature = ? WHERE id = ?", (forged, cid)),
                    drop=("checkpoints",))
        want = "checkpoint %d (T1 at event %d): the signature does not verify" % (cid, cseq)
        lines, out = self.verify()
        self.assertEqual(lines, ["PROBLEM table T1: " + want], out)
        self.start()
        self.integrity("T1", [want], event=cseq)
        self.assert_hold("T1", ["signature does not verify"])
        self.stop()

    def test_rewrite_resigned_without_the_key(self):
        # the chain rewritten consistently and the checkpoints' heads updated to match: the signatures give it away
        rid = self.r["t1_whole"]
        conn = self.db()
        seq = self.t1_whole_events(conn)["cards_dealt"]
        conn.close()

        def fn(c):
            body = c.execute("SELECT body FROM events WHERE table_id = 'T1' AND table_seq = ?", (seq,)).fetchone()[0]
            c.execute("UPDATE events SET body = ? WHERE table_id = 'T1' AND table_seq = ?",
                      (body.replace('["2c","3d","4h"]', '["2c","3d","4s"]'), seq))
            c.execute("UPDATE hands SET cards = '2c3d4s' WHERE round_id = ? AND seat = 3", (rid,))
            rehash_chain(c, "T1", seq)
            for cid, cseq in c.execute("SELECT id, table_seq FROM checkpoints WHERE table_id = 'T1'").fetchall():
                c.execute("UPDATE checkpoints SET head_hash = (SELECT hash FROM events WHERE table_id = 'T1' AND "
                          "table_seq = ?) WHERE id = ?", (cseq, cid))
        self.tamper(fn, drop=("events", "hands", "checkpoints"))
        lines, out = self.verify()
        self.assertEqual(len(lines), 2, out)
        for l in lines:
            self.assertRegex(l, r"^PROBLEM table T1: checkpoint \d+ \(T1 at event \d+\): the signature does not verify$")

    def test_public_key_of_another_signer(self):
        other = secrets.token_hex(32)
        # a wrong key has its own verdict and exit status 3 (issue 14), not "the record was altered"
        rc, out, err = run_cli("verify", "--database", self.d.db_path, "--public-key", other)
        self.assertEqual(rc, 3, out + err)
        self.assertIn("signed by another key", out.splitlines()[-1])
        lines = [l for l in out.splitlines() if l.startswith("PROBLEM ")]
        conn = self.db()
        cps = conn.execute("SELECT id, table_id FROM checkpoints ORDER BY id").fetchall()
        conn.close()
        self.assertEqual(len(lines), len(cps), out)
        for cid, table in cps:
            self.assert_line(lines, "PROBLEM table %s: " % table, "checkpoint %d: signed by key %s..., not the expected key %s..."
                             % (cid, G["public_key"][:16], other[:16]))
        self.verify("--public-key", G["public_key"], expect_rc=0)

    def test_checkpoints_listed_with_the_key(self):
        self.start()
        js = self.get("/api/v1/checkpoints", token=DEALER)
        self.assertEqual(js["public_key"], G["public_key"])
        self.assertEqual(js["message_format"], "pitboss-checkpoint-v1\\n{table}\\n{table_seq}\\n{head_hash}\\n{at}")
        conn = self.db()
        heads = {(t, s): h for t, s, h in conn.execute("SELECT table_id, table_seq, hash FROM events")}
        conn.close()
        self.assertGreaterEqual(len(js["checkpoints"]), 7)
        for c in js["checkpoints"]:
            self.assertEqual(c["public_key"], G["public_key"])
            self.assertEqual(heads[(c["table"], c["table_seq"])], c["head_hash"])
            self.assertRegex(c["signature"], r"^[0-9a-f]{128}$")
        self.stop()


class SignificantEvents(TamperCase):

    def test_significant_event_edited(self):
        conn = self.db()
        sid, detail = conn.execute("SELECT id, detail FROM significant_events WHERE code = 'round_voided' "
                                   "ORDER BY id").fetchone()
        conn.close()
        self.assertIn("misdeal: exposed card", detail)
        self.tamper(lambda c: c.execute("UPDATE significant_events SET detail = ? WHERE id = ?",
                                        (detail.replace("misdeal: exposed card", "shuffle machine fault"), sid)),
                    drop=("significant_events",))
        want = "significant event %d: its hash does not match its content (the entry was edited)" % sid
        lines, out = self.verify()
        self.assertEqual(len(lines), 1, out)
        self.assertIn(want, lines[0])
        self.start()
        js = self.get("/api/v1/integrity")
        self.assertIs(js["ok"], False)
        self.assertTrue([p for p in js["problems"] if want in p["problem"]], json.dumps(js["problems"]))
        self.stop()
        lines, out = self.verify()
        self.assertIn(want, lines[0])

    def test_significant_event_deleted(self):
        conn = self.db()
        ids = [r[0] for r in conn.execute("SELECT id FROM significant_events ORDER BY id")]
        conn.close()
        victim = ids[1]
        self.tamper(lambda c: c.execute("DELETE FROM significant_events WHERE id = ?", (victim,)),
                    drop=("significant_events",))
        want = "significant event %d: its prev_hash does not match the entry before it" % ids[2]
        lines, out = self.verify()
        self.assertEqual(len(lines), 1, out)
        self.assertIn(want, lines[0])
        self.start()
        js = self.get("/api/v1/integrity")
        self.assertIs(js["ok"], False)
        self.assertTrue([p for p in js["problems"] if want in p["problem"]], json.dumps(js["problems"]))
        self.stop()


if __name__ == "__main__":
    pbtest.main()
