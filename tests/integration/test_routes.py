"""
The route table's edges, walked with every method and every role: which
answers are 404 (and with which message), which are 405 and with which
Allow list, where authentication, the body and the role are checked, and
how ids in the path are refused.  Each answer's status, Allow header and,
for refusals, its exact bytes are compared with the recording
data/routes_answers.json, first made from the daemon before its routing was
rewritten as a table.  At the end the /metrics counters by route and by
refusal code are compared too.

The paths walked:
  - EDGES, kept here: the paths that are no route of the table as such
    (unknown resources, trailing segments, malformed and unknown ids, bad
    query strings) and the instances the walk's state rests on (a round
    opened at T1 by a query string that is ignored, then read as round 1);
  - then every route's path pattern as `pitboss routes --json` lists it,
    the parameters replaced by SAMPLES, in path order: T1 is closed, then
    opened again, before a round is opened there, which meets the round
    EDGES opened (the walk changes the daemon's state: its order is part
    of the recording).
A route the recording does not cover fails the test, naming it.

The test never writes the recording.  After a deliberate change of the
routes or their answers it is made again, outside CI only, with
`make record-routes` (tests/integration/record_routes.py), and the change is
reviewed in the diff of data/routes_answers.json.
"""
import json
import os
import sys
import unittest

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
import pbtest  # noqa: E402
from pbtest import DEALER, PITBOSS_TOKEN, AUDITOR, ADMIN  # noqa: E402

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "routes_answers.json")
METHODS = ("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH")
TOKENS = (("none", None), ("dealer", DEALER), ("pitboss", PITBOSS_TOKEN), ("auditor", AUDITOR), ("admin", ADMIN))

# A pattern's parameters (daemon/http/routes.h) as the walk fills them in: ids the router takes, of
# a table of the example configuration, of no round, of no person.  A serial is a fill's or a credit's.
SAMPLES = {"{table}": "T1", "{round}": "999999", "{round_text}": "999999", "{seat}": "1", "{person}": "NOPE",
           "{id}": "999999", "{gaming_day}": "2026-01-01"}
SERIALS = {"fills": "F-1", "credits": "C-1", "fill": "F-1", "credit": "C-1"}

R = "/api/v1/rounds/999999"
EDGES = (
    "/metrics/", "/api", "/api/", "/api/v1", "/api/v1/", "/api/v1x", "/api/v2/tables",
    "/api/v1/metrics", "/api/v1/nothing-here", "/api/v1/health/", "/api/v1/health/x",
    "/api/v1//health", "/api/v1/./health", "/api/v1/../v1/health",
    "/api/v1/tables/", "/api/v1/tables/NOPE", "/api/v1/tables/T1/x",
    "/api/v1/tables/NOPE/open", "/api/v1/tables/NOPE/close", "/api/v1/tables/NOPE/limits",
    "/api/v1/tables/NOPE/rounds", "/api/v1/tables/NOPE/bankers", "/api/v1/tables/NOPE/acknowledge",
    "/api/v1/tables/NOPE/dealer",
    # the dealer's POST here opens round 1 at T1 (the query string is ignored): read below as round 1
    "/api/v1/tables/T1/rounds/1", "/api/v1/tables/T1/bankers?limit=0", "/api/v1/tables/T1/rounds?limit=x",
    "/api/v1/rounds", "/api/v1/rounds/", "/api/v1/rounds/abc", "/api/v1/rounds/0", "/api/v1/rounds/-1",
    R + "/shuffle", R + "/bets", R + "/bets/9", R + "/bets/x", R + "/bets/0", R + "/bets/12", R + "/bets/1/x",
    "/api/v1/rounds/abc/bets/x", "/api/v1/rounds/abc/close", "/api/v1/rounds/abc/bogus", "/api/v1/rounds/abc/verify",
    "/api/v1/rounds/12abc/verify", R + "/verify/x", "/api/v1/rounds/abc/verify/x",
    "/api/v1/reports", "/api/v1/reports/", "/api/v1/reports/nope", "/api/v1/reports/summary/x",
    "/api/v1/reports/summary?format=xml", "/api/v1/reports/payouts?min=x",
    "/api/v1/events?limit=0", "/api/v1/events/x",
    "/api/v1/integrity?table=NOPE", "/api/v1/integrity?from_round=x",
    "/api/v1/checkpoints?after=x", "/api/v1/checkpoints/x", "/api/v1/backups/x", "/api/v1/tables/T3/bankers",
    "/api/v1/rounds/1", "/api/v1/rounds/1/verify", "/api/v1/rounds/1/void", "/api/v1/rounds/1/bets/1",
    "/api/v1/people/NOPE/x", "/api/v1/sessions/x",
    "/api/v1/tables/NOPE/inventory", "/api/v1/tables/T1/fills/F-1",
    "/api/v1/reports/master-game?gaming_day=x", "/api/v1/exceptions",
    "/api/v1/tables/NOPE/documents", "/api/v1/tables/T1/documents?gaming_day=x",
    "/api/v1/reports/statistics?month=x",
    "/api/v1/players?card=1", "/api/v1/tables/NOPE/seats/1/player", "/api/v1/tables/T1/seats/x/player",
    "/api/v1/reports/title31?gaming_day=x",
    "/api/v1/tables/NOPE/bank-offers", "/api/v1/tables/P1/bank-offers",
    "/api/v1/rounds/1/corrections", "/api/v1/rounds/abc/corrections",
    "/api/v1/tables/NOPE/seats", "/api/v1/tables/T1/seats?x=1",
)


def listed_routes():
    """The routes of this build's route table: `pitboss routes --json`."""
    rc, out, err = pbtest.run_pitboss("routes", "--json")
    if rc != 0:
        raise AssertionError("pitboss routes --json exited %d: %s" % (rc, err))
    routes = json.loads(out)["routes"]
    if not routes:
        raise AssertionError("pitboss routes --json lists no route")
    return routes


def sample_path(pattern):
    """The pattern with its parameters replaced by SAMPLES (a serial by SERIALS, after its kind)."""
    segs = pattern.split("/")
    out = []
    for i, seg in enumerate(segs):
        if seg == "{serial}":
            seg = SERIALS.get(segs[i - 1])
        elif seg.startswith("{"):
            seg = SAMPLES.get(seg)
        if seg is None:
            raise AssertionError("no sample for %s in %s: add one to SAMPLES (or SERIALS) of test_routes.py"
                                 % (segs[i], pattern))
        out.append(seg)
    return "/".join(out)


def walk_paths(routes):
    """EDGES, then each route's sample path not among them, in path order."""
    samples = sorted({sample_path(r["path"]) for r in routes} - set(EDGES))
    return list(EDGES) + samples


def answer(d, method, path, token, body, idem=None):
    """What the matrix compares: status, Allow, and for a refusal its exact bytes."""
    st, hdrs, raw = d.request(method, path, body, token=token, idem=idem)
    a = {"status": st, "allow": hdrs.get("allow"), "type": hdrs.get("content-type")}
    if st >= 300 or st == 200 and method == "HEAD":
        a["body"] = raw.decode(errors="replace")
    return a


def counters(text):
    """The /metrics lines by route and by refusal, but for health's 2xx (the harness's start-up polls)."""
    keep = ("pitboss_http_requests_total{", "pitboss_refusals_total{")
    return sorted(l for l in text.splitlines() if l.startswith(keep) and 'route="health",status="2xx"' not in l)


def walk(d, routes):
    """Every path of walk_paths with every method and token, then bodies and keys refused before routing,
    then the /metrics counters: the answers as the recording has them, keyed "METHOD PATH TOKEN"."""
    got = {}
    for path in walk_paths(routes):
        for tname, tok in TOKENS:
            for m in METHODS:
                body = None if m in ("GET", "HEAD") else {}
                got["%s %s %s" % (m, path, tname)] = answer(d, m, path, tok, body)
    # The body and the Idempotency-Key are read before the path is routed.
    for path in ("/api/v1/nothing-here", "/api/v1/tables", R + "/bets/x", "/api/v1/tables/T1/acknowledge",
                 "/api/v1/rounds/abc", "/api/v1/reports/nope", "/api/v1/health", "/metrics"):
        for m in ("POST", "PUT", "DELETE"):
            got["%s %s malformed" % (m, path)] = answer(d, m, path, DEALER, b"{")
            got["%s %s bad-key" % (m, path)] = answer(d, m, path, DEALER, {}, idem="")
        got["POST %s empty" % path] = answer(d, "POST", path, PITBOSS_TOKEN, b"")
    got["POST /api/v1/tables/T1/open field"] = answer(d, "POST", "/api/v1/tables/T1/open", PITBOSS_TOKEN, {"x": 1})
    got["POST /api/v1/tables/T1/open array"] = answer(d, "POST", "/api/v1/tables/T1/open", PITBOSS_TOKEN, [1])
    st, _, raw = d.request("GET", "/metrics", token=None)
    if st != 200:
        raise AssertionError("GET /metrics -> %d" % st)
    got["metrics"] = counters(raw.decode())
    return got


def read_recording():
    with open(FIXTURE) as f:
        return json.load(f)


class RouteMatrix(pbtest.DaemonTestCase):

    def test_every_route_every_method(self):
        routes = listed_routes()
        want = read_recording()
        uncovered = ["%s %s (walked as %s)" % (r["method"], r["path"], sample_path(r["path"])) for r in routes
                     if "%s %s none" % (r["method"], sample_path(r["path"])) not in want]
        if uncovered:
            self.fail("routes that %s does not cover (a new route? make record-routes, then review the diff):\n  %s"
                      % (FIXTURE, "\n  ".join(uncovered)))
        got = walk(self.d, routes)
        self.assertEqual(sorted(set(got) - set(want)), [], "answers the recording does not have")
        self.assertEqual(sorted(set(want) - set(got)), [], "answers of the recording no longer walked")
        for k in sorted(want):
            self.assertEqual(got[k], want[k], k)


class Listing(unittest.TestCase):
    """`pitboss routes` as text says what --json says, a line a route in the same order."""

    def test_text_and_json_agree(self):
        routes = listed_routes()
        rc, out, err = pbtest.run_pitboss("routes")
        self.assertEqual(rc, 0, err)
        lines = out.splitlines()
        self.assertEqual(lines[0].split(), ["METHOD", "PATH", "WHO"])
        self.assertEqual(len(lines) - 1, len(routes))
        for line, r in zip(lines[1:], routes):
            method, path, who = line.split(None, 2)
            self.assertEqual(method, r["method"] + (",HEAD" if r["head"] else ""), line)
            self.assertEqual(path, r["path"], line)
            if r["authentication"] == "none":
                self.assertEqual((who, r["roles"]), ("no token", []), line)
            elif r["authentication"] == "sign-in":
                self.assertEqual(who, "sign-in", line)
            elif who != "every role":
                self.assertEqual(who.split(", "), r["roles"], line)
        self.assertEqual(len({(r["method"], r["path"]) for r in routes}), len(routes), "a route listed twice")


if __name__ == "__main__":
    pbtest.main()
