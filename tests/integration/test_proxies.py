"""
test_proxies.py - the client address behind a reverse proxy, and lockouts.

With trusted_proxies naming the peer (127.0.0.1 here), X-Forwarded-For gives
the client: two clients behind the one proxy are locked out apart.  From a
peer that is not trusted, the header is ignored: every client of that peer is
one address.  A lockout is a log line as well as a significant event.
"""
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
            # the client is locked out, even with a good token ...
            st, js = tables(d, "203.0.113.5")
            self.assertEqual(st, 429, js)
            # ... and the other client behind the same proxy is not
            self.assertEqual(tables(d, "203.0.113.6")[0], 200)
            # the proxy's own requests (no header) are its own address
            self.assertEqual(tables(d, None)[0], 200)
            # hops: the last one that is not a trusted proxy is the client; a forged first hop changes nothing
            st, js = tables(d, "10.9.9.9, 203.0.113.5")
            self.assertEqual(st, 429, js)
            st, js = tables(d, "203.0.113.5, 10.9.9.9")
            self.assertEqual(st, 200, js)
            # a hop that is no address: the address the trusted proxies vouch for (the peer here)
            self.assertEqual(tables(d, "not-an-address")[0], 200)
            self.assertIn("auth: 203.0.113.5 locked out for 600 s after 2 failed sign-ins", d.run_log())
            lock = [e for e in self.events(d) if e["code"] == "auth_lockout"]
            self.assertEqual([e["detail"]["client"] for e in lock], ["203.0.113.5"])
            d.stop()

    def test_chain_of_trusted_proxies(self):
        with pbtest.Daemon(overrides={"auth": AUTH, "trusted_proxies": ["127.0.0.0/8", "10.0.0.0/8"]}) as d:
            d.start()
            fail_sign_in(d, "192.0.2.7, 10.1.1.1")
            st, js = fail_sign_in(d, "192.0.2.7")
            self.assertEqual(st, 429, js)
            self.assertIn("from 192.0.2.7", js["error"]["message"])
            st, js = tables(d, "192.0.2.7, 10.200.0.1, 127.0.0.1")
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
            st, js = tables(d, "203.0.113.7")
            self.assertEqual(st, 429, js)
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
            lock = [e for e in self.events(d) if e["code"] == "auth_lockout"]
            self.assertEqual(len(lock), 14)
            d.stop()


if __name__ == "__main__":
    unittest.main()
