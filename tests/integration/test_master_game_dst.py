"""
The master game's hand win over a gaming day with a change of clock (docs/accounting.md "The
table's session", docs/performance.md "Reports at 10^7 in any zone"): the property in Los
Angeles, the gaming day from 06:00, the day chosen as the next one after today across which
the clocks change (23 or 25 hours).  The master game reads each window's hand win from the
hourly rows strictly inside it plus the rounds of its two partial hours; here it must equal
the same figure summed over every round of the window, computed by the test from each round
as GET /rounds/{id} shows it: at a house-banked table (minus the players' net, a mispay
corrected) and at a player-banked one (the collection fees), with an opener and a closer at
seconds that are not on the hour, rounds dealt before the opener (not in the window) and
rounds every 50 minutes across the change of clock.
"""
import datetime
import random
import sys
import zoneinfo

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
import pbtest  # noqa: E402
from pbtest import PITBOSS_TOKEN  # noqa: E402
from test_master_game_day import deal_round  # noqa: E402

PEOPLE = pbtest.staff("FL1", "PB1", "DL1")
ZONE = zoneinfo.ZoneInfo("America/Los_Angeles")
PROPERTY = {"id": "B1", "name": "Bayfront", "time_zone": "America/Los_Angeles", "gaming_day_start": "06:00",
            "shifts": [{"name": "day", "start": "06:00"}, {"name": "swing", "start": "14:00"},
                       {"name": "grave", "start": "22:00"}]}
SESSIONS = {"idle_seconds": 86400, "absolute_seconds": 604800}
MINUTE_MS = 60 * 1000
witness = pbtest.staff_witness


def local_ms(day, hh, mm=0):
    """Unix ms of hh:mm in Los Angeles on the date day."""
    return int(datetime.datetime(day.year, day.month, day.day, hh, mm, tzinfo=ZONE).timestamp() * 1000)


def dst_gaming_day():
    """The first gaming day, two or more days from today, across which Los Angeles changes its clocks."""
    day = datetime.datetime.now(datetime.timezone.utc).date() + datetime.timedelta(days=2)
    while True:
        nxt = day + datetime.timedelta(days=1)
        if local_ms(nxt, 6) - local_ms(day, 6) != 24 * 3600 * 1000:
            return day
        day = nxt


DAY = dst_gaming_day()
START, END = local_ms(DAY, 6), local_ms(DAY + datetime.timedelta(days=1), 6)


class MasterGameDst(pbtest.StaffTestCase):
    daemon_kwargs = {"clock": True, "overrides": {"property": PROPERTY, "sessions": SESSIONS,
                                                  "accounting": {"signatures": "basic"}}}
    PEOPLE = PEOPLE

    @classmethod
    def after_start(cls):
        cls.d.advance_clock_to(START + 5 * MINUTE_MS)

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.rng = random.Random(33)
        cls.banker = 0

    def inv(self, table, kind, chips):
        return self.ok("POST", "/api/v1/tables/%s/inventory" % table, {"kind": kind, "chips": chips,
                                                                      "witness": witness("DL1")},
                       status=201, token=self.tok["FL1"])

    def deal(self, table):
        """One round at table; its house win as GET /rounds/{id} shows it (minus the players' net, or on the
        player-banked P1 the collection fees), and the round."""
        return deal_round(self, table, table == "P1")

    def test_hand_win_across_the_change_of_clock(self):
        self.assertIn(END - START, (23 * 3600 * 1000, 25 * 3600 * 1000))
        hand = {"T1": 0, "P1": 0}
        for table in hand:                       # before the opener: not in the window
            self.deal(table)
        self.d.advance_clock_to(START + 20 * MINUTE_MS + 13500)
        self.inv("T1", "opener", {"2500": 40})
        self.inv("P1", "opener", {"500": 40})
        at, over, rounds = START + 25 * MINUTE_MS, None, 0
        while at < END - 30 * MINUTE_MS:
            self.d.advance_clock_to(at)
            for table in ("T1", "T1", "P1"):
                win, got = self.deal(table)
                hand[table] += win
                rounds += 1
                wins = [p for p in got["payouts"] if p["net"] > 0]
                if over is None and table == "T1" and wins and at > START + 12 * 3600 * 1000:
                    over = 1500
                    self.ok("POST", "/api/v1/rounds/%d/corrections" % got["id"],
                            {"seat": wins[0]["seat"], "wager": wins[0]["wager"], "paid": wins[0]["net"] + over,
                             "reason": "paid too much", "witness": witness("PB1")}, status=201, token=self.tok["FL1"])
            at += 50 * MINUTE_MS + self.rng.randrange(0, 60000)
        self.assertIsNotNone(over, "a mispay was corrected")
        self.d.advance_clock_to(END - 20 * MINUTE_MS - 7000)
        self.inv("T1", "closer", {"2500": 40})
        self.inv("P1", "closer", {"500": 40})
        report = self.ok("GET", "/api/v1/reports/master-game?gaming_day=%s" % DAY.isoformat(), token=PITBOSS_TOKEN)
        rows = {r["table"]: r for r in report["tables"]}
        for table in hand:
            self.assertTrue(rows[table]["complete"], rows[table])
            self.assertEqual(rows[table]["hand_win"], hand[table], (table, DAY.isoformat(), rows[table]))
        self.assertEqual(rows["T1"]["explained"]["mispays"], -over)
        self.assertEqual(rows["P1"]["explained"]["mispays"], 0)
        self.assertGreater(rounds, 60)


if __name__ == "__main__":
    pbtest.main()
