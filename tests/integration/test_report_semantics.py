"""
The summary says what it means (docs/reports.md "House win, banker result,
collections"), against the real pitbossd: a house-banked table (T1), a
player-banked one (P1, with its collection schedule), and a gaming day that
mixes both.  Every expected figure is computed here from the rounds as
GET /api/v1/rounds/{id} shows them (payout lines, collections):

- house_win sums the house-banked rounds only; banker_result (same shape)
  the player-banked rounds' banker result, minus the players' net there;
  collections the fees; win = house_win.total + collections;
- win_per_handle = house_win.total / the house-banked handle, and hold (its
  deprecated name) the same; theoretical_win_per_handle and
  theoretical_hold likewise;
- a group of player-banked rounds only has no interval and no hold flag,
  however far the banker's result is from anything;
- the CSV has a column for each new figure, the same values as the JSON.
"""
import csv
import datetime
import io
import random

import pbtest
from pbtest import DEALER, AUDITOR

WAGERS = ("ante", "play", "pair_plus", "six_card", "ante_bonus")
DECK = [r + s for r in "23456789TJQKA" for s in "cdhs"]


def random_round(rng, table, banker=None):
    """A whole round for T1 (house) or P1 (player-banked, banker seated at `banker`)."""
    deck = list(DECK)
    rng.shuffle(deck)
    seats = 8 if table == "P1" else 6
    bets, hands, decisions = {}, {}, {}
    for seat in range(1, seats + 1):
        if seat == banker or rng.random() < 0.35:
            continue
        b = {"ante": rng.randrange(500, 15001, 100)}
        if rng.random() < 0.5:
            b["pair_plus"] = rng.randrange(500, 5001, 100)
        if table == "T1" and rng.random() < 0.3:
            b["six_card"] = rng.randrange(500, 2501, 100)
        bets[str(seat)] = b
        hands[str(seat)] = [deck.pop(), deck.pop(), deck.pop()]
        decisions[str(seat)] = "play" if rng.random() < 0.75 else "fold"
    if not bets:
        seat = "2" if banker == 1 else "1"
        bets[seat] = {"ante": 1000}
        hands[seat] = [deck.pop(), deck.pop(), deck.pop()]
        decisions[seat] = "play"
    body = {"bets": bets, "hands": hands, "dealer": [deck.pop(), deck.pop(), deck.pop()], "decisions": decisions}
    if banker is not None:
        body["banker"] = {"seat": banker, "bank": 500000}
    return body


def expected(rounds):
    """The summary's figures of a group of rounds, computed from the rounds alone."""
    e = {"rounds": 0, "voids": 0, "hands": 0, "handle": 0, "house_handle": 0, "collections": 0, "banked": 0,
         "house_win": dict.fromkeys(WAGERS, 0), "banker_result": dict.fromkeys(WAGERS, 0)}
    for r in rounds:
        banked = r["banking"] == "player"
        if r["state"] == "settled":
            e["rounds"] += 1
            e["hands"] += len(r["bets"])
            e["banked"] += banked
        else:
            e["voids"] += 1
        side = "banker_result" if banked else "house_win"
        for p in r["payouts"]:
            e[side][p["wager"]] -= p["net"]
            if p["result"] != "returned" and p["wager"] != "ante_bonus":
                e["handle"] += p["stake"]
                if not banked:
                    e["house_handle"] += p["stake"]
        if banked:
            e["collections"] += r["collections"]["total"]
    for side in ("house_win", "banker_result"):
        e[side]["total"] = sum(e[side][w] for w in WAGERS)
    e["win"] = e["house_win"]["total"] + e["collections"]
    return e


class ReportSemantics(pbtest.DaemonTestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        rng = random.Random(20261126)
        ids, banker = [], 1
        for i in range(60):
            table = "P1" if i % 2 else "T1"
            b = None
            if table == "P1":
                b = banker
                banker = banker % 8 + 1
            st, js = cls.d.call("POST", "/api/v1/tables/%s/rounds" % table, random_round(rng, table, b))
            assert st == 201, (st, js)
            ids.append(js["round"]["id"])
        # a player-banked round the banker wins big: a banker's result far outside any house interval
        body = {"banker": {"seat": 8, "bank": 500000},
                "bets": {str(s): {"ante": 20000, "pair_plus": 5000} for s in range(1, 8)},
                "hands": {"1": ["2c", "3d", "5h"], "2": ["2d", "3h", "5s"], "3": ["2h", "3s", "5c"],
                          "4": ["2s", "3c", "5d"], "5": ["4c", "6d", "7h"], "6": ["4d", "6h", "7s"],
                          "7": ["4h", "6s", "7c"]},
                "dealer": ["Ac", "Ad", "Ah"],
                "decisions": {str(s): "play" for s in range(1, 8)}}
        st, js = cls.d.call("POST", "/api/v1/tables/P1/rounds", body)
        assert st == 201, (st, js)
        ids.append(js["round"]["id"])
        cls.rounds = []
        for rid in ids:
            st, js = cls.d.call("GET", "/api/v1/rounds/%d" % rid, token=AUDITOR)
            assert st == 200, (st, js)
            cls.rounds.append(js["round"])
        today = datetime.datetime.now(datetime.timezone.utc).date()
        cls.range = "from=%s&to=%s" % (today - datetime.timedelta(days=1), today + datetime.timedelta(days=1))

    def summary(self, query):
        return self.ok("GET", "/api/v1/reports/summary?%s&%s" % (self.range, query), token=AUDITOR)

    def assert_figures(self, g, rounds):
        e = expected(rounds)
        for k in ("rounds", "voids", "hands", "collections", "win"):
            self.assertEqual(g[k], e[k], k)
        self.assertEqual(g["player_banked_rounds"], e["banked"])
        self.assertEqual(g["handle"]["total"], e["handle"])
        self.assertEqual(g["house_banked_handle"], e["house_handle"])
        self.assertEqual(g["house_win"], e["house_win"])
        self.assertEqual(g["banker_result"], e["banker_result"])
        self.assertEqual(g["win"], g["house_win"]["total"] + g["collections"])
        if e["house_handle"]:
            self.assertEqual(g["win_per_handle"], e["house_win"]["total"] / e["house_handle"])
            self.assertEqual(g["theoretical_win_per_handle"], g["theoretical_hold"])
            self.assertAlmostEqual(g["theoretical_win_per_handle"], g["theoretical_win"] / e["house_handle"], places=4)
            self.assertIsNotNone(g["win_interval"])
        else:
            self.assertIsNone(g["win_per_handle"])
            self.assertIsNone(g["theoretical_win_per_handle"])
            self.assertEqual(g["theoretical_win"], 0)
            self.assertIsNone(g["win_interval"])
            self.assertIsNone(g["hold_flag"])
        # deprecated names, kept for one release with the same values
        self.assertEqual(g["hold"], g["win_per_handle"])
        self.assertEqual(g["theoretical_hold"], g["theoretical_win_per_handle"])

    def test_house_banked_table(self):
        t1 = [r for r in self.rounds if r["table"] == "T1"]
        g = self.summary("group=table&table=T1")["groups"][0]
        self.assert_figures(g, t1)
        self.assertEqual(g["banker_result"]["total"], 0)
        self.assertEqual(g["collections"], 0)
        self.assertEqual(g["win"], g["house_win"]["total"])
        self.assertEqual(g["house_banked_handle"], g["handle"]["total"])

    def test_player_banked_table(self):
        p1 = [r for r in self.rounds if r["table"] == "P1"]
        g = self.summary("group=table&table=P1")["groups"][0]
        self.assert_figures(g, p1)
        # the house's revenue there is its collection fees alone
        self.assertEqual(g["house_win"]["total"], 0)
        self.assertGreater(g["collections"], 0)
        self.assertEqual(g["win"], g["collections"])
        # the banker's result, as the banker report shows it
        self.assertEqual(g["banker_result"]["total"], -sum(r["totals"]["players_net"] for r in p1))
        self.assertGreater(g["banker_result"]["total"], 100000)      # the big round: far from any interval
        self.assertIsNone(g["hold_flag"])
        bankers = self.ok("GET", "/api/v1/reports/bankers?table=P1&%s" % self.range, token=AUDITOR)
        total = bankers["tables"][0]["total"]
        self.assertEqual(g["banker_result"]["total"], total["banker_result"])
        self.assertEqual(g["collections"], total["seat_fees"] + total["banker_fees"])

    def test_mixed_gaming_day(self):
        js = self.summary("group=day")
        by_day = {}
        for r in self.rounds:
            by_day.setdefault(r["settled_at"][:10], []).append(r)     # the property's gaming day: UTC from 00:00
        self.assertEqual([g["key"] for g in js["groups"]], sorted(by_day))
        for g in js["groups"]:
            self.assert_figures(g, by_day[g["key"]])
        self.assert_figures(js["totals"], self.rounds)
        t = js["totals"]
        self.assertGreater(t["player_banked_rounds"], 0)
        self.assertLess(t["player_banked_rounds"], t["rounds"])
        self.assertLess(t["house_banked_handle"], t["handle"]["total"])
        self.assertEqual(t["win_per_handle"], t["house_win"]["total"] / t["house_banked_handle"])
        by_table = {g["key"]: g for g in self.summary("group=table")["groups"]}
        self.assertEqual(t["house_win"]["total"], by_table["T1"]["house_win"]["total"])
        self.assertEqual(t["banker_result"]["total"], by_table["P1"]["banker_result"]["total"])
        self.assertEqual(t["win"], by_table["T1"]["win"] + by_table["P1"]["win"])

    def test_csv_columns(self):
        js = self.summary("group=table")
        st, hdrs, raw = self.d.request("GET", "/api/v1/reports/summary?%s&group=table&format=csv" % self.range,
                                       token=AUDITOR)
        self.assertEqual(st, 200, raw[:300])
        rows = list(csv.reader(io.StringIO(raw.decode("utf-8"), newline="")))
        head = rows[0]
        for col in ("win_per_handle", "theoretical_win_per_handle", "house_banked_handle", "player_banked_rounds",
                    "banker_result_ante", "banker_result_play", "banker_result_pair_plus", "banker_result_six_card",
                    "banker_result_ante_bonus", "banker_result_total", "collections", "win",
                    "banker_result_total_amount", "collections_amount", "win_amount", "hold", "theoretical_hold"):
            self.assertIn(col, head)
        for row, g in zip(rows[1:], js["groups"] + [js["totals"]]):
            rec = dict(zip(head, row))
            for k in ("collections", "win", "house_banked_handle", "player_banked_rounds"):
                self.assertEqual(int(rec[k]), g[k], k)
            for w in WAGERS + ("total",):
                self.assertEqual(int(rec["banker_result_" + w]), g["banker_result"][w], w)
            self.assertEqual(rec["win_amount"], "%d.%02d" % divmod(g["win"], 100) if g["win"] >= 0
                             else "-%d.%02d" % divmod(-g["win"], 100))
            for k in ("win_per_handle", "hold"):
                if g[k] is None:
                    self.assertEqual(rec[k], "")
                else:
                    self.assertAlmostEqual(float(rec[k]), g[k], places=9)


if __name__ == "__main__":
    pbtest.main()
