"""
The statistics report (GET /api/v1/reports/statistics, docs/reports.md
"Statistics") and the summary's drop and win_per_drop against the real
daemon: documents and rounds posted on the current gaming day, every figure
checked against what this test computes from the documents it posted and the
rounds' payout lines (GET /rounds/{id}); the theoretical figures against the
summary's; the baseline flag raised and not raised; the CSV's columns; the
refusals.
"""
import calendar
import csv
import datetime
import io
import random
import sys
import time
import unittest

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
import pbtest  # noqa: E402
from pbtest import DEALER, PITBOSS_TOKEN, AUDITOR  # noqa: E402
from test_accounting import PEOPLE, witness, chips_of, count_sheet, count_team, setup_people, sign_in  # noqa: E402
from test_reports import random_round  # noqa: E402

BASELINE = {"standard": 0.2, "florida": 0.3}
TOLERANCE = 0.05


def today():
    return time.strftime("%Y-%m-%d", time.gmtime())


class Statistics(pbtest.DaemonTestCase):
    daemon_kwargs = {"overrides": {"accounting": {"win_per_drop_baseline": BASELINE,
                                                  "win_per_drop_tolerance": TOLERANCE}}}

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.d.stop()
        setup_people(cls.d)
        cls.d.start()
        cls.tok = {pid: sign_in(cls.d, pid) for pid, _, _ in PEOPLE}
        cls.rng = random.Random(1818)
        cls.hands = {}          # table -> (hand win, handle) of the rounds dealt

    def post(self, path, body, who):
        return self.ok("POST", "/api/v1" + path, body, status=201, token=self.tok[who])

    def inventory(self, table, kind, total):
        self.post("/tables/%s/inventory" % table, {"kind": kind, "chips": chips_of(total), "witness": witness("DL1")}, "FL1")

    def drop(self, table, cash, **extra):
        body = dict({"box": "D-%s" % table, "count": count_sheet(cash), "witnesses": count_team(), "gaming_day": today()},
                    **extra)
        self.post("/tables/%s/drop" % table, body, "CT1")

    def deal(self, table, n, low=500):
        """n rounds at table: the house's win and the handle, from each round's payout lines."""
        win = handle = 0
        for _ in range(n):
            r = self.whole(table, random_round(self.rng, 6, (low, 5000), (low, 2500), None, False))
            got = self.ok("GET", "/api/v1/rounds/%d" % r["id"], token=AUDITOR)["round"]
            win -= sum(p["net"] for p in got["payouts"])
            handle += sum(p["stake"] for p in got["payouts"] if p["wager"] != "ante_bonus")   # the bonus is no wager
        return win, handle

    def stats(self, query="", token=PITBOSS_TOKEN):
        return self.ok("GET", "/api/v1/reports/statistics" + query, token=token)

    def summary_row(self, table):
        js = self.ok("GET", "/api/v1/reports/summary?group=table&table=%s" % table, token=PITBOSS_TOKEN)
        return js["groups"][0]

    # ---- the tests, in order ----

    def test_1_refusals(self):
        for q in ("?month=2026-13", "?month=2026", "?month=abcd-ef", "?month=2026-1"):
            self.refused(400, "invalid_query", "GET", "/api/v1/reports/statistics" + q, token=PITBOSS_TOKEN)
        err = self.refused(400, "invalid_query", "GET", "/api/v1/reports/statistics?month=2999-01", token=PITBOSS_TOKEN)
        self.assertIn("has not begun", err["message"])
        self.refused(400, "unknown_parameter", "GET", "/api/v1/reports/statistics?gaming_day=%s" % today(),
                     token=PITBOSS_TOKEN)
        self.refused(403, "forbidden", "GET", "/api/v1/reports/statistics", token=DEALER)
        self.refused(404, "table_not_found", "GET", "/api/v1/reports/statistics?table=NOPE", token=PITBOSS_TOKEN)
        js = self.stats()
        self.assertEqual(js["month"], today()[:7])
        self.assertEqual((js["from_day"], js["to_day"], js["year_from_day"]),
                         (today()[:8] + "01", today(), today()[:4] + "-01-01"))
        self.assertEqual(js["rows"], [])
        self.assertEqual(len(js["total"]["days"]), int(today()[8:]))

    def test_2_a_day(self):
        sold = 50000
        # T1 (standard): win 10000 of a drop of 50000 = 0.20, at its baseline
        self.inventory("T1", "opener", 200000)
        self.hands["T1"] = self.deal("T1", 10)
        self.inventory("T1", "closer", 200000 - sold + 10000)
        self.drop("T1", sold)
        # T2 (standard): 25000 of 50000 = 0.50, beyond the baseline
        self.inventory("T2", "opener", 200000)
        self.hands["T2"] = self.deal("T2", 6, low=1000)
        self.inventory("T2", "closer", 200000 - sold + 25000)
        self.drop("T2", sold)
        # T3 (tricard, no baseline): a drop only, win = drop
        self.hands["T3"] = self.deal("T3", 4)
        self.drop("T3", 20000)
        # P1 (player-banked): the counted collections are its drop
        self.drop("P1", 0, collections=1200)
        counted = {"T1": (sold, 10000), "T2": (sold, 25000), "T3": (20000, 20000), "P1": (1200, 1200)}
        games = {"T1": "standard", "T2": "standard", "T3": "tricard", "P1": "standard"}

        js = self.stats("?month=%s" % today()[:7])
        rows = {r["table"]: r for r in js["rows"]}
        self.assertEqual(sorted(rows), ["P1", "T1", "T2", "T3"])
        day = int(today()[8:])
        for t, (drop, win) in counted.items():
            r = rows[t]
            self.assertEqual((r["game"], r["player_banked"]), (games[t], t == "P1"))
            self.assertEqual(r["baseline"], BASELINE.get(games[t]))
            self.assertEqual(len(r["days"]), day)
            hand_win, handle = self.hands.get(t, (0, 0))
            for period in (r["days"][-1], r["month_to_date"], r["year_to_date"]):
                self.assertEqual((period["drop"], period["win"], period["drops"]), (drop, win, 1), t)
                self.assertAlmostEqual(period["win_per_drop"], win / drop)
                self.assertEqual((period["hand_win"], period["handle"]), (hand_win, handle), t)
                if handle:
                    s = self.summary_row(t)
                    self.assertEqual(period["theoretical_win"], s["theoretical_win"])
                    self.assertAlmostEqual(period["theoretical_win_per_handle"], s["theoretical_win"] / handle, places=2)
                    self.assertAlmostEqual(period["win_per_handle"], hand_win / handle)
                    self.assertEqual(period["flags"]["interval"], s["hold_flag"])
                    self.assertEqual(period["win_interval"], s["win_interval"])
            self.assertEqual(r["days"][-1]["gaming_day"], today())
            for other in r["days"][:-1]:
                self.assertEqual((other["drop"], other["win"], other["handle"], other["win_per_drop"]), (0, 0, 0, None))
        self.assertIsNone(rows["T1"]["days"][-1]["flags"]["baseline"])
        self.assertEqual(rows["T2"]["days"][-1]["flags"]["baseline"], "high")
        self.assertEqual(rows["T2"]["year_to_date"]["flags"]["baseline"], "high")
        self.assertIsNone(rows["T3"]["days"][-1]["flags"]["baseline"], "no baseline for tricard")
        self.assertIsNone(rows["P1"]["days"][-1]["flags"]["interval"])
        total = js["total"]
        for period in (total["days"][-1], total["month_to_date"], total["year_to_date"]):
            self.assertEqual(period["drop"], sum(d for d, _ in counted.values()))
            self.assertEqual(period["win"], sum(w for _, w in counted.values()))
            self.assertEqual(period["hand_win"], sum(h for h, _ in self.hands.values()))
            self.assertEqual(period["handle"], sum(h for _, h in self.hands.values()))
            self.assertIsNone(period["flags"]["baseline"])
        # one table
        one = self.stats("?table=T2")
        self.assertEqual([r["table"] for r in one["rows"]], ["T2"])
        self.assertEqual(one["total"]["month_to_date"]["win"], 25000)

    def test_3_csv(self):
        st, hdrs, raw = self.d.request("GET", "/api/v1/reports/statistics?table=T1&format=csv", token=PITBOSS_TOKEN)
        self.assertEqual(st, 200)
        lines = [ln for ln in raw.decode().split("\r\n") if ln]
        self.assertEqual(lines[0], "table,game,period,gaming_day,drop,win,win_per_drop,hand_win,handle,theoretical_win,"
                                   "theoretical_win_per_handle,win_per_handle,interval_flag,baseline_flag,"
                                   "drops,incomplete,shift,variance,windows", "the columns added after the others")
        day = int(today()[8:])
        self.assertEqual(len(lines), 1 + 2 * (day + 3),
                         "a line per day, the month and the year to date, the month before; then the total's")
        self.assertTrue(lines[day].startswith("T1,standard,day,%s,50000,10000,0.2," % today()), lines[day])
        self.assertTrue(lines[day].endswith(",1,0,,,"), "drops 1, incomplete 0, no shift: %s" % lines[day])
        self.assertTrue(lines[day + 1].startswith("T1,standard,month_to_date,%s,50000,10000," % today()))
        self.assertTrue(lines[-2].startswith("total,,year_to_date,%s,50000,10000," % today()), lines[-2])
        prior_last = (datetime.date.fromisoformat(today()).replace(day=1) - datetime.timedelta(days=1)).isoformat()
        self.assertTrue(lines[-1].startswith("total,,prior_month,%s,0,0,," % prior_last), lines[-1])

    def test_4_summary_drop(self):
        by_day = self.ok("GET", "/api/v1/reports/summary?group=day", token=PITBOSS_TOKEN)
        g = by_day["groups"][0]
        self.assertEqual(g["key"], today())
        self.assertEqual(g["drop"], 50000 + 50000 + 20000 + 1200)
        self.assertAlmostEqual(g["win_per_drop"], g["win"] / g["drop"])
        self.assertEqual(by_day["totals"]["drop"], g["drop"])
        by_table = self.ok("GET", "/api/v1/reports/summary?group=table", token=PITBOSS_TOKEN)
        rows = {r["key"]: r for r in by_table["groups"]}
        self.assertEqual(rows["T1"]["drop"], 50000)
        self.assertAlmostEqual(rows["T1"]["win_per_drop"], self.hands["T1"][0] / 50000)
        self.assertEqual(rows["T3"]["drop"], 20000)
        st, hdrs, raw = self.d.request("GET", "/api/v1/reports/summary?group=table&format=csv", token=PITBOSS_TOKEN)
        head, *lines = [ln.split(",") for ln in raw.decode().split("\r\n") if ln]
        self.assertEqual(head[-2:], ["drop", "win_per_drop"])
        t1 = [ln for ln in lines if ln[1] == "T1"][0]
        self.assertEqual(int(t1[-2]), 50000)
        by_hour = self.ok("GET", "/api/v1/reports/summary?group=hour", token=PITBOSS_TOKEN)
        self.assertIsNone(by_hour["groups"][0]["drop"])
        self.assertIsNone(by_hour["groups"][0]["win_per_drop"])
        # a range that is not whole gaming days: no day's drop is known
        now = time.strftime("%Y-%m-%dT%H:00:00Z", time.gmtime())
        part = self.ok("GET", "/api/v1/reports/summary?group=table&from=%sT00:00:00Z&to=%s" % (today(), now),
                       token=PITBOSS_TOKEN)
        for r in part["groups"]:
            self.assertIsNone(r["drop"])


# The breakdown by shift: a property whose gaming day starts at 06:00, with three shifts (UTC).
SHIFT_PROPERTY = {"id": "B1", "name": "Bayfront", "time_zone": "UTC", "gaming_day_start": "06:00",
                  "shifts": [{"name": "day", "start": "06:00"}, {"name": "swing", "start": "14:00"},
                             {"name": "grave", "start": "22:00"}]}
SHIFTS = ("day", "swing", "grave")


def first_of_next_month(d):
    return (d.replace(day=1) + datetime.timedelta(days=32)).replace(day=1)


# Two gaming days ahead of the real one (the test clock only moves forward): the 10th of next month, the
# month before the one reported, and the 3rd of the month after it, the last day of the month reported.
PRIOR_DAY = first_of_next_month(datetime.datetime.now(datetime.timezone.utc).date()) + datetime.timedelta(days=9)
REPORT_DAY = first_of_next_month(PRIOR_DAY) + datetime.timedelta(days=2)
PRIOR_LAST = REPORT_DAY.replace(day=1) - datetime.timedelta(days=1)


def at(day, hh, mm):
    """Unix ms of day hh:mm UTC (hh from 06: within the gaming day day)."""
    return calendar.timegm(datetime.datetime(day.year, day.month, day.day, hh, mm).utctimetuple()) * 1000


class StatisticsByShift(pbtest.DaemonTestCase):
    """
    The month before and the shifts (docs/reports.md "Statistics"): T1 open
    across a shift change on a day of each month, with a fill in the day
    shift, a credit in the swing shift and a drop counted for each; T2 opened
    and never closed in the month reported.  The JSON's and the CSV's figures
    against what this test computes from the documents and the rounds'
    payout lines; the CSV's new columns, after the old ones.
    """
    daemon_kwargs = {"clock": True, "overrides": {
        "property": SHIFT_PROPERTY, "sessions": {"idle_seconds": 86400, "absolute_seconds": 604800},
        "accounting": {"signatures": "basic"}}}

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.d.stop()
        setup_people(cls.d)
        cls.d.start()
        cls.rng = random.Random(2929)
        cls.tok = {}
        cls.expected = {}           # period -> shift -> (drop, win, hand win)

    def sign_all(self):
        """Every person signed in again (after a move of the clock beyond the sessions' time)."""
        for pid, _, _ in PEOPLE:
            self.tok[pid] = sign_in(self.d, pid)

    def post(self, path, body, who):
        return self.ok("POST", "/api/v1" + path, body, status=201, token=self.tok[who])

    def inventory(self, table, kind, total):
        return self.post("/tables/%s/inventory" % table, {"kind": kind, "chips": chips_of(total),
                                                          "witness": witness("DL1")}, "FL1")

    def deal(self, table, n):
        """n rounds at table: the house's win, from each round's payout lines."""
        win = 0
        for _ in range(n):
            r = self.whole(table, random_round(self.rng, 6, (500, 5000), (500, 2500), None, False))
            got = self.ok("GET", "/api/v1/rounds/%d" % r["id"], token=AUDITOR)["round"]
            win -= sum(p["net"] for p in got["payouts"])
        return win

    def t1_day(self, day, opener, fill, change, credit, closer, drops):
        """
        T1's gaming day: the opener at 07:00, rounds, a fill at 10:00, the
        shift change at 14:05 (it opens the swing shift), rounds, a credit
        at 16:00, the closer at 20:00, then a drop for each of the two
        shifts.  Returns {shift: (drop, win, hand win)}: each shift's win is
        its drop + its closing count - its opening count + its credits - its
        fills.
        """
        self.d.advance_clock_to(at(day, 7, 0))
        self.sign_all()
        tag = day.isoformat().replace("-", "")
        self.assertEqual(self.inventory("T1", "opener", opener)["shift"], "day")
        hand_day = self.deal("T1", 4)
        self.d.advance_clock_to(at(day, 10, 0))
        self.post("/tables/T1/fills", {"serial": "F-%s" % tag, "chips": chips_of(fill), "witness": witness("PB1")}, "CG1")
        self.d.advance_clock_to(at(day, 14, 5))
        self.assertEqual(self.inventory("T1", "shift_change", change)["shift"], "swing")
        self.d.advance_clock_to(at(day, 14, 10))
        hand_swing = self.deal("T1", 3)
        self.d.advance_clock_to(at(day, 16, 0))
        self.post("/tables/T1/credits", {"serial": "C-%s" % tag, "chips": chips_of(credit), "witness": witness("PB1")},
                  "CG1")
        self.d.advance_clock_to(at(day, 20, 0))
        self.inventory("T1", "closer", closer)
        self.d.advance_clock_to(at(day, 20, 30))
        for shift, cash in zip(("day", "swing"), drops):
            self.post("/tables/T1/drop", {"box": "D-T1-%s" % shift, "count": count_sheet(cash), "witnesses": count_team(),
                                          "gaming_day": day.isoformat(), "shift": shift}, "CT1")
        return {"day": (drops[0], drops[0] + change - opener - fill, hand_day),
                "swing": (drops[1], drops[1] + closer - change + credit, hand_swing)}

    def report(self, fmt=""):
        q = "?month=%s%s" % (REPORT_DAY.isoformat()[:7], fmt)
        if not fmt:
            return self.ok("GET", "/api/v1/reports/statistics" + q, token=PITBOSS_TOKEN)
        st, hdrs, raw = self.d.request("GET", "/api/v1/reports/statistics" + q, token=PITBOSS_TOKEN)
        self.assertEqual(st, 200)
        return list(csv.DictReader(io.StringIO(raw.decode(), newline="")))

    # ---- the tests, in order (the clock moves forward only) ----

    def test_1_two_months(self):
        self.expected["prior_month"] = self.t1_day(PRIOR_DAY, 200000, 40000, 215000, 30000, 190000, (60000, 45000))
        # the month reported: T1 opens at the count it closed at; T2 opens and never closes (incomplete)
        self.expected["month_to_date"] = self.t1_day(REPORT_DAY, 190000, 25000, 160000, 50000, 230000,
                                                     (38000, 52000))
        self.d.advance_clock_to(at(REPORT_DAY, 21, 0))
        self.inventory("T2", "opener", 100000)

    def test_2_json(self):
        js = self.report()
        self.assertEqual((js["to_day"], js["prior_month"]["to_day"]), (REPORT_DAY.isoformat(), PRIOR_LAST.isoformat()))
        rows = {r["table"]: r for r in js["rows"]}
        self.assertEqual(sorted(rows), ["T1", "T2"])
        t1 = rows["T1"]
        for period, by_shift in self.expected.items():
            whole = t1[period]
            self.assertEqual((whole["drop"], whole["win"], whole["hand_win"], whole["drops"], whole["incomplete"]),
                             (sum(d for d, _, _ in by_shift.values()), sum(w for _, w, _ in by_shift.values()),
                              sum(h for _, _, h in by_shift.values()), 2, 0), period)
            shifts = {s["shift"]: s[period] for s in t1["shifts"]}
            self.assertEqual(list(shifts), list(SHIFTS))
            for name in SHIFTS:
                drop, win, hand = by_shift.get(name, (0, 0, 0))
                got = shifts[name]
                self.assertEqual((got["drop"], got["win"], got["hand_win"], got["variance"], got["windows"],
                                  got["incomplete"]), (drop, win, hand, win - hand, 1 if drop else 0, 0), (period, name))
                if drop:
                    self.assertAlmostEqual(got["win_per_drop"], win / drop)
                else:
                    self.assertIsNone(got["win_per_drop"])
        # T2: its day left out of the count, and its day shift's window
        t2 = rows["T2"]
        self.assertEqual((t2["month_to_date"]["incomplete"], t2["month_to_date"]["win"], t2["prior_month"]["incomplete"]),
                         (1, 0, 0))
        t2_shifts = {s["shift"]: s["month_to_date"] for s in t2["shifts"]}
        self.assertEqual((t2_shifts["swing"]["incomplete"], t2_shifts["swing"]["windows"]), (1, 0),
                         "the opener at 21:00 opens a window of the swing shift")
        self.assertEqual(t2_shifts["day"]["incomplete"] + t2_shifts["grave"]["incomplete"], 0)

    def test_3_csv(self):
        js = self.report()
        lines = self.report("&format=csv")
        self.assertEqual(list(lines[0]), ["table", "game", "period", "gaming_day", "drop", "win", "win_per_drop",
                                          "hand_win", "handle", "theoretical_win", "theoretical_win_per_handle",
                                          "win_per_handle", "interval_flag", "baseline_flag",
                                          "drops", "incomplete", "shift", "variance", "windows"])
        by = {}
        for ln in lines:
            by.setdefault((ln["table"], ln["period"], ln["shift"]), []).append(ln)
        # per row: its days, the month and year to date, the month before, each shift's month to date and month before
        days = REPORT_DAY.day
        self.assertEqual(len(lines), 3 * (days + 3 + 2 * len(SHIFTS)), "T1, T2 and the total")
        self.assertEqual([ln["period"] for ln in lines if ln["table"] == "T1"],
                         ["day"] * days + ["month_to_date", "year_to_date", "prior_month"]
                         + ["month_to_date", "prior_month"] * len(SHIFTS))
        self.assertEqual([ln["shift"] for ln in lines if ln["table"] == "T1"][days:],
                         ["", "", ""] + [s for s in SHIFTS for _ in (0, 1)])
        last = {"month_to_date": REPORT_DAY.isoformat(), "prior_month": PRIOR_LAST.isoformat()}
        for period, by_shift in self.expected.items():
            (whole,) = by[("T1", period, "")]
            self.assertEqual((whole["gaming_day"], whole["drop"], whole["win"], whole["drops"], whole["incomplete"],
                              whole["variance"], whole["windows"]),
                             (last[period], str(sum(d for d, _, _ in by_shift.values())),
                              str(sum(w for _, w, _ in by_shift.values())), "2", "0", "", ""), period)
            for name in SHIFTS:
                drop, win, hand = by_shift.get(name, (0, 0, 0))
                (ln,) = by[("T1", period, name)]
                self.assertEqual((ln["game"], ln["gaming_day"], ln["drop"], ln["win"], ln["hand_win"], ln["variance"],
                                  ln["windows"], ln["incomplete"], ln["drops"], ln["handle"]),
                                 ("standard", last[period], str(drop), str(win), str(hand), str(win - hand),
                                  "1" if drop else "0", "0", "", ""), (period, name))
                if drop:
                    self.assertAlmostEqual(float(ln["win_per_drop"]), win / drop)
                else:
                    self.assertEqual(ln["win_per_drop"], "")
        (t2,) = by[("T2", "month_to_date", "")]
        self.assertEqual((t2["incomplete"], t2["win"]), ("1", "0"))
        (t2_swing,) = by[("T2", "month_to_date", "swing")]
        self.assertEqual((t2_swing["incomplete"], t2_swing["windows"]), ("1", "0"))
        # the total's shift lines: the sums of the tables'
        for period in ("month_to_date", "prior_month"):
            for name in SHIFTS:
                (tot,) = by[("total", period, name)]
                for col in ("drop", "win", "hand_win", "variance", "windows", "incomplete"):
                    self.assertEqual(int(tot[col]), sum(int(by[(t, period, name)][0][col]) for t in ("T1", "T2")),
                                     (period, name, col))
        # every cell of a shift's line is the JSON's
        for r in js["rows"] + [js["total"]]:
            for s in r["shifts"]:
                for period in ("month_to_date", "prior_month"):
                    (ln,) = by[(r.get("table", "total"), period, s["shift"])]
                    for k in ("drop", "win", "hand_win", "variance", "windows", "incomplete"):
                        self.assertEqual(ln[k], str(s[period][k]), (r.get("table"), period, s["shift"], k))


if __name__ == "__main__":
    pbtest.main()
