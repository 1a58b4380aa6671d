"""
pbtest.py - the harness of the integration tests: the real pitbossd on a free
loopback port with a temporary database, driven over HTTP.

    d = Daemon()                 # writes a config into a fresh temp dir
    d.start()                    # pitbossd -f -c CFG, waits for /api/v1/health
    status, body = d.call("POST", "/api/v1/tables/T1/rounds", {})
    d.stop()                     # SIGTERM; asserts exit code 0 and a clean log

Time: no test sleeps to let the daemon's time pass.  A daemon made with
Daemon(clock=True) runs on the test clock (pbclock.py, docs/reliability.md):
d.advance_clock(seconds) moves its wall clock forward at once, so sessions,
lockouts and stored answers expire when the test says, however slow the
machine.  What happens by itself (the main loop's writes, a reload, a
thread's work) is waited for with wait_until; a deliberately slow client
keeps its pace with pace().  These two are the only places that sleep.

People (the property's staff) are written into a stopped daemon's database with
add_person(d, id, name, roles, password): the one helper for it, with ROLE
and argon2id.

The daemon binary comes from PB_BUILD_DIR (set by ctest), so the same tests
run against the Release and the sanitizer builds; every time a daemon exits
its stderr is searched for AddressSanitizer / UBSan reports, which fail the
test.  Every process started here is killed at the latest when the Python
process exits, also when a test fails.

Python 3 standard library only.
"""
import atexit
import copy
import hashlib
import http.client
import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pbclock  # noqa: E402

SOURCE_DIR = os.path.abspath(os.environ.get("PB_SOURCE_DIR")
                             or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
BUILD_DIR = os.path.abspath(os.environ.get("PB_BUILD_DIR") or os.path.join(SOURCE_DIR, "build"))
PITBOSSD = os.path.join(BUILD_DIR, "pitbossd")
PITBOSS = os.path.join(BUILD_DIR, "pitboss")
CONFIG_DIR = os.path.join(SOURCE_DIR, "config")
EXAMPLE_CONFIG = os.path.join(CONFIG_DIR, "pitboss.json")

# The demo secrets of config/pitboss.json (their SHA-256 is in the config).
DEALER = "demo-dealer"
PITBOSS_TOKEN = "demo-pitboss"
AUDITOR = "demo-auditor"
ADMIN = "demo-admin"

SANITIZER_MARKERS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:")

# Every daemon started by this process, killed at exit whatever happened.
_LIVE = set()


def _kill_all():
    for p in list(_LIVE):
        try:
            p.kill()
            p.wait(timeout=10)
        except Exception:
            pass
        _LIVE.discard(p)


atexit.register(_kill_all)


def _die_with_parent():
    """In the child before exec: SIGKILL when this Python process dies, however it dies (Linux)."""
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)      # PR_SET_PDEATHSIG
    except Exception:
        pass


def bound_by_file_modes():
    """In a child before exec (a preexec_fn): when running as root, drops CAP_DAC_OVERRIDE and
    CAP_DAC_READ_SEARCH from the bounding set, so that the program it runs is bound by file modes as any
    user is (root writes a file of mode 0400 otherwise, and every directory).  Raises when it cannot, so
    that a test of a mode never passes unchecked.  Nothing for another user."""
    if os.geteuid() != 0:
        return
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (1, 2):                                  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
        if libc.prctl(24, cap, 0, 0, 0) != 0:           # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP, %d)" % cap)


def _die_with_parent_bound_by_file_modes():
    _die_with_parent()
    bound_by_file_modes()


def sha256_hex(text):
    if isinstance(text, str):
        text = text.encode()
    return hashlib.sha256(text).hexdigest()


def free_port():
    """A loopback port that was free a moment ago (bind to 0, then close)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
    finally:
        s.close()


def example_config():
    """config/pitboss.json as a dict, with game paths made absolute."""
    with open(EXAMPLE_CONFIG) as f:
        cfg = json.load(f)
    games = {}
    for name, g in cfg["games"].items():
        games[name] = os.path.join(CONFIG_DIR, g) if isinstance(g, str) and not os.path.isabs(g) else g
    cfg["games"] = games
    cfg["web_root"] = os.path.join(SOURCE_DIR, "web")
    return cfg


def example_table(table_id):
    """A copy of one table of the example config."""
    for t in example_config()["tables"]:
        if t["id"] == table_id:
            return copy.deepcopy(t)
    raise KeyError(table_id)


def token(name, role, secret, tables=None):
    t = {"name": name, "role": role, "sha256": sha256_hex(secret)}
    if tables is not None:
        t["tables"] = list(tables)
    return t


def sanitizer_report(text):
    """The first sanitizer line in text, or None."""
    for line in text.splitlines():
        if any(m in line for m in SANITIZER_MARKERS):
            return line
    return None



def wait_until(what, fn, timeout=30.0, every=0.05):
    """Calls fn() every `every` seconds until it returns a true value, and returns that value; after timeout
    seconds fails with an AssertionError naming `what` (a string, or a function giving one).  The one place the
    tests wait: for something to happen, never for the daemon's time to pass (Daemon.advance_clock); pace() is
    the other sleep, a slow client's."""
    deadline = time.monotonic() + timeout
    nap = min(every, 0.005)         # a quick first look, then every `every` seconds
    while True:
        v = fn()
        if v:
            return v
        if time.monotonic() > deadline:
            raise AssertionError("not within %g s: %s" % (timeout, what() if callable(what) else what))
        time.sleep(nap)
        nap = min(every, nap * 2)


def pace(seconds):
    """The pace of a deliberately slow client: a piece sent every `seconds`, a connection left idle between two
    requests, half a request held open.  Real time, on purpose: the connections' deadlines run on the real and
    monotonic clocks, which the test clock does not move.  With wait_until, the only places the tests sleep."""
    time.sleep(seconds)


def run_pitboss(*args, timeout=300):
    """Runs `pitboss ARGS`; returns (exit status, stdout, stderr)."""
    p = subprocess.run([PITBOSS] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


# ---- people: the property's own staff, not in the record ----

# The bits of people.roles, in the order of the role names of daemon/config/config.c.
ROLE = {"dealer": 1, "pitboss": 2, "auditor": 4, "admin": 8, "floor": 16, "cage": 32, "count": 64, "surveillance": 128,
        "security": 256}


def argon2id(password, cheap=False):
    """crypto_pwhash_str of libsodium (through ctypes), as common/password.c makes it: the interactive cost,
    or with cheap the smallest (1 pass, 8 KiB), which verifies the same and faster."""
    import ctypes
    import ctypes.util
    lib = ctypes.CDLL(ctypes.util.find_library("sodium"))
    assert lib.sodium_init() >= 0
    lib.crypto_pwhash_opslimit_interactive.restype = ctypes.c_ulonglong
    lib.crypto_pwhash_memlimit_interactive.restype = ctypes.c_size_t
    ops, mem = (1, 8192) if cheap else (lib.crypto_pwhash_opslimit_interactive(), lib.crypto_pwhash_memlimit_interactive())
    out, pw = ctypes.create_string_buffer(128), password.encode()
    assert lib.crypto_pwhash_str(out, pw, ctypes.c_ulonglong(len(pw)), ctypes.c_ulonglong(ops), ctypes.c_size_t(mem)) == 0
    return out.value.decode()


def add_person(db, pid, name, roles, password=None, active=True, cheap=False):
    """Writes one person straight into the people table (db: a stopped Daemon, or a database's path): the one
    way the tests make people without an admin's session.  roles: a role's name or a list of names (ROLE).
    password: what the person signs in or witnesses with (stored as its argon2id hash, cheap or not); None for
    a person who never does (the hash is then a word that no password matches)."""
    if isinstance(db, Daemon):
        if db.running:
            raise DaemonError("add_person writes the database of a stopped daemon")
        db = db.db_path
    bits = sum(ROLE[r] for r in ([roles] if isinstance(roles, str) else roles))
    conn = sqlite3.connect(db, timeout=30)
    try:
        with conn:
            conn.execute("INSERT INTO people (id, name, roles, active, password_hash, must_change, created_at, "
                         "updated_at) VALUES (?, ?, ?, ?, ?, 0, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')",
                         (pid, name, bits, 1 if active else 0,
                          "unused" if password is None else argon2id(password, cheap)))
    finally:
        conn.close()


# The pit's people as the tests of players and cash name them: (id, name, roles), each signing in and
# witnessing with STAFF_PASSWORD % id.  A test takes those it needs (staff(...)).
STAFF = (
    ("FL1", "Flo Floor", ["floor"]),
    ("FL2", "Fay Floor", ["floor"]),
    ("PB1", "Pat Boss", ["pitboss"]),
    ("PB2", "Paz Boss", ["pitboss"]),
    ("DL1", "Dee Dealer", ["dealer"]),
    ("DL2", "Dan Dealer", ["dealer"]),
    ("CG1", "Cy Cage", ["cage"]),
    ("CG2", "Cass Cage", ["cage"]),
    ("SV1", "Sue Surveil", ["surveillance"]),
    ("CT1", "Kim Count", ["count"]),
    ("CT2", "Lou Count", ["count"]),
    ("SC1", "Sal Security", ["security"]),
    ("AU1", "Al Auditor", ["auditor"]),
)
STAFF_PASSWORD = "the-right-one-%s"


def staff(*ids):
    """The rows of STAFF with these ids, in STAFF's order (all of them without ids)."""
    return tuple(p for p in STAFF if not ids or p[0] in ids)


def add_staff(d, people):
    """Writes people (rows of STAFF) into a stopped daemon's database, cheap hashes, STAFF_PASSWORD each."""
    for pid, name, roles in people:
        add_person(d, pid, name, roles, STAFF_PASSWORD % pid, cheap=True)


def sign_in_staff(d, people):
    """A session for each of people (rows of STAFF) on a running daemon: {id: token}."""
    tok = {}
    for pid, _, _ in people:
        st, js = d.call("POST", "/api/v1/sessions", {"person": pid, "password": STAFF_PASSWORD % pid}, token=None)
        if st != 201:
            raise DaemonError("signing %s in: %d %s" % (pid, st, js))
        tok[pid] = js["token"]
    return tok


def staff_witness(pid):
    """The body's "witness" of a person of STAFF."""
    return {"person": pid, "password": STAFF_PASSWORD % pid}


class DaemonError(AssertionError):
    pass


class Daemon:
    """One pitbossd with its own temp dir, config and database.

    tables: replaces the example tables; extra_tables: appended to them;
    tokens: replaces the demo tokens; extra_tokens: appended to them;
    overrides: top-level config keys to set;
    clock: run on the test clock (advance_clock), kept over restarts;
    file_modes: bound by file modes even when the tests run as root (bound_by_file_modes).
    """

    def __init__(self, tables=None, extra_tables=None, tokens=None, extra_tokens=None, overrides=None,
                 tmpdir=None, clock=False, file_modes=False):
        self.tmpdir = tmpdir or tempfile.mkdtemp(prefix="pbtest-")
        self._own_tmpdir = tmpdir is None
        self.config_path = os.path.join(self.tmpdir, "pitboss.json")
        self.db_path = os.path.join(self.tmpdir, "pitboss.db")
        self.log_path = os.path.join(self.tmpdir, "pitbossd.log")
        self.port = free_port()
        self.host = "127.0.0.1"
        cfg = example_config()
        if tables is not None:
            cfg["tables"] = copy.deepcopy(tables)
        if extra_tables:
            cfg["tables"] += copy.deepcopy(extra_tables)
        if tokens is not None:
            cfg["tokens"] = copy.deepcopy(tokens)
        if extra_tokens:
            cfg["tokens"] += copy.deepcopy(extra_tokens)
        cfg["database"] = self.db_path
        cfg["listen"] = "%s:%d" % (self.host, self.port)
        cfg.update(overrides or {})
        self.config = cfg
        self.proc = None
        self._log_offset = 0
        self.clock_path = None
        self.clock_offset_ms = 0
        self._preexec = _die_with_parent_bound_by_file_modes if file_modes else _die_with_parent
        if clock:
            self.clock_path = os.path.join(self.tmpdir, "test-clock")
            pbclock.create(self.clock_path)
        self.write_config()

    # ---- the test clock ----

    def clock_ms(self):
        """The daemon's wall clock now, in Unix ms: the real time plus the test clock's offset."""
        return int(time.time() * 1000) + self.clock_offset_ms

    def advance_clock(self, seconds):
        """Moves the daemon's wall clock forward by seconds, at once (Daemon(clock=True) only)."""
        if self.clock_path is None:
            raise DaemonError("advance_clock needs Daemon(clock=True)")
        if seconds < 0:
            raise DaemonError("the test clock only moves forward (advance_clock(%r))" % seconds)
        self.clock_offset_ms += int(round(seconds * 1000))
        pbclock.write(self.clock_path, self.clock_offset_ms)

    def advance_clock_to(self, unix_ms):
        """Moves the daemon's wall clock forward to unix_ms (from there it runs on with the real time);
        nothing when it is there already."""
        self.advance_clock(max(0, unix_ms - self.clock_ms()) / 1000)

    # ---- configuration ----

    def write_config(self, cfg=None):
        """Writes cfg (default: self.config) as the daemon's config file, atomically."""
        if cfg is not None:
            self.config = cfg
        tmp = self.config_path + ".tmp"
        with open(tmp, "w") as f:
            if isinstance(self.config, str):
                f.write(self.config)
            else:
                json.dump(self.config, f, indent=1)
        os.replace(tmp, self.config_path)

    # ---- process ----

    def start(self, timeout=30, extra_args=()):
        """Starts pitbossd -f -c CFG and waits until it says it listens and answers GET /api/v1/health."""
        assert self.proc is None, "daemon already running"
        if not os.path.exists(PITBOSSD):
            raise DaemonError("no daemon binary at %s (set PB_BUILD_DIR)" % PITBOSSD)
        self._log_offset = os.path.getsize(self.log_path) if os.path.exists(self.log_path) else 0
        log = open(self.log_path, "ab")
        env = dict(os.environ)
        env.setdefault("ASAN_OPTIONS", "abort_on_error=0:detect_leaks=1")
        env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1")
        env.pop(pbclock.ENV, None)
        if self.clock_path is not None:
            env[pbclock.ENV] = self.clock_path
        try:
            self.proc = subprocess.Popen([PITBOSSD, "-f", "-c", self.config_path] + list(extra_args),
                                         stdin=subprocess.DEVNULL, stdout=log, stderr=log, cwd=self.tmpdir, env=env,
                                         preexec_fn=self._preexec)
        finally:
            log.close()
        _LIVE.add(self.proc)

        def healthy():
            rc = self.proc.poll()
            if rc is not None:
                _LIVE.discard(self.proc)
                self.proc = None
                self._check_sanitizers()
                raise DaemonError("pitbossd exited with %d while starting:\n%s" % (rc, self.run_log()))
            # Only this run's daemon, once it says it listens: the port was free when this Daemon chose it, but
            # after a stop another test's daemon may have taken it, and answered /health in its place while
            # this one was still failing to bind (its requests then went to the other: 401 unknown person).
            if "listening on " not in self.run_log():
                return False
            try:
                st, body = self.call("GET", "/api/v1/health", token=None, timeout=2)
                return st == 200 and body == {"status": "ok"}
            except (OSError, http.client.HTTPException):
                return False
        try:
            wait_until("pitbossd answers /api/v1/health", healthy, timeout=timeout)
        except DaemonError:
            raise
        except AssertionError:
            self.kill9()
            raise DaemonError("pitbossd did not answer /api/v1/health in %ds:\n%s" % (timeout, self.run_log()))
        if self.clock_path is not None and "TEST CLOCK IN USE" not in self.run_log():
            self.kill9()
            raise DaemonError("pitbossd does not use the test clock: build it with -DPITBOSS_TEST_CLOCK=ON\n%s"
                              % self.run_log())
        return self

    def run_expect_failure(self, extra_args=(), timeout=30, extra_env=None):
        """Runs pitbossd -f -c CFG expecting it to refuse to start; returns (exit code, stderr text)."""
        env = dict(os.environ)
        env.update(extra_env or {})
        p = subprocess.Popen([PITBOSSD, "-f", "-c", self.config_path] + list(extra_args),
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             cwd=self.tmpdir, env=env, preexec_fn=self._preexec)
        _LIVE.add(p)
        try:
            out, err = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            out, err = p.communicate()
            raise DaemonError("pitbossd kept running although it should have refused to start")
        finally:
            _LIVE.discard(p)
        text = out.decode(errors="replace") + err.decode(errors="replace")
        rep = sanitizer_report(text)
        if rep:
            raise DaemonError("sanitizer report: %s\n%s" % (rep, text))
        return p.returncode, text

    @property
    def running(self):
        return self.proc is not None and self.proc.poll() is None

    def run_log(self):
        """The log of the current (or last) run."""
        try:
            with open(self.log_path, "rb") as f:
                f.seek(self._log_offset)
                return f.read().decode(errors="replace")
        except FileNotFoundError:
            return ""

    def full_log(self):
        try:
            with open(self.log_path, "rb") as f:
                return f.read().decode(errors="replace")
        except FileNotFoundError:
            return ""

    def _check_sanitizers(self):
        rep = sanitizer_report(self.run_log())
        if rep:
            raise DaemonError("sanitizer report in pitbossd's stderr: %s\n%s" % (rep, self.run_log()))

    def stop(self, timeout=30, allow_errors=False):
        """SIGTERM; asserts exit code 0, "stopped cleanly", no sanitizer report and (unless allowed) no error lines."""
        if self.proc is None:
            return
        p = self.proc
        p.send_signal(signal.SIGTERM)
        try:
            rc = p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
            _LIVE.discard(p)
            self.proc = None
            raise DaemonError("pitbossd did not stop within %ds of SIGTERM:\n%s" % (timeout, self.run_log()))
        _LIVE.discard(p)
        self.proc = None
        self._check_sanitizers()
        log = self.run_log()
        if rc != 0:
            raise DaemonError("pitbossd exited with %d after SIGTERM:\n%s" % (rc, log))
        if "stopped cleanly" not in log:
            raise DaemonError("pitbossd's log does not say it stopped cleanly:\n%s" % log)
        if not allow_errors:
            bad = [l for l in log.splitlines() if " pitbossd error: " in l]
            if bad:
                raise DaemonError("pitbossd logged errors:\n%s" % "\n".join(bad))
            if os.environ.get("PB_CHECK_EVENT_BODIES"):
                self.check_event_bodies()

    def check_event_bodies(self):
        """Every event of the database checked against the registry of event types (event_body_problems); with
        PB_EVENT_TYPES_SEEN=FILE, the types met are appended to FILE, one a line.  Done at every clean stop when
        PB_CHECK_EVENT_BODIES is set (tests/integration/test_event_types.py says how to run it)."""
        seen = set()
        conn = self.db_connect()
        try:
            problems = event_body_problems(conn, seen)
        finally:
            conn.close()
        if os.environ.get("PB_EVENT_TYPES_SEEN"):
            with open(os.environ["PB_EVENT_TYPES_SEEN"], "a") as f:
                f.writelines(t + "\n" for t in sorted(seen))
        if problems:
            raise DaemonError("events that do not match the registry of event types:\n" + "\n".join(problems[:50]))

    def restart(self, **kw):
        self.stop(**kw)
        return self.start()

    def kill9(self):
        """SIGKILL, as a power cut would; only sanitizer reports written so far are checked."""
        if self.proc is None:
            return
        p = self.proc
        try:
            p.kill()
        except ProcessLookupError:
            pass
        p.wait()
        _LIVE.discard(p)
        self.proc = None
        self._check_sanitizers()

    def sighup(self):
        self.proc.send_signal(signal.SIGHUP)

    def startup_check(self, token=AUDITOR):
        """The start-up integrity check's progress, as GET /api/v1/integrity gives it."""
        st, js = self.call("GET", "/api/v1/integrity", token=token)
        if st != 200:
            raise DaemonError("GET /api/v1/integrity -> %d %s" % (st, js))
        return js["startup_check"]

    def wait_startup_check(self, timeout=60, token=AUDITOR):
        """Waits until the start-up integrity check (its background walk included) has finished; returns its
        progress.  With startup_check "full" the chains before the last checkpoints are walked after the daemon
        listens: a table altered there is put on hold only then."""
        last = {}

        def done():
            last["sc"] = self.startup_check(token=token)
            return last["sc"] if last["sc"]["state"] != "running" else None
        try:
            return wait_until("the start-up check ends", done, timeout=timeout)
        except DaemonError:
            raise
        except AssertionError:
            raise DaemonError("the start-up check still runs after %ds: %s\n%s" % (timeout, last["sc"], self.run_log()))

    def close(self):
        """Kills a daemon still running (a failed test) and removes the temp dir."""
        if self.proc is not None:
            try:
                self.kill9()
            except DaemonError:
                if self._own_tmpdir and not os.environ.get("PB_KEEP_TMP"):
                    shutil.rmtree(self.tmpdir, ignore_errors=True)
                raise
        if self._own_tmpdir and not os.environ.get("PB_KEEP_TMP"):
            shutil.rmtree(self.tmpdir, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    # ---- HTTP ----

    def request(self, method, path, body=None, token=DEALER, idem=None, headers=None, timeout=30):
        """One request on a fresh connection; returns (status, headers dict lower-cased, raw bytes).

        body: a dict/list/number (sent as JSON), str or bytes (sent as is), or None (no body).
        """
        if body is None:
            data = None
        elif isinstance(body, bytes):
            data = body
        elif isinstance(body, str):
            data = body.encode()
        else:
            data = json.dumps(body).encode()
        h = {}
        if token is not None:
            h["Authorization"] = "Bearer " + token
        if idem is not None:
            h["Idempotency-Key"] = idem
        if data is not None:
            h["Content-Type"] = "application/json"
        h.update(headers or {})
        conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        try:
            conn.putrequest(method, path, skip_accept_encoding=True)
            for k, v in h.items():
                conn.putheader(k, v)
            conn.putheader("Content-Length", str(len(data) if data is not None else 0))
            conn.endheaders()
            if data:
                try:
                    conn.send(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass        # the daemon may answer (413) without reading the body
            resp = conn.getresponse()
            raw = resp.read()
            return resp.status, {k.lower(): v for k, v in resp.getheaders()}, raw
        finally:
            conn.close()

    def call(self, method, path, body=None, token=DEALER, idem=None, headers=None, timeout=30):
        """(status, parsed JSON or None) of one request."""
        st, hdrs, raw = self.request(method, path, body, token, idem, headers, timeout)
        try:
            obj = json.loads(raw.decode()) if raw else None
        except ValueError:
            obj = None
        return st, obj

    # ---- the database, read only ----

    def db_connect(self, read_only=True):
        if read_only:
            return sqlite3.connect("file:%s?mode=ro" % self.db_path, uri=True, timeout=30)
        return sqlite3.connect(self.db_path, timeout=30)

    def db_rows(self, sql, params=()):
        conn = self.db_connect()
        try:
            return conn.execute(sql, params).fetchall()
        finally:
            conn.close()

    def verify_altered_copy(self, alter):
        """Stops the daemon, copies its database, checks that `pitboss verify` accepts the copy, runs
        alter(conn) on it in one transaction (as an attacker holding the file would: dropping the
        append-only triggers he needs), starts the daemon again, and returns `pitboss verify`'s
        (exit status, stdout, stderr) on the altered copy."""
        self.stop()
        tmp = tempfile.mkdtemp(prefix="pbcopy-")
        try:
            path = os.path.join(tmp, "copy.db")
            shutil.copy(self.db_path, path)
            rc, out, err = run_pitboss("verify", "--database", path)
            if rc != 0:
                raise AssertionError("pitboss verify refused the untouched copy:\n" + out + err)
            conn = sqlite3.connect(path)
            with conn:
                alter(conn)
            conn.close()
            return run_pitboss("verify", "--database", path)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
            self.start()

    def db_value(self, sql, params=()):
        rows = self.db_rows(sql, params)
        return rows[0][0] if rows else None


# ---- record snapshots and the integrity chain ----

# The round record (significant_events, the audit log of the daemon's own doings, is left out:
# logging a refused attempt there is allowed).  Tables of later migrations are counted when present.
RECORD_TABLES = ("events", "bets", "hands", "decisions", "payouts", "rounds", "idempotency", "table_state",
                 "rules_sets", "banker_turns", "collections", "acct_documents", "acct_acknowledgments",
                 "corrections")


def snapshot(d):
    """What a refused request must not change: row counts, the chain head, and the full mutable rows."""
    conn = d.db_connect()
    try:
        snap = {}
        present = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        for t in RECORD_TABLES:
            if t in present:
                snap["count:" + t] = conn.execute("SELECT count(*) FROM %s" % t).fetchone()[0]
        snap["max_hash"] = conn.execute("SELECT max(hash) FROM events").fetchone()[0]
        snap["last_event"] = conn.execute("SELECT id, hash FROM events ORDER BY id DESC LIMIT 1").fetchone()
        snap["rounds"] = conn.execute("SELECT * FROM rounds ORDER BY id").fetchall()
        snap["bets"] = conn.execute("SELECT * FROM bets ORDER BY round_id, seat").fetchall()
        snap["table_state"] = conn.execute("SELECT * FROM table_state ORDER BY table_id").fetchall()
        return snap
    finally:
        conn.close()


GENESIS = "0" * 64


def event_canonical(table_id, table_seq, round_id, type_, at, actor, body):
    """The canonical bytes of an event (daemon/store/chain.c)."""
    out = bytearray(b"pitboss-event-v1\n")
    for field in (table_id, str(table_seq), str(round_id if round_id is not None else 0), type_, at, actor, body):
        b = field.encode() if isinstance(field, str) else bytes(field)
        out += str(len(b)).encode() + b":" + b
    return bytes(out)


def chain_problems(conn):
    """Recomputes every table's hash chain from the events table; returns a list of problems (empty = ok)."""
    problems = []
    tables = [r[0] for r in conn.execute("SELECT DISTINCT table_id FROM events ORDER BY table_id")]
    for t in tables:
        prev = GENESIS
        expect_seq = 1
        for (seq, rid, type_, at, actor, body, prev_hash, h) in conn.execute(
                "SELECT table_seq, round_id, type, at, actor, body, prev_hash, hash FROM events "
                "WHERE table_id = ? ORDER BY table_seq", (t,)):
            if seq != expect_seq:
                problems.append("%s: table_seq %d where %d was expected" % (t, seq, expect_seq))
            if prev_hash != prev:
                problems.append("%s#%d: prev_hash %s is not the previous hash %s" % (t, seq, prev_hash, prev))
            canon = event_canonical(t, seq, rid, type_, at, actor, body)
            want = hashlib.sha256(prev.encode() + canon).hexdigest()
            if h != want:
                problems.append("%s#%d: hash %s, recomputed %s" % (t, seq, h, want))
            prev = h
            expect_seq = seq + 1
    return problems


# ---- the registry of event types (`pitboss event-types --json`, docs/audit.md "The event types") ----

_EVENT_TYPES = {}


def event_types():
    """The registry as `pitboss event-types --json` prints it, read once: {type: its object}."""
    if not _EVENT_TYPES:
        rc, out, err = run_pitboss("event-types", "--json")
        if rc != 0:
            raise DaemonError("pitboss event-types --json exited %d: %s" % (rc, err))
        _EVENT_TYPES.update((t["type"], t) for t in json.loads(out)["types"])
    return _EVENT_TYPES


def json_type_name(v):
    """The JSON type of a value parsed by json.loads, as the registry names it ("real" for a float: never in a body)."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    return {int: "integer", str: "string", list: "array", dict: "object"}.get(type(v), "real")


def event_body_problem(table_id, round_id, type_, body_text):
    """What is wrong with one stored event against the registry (None when nothing): its type is registered, it
    stands in its type's chain, its body has every required field, no other key, each value of the field's types.
    Written apart from the daemon's own check (daemon/store/event_check.c), from the printed registry."""
    t = event_types().get(type_)
    if t is None:
        return "type %r is not in the registry" % type_
    chain = "round" if round_id else ("players" if table_id == "_players" else "table")
    if chain != t["chain"]:
        return "a %s event in the %s chain" % (t["chain"], chain)
    body = json.loads(body_text)
    if not isinstance(body, dict):
        return "the body is not an object"
    fields = {f["key"]: f for f in t["fields"]}
    for k, v in body.items():
        if k not in fields:
            return "%r is no field of the type" % k
        if json_type_name(v) not in fields[k]["type"].split("|"):
            return "%r is %s, not %s" % (k, json_type_name(v), fields[k]["type"])
    missing = [k for k, f in fields.items() if f["required"] and k not in body]
    return "required %s missing" % ", ".join(missing) if missing else None


def event_body_problems(conn, seen=None):
    """Every event of the database checked with event_body_problem; returns the problems ("T1#12 bet_placed: ...")
    and adds each type met to the set seen when given."""
    problems = []
    for (table_id, seq, round_id, type_, body) in conn.execute(
            "SELECT table_id, table_seq, round_id, type, body FROM events ORDER BY table_id, table_seq"):
        if seen is not None:
            seen.add(type_)
        why = event_body_problem(table_id, round_id, type_, body)
        if why:
            problems.append("%s#%d %s: %s" % (table_id, seq, type_, why))
    return problems


# ---- payout helpers ----

def line(seq, seat, wager, stake, result, net):
    return {"seq": seq, "seat": seat, "wager": wager, "stake": stake, "result": result, "net": net}


def lines(*specs):
    """lines((seat, wager, stake, result, net), ...) numbered from seq 1."""
    return [line(i + 1, *s) for i, s in enumerate(specs)]


def payout_core(payouts):
    """The payout lines restricted to the fields the contract names (seq, seat, wager, stake, result, net)."""
    keys = ("seq", "seat", "wager", "stake", "result", "net")
    return [{k: p.get(k) for k in keys} for p in payouts]


class DaemonTestCase(unittest.TestCase):
    """A test case with one daemon per class (started in setUpClass, stopped cleanly in tearDownClass)."""

    daemon_kwargs = {}
    d = None

    @classmethod
    def setUpClass(cls):
        cls.d = Daemon(**cls.daemon_kwargs)
        try:
            cls.d.start()
        except BaseException:
            cls.d.close()
            raise

    @classmethod
    def tearDownClass(cls):
        d = cls.d
        cls.d = None
        if d is None:
            return
        try:
            if d.running:
                d.stop()
            elif d.proc is not None:
                d.kill9()
        finally:
            d.close()

    # convenience

    def call(self, *a, **kw):
        return self.d.call(*a, **kw)

    def ok(self, method, path, body=None, status=200, **kw):
        """A call that must answer status; returns the JSON."""
        st, js = self.d.call(method, path, body, **kw)
        self.assertEqual(st, status, "%s %s %r -> %d %s" % (method, path, body, st, json.dumps(js)))
        return js

    def refused(self, status, code, method, path, body=None, **kw):
        """A call that must be refused with status and error code, and change nothing in the record."""
        before = snapshot(self.d)
        st, js = self.d.call(method, path, body, **kw)
        after = snapshot(self.d)
        desc = "%s %s %s" % (method, path, body if not isinstance(body, (bytes, str)) or len(body) < 200 else "<%d bytes>" % len(body))
        self.assertEqual(st, status, "%s -> %d %s (wanted %d %s)" % (desc, st, json.dumps(js), status, code))
        self.assertIsInstance(js, dict, desc)
        self.assertIn("error", js, desc)
        err = js["error"]
        if code is not None:
            self.assertEqual(err.get("code"), code, "%s -> %s" % (desc, json.dumps(js)))
        self.assertIsInstance(err.get("message"), str, desc)
        self.assertTrue(err.get("message"), "%s: empty message" % desc)
        for k in before:
            self.assertEqual(before[k], after[k], "%s changed the record (%s)" % (desc, k))
        return err

    def open_round(self, table, token=DEALER, body=None):
        js = self.ok("POST", "/api/v1/tables/%s/rounds" % table, {} if body is None else body, status=201, token=token)
        return js["round"]["id"]

    def whole(self, table, body, token=DEALER, idem=None):
        return self.ok("POST", "/api/v1/tables/%s/rounds" % table, body, status=201, token=token, idem=idem)["round"]

    def void(self, rid, token=PITBOSS_TOKEN, reason="test cleanup"):
        return self.ok("POST", "/api/v1/rounds/%d/void" % rid, {"reason": reason}, token=token)["round"]


class StaffTestCase(DaemonTestCase):
    """A DaemonTestCase whose daemon has the people PEOPLE (rows of STAFF) and a session of each in cls.tok:
    written into the database before the daemon starts for good (add_staff), signed in after (sign_in_staff)."""

    PEOPLE = ()

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.d.stop()
        add_staff(cls.d, cls.PEOPLE)
        cls.before_start()
        cls.d.start()
        cls.after_start()
        cls.tok = sign_in_staff(cls.d, cls.PEOPLE)

    @classmethod
    def before_start(cls):
        """What a test case does to the stopped daemon before it starts (its clock, its database)."""

    @classmethod
    def after_start(cls):
        """What a test case does once the daemon runs, before the people sign in (its clock moved on)."""


# ---- running a test file ----

# The exit status of a run in which every test that ran passed but some did not run (skipped, or expected to
# fail): ctest's SKIP_RETURN_CODE of the integration tests (tests/CMakeLists.txt), so that ctest shows the file
# as "Skipped" instead of passing it silently.
EXIT_SKIPPED = 77


def exit_status(result, name):
    """The exit status of a test file's run (result: its unittest.TestResult): 0 when every test passed, 1 on a
    failure or error or when no test ran, EXIT_SKIPPED when the others passed but a test was skipped or is
    expected to fail, each named on stderr with its reason."""
    if not result.wasSuccessful():
        return 1
    if result.testsRun == 0:
        print("%s: FAILED: no test ran" % name, file=sys.stderr)
        return 1
    held = [(t, "skipped: %s" % why) for t, why in result.skipped]
    held += [(t, "expected to fail") for t, _ in result.expectedFailures]
    if held:
        print("%s: SKIPPED: %d of its %d tests skipped or expected to fail (ctest shows it as skipped):"
              % (name, len(held), result.testsRun), file=sys.stderr)
        for t, why in held:
            print("  %s: %s" % (t.id(), why), file=sys.stderr)
        return EXIT_SKIPPED
    return 0


def run_suite(suite, name):
    """Runs suite (the tests of the file name) as unittest.main would; returns exit_status."""
    runner = unittest.TextTestRunner(verbosity=2, warnings=None if sys.warnoptions else "default")
    return exit_status(runner.run(suite), name)


def main():
    """The __main__ of a test file: unittest.main (its arguments pick tests), with the exit status of
    exit_status (77 when a test was skipped)."""
    prog = unittest.main(verbosity=2, exit=False)
    sys.exit(exit_status(prog.result, os.path.basename(sys.argv[0])))
