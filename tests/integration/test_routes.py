"""
The route table's edges, walked with every method and every role: which
answers are 404 (and with which message), which are 405 and with which
Allow list, where authentication, the body and the role are checked, and
how ids in the path are refused.  Each answer's status, Allow header and,
for refusals, its exact bytes are compared with the fixture
data/routes_answers.json, recorded from the daemon before its routing was
rewritten as a table (PB_ROUTES_RECORD=1 writes the fixture again).  At the
end the /metrics counters by route and by refusal code are compared too.
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
R = "/api/v1/rounds/999999"
PATHS = (
    "/metrics", "/metrics/", "/api", "/api/", "/api/v1", "/api/v1/", "/api/v1x", "/api/v2/tables",
    "/api/v1/metrics", "/api/v1/nothing-here", "/api/v1/health", "/api/v1/health/", "/api/v1/health/x",
    "/api/v1//health", "/api/v1/./health", "/api/v1/../v1/health", "/api/v1/ready",
    "/api/v1/tables", "/api/v1/tables/", "/api/v1/tables/NOPE", "/api/v1/tables/T1/x",
    "/api/v1/tables/NOPE/open", "/api/v1/tables/NOPE/close", "/api/v1/tables/NOPE/limits",
    "/api/v1/tables/NOPE/rounds", "/api/v1/tables/NOPE/bankers", "/api/v1/tables/NOPE/acknowledge",
    "/api/v1/tables/NOPE/dealer", "/api/v1/tables/T1/dealer", "/api/v1/reports/dealers",
    "/api/v1/tables/T1/rounds/1", "/api/v1/tables/T1/bankers?limit=0", "/api/v1/tables/T1/rounds?limit=x",
    "/api/v1/rounds", "/api/v1/rounds/", "/api/v1/rounds/abc", "/api/v1/rounds/0", "/api/v1/rounds/-1", R,
    R + "/close", R + "/deal", R + "/decisions", R + "/reveal", R + "/settle", R + "/void", R + "/shuffle",
    R + "/bets", R + "/bets/1", R + "/bets/9", R + "/bets/x", R + "/bets/0", R + "/bets/12", R + "/bets/1/x",
    "/api/v1/rounds/abc/bets/x", "/api/v1/rounds/abc/close", "/api/v1/rounds/abc/bogus", "/api/v1/rounds/abc/verify",
    "/api/v1/rounds/12abc/verify", R + "/verify", R + "/verify/x", "/api/v1/rounds/abc/verify/x",
    "/api/v1/reports", "/api/v1/reports/", "/api/v1/reports/summary", "/api/v1/reports/payouts",
    "/api/v1/reports/exceptions", "/api/v1/reports/bankers", "/api/v1/reports/nope", "/api/v1/reports/summary/x",
    "/api/v1/reports/summary?format=xml", "/api/v1/reports/payouts?min=x",
    "/api/v1/events", "/api/v1/events?limit=0", "/api/v1/events/x", "/api/v1/integrity",
    "/api/v1/integrity?table=NOPE", "/api/v1/integrity?from_round=x", "/api/v1/checkpoints",
    "/api/v1/checkpoints?after=x", "/api/v1/checkpoints/x", "/api/v1/backups", "/api/v1/backups/x",
    "/api/v1/tables/T1", "/api/v1/tables/T1/rounds", "/api/v1/tables/T1/bankers", "/api/v1/tables/T3/bankers",
    "/api/v1/tables/T1/acknowledge", "/api/v1/tables/T1/limits", "/api/v1/tables/T1/close", "/api/v1/tables/T1/open",
    "/api/v1/rounds/1", "/api/v1/rounds/1/verify", "/api/v1/rounds/1/void", "/api/v1/rounds/1/bets/1",
    "/api/v1/people", "/api/v1/people/NOPE", "/api/v1/people/NOPE/password", "/api/v1/people/NOPE/x",
    "/api/v1/sessions", "/api/v1/sessions/current", "/api/v1/sessions/x",
    "/api/v1/tables/NOPE/inventory", "/api/v1/tables/T1/inventory", "/api/v1/tables/T1/fills",
    "/api/v1/tables/T1/credits", "/api/v1/tables/T1/fills/F-1/void", "/api/v1/tables/T1/credits/C-1/void",
    "/api/v1/tables/T1/fills/F-1", "/api/v1/tables/T1/drop", "/api/v1/reports/master-game",
    "/api/v1/reports/master-game?gaming_day=x", "/api/v1/exceptions", "/api/v1/exceptions/acknowledgments",
    "/api/v1/tables/NOPE/documents", "/api/v1/tables/T1/documents", "/api/v1/tables/T1/documents?gaming_day=x",
    "/api/v1/reports/statistics", "/api/v1/reports/statistics?month=x",
    "/api/v1/players", "/api/v1/players?card=1", "/api/v1/players/NOPE", "/api/v1/players/NOPE/rating",
    "/api/v1/tables/T1/seats/1/player", "/api/v1/tables/NOPE/seats/1/player", "/api/v1/tables/T1/seats/x/player",
    "/api/v1/tables/T1/transactions", "/api/v1/reports/ratings", "/api/v1/reports/title31?gaming_day=x",
    "/api/v1/title31/acknowledgments",
    "/api/v1/tables/NOPE/bank-offers", "/api/v1/tables/T1/bank-offers", "/api/v1/tables/P1/bank-offers",
    R + "/corrections", "/api/v1/rounds/1/corrections", "/api/v1/rounds/abc/corrections",
    "/api/v1/tables/T1/seats", "/api/v1/tables/NOPE/seats", "/api/v1/tables/T1/seats?x=1",
)


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


class RouteMatrix(pbtest.DaemonTestCase):

    def walk(self):
        got = {}
        for path in PATHS:
            for tname, tok in TOKENS:
                for m in METHODS:
                    body = None if m in ("GET", "HEAD") else {}
                    got["%s %s %s" % (m, path, tname)] = answer(self.d, m, path, tok, body)
        # The body and the Idempotency-Key are read before the path is routed.
        for path in ("/api/v1/nothing-here", "/api/v1/tables", R + "/bets/x", "/api/v1/tables/T1/acknowledge",
                     "/api/v1/rounds/abc", "/api/v1/reports/nope", "/api/v1/health", "/metrics"):
            for m in ("POST", "PUT", "DELETE"):
                got["%s %s malformed" % (m, path)] = answer(self.d, m, path, DEALER, b"{")
                got["%s %s bad-key" % (m, path)] = answer(self.d, m, path, DEALER, {}, idem="")
            got["POST %s empty" % path] = answer(self.d, "POST", path, PITBOSS_TOKEN, b"")
        got["POST /api/v1/tables/T1/open field"] = answer(self.d, "POST", "/api/v1/tables/T1/open", PITBOSS_TOKEN,
                                                          {"x": 1})
        got["POST /api/v1/tables/T1/open array"] = answer(self.d, "POST", "/api/v1/tables/T1/open", PITBOSS_TOKEN, [1])
        st, _, raw = self.d.request("GET", "/metrics", token=None)
        self.assertEqual(st, 200)
        got["metrics"] = counters(raw.decode())
        return got

    def test_every_route_every_method(self):
        got = self.walk()
        if os.environ.get("PB_ROUTES_RECORD"):
            with open(FIXTURE, "w") as f:
                json.dump(got, f, indent=0, sort_keys=True)
                f.write("\n")
            return
        with open(FIXTURE) as f:
            want = json.load(f)
        self.assertEqual(sorted(got), sorted(want))
        for k in sorted(want):
            self.assertEqual(got[k], want[k], k)


if __name__ == "__main__":
    unittest.main()
