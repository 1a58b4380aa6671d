"""
test_bodies.py - every write route refuses a body field it does not know
(400 unknown_field, naming it), at the top level and inside its objects, and
records nothing; the same body without the field is taken.  (POST /backups has
its own test with the backups.)
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pbtest  # noqa: E402
from pbtest import DEALER, PITBOSS_TOKEN  # noqa: E402


class UnknownFields(pbtest.DaemonTestCase):

    def refused(self, method, path, body, field, token=DEALER, code="unknown_field"):
        st, js = self.d.call(method, path, body, token=token, idem="unknown-%s-%s" % (method, path + field))
        self.assertEqual((st, js["error"]["code"]), (400, code), "%s %s %s: %s" % (method, path, body, js))
        self.assertTrue('"%s"' % field in js["error"]["message"] or ".%s:" % field in js["error"]["message"], js)

    def ok(self, method, path, body=None, token=DEALER, status=(200, 201)):
        st, js = self.d.call(method, path, body, token=token)
        self.assertIn(st, status, "%s %s %s: %s" % (method, path, body, js))
        return js

    def test_tables(self):
        for verb in ("open", "close"):
            self.refused("POST", "/api/v1/tables/T2/%s" % verb, {"why": 1}, "why", token=PITBOSS_TOKEN)
        limits = {"ante": {"min": 1000, "max": 50000}}
        # limits name their wagers: an unknown key is an unknown wager (400 invalid_limits, as it always was)
        self.refused("PUT", "/api/v1/tables/T2/limits", dict(limits, bogus=1), "bogus", token=PITBOSS_TOKEN,
                     code="invalid_limits")
        self.refused("PUT", "/api/v1/tables/T2/limits", {"ante": {"min": 1000, "max": 50000, "step": 5}}, "step",
                     token=PITBOSS_TOKEN, code="invalid_limits")
        self.ok("PUT", "/api/v1/tables/T2/limits", limits, token=PITBOSS_TOKEN)
        self.refused("POST", "/api/v1/tables/T2/acknowledge", {"note": "n", "by": "me"}, "by", token=PITBOSS_TOKEN)

    def test_whole_round(self):
        whole = {"bets": {"1": {"ante": 1000}}, "hands": {"1": ["Ah", "Kh", "3c"]}, "dealer": ["5c", "5d", "9s"],
                 "decisions": {"1": "play"}}
        self.refused("POST", "/api/v1/tables/T1/rounds", dict(whole, tip=5), "tip")
        self.refused("POST", "/api/v1/tables/T1/rounds", dict(whole, bets={"1": {"ante": 1000, "tip": 5}}), "tip")
        self.ok("POST", "/api/v1/tables/T1/rounds", whole)

    def test_step_by_step(self):
        self.refused("POST", "/api/v1/tables/T1/rounds", {"shoe": 2}, "shoe")
        rid = self.ok("POST", "/api/v1/tables/T1/rounds", {})["round"]["id"]
        r = "/api/v1/rounds/%d" % rid
        self.refused("PUT", r + "/bets/1", {"ante": 1000, "tip": 5}, "tip")
        self.ok("PUT", r + "/bets/1", {"ante": 1000})
        self.ok("PUT", r + "/bets/2", {"ante": 1000})
        self.refused("DELETE", r + "/bets/2", {"why": "x"}, "why")
        self.ok("DELETE", r + "/bets/2")
        self.refused("POST", r + "/close", {"now": True}, "now")
        self.ok("POST", r + "/close", {})
        self.refused("POST", r + "/deal", {"hands": {"1": ["Ah", "Kh", "3c"]}, "burn": ["2c"]}, "burn")
        self.ok("POST", r + "/deal", {"hands": {"1": ["Ah", "Kh", "3c"]}})
        self.refused("POST", r + "/decisions", {"seat": 1, "action": "play", "fast": 1}, "fast")
        self.ok("POST", r + "/decisions", {"seat": 1, "action": "play"})
        self.refused("POST", r + "/reveal", {"dealer": ["5c", "5d", "9s"], "x": 1}, "x")
        self.ok("POST", r + "/reveal", {"dealer": ["5c", "5d", "9s"]})
        self.refused("POST", r + "/settle", {"x": 1}, "x")
        self.ok("POST", r + "/settle", {})
        rid = self.ok("POST", "/api/v1/tables/T1/rounds", {})["round"]["id"]
        r = "/api/v1/rounds/%d" % rid
        self.refused("POST", r + "/void", {"reason": "misdeal", "x": 1}, "x")
        self.ok("POST", r + "/void", {"reason": "misdeal"})

    def test_player_banked_banker(self):
        st, js = self.d.call("GET", "/api/v1/tables/P1")
        self.assertEqual(st, 200, js)
        self.refused("POST", "/api/v1/tables/P1/rounds", {"banker": {"seat": 4, "bank": 100000, "x": 1}}, "x")


if __name__ == "__main__":
    unittest.main()
