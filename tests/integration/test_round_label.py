"""
One number for a round everywhere (docs/api.md "Rounds"): a round is named
by its label, the table and the table's number of the round ("T1-2"), as
well as by its global id.  GET /api/v1/rounds/T1-2 answers the table's
second round, the same answer as by its id; the other routes under
/rounds/{round} take the label too; a label of no round, or a text that is
neither an id nor a label, is 404 round_not_found.  The exceptions report
gives each row of a round its "round_no", so the page can show the label;
so does GET /api/v1/events for each significant event whose detail names a round.
"""
import csv
import datetime
import io
import sys
import unittest

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
import pbtest  # noqa: E402
from pbtest import AUDITOR  # noqa: E402

ROUND = {
    "bets": {"1": {"ante": 2500, "pair_plus": 1000}, "3": {"ante": 2500}},
    "hands": {"1": ["As", "Ks", "Qs"], "3": ["2c", "3d", "5h"]},
    "dealer": ["Qd", "7c", "2h"],
    "decisions": {"1": "play", "3": "fold"},
}


def iso(dt):
    return dt.strftime("%Y-%m-%dT%H:%M:%S.000Z")


def label(r):
    return "%s-%d" % (r["table"], r["round_no"])


class RoundLabel(pbtest.StaffTestCase):

    PEOPLE = pbtest.staff("PB1", "FL1")

    @classmethod
    def after_start(cls):
        # Two rounds at T1 and one at T2, numbered by their table: T1's second is not T2's.
        cls.t1 = [cls.d.call("POST", "/api/v1/tables/T1/rounds", ROUND)[1]["round"] for _ in range(2)]
        cls.t2 = cls.d.call("POST", "/api/v1/tables/T2/rounds", ROUND)[1]["round"]
        # Two rounds opened and voided at T2 after it (their significant events name them).
        cls.voided_t2 = []
        for _ in range(2):
            cls.voided_t2.append(cls.d.call("POST", "/api/v1/tables/T2/rounds", {})[1]["round"])
            cls.d.call("POST", "/api/v1/rounds/%d/void" % cls.voided_t2[-1]["id"], {"reason": "test cleanup"},
                       token=pbtest.PITBOSS_TOKEN)

    def get(self, name, status=200):
        return self.ok("GET", "/api/v1/rounds/%s" % name, token=AUDITOR, status=status)

    def test_label_answers_the_tables_round(self):
        first, second = self.t1
        self.assertEqual(second["round_no"], first["round_no"] + 1)
        self.assertEqual((first["table"], second["table"], self.t2["table"]), ("T1", "T1", "T2"))
        for r in self.t1 + [self.t2]:
            by_label = self.get(label(r))["round"]
            self.assertEqual(by_label, self.get(str(r["id"]))["round"])
            self.assertEqual((by_label["id"], by_label["table"], by_label["round_no"]), (r["id"], r["table"], r["round_no"]))
        # The same number at another table is another round.
        same_no = [r for r in self.t1 if r["round_no"] == self.t2["round_no"]]
        for r in same_no:
            self.assertNotEqual(self.get("T1-%d" % r["round_no"])["round"]["id"], self.get(label(self.t2))["round"]["id"])

    def test_unknown_labels_are_not_found(self):
        beyond = max(r["round_no"] for r in self.t1) + 1
        for name in ("T1-%d" % beyond, "NOPE-1", "T1-0", "T1-01", "T1-", "-3", "T1-2x", "T1--2", "T%201-1"):
            err = self.refused(404, "round_not_found", "GET", "/api/v1/rounds/%s" % name, token=AUDITOR)
            self.assertNotIn("cents", err["message"])
        # A label of no round says which table and number it looked for.
        err = self.get("T1-%d" % beyond, status=404)["error"]
        self.assertIn("T1", err["message"])
        self.assertIn(str(beyond), err["message"])
        # A well-formed label under a path that is no route: no such resource, not a bad round id.
        st, js = self.call("GET", "/api/v1/rounds/%s/nothing" % label(self.t1[0]), token=AUDITOR)
        self.assertEqual((st, js["error"]["code"]), (404, "not_found"))

    def test_other_routes_take_the_label(self):
        r = self.t1[0]
        line = next(p for p in r["payouts"] if p["seat"] == 1 and p["wager"] == "ante")
        paid = line["net"] + 500
        c = self.ok("POST", "/api/v1/rounds/%s/corrections" % label(r),
                    {"seat": 1, "wager": "ante", "paid": paid, "reason": "overpaid the ante",
                     "witness": pbtest.staff_witness("FL1")}, status=201, token=self.tok["PB1"])
        self.assertEqual((c["round"], c["owed"], c["paid"], c["difference"]), (r["id"], line["net"], paid, 500))
        self.assertEqual([x["id"] for x in self.get(label(r))["round"]["corrections"]], [c["id"]])
        # Writes under a label of no round record nothing.
        self.refused(404, "round_not_found", "POST", "/api/v1/rounds/T1-%d/corrections" % (r["round_no"] + 50),
                     {"seat": 1, "wager": "ante", "paid": 0, "reason": "x", "witness": pbtest.staff_witness("FL1")},
                     token=self.tok["PB1"])

    def test_exception_rows_carry_the_round_no(self):
        voided = self.d.call("POST", "/api/v1/tables/T3/rounds", {})[1]["round"]
        self.void(voided["id"])
        corrected = self.t1[1]
        line = next(p for p in corrected["payouts"] if p["seat"] == 3 and p["wager"] == "ante")
        self.ok("POST", "/api/v1/rounds/%d/corrections" % corrected["id"],
                {"seat": 3, "wager": "ante", "paid": line["net"] - 1000, "reason": "took the ante twice",
                 "witness": pbtest.staff_witness("FL1")}, status=201, token=self.tok["PB1"])
        now = datetime.datetime.now(datetime.timezone.utc)
        q = "from=%s&to=%s" % (iso(now - datetime.timedelta(hours=2)), iso(now + datetime.timedelta(hours=1)))
        rows = self.ok("GET", "/api/v1/reports/exceptions?" + q, token=AUDITOR)["exceptions"]
        no_of = {r["id"]: r["round_no"] for r in self.t1 + self.voided_t2 + [self.t2, voided]}
        with_round = [e for e in rows if e.get("round") is not None]
        self.assertIn((voided["id"], "void"), [(e["round"], e["kind"]) for e in with_round])
        self.assertIn((corrected["id"], "mispay"), [(e["round"], e["kind"]) for e in with_round])
        for e in with_round:
            self.assertEqual(e["round_no"], no_of[e["round"]], e)
            self.assertEqual(self.get("%s-%d" % (e["table"], e["round_no"]))["round"]["id"], e["round"])
        for e in rows:
            if e.get("round") is None:
                self.assertNotIn("round_no", e)
        # The CSV has the column too.
        st, _, raw = self.d.request("GET", "/api/v1/reports/exceptions?format=csv&" + q, token=AUDITOR)
        self.assertEqual(st, 200)
        table = list(csv.DictReader(io.StringIO(raw.decode())))
        void_row = next(x for x in table if x["kind"] == "void" and x["round"] == str(voided["id"]))
        self.assertEqual(void_row["round_no"], str(voided["round_no"]))

    def test_event_rows_carry_the_round_no(self):
        # The two rounds voided at T2 after its first: their events name them by id, and carry the table's number.
        voided = self.voided_t2
        events = self.ok("GET", "/api/v1/events?limit=1000", token=AUDITOR)["events"]
        by_round = {e["detail"]["round"]: e for e in events
                    if isinstance(e.get("detail"), dict) and isinstance(e["detail"].get("round"), int)}
        for r in voided:
            e = by_round[r["id"]]
            self.assertEqual((e["code"], e["table"], e["round_no"]), ("round_voided", "T2", r["round_no"]))
            self.assertEqual(self.get("%s-%d" % (e["table"], e["round_no"]))["round"]["id"], r["id"])
        self.assertEqual(voided[1]["round_no"], voided[0]["round_no"] + 1)
        for e in events:
            if e not in by_round.values():
                self.assertNotIn("round_no", e)

if __name__ == "__main__":
    unittest.main()
