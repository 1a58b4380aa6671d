"""
What the page reads to show a table's accounting (docs/api.md "Table
accounting"): GET /tables answers the property's chip denominations, shifts
and current gaming day beside the tables, and GET /tables/{t}/documents lists
a table's documents of a gaming day, voids included, each voided slip with
its void; refusals of a bad query or table.  Signed by accounting.signatures
"basic" (test_acct_signatures.py lists the slips pending and received).
"""
import datetime
import sys
import unittest
import zoneinfo

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
import pbtest  # noqa: E402
from pbtest import AUDITOR, PITBOSS_TOKEN  # noqa: E402
from test_accounting import BASIC, PEOPLE, count_sheet, count_team, setup_people, sign_in, witness  # noqa: E402

PROPERTY = {"id": "B1", "name": "Bayfront", "time_zone": "America/New_York", "gaming_day_start": "06:00",
            "shifts": [{"name": "day", "start": "06:00"}, {"name": "swing", "start": "14:00"},
                       {"name": "grave", "start": "22:00"}]}


def current_gaming_day():
    now = datetime.datetime.now(zoneinfo.ZoneInfo(PROPERTY["time_zone"]))
    return (now - datetime.timedelta(hours=6)).strftime("%Y-%m-%d")


class Documents(pbtest.DaemonTestCase):
    daemon_kwargs = {"overrides": dict(BASIC, property=PROPERTY, chips=[100, 500, 2500])}

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.d.stop()
        setup_people(cls.d)
        cls.d.start()
        cls.tok = {pid: sign_in(cls.d, pid) for pid, _, _ in PEOPLE}

    def post(self, path, body, who, status=201):
        return self.ok("POST", "/api/v1" + path, body, status=status, token=self.tok[who])

    def test_1_property_beside_the_tables(self):
        js = self.ok("GET", "/api/v1/tables", token=AUDITOR)
        self.assertTrue(js["tables"])
        lim = self.ok("GET", "/api/v1/reports/title31?gaming_day=" + current_gaming_day(), token=AUDITOR)["limits"]
        self.assertEqual(js["property"], {"time_zone": "America/New_York", "chips": [100, 500, 2500],
                                          "shifts": PROPERTY["shifts"], "gaming_day": current_gaming_day(),
                                          "title31": {k: lim[k] for k in ("mtl_threshold", "alert_at", "ctr_over")}})

    def test_2_a_days_documents(self):
        day = current_gaming_day()
        empty = self.ok("GET", "/api/v1/tables/T2/documents", token=PITBOSS_TOKEN)
        self.assertEqual(empty, {"table": "T2", "gaming_day": day, "documents": []})
        opener = self.post("/tables/T2/inventory", {"kind": "opener", "chips": {"2500": 4, "100": 3},
                                                   "witness": witness("DL1")}, "FL1")
        fill = self.post("/tables/T2/fills", {"serial": "DOC-F1", "chips": {"500": 2}, "runner": "RN1",
                                              "witness": witness("PB1")}, "CG1")
        kept = self.post("/tables/T2/credits", {"serial": "DOC-C1", "chips": {"100": 2}, "witness": witness("PB1")}, "CG1")
        void = self.post("/tables/T2/fills/DOC-F1/void", {"reason": "wrong table", "witness": witness("PB1")}, "FL1")
        drop = self.post("/tables/T2/drop", {"box": "D-T2", "count": count_sheet(12000), "witnesses": count_team(),
                                             "gaming_day": day}, "CT1")
        js = self.ok("GET", "/api/v1/tables/T2/documents?gaming_day=" + day, token=AUDITOR)
        self.assertEqual(js["gaming_day"], day)
        docs = js["documents"]
        self.assertEqual([d["id"] for d in docs], [opener["id"], fill["id"], kept["id"], void["id"], drop["id"]])
        self.assertEqual([d["type"] for d in docs], ["opener", "fill", "credit", "fill_void", "drop"])
        self.assertEqual(docs[0]["total"], 10300)
        self.assertEqual((docs[0]["signer"], docs[0]["witness"]), ("FL1", "DL1"))
        self.assertEqual(docs[1]["voided"], {"id": void["id"], "at": void["at"], "reason": "wrong table",
                                             "signer": "FL1", "witness": "PB1"})
        self.assertIsNone(docs[2]["voided"])
        self.assertEqual(docs[3]["voids"], fill["id"])
        self.assertEqual((docs[4]["box"], docs[4]["cash"], docs[4]["signer"], docs[4]["witness"]),
                         ("D-T2", 12000, "CT1", "CT2"))
        # Each document as its POST answered it (and nothing of T2's at T1).
        self.assertEqual({k: v for k, v in docs[0].items()}, opener)
        self.assertEqual(self.ok("GET", "/api/v1/tables/T1/documents", token=AUDITOR)["documents"], [])
        # Another day: nothing.
        self.assertEqual(self.ok("GET", "/api/v1/tables/T2/documents?gaming_day=2020-01-01",
                                 token=AUDITOR)["documents"], [])

    def test_3_refusals(self):
        st, js = self.call("GET", "/api/v1/tables/T2/documents?day=2026-01-01", token=AUDITOR)
        self.assertEqual((st, js["error"]["code"]), (400, "unknown_parameter"))
        self.assertIn("gaming_day", js["error"]["message"])
        st, js = self.call("GET", "/api/v1/tables/T2/documents?gaming_day=yesterday", token=AUDITOR)
        self.assertEqual((st, js["error"]["code"]), (400, "invalid_query"))
        self.assertIn("YYYY-MM-DD", js["error"]["message"])
        st, js = self.call("GET", "/api/v1/tables/NOPE/documents", token=AUDITOR)
        self.assertEqual((st, js["error"]["code"]), (404, "table_not_found"))
        st, js = self.call("GET", "/api/v1/tables/T2/documents", token=None)
        self.assertEqual(st, 401)


if __name__ == "__main__":
    unittest.main()
