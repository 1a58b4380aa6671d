"""
test_service.py - pitbossd as a service: its version (--version, the start-up
log, /metrics), one daemon per database and per address, the files it creates
readable by its own user only, `pitbossd -t`'s checks of the database's
directory and of the page, and the test clock the other tests run on.
"""
import calendar
import os
import re
import shutil
import socket
import stat
import subprocess
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pbtest  # noqa: E402


def run(args, **kw):
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60, **kw)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


class Version(unittest.TestCase):
    def test_version_everywhere(self):
        rc, out, _ = run([pbtest.PITBOSSD, "--version"])
        self.assertEqual(rc, 0)
        # A build with the test clock says so on a second line (tests/package checks the package's has none).
        m = re.match(r"^pitbossd (\d+\.\d+\.\d+)( \(git ([0-9a-f]+)\))?\n"
                     r"(built with the test clock \(PITBOSS_TEST_CLOCK\): for tests, never for production\n)?$", out)
        self.assertIsNotNone(m, out)
        version, commit = m.group(1), m.group(3) or ""
        rc, out, _ = run([pbtest.PITBOSSD, "--help"])
        self.assertEqual(rc, 0)
        self.assertIn("--version", out)
        self.assertIn("exit status", out)
        with pbtest.Daemon() as d:
            d.start()
            self.assertIn("pitbossd %s" % version, d.run_log())
            st, _, raw = d.request("GET", "/metrics", token=None)
            self.assertEqual(st, 200)
            self.assertIn('pitboss_build_info{version="%s",commit="%s"} 1' % (version, commit), raw.decode())
            d.stop()


class TestClock(unittest.TestCase):
    """The test clock (docs/reliability.md): the offset the tests write moves every time the daemon keeps and
    sends at once, said loudly in the log; a clock file that cannot be used stops the daemon from starting."""

    def test_offset_moves_recorded_times_and_the_date_header(self):
        body = {"bets": {"1": {"ante": 1000}}, "hands": {"1": ["As", "Ks", "Qs"]}, "dealer": ["2c", "7d", "9h"],
                "decisions": {"1": "play"}}
        with pbtest.Daemon(clock=True) as d:
            d.start()
            self.assertIn("pitbossd warning: TEST CLOCK IN USE (PITBOSS_TEST_CLOCK=%s)" % d.clock_path, d.run_log())
            first = self.opened_at(d, body)
            self.assertLess(abs(first - time.time()), 60)
            d.advance_clock(3 * 86400 + 0.5)
            self.assertEqual(pbtest.pbclock.read(d.clock_path), 3 * 86400000 + 500)
            second = self.opened_at(d, body)
            self.assertGreaterEqual(second - first, 3 * 86400)
            self.assertLess(second - first, 3 * 86400 + 60)
            st, hdrs, _ = d.request("GET", "/api/v1/health", token=None)
            date = calendar.timegm(time.strptime(hdrs["date"], "%a, %d %b %Y %H:%M:%S GMT"))
            self.assertLess(abs(date - d.clock_ms() / 1000), 60, hdrs["date"])
            # Kept over a restart: the file is the clock.
            d.restart()
            self.assertGreaterEqual(self.opened_at(d, body) - first, 3 * 86400)
            d.stop()

    def opened_at(self, d, body):
        st, js = d.call("POST", "/api/v1/tables/T1/rounds", body)
        self.assertEqual(st, 201, js)
        return calendar.timegm(time.strptime(js["round"]["opened_at"][:19], "%Y-%m-%dT%H:%M:%S"))

    def test_unusable_clock_file_is_refused(self):
        with pbtest.Daemon() as d:
            missing = os.path.join(d.tmpdir, "no-clock")
            rc, text = d.run_expect_failure(extra_env={"PITBOSS_TEST_CLOCK": missing})
            self.assertEqual(rc, 1, text)
            self.assertIn("cannot open the test clock %s" % missing, text)
            short = os.path.join(d.tmpdir, "short-clock")
            with open(short, "wb") as f:
                f.write(b"\0\0\0")
            rc, text = d.run_expect_failure(extra_env={"PITBOSS_TEST_CLOCK": short})
            self.assertEqual(rc, 1, text)
            self.assertIn("is not a file of 8 bytes", text)
            self.assertFalse(os.path.exists(d.db_path), "a daemon refused for its clock created its database")


class OneInstance(unittest.TestCase):
    def test_second_daemon_on_the_same_database_is_refused(self):
        with pbtest.Daemon() as a:
            a.start()
            b = pbtest.Daemon(tmpdir=None)
            try:
                b.config["database"] = a.db_path
                b.write_config()
                rc, text = b.run_expect_failure()
            finally:
                b.close()
            self.assertEqual(rc, 1, text)
            self.assertIn("in use by another pitbossd (pid %d)" % a.proc.pid, text)
            st, _ = a.call("GET", "/api/v1/health", token=None)
            self.assertEqual(st, 200)
            a.stop()

    def test_second_daemon_on_the_same_port_is_refused(self):
        with pbtest.Daemon() as a:
            a.start()
            b = pbtest.Daemon()
            try:
                b.config["listen"] = "127.0.0.1:%d" % a.port
                b.write_config()
                rc, text = b.run_expect_failure()
                self.assertEqual(rc, 1, text)
                self.assertIn("cannot listen on 127.0.0.1:%d: another process listens there" % a.port, text)
                # Refused before its database was touched.
                self.assertFalse(os.path.exists(b.db_path), "the refused daemon created its database")
            finally:
                b.close()
            a.stop()

    def test_port_held_by_another_program(self):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        try:
            with pbtest.Daemon() as d:
                d.config["listen"] = "127.0.0.1:%d" % s.getsockname()[1]
                d.write_config()
                rc, text = d.run_expect_failure()
                self.assertEqual(rc, 1, text)
                self.assertIn("another process listens there", text)
        finally:
            s.close()

    def test_restart_on_the_same_port(self):
        with pbtest.Daemon() as d:
            d.start()
            for _ in range(3):
                d.call("GET", "/api/v1/tables")
            d.restart()
            d.stop()

    def test_files_are_private_whatever_the_umask(self):
        with pbtest.Daemon() as d:
            old = os.umask(0o022)
            try:
                d.start()
            finally:
                os.umask(old)
            st, _ = d.call("POST", "/api/v1/tables/T1/rounds", {}, idem="svc-1")
            self.assertIn(st, (200, 201), _)
            for name in ("pitboss.db", "pitboss.db-wal", "pitboss.db-shm", "pitboss.db.lock", "pitboss.db.signing-key"):
                path = os.path.join(d.tmpdir, name)
                self.assertTrue(os.path.exists(path), name)
                mode = stat.S_IMODE(os.stat(path).st_mode)
                self.assertEqual(mode & 0o077, 0, "%s is %o" % (name, mode))
            d.stop()


    def test_file_group_lets_its_members_read(self):
        import grp
        group = next((g for g in ("adm", "daemon", "users", "nogroup") if g in {e.gr_name for e in grp.getgrall()}), None)
        self.assertIsNotNone(group, "a group to give the files to")
        gid = grp.getgrnam(group).gr_gid
        with pbtest.Daemon(overrides={"file_group": group}) as d:
            old = os.umask(0o077)
            try:
                d.start()
            finally:
                os.umask(old)
            st, _ = d.call("POST", "/api/v1/tables/T1/rounds", {}, idem="svc-group")
            self.assertIn(st, (200, 201), _)
            copy = d.call("POST", "/api/v1/backups", {}, token=pbtest.ADMIN)[1]["path"]
            for name in ("pitboss.db", "pitboss.db-wal", "pitboss.db-shm", "pitboss.db.lock", copy):
                path = os.path.join(d.tmpdir, name)
                st = os.stat(path)
                self.assertEqual(stat.S_IMODE(st.st_mode), 0o640, "%s is %o" % (name, stat.S_IMODE(st.st_mode)))
                self.assertEqual(st.st_gid, gid, name)
            bdir = os.stat(os.path.dirname(copy))
            self.assertEqual(stat.S_IMODE(bdir.st_mode), 0o750)
            self.assertEqual(bdir.st_gid, gid)
            key = os.stat(os.path.join(d.tmpdir, "pitboss.db.signing-key"))
            self.assertEqual(stat.S_IMODE(key.st_mode), 0o600, "the signing key is never the group's")
            d.stop()


class Ready(unittest.TestCase):
    def test_ready_health_and_holds(self):
        with pbtest.Daemon() as d:
            d.start()
            self.assertEqual(d.call("GET", "/api/v1/ready", token=None), (200, {"status": "ready"}))
            st, hdrs, _ = d.request("GET", "/api/v1/ready", token="not-a-token")
            self.assertEqual(st, 200)
            self.assertEqual(d.call("POST", "/api/v1/ready", {}, token=None)[0], 405)
            d.stop()
            conn = pbtest.sqlite3.connect(d.db_path)
            conn.execute("UPDATE table_state SET integrity_hold = 'a test hold' WHERE table_id = 'T1'")
            conn.commit()
            conn.close()
            d.start()
            # Liveness is not readiness: health stays ok.
            self.assertEqual(d.call("GET", "/api/v1/health", token=None), (200, {"status": "ok"}))
            st, js = d.call("GET", "/api/v1/ready", token=None)
            self.assertEqual(st, 503, js)
            self.assertEqual(js["status"], "not_ready")
            self.assertEqual(len(js["reasons"]), 1, js)
            self.assertIn("table T1 is on integrity hold (a test hold)", js["reasons"][0])
            st, js = d.call("POST", "/api/v1/tables/T1/acknowledge", {"note": "checked"}, token=pbtest.PITBOSS_TOKEN)
            self.assertEqual(st, 200, js)
            self.assertEqual(d.call("GET", "/api/v1/ready", token=None), (200, {"status": "ready"}))
            st, _, raw = d.request("GET", "/metrics", token=None)
            self.assertIn('pitboss_http_requests_total{route="ready",status="5xx"} 1', raw.decode())
            d.stop()

    def test_probe_at_most_once_a_second(self):
        def jobs(d):
            raw = d.request("GET", "/metrics", token=None)[2].decode()
            return int(re.search(r"^pitboss_write_jobs_total (\d+)$", raw, re.M).group(1))
        with pbtest.Daemon() as d:
            d.start()
            before = jobs(d)
            t0 = time.monotonic()
            for _ in range(30):
                self.assertEqual(d.call("GET", "/api/v1/ready", token=None)[0], 200)
            elapsed = time.monotonic() - t0
            self.assertLessEqual(jobs(d) - before, int(elapsed) + 2)
            d.stop()

    def test_unwritable_database(self):
        # file_modes: as root too (root writes a file of mode 0400 otherwise)
        with pbtest.Daemon(file_modes=True) as d:
            d.start()
            os.chmod(d.db_path, 0o400)
            try:
                st, js = d.call("GET", "/api/v1/ready", token=None)
            finally:
                os.chmod(d.db_path, 0o600)
            self.assertEqual(st, 503, js)
            self.assertIn("the database cannot be written", js["reasons"][0])
            d.stop()


class CheckOnly(unittest.TestCase):
    def setUp(self):
        self.d = pbtest.Daemon()

    def tearDown(self):
        self.d.close()

    def check(self, *extra, file_modes=False):
        return run([pbtest.PITBOSSD, "-t", "-c", self.d.config_path] + list(extra),
                   preexec_fn=pbtest.bound_by_file_modes if file_modes else None)

    def test_good(self):
        rc, out, err = self.check()
        self.assertEqual(rc, 0, err)
        self.assertIn("configuration ok", out)
        self.assertIn(os.path.join(pbtest.SOURCE_DIR, "web"), out)

    def test_database_directory_missing(self):
        rc, _, err = self.check("--database", os.path.join(self.d.tmpdir, "nowhere", "pitboss.db"))
        self.assertEqual(rc, 1)
        self.assertIn("database: the directory %s does not exist" % os.path.join(self.d.tmpdir, "nowhere"), err)

    def test_database_directory_not_writable(self):
        ro = os.path.join(self.d.tmpdir, "ro")
        os.mkdir(ro, 0o500)
        try:
            rc, _, err = self.check("--database", os.path.join(ro, "pitboss.db"), file_modes=True)
        finally:
            os.chmod(ro, 0o700)
        self.assertEqual(rc, 1)
        self.assertIn("database: the directory %s is not writable" % ro, err)

    def test_page_missing(self):
        empty = os.path.join(self.d.tmpdir, "web")
        os.mkdir(empty)
        self.d.config["web_root"] = empty
        self.d.write_config()
        rc, _, err = self.check()
        self.assertEqual(rc, 1)
        self.assertIn("web_root: %s has no readable index.html" % empty, err)
        self.d.config["web_root"] = os.path.join(self.d.tmpdir, "no-such-dir")
        self.d.write_config()
        rc, _, err = self.check()
        self.assertEqual(rc, 1)
        self.assertIn("web_root: the directory %s does not exist" % self.d.config["web_root"], err)

    def test_start_warns_of_a_missing_page(self):
        empty = os.path.join(self.d.tmpdir, "web")
        os.mkdir(empty)
        self.d.config["web_root"] = empty
        self.d.write_config()
        self.d.start()
        self.assertIn("has no readable index.html: the page will answer 404", self.d.run_log())
        self.d.stop()


if __name__ == "__main__":
    unittest.main()
