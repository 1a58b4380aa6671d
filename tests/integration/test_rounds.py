"""
Rounds over HTTP against the real pitbossd: step by step and whole, on each
variant of the example config (T1 standard, T3 Tri-Card with Pair Plus alone,
F1 Florida must_beat_dealer), every payout line checked against expectations
worked out by hand from API.md; game recall and its paging; void; opening and
closing tables; limits changes.
"""
import sys
import http.client
import json
import os

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
import pbtest  # noqa: E402
from pbtest import DEALER, PITBOSS_TOKEN, AUDITOR, lines, payout_core

# Extra tables so that the tests below do not depend on each other's state.
EXTRA = []
for tid, src in (("R1", "T1"), ("L1", "T1"), ("C1", "T2"), ("V1", "T2"), ("G1", "T1")):
    t = pbtest.example_table(src)
    t["id"] = tid
    t["name"] = "copy of " + src
    EXTRA.append(t)


# A game with fractional pays and a Q-6-4 qualifier, given inline in the config.
FRACTION_GAME = {"name": "fraction", "dealer_qualifier": "Q-6-4",
                 "ante_bonus": {"straight": "0.5", "three_of_a_kind": "2.25"},
                 "pair_plus": {"straight_flush": "40", "three_of_a_kind": "30", "straight": "12.5", "flush": "2.5",
                               "pair": "1.5"},
                 "pair_plus_mode": "standard", "pair_plus_requires_ante": True, "raise_strategy": "Q-6-4"}
EXTRA.append({"id": "Q1", "name": "Fractions", "game": "fraction", "seats": 6, "banking": "house",
              "limits": {"ante": {"min": 100, "max": 10000}, "pair_plus": {"min": 100, "max": 10000}}})
EXTRA.append({"id": "FT", "name": "Florida ties lose", "game": "florida-tie-loses", "seats": 7, "banking": "house",
              "limits": {"ante": {"min": 200, "max": 20000}, "pair_plus": {"min": 200, "max": 5000}}})
GAMES = dict(pbtest.example_config()["games"])
GAMES["fraction"] = FRACTION_GAME
GAMES["florida-tie-loses"] = os.path.join(pbtest.CONFIG_DIR, "games", "florida-tie-loses.json")


class Rounds(pbtest.DaemonTestCase):
    daemon_kwargs = {"extra_tables": EXTRA, "overrides": {"games": GAMES}}

    # ---- helpers ----

    def step(self, rid, verb, body=None, status=200, token=DEALER):
        return self.ok("POST", "/api/v1/rounds/%d/%s" % (rid, verb), {} if body is None else body, status=status,
                       token=token)["round"]

    def bet(self, rid, seat, body, token=DEALER):
        return self.ok("PUT", "/api/v1/rounds/%d/bets/%d" % (rid, seat), body, token=token)["round"]

    def get_round(self, rid, token=AUDITOR):
        return self.ok("GET", "/api/v1/rounds/%d" % rid, token=token)["round"]

    def assert_payouts(self, rnd, expected):
        got = payout_core(rnd["payouts"])
        self.assertEqual(len(got), len(expected), "payout lines:\n%s" % json.dumps(got, indent=1))
        for g, e in zip(got, expected):
            self.assertEqual(g, e, "payout line %d" % e["seq"])
        # every line is exactly the six contract fields on a house-banked table
        for p in rnd["payouts"]:
            self.assertEqual(set(p), {"seq", "seat", "wager", "stake", "result", "net"}, p)
            self.assertIsInstance(p["stake"], int)
            self.assertIsInstance(p["net"], int)

    def assert_same_as_get(self, rnd):
        """GET /rounds/{id} returns the same round (the step answers carry no events)."""
        got = self.get_round(rnd["id"])
        self.assertIn("events", got)
        a = dict(got)
        b = dict(rnd)
        a.pop("events", None)
        b.pop("events", None)
        self.assertEqual(a, b)
        return got

    # ---- T1 standard, step by step, dealer's cards at the deal ----

    def test_t1_step_by_step_dealer_at_deal(self):
        rid = self.open_round("T1")
        r = self.get_round(rid)
        self.assertEqual(r["state"], "betting")
        self.assertEqual(r["table"], "T1")
        self.assertEqual(r["bets"], {})
        self.assertEqual(r["payouts"], [])
        self.assertIsNone(r["dealer"])
        self.assertEqual(r["rules"]["name"], "standard")
        self.assertTrue(r["opened_at"].endswith("Z"))
        self.assertRegex(r["opened_at"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")

        tables = self.ok("GET", "/api/v1/tables", token=AUDITOR)["tables"]
        t1 = [t for t in tables if t["id"] == "T1"][0]
        self.assertEqual(t1["current_round"], rid)
        self.assertEqual(t1["status"], "open")

        self.bet(rid, 1, {"ante": 1000, "pair_plus": 500, "six_card": 500})
        self.bet(rid, 2, {"ante": 500})
        self.bet(rid, 3, {"ante": 2000, "pair_plus": 1000})
        self.bet(rid, 4, {"ante": 9999})
        r = self.bet(rid, 4, {"ante": 1500})          # a PUT replaces the seat's bet
        self.assertEqual(r["bets"]["4"]["ante"], 1500)
        self.bet(rid, 5, {"ante": 700, "pair_plus": 700})
        self.bet(rid, 6, {"ante": 500, "six_card": 1000})
        r = self.ok("DELETE", "/api/v1/rounds/%d/bets/5" % rid)["round"]
        self.assertNotIn("5", r["bets"])
        self.assertEqual(sorted(r["bets"]), ["1", "2", "3", "4", "6"])
        self.assertEqual(r["bets"]["1"]["ante"], 1000)
        self.assertEqual(r["bets"]["1"]["pair_plus"], 500)
        self.assertEqual(r["bets"]["1"]["six_card"], 500)
        self.assertEqual(r["bets"]["1"]["play"], 0)

        r = self.step(rid, "close")
        self.assertEqual(r["state"], "closed")
        r = self.step(rid, "deal", {
            "hands": {"1": ["As", "Ks", "Qs"], "2": ["9c", "5d", "3h"], "3": ["8h", "8d", "3s"],
                      "4": ["Jc", "Td", "4c"], "6": ["qh", "7H", "2s"]},
            "dealer": ["Qd", "7c", "2h"]})
        self.assertEqual(r["state"], "dealt")
        self.assertEqual(r["hands"]["1"], {"cards": ["As", "Ks", "Qs"], "hand": "straight_flush"})
        self.assertEqual(r["hands"]["6"]["cards"], ["Qh", "7h", "2s"])      # upper rank, lower suit
        self.assertEqual(r["dealer"]["cards"], ["Qd", "7c", "2h"])
        self.assertTrue(r["dealer"]["qualifies"])
        for seat, action in (("1", "play"), ("2", "fold"), ("3", "play"), ("4", "play"), ("6", "play")):
            r = self.step(rid, "decisions", {"seat": int(seat), "action": action})
            self.assertEqual(r["decisions"][seat], action)
        self.assertEqual(r["state"], "dealt")
        self.assertEqual(r["bets"]["1"]["play"], 1000)
        self.assertEqual(r["bets"]["2"]["play"], 0)
        r = self.step(rid, "settle")
        self.assertEqual(r["state"], "settled")
        self.assertTrue(r["settled_at"])
        self.assert_payouts(r, lines(
            (1, "ante", 1000, "win", 1000),
            (1, "play", 1000, "win", 1000),
            (1, "pair_plus", 500, "win", 20000),        # straight flush 40 to 1
            (1, "six_card", 500, "lose", -500),         # As Ks Qs + Qd 7c 2h: a pair pays nothing
            (1, "ante_bonus", 1000, "win", 5000),       # straight flush 5 to 1 on the Ante
            (2, "ante", 500, "forfeit", -500),
            (3, "ante", 2000, "win", 2000),
            (3, "play", 2000, "win", 2000),
            (3, "pair_plus", 1000, "win", 1000),        # pair 1 to 1
            (4, "ante", 1500, "lose", -1500),
            (4, "play", 1500, "lose", -1500),
            (6, "ante", 500, "push", 0),                # Q-7-2 against Q-7-2
            (6, "play", 500, "push", 0),
            (6, "six_card", 1000, "lose", -1000),       # two pair pays nothing
        ))
        got = self.assert_same_as_get(r)
        types = [e["type"] for e in got["events"]]
        self.assertEqual(types[0], "round_opened")
        self.assertEqual(types[-1], "round_settled")
        self.assertEqual([e["seq"] for e in got["events"]], list(range(1, len(types) + 1)))
        self.assertIn("bet_removed", types)
        self.assertEqual(types.count("decision"), 5)
        t1 = self.ok("GET", "/api/v1/tables/T1", token=AUDITOR)["table"]
        self.assertIsNone(t1["current_round"])

    # ---- T1 standard, step by step, dealer's cards at the reveal; the dealer does not qualify ----

    def test_t1_step_by_step_with_reveal_dealer_not_qualifying(self):
        rid = self.open_round("T1")
        self.bet(rid, 1, {"ante": 1000, "pair_plus": 1000, "six_card": 1000})
        self.bet(rid, 2, {"ante": 500})
        self.bet(rid, 3, {"ante": 500})
        self.bet(rid, 4, {"ante": 500, "pair_plus": 500})
        self.step(rid, "close")
        r = self.step(rid, "deal", {"hands": {"1": ["5h", "5c", "5d"], "2": ["2d", "3h", "4s"],
                                              "3": ["Kc", "8c", "6d"], "4": ["Ac", "7d", "3c"]}})
        self.assertEqual(r["state"], "dealt")
        self.assertIsNone(r["dealer"])
        self.step(rid, "decisions", {"seat": 4, "action": "play"})
        self.step(rid, "decisions", {"seat": 3, "action": "fold"})
        self.step(rid, "decisions", {"seat": 1, "action": "play"})
        self.step(rid, "decisions", {"seat": 2, "action": "play"})
        r = self.step(rid, "reveal", {"dealer": ["Jh", "9s", "4d"]})
        self.assertEqual(r["state"], "revealed")
        self.assertEqual(r["dealer"], {"cards": ["Jh", "9s", "4d"], "hand": "high_card", "qualifies": False})
        r = self.step(rid, "settle")
        self.assertEqual(r["state"], "settled")
        self.assert_payouts(r, lines(
            (1, "ante", 1000, "win", 1000),             # dealer does not qualify: Ante paid 1 to 1
            (1, "play", 1000, "push", 0),               # ... and the Play pushes
            (1, "pair_plus", 1000, "win", 30000),       # three of a kind 30 to 1
            (1, "six_card", 1000, "win", 7000),         # 5h 5c 5d + Jh 9s 4d: three of a kind 7 to 1
            (1, "ante_bonus", 1000, "win", 4000),       # three of a kind 4 to 1
            (2, "ante", 500, "win", 500),
            (2, "play", 500, "push", 0),
            (2, "ante_bonus", 500, "win", 500),         # straight 1 to 1
            (3, "ante", 500, "forfeit", -500),
            (4, "ante", 500, "win", 500),
            (4, "play", 500, "push", 0),
            (4, "pair_plus", 500, "lose", -500),        # ace high pays nothing
        ))
        self.assertEqual(r["totals"]["players_net"], sum(p["net"] for p in r["payouts"]))
        self.assert_same_as_get(r)

    # ---- T1 standard, whole round in one POST ----

    def test_t1_whole_round(self):
        body = {
            "bets": {"1": {"ante": 1000, "pair_plus": 500, "six_card": 500}, "2": {"ante": 1000},
                     "3": {"ante": 1000, "six_card": 500}, "4": {"ante": 500, "pair_plus": 500},
                     "5": {"ante": 500, "six_card": 500}},
            "hands": {"1": ["2h", "5h", "9h"], "2": ["Kd", "Js", "3s"], "3": ["Ks", "Kc", "4h"],
                      "4": ["6c", "7c", "8c"], "5": ["Ah", "Qh", "10h"]},
            "dealer": ["Kh", "Jh", "3c"],
            "decisions": {"5": "fold", "1": "play", "2": "play", "3": "play", "4": "play"},
        }
        r = self.whole("T1", body)
        self.assertEqual(r["state"], "settled")
        self.assertEqual(r["hands"]["5"]["cards"], ["Ah", "Qh", "Th"])
        self.assertEqual(r["dealer"]["hand"], "high_card")
        self.assertTrue(r["dealer"]["qualifies"])
        self.assert_payouts(r, lines(
            (1, "ante", 1000, "win", 1000),             # flush beats K-J-3
            (1, "play", 1000, "win", 1000),
            (1, "pair_plus", 500, "win", 1500),         # flush 3 to 1
            (1, "six_card", 500, "win", 7500),          # 2h 5h 9h Kh Jh: flush 15 to 1 (no ante bonus for a flush)
            (2, "ante", 1000, "push", 0),               # K-J-3 against K-J-3
            (2, "play", 1000, "push", 0),
            (3, "ante", 1000, "win", 1000),             # pair of kings
            (3, "play", 1000, "win", 1000),
            (3, "six_card", 500, "win", 3500),          # Ks Kc Kh: three of a kind 7 to 1
            (4, "ante", 500, "win", 500),
            (4, "play", 500, "win", 500),
            (4, "pair_plus", 500, "win", 20000),        # straight flush 40 to 1
            (4, "ante_bonus", 500, "win", 2500),        # straight flush 5 to 1
            (5, "ante", 500, "forfeit", -500),          # folded ...
            (5, "six_card", 500, "win", 500000),        # ... but Ah Kh Qh Jh Th is a royal flush: 1000 to 1
        ))
        # the answer to the POST is the round as GET returns it, events included
        got = self.get_round(r["id"])
        self.assertEqual(got, r)
        self.assertEqual(r["totals"]["players_net"], sum(p["net"] for p in r["payouts"]))
        self.assertEqual(r["totals"]["house_win"], -r["totals"]["players_net"])

    def test_t1_ante_bonus_and_pair_plus_whatever_the_dealer_holds(self):
        r = self.whole("T1", {
            "bets": {"1": {"ante": 500, "pair_plus": 500}, "2": {"ante": 1000}, "3": {"ante": 500, "pair_plus": 500}},
            "hands": {"1": ["2s", "3d", "4c"], "2": ["Ks", "Kh", "Kd"], "3": ["9h", "Th", "Jh"]},
            "dealer": ["5c", "5d", "5h"],
            "decisions": {"1": "play", "2": "play", "3": "fold"}})
        self.assertEqual(r["dealer"]["hand"], "three_of_a_kind")
        self.assert_payouts(r, lines(
            (1, "ante", 500, "lose", -500),             # a straight loses to three fives ...
            (1, "play", 500, "lose", -500),
            (1, "pair_plus", 500, "win", 3000),         # ... but Pair Plus pays on the hand alone: 6 to 1
            (1, "ante_bonus", 500, "win", 500),         # ... and so does the ante bonus: straight 1 to 1
            (2, "ante", 1000, "win", 1000),             # kings over fives
            (2, "play", 1000, "win", 1000),
            (2, "ante_bonus", 1000, "win", 4000),
            (3, "ante", 500, "forfeit", -500),          # a folded straight flush: no bonus, Pair Plus forfeited
            (3, "pair_plus", 500, "forfeit", -500),
        ))

    def test_t1_six_card_bonus_hands(self):
        r = self.whole("T1", {
            "bets": {"1": {"ante": 500, "six_card": 500}},
            "hands": {"1": ["As", "2d", "3h"]}, "dealer": ["4s", "5c", "Kd"], "decisions": {"1": "play"}})
        self.assert_payouts(r, lines(
            (1, "ante", 500, "win", 500),               # A-2-3 is a straight (the lowest) and beats king high
            (1, "play", 500, "win", 500),
            (1, "six_card", 500, "win", 5000),          # A-2-3-4-5 across the six cards: straight 10 to 1
            (1, "ante_bonus", 500, "win", 500),
        ))
        r = self.whole("T1", {
            "bets": {"1": {"ante": 500, "six_card": 500}, "2": {"ante": 500, "six_card": 2500}, "4": {"ante": 500, "six_card": 500}},
            "hands": {"1": ["8h", "8s", "2c"], "2": ["3c", "3d", "Kc"], "4": ["Ah", "Kh", "Jd"]},
            "dealer": ["8c", "8d", "3s"], "decisions": {"1": "play", "2": "fold", "4": "fold"}})
        self.assert_payouts(r, lines(
            (1, "ante", 500, "lose", -500),             # pair of eights, 2 kicker, against the dealer's 3 kicker
            (1, "play", 500, "lose", -500),
            (1, "six_card", 500, "win", 50000),         # four eights: 100 to 1
            (2, "ante", 500, "forfeit", -500),
            (2, "six_card", 2500, "win", 50000),        # threes full of eights: 20 to 1, folded or not
            (4, "ante", 500, "forfeit", -500),
            (4, "six_card", 500, "lose", -500),         # A K J 8 8 3: one pair pays nothing
        ))

    def test_fractional_pays_round_down_and_q64_qualifier(self):
        r = self.whole("Q1", {
            "bets": {"1": {"ante": 501, "pair_plus": 501}, "2": {"ante": 777}, "3": {"ante": 1001, "pair_plus": 1001}},
            "hands": {"1": ["7c", "7d", "2s"], "2": ["4c", "5d", "6s"], "3": ["2h", "9h", "Jh"]},
            "dealer": ["Qs", "6h", "3d"], "decisions": {"1": "play", "2": "play", "3": "play"}})
        self.assertFalse(r["dealer"]["qualifies"])      # Q-6-3 is below Q-6-4
        self.assert_payouts(r, lines(
            (1, "ante", 501, "win", 501),
            (1, "play", 501, "push", 0),
            (1, "pair_plus", 501, "win", 751),          # 1.5 x 501 = 751.5, rounded down
            (2, "ante", 777, "win", 777),
            (2, "play", 777, "push", 0),
            (2, "ante_bonus", 777, "win", 388),         # 0.5 x 777 = 388.5
            (3, "ante", 1001, "win", 1001),
            (3, "play", 1001, "push", 0),
            (3, "pair_plus", 1001, "win", 2502),        # 2.5 x 1001 = 2502.5
        ))
        r = self.whole("Q1", {
            "bets": {"1": {"ante": 500}, "2": {"ante": 500}, "3": {"ante": 333}},
            "hands": {"1": ["Qd", "6d", "3c"], "2": ["Qh", "6s", "5h"], "3": ["7s", "7h", "7d"]},
            "dealer": ["Qc", "6c", "4s"], "decisions": {"1": "play", "2": "play", "3": "play"}})
        self.assertTrue(r["dealer"]["qualifies"])       # exactly Q-6-4 qualifies
        self.assert_payouts(r, lines(
            (1, "ante", 500, "lose", -500),
            (1, "play", 500, "lose", -500),
            (2, "ante", 500, "win", 500),
            (2, "play", 500, "win", 500),
            (3, "ante", 333, "win", 333),
            (3, "play", 333, "win", 333),
            (3, "ante_bonus", 333, "win", 749),         # 2.25 x 333 = 749.25
        ))

    def test_florida_tie_pushes_only_with_a_pair(self):
        r = self.whole("FT", {
            "bets": {"1": {"pair_plus": 500}, "2": {"pair_plus": 500}, "3": {"pair_plus": 500}},
            "hands": {"1": ["9d", "9c", "4h"], "2": ["3c", "3d", "As"], "3": ["Kh", "Qh", "2h"]},
            "dealer": ["9s", "9h", "4c"]})
        self.assert_payouts(r, lines(
            (1, "pair_plus", 500, "push", 0),           # nines with a four against the same: a pair tie pushes
            (2, "pair_plus", 500, "lose", -500),        # a pair that does not beat the dealer's loses
            (3, "pair_plus", 500, "win", 1500),         # flush beats a pair: 3 to 1
        ))
        r = self.whole("FT", {
            "bets": {"1": {"pair_plus": 500}, "2": {"pair_plus": 500}},
            "hands": {"1": ["Kd", "8h", "5c"], "2": ["2c", "2d", "7h"]},
            "dealer": ["Kc", "8d", "5s"]})
        self.assert_payouts(r, lines(
            (1, "pair_plus", 500, "lose", -500),        # a high-card tie loses under push_pair_or_better
            (2, "pair_plus", 500, "win", 1000),         # pair 2 to 1
        ))

    def test_player_banked_coverage_walk(self):
        r = self.whole("P1", {
            "banker": {"seat": 4, "bank": 10000},
            "bets": {"1": {"ante": 5000, "pair_plus": 5000}, "2": {"ante": 3000}, "5": {"ante": 5000, "pair_plus": 1000},
                     "6": {"ante": 2000}},
            "hands": {"1": ["As", "Ac", "9d"], "2": ["Ks", "Kc", "4d"], "5": ["Jc", "Td", "4c"], "6": ["8h", "8d", "3s"]},
            "dealer": ["Qd", "7c", "2h"],
            "decisions": {"1": "play", "2": "play", "5": "play", "6": "play"}})
        self.assertEqual(r["banking"], "player")
        want = [
            (5, "ante", 5000, "lose", -5000, 15000),    # from the seat after the banker's, clockwise
            (5, "play", 5000, "lose", -5000, 20000),
            (5, "pair_plus", 1000, "lose", -1000, 21000),
            (6, "ante", 2000, "win", 2000, 19000),
            (6, "play", 2000, "win", 2000, 17000),
            (1, "ante", 5000, "win", 5000, 12000),
            (1, "play", 5000, "win", 5000, 7000),
            (1, "pair_plus", 5000, "win", 5000, 2000),
            (2, "ante", 3000, "win", 2000, 0),          # paid in part: 1000 short
            (2, "play", 3000, "returned", 0, 0),        # the bank is gone
        ]
        self.assertEqual(len(r["payouts"]), len(want), json.dumps(r["payouts"], indent=1))
        for i, (p, w) in enumerate(zip(r["payouts"], want)):
            exp = dict(pbtest.line(i + 1, *w[:5]), bank_after=w[5])
            if i == 8:
                exp["short"] = 1000
            self.assertEqual({k: p.get(k) for k in exp}, exp, "line %d" % (i + 1))
            self.assertEqual("short" in p, i == 8, p)
        self.assertEqual(r["banker"]["bank_end"], 0)
        self.assertEqual(self.get_round(r["id"]), r)

    def test_keep_alive(self):
        conn = http.client.HTTPConnection(self.d.host, self.d.port, timeout=30)
        try:
            for _ in range(3):
                conn.request("GET", "/api/v1/tables/T1", headers={"Authorization": "Bearer " + AUDITOR})
                resp = conn.getresponse()
                self.assertEqual(resp.status, 200)
                self.assertEqual(json.loads(resp.read())["table"]["id"], "T1")
                self.assertNotEqual((resp.getheader("Connection") or "").lower(), "close")
                self.assertEqual(resp.getheader("Content-Type"), "application/json")
        finally:
            conn.close()

    # ---- T3 Tri-Card: Pair Plus alone ----

    def test_t3_whole_round_pair_plus_alone(self):
        body = {
            "bets": {"1": {"pair_plus": 1000}, "2": {"ante": 1000, "pair_plus": 500}, "3": {"ante": 500},
                     "4": {"ante": 1000}, "7": {"pair_plus": 500}},
            "hands": {"1": ["9d", "9s", "2c"], "2": ["4d", "8d", "Jd"], "3": ["Qc", "Jc", "Tc"],
                      "4": ["7h", "7d", "7s"], "7": ["Kh", "8s", "3d"]},
            "dealer": ["2s", "2h", "7c"],
            "decisions": {"2": "play", "3": "play", "4": "play"},
        }
        r = self.whole("T3", body)
        self.assertEqual(r["rules"]["name"], "tricard")
        self.assertNotIn("1", r["decisions"])
        self.assert_payouts(r, lines(
            (1, "pair_plus", 1000, "win", 1000),        # pair 1 to 1, no Ante needed here
            (2, "ante", 1000, "win", 1000),             # flush beats the dealer's pair of twos
            (2, "play", 1000, "win", 1000),
            (2, "pair_plus", 500, "win", 2000),         # Tri-Card flush pays 4 to 1
            (3, "ante", 500, "win", 500),
            (3, "play", 500, "win", 500),
            (3, "ante_bonus", 500, "win", 2500),        # straight flush 5 to 1
            (4, "ante", 1000, "win", 1000),
            (4, "play", 1000, "win", 1000),
            (4, "ante_bonus", 1000, "win", 3000),       # Tri-Card: three of a kind 3 to 1
            (7, "pair_plus", 500, "lose", -500),        # king high
        ))
        self.assertEqual(self.get_round(r["id"]), r)

    def test_t3_step_by_step_pair_plus_alone(self):
        rid = self.open_round("T3")
        self.bet(rid, 2, {"pair_plus": 500})
        self.bet(rid, 5, {"ante": 500})
        self.step(rid, "close")
        self.step(rid, "deal", {"hands": {"2": ["Ad", "Ac", "5s"], "5": ["Td", "9d", "8s"]}})
        # the Pair Plus seat has no decision; the Ante seat decides
        self.step(rid, "decisions", {"seat": 5, "action": "play"})
        self.step(rid, "reveal", {"dealer": ["As", "Kd", "2c"]})
        r = self.step(rid, "settle")
        self.assert_payouts(r, lines(
            (2, "pair_plus", 500, "win", 500),          # pair of aces 1 to 1
            (5, "ante", 500, "win", 500),               # straight beats ace high
            (5, "play", 500, "win", 500),
            (5, "ante_bonus", 500, "win", 500),         # straight 1 to 1
        ))
        self.assert_same_as_get(r)

    # ---- F1 Florida: Pair Plus must beat the dealer; a tie pushes ----

    def test_f1_whole_round_must_beat_dealer(self):
        body = {
            "bets": {"1": {"ante": 1000, "pair_plus": 500}, "2": {"pair_plus": 500}, "3": {"ante": 500, "pair_plus": 500},
                     "4": {"pair_plus": 1000}, "5": {"ante": 500, "pair_plus": 500}, "6": {"ante": 500, "pair_plus": 500},
                     "7": {"pair_plus": 200}},
            "hands": {"1": ["8c", "8h", "2d"], "2": ["Qd", "9d", "4s"], "3": ["As", "Kd", "3h"], "4": ["Ac", "Ad", "5h"],
                      "5": ["Jh", "Th", "9c"], "6": ["6s", "5s", "2h"], "7": ["Ah", "Kh", "Qh"]},
            "dealer": ["Qs", "9h", "4c"],
            "decisions": {"1": "play", "3": "play", "5": "play", "6": "fold"},
        }
        r = self.whole("F1", body)
        self.assertEqual(r["rules"]["pair_plus_mode"], "must_beat_dealer")
        self.assertEqual(r["rules"]["pair_plus_tie"], "push")
        self.assert_payouts(r, lines(
            (1, "ante", 1000, "win", 1000),
            (1, "play", 1000, "win", 1000),
            (1, "pair_plus", 500, "win", 1000),         # pair beats Q-9-4 and pays 2 to 1 (no ante bonus at F1)
            (2, "pair_plus", 500, "push", 0),           # Q-9-4 against Q-9-4: an exact tie pushes
            (3, "ante", 500, "win", 500),
            (3, "play", 500, "win", 500),
            (3, "pair_plus", 500, "lose", -500),        # beats the dealer but ace high pays nothing
            (4, "pair_plus", 1000, "win", 2000),        # pair of aces, alone, 2 to 1
            (5, "ante", 500, "win", 500),
            (5, "play", 500, "win", 500),
            (5, "pair_plus", 500, "win", 2000),         # straight 4 to 1
            (6, "ante", 500, "forfeit", -500),          # fold forfeits Ante and Pair Plus
            (6, "pair_plus", 500, "forfeit", -500),
            (7, "pair_plus", 200, "win", 40000),        # mini royal 200 to 1
        ))
        self.assertEqual(self.get_round(r["id"]), r)

    def test_f1_step_by_step_dealer_not_qualifying(self):
        rid = self.open_round("F1")
        self.bet(rid, 1, {"pair_plus": 500})
        self.bet(rid, 2, {"ante": 500, "pair_plus": 500})
        self.bet(rid, 3, {"ante": 200, "pair_plus": 200})
        self.step(rid, "close")
        self.step(rid, "deal", {"hands": {"1": ["Tc", "9s", "8h"], "2": ["3c", "3d", "Kd"], "3": ["Jd", "8c", "2d"]},
                                "dealer": ["Jc", "8d", "2s"]})
        self.step(rid, "decisions", {"seat": 2, "action": "play"})
        self.step(rid, "decisions", {"seat": 3, "action": "play"})
        r = self.step(rid, "settle")
        self.assertFalse(r["dealer"]["qualifies"])
        self.assert_payouts(r, lines(
            (1, "pair_plus", 500, "win", 2000),         # straight beats the unqualified dealer: 4 to 1
            (2, "ante", 500, "win", 500),
            (2, "play", 500, "push", 0),
            (2, "pair_plus", 500, "win", 1000),         # pair 2 to 1
            (3, "ante", 200, "win", 200),               # J-8-2 against J-8-2, but the dealer does not qualify
            (3, "play", 200, "push", 0),
            (3, "pair_plus", 200, "push", 0),           # exact tie pushes (qualified or not)
        ))
        self.assert_same_as_get(r)

    # ---- void ----

    def test_void_returns_every_wager(self):
        rid = self.open_round("V1")
        self.bet(rid, 1, {"ante": 1000, "pair_plus": 1000})
        self.bet(rid, 2, {"ante": 1000})
        self.step(rid, "close")
        self.step(rid, "deal", {"hands": {"1": ["As", "Ad", "Kc"], "2": ["2c", "3c", "4c"]}, "dealer": ["Qc", "Jd", "9h"]})
        self.step(rid, "decisions", {"seat": 1, "action": "play"})
        r = self.step(rid, "void", {"reason": "misdeal: exposed card"}, token=PITBOSS_TOKEN)
        self.assertEqual(r["state"], "void")
        self.assertEqual(r["void_reason"], "misdeal: exposed card")
        self.assert_payouts(r, lines(
            (1, "ante", 1000, "returned", 0),
            (1, "play", 1000, "returned", 0),
            (1, "pair_plus", 1000, "returned", 0),
            (2, "ante", 1000, "returned", 0),
        ))
        got = self.assert_same_as_get(r)
        self.assertEqual(got["events"][-1]["type"], "round_voided")
        t = self.ok("GET", "/api/v1/tables/V1", token=AUDITOR)["table"]
        self.assertIsNone(t["current_round"])

    def test_void_in_betting_by_dealer(self):
        rid = self.open_round("V1")
        self.bet(rid, 3, {"ante": 2000, "pair_plus": 1000})
        r = self.step(rid, "void", {"reason": "dealer change"})
        self.assertEqual(r["state"], "void")
        self.assert_payouts(r, lines((3, "ante", 2000, "returned", 0), (3, "pair_plus", 1000, "returned", 0)))
        self.assertEqual(r["totals"]["players_net"], 0)

    # ---- game recall ----

    def test_game_recall_order_and_paging(self):
        ids = []
        for i in range(5):
            r = self.whole("R1", {"bets": {"1": {"ante": 500 + i}}, "hands": {"1": ["As", "Kd", "Qh"]},
                                  "dealer": ["2c", "7d", "9h"], "decisions": {"1": "play"}})
            ids.append(r["id"])
        rid_open = self.open_round("R1")
        ids.append(rid_open)
        newest_first = list(reversed(ids))

        js = self.ok("GET", "/api/v1/tables/R1/rounds", token=AUDITOR)
        got = [x["id"] for x in js["rounds"]]
        self.assertEqual(got, newest_first)
        self.assertEqual(js["rounds"][0]["state"], "betting")
        self.assertEqual(js["rounds"][1]["state"], "settled")
        for x in js["rounds"]:
            self.assertIn("opened_at", x)
            self.assertEqual(x["table"], "R1")
        # the entry is the round as GET shows it (without its events)
        full = self.get_round(ids[2])
        full.pop("events")
        self.assertEqual([x for x in js["rounds"] if x["id"] == ids[2]][0], full)

        pages = []
        before = None
        while True:
            q = "/api/v1/tables/R1/rounds?limit=2" + ("&before=%d" % before if before else "")
            js = self.ok("GET", q, token=AUDITOR)
            page = [x["id"] for x in js["rounds"]]
            if not page:
                break
            self.assertLessEqual(len(page), 2)
            pages.append(page)
            before = page[-1]
            if len(pages) > 10:
                self.fail("paging does not end")
        self.assertEqual(pages, [newest_first[0:2], newest_first[2:4], newest_first[4:6]])

        js = self.ok("GET", "/api/v1/tables/R1/rounds?limit=3&before=%d" % ids[3], token=AUDITOR)
        self.assertEqual([x["id"] for x in js["rounds"]], [ids[2], ids[1], ids[0]])
        js = self.ok("GET", "/api/v1/tables/R1/rounds?limit=1", token=AUDITOR)
        self.assertEqual([x["id"] for x in js["rounds"]], [rid_open])
        # another table's rounds never show
        js = self.ok("GET", "/api/v1/tables/G1/rounds", token=AUDITOR)
        self.assertEqual(js["rounds"], [])
        self.void(rid_open)

    # ---- tables: open and close ----

    def test_table_close_and_open(self):
        t = self.ok("POST", "/api/v1/tables/C1/close", token=PITBOSS_TOKEN)["table"]
        self.assertEqual(t["status"], "closed")
        t = self.ok("GET", "/api/v1/tables/C1", token=DEALER)["table"]
        self.assertEqual(t["status"], "closed")
        listed = [x for x in self.ok("GET", "/api/v1/tables", token=PITBOSS_TOKEN)["tables"] if x["id"] == "C1"][0]
        self.assertEqual(listed["status"], "closed")
        self.refused(409, "table_closed", "POST", "/api/v1/tables/C1/rounds", {})
        self.refused(409, "table_closed", "POST", "/api/v1/tables/C1/rounds",
                     {"bets": {"1": {"ante": 1000}}, "hands": {"1": ["As", "Kd", "Qh"]},
                      "dealer": ["2c", "7d", "9h"], "decisions": {"1": "play"}})
        # a dealer neither opens nor closes tables
        self.refused(403, "forbidden", "POST", "/api/v1/tables/C1/open", token=DEALER)
        t = self.ok("POST", "/api/v1/tables/C1/open", token=PITBOSS_TOKEN)["table"]
        self.assertEqual(t["status"], "open")
        rid = self.open_round("C1")
        self.void(rid)
        self.refused(403, "forbidden", "POST", "/api/v1/tables/C1/close", token=DEALER)
        self.refused(403, "forbidden", "POST", "/api/v1/tables/C1/close", token=AUDITOR)
        events = self.d.db_rows("SELECT type, actor FROM events WHERE table_id = 'C1' AND type IN ('table_opened', 'table_closed') ORDER BY table_seq")
        self.assertEqual(events, [("table_closed", "demo-pitboss"), ("table_opened", "demo-pitboss")])

    # ---- limits ----

    def test_limits_apply_from_the_next_round(self):
        rid = self.open_round("L1")
        new_limits = {"ante": {"min": 1000, "max": 2000}, "pair_plus": {"min": 1000, "max": 1500}}
        t = self.ok("PUT", "/api/v1/tables/L1/limits", new_limits, token=PITBOSS_TOKEN)["table"]
        self.assertEqual(t["limits"], new_limits)
        self.assertEqual(self.ok("GET", "/api/v1/tables/L1", token=AUDITOR)["table"]["limits"], new_limits)
        # the round in progress keeps the limits it was opened under
        r = self.bet(rid, 1, {"ante": 500, "six_card": 500})
        self.assertEqual(r["limits"]["ante"], {"min": 500, "max": 50000})
        self.bet(rid, 2, {"ante": 3000, "pair_plus": 500})
        self.step(rid, "close")
        self.step(rid, "deal", {"hands": {"1": ["As", "Kd", "Qh"], "2": ["2c", "2d", "9s"]}, "dealer": ["3c", "7d", "9h"]})
        self.step(rid, "decisions", {"seat": 1, "action": "play"})
        self.step(rid, "decisions", {"seat": 2, "action": "play"})
        r = self.step(rid, "settle")
        self.assertEqual(r["limits"]["ante"], {"min": 500, "max": 50000})
        # the next round uses the new ones
        rid = self.open_round("L1")
        r = self.get_round(rid)
        self.assertEqual(r["limits"], new_limits)
        self.refused(422, "below_minimum", "PUT", "/api/v1/rounds/%d/bets/1" % rid, {"ante": 500})
        self.refused(422, "above_maximum", "PUT", "/api/v1/rounds/%d/bets/1" % rid, {"ante": 3000})
        self.refused(422, "above_maximum", "PUT", "/api/v1/rounds/%d/bets/1" % rid, {"ante": 1000, "pair_plus": 2000})
        # six_card was left out of the new limits: the table no longer takes it
        self.refused(422, "wager_not_offered", "PUT", "/api/v1/rounds/%d/bets/1" % rid, {"ante": 1000, "six_card": 500})
        self.bet(rid, 1, {"ante": 1500, "pair_plus": 1000})
        self.void(rid)
        # limits are the pitboss's
        self.refused(403, "forbidden", "PUT", "/api/v1/tables/L1/limits", new_limits, token=DEALER)
        self.refused(403, "forbidden", "PUT", "/api/v1/tables/L1/limits", new_limits, token=AUDITOR)
        # limits that make no sense are refused
        self.refused(400, None, "PUT", "/api/v1/tables/L1/limits", {"ante": {"min": 3000, "max": 2000}}, token=PITBOSS_TOKEN)
        self.refused(400, None, "PUT", "/api/v1/tables/L1/limits", {"pair_plus": {"min": 500, "max": 1000}}, token=PITBOSS_TOKEN)
        self.refused(400, None, "PUT", "/api/v1/tables/L1/limits", {"ante": {"min": 500.5, "max": 2000}}, token=PITBOSS_TOKEN)
        ev = self.d.db_rows("SELECT body FROM events WHERE table_id = 'L1' AND type = 'limits_changed'")
        self.assertEqual(len(ev), 1)

    # ---- reading ----

    def test_tables_list_shape(self):
        js = self.ok("GET", "/api/v1/tables", token=AUDITOR)
        ids = [t["id"] for t in js["tables"]]
        for tid in ("T1", "T2", "T3", "F1", "P1"):
            self.assertIn(tid, ids)
        for t in js["tables"]:
            for k in ("id", "name", "game", "banking", "seats", "limits", "status", "current_round"):
                self.assertIn(k, t, t)
            self.assertIn(t["banking"], ("house", "player"))
            self.assertIn(t["status"], ("open", "closed"))
        t1 = [t for t in js["tables"] if t["id"] == "T1"][0]
        self.assertEqual(t1["name"], "Three Card 1")
        self.assertEqual(t1["game"], "standard")
        self.assertEqual(t1["seats"], 6)
        self.assertEqual(t1["limits"], {"ante": {"min": 500, "max": 50000}, "pair_plus": {"min": 500, "max": 10000},
                                        "six_card": {"min": 500, "max": 2500}})
        p1 = [t for t in js["tables"] if t["id"] == "P1"][0]
        self.assertEqual(p1["banking"], "player")
        self.assertEqual(self.ok("GET", "/api/v1/health", token=None), {"status": "ok"})

    def test_zz_recall_t1(self):
        # T1's rounds, written by the tests above: newest first, and the pages add up to the whole list
        ids = [r[0] for r in self.d.db_rows("SELECT id FROM rounds WHERE table_id = 'T1' ORDER BY id DESC")]
        self.assertGreaterEqual(len(ids), 5)
        js = self.ok("GET", "/api/v1/tables/T1/rounds?limit=200", token=AUDITOR)
        self.assertEqual([x["id"] for x in js["rounds"]], ids)
        self.assertTrue(all(x["table"] == "T1" for x in js["rounds"]))
        paged, before = [], None
        while True:
            js = self.ok("GET", "/api/v1/tables/T1/rounds?limit=2" + ("&before=%d" % before if before else ""), token=AUDITOR)
            page = [x["id"] for x in js["rounds"]]
            paged += page
            if len(page) < 2:
                break
            before = page[-1]
        self.assertEqual(paged, ids)
        self.assertEqual(len(self.ok("GET", "/api/v1/tables/T1/rounds", token=AUDITOR)["rounds"]), min(10, len(ids)))
        # a round's times come in order
        for x in self.ok("GET", "/api/v1/tables/T1/rounds?limit=200", token=AUDITOR)["rounds"]:
            if x["state"] == "settled":
                self.assertLessEqual(x["opened_at"], x["closed_at"])
                self.assertLessEqual(x["closed_at"], x["settled_at"])

    def test_zz_chain_intact_after_all_this(self):
        # runs last (alphabetical order): the record written by the other tests chains correctly
        conn = self.d.db_connect()
        try:
            self.assertEqual(pbtest.chain_problems(conn), [])
        finally:
            conn.close()


if __name__ == "__main__":
    pbtest.main()
