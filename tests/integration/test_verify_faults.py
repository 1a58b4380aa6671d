"""
Verification fails closed (docs/audit.md, "Verification fails closed"): an allocation that fails
while `pitboss verify` or GET /api/v1/integrity runs is reported as a part that could not be
checked, never taken as a part found intact, and never as an alteration.

A record with something in every part a full check reads is dealt once: rounds at a
house-banked and a player-banked table, a void, a player seated with a cash transaction, an
opener, a payout correction, two signed checkpoints per table.  A copy of it is then altered in
every one of those parts.  With the Nth allocation failing (daemon/common/faults.h, pbfaults.py):

- `pitboss verify` on the intact record exits 0 and prints OK only with exactly the output of a
  run without failure (every check made); otherwise it exits 1, every PROBLEM line says what
  could not be checked, and the verdict says the record is not vouched for.  It never crashes.
- On the altered copy it exits 1; every problem of a run without failure is printed unless the
  output says what could not be checked, and no other problem is (a failed allocation is never
  called an alteration).
- The same with --json, and with --table/--from.
- GET /api/v1/integrity: "ok": true only with exactly the answer of a request without failure;
  otherwise "ok": false with problems marked "unchecked" (no hold for them), or 500
  out_of_memory, or no answer at all.  Afterwards the daemon answers "ok": true again.

Which allocations fail: in `make check` a sample (the first and last allocations of a run every
time, then evenly spaced ones; with SQLite's counted too, more sparsely), about half a minute in all.
PB_FAULTS_EXHAUSTIVE=1 makes every one of pitboss's and jansson's allocations fail in turn, and
every 25th counting SQLite's: half an hour or more (docs/reliability.md).

Also: the numeric arguments of `pitboss verify` and `pitboss replay` are read strictly (a usage
error, exit 2, for "abc", "-1", "1x").
"""
import http.client
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
import pbfaults  # noqa: E402
import pbtest  # noqa: E402
from pbtest import AUDITOR, DEALER  # noqa: E402
from test_accounting import PASSWORD, witness  # noqa: E402
from test_tamper import P1_WHOLE, T1_WHOLE, T3_WHOLE  # noqa: E402

EXHAUSTIVE = os.environ.get("PB_FAULTS_EXHAUSTIVE") == "1"
PEOPLE = (("FL1", "Flo Floor", "floor"), ("PB1", "Pat Boss", "pitboss"), ("DL1", "Dee Dealer", "dealer"),
          ("CG1", "Cy Cage", "cage"))
G = {}     # "dir", "intact", "altered", "rounds"

# The words that say a part could not be checked (table/audit/verify.c), as the CLI prints them.
UNCHECKED = ("could not be checked", "cannot be read")


def ok(d, method, path, body=None, status=200, token=DEALER):
    st, js = d.call(method, path, body, token=token)
    if st != status:
        raise AssertionError("%s %s -> %d %s (wanted %d)" % (method, path, st, json.dumps(js), status))
    return js


def deal_record(d):
    """Everything a full check reads, dealt through the API (people, seats, documents, rounds, a correction)."""
    d.stop()
    for pid, name, role in PEOPLE:
        pbtest.add_person(d, pid, name, role, PASSWORD % pid, cheap=True)
    d.start()
    tok = {pid: ok(d, "POST", "/api/v1/sessions", {"person": pid, "password": PASSWORD % pid}, 201, None)["token"]
           for pid, _, _ in PEOPLE}
    ok(d, "POST", "/api/v1/players", {"card": "100001", "name": "Ana Lopez"}, 201, tok["CG1"])
    ok(d, "PUT", "/api/v1/tables/T1/seats/1/player", {"player": "P1"}, token=tok["FL1"])
    ok(d, "POST", "/api/v1/tables/T1/transactions", {"seat": 1, "player": "P1", "direction": "in", "kind": "cash",
                                                     "amount": 50000}, 201, tok["FL1"])
    ok(d, "POST", "/api/v1/tables/T1/inventory", {"kind": "opener", "chips": {"2500": 40}, "witness": witness("DL1")},
       201, tok["FL1"])
    rounds = {"t1": ok(d, "POST", "/api/v1/tables/T1/rounds", T1_WHOLE, 201)["round"]["id"],
              "p1": ok(d, "POST", "/api/v1/tables/P1/rounds", P1_WHOLE, 201)["round"]["id"],
              "t3": ok(d, "POST", "/api/v1/tables/T3/rounds", T3_WHOLE, 201)["round"]["id"]}
    rid = ok(d, "POST", "/api/v1/tables/T2/rounds", {}, 201)["round"]["id"]
    ok(d, "PUT", "/api/v1/rounds/%d/bets/3" % rid, {"ante": 1000})
    ok(d, "POST", "/api/v1/rounds/%d/void" % rid, {"reason": "dealer change"})
    ok(d, "POST", "/api/v1/rounds/%d/corrections" % rounds["t1"], {"seat": 1, "wager": "pair_plus", "paid": 2000,
       "reason": "paid 4 to 1", "witness": witness("FL1")}, 201, tok["PB1"])
    d.stop()                           # a checkpoint of every chain that moved
    d.start()
    rounds["t1_b"] = ok(d, "POST", "/api/v1/tables/T1/rounds", T1_WHOLE, 201)["round"]["id"]
    d.stop()
    return rounds


def drop_triggers(conn, table):
    for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?", (table,)).fetchall():
        conn.execute("DROP TRIGGER %s" % name)


def alter(path, rounds):
    """Alters the copy at path in every part a full check reads, as one holding the file would."""
    conn = sqlite3.connect(path)
    conn.isolation_level = None
    conn.execute("BEGIN IMMEDIATE")
    for t in ("payouts", "collections", "acct_documents", "players", "corrections", "events", "significant_events"):
        drop_triggers(conn, t)
    conn.execute("UPDATE payouts SET net = net + 100 WHERE round_id = ? AND seq = 1", (rounds["t1"],))
    conn.execute("INSERT INTO collections (round_id, seat, fee) VALUES (?, 3, 500)", (rounds["p1"],))
    conn.execute("UPDATE acct_documents SET total = total + 2500")
    conn.execute("UPDATE players SET name = 'Someone Else'")
    conn.execute("UPDATE corrections SET paid = paid + 1")
    conn.execute("UPDATE report_hours SET win_ante = win_ante + 100 WHERE table_id = 'T3'")
    conn.execute("UPDATE events SET body = replace(body, '\"ante\":1000', '\"ante\":9000') "
                 "WHERE round_id = ? AND type = 'bet_placed'", (rounds["t3"],))
    conn.execute("UPDATE significant_events SET code = 'edited' WHERE id = 1")
    conn.execute("COMMIT")
    conn.close()


def setUpModule():
    G["dir"] = tempfile.mkdtemp(prefix="pbfaults-")
    d = pbtest.Daemon()
    try:
        d.start()
        G["rounds"] = deal_record(d)
        for name in ("intact", "altered"):
            G[name] = os.path.join(G["dir"], name + ".db")
            shutil.copy(d.db_path, G[name])
        G["key"] = d.db_path + ".signing-key"
        shutil.copy(G["key"], os.path.join(G["dir"], "signing-key"))
        alter(G["altered"], G["rounds"])
    finally:
        d.close()


def tearDownModule():
    if "dir" in G and not os.environ.get("PB_KEEP_TMP"):
        shutil.rmtree(G["dir"], ignore_errors=True)


def sanitized():
    """Whether the binaries are a sanitizer build (slower: fewer points are sampled)."""
    if "sanitized" not in G:
        out = subprocess.run(["ldd", pbtest.PITBOSS], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout
        G["sanitized"] = b"libasan" in out
    return G["sanitized"]


def sample(k, count, exhaustive_step=1, head=8, tail=20):
    """Which of the allocations 1..k fail in turn: with PB_FAULTS_EXHAUSTIVE every exhaustive_step-th, else the
    first head, the last tail (the report is built and written there) and about count evenly spaced between."""
    if EXHAUSTIVE:
        return list(range(1, k + 1, exhaustive_step))
    count = count * 2 // 3      # make check's sample (PB_FAULTS_EXHAUSTIVE is the thorough run)
    if sanitized():     # the same code paths, each point four times slower: half the points
        count //= 2
        head, tail = head // 2, tail // 2
    picks = set(range(1, min(head, k) + 1)) | set(range(max(1, k - tail + 1), k + 1))
    step = max(1, k // max(1, count))
    picks |= set(range(head + step // 2, k + 1, step))
    return sorted(picks)


class CliFailsClosed(unittest.TestCase):
    """pitboss verify with the Nth allocation failing."""

    def setUp(self):
        self.ctl = os.path.join(G["dir"], "faults-%s" % self.id().rsplit(".", 1)[-1])
        pbfaults.create(self.ctl)

    def run_verify(self, db, fail_at, library, *extra):
        pbfaults.arm(self.ctl, fail_at, library=library)
        env = dict(os.environ, **{pbfaults.ENV: self.ctl})
        env.setdefault("ASAN_OPTIONS", "abort_on_error=0:detect_leaks=1")
        p = subprocess.run([pbtest.PITBOSS, "verify", "--database", db] + list(extra), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, env=env, timeout=120)
        out, err = p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")
        rep = pbtest.sanitizer_report(out + err)
        self.assertIsNone(rep, "allocation %d: sanitizer report: %s\n%s" % (fail_at, rep, err))
        counted, failed = pbfaults.counts(self.ctl)
        return p.returncode, out, err, counted, failed

    def clean(self, db, library, *extra):
        rc, out, err, counted, failed = self.run_verify(db, 0, library, *extra)
        self.assertGreater(counted, 0, "no allocation was counted: build with -DPITBOSS_TEST_CLOCK=ON (the tests' build)")
        self.assertEqual(failed, 0)
        return rc, out, counted

    @staticmethod
    def problems(out):
        return [l for l in out.splitlines() if l.startswith("PROBLEM")]

    def judge(self, n, clean_rc, clean_out, rc, out, err):
        """The verdict of a run whose allocation n failed, against the run without failure."""
        what = "allocation %d failed: exit %d\n%s%s" % (n, rc, out, err)
        self.assertIn(rc, (0, 1), "crashed or odd exit status; " + what)
        if rc == 0 or "OK: " in out:
            self.assertEqual((rc, out), (clean_rc, clean_out), "OK without every check made; " + what)
            return
        if out == "":                    # it did not get as far as the check (the database could not be opened)
            self.assertIn("pitboss verify: ", err, what)
            return
        lines = out.splitlines()
        self.assertTrue(lines and lines[-1].startswith("FAILED: "), what)
        unchecked = [l for l in self.problems(out) if any(w in l for w in UNCHECKED)]
        for l in self.problems(out):
            self.assertTrue(l in unchecked or l in self.problems(clean_out), "a failed allocation called an alteration; " + what)
        missing = [l for l in self.problems(clean_out) if l not in self.problems(out)]
        if unchecked or missing or clean_rc == 0:
            self.assertIn("could not be checked", lines[-1], "problems lost or unchecked without saying so; " + what)
        if not self.problems(out):
            self.assertIn("pitboss verify: ", err, what)

    def sweep(self, db, library, count, *extra):
        clean_rc, clean_out, k = self.clean(db, library, *extra)
        failures = 0
        # With SQLite's counted, the first and last allocations are SQLite's opening and closing: evenly spaced only.
        for n in sample(k, count, 25, head=0, tail=0) if library else sample(k, count):
            rc, out, err, counted, failed = self.run_verify(db, n, library, *extra)
            self.assertEqual(failed, 1 if n <= counted else 0, "allocation %d of %d" % (n, counted))
            failures += failed
            self.judge(n, clean_rc, clean_out, rc, out, err)
        self.assertGreater(failures, 0)
        return clean_rc, clean_out

    def test_intact_record(self):
        clean_rc, clean_out = self.sweep(G["intact"], False, 70)
        self.assertEqual(clean_rc, 0, clean_out)
        self.assertEqual(clean_out.splitlines()[-1], "OK: the record is intact")

    def test_intact_record_sqlite_counted(self):
        self.sweep(G["intact"], True, 30)

    def test_altered_record(self):
        clean_rc, clean_out = self.sweep(G["altered"], False, 35)
        self.assertEqual(clean_rc, 1)
        probs = self.problems(clean_out)
        for want in ("the payouts table: payout line 1", "rows its events do not account for", "accounting document",
                     "the players rows differ", "correction ", "report aggregates of table T3",
                     "its hash does not match its content", "significant event 1"):
            self.assertTrue([l for l in probs if want in l], "%r not found by the check without failure:\n%s"
                            % (want, clean_out))

    def test_scoped(self):
        self.sweep(G["intact"], False, 60, "--table", "T1", "--from", str(G["rounds"]["t1"]))

    def test_json(self):
        clean_rc, clean_out, k = self.clean(G["intact"], False, "--json")
        clean = json.loads(clean_out)
        self.assertIs(clean["ok"], True)
        for n in sample(k, 15, head=0):       # the report's text is made at the end
            rc, out, err, counted, failed = self.run_verify(G["intact"], n, False, "--json")
            what = "allocation %d failed: exit %d\n%s%s" % (n, rc, out, err)
            self.assertIn(rc, (0, 1), what)
            if rc == 0:
                self.assertEqual(json.loads(out), clean, what)
                continue
            try:
                js = json.loads(out)
            except ValueError:
                self.assertIn("pitboss verify: ", err, what)      # nothing written: it says why on stderr
                continue
            self.assertIs(js["ok"], False, what)
            self.assertTrue(js["problems"], what)
            self.assertTrue(all(p.get("unchecked") is True for p in js["problems"]), what)


class NumericArguments(unittest.TestCase):
    """A round id on the command line is digits only, from 1: anything else is a usage error (exit 2)."""

    def test_refused(self):
        for bad in ("abc", "-1", "1x", "", "0", " 5", "+5", "99999999999999999999"):
            rc, out, err = pbtest.run_pitboss("verify", "--database", G["intact"], "--from", bad)
            self.assertEqual(rc, 2, "--from %r: %s%s" % (bad, out, err))
            self.assertIn("--from: expected a round id", err)
            self.assertIn('"%s"' % bad, err)
            self.assertEqual(out, "")
            rc, out, err = pbtest.run_pitboss("replay", "--database", G["intact"], bad)
            self.assertEqual(rc, 2, "replay %r: %s%s" % (bad, out, err))
            self.assertEqual(out, "")
            if bad != "-1":                  # which getopt reads as an option, refused as such
                self.assertIn('ROUND: expected a round id (a whole number from 1, digits only), got "%s"' % bad, err)

    def test_accepted(self):
        rid = G["rounds"]["t1_b"]
        rc, out, err = pbtest.run_pitboss("verify", "--database", G["intact"], "--from", str(rid))
        self.assertEqual(rc, 0, out + err)
        self.assertIn(" 1 rounds, ", out.splitlines()[0])
        rc, out, err = pbtest.run_pitboss("replay", "--database", G["intact"], str(rid))
        self.assertEqual(rc, 0, out + err)


class IntegrityFailsClosed(unittest.TestCase):
    """GET /api/v1/integrity on pitbossd with the Nth allocation of the request failing."""

    def start(self, db):
        self.d = pbtest.Daemon()
        self.addCleanup(self.d.close)
        shutil.copy(db, self.d.db_path)
        shutil.copy(os.path.join(G["dir"], "signing-key"), self.d.db_path + ".signing-key")
        os.chmod(self.d.db_path + ".signing-key", 0o600)
        self.ctl = os.path.join(self.d.tmpdir, "faults")
        pbfaults.create(self.ctl)
        os.environ[pbfaults.ENV] = self.ctl
        try:
            self.d.start()
        finally:
            del os.environ[pbfaults.ENV]
        self.assertIn("ALLOCATION FAILURES ON DEMAND", self.d.run_log())
        self.d.wait_startup_check()

    def integrity(self, fail_at, library=False):
        pbfaults.arm(self.ctl, fail_at, library=library)
        try:
            st, js = self.d.call("GET", "/api/v1/integrity", token=AUDITOR)
        except (OSError, http.client.HTTPException):
            st, js = None, None                 # the answer could not be written: the connection is closed
        counted, failed = pbfaults.counts(self.ctl)
        if js is not None:
            js.pop("startup_check", None)
        return st, js, counted, failed

    def judge(self, n, counted, failed, clean, st, js):
        """The answer of a request whose allocation n failed, against the answer without failure."""
        what = "allocation %d of %d failed: %s %s" % (n, counted, st, json.dumps(js))
        if st == 200:
            self.assertIsInstance(js, dict, "200 without a JSON answer; " + what)
        if failed == 0:
            self.assertEqual((st, js), (200, clean), what)
        elif st == 200 and js["ok"] is True:
            self.assertEqual(js, clean, "ok without every check made; " + what)
        elif st == 200:
            new = [p for p in js["problems"] if p not in clean["problems"]]
            self.assertTrue(all(p.get("unchecked") is True for p in new), "a failed allocation called an alteration; "
                            + what)
            lost = [p for p in clean["problems"] if p not in js["problems"]]
            self.assertTrue(not lost or new, "problems lost without saying so; " + what)
            self.assertEqual(js["holds"], clean["holds"], "held for a failed allocation; " + what)
        elif st is not None:
            self.assertEqual((st, js["error"]["code"]), (500, "out_of_memory"), what)

    def sweep(self, db, count):
        self.start(db)
        for _ in range(3):                       # both readers' connections opened, their statements prepared
            st, clean, k, _ = self.integrity(0)
            self.assertEqual(st, 200, clean)
        self.assertGreater(k, 0, "no allocation was counted: build with -DPITBOSS_TEST_CLOCK=ON")
        failures = 0
        for n in sample(k, count):
            st, js, counted, failed = self.integrity(n)
            failures += failed
            self.judge(n, counted, failed, clean, st, js)
        self.assertGreater(failures, 0)
        for n in sample(self.integrity(0, library=True)[2], 8, 2000, head=0, tail=0):
            st, js, counted, failed = self.integrity(n, library=True)
            self.judge(n, counted, failed, clean, st, js)
        st, js, _, _ = self.integrity(0)
        self.assertEqual((st, js), (200, clean), "the daemon's answer after the failures")
        self.d.stop(allow_errors=True)
        return clean

    def test_intact_record(self):
        clean = self.sweep(G["intact"], 35)
        self.assertIs(clean["ok"], True, clean)

    def test_altered_record(self):
        clean = self.sweep(G["altered"], 20)
        self.assertIs(clean["ok"], False)
        self.assertGreaterEqual(len(clean["problems"]), 8, clean)


if __name__ == "__main__":
    pbtest.main()
