"""
Player-banked tables through the real daemon (seed 003; API.md; docs/rules.md
"Player-banked tables"; docs/api.md "Player-banked tables").

The coverage walk: a bank that covers everything, one that runs out exactly
(bank 0, the later wagers returned), one that runs out part way through a
seat's lines (short on a line, the rest returned), one that runs out on the
first line; the payout order from the seat after the banker's, wrapping round
the table, with bank_after on every line.  The banker rotation over a full
circle of the table (the seats passed over are not recorded as declining: no
offer was made to them), refusals naming the next seat, void rounds not
counted, and restarts (SIGTERM, kill -9) in the middle of a banker's turn.
Collection fees by ante tier.  Bad input refused with the record unchanged.
A seeded property check over ~200 random whole rounds.
"""
import sys
import json
import random
import unittest

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
import pbtest  # noqa: E402
from pbtest import DEALER, PITBOSS_TOKEN, AUDITOR  # noqa: E402

DECK = [r + s for r in "23456789TJQKA" for s in "cdhs"]
WAGER_ORDER = ("ante", "play", "pair_plus", "six_card", "ante_bonus")
DEALER_Q = ["Qd", "7c", "2h"]          # queen high: qualifies, beaten by any pair


def dollars(cents):
    """An amount as the daemon's sentences say it: 500000 -> "$5,000.00"."""
    c = abs(cents)
    return "%s${:,}.{:02d}".format(c // 100, c % 100) % ("-" if cents < 0 else "")


def banked_table(tid, seats=8, max_consecutive=2, collection=True):
    t = pbtest.example_table("P1")
    t["id"] = tid
    t["name"] = "player-banked " + tid
    t["seats"] = seats
    t["banker"] = {"max_consecutive": max_consecutive, "min_bank": 10000, "max_bank": 500000}
    if not collection:
        t.pop("collection", None)
    return t


# P1's schedule: seats pay by their Ante, the banker a flat fee
FEE_TIERS = [(2500, 100), (10000, 200), (20000, 300)]
BANKER_FEE = 300


def tier_fee(ante):
    for up_to, fee in FEE_TIERS:
        if ante <= up_to:
            return fee
    return FEE_TIERS[-1][1]


def seat_order(banker, seats):
    """The payout order of seats: from the seat after the banker's, clockwise, the banker's left out."""
    return [(banker + i - 1) % seats + 1 for i in range(1, seats)]


class BankedCase(pbtest.DaemonTestCase):

    def whole(self, table, body, token=DEALER):
        r = super().whole(table, body, token=token)
        self.assertEqual(r["banking"], "player")
        v = self.ok("GET", "/api/v1/rounds/%d/verify" % r["id"], token=AUDITOR)
        self.assertEqual(v, {"round": r["id"], "ok": True, "problems": []})
        return r

    def assert_walk(self, r, want, bank_end):
        """want: [(seat, wager, stake, result, net, bank_after, short or None)] in payout order."""
        got = [(p["seat"], p["wager"], p["stake"], p["result"], p["net"], p.get("bank_after"), p.get("short"))
               for p in r["payouts"]]
        self.assertEqual(got, list(want), "payout lines:\n%s" % json.dumps(r["payouts"], indent=1))
        self.assertEqual([p["seq"] for p in r["payouts"]], list(range(1, len(want) + 1)))
        for p in r["payouts"]:
            self.assertIn("bank_after", p, "every line on a player-banked table carries bank_after")
        self.assertEqual(r["banker"]["bank_end"], bank_end)
        self.assertEqual(r["totals"]["players_net"], sum(p["net"] for p in r["payouts"]))
        # read back identically
        self.assertEqual({k: v for k, v in self.ok("GET", "/api/v1/rounds/%d" % r["id"], token=AUDITOR)["round"].items()
                          if k != "events"}, {k: v for k, v in r.items() if k != "events"})


class Coverage(BankedCase):
    daemon_kwargs = {"extra_tables": [banked_table(t) for t in ("PA", "PB", "PC", "PD", "PE")]}

    def test_bank_covers_everything(self):
        r = self.whole("PA", {
            "banker": {"seat": 3, "bank": 50000},
            "bets": {"4": {"ante": 1000}, "1": {"ante": 2000}, "2": {"ante": 500, "pair_plus": 500}},
            "hands": {"4": ["9h", "9c", "5d"], "1": ["Jd", "8s", "4h"], "2": ["3c", "6d", "Ts"]},
            "dealer": DEALER_Q,
            "decisions": {"4": "play", "1": "play", "2": "fold"}})
        self.assertEqual(r["banker"], {"seat": 3, "bank": 50000, "bank_end": 53000})
        self.assert_walk(r, [
            (4, "ante", 1000, "win", 1000, 49000, None),       # the seat after the banker's is paid first
            (4, "play", 1000, "win", 1000, 48000, None),
            (1, "ante", 2000, "lose", -2000, 50000, None),     # wrapping round: 4, then 1 and 2
            (1, "play", 2000, "lose", -2000, 52000, None),
            (2, "ante", 500, "forfeit", -500, 52500, None),
            (2, "pair_plus", 500, "forfeit", -500, 53000, None),
        ], 53000)
        self.assertNotIn("3", r["bets"])

    def test_bank_runs_out_exactly(self):
        r = self.whole("PB", {
            "banker": {"seat": 8, "bank": 10000},
            "bets": {"1": {"ante": 5000}, "2": {"ante": 1000}, "3": {"ante": 1000}},
            "hands": {"1": ["Kh", "Kc", "4s"], "2": ["Jd", "8s", "4h"], "3": ["Ac", "Ad", "3d"]},
            "dealer": DEALER_Q,
            "decisions": {"1": "play", "2": "play", "3": "play"}})
        self.assert_walk(r, [
            (1, "ante", 5000, "win", 5000, 5000, None),
            (1, "play", 5000, "win", 5000, 0, None),           # exactly exhausted: paid in full, nothing short
            (2, "ante", 1000, "returned", 0, 0, None),         # a losing hand, but the bank is gone: returned
            (2, "play", 1000, "returned", 0, 0, None),
            (3, "ante", 1000, "returned", 0, 0, None),         # a winning hand, returned all the same
            (3, "play", 1000, "returned", 0, 0, None),
        ], 0)

    def test_bank_runs_out_part_way_through_a_seat(self):
        r = self.whole("PC", {
            "banker": {"seat": 2, "bank": 10000},
            "bets": {"3": {"ante": 3000, "pair_plus": 1000}, "5": {"ante": 1000}, "1": {"ante": 500}},
            "hands": {"3": ["5c", "6d", "7h"], "5": ["2c", "9d", "Th"], "1": ["8c", "8d", "As"]},
            "dealer": DEALER_Q,
            "decisions": {"3": "play", "5": "fold", "1": "play"}})
        self.assert_walk(r, [
            (3, "ante", 3000, "win", 3000, 7000, None),
            (3, "play", 3000, "win", 3000, 4000, None),
            (3, "pair_plus", 1000, "win", 4000, 0, 2000),      # straight 6 to 1 = 6000: 4000 paid, 2000 short
            (3, "ante_bonus", 3000, "returned", 0, 0, None),   # the rest of the seat's lines are returned
            (5, "ante", 1000, "returned", 0, 0, None),         # a fold after exhaustion is returned too
            (1, "ante", 500, "returned", 0, 0, None),
            (1, "play", 500, "returned", 0, 0, None),
        ], 0)
        self.assertEqual(r["totals"]["players_net"], 10000)

    def test_bank_runs_out_on_the_first_line(self):
        r = self.whole("PD", {
            "banker": {"seat": 5, "bank": 10000},
            "bets": {"6": {"ante": 20000}, "7": {"ante": 1000, "pair_plus": 500}, "4": {"ante": 600}},
            "hands": {"6": ["Jh", "Jc", "5s"], "7": ["3h", "4d", "9c"], "4": ["Ts", "Td", "Tc"]},
            "dealer": DEALER_Q,
            "decisions": {"6": "play", "7": "play", "4": "play"}})
        self.assert_walk(r, [
            (6, "ante", 20000, "win", 10000, 0, 10000),
            (6, "play", 20000, "returned", 0, 0, None),
            (7, "ante", 1000, "returned", 0, 0, None),
            (7, "play", 1000, "returned", 0, 0, None),
            (7, "pair_plus", 500, "returned", 0, 0, None),
            (4, "ante", 600, "returned", 0, 0, None),          # seat 4, just before the banker, comes last
            (4, "play", 600, "returned", 0, 0, None),
            (4, "ante_bonus", 600, "returned", 0, 0, None),    # its three of a kind's bonus, returned as well
        ], 0)

    def test_payout_order_wraps_round_the_table(self):
        for banker, seats_bet in ((6, (1, 3, 7, 8)), (1, (8, 2, 5)), (8, (7, 1, 4))):
            with self.subTest(banker=banker):
                deck = [c for c in DECK if c not in DEALER_Q]
                rng = random.Random(banker)
                rng.shuffle(deck)
                body = {"banker": {"seat": banker, "bank": 200000}, "bets": {}, "hands": {}, "decisions": {},
                        "dealer": DEALER_Q}
                for i, s in enumerate(seats_bet):
                    body["bets"][str(s)] = {"ante": 1000 + s, "pair_plus": 500}
                    body["hands"][str(s)] = deck[3 * i:3 * i + 3]
                    body["decisions"][str(s)] = "play"
                r = self.whole("PE", body)
                order = [s for s in seat_order(banker, 8) if s in seats_bet]
                seen = []
                for p in r["payouts"]:
                    if not seen or seen[-1] != p["seat"]:
                        seen.append(p["seat"])
                self.assertEqual(seen, order)
                for s in order:
                    wagers = [p["wager"] for p in r["payouts"] if p["seat"] == s]
                    self.assertEqual(wagers, sorted(wagers, key=WAGER_ORDER.index))
                    self.assertEqual(wagers[:3], ["ante", "play", "pair_plus"])
                bank = 200000
                for p in r["payouts"]:
                    bank += {"win": -p["net"], "lose": p["stake"], "forfeit": p["stake"]}.get(p["result"], 0)
                    self.assertEqual(p["bank_after"], bank)
                self.assertEqual(r["banker"]["bank_end"], bank)


class Rotation(BankedCase):
    daemon_kwargs = {"extra_tables": [banked_table("PR", seats=4)]}

    def round_body(self, seat, rng):
        others = [s for s in (1, 2, 3, 4) if s != seat]
        s = rng.choice(others)
        cards = rng.sample(DECK, 6)
        return {"banker": {"seat": seat, "bank": 20000}, "bets": {str(s): {"ante": 1000}},
                "hands": {str(s): cards[:3]}, "dealer": cards[3:], "decisions": {str(s): "play"}}

    def bankers(self):
        js = self.ok("GET", "/api/v1/tables/PR/bankers?limit=500", token=AUDITOR)
        self.assertEqual((js["table"], js["max_consecutive"], js["min_bank"]), ("PR", 2, 10000))
        return js

    def test_rotation_full_circle(self):
        rng = random.Random(42)
        st, js = self.call("GET", "/api/v1/tables/T1/bankers", token=AUDITOR)
        self.assertEqual((st, js["error"]["code"]), (404, "not_player_banked"), js)
        self.assertIsNone(self.bankers()["current"])
        self.assertEqual(self.bankers()["history"], [])
        r1 = self.whole("PR", self.round_body(1, rng))["id"]
        r2 = self.whole("PR", self.round_body(1, rng))["id"]
        self.assertEqual(self.bankers()["current"], {"seat": 1, "consecutive": 2, "must_pass": True, "next_seat": 2})
        err = self.refused(422, "rotation_violation", "POST", "/api/v1/tables/PR/rounds", self.round_body(1, rng))
        self.assertIn("seat 2", err["message"])
        err = self.refused(422, "rotation_violation", "POST", "/api/v1/tables/PR/rounds", {"banker": {"seat": 1, "bank": 20000}})
        self.assertIn("seat 2", err["message"])
        r4 = self.whole("PR", self.round_body(3, rng))["id"]         # seat 2 passes the bank on
        self.assertEqual(self.bankers()["current"], {"seat": 3, "consecutive": 1, "must_pass": False, "next_seat": 4})
        r5 = self.whole("PR", self.round_body(3, rng))["id"]
        err = self.refused(422, "rotation_violation", "POST", "/api/v1/tables/PR/rounds", self.round_body(3, rng))
        self.assertIn("seat 4", err["message"])
        r7 = self.whole("PR", self.round_body(1, rng))["id"]         # round the table: seat 4 passed, no offer made
        # a void round does not count as banked
        r8 = self.ok("POST", "/api/v1/tables/PR/rounds", {"banker": {"seat": 1, "bank": 20000}}, status=201)["round"]["id"]
        self.ok("PUT", "/api/v1/rounds/%d/bets/2" % r8, {"ante": 1000})
        self.ok("POST", "/api/v1/rounds/%d/void" % r8, {"reason": "misdeal"}, token=PITBOSS_TOKEN)
        self.assertEqual(self.bankers()["current"], {"seat": 1, "consecutive": 1, "must_pass": False, "next_seat": 2})
        r9 = self.whole("PR", self.round_body(1, rng))["id"]
        self.assertEqual(self.bankers()["current"], {"seat": 1, "consecutive": 2, "must_pass": True, "next_seat": 2})
        err = self.refused(422, "rotation_violation", "POST", "/api/v1/tables/PR/rounds", self.round_body(1, rng))
        self.assertIn("seat 2", err["message"])
        r11 = self.whole("PR", self.round_body(2, rng))["id"]
        js = self.bankers()
        self.assertEqual(js["current"], {"seat": 2, "consecutive": 1, "must_pass": False, "next_seat": 3})
        hist = [(h["round"], h["seat"], h["kind"], h.get("consecutive")) for h in js["history"]]
        self.assertEqual(hist, [
            (r11, 2, "bank", 1),
            (r9, 1, "bank", 2),
            (r8, 1, "bank", 2),          # recorded when it opened; voided since, so it did not count
            (r7, 1, "bank", 1),          # seat 4 was passed over: no offer was recorded, so no decline either
            (r5, 3, "bank", 2),
            (r4, 3, "bank", 1),          # and seat 2 here
            (r2, 1, "bank", 2),
            (r1, 1, "bank", 1),
        ])
        for h in js["history"]:
            self.assertRegex(h["at"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
        self.assertEqual(len(self.ok("GET", "/api/v1/tables/PR/bankers?limit=3", token=AUDITOR)["history"]), 3)
        # the recorded round_opened events carry the rotation
        ev = self.ok("GET", "/api/v1/rounds/%d" % r7, token=AUDITOR)["round"]["events"][0]
        self.assertEqual(ev["body"]["banker"], {"seat": 1, "bank": 20000, "consecutive": 1})


class RotationRestart(unittest.TestCase):
    """A restart in the middle of a banker's turn keeps the rotation."""

    def setUp(self):
        self.d = pbtest.Daemon(extra_tables=[banked_table("PK")])
        self.addCleanup(self.d.close)
        self.d.start()

    def ok(self, method, path, body=None, status=200, token=DEALER):
        st, js = self.d.call(method, path, body, token=token)
        self.assertEqual(st, status, "%s %s -> %d %s" % (method, path, st, json.dumps(js)))
        return js

    def current(self):
        return self.ok("GET", "/api/v1/tables/PK/bankers", token=AUDITOR)["current"]

    def whole(self, seat, bettor, cards):
        return self.ok("POST", "/api/v1/tables/PK/rounds", {
            "banker": {"seat": seat, "bank": 30000}, "bets": {str(bettor): {"ante": 1000}},
            "hands": {str(bettor): cards[:3]}, "dealer": cards[3:], "decisions": {str(bettor): "play"}}, status=201)["round"]

    def run_turn(self, interrupt):
        self.whole(5, 1, ["As", "Kd", "2c", "9h", "9d", "3s"])
        interrupt()                                       # between the banker's two rounds
        self.assertEqual(self.current(), {"seat": 5, "consecutive": 1, "must_pass": False, "next_seat": 6})
        rid = self.ok("POST", "/api/v1/tables/PK/rounds", {"banker": {"seat": 5, "bank": 30000}}, status=201)["round"]["id"]
        self.ok("PUT", "/api/v1/rounds/%d/bets/2" % rid, {"ante": 2000})
        self.ok("PUT", "/api/v1/rounds/%d/bets/8" % rid, {"ante": 1000, "pair_plus": 500})
        self.ok("POST", "/api/v1/rounds/%d/close" % rid)
        interrupt()                                       # in the middle of his second round
        self.assertEqual(self.current(), {"seat": 5, "consecutive": 2, "must_pass": True, "next_seat": 6})
        self.ok("POST", "/api/v1/rounds/%d/deal" % rid, {"hands": {"2": ["Qs", "Qh", "4c"], "8": ["5h", "6h", "7h"]},
                                                          "dealer": ["Kc", "Jd", "3h"]})
        self.ok("POST", "/api/v1/rounds/%d/decisions" % rid, {"seat": 2, "action": "play"})
        self.ok("POST", "/api/v1/rounds/%d/decisions" % rid, {"seat": 8, "action": "play"})
        r = self.ok("POST", "/api/v1/rounds/%d/settle" % rid)["round"]
        self.assertEqual([p["seat"] for p in r["payouts"]][:1], [8])     # seat 8 after banker 5 (6, 7 empty)
        self.assertEqual(r["banker"]["seat"], 5)
        interrupt()
        st, js = self.d.call("POST", "/api/v1/tables/PK/rounds", {"banker": {"seat": 5, "bank": 30000}})
        self.assertEqual((st, js["error"]["code"]), (422, "rotation_violation"), js)
        self.assertIn("seat 6", js["error"]["message"])
        self.whole(6, 1, ["Ah", "Kh", "2d", "9c", "9s", "3c"])
        self.assertEqual(self.current(), {"seat": 6, "consecutive": 1, "must_pass": False, "next_seat": 7})
        v = self.ok("GET", "/api/v1/integrity?table=PK", token=AUDITOR)
        self.assertIs(v["ok"], True, v["problems"])

    def test_sigterm_during_a_banker_turn(self):
        self.run_turn(lambda: self.d.restart())
        self.d.stop()

    def test_kill9_during_a_banker_turn(self):
        def crash():
            self.d.kill9()
            self.d.start()
        self.run_turn(crash)
        self.d.stop()


class Collections(BankedCase):
    daemon_kwargs = {"extra_tables": [banked_table("PF"), banked_table("PN", collection=False)]}

    def collections_rows(self, rid):
        return dict(self.d.db_rows("SELECT seat, fee FROM collections WHERE round_id = ?", (rid,)))

    def test_fees_by_ante_tier(self):
        r = self.whole("PF", {
            "banker": {"seat": 1, "bank": 500000},
            "bets": {"2": {"ante": 2500}, "3": {"ante": 2501}, "4": {"ante": 10000}, "5": {"ante": 10001},
                     "6": {"ante": 20000, "pair_plus": 500}, "7": {"ante": 500}},
            "hands": {"2": ["2c", "5d", "9h"], "3": ["3c", "6d", "Th"], "4": ["4c", "8d", "Jh"], "5": ["5c", "9d", "Js"],
                      "6": ["6c", "Td", "Ks"], "7": ["Ac", "Ad", "Ah"]},
            "dealer": ["Kd", "Kh", "3s"],
            "decisions": {"2": "play", "3": "play", "4": "play", "5": "play", "6": "play", "7": "fold"}})
        want = {"2": 100, "3": 200, "4": 200, "5": 300, "6": 300, "7": 100}     # a fold is action: it pays
        self.assertEqual(r["collections"], {"seats": want, "banker": BANKER_FEE, "total": sum(want.values()) + BANKER_FEE})
        self.assertEqual(r["collection"], {"seat_fees": [{"up_to": u, "fee": f} for u, f in FEE_TIERS],
                                           "banker_fee": BANKER_FEE})
        rows = self.collections_rows(r["id"])
        self.assertEqual(rows, dict([(0, BANKER_FEE)] + [(int(k), v) for k, v in want.items()]))
        # the record of the settlement carries them as well
        ev = self.ok("GET", "/api/v1/rounds/%d" % r["id"], token=AUDITOR)["round"]["events"][-1]
        self.assertEqual(ev["body"]["collections"], r["collections"])

    def test_no_fee_for_a_seat_whose_wagers_were_all_returned(self):
        r = self.whole("PF", {
            "banker": {"seat": 4, "bank": 10000},
            "bets": {"5": {"ante": 20000}, "6": {"ante": 1000}, "2": {"ante": 5000, "pair_plus": 500}},
            "hands": {"5": ["Jh", "Jc", "5s"], "6": ["3h", "4d", "9c"], "2": ["8s", "8h", "2d"]},
            "dealer": DEALER_Q,
            "decisions": {"5": "play", "6": "play", "2": "play"}})
        self.assertEqual([p["result"] for p in r["payouts"]], ["win"] + ["returned"] * 6)
        self.assertEqual(r["payouts"][0]["short"], 10000)
        # seat 5's win was paid in part: it pays; seats 6 and 2 had everything returned: they pay nothing
        self.assertEqual(r["collections"], {"seats": {"5": 300}, "banker": BANKER_FEE, "total": 300 + BANKER_FEE})
        self.assertEqual(self.collections_rows(r["id"]), {0: BANKER_FEE, 5: 300})

    def test_no_collection_on_a_void_round(self):
        rid = self.ok("POST", "/api/v1/tables/PF/rounds", {"banker": {"seat": 7, "bank": 50000}}, status=201)["round"]["id"]
        self.ok("PUT", "/api/v1/rounds/%d/bets/1" % rid, {"ante": 5000})
        self.ok("PUT", "/api/v1/rounds/%d/bets/3" % rid, {"ante": 15000, "pair_plus": 1000})
        self.ok("POST", "/api/v1/rounds/%d/close" % rid)
        self.ok("POST", "/api/v1/rounds/%d/deal" % rid, {"hands": {"1": ["As", "Ks", "Qs"], "3": ["2c", "2d", "2s"]},
                                                          "dealer": DEALER_Q})
        r = self.ok("POST", "/api/v1/rounds/%d/void" % rid, {"reason": "misdeal: card exposed"}, token=PITBOSS_TOKEN)["round"]
        self.assertEqual(r["state"], "void")
        self.assertEqual({p["result"] for p in r["payouts"]}, {"returned"})
        self.assertEqual({p["bank_after"] for p in r["payouts"]}, {50000})
        self.assertEqual(r["banker"]["bank_end"], 50000)
        if "collections" in r:
            self.assertEqual(r["collections"], {"seats": {}, "banker": 0, "total": 0})
        self.assertEqual(self.collections_rows(rid), {})
        self.assertEqual(self.ok("GET", "/api/v1/rounds/%d/verify" % rid, token=AUDITOR)["ok"], True)

    def test_table_without_a_schedule_collects_nothing(self):
        r = self.whole("PN", {
            "banker": {"seat": 1, "bank": 50000}, "bets": {"2": {"ante": 5000}}, "hands": {"2": ["As", "Kd", "3c"]},
            "dealer": DEALER_Q, "decisions": {"2": "play"}})
        self.assertNotIn("collection", r)
        self.assertNotIn("collections", r)
        self.assertEqual(self.collections_rows(r["id"]), {})


class BadInput(BankedCase):
    daemon_kwargs = {"extra_tables": [banked_table("PX"), banked_table("P6", seats=6)]}

    def test_banker_required_on_player_banked_tables(self):
        self.refused(422, "banker_required", "POST", "/api/v1/tables/PX/rounds", {})
        self.refused(422, "banker_required", "POST", "/api/v1/tables/PX/rounds", {
            "bets": {"1": {"ante": 1000}}, "hands": {"1": ["As", "Kd", "3c"]}, "dealer": DEALER_Q, "decisions": {"1": "play"}})

    def test_banker_not_allowed_on_house_tables(self):
        self.refused(422, "banker_not_allowed", "POST", "/api/v1/tables/T1/rounds", {"banker": {"seat": 2, "bank": 20000}})
        self.refused(422, "banker_not_allowed", "POST", "/api/v1/tables/T1/rounds", {
            "banker": {"seat": 2, "bank": 20000}, "bets": {"1": {"ante": 1000}}, "hands": {"1": ["As", "Kd", "3c"]},
            "dealer": DEALER_Q, "decisions": {"1": "play"}})

    def test_banker_seat_outside_the_table(self):
        for table, seat in (("PX", 0), ("PX", 9), ("PX", -1), ("P6", 7), ("P6", 8)):
            with self.subTest(table=table, seat=seat):
                err = self.refused(422, "invalid_banker_seat", "POST", "/api/v1/tables/%s/rounds" % table,
                                   {"banker": {"seat": seat, "bank": 20000}})
                self.assertIn(str(seat), err["message"])

    def test_bank_outside_its_limits(self):
        err = self.refused(422, "bank_below_minimum", "POST", "/api/v1/tables/PX/rounds", {"banker": {"seat": 1, "bank": 9999}})
        self.assertIn("the bank of %s is below the table's minimum bank of %s" % (dollars(9999), dollars(10000)), err["message"])
        self.refused(422, "bank_below_minimum", "POST", "/api/v1/tables/PX/rounds", {"banker": {"seat": 1, "bank": 0}})
        err = self.refused(422, "bank_above_maximum", "POST", "/api/v1/tables/PX/rounds", {"banker": {"seat": 1, "bank": 500001}})
        self.assertIn("the bank of %s is above the table's maximum bank of %s" % (dollars(500001), dollars(500000)),
                      err["message"])
        # the limits themselves are allowed
        for seat, bank in ((2, 10000), (3, 500000)):
            rid = self.open_round("PX", body={"banker": {"seat": seat, "bank": bank}})
            self.void(rid)

    def test_banker_seat_cannot_bet(self):
        rid = self.open_round("PX", body={"banker": {"seat": 5, "bank": 20000}})
        self.ok("PUT", "/api/v1/rounds/%d/bets/4" % rid, {"ante": 1000})
        err = self.refused(422, "banker_seat_bet", "PUT", "/api/v1/rounds/%d/bets/5" % rid, {"ante": 1000})
        self.assertIn("5", err["message"])
        self.void(rid)
        self.refused(422, "banker_seat_bet", "POST", "/api/v1/tables/PX/rounds", {
            "banker": {"seat": 6, "bank": 20000}, "bets": {"1": {"ante": 1000}, "6": {"ante": 1000}},
            "hands": {"1": ["As", "Kd", "3c"], "6": ["2s", "5d", "8c"]}, "dealer": DEALER_Q,
            "decisions": {"1": "play", "6": "play"}})

    def test_bank_must_be_an_integer(self):
        for bank in (20000.5, "20000", 2e4, True, None, -20000, [20000]):
            with self.subTest(bank=bank):
                self.refused(400, "invalid_amount", "POST", "/api/v1/tables/PX/rounds", {"banker": {"seat": 1, "bank": bank}})

    def test_malformed_banker(self):
        for banker in ({"seat": 1}, {"seat": "1", "bank": 20000}, {"seat": 1, "bank": 20000, "name": "x"}, [1, 20000], 4):
            with self.subTest(banker=banker):
                self.refused(400, None, "POST", "/api/v1/tables/PX/rounds", {"banker": banker})


class Property(BankedCase):
    """~200 random whole rounds: the walk's arithmetic, the order, the fees, and the replay agree."""
    daemon_kwargs = {"extra_tables": [banked_table("PP")]}

    PAYS = {"ante": {1}, "play": {1}, "pair_plus": {1, 3, 6, 30, 40}, "ante_bonus": {1, 4, 5}}

    def test_random_rounds(self):
        rng = random.Random(20261121)
        last, run = 0, 0
        expect_turns = []
        exhausted_rounds = shorts = 0
        for n in range(200):
            seat = rng.randint(1, 8)
            if seat == last and run >= 2:
                seat = seat % 8 + 1
            run = run + 1 if seat == last else 1
            last = seat
            expect_turns.append((seat, run))
            bank = rng.choice([10000, rng.randint(10000, 40000), rng.randint(10000, 500000)])
            bettors = rng.sample([s for s in range(1, 9) if s != seat], rng.randint(1, 7))
            cards = rng.sample(DECK, 3 * len(bettors) + 3)
            body = {"banker": {"seat": seat, "bank": bank}, "bets": {}, "hands": {}, "decisions": {}, "dealer": cards[-3:]}
            for i, s in enumerate(bettors):
                bet = {"ante": rng.randint(500, 20000)}
                if rng.random() < 0.5:
                    bet["pair_plus"] = rng.randint(500, 5000)
                body["bets"][str(s)] = bet
                body["hands"][str(s)] = cards[3 * i:3 * i + 3]
                body["decisions"][str(s)] = "play" if rng.random() < 0.75 else "fold"
            with self.subTest(round=n, body=body):
                r = self.whole("PP", body)
                self.assertEqual(r["state"], "settled")
                self.check_round(r, body)
                exhausted_rounds += r["banker"]["bank_end"] == 0
                shorts += any("short" in p for p in r["payouts"])
        self.assertGreater(exhausted_rounds, 20, "the random rounds exhaust the bank often enough to matter")
        self.assertGreater(shorts, 10)
        # the rotation the daemon recorded is the one worked out here (the newest 500 turns)
        js = self.ok("GET", "/api/v1/tables/PP/bankers?limit=500", token=AUDITOR)
        banks = [(h["seat"], h["consecutive"]) for h in reversed(js["history"]) if h["kind"] == "bank"]
        self.assertGreaterEqual(len(banks), 50)
        self.assertEqual(banks, expect_turns[-len(banks):])

    def check_round(self, r, body):
        banker = body["banker"]["seat"]
        start = body["banker"]["bank"]
        self.assertEqual(r["banker"]["seat"], banker)
        self.assertEqual(r["banker"]["bank"], start)
        pays = r["payouts"]
        # the order: seats from the one after the banker's, clockwise; within a seat, the wager order
        order = [s for s in seat_order(banker, 8) if str(s) in body["bets"]]
        keys = [(order.index(p["seat"]), WAGER_ORDER.index(p["wager"])) for p in pays]
        self.assertEqual(keys, sorted(keys))
        self.assertEqual(sorted({p["seat"] for p in pays}), sorted(order))
        self.assertNotIn(banker, [p["seat"] for p in pays])
        # the walk, line by line
        bank, exhausted = start, False
        lost = paid = 0
        for p in pays:
            before = bank
            self.assertIn("bank_after", p)
            if exhausted:
                self.assertEqual((p["result"], p["net"]), ("returned", 0), p)
                self.assertNotIn("short", p)
            elif p["result"] in ("lose", "forfeit"):
                self.assertEqual(p["net"], -p["stake"], p)
                bank += p["stake"]
                lost += p["stake"]
            elif p["result"] == "win":
                self.assertGreater(p["net"], 0, p)
                self.assertLessEqual(p["net"], before, "a paid win exceeds the bank held before it: %s" % p)
                bank -= p["net"]
                paid += p["net"]
                full = p["net"] + p.get("short", 0)
                self.assertEqual(full % p["stake"], 0, p)
                self.assertIn(full // p["stake"], self.PAYS[p["wager"]], p)
                if "short" in p:
                    self.assertGreater(p["short"], 0)
                    self.assertEqual(bank, 0, p)
            elif p["result"] == "push":
                self.assertEqual(p["net"], 0)
            else:
                self.fail("a wager returned while the bank still holds %d: %s" % (bank, p))
            if bank == 0:
                exhausted = True
            self.assertEqual(p["bank_after"], bank, p)
        self.assertEqual(r["banker"]["bank_end"], bank)
        self.assertEqual(bank, start + lost - paid, "bank after the last line = bank + lost stakes - paid wins")
        self.assertEqual(r["totals"]["players_net"], paid - lost)
        self.assertEqual(r["totals"]["players_net"], sum(p["net"] for p in pays))
        # the fees: by the Ante's tier for each seat with action; the banker's when anyone had action
        action = {p["seat"] for p in pays if p["result"] != "returned"}
        seats = {str(s): tier_fee(body["bets"][str(s)]["ante"]) for s in sorted(action)}
        fee = BANKER_FEE if action else 0
        self.assertEqual(r["collections"], {"seats": seats, "banker": fee, "total": sum(seats.values()) + fee})


if __name__ == "__main__":
    pbtest.main()
