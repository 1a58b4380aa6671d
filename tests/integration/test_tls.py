"""
TLS (docs/security.md: "tls": {"cert": PEM, "key": PEM}, libmicrohttpd with
GnuTLS): a self-signed certificate made with the openssl CLI, the daemon
serving HTTPS, clients that do and do not verify it, a whole round over
HTTPS, plain HTTP refused on the TLS port, and start-up failures for bad
certificate and key files that name the file.

The openssl CLI is a build dependency (tools/install-deps.sh); without it
these tests fail, they are not skipped.
"""
import sys
import http.client
import json
import os
import shutil
import socket
import ssl
import subprocess
import unittest

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
import pbtest  # noqa: E402
from pbtest import DEALER, PITBOSS_TOKEN, AUDITOR  # noqa: E402

OPENSSL = shutil.which("openssl")


def openssl(*args, cwd):
    if OPENSSL is None:
        raise AssertionError("the openssl CLI is not installed; tools/install-deps.sh installs it (package openssl)")
    p = subprocess.run([OPENSSL] + list(args), cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    if p.returncode != 0:
        raise AssertionError("openssl %s failed:\n%s" % (" ".join(args), p.stderr.decode(errors="replace")))
    return p


def make_cert(directory, name, kind="ec"):
    """A self-signed certificate for 127.0.0.1 and localhost; returns (cert path, key path)."""
    cert = os.path.join(directory, name + "-cert.pem")
    key = os.path.join(directory, name + "-key.pem")
    newkey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"] if kind == "ec" else ["-newkey", "rsa:2048"]
    openssl("req", "-x509", *newkey, "-nodes", "-keyout", key, "-out", cert, "-days", "2",
            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost", cwd=directory)
    return cert, key


class TlsDaemon(pbtest.Daemon):
    """The harness's daemon, spoken to over HTTPS (health checks at start included)."""

    context = None      # ssl.SSLContext used by request()

    def request(self, method, path, body=None, token=DEALER, idem=None, headers=None, timeout=30):
        if body is None:
            data = None
        elif isinstance(body, (bytes, str)):
            data = body.encode() if isinstance(body, str) else body
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
        h["Content-Length"] = str(len(data) if data is not None else 0)
        conn = http.client.HTTPSConnection(self.host, self.port, timeout=timeout, context=self.context)
        try:
            conn.request(method, path, body=data, headers=h)
            resp = conn.getresponse()
            raw = resp.read()
            return resp.status, {k.lower(): v for k, v in resp.getheaders()}, raw
        finally:
            conn.close()


def unverified():
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    return ctx


class Https(unittest.TestCase):
    """One daemon serving HTTPS for the whole class."""

    @classmethod
    def setUpClass(cls):
        cls.d = TlsDaemon()
        try:
            cls.cert, cls.key = make_cert(cls.d.tmpdir, "server")
            cls.d.config["tls"] = {"cert": cls.cert, "key": cls.key}
            cls.d.write_config()
            cls.d.context = unverified()
            cls.d.start()
        except BaseException:
            cls.d.close()
            raise

    @classmethod
    def tearDownClass(cls):
        try:
            if cls.d.running:
                cls.d.stop()
        finally:
            cls.d.close()

    def ok(self, method, path, body=None, status=200, token=DEALER, context=None):
        if context is not None:
            saved, self.d.context = self.d.context, context
        try:
            st, js = self.d.call(method, path, body, token=token)
        finally:
            if context is not None:
                self.d.context = saved
        self.assertEqual(st, status, "%s %s -> %d %s" % (method, path, st, json.dumps(js)))
        return js

    def test_health_without_verifying(self):
        self.assertEqual(self.ok("GET", "/api/v1/health", token=None), {"status": "ok"})

    def test_health_verifying_the_certificate(self):
        ctx = ssl.create_default_context(cafile=self.cert)
        self.assertEqual(self.ok("GET", "/api/v1/health", token=None, context=ctx), {"status": "ok"})
        # and the certificate presented is the one configured
        with socket.create_connection((self.d.host, self.d.port), timeout=10) as raw:
            with ctx.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
                der = tls.getpeercert(binary_form=True)
                self.assertTrue(tls.version().startswith("TLSv1."), tls.version())
        with open(self.cert) as f:
            self.assertEqual(ssl.DER_cert_to_PEM_cert(der).strip(), f.read().strip())

    def test_a_client_trusting_another_certificate_refuses(self):
        other_dir = os.path.join(self.d.tmpdir, "other")
        os.makedirs(other_dir, exist_ok=True)
        other_cert, _ = make_cert(other_dir, "other")
        ctx = ssl.create_default_context(cafile=other_cert)
        with self.assertRaises(ssl.SSLError):
            self.ok("GET", "/api/v1/health", token=None, context=ctx)
        self.assertEqual(self.ok("GET", "/api/v1/health", token=None), {"status": "ok"})    # still serving

    def test_whole_round_over_https(self):
        body = {"bets": {"1": {"ante": 2500, "pair_plus": 500}, "3": {"ante": 1000, "six_card": 500}},
                "hands": {"1": ["As", "Ks", "Qs"], "3": ["2c", "3d", "4h"]},
                "dealer": ["Qd", "7c", "2h"],
                "decisions": {"1": "play", "3": "fold"}}
        r = self.ok("POST", "/api/v1/tables/T1/rounds", body, status=201)["round"]
        self.assertEqual(r["state"], "settled")
        self.assertEqual(pbtest.payout_core(r["payouts"]), pbtest.lines(
            (1, "ante", 2500, "win", 2500),
            (1, "play", 2500, "win", 2500),
            (1, "pair_plus", 500, "win", 20000),
            (1, "ante_bonus", 2500, "win", 12500),
            (3, "ante", 1000, "forfeit", -1000),
            (3, "six_card", 500, "lose", -500)))
        self.assertEqual(self.ok("GET", "/api/v1/rounds/%d" % r["id"], token=AUDITOR)["round"], r)
        self.assertIs(self.ok("GET", "/api/v1/rounds/%d/verify" % r["id"], token=AUDITOR)["ok"], True)

    def test_step_by_step_round_and_refusals_over_one_connection(self):
        conn = http.client.HTTPSConnection(self.d.host, self.d.port, timeout=30, context=unverified())
        try:
            def call(method, path, body=None, token=DEALER):
                h = {"Authorization": "Bearer " + token} if token else {}
                data = json.dumps(body).encode() if body is not None else b""
                h["Content-Length"] = str(len(data))
                conn.request(method, path, body=data, headers=h)
                resp = conn.getresponse()
                return resp.status, json.loads(resp.read().decode() or "null")

            st, js = call("POST", "/api/v1/tables/T2/rounds", {})
            self.assertEqual(st, 201, js)
            rid = js["round"]["id"]
            self.assertEqual(call("PUT", "/api/v1/rounds/%d/bets/2" % rid, {"ante": 1000})[0], 200)
            st, js = call("PUT", "/api/v1/rounds/%d/bets/2" % rid, {"ante": 10})
            self.assertEqual((st, js["error"]["code"]), (422, "below_minimum"))
            st, js = call("GET", "/api/v1/tables", token=None)
            self.assertEqual((st, js["error"]["code"]), (401, "unauthorized"))
            self.assertEqual(call("POST", "/api/v1/rounds/%d/close" % rid)[0], 200)
            self.assertEqual(call("POST", "/api/v1/rounds/%d/deal" % rid,
                                  {"hands": {"2": ["Ah", "Ad", "3c"]}, "dealer": ["Kc", "9d", "4s"]})[0], 200)
            self.assertEqual(call("POST", "/api/v1/rounds/%d/decisions" % rid, {"seat": 2, "action": "play"})[0], 200)
            st, js = call("POST", "/api/v1/rounds/%d/settle" % rid)
            self.assertEqual(st, 200, js)
            self.assertEqual(pbtest.payout_core(js["round"]["payouts"]), pbtest.lines(
                (2, "ante", 1000, "win", 1000), (2, "play", 1000, "win", 1000)))
        finally:
            conn.close()

    def test_plain_http_on_the_tls_port_fails(self):
        conn = http.client.HTTPConnection(self.d.host, self.d.port, timeout=10)
        try:
            try:
                conn.request("GET", "/api/v1/health")
                resp = conn.getresponse()
                status = resp.status
                resp.read()
            except (OSError, http.client.HTTPException):
                status = None
        finally:
            conn.close()
        self.assertIsNone(status, "plain HTTP on the TLS port was answered %s" % status)
        # at the byte level: whatever comes back is no HTTP answer
        with socket.create_connection((self.d.host, self.d.port), timeout=10) as s:
            s.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            data = b""
            try:
                while True:
                    chunk = s.recv(4096)
                    if not chunk:
                        break
                    data += chunk
            except OSError:
                pass
        self.assertFalse(data.startswith(b"HTTP/"), data[:200])
        self.assertNotIn(b'"status"', data)
        # the daemon is unharmed
        self.assertEqual(self.ok("GET", "/api/v1/health", token=None), {"status": "ok"})

    def test_metrics_over_https(self):
        st, hdrs, raw = self.d.request("GET", "/metrics", token=None)
        self.assertEqual(st, 200)
        self.assertIn(b"pitboss_uptime_seconds", raw)


class TlsStart(unittest.TestCase):
    """Starting with TLS files that are missing, unreadable as PEM, or do not belong together."""

    def setUp(self):
        self.d = TlsDaemon()
        self.addCleanup(self.d.close)
        self.cert, self.key = make_cert(self.d.tmpdir, "server")
        self.d.context = unverified()

    def configure(self, cert, key):
        self.d.config["tls"] = {"cert": cert, "key": key}
        self.d.write_config()

    def refuses(self, *names):
        rc, text = self.d.run_expect_failure()
        self.assertNotEqual(rc, 0, text)
        for n in names:
            self.assertIn(n, text)
        self.assertFalse(self.d.running)
        return text

    def test_rsa_certificate(self):
        cert, key = make_cert(self.d.tmpdir, "rsa", kind="rsa")
        self.configure(cert, key)
        self.d.start()
        self.assertEqual(self.d.call("GET", "/api/v1/health", token=None), (200, {"status": "ok"}))
        self.d.stop()

    def test_missing_key_file(self):
        missing = os.path.join(self.d.tmpdir, "no-such-key.pem")
        self.configure(self.cert, missing)
        self.refuses(missing)

    def test_missing_certificate_file(self):
        missing = os.path.join(self.d.tmpdir, "no-such-cert.pem")
        self.configure(missing, self.key)
        self.refuses(missing)

    def test_empty_key_file(self):
        empty = os.path.join(self.d.tmpdir, "empty-key.pem")
        open(empty, "w").close()
        self.configure(self.cert, empty)
        self.refuses(empty)

    def test_key_file_that_is_no_key(self):
        junk = os.path.join(self.d.tmpdir, "junk-key.pem")
        with open(junk, "w") as f:
            f.write("-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5IGF0IGFsbA==\n-----END PRIVATE KEY-----\n")
        self.configure(self.cert, junk)
        self.refuses(junk)          # a clear error names the file that is wrong

    def test_key_of_another_certificate(self):
        other_dir = os.path.join(self.d.tmpdir, "other")
        os.makedirs(other_dir)
        _, other_key = make_cert(other_dir, "other")
        self.configure(self.cert, other_key)
        text = self.refuses()
        self.assertTrue(other_key in text or self.cert in text, "the message names neither file:\n" + text)

    def test_key_in_the_config_relative_to_its_directory(self):
        # paths in the config are taken relative to the config file's directory
        self.configure(os.path.basename(self.cert), os.path.basename(self.key))
        self.d.start()
        self.assertEqual(self.d.call("GET", "/api/v1/health", token=None), (200, {"status": "ok"}))
        self.d.stop()

    def test_demo_tokens_still_only_on_loopback(self):
        # TLS does not lift the rule that the demo tokens never listen beyond loopback (the rule itself is
        # test_durability's; this is only its combination with TLS)
        self.configure(self.cert, self.key)
        rc, text = self.d.run_expect_failure(["--listen", "0.0.0.0:%d" % pbtest.free_port()])
        self.assertEqual(rc, 1, text)
        self.assertIn("refusing to listen", text)


if __name__ == "__main__":
    pbtest.main()
