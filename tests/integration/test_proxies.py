"""
test_proxies.py - the client address behind a reverse proxy, and lockouts.

With trusted_proxies naming the peer (127.0.0.1 here), X-Forwarded-For gives
the client: two clients behind the one proxy are locked out apart.  From a
peer that is not trusted, the header is ignored: every client of that peer is
one address.  A lockout refuses failing attempts only: a good token is served.
A lockout is a log line as well as a significant event (both bounded a
minute); failures are counted in memory and summarised (auth_failures), so a
flood of bad tokens from thousands of addresses adds a bounded number of rows.
"""
import http.client
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pbtest  # noqa: E402

AUTH = {"max_failures": 2, "lockout_seconds": 600}


def fail_sign_in(d, xff):
    return d.call("GET", "/api/v1/tables", token="wrong-token", headers={"X-Forwarded-For": xff} if xff else None)


def tables(d, xff):
    return d.call("GET", "/api/v1/tables", headers={"X-Forwarded-For": xff} if xff else None)


class Proxies(unittest.TestCase):
    def events(self, d):
        st, js = d.call("GET", "/api/v1/events?limit=1000", token=pbtest.AUDITOR,
                        headers={"X-Forwarded-For": "198.51.100.250"})
        self.assertEqual(st, 200, js)
        return js["events"]

    def test_trusted_proxy_separates_clients(self):
        with pbtest.Daemon(overrides={"auth": AUTH, "trusted_proxies": ["127.0.0.1"]}) as d:
            d.start()
            self.assertEqual(fail_sign_in(d, "203.0.113.5")[0], 401)
            st, js = fail_sign_in(d, "203.0.113.5")
            self.assertEqual(st, 429, js)
            self.assertIn("from 203.0.113.5", js["error"]["message"])
            # the client is locked out for failing attempts ...
            st, js = fail_sign_in(d, "203.0.113.5")
            self.assertEqual(st, 429, js)
            # ... but a good token from it is served (the lockout stops guessing, not users) ...
            self.assertEqual(tables(d, "203.0.113.5")[0], 200)
            # ... and the other client behind the same proxy fails on its own count
            self.assertEqual(fail_sign_in(d, "203.0.113.6")[0], 401)
            self.assertEqual(tables(d, "203.0.113.6")[0], 200)
            # the proxy's own requests (no header) are its own address
            self.assertEqual(tables(d, None)[0], 200)
            # hops: the last one that is not a trusted proxy is the client; a forged first hop changes nothing
            st, js = fail_sign_in(d, "10.9.9.9, 203.0.113.5")
            self.assertEqual(st, 429, js)
            st, js = fail_sign_in(d, "203.0.113.5, 10.9.9.9")
            self.assertEqual(st, 401, js)
            # a hop that is no address: the address the trusted proxies vouch for (the peer here)
            self.assertEqual(tables(d, "not-an-address")[0], 200)
            self.assertIn("auth: 203.0.113.5 locked out for 600 s after 2 failed sign-ins", d.run_log())
            lock = wait_events(self, d, "auth_lockout", 1)
            self.assertEqual([e["detail"]["client"] for e in lock], ["203.0.113.5"])
            self.assertEqual(lock[0]["detail"]["failures"], 2)
            self.assertEqual(lock[0]["detail"]["lockout_seconds"], 600)
            d.stop()

    def test_chain_of_trusted_proxies(self):
        with pbtest.Daemon(overrides={"auth": AUTH, "trusted_proxies": ["127.0.0.0/8", "10.0.0.0/8"]}) as d:
            d.start()
            fail_sign_in(d, "192.0.2.7, 10.1.1.1")
            st, js = fail_sign_in(d, "192.0.2.7")
            self.assertEqual(st, 429, js)
            self.assertIn("from 192.0.2.7", js["error"]["message"])
            st, js = fail_sign_in(d, "192.0.2.7, 10.200.0.1, 127.0.0.1")
            self.assertEqual(st, 429, js)
            self.assertEqual(tables(d, "192.0.2.8, 10.1.1.1")[0], 200)
            d.stop()

    def test_untrusted_peer_header_ignored(self):
        with pbtest.Daemon(overrides={"auth": AUTH}) as d:
            d.start()
            self.assertEqual(fail_sign_in(d, "203.0.113.5")[0], 401)
            st, js = fail_sign_in(d, "203.0.113.6")
            self.assertEqual(st, 429, js)
            self.assertIn("from 127.0.0.1", js["error"]["message"])
            # every client of that peer is locked out together: the header is no way around it
            st, js = fail_sign_in(d, "203.0.113.7")
            self.assertEqual(st, 429, js)
            # a good token is served all the same
            self.assertEqual(tables(d, "203.0.113.7")[0], 200)
            self.assertIn("auth: 127.0.0.1 locked out", d.run_log())
            d.stop()

    def test_lockout_lines_are_rate_limited(self):
        with pbtest.Daemon(overrides={"auth": {"max_failures": 1, "lockout_seconds": 600},
                                      "trusted_proxies": ["127.0.0.1"]}) as d:
            d.start()
            for i in range(14):
                self.assertEqual(fail_sign_in(d, "203.0.113.%d" % (i + 1))[0], 429)
            log = d.run_log()
            self.assertEqual(log.count(" locked out for 600 s"), 10, log)
            # ten lockout events a minute at most; the four more are counted in the summary written at stop
            lock = wait_events(self, d, "auth_lockout", 10)
            self.assertEqual([e["detail"]["client"] for e in lock], ["203.0.113.%d" % (i + 1) for i in range(10)])
            d.stop()
            summary = db_events(d, "auth_failures")
            self.assertEqual(len(summary), 1, summary)
            self.assertEqual(summary[0]["lockouts"], 14)
            self.assertEqual(summary[0]["lockouts_not_recorded"], 4)
            self.assertEqual(db_events(d, "auth_lockout")[10:], [])

    def test_flood_adds_bounded_rows(self):
        """2,000 bad tokens from 1,000 addresses (plus one that tries 40 times) add at most the lockout events and
        one summary to the significant events; the summary's counts are exact; good tokens are served throughout."""
        with pbtest.Daemon(overrides={"auth": {"max_failures": 5, "lockout_seconds": 600},
                                      "trusted_proxies": ["127.0.0.1"]}) as d:
            d.start()
            before = d.db_value("SELECT count(*) FROM significant_events")
            conn = http.client.HTTPConnection(d.host, d.port, timeout=30)
            statuses = {}

            def bad(xff):
                conn.request("GET", "/api/v1/tables", headers={"Authorization": "Bearer nope", "X-Forwarded-For": xff})
                r = conn.getresponse()
                r.read()
                statuses[r.status] = statuses.get(r.status, 0) + 1

            for i in range(1000):
                addr = "10.%d.%d.%d" % (i // 65536, (i // 256) % 256, i % 256)
                bad(addr)
                bad(addr)
            for _ in range(40):
                bad("192.0.2.99")
            conn.close()
            self.assertEqual(statuses, {401: 2004, 429: 36}, statuses)
            self.assertEqual(tables(d, "192.0.2.99")[0], 200)
            # one lockout event (192.0.2.99's), written by the main loop within a second or two, and no summary
            # yet (it would have been written with the lockout): its minute is not over
            pbtest.wait_until("the lockout is recorded", lambda: db_events(d, "auth_lockout"))
            during = d.db_value("SELECT count(*) FROM significant_events")
            self.assertEqual(during - before, 1)
            d.stop()
            after = d.db_value("SELECT count(*) FROM significant_events")
            self.assertLessEqual(after - before, 1 + 1 + 1)       # the lockout, the summary, daemon_stopped
            s = db_events(d, "auth_failures")
            self.assertEqual(len(s), 1)
            s = s[0]
            self.assertEqual(s["failures"], 2040)
            self.assertEqual(s["failures_while_locked"], 35)
            self.assertEqual(s["addresses"], 1001)
            self.assertTrue(s["addresses_exact"])
            self.assertEqual(s["lockouts"], 1)
            self.assertEqual(s["lockouts_not_recorded"], 0)
            self.assertEqual(s["served_while_locked"], 1)
            self.assertEqual(len(s["top"]), 10)
            self.assertEqual(s["top"][0], {"client": "192.0.2.99", "failures": 40})
            self.assertEqual([t["failures"] for t in s["top"][1:]], [2] * 9)
            self.assertEqual(s["top"][1]["client"], "10.0.0.0")
            self.assertIn("auth: 2040 failed sign-ins from 1001 addresses since ", d.run_log())
            self.assertIn("(most: 192.0.2.99 (40), 10.0.0.0 (2), 10.0.0.1 (2)), 1 lockouts", d.run_log())

    def test_many_addresses_beyond_the_count(self):
        """More addresses in a minute than are counted apart: the totals stay exact, the address that fails most is
        still named first, and the count of addresses says it is a bound."""
        with pbtest.Daemon(overrides={"auth": {"max_failures": 5, "lockout_seconds": 600},
                                      "trusted_proxies": ["127.0.0.1"]}) as d:
            d.start()
            conn = http.client.HTTPConnection(d.host, d.port, timeout=30)
            for i in range(2100):
                xff = "192.0.2.1" if i % 7 == 0 else "10.1.%d.%d" % (i // 256, i % 256)
                conn.request("GET", "/api/v1/tables", headers={"Authorization": "Bearer nope", "X-Forwarded-For": xff})
                conn.getresponse().read()
            conn.close()
            d.stop()
            s = db_events(d, "auth_failures")[0]
            self.assertEqual(s["failures"], 2100)
            self.assertFalse(s["addresses_exact"])
            self.assertGreaterEqual(s["addresses"], 1801)
            self.assertEqual(s["top"][0]["client"], "192.0.2.1")
            self.assertEqual(s["top"][0]["failures"], 300)


def db_events(d, code):
    """The details of the significant events of that code, oldest first, read from the database."""
    return [json.loads(r[0]) for r in d.db_rows("SELECT detail FROM significant_events WHERE code = ? ORDER BY id",
                                                (code,))]


def wait_events(case, d, code, n, timeout=30):
    """The significant events of that code once there are n (they are written by the main loop, once a second);
    exactly n."""
    def found():
        evs = [e for e in case.events(d) if e["code"] == code]
        return evs if len(evs) >= n else None
    evs = pbtest.wait_until("%d %s events" % (n, code), found, timeout=timeout)
    case.assertEqual(len(evs), n, evs)
    return evs


if __name__ == "__main__":
    unittest.main()
