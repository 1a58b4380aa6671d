"""
Hostile HTTP against the real daemon, over raw sockets: framing tricks
(huge, oversized chunked and truncated bodies, slow and idle clients),
wrong methods, path tricks, oversized headers, hostile JSON (deep nesting,
duplicate keys, invalid UTF-8, NUL bytes, numbers past 64 bits, floats,
huge arrays), Authorization and Idempotency-Key variants, static file
tricks, and the authentication lockout.

For each: the answer is a 4xx (or the connection is closed, for framing
errors), the record is unchanged (row counts of every round table, the
chain head, the rows of rounds, bets and table_state: pbtest.snapshot), and
the daemon is alive (GET /api/v1/health answers 200).

Comments marked FINDING name weaknesses this catalogue found and that were
fixed since (docs/reliability.md); their tests keep them fixed.
"""
import json
import re
import socket
import subprocess
import sys
import threading
import time
import unittest

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
import pbtest  # noqa: E402
from pbtest import DEALER, PITBOSS_TOKEN, AUDITOR  # noqa: E402

MAX_BODY = 65536
TIMEOUT = 3          # connection_timeout of the daemon under test, seconds
AUTH = b"Authorization: Bearer demo-dealer\r\n"
WHOLE = {"bets": {"1": {"ante": 1000}}, "hands": {"1": ["As", "Kd", "Qh"]}, "dealer": ["2c", "7d", "9h"],
         "decisions": {"1": "play"}}


class Answer:
    """What came back on a raw connection: the status (None when nothing), headers, body, how it ended."""

    def __init__(self, raw, ended, seconds):
        self.raw = raw
        self.ended = ended          # "closed", "reset", "timeout"
        self.seconds = seconds
        self.status = None
        self.headers = {}
        self.body = b""
        if raw.startswith(b"HTTP/1."):
            head, _, self.body = raw.partition(b"\r\n\r\n")
            lines = head.split(b"\r\n")
            self.status = int(lines[0].split()[1])
            for l in lines[1:]:
                k, _, v = l.partition(b":")
                self.headers[k.strip().lower().decode()] = v.strip().decode(errors="replace")

    def json(self):
        try:
            return json.loads(self.body.decode())
        except ValueError:
            return None

    def __repr__(self):
        return "<%s after %.2fs: %r>" % (self.ended, self.seconds, self.raw[:200])


def request_bytes(method, path, body=None, headers=(), auth=AUTH, close=True, length=None):
    """A request as bytes; body bytes or JSON-able; length overrides Content-Length."""
    if body is not None and not isinstance(body, bytes):
        body = json.dumps(body).encode()
    out = b"%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\n" % (method.encode(), path if isinstance(path, bytes) else path.encode())
    out += auth or b""
    for h in headers:
        out += h if isinstance(h, bytes) else h.encode()
        out += b"\r\n"
    if body is not None or length is not None:
        out += b"Content-Type: application/json\r\nContent-Length: %d\r\n" % (length if length is not None else len(body))
    if close:
        out += b"Connection: close\r\n"
    return out + b"\r\n" + (body or b"")


class HostileCase(pbtest.DaemonTestCase):
    daemon_kwargs = {"overrides": {"max_body_bytes": MAX_BODY, "connection_timeout": TIMEOUT,
                                   "connection_limit": 32, "auth": {"max_failures": 5, "lockout_seconds": 2}}}

    # ---- raw connections ----

    def connect(self, src=None, timeout=10):
        return socket.create_connection((self.d.host, self.d.port), timeout=timeout,
                                        source_address=(src, 0) if src else None)

    def read_answer(self, s, t0, timeout=10):
        s.settimeout(timeout)
        buf = b""
        while True:
            try:
                c = s.recv(65536)
            except socket.timeout:
                return Answer(buf, "timeout", time.monotonic() - t0)
            except ConnectionResetError:
                return Answer(buf, "reset", time.monotonic() - t0)
            if not c:
                return Answer(buf, "closed", time.monotonic() - t0)
            buf += c

    def raw(self, data, src=None, timeout=10, shutdown=False):
        """Sends data on a fresh connection and reads until the daemon closes it."""
        s = self.connect(src, timeout)
        t0 = time.monotonic()
        try:
            try:
                s.sendall(data)
                if shutdown:
                    s.shutdown(socket.SHUT_WR)
            except (BrokenPipeError, ConnectionResetError):
                pass        # the daemon answered (413) and closed without reading everything
            return self.read_answer(s, t0, timeout)
        finally:
            s.close()

    # ---- what every hostile request must leave behind ----

    def assert_alive(self):
        st, js = self.d.call("GET", "/api/v1/health", token=None, timeout=10)
        self.assertEqual((st, js), (200, {"status": "ok"}), "the daemon is not healthy")
        self.assertTrue(self.d.running, "pitbossd exited")

    def hostile(self, what, data, statuses=None, may_close=False, src=None, timeout=10, shutdown=False, code=None,
                allow_505=False):
        """Sends data raw; the answer must be one of statuses (4xx), or no answer when may_close; the
        record must not change and the daemon must stay alive.  Returns the Answer."""
        before = pbtest.snapshot(self.d)
        ans = self.raw(data, src=src, timeout=timeout, shutdown=shutdown)
        after = pbtest.snapshot(self.d)
        if ans.status is None:
            self.assertTrue(may_close, "%s: no answer %r" % (what, ans))
            self.assertNotEqual(ans.ended, "timeout", "%s: the daemon neither answered nor closed" % what)
        else:
            self.assertTrue(400 <= ans.status < 500 or (allow_505 and ans.status == 505), "%s: %r" % (what, ans))
            if statuses is not None:
                self.assertIn(ans.status, statuses, "%s: %r" % (what, ans))
            if code is not None:
                js = ans.json()
                self.assertIsInstance(js, dict, "%s: %r" % (what, ans))
                self.assertEqual(js["error"]["code"], code, "%s: %r" % (what, ans))
        for k in before:
            self.assertEqual(before[k], after[k], "%s changed the record (%s)" % (what, k))
        self.assert_alive()
        return ans

    @classmethod
    def tearDownClass(cls):
        # Stopped cleanly, the record these requests leave must pass `pitboss verify`.
        d = cls.d
        try:
            if d is not None and d.running:
                d.stop()
                p = subprocess.run([pbtest.PITBOSS, "verify", "--database", d.db_path], stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT)
                if p.returncode != 0:
                    raise AssertionError("pitboss verify after %s: %s" % (cls.__name__, p.stdout.decode(errors="replace")))
        finally:
            super().tearDownClass()

    def void_open_rounds(self, table):
        st, js = self.d.call("GET", "/api/v1/tables/%s" % table, token=AUDITOR)
        rid = js["table"]["current_round"] if st == 200 else None
        if rid:
            self.d.call("POST", "/api/v1/rounds/%d/void" % rid, {"reason": "test cleanup"}, token=PITBOSS_TOKEN)


class Framing(HostileCase):
    """Bodies and connections that do not play by the rules."""

    def test_huge_content_length_refused_at_once(self):
        for extra in ((), ("Expect: 100-continue",)):
            data = request_bytes("POST", "/api/v1/tables/T1/rounds", headers=extra, length=100 * 1024 * 1024)
            ans = self.hostile("Content-Length 100 MB %s" % (extra,), data + b"x" * 4096, statuses=(413,),
                               code="body_too_large")
            self.assertLess(ans.seconds, 3.0, "the 413 must come at once, without the body: %r" % ans)
            self.assertNotEqual(ans.ended, "timeout")

    def test_content_length_past_the_limit_by_one(self):
        body = b'{"bets": ' + b" " * (MAX_BODY - 9) + b"}"
        self.assertEqual(len(body), MAX_BODY + 1)
        self.hostile("one byte too many", request_bytes("POST", "/api/v1/tables/T1/rounds", body), statuses=(413,),
                     code="body_too_large")

    def test_chunked_body_over_the_limit(self):
        head = request_bytes("POST", "/api/v1/tables/T1/rounds", headers=("Transfer-Encoding: chunked",))
        chunk = b" " * 4096
        body = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(2 * MAX_BODY // 4096)) + b"0\r\n\r\n"
        self.hostile("chunked body of %d bytes" % (2 * MAX_BODY), head + body, statuses=(413,), code="body_too_large")

    def test_chunked_body_within_the_limit_is_read(self):
        # The control: a whole round sent chunked, in small pieces, is accepted.
        body = json.dumps(WHOLE).encode()
        pieces = b"".join(b"%x\r\n%s\r\n" % (len(body[i:i + 7]), body[i:i + 7]) for i in range(0, len(body), 7))
        ans = self.raw(request_bytes("POST", "/api/v1/tables/T2/rounds", headers=("Transfer-Encoding: chunked",))
                       + pieces + b"0\r\n\r\n")
        self.assertEqual(ans.status, 201, ans)
        self.assertEqual(ans.json()["round"]["state"], "settled")

    def test_malformed_chunks(self):
        head = request_bytes("POST", "/api/v1/tables/T1/rounds", headers=("Transfer-Encoding: chunked",))
        for what, body in (("chunk size not hex", b"zz\r\n{}\r\n0\r\n\r\n"),
                           ("chunk longer than its size", b"2\r\n{}xxxx\r\n0\r\n\r\n"),
                           ("chunk size past 64 bits", b"1ffffffffffffffffff\r\n{}\r\n0\r\n\r\n")):
            self.hostile(what, head + body, may_close=True)

    def test_truncated_body_then_close(self):
        data = request_bytes("POST", "/api/v1/tables/T1/rounds", length=1000) + json.dumps(WHOLE).encode()[:40]
        self.hostile("Content-Length 1000, 40 bytes sent, then closed", data, may_close=True, shutdown=True)

    def test_truncated_body_left_hanging_is_dropped(self):
        # The client sends part of the body and waits: the daemon closes it after connection_timeout.
        data = request_bytes("POST", "/api/v1/tables/T1/rounds", length=1000) + json.dumps(WHOLE).encode()[:40]
        ans = self.hostile("Content-Length 1000, 40 bytes sent, then silence", data, may_close=True,
                           timeout=TIMEOUT + 10)
        self.assertLess(ans.seconds, TIMEOUT + 5, ans)

    def test_idle_connection_is_closed(self):
        s = self.connect(timeout=TIMEOUT + 10)
        t0 = time.monotonic()
        try:
            ans = self.read_answer(s, t0, TIMEOUT + 10)
        finally:
            s.close()
        self.assertIn(ans.ended, ("closed", "reset"), ans)
        self.assertLess(ans.seconds, TIMEOUT + 5, ans)
        self.assert_alive()

    def test_slow_client_does_not_block_others(self):
        # One client sends its headers a byte at a time; meanwhile other connections are served promptly,
        # reads and writes alike.
        s = self.connect(src="127.0.0.2", timeout=30)
        stop = threading.Event()
        sent = []

        def trickle():
            data = request_bytes("GET", "/api/v1/tables")
            for i in range(len(data) - 2):
                if stop.is_set():
                    return
                try:
                    s.send(data[i:i + 1])
                except OSError:
                    return
                sent.append(i)
                pbtest.pace(0.05)

        th = threading.Thread(target=trickle)
        th.start()
        try:
            pbtest.wait_until("the slow client sends", lambda: len(sent) >= 3)
            t_end = time.monotonic() + 1.5
            while time.monotonic() < t_end:
                t0 = time.monotonic()
                st, js = self.d.call("GET", "/api/v1/tables", timeout=5)
                self.assertEqual(st, 200)
                st, js = self.d.call("POST", "/api/v1/tables/T3/rounds", WHOLE, timeout=5)
                self.assertEqual(st, 201, js)
                self.assertLess(time.monotonic() - t0, 3.0, "a normal client waited behind the slow one")
            self.assertGreater(len(sent), 5, "the slow client did not get to send")
        finally:
            stop.set()
            th.join()
            s.close()
        self.assert_alive()

    def test_one_client_cannot_take_every_connection(self):
        # FINDING (fixed): MHD_OPTION_PER_IP_CONNECTION_LIMIT was connection_limit (server.c), so one client
        # address that opens connection_limit slow connections (slowloris) locks every other client out.
        # Fix: a per-client limit well below the total (e.g. a config key per_client_connection_limit,
        # default connection_limit / 8).
        socks = []
        stop = threading.Event()
        rounds = [0]

        def trickle():
            # A header line every half second: never idle long enough for connection_timeout.
            while not stop.wait(0.5):
                for c in socks:
                    try:
                        c.sendall(b"X-Slow: 1\r\n")
                    except OSError:
                        pass
                rounds[0] += 1

        th = threading.Thread(target=trickle)
        try:
            for _ in range(40):
                try:
                    c = self.connect(src="127.0.0.3", timeout=5)
                    c.sendall(b"GET /api/v1/health HTTP/1.1\r\n")
                    socks.append(c)
                except OSError:
                    break
            th.start()
            pbtest.wait_until("the slow client sent a header line on every connection", lambda: rounds[0] >= 1)
            st, js = self.d.call("GET", "/api/v1/health", token=None, timeout=TIMEOUT - 1)
            self.assertEqual(st, 200)
        finally:
            stop.set()
            if th.is_alive():
                th.join()
            for c in socks:
                c.close()
        # the daemon closes its side at once (the metrics' own connection, and one it has not finished closing)
        pbtest.wait_until("the slow connections closed", lambda: self.connections_open() <= 2)

    def connections_open(self):
        st, _, raw = self.d.request("GET", "/metrics", token=AUDITOR)
        self.assertEqual(st, 200)
        return int(re.search(rb"^pitboss_connections_open (\d+)$", raw, re.M).group(1))

    def test_garbage_and_foreign_protocols(self):
        # 505 for a request line that names HTTP/2: the one 5xx allowed, it is about the framing.
        self.hostile("HTTP/2 preface", b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", may_close=True, allow_505=True)
        for what, data in (("not HTTP", b"GARBAGE\r\n\r\n"),
                           ("a TLS ClientHello", b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 64),
                           ("HTTP/0.9", b"GET /\r\n\r\n"),
                           ("no method", b" /api/v1/tables HTTP/1.1\r\n\r\n"),
                           ("a header without a colon", b"GET /api/v1/health HTTP/1.1\r\nHost x\r\nnonsense\r\n\r\n"),
                           ("Content-Length not a number",
                            request_bytes("POST", "/api/v1/tables/T1/rounds", headers=("Content-Length: abc",)) + b"{}"),
                           ("negative Content-Length",
                            request_bytes("POST", "/api/v1/tables/T1/rounds", headers=("Content-Length: -1",)) + b"{}")):
            self.hostile(what, data, may_close=True)

    def test_content_length_and_chunked_together(self):
        # Transfer-Encoding wins (RFC 9112 6.1); either way a broken body records nothing.
        data = request_bytes("POST", "/api/v1/tables/T1/rounds",
                             headers=("Transfer-Encoding: chunked", "Content-Length: 2")) + b"3\r\n{\"b\r\n0\r\n\r\n"
        self.hostile("Content-Length and Transfer-Encoding", data, may_close=True)


class Routing(HostileCase):
    """Methods and paths."""

    def test_wrong_methods_405_with_allow(self):
        rid = self.open_round("T1")
        self.addCleanup(self.void_open_rounds, "T1")
        for method, path, allow in (("PATCH", "/api/v1/tables", "GET"),
                                    ("DELETE", "/api/v1/health", "GET"),
                                    ("POST", "/api/v1/health", "GET"),
                                    ("GET", "/api/v1/rounds/%d/settle" % rid, "POST"),
                                    ("PUT", "/api/v1/rounds/%d/close" % rid, "POST"),
                                    ("PUT", "/api/v1/tables/T1/rounds", "GET, POST"),
                                    ("DELETE", "/api/v1/tables/T1/rounds", "GET, POST"),
                                    ("POST", "/api/v1/rounds/%d" % rid, "GET"),
                                    ("GET", "/api/v1/rounds/%d/bets/1" % rid, "PUT, DELETE"),
                                    ("POST", "/api/v1/rounds/%d/bets/1" % rid, "PUT, DELETE"),
                                    ("GET", "/api/v1/tables/T1/open", "POST"),
                                    ("POST", "/api/v1/tables/T1/limits", "PUT"),
                                    ("POST", "/metrics", "GET"),
                                    ("BREW", "/api/v1/tables", "GET"),
                                    ("POST", "/index.html", "GET, HEAD"),
                                    ("DELETE", "/", "GET, HEAD")):
            ans = self.hostile("%s %s" % (method, path), request_bytes(method, path, b"{}"), statuses=(405,),
                               code="method_not_allowed")
            self.assertEqual(ans.headers.get("allow"), allow, "%s %s: %r" % (method, path, ans))

    def test_path_tricks(self):
        for path in ("/api/v1/../v1/tables/T1/rounds",
                     "/api/v1/%2e%2e/v1/tables/T1/rounds",
                     "/api/v1/tables/T1/rounds/../../T2/rounds",
                     "/api/v1/tables/./T1/rounds",
                     "/api/v1/tables/%2e/T1/rounds",
                     "/api/v1/tables/T1/rounds/.",
                     "//api//v1/tables/T1/rounds",
                     "/api//v1/tables/T1/rounds",
                     "/api/v1//tables/T1/rounds",
                     "/api/v1/tables//T1/rounds",
                     "/API/V1/tables/T1/rounds",
                     "/api/v2/tables/T1/rounds",
                     "/api/v1/tables/T1;x/rounds",
                     "/api/v1/tables/T1%20/rounds",
                     "/api/v1/tables/%54%31/rounds%20",
                     "/api/v1/tables/" + "T" * 5000 + "/rounds",
                     "/api/v1/" + "a/" * 2000 + "rounds",
                     "/api/v1/rounds/-1/settle",
                     "/api/v1/rounds/0x10/settle",
                     "/api/v1/rounds/99999999999999999999999/settle",
                     "/api/v1/rounds/1e3/settle",
                     "http://127.0.0.1/api/v1/tables/T1/rounds"):
            for method, body in (("POST", WHOLE), ("GET", None)):
                self.hostile("%s %s" % (method, path[:80]), request_bytes(method, path, body), may_close=True)
        # A path past the connection's memory: 414 or 431, or closed.
        self.hostile("a 100 KB path", request_bytes("GET", "/api/v1/" + "a" * 100000), may_close=True)

    def test_encoded_slash_is_not_a_separator(self):
        # FINDING (fixed): libmicrohttpd decoded %2F before routing, so "/api/v1/tables/T1%2Frounds" is routed as
        # /tables/T1/rounds and POST opens a round there; an id holding an encoded slash must be refused
        # (404), not split.  Fix: MHD_OPTION_UNESCAPE_CALLBACK that leaves %2F and %00 encoded.
        self.addCleanup(self.void_open_rounds, "F1")
        self.hostile("POST /api/v1/tables/F1%2Frounds", request_bytes("POST", "/api/v1/tables/F1%2Frounds", {}),
                     statuses=(404, 405))
        self.hostile("GET /api/v1/tables/F1%2Frounds", request_bytes("GET", "/api/v1/tables/F1%2Frounds"),
                     statuses=(404,))

    def test_oversized_headers(self):
        for what, headers in (("one 100 KB header", ("X-Big: " + "a" * 100000,)),
                              ("5000 headers", tuple("X-H%d: v" % i for i in range(5000))),
                              ("a 60 KB cookie", ("Cookie: " + "c=" * 30000,))):
            self.hostile(what, request_bytes("POST", "/api/v1/tables/T1/rounds", WHOLE, headers=headers),
                         statuses=(400, 413, 414, 431), may_close=True)


class HostileJson(HostileCase):
    """Bodies that are not the JSON the API expects."""

    def post(self, what, path, body, statuses=(400,), code=None):
        return self.hostile(what, request_bytes("POST" if not path.count("/bets/") else "PUT", path, body),
                            statuses=statuses, code=code)

    def test_deep_nesting(self):
        for what, body in (("10000 [", b"[" * 10000),
                           ("10000 [ closed", b"[" * 10000 + b"]" * 10000),
                           ("10000 {\"a\":", b'{"a":' * 10000),
                           ("deep inside bets", b'{"bets": {"1": ' + b"[" * 5000 + b"]" * 5000 + b"}}")):
            self.post(what, "/api/v1/tables/T1/rounds", body)

    def test_duplicate_keys(self):
        for body in (b'{"bets": {"1": {"ante": 1000}}, "bets": {"1": {"ante": 2000}}}',
                     b'{"bets": {"1": {"ante": 1000, "ante": 50000}}, "hands": {"1": ["As","Kd","Qh"]}, '
                     b'"dealer": ["2c","7d","9h"], "decisions": {"1": "play"}}',
                     b'{"bets": {"1": {"ante": 1000}, "1": {"ante": 1000}}}',
                     b'{"bets": {"1": {"ante": 1000}}, "hands": {"1": ["As","Kd","Qh"]}, "dealer": ["2c","7d","9h"], '
                     b'"decisions": {"1": "play", "1": "fold"}}'):
            self.post("duplicate keys %r" % body[:60], "/api/v1/tables/T1/rounds", body, code="malformed_json")

    def test_invalid_utf8(self):
        for what, bad in (("0xff", b"\xff"), ("a lone continuation byte", b"\x80"), ("overlong '/'", b"\xc0\xaf"),
                          ("a UTF-16 surrogate", b"\xed\xa0\x80"), ("a truncated sequence", b"\xe2\x82"),
                          ("past U+10FFFF", b"\xf4\x90\x80\x80")):
            self.post("%s in a card" % what, "/api/v1/tables/T1/rounds",
                      b'{"bets": {"1": {"ante": 1000}}, "hands": {"1": ["A' + bad + b's","Kd","Qh"]}, '
                      b'"dealer": ["2c","7d","9h"], "decisions": {"1": "play"}}', code="malformed_json")
            self.post("%s in a key" % what, "/api/v1/tables/T1/rounds", b'{"be' + bad + b'ts": {}}', code="malformed_json")
        for esc in (b"\\ud800", b"\\udc00", b"\\ud800\\u0041"):
            self.post("unpaired escape %r" % esc, "/api/v1/tables/T1/rounds", b'{"bets": "' + esc + b'"}',
                      code="malformed_json")

    def test_nul_bytes(self):
        for what, body in (("a raw NUL in a string", b'{"reason": "a\x00b"}'),
                           ("a raw NUL between tokens", b'{}\x00'),
                           ("a NUL before the JSON", b'\x00{}'),
                           ("\\u0000 in a card", b'{"bets": {"1": {"ante": 1000}}, "hands": {"1": ["As\\u0000","Kd","Qh"]}, '
                                                 b'"dealer": ["2c","7d","9h"], "decisions": {"1": "play"}}'),
                           ("\\u0000 in a key", b'{"bets\\u0000": {}}')):
            self.post(what, "/api/v1/tables/T1/rounds", body, code="malformed_json")

    def test_numbers(self):
        rid = self.open_round("T2")
        self.addCleanup(self.void_open_rounds, "T2")
        for text in (b"9223372036854775808", b"-9223372036854775809", b"18446744073709551616",
                     b"99999999999999999999999999999", b"1e400", b"-1e400"):
            self.post("ante %s" % text.decode(), "/api/v1/rounds/%d/bets/1" % rid, b'{"ante": ' + text + b"}",
                      code="malformed_json")
            self.post("whole round ante %s" % text.decode(), "/api/v1/tables/T1/rounds",
                      json.dumps(WHOLE).replace('"ante": 1000', '"ante": ' + text.decode()).encode(), code="malformed_json")
        for text in (b"9223372036854775807", b"-9223372036854775808", b"-1", b"1000000000001"):
            self.post("ante %s" % text.decode(), "/api/v1/rounds/%d/bets/1" % rid, b'{"ante": ' + text + b"}",
                      code="invalid_amount")
        for text in (b"1000.0", b"1e3", b"1000.5", b"1.0e3", b"-0.0", b'"1000"', b"true", b"null", b"[1000]", b"{}"):
            self.post("ante %s" % text.decode(), "/api/v1/rounds/%d/bets/1" % rid, b'{"ante": ' + text + b"}",
                      code="invalid_amount")
            self.post("pair_plus %s" % text.decode(), "/api/v1/rounds/%d/bets/1" % rid,
                      b'{"ante": 1000, "pair_plus": ' + text + b"}", code="invalid_amount")
        for text in (b"1.0", b"9223372036854775808", b"-1", b'"1"'):
            self.hostile("seat %s" % text.decode(), request_bytes("POST", "/api/v1/rounds/%d/decisions" % rid,
                                                                 b'{"seat": ' + text + b', "action": "play"}'),
                         statuses=(400, 409, 422))
        self.post("banker bank 2^63", "/api/v1/tables/P1/rounds", b'{"banker": {"seat": 1, "bank": 9223372036854775808}}',
                  code="malformed_json")
        self.post("banker bank as a float", "/api/v1/tables/P1/rounds", b'{"banker": {"seat": 1, "bank": 50000.0}}',
                  code="invalid_amount")

    def test_huge_arrays_and_objects(self):
        n = (MAX_BODY - 200) // 6
        hand = json.dumps(["As"] * n)
        self.post("%d cards in a hand" % n, "/api/v1/tables/T1/rounds",
                  ('{"bets": {"1": {"ante": 1000}}, "hands": {"1": %s}, "dealer": ["2c","7d","9h"]}' % hand).encode(),
                  statuses=(422,), code="wrong_card_count")
        self.post("a top-level array of %d numbers" % n, "/api/v1/tables/T1/rounds",
                  json.dumps(list(range(n // 2))).encode()[:MAX_BODY - 10].rsplit(b",", 1)[0] + b"]",
                  code="invalid_body")
        seats = {str(i): {"ante": 1000} for i in range(1, 2000)}
        self.post("bets for 2000 seats", "/api/v1/tables/T1/rounds",
                  json.dumps({"bets": seats, "hands": {}, "dealer": []}).encode(), statuses=(422,), code="invalid_seat")
        self.post("3000 unknown keys", "/api/v1/tables/T1/rounds",
                  json.dumps({"k%d" % i: i for i in range(3000)}).encode(), code="unknown_field")
        self.post("a 60 KB void reason", "/api/v1/rounds/1/void", json.dumps({"reason": "r" * 60000}).encode(),
                  statuses=(404, 422))

    def test_not_objects(self):
        for body in (b"[]", b"null", b"true", b"0", b'"a round"', b"{}}", b"{,}", b"{'bets': 1}", b"\xef\xbb\xbf{}"):
            self.post("body %r" % body, "/api/v1/tables/T1/rounds", body)


class Credentials(HostileCase):
    """Authorization and Idempotency-Key variants.  Each bad credential comes from an address of its own,
    so that no lockout carries over between them (the lockout has a test class of its own)."""

    def test_authorization_variants(self):
        src = iter("127.0.1.%d" % i for i in range(1, 200))
        for what, header, status in (
                ("lower-case scheme (RFC 7235: case-insensitive)", b"Authorization: bearer demo-dealer\r\n", 200),
                ("upper-case scheme", b"Authorization: BEARER demo-dealer\r\n", 200),
                ("no space", b"Authorization: Bearerdemo-dealer\r\n", 401),
                ("two spaces", b"Authorization: Bearer  demo-dealer\r\n", 401),
                ("a tab", b"Authorization: Bearer\tdemo-dealer\r\n", 401),
                ("scheme only", b"Authorization: Bearer\r\n", 401),
                ("empty", b"Authorization:\r\n", 401),
                ("Basic", b"Authorization: Basic ZGVtby1kZWFsZXI6\r\n", 401),
                ("token with a suffix", b"Authorization: Bearer demo-dealerX\r\n", 401),
                ("token prefix", b"Authorization: Bearer demo-deale\r\n", 401),
                ("upper-case token", b"Authorization: Bearer DEMO-DEALER\r\n", 401),
                ("a 10 KB token", b"Authorization: Bearer " + b"a" * 10240 + b"\r\n", 401),
                ("a 10 KB token that starts with a good one", b"Authorization: Bearer demo-dealer" + b"a" * 10240 + b"\r\n", 401),
                ("a token with invalid UTF-8", b"Authorization: Bearer demo-\xff\xfe\r\n", 401),
                ("the hash of a token instead of it",
                 b"Authorization: Bearer a8d2d3534a2c99d7aa6f82c7d9126941e269b3494f99be4656be00796c2eda43\r\n", 401)):
            addr = next(src)
            # A write with it: refused unless the credential is good (then the round is voided again).
            before = pbtest.snapshot(self.d)
            ans = self.raw(request_bytes("GET", "/api/v1/tables", auth=header), src=addr)
            self.assertEqual(ans.status, status, "%s: %r" % (what, ans))
            if status != 200:
                self.hostile(what + " (a write)", request_bytes("POST", "/api/v1/tables/T1/rounds", WHOLE, auth=header),
                             statuses=(401,), code="unauthorized", src=addr)
            self.assertEqual(before, pbtest.snapshot(self.d))
        self.hostile("no Authorization", request_bytes("POST", "/api/v1/tables/T1/rounds", WHOLE, auth=b""),
                     statuses=(401,), code="unauthorized")

    def test_two_authorization_headers(self):
        # The first one counts: a bad one followed by a good one is refused.
        self.hostile("bad then good", request_bytes("POST", "/api/v1/tables/T1/rounds", WHOLE,
                                                    auth=b"Authorization: Bearer nope\r\n" + AUTH),
                     statuses=(401,), src="127.0.2.1")

    def test_idempotency_key_variants(self):
        for what, key in (("10 KB", b"k" * 10240), ("129 bytes", b"k" * 129), ("empty", b""),
                          ("invalid UTF-8", b"key-\xff")):
            self.hostile("Idempotency-Key %s" % what,
                         request_bytes("POST", "/api/v1/tables/T1/rounds", WHOLE, headers=(b"Idempotency-Key: " + key,)),
                         statuses=(400,), code="invalid_idempotency_key")
        # A control byte in any header is refused by the edge's framing before the key is looked at (issue 15:
        # bad_request, and the connection closed; test_edge.py has the cases).
        for what, key in (("a control character", b"key\x01one"), ("DEL", b"key\x7f")):
            self.hostile("Idempotency-Key %s" % what,
                         request_bytes("POST", "/api/v1/tables/T1/rounds", WHOLE, headers=(b"Idempotency-Key: " + key,)),
                         statuses=(400,), code="bad_request")
        # 128 printable bytes is the longest key taken; a retry with it answers the first answer.
        key = "k" * 128
        st1, js1 = self.d.call("POST", "/api/v1/tables/T3/rounds", WHOLE, idem=key)
        self.assertEqual(st1, 201, js1)
        before = pbtest.snapshot(self.d)
        st2, js2 = self.d.call("POST", "/api/v1/tables/T3/rounds", WHOLE, idem=key)
        self.assertEqual((st2, js2), (st1, js1))
        self.assertEqual(before, pbtest.snapshot(self.d))


class StaticFiles(HostileCase):
    """The page's files: nothing outside web_root, nothing hidden."""

    def test_static_tricks(self):
        for path in ("/../../etc/passwd", "/../config/pitboss.json", "/%2e%2e/%2e%2e/etc/passwd",
                     "/%2e%2e%2f%2e%2e%2fetc%2fpasswd", "/..%2f..%2fconfig%2fpitboss.json", "/%2fetc%2fpasswd",
                     "//etc/passwd", "/.hidden", "/.git/config", "/.%2e/config/pitboss.json", "/index.html/..",
                     "/index.html/", "/./index.html", "/\\..\\..\\etc\\passwd", "/%5c..%5c..%5cetc%5cpasswd",
                     "/" + "a" * 5000, "/%ff%fe", "/nonexistent.js",
                     "/etc/passwd", "/proc/self/environ"):
            ans = self.hostile("GET %s" % path[:60], request_bytes("GET", path, auth=b""), statuses=(400, 404, 414))
            self.assertNotIn(b"root:", ans.body)
            self.assertNotIn(b"sha256", ans.body)
        # The control: the page itself is served.
        ans = self.raw(request_bytes("GET", "/", auth=b""))
        self.assertEqual(ans.status, 200, ans)

    def test_static_encoded_nul(self):
        # FINDING (fixed): libmicrohttpd decoded %00 into a NUL that ends the path string, so "/index.html%00" and
        # "/index.html%00.png" are served as /index.html (and "?limit=1%00" reads as 1).  A path or value
        # holding an encoded NUL must be refused.  Fix: the same unescape callback as for %2F.
        for path in ("/index.html%00", "/index.html%00.png"):
            self.hostile("GET %s" % path, request_bytes("GET", path, auth=b""), statuses=(400, 404))

    def test_api_encoded_nul(self):
        # FINDING (the same, fixed): "/api/v1/tables/T1%00/rounds" reads as /api/v1/tables/T1.
        self.hostile("GET /api/v1/tables/T1%00/rounds", request_bytes("GET", "/api/v1/tables/T1%00/rounds"),
                     statuses=(400, 404))


class Lockout(HostileCase):
    """Five bad tokens from one client lock it out for failing attempts, for lockout_seconds; a good token from it
    is served meanwhile; the lockout is a significant event (the failures are counted in the summary written at
    stop); other clients are not affected; the record of rounds is unchanged by the refusals.  lockout_seconds
    are the test clock's: the failures count and the lockout holds until the test moves the clock, however slow
    the machine."""

    LOCKOUT = 600
    daemon_kwargs = {"clock": True, "overrides": {"auth": {"max_failures": 5, "lockout_seconds": LOCKOUT}}}
    ATTACKER = "127.0.0.9"

    def raw_get(self, path, token, src):
        s = socket.create_connection((self.d.host, self.d.port), timeout=10, source_address=(src, 0))
        try:
            s.sendall(request_bytes("GET", path, auth=b"Authorization: Bearer %s\r\n" % token.encode() if token else b""))
            buf = b""
            while True:
                c = s.recv(65536)
                if not c:
                    break
                buf += c
        finally:
            s.close()
        return Answer(buf, "closed", 0)

    def events(self):
        st, js = self.call("GET", "/api/v1/events?limit=1000", token=AUDITOR)
        self.assertEqual(st, 200, js)
        return js["events"]

    def test_lockout(self):
        before = pbtest.snapshot(self.d)
        seen = len(self.events())
        for i in range(4):
            ans = self.raw_get("/api/v1/tables", "wrong-%d" % i, self.ATTACKER)
            self.assertEqual(ans.status, 401, ans)
        ans = self.raw_get("/api/v1/tables", "wrong-4", self.ATTACKER)
        self.assertEqual(ans.status, 429, ans)
        self.assertEqual(ans.json()["error"]["code"], "locked_out")
        # Locked out for failing attempts, writes included, with any token but a good one ...
        ans = self.raw_get("/api/v1/tables", "wrong-5", self.ATTACKER)
        self.assertEqual(ans.status, 429, ans)
        self.assertEqual(ans.json()["error"]["code"], "locked_out")
        s = socket.create_connection((self.d.host, self.d.port), timeout=10, source_address=(self.ATTACKER, 0))
        try:
            s.sendall(request_bytes("POST", "/api/v1/tables/T1/rounds", WHOLE, auth=b"Authorization: Bearer wrong-6\r\n"))
            raw = s.recv(65536)
        finally:
            s.close()
        self.assertTrue(raw.startswith(b"HTTP/1.1 429"), raw[:100])
        st, js = self.call("GET", "/api/v1/tables")
        self.assertEqual(st, 200)
        self.assertEqual(self.raw_get("/api/v1/health", None, self.ATTACKER).status, 200)
        # Recorded: the lockout, naming the client (by the main loop, within a second or two); no row per failure.
        evs = pbtest.wait_until("the lockout is recorded",
                                lambda: [e for e in self.events()[seen:] if e["code"].startswith("auth_")])
        self.assertEqual([e["code"] for e in evs], ["auth_lockout"], evs)
        self.assertEqual(evs[0]["detail"]["client"], self.ATTACKER, evs)
        self.assertEqual(evs[0]["detail"]["failures"], 5, evs)
        self.assertEqual(before, pbtest.snapshot(self.d))
        # ... and a good token from the locked-out client is served.
        ans = self.raw_get("/api/v1/tables", DEALER, self.ATTACKER)
        self.assertEqual(ans.status, 200, ans)
        # The lockout ends after lockout_seconds.
        self.d.advance_clock(self.LOCKOUT)
        ans = self.raw_get("/api/v1/tables", DEALER, self.ATTACKER)
        self.assertEqual(ans.status, 200, ans)
        # A good token does not clear the count (a holder of one token cannot guess without end by mixing it in):
        # four failures, a good token, and the fifth failure locks.
        for i in range(4):
            self.assertEqual(self.raw_get("/api/v1/tables", "wrong", self.ATTACKER).status, 401)
        self.assertEqual(self.raw_get("/api/v1/tables", DEALER, self.ATTACKER).status, 200)
        self.assertEqual(self.raw_get("/api/v1/tables", "wrong", self.ATTACKER).status, 429)
        self.assertEqual(self.raw_get("/api/v1/tables", DEALER, self.ATTACKER).status, 200)


if __name__ == "__main__":
    pbtest.main()
