"""
People and sessions (API.md "People and sessions", docs/security.md
"Accounts and sessions"): accounts made and changed by an admin, the one-time
password changed at the first sign-in, sessions acting as their person,
expiry (idle and absolute), the lockout of one person from any address,
deactivation ending sessions at once, the events naming who did what, and no
password or session token in clear in the database, the log or the events.
"""
import calendar
import os
import subprocess
import sys
import time

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
import pbtest  # noqa: E402
from pbtest import DEALER, PITBOSS_TOKEN, ADMIN

ONE_TIME = "first day at work 7"
OWN = "my very own secret 8"
# The client address of a sign-in, set by a trusted proxy (127.0.0.1 here).
FROM = lambda addr: {"X-Forwarded-For": addr}  # noqa: E731


def unix_ms(text):
    """Unix ms of a time as the API writes it ("2026-11-21T22:43:40.123Z")."""
    return calendar.timegm(time.strptime(text[:19], "%Y-%m-%dT%H:%M:%S")) * 1000 + int(text[20:23])


def events(d, code):
    st, js = d.call("GET", "/api/v1/events?limit=1000", token=ADMIN)
    assert st == 200, js
    return [e for e in js["events"] if e["code"] == code]


class People(pbtest.DaemonTestCase):
    daemon_kwargs = {"overrides": {"trusted_proxies": ["127.0.0.1"], "auth": {"max_failures": 5, "lockout_seconds": 60}}}
    secrets = []

    def add(self, pid, name, roles, password=ONE_TIME):
        st, js = self.d.call("POST", "/api/v1/people", {"id": pid, "name": name, "roles": roles, "password": password},
                             token=ADMIN)
        self.assertEqual(st, 201, js)
        return js

    def sign_in(self, pid, password, addr="192.0.2.1", status=201):
        st, js = self.d.call("POST", "/api/v1/sessions", {"person": pid, "password": password}, token=None,
                             headers=FROM(addr))
        self.assertEqual(st, status, js)
        if st == 201:
            People.secrets.append(js["token"])
        return js

    def ready(self, pid, name, roles):
        """A person who changed the one-time password: their session token."""
        self.add(pid, name, roles)
        tok = self.sign_in(pid, ONE_TIME)["token"]
        st, js = self.d.call("PUT", "/api/v1/people/%s/password" % pid, {"current": ONE_TIME, "password": OWN}, token=tok)
        self.assertEqual(st, 200, js)
        return tok

    def test_accounts(self):
        js = self.add("E1027", "Ana Ruiz", ["dealer", "floor"])
        self.assertEqual(js["roles"], ["dealer", "floor"])
        self.assertTrue(js["active"])
        self.assertTrue(js["must_change_password"])
        self.assertNotIn("password", js)
        self.assertNotIn("password_hash", js)
        st, js = self.d.call("POST", "/api/v1/people", {"id": "E1027", "name": "Other", "roles": ["dealer"]}, token=ADMIN)
        self.assertEqual((st, js["error"]["code"]), (409, "person_exists"))
        for body, code in (({"id": "E9", "name": "Bo", "roles": ["croupier"]}, "invalid_roles"),
                           ({"id": "E9", "name": "Bo", "roles": []}, "invalid_roles"),
                           ({"id": "E 9", "name": "Bo", "roles": ["dealer"]}, "invalid_id"),
                           ({"id": "E9", "name": " ", "roles": ["dealer"]}, "invalid_name"),
                           ({"id": "E9", "name": "Bo", "roles": ["dealer"], "password": "short"}, "weak_password"),
                           ({"id": "E9", "name": "Bo Lee", "roles": ["dealer"], "password": "secret-LEE-123"},
                            "weak_password"),
                           ({"id": "E9", "name": "Bo", "roles": ["dealer"], "pin": 1}, "unknown_field")):
            st, js = self.d.call("POST", "/api/v1/people", body, token=ADMIN)
            self.assertEqual((st, js["error"]["code"]), (400, code), body)
        st, js = self.d.call("POST", "/api/v1/people", {"id": "E9", "name": "Bo", "roles": ["dealer"]}, token=DEALER)
        self.assertEqual((st, js["error"]["code"]), (403, "forbidden"))
        st, js = self.d.call("GET", "/api/v1/people", token=PITBOSS_TOKEN)
        self.assertEqual(st, 200)
        self.assertIn("E1027", [p["id"] for p in js["people"]])
        st, js = self.d.call("GET", "/api/v1/people", token=DEALER)
        self.assertEqual(st, 403)
        st, js = self.d.call("GET", "/api/v1/people/NOBODY", token=ADMIN)
        self.assertEqual((st, js["error"]["code"]), (404, "person_not_found"))
        st, js = self.d.call("PATCH", "/api/v1/people/E1027", {"name": "Ana Ruiz-Soto", "roles": ["dealer"]}, token=ADMIN)
        self.assertEqual(st, 200, js)
        self.assertEqual((js["name"], js["roles"]), ("Ana Ruiz-Soto", ["dealer"]))
        ev = events(self.d, "person_changed")[-1]
        self.assertEqual(ev["source"], "demo-admin")
        self.assertEqual(ev["detail"]["was"]["name"], "Ana Ruiz")
        self.assertEqual(ev["detail"]["set"]["roles"], ["dealer"])
        ev = [e for e in events(self.d, "person_added") if e["detail"]["person"] == "E1027"][0]
        self.assertEqual((ev["source"], ev["detail"]["name"]), ("demo-admin", "Ana Ruiz"))

    def test_ids_without_regard_to_case(self):
        """Ids that cannot impersonate: 1 to 32 of A-Z a-z 0-9 _ -, one id whatever its case; look-ups stay exact."""
        self.add("FL1", "Flo Floor", ["floor"])
        self.add("pb1", "Pat Boss", ["pitboss"])

        def people():
            st, js = self.d.call("GET", "/api/v1/people", token=ADMIN)
            self.assertEqual(st, 200, js)
            return js["people"]

        before, added = people(), events(self.d, "person_added")
        for pid, taken in (("fl1", "FL1"), ("Fl1", "FL1"), ("PB1", "pb1"), ("pB1", "pb1")):
            st, js = self.d.call("POST", "/api/v1/people", {"id": pid, "name": "Flo Floor", "roles": ["floor"],
                                                            "password": ONE_TIME}, token=ADMIN)
            self.assertEqual((st, js["error"]["code"]), (409, "person_exists"), pid)
            self.assertIn(taken, js["error"]["message"])
        for pid in ("FL1.", ".", "E 1", "E/1", "x" * 33, ""):
            st, js = self.d.call("POST", "/api/v1/people", {"id": pid, "name": "Flo Floor", "roles": ["floor"]},
                                 token=ADMIN)
            self.assertEqual((st, js["error"]["code"]), (400, "invalid_id"), pid)
            self.assertIn("1 to 32 of A-Z a-z 0-9 _ -", js["error"]["message"])
        self.assertEqual(people(), before)                         # nothing written
        self.assertEqual(events(self.d, "person_added"), added)
        self.add("E_1", "Una Score", ["dealer"])
        self.add("y" * 32, "Yul Long", ["dealer"])
        # Look-ups stay exact: "fl1" is nobody, and signs nobody in.
        st, js = self.d.call("GET", "/api/v1/people/fl1", token=ADMIN)
        self.assertEqual((st, js["error"]["code"]), (404, "person_not_found"))
        self.sign_in("fl1", ONE_TIME, addr="198.51.100.77", status=401)
        self.assertTrue(self.sign_in("FL1", ONE_TIME, addr="198.51.100.78")["must_change_password"])

    def test_one_time_password_then_own(self):
        self.add("E2", "Cy Park", ["pitboss"])
        s = self.sign_in("E2", ONE_TIME)
        self.assertTrue(s["token"].startswith("pbs_"))
        self.assertTrue(s["must_change_password"])
        self.assertEqual(s["person"], {"id": "E2", "name": "Cy Park", "roles": ["pitboss"]})
        tok = s["token"]
        st, js = self.d.call("GET", "/api/v1/tables", token=tok)
        self.assertEqual((st, js["error"]["code"]), (403, "password_change_required"))
        st, js = self.d.call("PUT", "/api/v1/people/E2/password", {"current": "wrong wrong wrong", "password": OWN},
                             token=tok)
        self.assertEqual((st, js["error"]["code"]), (401, "wrong_password"))
        st, js = self.d.call("PUT", "/api/v1/people/E2/password", {"current": ONE_TIME, "password": ONE_TIME}, token=tok)
        self.assertEqual((st, js["error"]["code"]), (400, "weak_password"))
        st, js = self.d.call("PUT", "/api/v1/people/E2/password", {"current": ONE_TIME, "password": OWN}, token=tok)
        self.assertEqual(st, 200, js)
        self.assertFalse(js["must_change_password"])
        # Now the session acts as its person: the event's source is the person's id.
        st, js = self.d.call("POST", "/api/v1/tables/T3/close", {}, token=tok)
        self.assertEqual(st, 200, js)
        self.assertEqual(events(self.d, "table_closed")[-1]["source"], "E2")
        st, js = self.d.call("POST", "/api/v1/tables/T3/open", {}, token=tok)
        self.assertEqual(st, 200, js)
        # Not another's password, and not the admin's routes.
        st, js = self.d.call("PUT", "/api/v1/people/E1027/password", {"password": "another one 123"}, token=tok)
        self.assertEqual(st, 403)
        st, js = self.d.call("POST", "/api/v1/people", {"id": "E99", "name": "X", "roles": ["dealer"]}, token=tok)
        self.assertEqual(st, 403)
        st, js = self.d.call("DELETE", "/api/v1/sessions/current", token=tok)
        self.assertEqual((st, js), (200, {"signed_out": True}))
        st, js = self.d.call("GET", "/api/v1/tables", token=tok)
        self.assertEqual((st, js["error"]["code"]), (401, "session_expired"))
        self.assertEqual([e["source"] for e in events(self.d, "session_closed") if e["detail"]["person"] == "E2"], ["E2"])
        st, js = self.d.call("DELETE", "/api/v1/sessions/current", token=DEALER)
        self.assertEqual((st, js["error"]["code"]), (400, "not_a_session"))

    def test_lockout_per_person_from_any_address(self):
        self.ready("E3", "Di Wong", ["floor"])
        for i in range(4):
            js = self.sign_in("E3", "not it at all", addr="198.51.100.%d" % i, status=401)
            self.assertEqual(js["error"]["code"], "unauthorized")
        js = self.sign_in("E3", "not it at all", addr="198.51.100.9", status=429)
        self.assertEqual(js["error"]["code"], "locked_out")
        js = self.sign_in("E3", OWN, addr="203.0.113.7", status=429)
        self.assertEqual(js["error"]["code"], "locked_out")
        ev = [e for e in events(self.d, "person_locked_out") if e["detail"]["person"] == "E3"]
        self.assertEqual(len(ev), 1)
        self.assertEqual((ev[0]["detail"]["failures"], ev[0]["detail"]["as"]), (5, "sign_in"))
        st, js = self.d.call("GET", "/api/v1/people/E3", token=ADMIN)
        self.assertTrue(js["locked_out"])
        # An unknown person answers as a wrong password does.
        js = self.sign_in("NOBODY", "whatever it is", addr="198.51.100.20", status=401)
        self.assertEqual(js["error"]["message"], "unknown person or wrong password")
        # An admin's new one-time password lifts the lockout.
        st, js = self.d.call("PUT", "/api/v1/people/E3/password", {"password": "a fresh start 42"}, token=ADMIN)
        self.assertEqual(st, 200, js)
        self.assertTrue(js["must_change_password"])
        self.assertFalse(js["locked_out"])
        self.assertTrue(self.sign_in("E3", "a fresh start 42")["must_change_password"])

    def test_disabling_ends_sessions(self):
        tok = self.ready("E4", "Ed Moss", ["pitboss"])
        st, _ = self.d.call("GET", "/api/v1/tables", token=tok)
        self.assertEqual(st, 200)
        st, js = self.d.call("PATCH", "/api/v1/people/E4", {"active": False}, token=ADMIN)
        self.assertEqual(st, 200, js)
        self.assertFalse(js["active"])
        st, js = self.d.call("GET", "/api/v1/tables", token=tok)
        self.assertEqual((st, js["error"]["code"]), (401, "session_expired"))
        self.sign_in("E4", OWN, status=401)
        ev = events(self.d, "person_changed")[-1]
        self.assertEqual((ev["detail"]["person"], ev["detail"]["sessions_ended"]), ("E4", 1))
        # Still there: history keeps every name.
        st, js = self.d.call("GET", "/api/v1/people/E4", token=ADMIN)
        self.assertEqual((st, js["name"]), (200, "Ed Moss"))

    def test_admin_person_cannot_remove_self(self):
        tok = self.ready("A1", "Flo Grant", ["admin"])
        st, js = self.d.call("PATCH", "/api/v1/people/A1", {"active": False}, token=tok)
        self.assertEqual((st, js["error"]["code"]), (409, "cannot_change_self"))
        st, js = self.d.call("POST", "/api/v1/people", {"id": "E5", "name": "Gil Hart", "roles": ["dealer"]}, token=tok)
        self.assertEqual(st, 201, js)
        self.assertEqual(events(self.d, "person_added")[-1]["source"], "A1")

    def test_zz_no_secret_in_clear(self):
        """Runs last (by name): every password and token used above, nowhere in the database, log or events."""
        self.assertTrue(People.secrets)
        st, js = self.d.call("GET", "/api/v1/events?limit=1000", token=ADMIN)
        text = str(js)
        blobs = []
        for p in (self.d.db_path, self.d.db_path + "-wal"):
            if os.path.exists(p):
                with open(p, "rb") as f:
                    blobs.append(f.read())
        log = self.d.full_log()
        for secret in People.secrets + [ONE_TIME, OWN, "a fresh start 42", "not it at all"]:
            self.assertNotIn(secret, text)
            self.assertNotIn(secret, log)
            for b in blobs:
                self.assertNotIn(secret.encode(), b, secret)
            if secret.startswith("pbs_"):
                self.assertNotIn(secret[4:], log)
                for b in blobs:
                    self.assertNotIn(secret[4:].encode(), b)


class CommandLine(pbtest.DaemonTestCase):
    """pitboss person: the first admin, offline, while pitbossd runs."""

    def person(self, *args, stdin=None):
        p = subprocess.run([pbtest.PITBOSS, "person"] + list(args) + ["--database", self.d.db_path], input=stdin,
                           capture_output=True, text=True, timeout=60)
        return p.returncode, p.stdout, p.stderr

    def test_first_admin(self):
        rc, out, err = self.person("add", "--id", "A9", "--name", "Ida Stone", "--roles", "admin,pitboss")
        self.assertEqual(rc, 0, err)
        password = out.split("one-time password ")[1].split()[0]
        st, js = self.d.call("POST", "/api/v1/sessions", {"person": "A9", "password": password}, token=None)
        self.assertEqual(st, 201, js)
        self.assertTrue(js["must_change_password"])
        self.assertEqual(js["person"]["roles"], ["pitboss", "admin"])
        rc, out, err = self.person("passwd", "--id", "A9", "--password-stdin", stdin="from standard in 5\n")
        self.assertEqual(rc, 0, err)
        self.assertNotIn("from standard in 5", out)
        st, js = self.d.call("GET", "/api/v1/tables", token=js["token"])
        self.assertEqual((st, js["error"]["code"]), (401, "session_expired"))     # a new one-time password ends them
        st, js = self.d.call("POST", "/api/v1/sessions", {"person": "A9", "password": "from standard in 5"}, token=None)
        self.assertEqual(st, 201, js)
        rc, out, err = self.person("disable", "--id", "A9")
        self.assertEqual(rc, 0, err)
        st, js = self.d.call("GET", "/api/v1/tables", token=js["token"])
        self.assertEqual(st, 401)
        self.assertEqual([e["source"] for e in events(self.d, "person_added")], ["pitboss-cli"])
        rc, out, err = self.person("add", "--id", "A9", "--name", "Ida Stone", "--roles", "admin")
        self.assertEqual(rc, 1)
        self.assertIn("already", err)
        rc, out, err = self.person("add", "--id", "A8")
        self.assertEqual(rc, 2)

    def test_ids_without_regard_to_case(self):
        """pitboss person add refuses what the API does: an id of another case, a '.', 33 characters."""
        rc, out, err = self.person("add", "--id", "B7", "--name", "Bea Stone", "--roles", "admin")
        self.assertEqual(rc, 0, err)
        rc, out, err = self.person("add", "--id", "b7", "--name", "Bea Stone", "--roles", "admin")
        self.assertEqual(rc, 1)
        self.assertIn("B7", err)
        self.assertIn("case", err)
        for pid in ("B7.", "B" * 33):
            rc, out, err = self.person("add", "--id", pid, "--name", "Bea Stone", "--roles", "admin")
            self.assertEqual(rc, 1, pid)
            self.assertIn("1 to 32 of A-Z a-z 0-9 _ -", err)
        self.assertEqual([e["detail"]["person"] for e in events(self.d, "person_added")
                          if e["detail"]["person"].upper().startswith("B7")], ["B7"])


class OlderIds(pbtest.DaemonTestCase):
    """People an older database holds with ids no longer accepted for new people (a '.', two ids differing only in
    case): each stays usable by its exact id, to sign in, to witness, in URLs."""
    OLD = (("FL.1", "Flo Dot", ["floor"]), ("PB.1", "Pat Dot", ["pitboss"]), ("CG9", "Cy Cage", ["cage"]),
           ("cg9", "Cal Cage", ["cage"]))
    PASSWORD = "the-right-one-%s"
    WHOLE = {"bets": {"1": {"ante": 1000}}, "hands": {"1": ["As", "Kd", "Qh"]}, "dealer": ["2c", "7d", "9h"],
             "decisions": {"1": "play"}}

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.d.stop()
        for pid, name, roles in cls.OLD:
            pbtest.add_person(cls.d, pid, name, roles, cls.PASSWORD % pid)
        cls.d.start()

    def sign_in(self, pid, status=201):
        st, js = self.d.call("POST", "/api/v1/sessions", {"person": pid, "password": self.PASSWORD % pid}, token=None)
        self.assertEqual(st, status, js)
        return js

    def test_older_ids_stay_usable(self):
        self.assertEqual(self.sign_in("FL.1")["person"]["id"], "FL.1")
        tok = self.sign_in("PB.1")["token"]
        self.assertEqual(self.ok("GET", "/api/v1/people/FL.1", token=ADMIN)["name"], "Flo Dot")
        self.assertEqual(self.ok("PATCH", "/api/v1/people/FL.1", {"name": "Flo Dotson"}, token=ADMIN)["name"], "Flo Dotson")
        rid = self.whole("T1", self.WHOLE)["id"]
        c = self.ok("POST", "/api/v1/rounds/%d/corrections" % rid,
                    {"seat": 1, "wager": "ante", "paid": 0, "reason": "paid nothing",
                     "witness": {"person": "FL.1", "password": self.PASSWORD % "FL.1"}}, status=201, token=tok)
        self.assertEqual((c["by"], c["witness"]), ("PB.1", "FL.1"))
        # No new id with a '.', nor one of another case than an older one's.
        self.refused(400, "invalid_id", "POST", "/api/v1/people", {"id": "FL.2", "name": "Flo Two", "roles": ["floor"]},
                     token=ADMIN)
        st, js = self.d.call("POST", "/api/v1/people", {"id": "Cg9", "name": "Cy Cage", "roles": ["cage"]}, token=ADMIN)
        self.assertEqual((st, js["error"]["code"]), (409, "person_exists"))

    def test_older_case_duplicates_are_told_apart_exactly(self):
        self.assertEqual(self.sign_in("CG9")["person"]["name"], "Cy Cage")
        self.assertEqual(self.sign_in("cg9")["person"]["name"], "Cal Cage")
        st, js = self.d.call("POST", "/api/v1/sessions", {"person": "Cg9", "password": self.PASSWORD % "cg9"}, token=None)
        self.assertEqual(st, 401, js)
        self.assertEqual(self.ok("GET", "/api/v1/people/cg9", token=ADMIN)["name"], "Cal Cage")
        self.ok("PATCH", "/api/v1/people/cg9", {"active": False}, token=ADMIN)
        self.assertTrue(self.ok("GET", "/api/v1/people/CG9", token=ADMIN)["active"])


class Expiry(pbtest.DaemonTestCase):
    """Idle and absolute expiry on the test clock: the daemon's time is moved, never slept through, so the
    password hashes (a tenth of a second each, far more on a loaded machine) count for nothing."""
    IDLE, ABSOLUTE = 600, 1800
    # The most real time a request may take to reach the daemon after the clock is set: the only real time
    # these tests allow ("a moment before" the session ends is this long before).
    SLACK_MS = 5000
    daemon_kwargs = {"clock": True, "overrides": {"sessions": {"idle_seconds": IDLE, "absolute_seconds": ABSOLUTE}}}

    def session(self, pid):
        """A session of a new person who changed the one-time password: (token, expires_at in Unix ms)."""
        st, js = self.d.call("POST", "/api/v1/people", {"id": pid, "name": "Hal Ito", "roles": ["pitboss"],
                                                        "password": ONE_TIME}, token=ADMIN)
        self.assertEqual(st, 201, js)
        st, js = self.d.call("POST", "/api/v1/sessions", {"person": pid, "password": ONE_TIME}, token=None)
        self.assertEqual(st, 201, js)
        self.assertEqual(js["idle_seconds"], self.IDLE)
        tok, expires = js["token"], unix_ms(js["expires_at"])
        st, js = self.d.call("PUT", "/api/v1/people/%s/password" % pid, {"current": ONE_TIME, "password": OWN}, token=tok)
        self.assertEqual(st, 200, js)
        return tok, expires

    def use(self, tok):
        """GET /tables with the session: (status, answer, the daemon's time just before and just after it)."""
        before = self.d.clock_ms()
        st, js = self.d.call("GET", "/api/v1/tables", token=tok)
        return st, js, before, self.d.clock_ms()

    def test_idle(self):
        tok, _ = self.session("X1")
        # A use a quarter of the idle time on is noted as the session's last use (written once a minute at most) ...
        self.d.advance_clock(self.IDLE / 4)
        st, js, before, _ = self.use(tok)
        self.assertEqual(st, 200, js)
        # ... and keeps it open up to a moment before the idle time has passed since ...
        self.d.advance_clock_to(before + self.IDLE * 1000 - self.SLACK_MS)
        st, js, _, after = self.use(tok)
        self.assertEqual(st, 200, js)
        # ... when it ends, no use having come meanwhile.
        self.d.advance_clock_to(after + self.IDLE * 1000)
        st, js = self.d.call("GET", "/api/v1/tables", token=tok)
        self.assertEqual((st, js["error"]["code"]), (401, "session_expired"), js)
        self.assertIn("idle too long", js["error"]["message"])

    def test_absolute(self):
        tok, expires = self.session("X2")
        self.assertGreater(expires - self.d.clock_ms(), (self.ABSOLUTE - 60) * 1000, "expires_at is not absolute_seconds on")
        # Used every half idle time, the session stays open up to a moment before expires_at ...
        while self.d.clock_ms() + self.IDLE * 500 < expires - self.SLACK_MS:
            self.d.advance_clock(self.IDLE / 2)
            st, js, _, _ = self.use(tok)
            self.assertEqual(st, 200, js)      # used within the idle time: still open
        self.d.advance_clock_to(expires - self.SLACK_MS)
        st, js, _, _ = self.use(tok)
        self.assertEqual(st, 200, js)
        # ... and ends at expires_at, in use or not.
        self.d.advance_clock_to(expires)
        st, js = self.d.call("GET", "/api/v1/tables", token=tok)
        self.assertEqual((st, js["error"]["code"]), (401, "session_expired"), js)
        self.assertIn("time is up", js["error"]["message"])
        # An expired session's token is no guess: it does not count towards the address's lockout.
        self.assertEqual(events(self.d, "auth_lockout"), [])


if __name__ == "__main__":
    pbtest.main()
