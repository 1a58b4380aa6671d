"""
The knowledge statistic at its defaults (docs/protection.md): a player who sees the dealer's hand is
flagged within 120 decisions; an optimal player and one who always plays are not flagged over 300.

The real daemon with the default protection settings (z >= 4.0 and at least 50 decisions): at T1 the
test deals 120 whole rounds to one seat with a $10 Ante whose player sees the dealer's hand and plays
exactly when playing beats folding against it (a fixed seed); T2 and T3 are dealt by `pitboss
simulate` with optimal players and with players who always play (--strategy optimal, always), 300
rounds each, at the simulator's varied stakes and seats. The decisions report by player (a seat with
no player is its own group, "T1/1") and by table, and the exceptions report, are then read for the
gaming day.

The thresholds are statistical: an honest seat reaches z >= 4 with probability about 3 in 100,000, and
a seat that sees every dealer hand stays under it after 50 decisions with a probability far smaller
(docs/protection.md, "Power": its z is about 0.85 per decision's square root, with a spread of about
one), so the assertions fail only when the statistic or the report is wrong.
"""
import random
import subprocess
import sys
import unittest

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
import pbtest  # noqa: E402
from test_decisions import DECK, net  # noqa: E402

Z_FLAG, MIN_DECISIONS = 4.0, 50    # the defaults (docs/api.md, "protection")
RUNS = (("T2", "optimal", 300), ("T3", "always", 300))
PEEKS = 120


class ProtectionPower(pbtest.DaemonTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        for table, strategy, rounds in RUNS:
            r = subprocess.run([pbtest.PITBOSS, "simulate", "--url", "http://%s:%d" % (cls.d.host, cls.d.port),
                                "--token", pbtest.DEALER, "--tables", table, "--rounds", str(rounds), "--rate", "0",
                                "--misdeal-rate", "0", "--strategy", strategy, "--quiet"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
            assert r.returncode == 0, r.stderr.decode()
        rng = random.Random(120)
        for _ in range(PEEKS):
            deck = DECK[:]
            rng.shuffle(deck)
            hand, dealer = deck[:3], deck[3:6]
            play = net(hand, dealer, 1000, True) > -1000     # he saw the dealer's hand
            st, js = cls.d.call("POST", "/api/v1/tables/T1/rounds", {
                "bets": {"1": {"ante": 1000}}, "hands": {"1": hand}, "dealer": dealer,
                "decisions": {"1": "play" if play else "fold"}}, token=pbtest.DEALER)
            assert st == 201, js
        st, js = cls.d.call("GET", "/api/v1/tables", token=pbtest.AUDITOR)
        assert st == 200, js
        cls.day = js["property"]["gaming_day"]

    def report(self, group):
        st, js = self.call("GET", "/api/v1/reports/decisions?gaming_day=%s&group=%s" % (self.day, group),
                           token=pbtest.AUDITOR)
        self.assertEqual(st, 200, js)
        self.assertEqual(js["z_flag"], Z_FLAG)
        return js["groups"]

    def seats(self, table):
        """The seat groups of table (no player is seated by the simulator: each seat is its own group)."""
        return [g for g in self.report("player") if str(g["key"]).startswith(table + "/")]

    def test_hole_card_seats_flagged_within_120_decisions(self):
        seats = self.seats("T1")
        self.assertEqual([(g["key"], g["decisions"]) for g in seats], [("T1/1", PEEKS)])
        self.assertGreaterEqual(seats[0]["z"], Z_FLAG, seats[0])
        self.assertTrue(seats[0]["flagged"], seats[0])
        table = [g for g in self.report("table") if g["key"] == "T1"]
        self.assertTrue(table and table[0]["flagged"], table)

    def test_honest_seats_not_flagged_over_300_rounds(self):
        for table in ("T2", "T3"):
            seats = self.seats(table)
            self.assertGreaterEqual(sum(g["decisions"] for g in seats), 300, seats)
            for g in seats:
                self.assertLess(g["z"], Z_FLAG, g)
                self.assertFalse(g["flagged"], g)
            row = [g for g in self.report("table") if g["key"] == table]
            self.assertTrue(row and not row[0]["flagged"], row)
        # the optimal player makes no mistake; the one who always plays makes some (he plays his worst hands)
        self.assertEqual(sum(g["mistakes"] for g in self.seats("T2")), 0)
        self.assertGreater(sum(g["mistakes"] for g in self.seats("T3")), 0)

    def test_flagged_groups_are_exceptions(self):
        st, js = self.call("GET", "/api/v1/reports/exceptions?from=%s&to=%s" % (self.day, self.day),
                           token=pbtest.AUDITOR)
        self.assertEqual(st, 200, js)
        knowledge = [x for x in js["exceptions"] if x["kind"] == "decision_knowledge"]
        self.assertTrue(knowledge)
        self.assertEqual({x["table"] for x in knowledge}, {"T1"}, knowledge)
        for x in knowledge:
            self.assertTrue(x["evidence"], x)


if __name__ == "__main__":
    unittest.main()
