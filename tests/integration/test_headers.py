"""
The security headers (docs/security.md, "Headers"), against the real daemon:
every answer carries each of them exactly once with its exact value: the
pit boss page and the dealer's page, their scripts, style sheets and icon,
a missing file, a refused method, the API (public, authenticated, refused,
a long read, a CSV download, /metrics) and the 413 written on the socket
itself.  The policy promises no inline script or style, no eval and no
framing; and the page's files hold nothing that such a policy would block.
"""
import http.client
import os
import re
import socket
import sys
import time
import unittest

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
import pbtest  # noqa: E402
from pbtest import PITBOSS_TOKEN  # noqa: E402

MAX_BODY = 4096
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
EXPECTED = {
    "content-security-policy": CSP,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
}
WEB = os.path.join(pbtest.SOURCE_DIR, "web")


def directives(csp):
    """{'script-src': ["'self'"], ...} of a policy."""
    out = {}
    for part in csp.split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


def header_lines(raw_head):
    """[(name lower-cased, value)] of a raw head, in order, repeats kept."""
    lines = raw_head.decode("latin-1").split("\r\n")[1:]
    return [(n.strip().lower(), v.strip()) for n, _, v in (line.partition(":") for line in lines if line)]


class Headers(pbtest.DaemonTestCase):
    daemon_kwargs = {"overrides": {"max_body_bytes": MAX_BODY}}

    def fetch(self, method, path, token=None, body=None):
        """(status, [(name, value)] with repeats, content type) of one request."""
        conn = http.client.HTTPConnection(self.d.host, self.d.port, timeout=30)
        try:
            hdrs = {"Authorization": "Bearer " + token} if token else {}
            if body is not None:
                hdrs["Content-Type"] = "application/json"
            conn.request(method, path, body=body, headers=hdrs)
            resp = conn.getresponse()
            resp.read()
            return resp.status, [(k.lower(), v) for k, v in resp.getheaders()], resp.getheader("Content-Type")
        finally:
            conn.close()

    def assert_security_headers(self, what, pairs):
        for name, value in EXPECTED.items():
            got = [v for k, v in pairs if k == name]
            self.assertEqual(got, [value], "%s: %s" % (what, name))

    def test_policy_promises(self):
        d = directives(CSP)
        self.assertEqual(d["frame-ancestors"], ["'none'"])
        self.assertEqual(d["script-src"], ["'self'"])
        self.assertEqual(d["style-src"], ["'self'"])
        self.assertEqual(d["default-src"], ["'none'"])
        self.assertNotIn("unsafe", CSP)
        self.assertNotIn("*", CSP)

    def test_pages_and_their_files(self):
        cases = (
            ("/", 200, "text/html"), ("/index.html", 200, "text/html"), ("/app.js", 200, "text/javascript"),
            ("/app.css", 200, "text/css"), ("/favicon.svg", 200, "image/svg+xml"),
            ("/js/views/floor.js", 200, "text/javascript"), ("/dealer/", 200, "text/html"),
            ("/dealer/index.html", 200, "text/html"), ("/dealer/dealer.js", 200, "text/javascript"),
            ("/dealer/dealer.css", 200, "text/css"), ("/no-such-file.js", 404, "application/json"),
            ("/dealer/no-such.css", 404, "application/json"), ("/.hidden", 404, "application/json"),
        )
        for path, status, ctype in cases:
            for method in ("GET", "HEAD"):
                st, pairs, got_type = self.fetch(method, path)
                self.assertEqual(st, status, "%s %s" % (method, path))
                self.assertTrue(got_type.startswith(ctype), "%s %s: %s" % (method, path, got_type))
                self.assert_security_headers("%s %s" % (method, path), pairs)
        st, pairs, _ = self.fetch("POST", "/", body="{}")
        self.assertEqual(st, 405)
        self.assert_security_headers("POST /", pairs)

    def test_api_answers(self):
        cases = (
            ("GET", "/api/v1/health", None, 200), ("GET", "/api/v1/ready", None, 200),
            ("GET", "/api/v1/tables", None, 401), ("GET", "/api/v1/tables", PITBOSS_TOKEN, 200),
            ("GET", "/api/v1/tables/NOPE", PITBOSS_TOKEN, 404), ("GET", "/api/v1/nothing-here", PITBOSS_TOKEN, 404),
            ("DELETE", "/api/v1/tables", PITBOSS_TOKEN, 405),
            ("GET", "/api/v1/reports/payouts", PITBOSS_TOKEN, 200),          # a long read: the reader pool answers
            ("GET", "/api/v1/reports/summary?format=csv", PITBOSS_TOKEN, 200),
            ("GET", "/metrics", None, 200),
        )
        for method, path, tok, status in cases:
            st, pairs, _ = self.fetch(method, path, token=tok)
            self.assertEqual(st, status, "%s %s" % (method, path))
            self.assert_security_headers("%s %s" % (method, path), pairs)
        st, pairs, _ = self.fetch("POST", "/api/v1/tables/T1/rounds", token=pbtest.DEALER, body="x" * (MAX_BODY + 1))
        self.assertEqual(st, 413)
        self.assert_security_headers("413 at once", pairs)

    def test_413_written_on_the_socket(self):
        # A chunked body passing max_body_bytes: the 413 is written on the socket itself (http/server.c).
        s = socket.create_connection((self.d.host, self.d.port), timeout=10)
        raw = b""
        try:
            s.sendall(b"POST /api/v1/tables/T1/rounds HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                      b"Authorization: Bearer demo-dealer\r\nTransfer-Encoding: chunked\r\n\r\n"
                      b"%x\r\n" % (4 * MAX_BODY) + b"x" * (4 * MAX_BODY))
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                try:
                    c = s.recv(65536)
                except ConnectionResetError:
                    break
                if not c:
                    break
                raw += c
        finally:
            s.close()
        head, _, body = raw.partition(b"\r\n\r\n")
        self.assertTrue(head.startswith(b"HTTP/1.1 413 "), raw[:300])
        self.assertIn(b'"body_too_large"', body)
        pairs = header_lines(head)
        self.assert_security_headers("raw 413", pairs)
        self.assertEqual([v for k, v in pairs if k == "content-length"], [str(len(body))])


class WebFiles(unittest.TestCase):
    """What the policy would block, looked for in the page's own files (the browser tests see what runs)."""

    HTML_BLOCKED = (
        (re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I), "an inline script"),
        (re.compile(r"<style\b", re.I), "a <style> element"),
        (re.compile(r"\sstyle\s*=", re.I), "a style attribute"),
        (re.compile(r"\son[a-z]+\s*=", re.I), "an inline event handler"),
        (re.compile(r"javascript:", re.I), "a javascript: URL"),
        (re.compile(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", re.I), "a file from elsewhere"),
    )
    JS_BLOCKED = (
        (re.compile(r"\beval\s*\("), "eval"),
        (re.compile(r"\bnew\s+Function\b"), "new Function"),
        (re.compile(r"\bset(?:Timeout|Interval)\s*\(\s*['\"`]"), "a timer given a string"),
        (re.compile(r"\.(?:innerHTML|outerHTML)\s*\+?=(?!=)"), "HTML written as text"),
        (re.compile(r"insertAdjacentHTML|document\.write"), "HTML written as text"),
        (re.compile(r"""setAttribute\(\s*['"]style['"]"""), "a style attribute"),
        (re.compile(r"\.style\.cssText\s*="), "a style attribute"),
        (re.compile(r"""createElement(?:NS)?\([^)]*['"]style['"]\s*\)"""), "a <style> element"),
        (re.compile(r"<[a-z][^<>]*\sstyle\s*=", re.I), "a style attribute in markup"),
        (re.compile(r"javascript:", re.I), "a javascript: URL"),
        (re.compile(r"""['"`]data:"""), "a data: URL"),
        (re.compile(r"""['"`](?:https?:)?//(?!www\.w3\.org/)"""), "a URL elsewhere"),
    )

    def files(self, ext):
        out = []
        for root, _, names in os.walk(WEB):
            out += [os.path.join(root, n) for n in names if n.endswith(ext)]
        self.assertTrue(out, "no %s file under %s" % (ext, WEB))
        return sorted(out)

    def scan(self, ext, patterns):
        found = []
        for path in self.files(ext):
            with open(path, encoding="utf-8") as f:
                for n, line in enumerate(f, 1):
                    found += ["%s:%d: %s: %s" % (os.path.relpath(path, WEB), n, why, line.strip())
                              for rx, why in patterns if rx.search(line)]
        return found

    def test_html(self):
        self.assertEqual(self.scan(".html", self.HTML_BLOCKED), [])

    def test_scripts(self):
        self.assertEqual(self.scan(".js", self.JS_BLOCKED), [])

    def test_style_sheets_load_nothing_else(self):
        self.assertEqual(self.scan(".css", ((re.compile(r"url\(|@import", re.I), "a resource"),)), [])

    def test_svg_has_no_script_or_style(self):
        self.assertEqual(self.scan(".svg", ((re.compile(r"<script|<style|\sstyle\s*=|\son[a-z]+\s*=", re.I),
                                             "script or style"),)), [])

    def test_the_scan_finds_what_it_looks_for(self):
        html = '<div style="color:red"><button onclick="x()"><script>1</script><a href="javascript:x">'
        self.assertEqual(len([why for rx, why in self.HTML_BLOCKED if rx.search(html)]), 4)
        js = ("el.innerHTML = s; eval(x); el.setAttribute('style', 'x'); new Function('a'); img.src = 'data:x'; "
              "t = '<p class=\"a\" style=\"color: red\">'")
        self.assertEqual(len([why for rx, why in self.JS_BLOCKED if rx.search(js)]), 6)
        self.assertEqual([why for rx, why in self.JS_BLOCKED if rx.search("function when(iso, style = 'full') {")], [])


if __name__ == "__main__":
    unittest.main()
