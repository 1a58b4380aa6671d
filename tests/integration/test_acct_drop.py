"""
The drop and the count, serial control and the offers of the bank against the real daemon
(docs/accounting.md "The drop and the count", "Serial control"; docs/players.md "The banker"),
one rule at a time, every figure computed here from what the test sends:

- the count sheet: the drop's cash, chips and markers are the sheet's bills, chips and markers
  added up here; a sheet that is not one is refused; totals alone are refused (but under
  accounting.signatures "basic", where they are taken as before);
- the count team: two signers are refused (naming how many more), three different people of the
  count accepted, each recorded;
- a box is counted once a gaming day: again at the same table, or at another, is refused;
- the gaming day: by default the last one that ended (the test clock turns the day); the current
  one when given; an earlier one only with a pit boss's (or admin's) approval, recorded;
- serial control (accounting.serials, one series for fills and credits here): a gap, a number used
  twice, serials outside the series are exceptions until voided or explained with a witness;
- the bank passed round the table records no declines; the offers made are recorded;
- pitboss verify names an altered count sheet, an altered explanation and one without its event.
"""
import datetime
import sys
import unittest

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
import pbtest  # noqa: E402
from pbtest import AUDITOR, PITBOSS_TOKEN  # noqa: E402

PEOPLE = pbtest.staff("FL1", "PB1", "CG1", "CT1", "AU1") + (
    ("CT2", "Lou Count", ["count"]),
    ("CT3", "Max Count", ["count"]),
    ("CT4", "Ned Count", ["count"]),
    ("CP1", "Cam Count-Boss", ["count", "pitboss"]),
    ("AD1", "Ada Admin", ["admin"]),
    ("SC1", "Sal Security", ["security"]),      # the runner who signs a slip (accounting.signatures "nj")
)
witness = pbtest.staff_witness
BILLS = (100, 200, 500, 1000, 2000, 5000, 10000)
SERIES = {"prefix": "F-", "digits": 6}
DAY_MS = 86400000
LOCKOUT_SECONDS = 900                # auth.lockout_seconds's default


def day_of(ms):
    """The gaming day of a Unix time in ms: the example property's (UTC, starting at 00:00)."""
    return datetime.datetime.fromtimestamp(ms / 1000, datetime.timezone.utc).strftime("%Y-%m-%d")


def sheet_value(sheet):
    """(cash, chips, markers) of a count sheet, added up here."""
    cash = sum(int(d) * n for d, n in sheet.get("cash", {}).items())
    chips = sum(int(d) * n for d, n in sheet.get("chips", {}).items())
    return cash, chips, sheet.get("markers", 0)


def team(*ids):
    return [witness(i) for i in ids]


class DropAndCount(pbtest.StaffTestCase):
    daemon_kwargs = {"clock": True, "overrides": {"accounting": {"serials": {"fill": SERIES, "credit": SERIES}}}}
    PEOPLE = PEOPLE

    @classmethod
    def after_start(cls):
        # noon of the daemon's day: no gaming day turns while a test runs
        now = cls.d.clock_ms()
        cls.d.advance_clock_to(now - now % DAY_MS + DAY_MS // 2 + (DAY_MS if now % DAY_MS > DAY_MS // 2 else 0))

    @classmethod
    def sign_in(cls):
        cls.tok = pbtest.sign_in_staff(cls.d, PEOPLE)

    def setUp(self):
        # the refused signatures of the tests before are guesses of this address: their lockout window passes
        self.d.advance_clock(LOCKOUT_SECONDS + 1)
        self.sign_in()

    def today(self):
        return day_of(self.d.clock_ms())

    def days_ago(self, n):
        return day_of(self.d.clock_ms() - n * DAY_MS)

    def as_(self, who, method, path, body=None, status=200):
        return self.ok(method, "/api/v1" + path, body, status=status, token=self.tok[who])

    def refused_as(self, who, status, code, path, body):
        return self.refused(status, code, "POST", "/api/v1" + path, body, token=self.tok[who])

    def drop(self, table, box, sheet, status=201, who="CT1", witnesses=("CT2", "CT3"), **extra):
        body = dict({"box": box, "count": sheet, "witnesses": team(*witnesses)}, **extra)
        return self.as_(who, "POST", "/tables/%s/drop" % table, body, status=status)

    def documents(self, table, day):
        return self.as_("PB1", "GET", "/tables/%s/documents?gaming_day=%s" % (table, day))["documents"]

    def master_row(self, table, day):
        js = self.ok("GET", "/api/v1/reports/master-game?gaming_day=%s&table=%s" % (day, table), token=PITBOSS_TOKEN)
        return js["tables"][0]

    def serial_exceptions(self):
        js = self.ok("GET", "/api/v1/reports/exceptions", token=PITBOSS_TOKEN)
        return [e for e in js["exceptions"] if e["kind"] == "serial_gap"]

    # ---- the count sheet ----

    def test_1_count_sheet(self):
        day = self.today()
        sheet = {"cash": {"10000": 12, "5000": 3, "2000": 30, "500": 7, "100": 13, "200": 0},
                 "chips": {"2500": 4, "500": 3}, "markers": 50000, "coupons": 2500}
        cash, chips, markers = sheet_value(sheet)
        d = self.drop("T1", "D-T1", sheet, gaming_day=day)
        self.assertEqual((d["cash"], d["chips"], d["markers"], d["total"]), (cash, chips, markers, cash + chips + markers))
        self.assertEqual(d["count"], {"cash": sheet["cash"], "chips": {"500": 3, "2500": 4}, "markers": markers,
                                      "coupons": 2500})
        self.assertEqual((d["gaming_day"], d["box"], d["signer"], d["witness"], d["witnesses"]),
                         (day, "D-T1", "CT1", "CT2", ["CT2", "CT3"]))
        self.assertIsNone(d.get("approval"))
        listed = [x for x in self.documents("T1", day) if x["type"] == "drop"]
        self.assertEqual(listed, [d])
        self.assertEqual(self.master_row("T1", day)["drop"], cash + chips + markers)
        # the event holds the sheet and every signer
        body = self.d.db_rows("SELECT body FROM events WHERE type = 'drop' ORDER BY rowid DESC LIMIT 1")[0][0]
        self.assertIn('"witnesses":["CT2","CT3"]', body)
        self.assertIn('"count":{', body)

    def test_2_sheet_refusals(self):
        good = {"cash": {"10000": 1}}
        path = "/tables/T2/drop"
        body = {"box": "D-R", "count": good, "witnesses": team("CT2", "CT3"), "gaming_day": self.today()}
        err = self.refused_as("CT1", 400, "unknown_denomination", path, dict(body, count={"cash": {"300": 1}}))
        self.assertIn("10000", err["message"])
        self.refused_as("CT1", 400, "unknown_denomination", path, dict(body, count={"chips": {"300": 1}}))
        self.refused_as("CT1", 400, "invalid_count", path, dict(body, count={"cash": {"100": -1}}))
        self.refused_as("CT1", 400, "invalid_count", path, dict(body, count={"cash": {"100": 1.5}}))
        self.refused_as("CT1", 400, "invalid_amount", path, dict(body, count={"markers": -5}))
        self.refused_as("CT1", 400, "unknown_field", path, dict(body, count={"cheques": 5}))
        self.refused_as("CT1", 422, "count_required", path, {"box": "D-R", "cash": 100, "witnesses": team("CT2", "CT3")})
        self.refused_as("CT1", 400, "invalid_body", path, dict(body, cash=100))
        self.assertEqual(self.d.db_value("SELECT count(*) FROM acct_documents WHERE serial = 'D-R'"), 0)

    # ---- the count team ----

    def test_3_count_team(self):
        path = "/tables/T2/drop"
        body = {"box": "D-T2", "count": {"cash": {"2000": 5}}, "gaming_day": self.today()}
        err = self.refused_as("CT1", 403, "witness_required", path, dict(body, witnesses=team("CT2")))
        self.assertIn("at least 3", err["message"])
        self.assertIn("1 more", err["message"])
        err = self.refused_as("CT1", 403, "witness_required", path, dict(body, witness=witness("CT2")))
        self.assertIn("1 more", err["message"])
        err = self.refused_as("CT1", 403, "witness_required", path, body)
        self.assertIn("2 more", err["message"])
        self.refused_as("CT1", 403, "witness_same_person", path, dict(body, witnesses=team("CT2", "CT2")))
        self.refused_as("CT1", 403, "witness_same_person", path, dict(body, witnesses=team("CT2", "CT1")))
        self.refused_as("CT1", 403, "witness_refused", path, dict(body, witnesses=team("CT2", "PB1")))   # not count
        self.refused_as("CT1", 403, "witness_refused", path,
                        dict(body, witnesses=team("CT2") + [{"person": "CT3", "password": "wrong"}]))
        self.refused_as("PB1", 403, "forbidden", path, dict(body, witnesses=team("CT2", "CT3")))
        self.assertEqual(self.d.db_value("SELECT count(*) FROM acct_documents WHERE table_id = 'T2'"), 0)
        d = self.drop("T2", "D-T2", body["count"], witnesses=("CT2", "CT3", "CT4"), gaming_day=self.today())
        self.assertEqual((d["signer"], d["witness"], d["witnesses"], d["total"]), ("CT1", "CT2", ["CT2", "CT3", "CT4"],
                                                                                 5 * 2000))
        row = self.d.db_rows("SELECT witness, witnesses FROM acct_documents WHERE id = ?", (d["id"],))[0]
        self.assertEqual(row, ("CT2", '["CT2","CT3","CT4"]'))

    # ---- the box ----

    def test_4_box_once_a_day(self):
        day = self.today()
        sheet = {"cash": {"100": 1}}
        self.drop("T3", "D-T3", sheet, gaming_day=day)
        err = self.refused_as("CT1", 409, "duplicate_box", "/tables/T3/drop",
                              {"box": "D-T3", "count": sheet, "witnesses": team("CT2", "CT3"), "gaming_day": day})
        self.assertIn("table T3", err["message"])
        err = self.refused_as("CT1", 409, "duplicate_box", "/tables/F1/drop",
                              {"box": "D-T3", "count": sheet, "witnesses": team("CT2", "CT3"), "gaming_day": day})
        self.assertIn("table T3", err["message"])
        self.assertEqual(self.master_row("T3", day)["drop"], 100)
        # the same box on another gaming day is that day's drop
        self.drop("T3", "D-T3", sheet)

    # ---- the gaming day ----

    def test_5_gaming_day(self):
        yesterday, today = self.days_ago(1), self.today()
        sheet = {"cash": {"5000": 2}}
        d = self.drop("T2", "D-Y2", sheet)                                      # the count the next morning
        self.assertEqual(d["gaming_day"], yesterday)
        self.assertEqual(self.master_row("T2", yesterday)["drop"], 10000)
        back = self.days_ago(2)
        body = {"box": "D-B2", "count": sheet, "witnesses": team("CT2", "CT3"), "gaming_day": back}
        err = self.refused_as("CT1", 403, "approval_required", "/tables/T2/drop", body)
        self.assertIn(yesterday, err["message"])
        self.refused_as("CT1", 403, "witness_refused", "/tables/T2/drop", dict(body, approval=witness("FL1")))
        self.refused_as("CT1", 403, "witness_refused", "/tables/T2/drop",
                        dict(body, approval={"person": "PB1", "password": "wrong"}))
        self.refused_as("CT1", 403, "witness_same_person", "/tables/T2/drop",
                        dict(body, witnesses=team("CT2", "CP1"), approval=witness("CP1")))
        self.refused_as("CT1", 400, "invalid_body", "/tables/T2/drop",
                        dict(body, gaming_day=yesterday, approval=witness("PB1")))       # not back-dated
        tomorrow = day_of(self.d.clock_ms() + DAY_MS)
        self.refused_as("CT1", 422, "invalid_gaming_day", "/tables/T2/drop", dict(body, gaming_day=tomorrow))
        self.assertEqual(self.d.db_value("SELECT count(*) FROM acct_documents WHERE serial = 'D-B2'"), 0)
        d = self.as_("CT1", "POST", "/tables/T2/drop", dict(body, approval=witness("PB1")), status=201)
        self.assertEqual((d["gaming_day"], d["approval"]), (back, "PB1"))
        self.assertEqual(self.master_row("T2", back)["drop"], 10000)
        d = self.as_("CT1", "POST", "/tables/T2/drop", dict(body, box="D-B3", approval=witness("AD1")), status=201)
        self.assertEqual(d["approval"], "AD1")
        ev = self.d.db_rows("SELECT body FROM events WHERE type = 'drop' ORDER BY rowid DESC LIMIT 1")[0][0]
        self.assertIn('"approval":"AD1"', ev)
        # a day later, the default is the day that was current
        self.d.advance_clock(DAY_MS / 1000)
        self.sign_in()
        d = self.drop("T2", "D-Y3", sheet)
        self.assertEqual(d["gaming_day"], today)

    # ---- serial control ----

    def slip(self, serial, table="T1", kind="fills", chips=None):
        body = {"serial": serial, "chips": chips or {"2500": 4}, "witnesses": [witness("PB1"), witness("SC1")]}
        return self.as_("CG1", "POST", "/tables/%s/%s" % (table, kind), body, status=201)

    def test_6_serials(self):
        year = int(self.today()[:4])
        for n in range(1, 5):
            self.slip("F-%06d" % n)
        after = self.slip("F-000099", table="T2")
        dup = self.slip("F-000004", kind="credits")                      # one book for fills and credits: used twice
        short = self.slip("F-77")
        self.slip("C-000001", kind="credits")
        ex = {(e["problem"], e["ref"]): e for e in self.serial_exceptions()}
        self.assertEqual(sorted(ex), [("duplicate", "F-000004"), ("gap", "F-000005"), ("out_of_series", "C-000001"),
                                      ("out_of_series", "F-77")])
        gap = ex[("gap", "F-000005")]
        self.assertEqual((gap["first"], gap["last"], gap["count"], gap["slip"], gap["year"], gap["table"],
                          gap["document"]), ("F-000005", "F-000098", 98 - 5 + 1, "fill", year, "T2", after["id"]))
        self.assertIn("F-000004 and F-000099", gap["detail"])
        self.assertIsNone(gap["explained"])
        self.assertEqual((ex[("duplicate", "F-000004")]["count"], ex[("duplicate", "F-000004")]["document"]), (2, dup["id"]))
        self.assertEqual(ex[("out_of_series", "F-77")]["document"], short["id"])
        self.assertEqual(ex[("out_of_series", "C-000001")]["slip"], "credit")
        # a voided slip is accounted for: the credit used twice, voided, is a duplicate no more
        self.as_("FL1", "POST", "/tables/T1/credits/F-000004/void", {"reason": "form used twice",
                                                                     "witness": witness("PB1")}, status=201)
        self.assertNotIn("duplicate", [e["problem"] for e in self.serial_exceptions()])
        # the gap explained by a pit boss with a floor witness; the out-of-series by the cage
        path = "/serials/fill/F-000005/explanation"
        note = {"note": "book F-000005..F-000098 sent back to the cage unused", "witness": witness("FL1")}
        self.refused_as("PB1", 403, "witness_required", path, {"note": "x"})
        self.refused_as("PB1", 403, "witness_refused", path, dict(note, witness=witness("CT1")))
        self.refused_as("PB1", 422, "note_required", path, {"witness": witness("FL1")})
        self.refused_as("FL1", 403, "forbidden", path, dict(note, witness=witness("PB1")))
        self.refused_as("PB1", 404, "exception_not_found", "/serials/fill/F-000006/explanation", note)
        self.refused_as("PB1", 404, "exception_not_found", "/serials/credit/F-000005/explanation", note)
        x = self.as_("PB1", "POST", path, note, status=201)
        self.assertEqual((x["kind"], x["serial"], x["year"], x["problem"], x["table"], x["by"], x["witness"]),
                         ("fill", "F-000005", year, "gap", "T2", "PB1", "FL1"))
        self.refused_as("PB1", 409, "already_explained", path, note)
        self.as_("CG1", "POST", "/serials/fill/F-77/explanation",
                 {"note": "keyed short: the slip reads F-000077", "witness": witness("PB1"), "year": year}, status=201)
        ex = {(e["problem"], e["ref"]): e for e in self.serial_exceptions()}
        self.assertEqual(sorted(ex), [("gap", "F-000005"), ("out_of_series", "C-000001"), ("out_of_series", "F-77")])
        self.assertEqual((ex[("gap", "F-000005")]["explained"]["by"], ex[("gap", "F-000005")]["explained"]["witness"]),
                         ("PB1", "FL1"))
        self.assertEqual(ex[("out_of_series", "F-77")]["explained"]["by"], "CG1")
        self.assertIsNone(ex[("out_of_series", "C-000001")]["explained"])
        # recorded in the chain of the table named (the credit's slip was T1's)
        x = self.as_("PB1", "POST", "/serials/credit/C-000001/explanation",
                     {"note": "a credit form of the old book", "witness": witness("FL1"), "table": "T3"}, status=201)
        self.assertEqual((x["table"], x["problem"]), ("T3", "out_of_series"))
        ex = {(e["problem"], e["ref"]): e for e in self.serial_exceptions()}
        self.assertEqual(ex[("out_of_series", "C-000001")]["explained"]["table"], "T3")
        # the row and its event: serial_explained in T2's chain
        self.assertEqual(self.d.db_rows("SELECT table_id, json_extract(body, '$.serial') FROM events WHERE type = "
                                        "'serial_explained' ORDER BY rowid"),
                         [("T2", "F-000005"), ("T1", "F-77"), ("T3", "C-000001")])
        # a numbered slip closing the gap's start leaves the rest of it a gap, not explained (a new ref)
        self.slip("F-000005")
        refs = {(e["problem"], e["ref"]): e for e in self.serial_exceptions()}
        self.assertIn(("gap", "F-000006"), refs)
        self.assertEqual(refs[("gap", "F-000006")]["count"], 98 - 6 + 1)
        self.assertIsNone(refs[("gap", "F-000006")]["explained"])

    # ---- the bank passed round the table ----

    def banked(self, seat):
        """A whole round at P1 (player-banked) banked by seat, one player at the seat after it."""
        player = seat + 1
        body = {"banker": {"seat": seat, "bank": 20000}, "bets": {str(player): {"ante": 500}},
                "hands": {str(player): ["9h", "9c", "5d"]}, "dealer": ["Qd", "7c", "2h"],
                "decisions": {str(player): "play"}}
        return self.whole("P1", body)["id"]

    def test_7_bank_passed_records_no_decline(self):
        self.banked(1)
        r2 = self.banked(4)          # the bank went from seat 1 to seat 4: seats 2 and 3 were offered nothing
        bankers = self.ok("GET", "/api/v1/tables/P1/bankers", token=AUDITOR)
        self.assertEqual([(h["seat"], h["kind"]) for h in bankers["history"]], [(4, "bank"), (1, "bank")])
        ev = self.ok("GET", "/api/v1/rounds/%d" % r2, token=AUDITOR)["round"]["events"][0]
        self.assertEqual(ev["body"]["banker"], {"seat": 4, "bank": 20000, "consecutive": 1})
        self.assertEqual(self.d.db_value("SELECT count(*) FROM banker_turns WHERE kind = 'declined'"), 0)
        # an offer actually made and declined is recorded, and listed
        self.ok("POST", "/api/v1/tables/P1/bank-offers", {"seat": 5, "answer": "declined"}, status=201)
        offers = self.ok("GET", "/api/v1/tables/P1/bankers", token=AUDITOR)["offers"]
        self.assertEqual([(o["seat"], o["answer"]) for o in offers], [(5, "declined")])

    def test_9_verify(self):
        """pitboss verify accepts every row these tests wrote, and names an altered drop or explanation."""
        def alter(conn):
            conn.execute("DROP TRIGGER serial_explanations_no_update")
            conn.execute("DROP TRIGGER acct_documents_no_update")
            conn.execute("UPDATE serial_explanations SET witness = 'CT1' WHERE serial = 'F-000005'")
            conn.execute("UPDATE acct_documents SET count_json = replace(count_json, '\"10000\":12', '\"10000\":13') "
                         "WHERE kind = 'drop' AND serial = 'D-T1'")
            conn.execute("INSERT INTO serial_explanations (id, table_id, kind, year, serial, note, by, witness, at) "
                         "VALUES (99, 'T1', 'fill', 2026, 'F-000500', 'made up', 'PB1', 'FL1', '2026-01-01T00:00:00.000Z')")
        rc, out, err = self.d.verify_altered_copy(alter)     # the untouched copy passes first
        self.assertEqual(rc, 1, out + err)
        self.assertRegex(out, r"the explanation of fill F-000005: its row differs from its event")
        self.assertRegex(out, r"accounting document \d+: its row's count sheet differs from its event")
        self.assertRegex(out, r"1 serial explanation rows have no event in any chain")


class DropBasic(pbtest.StaffTestCase):
    """Under accounting.signatures "basic" a drop given as totals is still taken; the count team's rule holds."""
    daemon_kwargs = {"overrides": {"accounting": {"signatures": "basic"}}}
    PEOPLE = PEOPLE

    def test_totals(self):
        cash, chips, markers = 125000, 5000, 20000
        body = {"box": "D-B", "cash": cash, "chips": chips, "markers": markers, "witnesses": team("CT2")}
        err = self.refused(403, "witness_required", "POST", "/api/v1/tables/T1/drop", body, token=self.tok["CT1"])
        self.assertIn("1 more", err["message"])
        d = self.ok("POST", "/api/v1/tables/T1/drop", dict(body, witnesses=team("CT2", "CT3")), status=201,
                    token=self.tok["CT1"])
        self.assertEqual((d["cash"], d["chips"], d["markers"], d["total"]), (cash, chips, markers, cash + chips + markers))
        self.assertNotIn("count", d)
        # the count sheet is taken too, and not beside the totals
        self.refused(400, "invalid_body", "POST", "/api/v1/tables/T1/drop",
                     dict(body, box="D-C", count={"cash": {"100": 1}}, witnesses=team("CT2", "CT3")), token=self.tok["CT1"])
        d = self.ok("POST", "/api/v1/tables/T1/drop", {"box": "D-C", "count": {"cash": {"100": 7}},
                                                      "witnesses": team("CT2", "CT3")}, status=201, token=self.tok["CT1"])
        self.assertEqual(d["total"], 700)


if __name__ == "__main__":
    pbtest.main()
