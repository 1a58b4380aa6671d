"""
The table's session and the master game's window against the real daemon
(docs/accounting.md "The table's session", "Shift changes", "Variances
explained", "Variances investigated"): an opener opens the table and a
closer closes it (rounds refused with 409 table_closed until the next
opener, GET /tables showing it closed); the master game's hand win is the
win of the rounds settled between them, not of the rounds dealt before the
opener; a row without both is incomplete (no win, not flagged), a table with
no document is not flagged; documents out of order refused (or, a first
closer, recorded and flagged); a shift change makes two shift rows compute;
an opener's shortage is kept out of the count win and the variance; what
explains a variance (a corrected mispay, a voided fill); the investigation
of a variance with its refusals; the statistics' breakdown by shift.  The
slips are signed by accounting.signatures "basic" (the window's rules are
the same under "nj", where a slip counts once received:
test_acct_signatures.py).

Every expected figure is computed here from the documents recorded and the
rounds dealt (GET /rounds/{id} payouts), never copied from a run.  The
daemon runs on the test clock, moved to a gaming day two days ahead so that
the documents fall in known shifts (UTC, gaming day from 06:00; shifts day
06:00, swing 14:00, grave 22:00).
"""
import calendar
import datetime
import json
import random
import sys
import unittest

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
import pbtest  # noqa: E402
from pbtest import AUDITOR, DEALER, PITBOSS_TOKEN  # noqa: E402
from test_reports import random_round  # noqa: E402

PEOPLE = pbtest.staff("FL1", "PB1", "PB2", "DL1", "CG1", "CT1", "CT2")
PROPERTY = {"id": "B1", "name": "Bayfront", "time_zone": "UTC", "gaming_day_start": "06:00",
            "shifts": [{"name": "day", "start": "06:00"}, {"name": "swing", "start": "14:00"},
                       {"name": "grave", "start": "22:00"}]}
SESSIONS = {"idle_seconds": 86400, "absolute_seconds": 604800}


witness = pbtest.staff_witness     # {"person", "password"} of one of PEOPLE


def chips_of(total):
    """A count of chips for an amount: $25 chips, then $1 chips."""
    assert total >= 0 and total % 100 == 0, total
    return {"2500": total // 2500, "100": total % 2500 // 100}


def total_of(chips):
    return sum(int(d) * n for d, n in chips.items())


# The gaming day of the test: two days ahead of today (UTC), so that the test clock only moves forward.
DAY = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=2)).date()


def at(hh, mm, ss=0):
    """Unix ms of DAY hh:mm:ss UTC (within the gaming day DAY: from 06:00 to 06:00 the next day)."""
    dt = datetime.datetime(DAY.year, DAY.month, DAY.day, hh, mm, ss, tzinfo=datetime.timezone.utc)
    if hh < 6:
        dt += datetime.timedelta(days=1)
    return calendar.timegm(dt.utctimetuple()) * 1000


class Ledger:
    """What the test recorded at one table on DAY: each closed segment's counts, the slips, the drop, the hands."""

    def __init__(self):
        self.segments = []       # (opening total, closing total) of each closed segment
        self.fills = self.credits = self.drop = self.hand = self.discrepancy = 0

    def win(self):
        return self.drop + sum(c - o for o, c in self.segments) + self.credits - self.fills


class Session(pbtest.StaffTestCase):
    # the slips signed by accounting.signatures "basic" (cage and floor), a count team of two: test_acct_signatures.py
    # and test_acct_drop.py have the "nj" slips and the three counters
    daemon_kwargs = {"clock": True, "overrides": {"property": PROPERTY, "sessions": SESSIONS,
                                                  "accounting": {"signatures": "basic", "count_team_min": 2}}}

    PEOPLE = PEOPLE

    @classmethod
    def after_start(cls):
        cls.d.advance_clock_to(at(11, 0))

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.rng = random.Random(29)
        cls.ledger = {t: Ledger() for t in ("T1", "T2", "T3", "F1")}
        cls.last_closer = {}

    # ---- helpers ----

    def post(self, path, body, who, status=201):
        return self.ok("POST", "/api/v1" + path, body, status=status, token=self.tok[who])

    def inv(self, table, kind, chips, reason=None, status=201):
        body = {"kind": kind, "chips": chips, "witness": witness("DL1")}
        if reason is not None:
            body["reason"] = reason
        doc = self.post("/tables/%s/inventory" % table, body, "FL1", status)
        if kind == "closer":
            self.last_closer[table] = chips
        return doc

    def deal(self, table, n):
        """n rounds at table: the house's win, computed from each round's payout lines."""
        win = 0
        for _ in range(n):
            r = self.whole(table, random_round(self.rng, 6, (1000, 5000), (1000, 2500), None, False))
            got = self.ok("GET", "/api/v1/rounds/%d" % r["id"], token=AUDITOR)["round"]
            win -= sum(p["net"] for p in got["payouts"])
        return win

    def master(self, table=None, shift=None):
        q = "gaming_day=%s" % DAY.isoformat() + ("&table=%s" % table if table else "") + ("&shift=%s" % shift if shift else "")
        return self.ok("GET", "/api/v1/reports/master-game?" + q, token=PITBOSS_TOKEN)

    def row(self, table, shift=None):
        return self.master(table, shift)["tables"][0]

    def exceptions(self, kind):
        q = "from=%s&to=%s" % (DAY.isoformat(), DAY.isoformat())
        js = self.ok("GET", "/api/v1/reports/exceptions?" + q, token=PITBOSS_TOKEN)
        return [e for e in js["exceptions"] if e["kind"] == kind]

    def session_of(self, table):
        return self.ok("GET", "/api/v1/tables/%s" % table, token=AUDITOR)["table"]

    def check_row(self, table, ledger, row=None):
        """The day's row of table against the ledger: complete, counts, win, hands, variance."""
        row = row or self.row(table)
        win = ledger.win()
        self.assertTrue(row["complete"], row)
        self.assertEqual((row["fills"], row["credits"], row["drop"], row["win"], row["hand_win"], row["variance"],
                          row["discrepancy"]),
                         (ledger.fills, ledger.credits, ledger.drop, win, ledger.hand, win - ledger.hand,
                          ledger.discrepancy), row)
        return row

    # ---- the tests, in order (the clock moves forward only) ----

    def test_1_opener_to_closer(self):
        """T1: rounds before the opener are out of the hand win; the closer closes the table; the next opener reopens."""
        led = self.ledger["T1"]
        before = self.deal("T1", 3)                     # a table that never had a document deals as before
        self.assertEqual(self.session_of("T1")["session"], {"state": "none", "document": None})
        opener = self.inv("T1", "opener", {"2500": 40})
        self.assertEqual(self.session_of("T1")["session"]["state"], "open")
        led.hand += self.deal("T1", 5)
        led.fills += self.post("/tables/T1/fills", {"serial": "F-0001", "chips": {"2500": 4},
                                                    "witness": witness("PB1")}, "CG1")["total"]
        led.credits += self.post("/tables/T1/credits", {"serial": "C-0001", "chips": {"500": 10},
                                                        "witness": witness("PB1")}, "CG1")["total"]
        sold = 30000
        closing = total_of({"2500": 40}) + led.fills - led.credits - sold + led.hand
        closer = self.inv("T1", "closer", chips_of(closing))
        led.segments.append((opener["total"], closer["total"]))
        led.drop += self.post("/tables/T1/drop", {"box": "D-T1", "cash": sold, "gaming_day": DAY.isoformat(),
                                                  "witness": witness("CT2")}, "CT1")["total"]
        # closed by its closer: rounds refused, the table shown closed
        err = self.refused(409, "table_closed", "POST", "/api/v1/tables/T1/rounds", {})
        self.assertIn("opener", err["message"])
        self.assertIn("POST /api/v1/tables/T1/inventory", err["message"])
        t = self.session_of("T1")
        self.assertEqual((t["status"], t["closed_by"], t["session"]["state"], t["session"]["document"]["id"]),
                         ("closed", "closer", "closed", closer["id"]))
        listed = {x["id"]: x for x in self.ok("GET", "/api/v1/tables", token=AUDITOR)["tables"]}
        self.assertEqual(listed["T1"]["status"], "closed")
        row = self.check_row("T1", led)
        self.assertNotEqual(before, 0, "rounds before the opener that would change the hand win")
        self.assertEqual((row["opener"], row["closer"], row["win"], row["variance"], row["flagged"]),
                         (opener["total"], closer["total"], led.hand, 0, False))
        self.assertEqual((row["documents"]["opener"], row["documents"]["closer"], row["documents"]["segments"]),
                         (opener["id"], closer["id"], 1))
        # the next opener reopens it; a pit boss's POST /open is another thing (it stays as it was)
        again = self.inv("T1", "opener", self.last_closer["T1"])
        self.assertEqual(again["discrepancy"], 0)
        t = self.session_of("T1")
        self.assertEqual((t["status"], t["closed_by"], t["session"]["state"]), ("open", None, "open"))
        self.assertFalse(self.row("T1")["complete"], "open again: no closer yet")
        second = self.deal("T1", 2)
        led.hand += second
        closer2 = self.inv("T1", "closer", chips_of(again["total"] + second))
        led.segments.append((again["total"], closer2["total"]))
        row = self.check_row("T1", led)
        self.assertEqual((row["variance"], row["documents"]["segments"]), (0, 2))
        # the pit boss's close and open: a table closed by its closer stays closed until its opener
        self.ok("POST", "/api/v1/tables/T1/open", {}, token=PITBOSS_TOKEN)
        self.assertEqual(self.session_of("T1")["closed_by"], "closer")
        self.refused(409, "table_closed", "POST", "/api/v1/tables/T1/rounds", {})

    def test_2_out_of_order(self):
        """T2: a first closer without opener recorded and flagged; the other orders refused; an incomplete row."""
        first = self.inv("T2", "closer", {"2500": 20})
        row = self.row("T2")
        self.assertEqual((row["complete"], row["win"], row["variance"], row["flagged"], row["out_of_order"]),
                         (False, None, None, False, [first["id"]]))
        self.refused(409, "closer_out_of_order", "POST", "/api/v1/tables/T2/inventory",
                     {"kind": "closer", "chips": {"2500": 20}, "witness": witness("DL1")}, token=self.tok["FL1"])
        self.refused(409, "shift_change_out_of_order", "POST", "/api/v1/tables/T2/inventory",
                     {"kind": "shift_change", "chips": {"2500": 20}, "witness": witness("DL1")}, token=self.tok["FL1"])
        self.refused(409, "table_closed", "POST", "/api/v1/tables/T2/rounds", {})
        opener = self.inv("T2", "opener", {"2500": 20})
        self.refused(409, "opener_out_of_order", "POST", "/api/v1/tables/T2/inventory",
                     {"kind": "opener", "chips": {"2500": 20}, "witness": witness("DL1")}, token=self.tok["FL1"])
        rid = self.open_round("T2")
        self.refused(409, "round_in_progress", "POST", "/api/v1/tables/T2/inventory",
                     {"kind": "closer", "chips": {"2500": 20}, "witness": witness("DL1")}, token=self.tok["FL1"])
        self.void(rid)
        hand = self.deal("T2", 2)
        row = self.row("T2")
        self.assertEqual((row["complete"], row["opener"], row["closer"], row["win"], row["variance"], row["flagged"],
                          row["hand_win"]), (False, opener["total"], None, None, None, False, hand))
        report = self.master()
        self.assertIn("T2", report["total"]["incomplete"])
        self.assertFalse(report["total"]["complete"])
        self.assertNotIn("T2", [e["table"] for e in self.exceptions("count_variance")])

    def test_3_no_document_not_flagged(self):
        """T3: rounds dealt with no document at all: an incomplete row, never flagged, no exception."""
        hand = self.deal("T3", 4)
        self.assertNotEqual(hand, 0)
        row = self.row("T3")
        self.assertEqual((row["complete"], row["opener"], row["closer"], row["win"], row["flagged"], row["hand_win"]),
                         (False, None, None, None, False, hand))
        self.assertNotIn("T3", self.master()["total"]["incomplete"], "a table without documents is not waited for")
        self.assertNotIn("T3", [e["table"] for e in self.exceptions("count_variance")])

    def test_4_shift_change(self):
        """F1: open in the day shift, a shift change at 14:00, closed in the swing shift: both shift rows compute."""
        self.d.advance_clock_to(at(13, 0))
        opener = self.inv("F1", "opener", {"2500": 40})
        day_hand = self.deal("F1", 4)
        self.d.advance_clock_to(at(13, 59, 58))       # a little before the boundary: it opens the swing shift still
        change = self.inv("F1", "shift_change", chips_of(opener["total"] + day_hand))
        self.assertEqual((change["gaming_day"], change["shift"], change["discrepancy"]), (DAY.isoformat(), "swing", None))
        self.assertEqual(self.session_of("F1")["session"]["state"], "open")
        self.d.advance_clock_to(at(14, 30))
        swing_hand = self.deal("F1", 3)
        closer = self.inv("F1", "closer", chips_of(change["total"] + swing_hand))
        day = self.row("F1", "day")
        self.assertEqual((day["complete"], day["opener"], day["closer"], day["hand_win"], day["win"], day["variance"]),
                         (True, opener["total"], change["total"], day_hand, day_hand, 0))
        swing = self.row("F1", "swing")
        self.assertEqual((swing["complete"], swing["opener"], swing["closer"], swing["hand_win"], swing["win"],
                          swing["variance"], swing["discrepancy"]),
                         (True, change["total"], closer["total"], swing_hand, swing_hand, 0, 0))
        whole = self.row("F1")
        self.assertEqual((whole["opener"], whole["closer"], whole["hand_win"], whole["win"], whole["documents"]["segments"]),
                         (opener["total"], closer["total"], day_hand + swing_hand, day_hand + swing_hand, 2))
        grave = self.row("F1", "grave")
        self.assertEqual((grave["complete"], grave["flagged"]), (False, False))
        led = self.ledger["F1"]
        led.segments += [(opener["total"], change["total"]), (change["total"], closer["total"])]
        led.hand += day_hand + swing_hand

    def test_5_shortage_kept_out(self):
        """T3: a reopen short by two $25 chips: the discrepancy apart, out of the count win and the variance, listed once."""
        self.d.advance_clock_to(at(15, 0))
        led = self.ledger["T3"]
        first = self.inv("T3", "opener", {"2500": 40})
        led.hand += self.deal("T3", 3)
        closer = self.inv("T3", "closer", chips_of(first["total"] + led.hand))
        led.segments.append((first["total"], closer["total"]))
        short = dict(self.last_closer["T3"])
        short["2500"] -= 2
        self.refused(409, "opener_discrepancy", "POST", "/api/v1/tables/T3/inventory",
                     {"kind": "opener", "chips": short, "witness": witness("DL1")}, token=self.tok["FL1"])
        reopen = self.inv("T3", "opener", short, reason="two $25 chips missing from the tray")
        self.assertEqual(reopen["discrepancy"], total_of(short) - closer["total"])
        led.discrepancy += reopen["discrepancy"]
        second = self.deal("T3", 3)
        led.hand += second
        closer2 = self.inv("T3", "closer", chips_of(reopen["total"] + second))
        led.segments.append((reopen["total"], closer2["total"]))
        row = self.check_row("T3", led)
        self.assertEqual((row["variance"], row["flagged"], row["discrepancy"], row["explained"]["discrepancies"]),
                         (0, False, -5000, -5000))
        self.assertEqual(row["win"], led.hand, "the shortage is not revenue")
        self.assertEqual(len([e for e in self.exceptions("inventory_discrepancy") if e["table"] == "T3"]), 1)
        self.assertNotIn("T3", [e["table"] for e in self.exceptions("count_variance")], "listed once")

    def test_6_variance_explained(self):
        """T1 again: a mispay corrected and a voided fill whose chips reached the tray explain the variance."""
        self.d.advance_clock_to(at(16, 0))
        led = self.ledger["T1"]
        opener = self.inv("T1", "opener", self.last_closer["T1"])
        hand, line, rid = 0, None, None
        while line is None:
            r = self.whole("T1", random_round(self.rng, 6, (1000, 5000), (1000, 2500), None, False))
            got = self.ok("GET", "/api/v1/rounds/%d" % r["id"], token=AUDITOR)["round"]
            hand -= sum(p["net"] for p in got["payouts"])
            wins = [p for p in got["payouts"] if p["net"] > 0]
            if wins:
                line, rid = wins[0], r["id"]
        over = 1500
        corr = self.post("/rounds/%d/corrections" % rid, {"seat": line["seat"], "wager": line["wager"],
                                                         "paid": line["net"] + over, "reason": "paid too much",
                                                         "witness": witness("PB1")}, "FL1")
        self.assertEqual(corr["difference"], over)
        fill = self.post("/tables/T1/fills", {"serial": "F-0002", "chips": {"2500": 4}, "witness": witness("PB1")}, "CG1")
        self.post("/tables/T1/fills/F-0002/void", {"reason": "written for T2", "witness": witness("PB1")}, "FL1")
        # the tray: the hands' win, less what the mispay overpaid, plus the voided fill's chips (they did arrive)
        closer = self.inv("T1", "closer", chips_of(opener["total"] + hand - over + fill["total"]))
        led.segments.append((opener["total"], closer["total"]))
        led.hand += hand
        row = self.check_row("T1", led)
        variance = led.win() - led.hand
        self.assertEqual(variance, fill["total"] - over)
        self.assertTrue(row["flagged"])
        # the mispay is in the variance (subtracted); the voided fill is beside it, and the rest left is its amount
        self.assertEqual(row["explained"], {"mispays": -over, "voids": fill["total"], "pending_slips": 0,
                                            "discrepancies": 0, "unexplained": variance + over})
        self.assertEqual(row["explained"]["unexplained"], row["explained"]["voids"])
        ex = [e for e in self.exceptions("count_variance") if e["table"] == "T1"]
        self.assertEqual(len(ex), 1)
        self.assertEqual((ex[0]["variance"], ex[0]["explained"]["unexplained"], ex[0]["investigation"]),
                         (variance, fill["total"], None))

    def test_7_investigation(self):
        """T1's variance investigated: assigned, cause found, resolved with a second person, in that order."""
        path = "/api/v1/variances/T1/%s" % DAY.isoformat()

        def bad(status, code, body, who="FL1", **kw):
            return self.refused(status, code, "POST", path if "path" not in kw else kw["path"], body,
                                token=kw.get("token") or self.tok[who])

        bad(403, "forbidden", {"status": "assigned", "assignee": "FL1", "note": "n"}, token=DEALER)
        bad(403, "person_required", {"status": "assigned", "assignee": "FL1", "note": "n"}, token=PITBOSS_TOKEN)
        bad(409, "investigation_out_of_order", {"status": "cause_found", "cause": "x", "note": "n"})
        bad(422, "assignee_required", {"status": "assigned", "note": "n"})
        bad(422, "unknown_person", {"status": "assigned", "assignee": "NOBODY", "note": "n"})
        bad(422, "note_required", {"status": "assigned", "assignee": "FL1"})
        bad(400, "invalid_body", {"status": "closed", "note": "n"})
        bad(400, "unknown_field", {"status": "assigned", "assignee": "FL1", "note": "n", "colour": 1})
        bad(404, "variance_not_found", {"status": "assigned", "assignee": "FL1", "note": "n"},
            path="/api/v1/variances/T2/%s" % DAY.isoformat())
        bad(404, "variance_not_found", {"status": "assigned", "assignee": "FL1", "note": "n"},
            path="/api/v1/variances/T3/%s" % DAY.isoformat())
        bad(422, "invalid_gaming_day", {"status": "assigned", "assignee": "FL1", "note": "n"},
            path="/api/v1/variances/T1/tomorrow")
        got = self.post(path[7:], {"status": "assigned", "assignee": "FL1", "note": "look at the fills"}, "FL1")
        self.assertEqual((got["table"], got["gaming_day"], got["investigation"]["status"],
                          got["investigation"]["assignee"]), ("T1", DAY.isoformat(), "assigned", "FL1"))
        got = self.post(path[7:], {"status": "assigned", "assignee": "PB1", "note": "reassigned"}, "PB1")
        self.assertEqual(got["investigation"]["assignee"], "PB1")
        bad(409, "investigation_out_of_order", {"status": "resolved", "note": "n", "witness": witness("PB2")}, who="PB1")
        got = self.post(path[7:], {"status": "cause_found", "cause": "fill F-0002 voided though its chips arrived; "
                                   "a pair plus overpaid by $15", "note": "surveillance reviewed"}, "PB1")
        self.assertEqual(got["investigation"]["status"], "cause_found")
        bad(403, "forbidden", {"status": "resolved", "note": "n", "witness": witness("PB2")}, who="FL1")
        bad(403, "witness_required", {"status": "resolved", "note": "n"}, who="PB1")
        bad(403, "witness_refused", {"status": "resolved", "note": "n", "witness": witness("FL1")}, who="PB1")
        bad(403, "witness_same_person", {"status": "resolved", "note": "n", "witness": witness("PB1")}, who="PB1")
        got = self.post(path[7:], {"status": "resolved", "note": "slip reissued, dealer retrained",
                                   "witness": witness("PB2")}, "PB1")
        inv = got["investigation"]
        self.assertEqual((inv["status"], inv["assignee"], len(inv["steps"])), ("resolved", "PB1", 4))
        self.assertEqual((inv["steps"][-1]["by"], inv["steps"][-1]["witness"]), ("PB1", "PB2"))
        self.assertTrue(inv["cause"].startswith("fill F-0002"))
        bad(409, "already_resolved", {"status": "resolved", "note": "n", "witness": witness("PB2")}, who="PB1")
        self.assertEqual(self.row("T1")["investigation"], inv)
        ex = [e for e in self.exceptions("count_variance") if e["table"] == "T1"]
        self.assertEqual(ex[0]["investigation"]["status"], "resolved")
        bodies = [json.loads(b) for (b,) in self.d.db_rows("SELECT body FROM events WHERE type = 'variance_investigated' "
                                                           "AND table_id = 'T1' ORDER BY id")]
        self.assertEqual([b["status"] for b in bodies], ["assigned", "assigned", "cause_found", "resolved"])
        self.assertEqual(sorted(bodies[-1]), ["assignee", "cause", "gaming_day", "id", "note", "status", "witness"])
        self.assertEqual(self.d.db_value("SELECT count(*) FROM variance_investigations"), 4)

    def test_8_statistics_by_shift(self):
        """The statistics: F1's shifts as the master game counts them, the month before beside them."""
        js = self.ok("GET", "/api/v1/reports/statistics?month=%s" % DAY.isoformat()[:7], token=PITBOSS_TOKEN)
        prior = (DAY.replace(day=1) - datetime.timedelta(days=1)).replace(day=1)
        self.assertEqual(js["prior_month"]["month"], prior.isoformat()[:7])
        f1 = [r for r in js["rows"] if r["table"] == "F1"]
        self.assertEqual(len(f1), 1)
        shifts = {s["shift"]: s for s in f1[0]["shifts"]}
        self.assertEqual(sorted(shifts), ["day", "grave", "swing"])
        day, swing = self.row("F1", "day"), self.row("F1", "swing")
        for name, row in (("day", day), ("swing", swing)):
            mtd = shifts[name]["month_to_date"]
            self.assertEqual((mtd["win"], mtd["hand_win"], mtd["variance"], mtd["windows"]),
                             (row["win"], row["hand_win"], 0, 1), name)
            self.assertEqual(shifts[name]["prior_month"]["windows"], 0)
        self.assertIn("prior_month", f1[0])
        self.assertIn("incomplete", f1[0]["month_to_date"])
        # T2 is still open: its day is left out of the count and counted as incomplete
        t2 = [r for r in js["rows"] if r["table"] == "T2"][0]
        self.assertEqual((t2["month_to_date"]["incomplete"], t2["month_to_date"]["win"]), (1, 0))

    def test_9_altered_step_caught_by_verify(self):
        """A step of the investigation altered in the file is caught by pitboss verify."""
        def alter(conn):
            conn.execute("DROP TRIGGER variance_investigations_no_update")
            conn.execute("UPDATE variance_investigations SET cause = 'nothing' WHERE status = 'cause_found'")
        rc, out, err = self.d.verify_altered_copy(alter)
        self.assertEqual(rc, 1, out + err)
        self.assertRegex(out, r"PROBLEM .*the investigation's step \d+: its row differs from its event")


if __name__ == "__main__":
    pbtest.main()
