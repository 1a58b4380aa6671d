"""
Backups, restores and the read-only tools through the real daemon and the
real `pitboss` (docs/operations.md "Backups", "Restore", "Upgrades and
rollback"; man/pitboss.1):

- POST /api/v1/backups: refuses unknown fields, writes a 0600 copy and its
  .public-key, keeps `backup_keep` copies, sets
  pitboss_last_backup_timestamp_seconds;
- `pitboss backup`: a copy taken while rounds are written at full rate
  finishes and verifies; a missing source is refused and not created; an
  existing target is not replaced; a killed backup leaves nothing at the
  target's name; --key-to copies the signing key 0600;
- a copy restored without its signing key: the tables go on hold, GET
  /integrity and `pitboss verify` say so, `verify --public-key OLD` checks
  the copy, an acknowledgement lifts the hold;
- `pitboss verify` and `replay` never write: an older schema is read and the
  file stays byte-identical; `pitboss backup` copies an older schema as it is
  and does not migrate it; only pitbossd migrates, and logs "migrated from
  schema N to M";
- the command line: --help of every command (with the exit statuses),
  --version, verify of an unknown table, a wrong public key, replay's money
  and collections.
"""
import glob
import hashlib
import json
import os
import shutil
import signal
import sqlite3
import stat
import subprocess
import tempfile
import threading
import time
import unittest

import pbtest
from pbtest import ADMIN, AUDITOR, DEALER, PITBOSS, PITBOSS_TOKEN

T1_WHOLE = {
    "bets": {"1": {"ante": 2500, "pair_plus": 500}, "3": {"ante": 1000, "six_card": 500}},
    "hands": {"1": ["As", "Ks", "Qs"], "3": ["2c", "3d", "4h"]},
    "dealer": ["Qd", "7c", "2h"],
    "decisions": {"1": "play", "3": "fold"}}
P1_WHOLE = {
    "banker": {"seat": 3, "bank": 50000},
    "bets": {"4": {"ante": 1000}, "1": {"ante": 2000}, "2": {"ante": 500, "pair_plus": 500}},
    "hands": {"4": ["9h", "9c", "5d"], "1": ["Jd", "8s", "4h"], "2": ["3c", "6d", "Ts"]},
    "dealer": ["Qd", "7c", "2h"],
    "decisions": {"4": "play", "1": "play", "2": "fold"}}


def run(*args, timeout=120):
    """Runs pitboss ARGS; returns (exit status, stdout, stderr)."""
    p = subprocess.run([PITBOSS] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def file_hash(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def schema_db(path, version):
    """A pitboss database at schema `version`, made from schema/NNN_*.sql by plain SQLite, in WAL mode."""
    files = sorted(glob.glob(os.path.join(pbtest.SOURCE_DIR, "schema", "[0-9][0-9][0-9]_*.sql")))[:version]
    c = sqlite3.connect(path, isolation_level=None)
    c.execute("PRAGMA journal_mode = WAL")
    for i, f in enumerate(files, 1):
        with open(f) as fh:
            c.executescript("BEGIN;" + fh.read() + ";PRAGMA user_version = %d;COMMIT;" % i)
    c.close()


class DaemonBackups(pbtest.DaemonTestCase):
    """POST /api/v1/backups and pitboss backup against one running daemon."""

    # on the test clock: a backup's name is the daemon's time to the millisecond, moved on between two backups
    daemon_kwargs = {"clock": True, "overrides": {"backup_keep": 2}}

    def test_post_refuses_unknown_fields(self):
        self.refused(400, "unknown_field", "POST", "/api/v1/backups", {"to": "/tmp/x.db"}, token=ADMIN)
        self.refused(400, "malformed_json", "POST", "/api/v1/backups", [1], token=ADMIN)

    def test_post_writes_copy_key_and_rotates(self):
        self.whole("T1", T1_WHOLE)
        pub = self.ok("GET", "/api/v1/checkpoints", token=AUDITOR)["public_key"]
        made = []
        for _ in range(4):
            js = self.ok("POST", "/api/v1/backups", {}, status=201, token=ADMIN)
            made.append(js["path"])
            self.assertEqual(js["public_key"], pub)
            self.assertEqual(mode(js["path"]), 0o600)
            with open(js["path"] + ".public-key") as f:
                self.assertEqual(f.read().strip(), pub)
            self.d.advance_clock(1)
        bdir = os.path.dirname(made[0])
        left = sorted(n for n in os.listdir(bdir) if n.endswith(".db"))
        self.assertEqual(left, sorted(os.path.basename(p) for p in made[-2:]), "backup_keep 2 keeps the newest two")
        self.assertFalse(os.path.exists(made[0] + ".public-key"))
        self.assertFalse([n for n in os.listdir(bdir) if ".partial-" in n])
        st, out, err = run("verify", "--database", made[-1], "--public-key", pub)
        self.assertEqual(st, 0, out + err)
        st, _, raw = self.d.request("GET", "/metrics", token=None)
        text = raw.decode()
        line = [l for l in text.splitlines() if l.startswith("pitboss_last_backup_timestamp_seconds ")]
        self.assertEqual(len(line), 1, text[-500:])
        self.assertLess(abs(int(line[0].split()[1]) - self.d.clock_ms() / 1000), 120)

    def test_cli_backup_under_full_write_load(self):
        stop = threading.Event()
        dealt = [0]

        def deal():
            while not stop.is_set():
                st, _ = self.d.call("POST", "/api/v1/tables/T1/rounds", T1_WHOLE)
                if st == 201:
                    dealt[0] += 1

        workers = [threading.Thread(target=deal) for _ in range(3)]
        for w in workers:
            w.start()
        try:
            pbtest.wait_until("the dealers deal", lambda: dealt[0] > 0)
            to = os.path.join(self.d.tmpdir, "live-copy.db")
            key_to = os.path.join(self.d.tmpdir, "offline", "signing-key")
            os.makedirs(os.path.dirname(key_to))
            started = dealt[0]
            t0 = time.monotonic()
            st, out, err = run("backup", "--database", self.d.db_path, "--to", to, "--key-to", key_to)
            took = time.monotonic() - t0
            self.assertEqual(st, 0, out + err)
            pbtest.wait_until("rounds dealt since the copy began", lambda: dealt[0] > started)
        finally:
            stop.set()
            for w in workers:
                w.join()
        self.assertGreater(dealt[0], started, "rounds were dealt while the copy was made")
        self.assertLess(took, 30)
        self.assertEqual(mode(to), 0o600)
        self.assertEqual(mode(key_to), 0o600)
        with open(self.d.db_path + ".signing-key") as a, open(key_to) as b:
            self.assertEqual(a.read(), b.read())
        pub = self.ok("GET", "/api/v1/checkpoints", token=AUDITOR)["public_key"]
        with open(to + ".public-key") as f:
            self.assertEqual(f.read().strip(), pub)
        self.assertFalse(os.path.exists(to + "-wal"), "the copy is one file")
        st, out, err = run("verify", "--database", to)
        self.assertEqual(st, 0, out + err)
        self.assertIn("OK: the record is intact", out)
        codes = [e["code"] for e in self.ok("GET", "/api/v1/events?limit=1000", token=AUDITOR)["events"]]
        self.assertIn("backup", codes)

    def test_cli_backup_refuses_missing_source_and_existing_target(self):
        missing = os.path.join(self.d.tmpdir, "var", "nonexist.db")
        to = os.path.join(self.d.tmpdir, "x.db")
        st, out, err = run("backup", "--database", missing, "--to", to)
        self.assertEqual(st, 1, out + err)
        self.assertNotIn("backed up", out)
        self.assertFalse(os.path.exists(missing))
        self.assertFalse(os.path.exists(to))
        with open(to, "w") as f:
            f.write("keep me")
        st, out, err = run("backup", "--database", self.d.db_path, "--to", to)
        self.assertEqual(st, 1, out + err)
        self.assertIn("already exists", err)
        with open(to) as f:
            self.assertEqual(f.read(), "keep me")


class KilledBackup(unittest.TestCase):
    """A backup killed part way leaves nothing at the target's name."""

    def test_killed_backup_leaves_no_target(self):
        tmp = tempfile.mkdtemp(prefix="pbtest-kill-")
        try:
            db = os.path.join(tmp, "big.db")
            schema_db(db, len(glob.glob(os.path.join(pbtest.SOURCE_DIR, "schema", "[0-9]*.sql"))))
            c = sqlite3.connect(db, isolation_level=None)
            c.execute("CREATE TABLE filler (b BLOB)")
            c.execute("BEGIN")
            for _ in range(400):
                c.execute("INSERT INTO filler VALUES (randomblob(262144))")
            c.execute("COMMIT")
            c.close()
            killed_before_done = 0
            size = os.path.getsize(db)
            # killed as soon as the copy has begun, then a quarter, half and three quarters of the way
            for i, share in enumerate((0, 0.25, 0.5, 0.75)):
                to = os.path.join(tmp, "copy%d.db" % i)
                p = subprocess.Popen([PITBOSS, "backup", "--database", db, "--to", to],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                partial = "%s.partial-%d" % (to, p.pid)

                def copied():
                    try:
                        return os.path.getsize(partial) >= share * size
                    except FileNotFoundError:
                        return False
                pbtest.wait_until("the copy %s is %d%% written" % (partial, share * 100),
                                  lambda: copied() or p.poll() is not None, timeout=120, every=0.002)
                p.send_signal(signal.SIGKILL)
                p.wait()
                if not os.path.exists(to):
                    killed_before_done += 1
                    partial = [p for p in glob.glob(to + ".partial-*") if not p.endswith(("-journal", "-wal", "-shm"))]
                    self.assertLessEqual(len(partial), 1, partial)
                else:   # it had finished: the file at the name is the whole copy
                    c = sqlite3.connect("file:%s?mode=ro" % to, uri=True)
                    self.assertEqual(c.execute("SELECT count(*) FROM filler").fetchone()[0], 400)
                    c.close()
            self.assertGreater(killed_before_done, 0, "no kill landed before the copy was done; make the file bigger")
        finally:
            shutil.rmtree(tmp)


class ReadOnlyTools(unittest.TestCase):
    """verify and replay never write; backup copies an older schema as it is."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="pbtest-ro-")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_verify_reads_schema_7_without_writing(self):
        db = os.path.join(self.tmp, "old.db")
        schema_db(db, 7)
        before = file_hash(db)
        st, out, err = run("verify", "--database", db)
        self.assertEqual(st, 0, out + err)
        self.assertIn("schema 7", err)
        self.assertIn("OK: the record is intact", out)
        st, out, err = run("replay", "--database", db, "1")
        self.assertEqual(st, 1, out + err)
        self.assertEqual(file_hash(db), before, "verify and replay left the file byte-identical")
        c = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
        self.assertEqual(c.execute("PRAGMA user_version").fetchone()[0], 7)
        c.close()

    def test_backup_copies_an_older_schema_as_it_is(self):
        db = os.path.join(self.tmp, "old.db")
        schema_db(db, 7)
        before = file_hash(db)
        to = os.path.join(self.tmp, "copy.db")
        st, out, err = run("backup", "--database", db, "--to", to)
        self.assertEqual(st, 0, out + err)
        self.assertIn("not recorded", err)
        self.assertEqual(file_hash(db), before, "the source was not migrated")
        c = sqlite3.connect("file:%s?mode=ro" % to, uri=True)
        self.assertEqual(c.execute("PRAGMA user_version").fetchone()[0], 7)
        self.assertEqual(c.execute("SELECT count(*) FROM significant_events").fetchone()[0], 0)
        c.close()

    def test_verify_refuses_what_is_not_a_database(self):
        st, out, err = run("verify", "--database", os.path.join(self.tmp, "none.db"))
        self.assertEqual(st, 1, out + err)
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "none.db")))
        empty = os.path.join(self.tmp, "empty.db")
        open(empty, "w").close()
        st, out, err = run("verify", "--database", empty)
        self.assertEqual(st, 1, out + err)
        self.assertIn("not a pitboss database", err)


class OnlyTheDaemonMigrates(unittest.TestCase):

    def test_daemon_logs_the_migration(self):
        d = pbtest.Daemon()
        try:
            schema_db(d.db_path, 7)
            d.start()
            d.stop()
            self.assertIn("migrated from schema 7 to %d" % len(glob.glob(os.path.join(pbtest.SOURCE_DIR, "schema", "[0-9]*.sql"))),
                          d.full_log())
        finally:
            d.close()


class CommandLine(unittest.TestCase):

    def test_help_of_every_command(self):
        for cmd in ("analyze", "simulate", "verify", "replay", "token", "backup", "person", "central", "event-types"):
            st, out, err = run(cmd, "--help")
            self.assertEqual(st, 0, "%s --help: %s%s" % (cmd, out, err))
            self.assertIn("usage: pitboss " + cmd, out)
            if cmd in ("verify", "replay", "token", "backup", "person", "central", "event-types"):
                self.assertIn("exit status", out, cmd)
        st, out, err = run("--help")
        self.assertEqual(st, 0)
        self.assertIn("exit status", out)

    def test_version(self):
        st, out, err = run("--version")
        self.assertEqual(st, 0, err)
        self.assertRegex(out, r"^pitboss \d+\.\d+")


class RestoreAndVerify(unittest.TestCase):
    """A database dealt on, stopped (a checkpoint at stop), copied, and restored with and without its key."""

    @classmethod
    def setUpClass(cls):
        cls.d = pbtest.Daemon()
        cls.d.start()
        t = pbtest.DaemonTestCase
        st, js = cls.d.call("POST", "/api/v1/tables/T1/rounds", T1_WHOLE)
        assert st == 201, js
        cls.t1_round = js["round"]["id"]
        st, js = cls.d.call("POST", "/api/v1/tables/P1/rounds", P1_WHOLE)
        assert st == 201, js
        cls.p1_round = js["round"]["id"]
        st, js = cls.d.call("GET", "/api/v1/checkpoints", token=AUDITOR)
        cls.pub = js["public_key"]
        cls.d.stop()
        cls.copy = os.path.join(cls.d.tmpdir, "copy.db")
        rc, out, err = run("backup", "--database", cls.d.db_path, "--to", cls.copy)
        assert rc == 0, out + err

    @classmethod
    def tearDownClass(cls):
        cls.d.close()

    def test_verify_unknown_table(self):
        st, out, err = run("verify", "--database", self.copy, "--table", "T9")
        self.assertEqual(st, 2, out + err)
        self.assertIn('no table "T9"', err)
        self.assertNotIn("OK", out)

    def test_verify_wrong_public_key(self):
        st, out, err = run("verify", "--database", self.copy, "--public-key", "ab" * 32)
        self.assertEqual(st, 3, out + err)
        self.assertIn("signed by another key", out)
        self.assertNotIn("altered", out)
        st, out, err = run("verify", "--database", self.copy, "--public-key", "xyz")
        self.assertEqual(st, 2, out + err)
        with open(self.copy + ".public-key") as f:
            st, out, err = run("verify", "--database", self.copy, "--public-key", f.read().strip())
        self.assertEqual(st, 0, out + err)

    def test_replay_money_and_collections(self):
        st, out, err = run("replay", "--database", self.copy, str(self.t1_round))
        self.assertEqual(st, 0, out + err)
        self.assertIn("ante 25.00, pair plus 5.00, six card 0.00", out)
        st, out, err = run("replay", "--database", self.copy, str(self.p1_round))
        self.assertEqual(st, 0, out + err)
        self.assertIn("Collections:", out)
        self.assertRegex(out, r"total\s+\d+\.\d\d")

    def test_restore_without_the_key(self):
        tmp = tempfile.mkdtemp(prefix="pbtest-restore-")
        try:
            d = pbtest.Daemon(tmpdir=tmp)
            shutil.copy(self.copy, d.db_path)     # the database restored, its key not
            d.start()
            try:
                js = d.call("GET", "/api/v1/integrity", token=AUDITOR)[1]
                self.assertFalse(js["ok"], "a table on hold is not ok")
                self.assertEqual(js["problems"], [])
                held = sorted(h["table"] for h in js["holds"])
                self.assertIn("T1", held)
                self.assertNotEqual(d.call("GET", "/api/v1/checkpoints", token=AUDITOR)[1]["public_key"], self.pub)
                d.stop(allow_errors=True)
                st, out, err = run("verify", "--database", d.db_path)
                self.assertEqual(st, 1, out + err)
                self.assertIn("HOLD table T1", out)
                self.assertIn("on integrity hold", out)
                d.start()
                for t in held:
                    st, js = d.call("POST", "/api/v1/tables/%s/acknowledge" % t,
                                    {"note": "restored from backup without its key; verified with the old key"},
                                    token=PITBOSS_TOKEN)
                    self.assertEqual(st, 200, js)
                js = d.call("GET", "/api/v1/integrity", token=AUDITOR)[1]
                self.assertTrue(js["ok"], js)
                self.assertEqual(js["holds"], [])
            finally:
                if d.running:
                    d.stop(allow_errors=True)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)




class ScheduledBackups(pbtest.DaemonTestCase):
    """backup_every_seconds: pitbossd copies the database itself, rotated, recorded, and stops cleanly."""

    daemon_kwargs = {"overrides": {"backup_every_seconds": 1, "backup_keep": 2}}

    def test_copies_on_schedule(self):
        self.whole("T1", T1_WHOLE)
        bdir = os.path.join(os.path.dirname(self.d.db_path), "backups")

        def three_copies():
            evs = [e for e in self.ok("GET", "/api/v1/events?limit=1000", token=AUDITOR)["events"] if e["code"] == "backup"]
            return evs if len(evs) >= 3 else None
        # The schedule runs on the real clock (a thread's timed wait): three copies at one a second, given time.
        events = pbtest.wait_until("three scheduled copies at one a second", three_copies, timeout=60)
        self.assertEqual({e["source"] for e in events}, {"pitbossd-schedule"})
        copies = sorted(n for n in os.listdir(bdir) if n.endswith(".db"))
        self.assertLessEqual(len(copies), 2, "backup_keep 2: %s" % copies)
        self.assertGreaterEqual(len(copies), 1)
        newest = os.path.join(bdir, copies[-1])
        self.assertEqual(mode(newest), 0o600)
        with open(newest + ".public-key") as f:
            pub = f.read().strip()
        self.assertEqual(pub, self.ok("GET", "/api/v1/checkpoints", token=AUDITOR)["public_key"])
        st, out, err = run("verify", "--database", newest, "--public-key", pub)
        self.assertEqual(st, 0, out + err)
        self.assertIn("backups every 1 s into", self.d.run_log())
        self.assertIn("scheduled backup: ", self.d.run_log())
        self.d.stop()
        self.assertIn("stopped cleanly", self.d.run_log())

if __name__ == "__main__":
    pbtest.main()
