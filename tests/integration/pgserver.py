"""
pgserver.py - a real PostgreSQL for the central tier's tests (docs/central.md):
initdb into a temporary directory, pg_ctl start on a free loopback port with
the socket directory in the same temporary directory, stopped at the end
whatever happened.  As root the server runs as the `postgres` user
(runuser), in a directory it owns.  A missing PostgreSQL is a failure with a
message saying what to install, never a silent skip.

    pg = PgServer(); pg.start()      # trust authentication, user postgres
    pg.conninfo                      # "host=127.0.0.1 port=N user=postgres dbname=postgres"
    pg.psql("SELECT 1")              # runs SQL, returns stdout
    pg.stop(); pg.start()            # the same cluster, stopped and started again
    pg.close()                       # stops and removes everything

    sb = PgServer(standby_of=pg).start()  # pg_basebackup -R -X stream: a streaming standby
    pg.stop(mode="immediate"); sb.promote()
"""
import atexit
import os
import pwd
import shutil
import subprocess
import tempfile
import unittest

import pbtest

PG_BIN = os.environ.get("PB_PG_BIN", "/usr/lib/postgresql/15/bin")
_LIVE = set()


def missing():
    """None when PostgreSQL 15 can be run here, else what is missing."""
    for tool in ("initdb", "pg_ctl", "postgres", "psql", "pg_basebackup"):
        if not os.access(os.path.join(PG_BIN, tool), os.X_OK):
            return ("PostgreSQL is not installed (no %s in %s): install postgresql-15 and libpq-dev "
                    "(tools/install-deps.sh), or set PB_PG_BIN" % (tool, PG_BIN))
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no `postgres` user to run the server as"
    return None


def _stop_all():
    for s in list(_LIVE):
        s.close()


atexit.register(_stop_all)


class PgServer:
    def __init__(self, standby_of=None, durable=False):
        why = missing()
        if why is not None:
            raise AssertionError(why)
        self.tmpdir = tempfile.mkdtemp(prefix="pbtest-pg-")
        self.data = os.path.join(self.tmpdir, "data")
        self.log = os.path.join(self.tmpdir, "server.log")
        self.port = pbtest.free_port()
        self.durable = durable          # fsync on: for measurements (tests run without it)
        self.as_user = []
        if os.geteuid() == 0:
            pw = pwd.getpwnam("postgres")
            os.chown(self.tmpdir, pw.pw_uid, pw.pw_gid)
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self.conninfo = "host=127.0.0.1 port=%d user=postgres dbname=postgres" % self.port
        if standby_of is None:
            # initdb's pg_hba.conf already lets replication connect from loopback (trust), and
            # PostgreSQL 15's defaults are wal_level=replica and max_wal_senders=10
            self._run("initdb", "-D", self.data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
        else:
            self._run("pg_basebackup", "-h", "127.0.0.1", "-p", str(standby_of.port), "-U", "postgres",
                      "-D", self.data, "-R", "-X", "stream", "--no-sync")
        _LIVE.add(self)
        self.running = False

    def _run(self, tool, *args, check=True):
        p = subprocess.run(self.as_user + [os.path.join(PG_BIN, tool)] + list(args), stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, cwd=self.tmpdir, timeout=120)
        if check and p.returncode != 0:
            raise AssertionError("%s failed (%d):\n%s" % (tool, p.returncode, p.stdout.decode(errors="replace")))
        return p

    def start(self):
        opts = "-c listen_addresses=127.0.0.1 -p %d -k %s" % (self.port, self.tmpdir)
        if not self.durable:
            opts += " -c fsync=off"
        self._run("pg_ctl", "-D", self.data, "-l", self.log, "-o", opts, "-w", "-t", "60", "start")
        self.running = True
        return self

    def stop(self, mode="fast"):
        if self.running:
            self._run("pg_ctl", "-D", self.data, "-m", mode, "-w", "-t", "60", "stop", check=False)
            self.running = False

    def promote(self):
        self._run("pg_ctl", "-D", self.data, "-w", "-t", "60", "promote")

    def psql(self, sql):
        p = subprocess.run([os.path.join(PG_BIN, "psql"), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1",
                            "-d", self.conninfo, "-c", sql], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=60)
        if p.returncode != 0:
            raise AssertionError("psql %r: %s" % (sql, p.stderr.decode(errors="replace")))
        return p.stdout.decode()

    def close(self):
        self.stop()
        _LIVE.discard(self)
        shutil.rmtree(self.tmpdir, ignore_errors=True)


run_pitboss = pbtest.run_pitboss


class CentralServerCase(unittest.TestCase):
    """One PostgreSQL server for the class, its central schema made by `pitboss central init`."""

    @classmethod
    def setUpClass(cls):
        cls.pg = PgServer().start()
        rc, out, err = run_pitboss("central", "init", "--conninfo", cls.pg.conninfo)
        assert rc == 0, out + err

    @classmethod
    def tearDownClass(cls):
        cls.pg.close()
