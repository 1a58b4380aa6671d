"""
The banker report of player-banked tables (GET /api/v1/reports/bankers,
docs/reports.md): per table and per banker seat, the banker's result, how
often the bank ran out, stakes returned for lack of coverage, unpaid shorts
and the house's collections, checked against the rounds as GET returns them;
the CSV parsed back; roles and bad tables.
"""
import csv
import io
import random
import sys
import unittest

sys.dont_write_bytecode = True
import pbtest  # noqa: E402
from pbtest import DEALER, PITBOSS_TOKEN, AUDITOR  # noqa: E402

DECK = [r + s for r in "23456789TJQKA" for s in "cdhs"]


class BankerReport(pbtest.DaemonTestCase):

    def deal_rounds(self, rng, count):
        """Whole rounds on P1 with the rotation honoured; small banks so that some run out."""
        rounds, banker, run = [], 1, 0
        for _ in range(count):
            if run == 2 or rng.random() < 0.3:
                banker = banker % 8 + 1
                run = 0
            run += 1
            deck = DECK[:]
            rng.shuffle(deck)
            seats = [s for s in range(1, 9) if s != banker and rng.random() < 0.6] or [banker % 8 + 1]
            bets, hands, decisions = {}, {}, {}
            for s in seats:
                bets[str(s)] = {"ante": rng.choice([500, 2500, 5000, 20000])}
                if rng.random() < 0.4:
                    bets[str(s)]["pair_plus"] = 500
                hands[str(s)] = [deck.pop() for _ in range(3)]
                decisions[str(s)] = "play" if rng.random() < 0.75 else "fold"
            body = {"banker": {"seat": banker, "bank": rng.choice([10000, 15000, 50000])},
                    "bets": bets, "hands": hands, "dealer": [deck.pop() for _ in range(3)], "decisions": decisions}
            rounds.append(self.whole("P1", body))
        return rounds

    def test_sums_equal_the_rounds(self):
        rounds = self.deal_rounds(random.Random(2026), 60)
        rep = self.ok("GET", "/api/v1/reports/bankers?table=P1", token=PITBOSS_TOKEN)
        self.assertEqual(len(rep["tables"]), 1)
        t = rep["tables"][0]
        want = {}
        for r in rounds:
            seat = r["banker"]["seat"]
            w = want.setdefault(seat, {"rounds": 0, "banker_result": 0, "banks_exhausted": 0, "returned_for_coverage": 0,
                                       "unpaid_short": 0, "seat_fees": 0, "banker_fees": 0})
            w["rounds"] += 1
            w["banker_result"] += r["banker"]["bank_end"] - r["banker"]["bank"]
            self.assertEqual(r["banker"]["bank_end"] - r["banker"]["bank"], -r["totals"]["players_net"])
            w["banks_exhausted"] += any(p["bank_after"] == 0 for p in r["payouts"])
            w["returned_for_coverage"] += sum(p["stake"] for p in r["payouts"]
                                              if p["result"] == "returned" and p["wager"] != "ante_bonus")
            w["unpaid_short"] += sum(p.get("short", 0) for p in r["payouts"])
            w["seat_fees"] += sum(r["collections"]["seats"].values())
            w["banker_fees"] += r["collections"]["banker"]
        got = {b["seat"]: {k: v for k, v in b.items() if k != "seat"} for b in t["bankers"]}
        self.assertEqual(got, want)
        total = {k: sum(w[k] for w in want.values()) for k in next(iter(want.values()))}
        self.assertEqual(t["total"], total)
        self.assertGreater(total["banks_exhausted"], 0, "the seed deals some banks that run out")
        self.assertGreater(total["returned_for_coverage"], 0)
        self.assertAlmostEqual(t["exhausted_rate"], total["banks_exhausted"] / total["rounds"])

        # CSV: one row per banker and a total row, the same integers
        st, headers, text = self.d.request("GET", "/api/v1/reports/bankers?table=P1&format=csv", token=AUDITOR)
        self.assertEqual(st, 200)
        self.assertTrue(headers["content-type"].startswith("text/csv"))
        self.assertIn("attachment", headers["content-disposition"])
        rows = list(csv.DictReader(io.StringIO(text.decode())))
        by_seat = {r["banker_seat"]: r for r in rows}
        self.assertEqual(set(by_seat), {str(s) for s in want} | {"all"})
        for seat, w in want.items():
            for k, v in w.items():
                self.assertEqual(int(by_seat[str(seat)][k]), v, (seat, k))
        self.assertEqual(int(by_seat["all"]["banker_result"]), total["banker_result"])

    def test_roles_and_tables(self):
        self.refused(403, "forbidden", "GET", "/api/v1/reports/bankers", token=DEALER)
        self.refused(404, "not_player_banked", "GET", "/api/v1/reports/bankers?table=T1", token=PITBOSS_TOKEN)
        self.refused(404, "table_not_found", "GET", "/api/v1/reports/bankers?table=ZZ", token=PITBOSS_TOKEN)
        self.refused(400, "invalid_query", "GET", "/api/v1/reports/bankers?from=yesterday", token=PITBOSS_TOKEN)
        # every player-banked table when none is named; house tables are left out
        rep = self.ok("GET", "/api/v1/reports/bankers", token=AUDITOR)
        self.assertEqual([t["table"] for t in rep["tables"]], ["P1"])


if __name__ == "__main__":
    pbtest.main()
