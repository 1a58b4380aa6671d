"""
The signatures of the accounting documents under accounting.signatures
"nj", the default (docs/accounting.md "Who signs": N.J.A.C. 13:69D-1.21,
1.33, 1.34), and "basic", against the real daemon:

- an opener or closer is signed by the dealer and a floor supervisor or pit
  boss, either as the session and the other as witness: two floor
  supervisors, a floor supervisor and a pit boss, two dealers, no witness
  and one witness too many are each refused and change nothing;
- a fill or credit is issued by the cage's session with a floor supervisor
  or pit boss and the runner (security) as witnesses ("witnesses", in any
  order): without the runner, with two floor supervisors, a "runner" who did
  not sign, the cashier or a dealer as runner are refused;
- it is then received at the table (POST .../receipt) by the dealer's
  session and a floor witness or the other way round, once, never voided,
  only at its table; until then it is "pending" and left out of the master
  game's fills and credits (the figures computed here from the documents),
  and counted once received;
- under "basic" a slip with one witness is counted as issued, the dealer
  signs no opener, and nothing is pending;
- after accounting.pending_slip_minutes (on the test clock) a slip neither
  received nor voided is a pending_slip exception, until received;
- the other routes that take a "witness" take "witnesses" too (a payout
  correction), and a witnessed request's idempotency hash keeps no password.
"""
import datetime
import hashlib
import json
import random
import sys
import unittest

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
import pbtest  # noqa: E402
from pbtest import AUDITOR, PITBOSS_TOKEN  # noqa: E402
from test_reports import random_round  # noqa: E402

PEOPLE = pbtest.staff("FL1", "FL2", "PB1", "DL1", "DL2", "CG1", "CT1") + (
    ("CT2", "Lou Count", ["count"]),
    ("CT3", "Max Count", ["count"]),                  # the drop: three of the count team (accounting.count_team_min)
    ("SC1", "Sid Security", ["security"]),            # runners
    ("SC2", "Sol Security", ["security"]),
    ("SD1", "Dale Both", ["security", "dealer"]),     # a runner who also deals: refused as a runner
)
PENDING_MINUTES = 10
NJ = {"accounting": {"pending_slip_minutes": PENDING_MINUTES}}      # "nj" by default
BASIC = {"accounting": {"pending_slip_minutes": PENDING_MINUTES, "signatures": "basic"}}


def w(pid):
    return pbtest.staff_witness(pid)


def chips_total(chips):
    return sum(int(d) * n for d, n in chips.items())


class Signatures(pbtest.StaffTestCase):
    daemon_kwargs = {"clock": True, "overrides": NJ}
    PEOPLE = PEOPLE

    # ---- helpers ----

    def post(self, path, body, who, status=201):
        return self.ok("POST", "/api/v1" + path, body, status=status, token=self.tok[who])

    def refuse(self, status, code, path, body, who):
        token = self.tok[who] if who in self.tok else who
        return self.refused(status, code, "POST", "/api/v1" + path, body, token=token)

    def gaming_day(self):
        return self.ok("GET", "/api/v1/tables", token=PITBOSS_TOKEN)["property"]["gaming_day"]

    def row(self, table, day=None):
        q = "gaming_day=%s&table=%s" % (day or self.gaming_day(), table)
        return self.ok("GET", "/api/v1/reports/master-game?" + q, token=PITBOSS_TOKEN)["tables"][0]

    def documents(self, table):
        return self.ok("GET", "/api/v1/tables/%s/documents" % table, token=PITBOSS_TOKEN)["documents"]

    def event_body(self, table, doc_id):
        for (body,) in self.d.db_rows("SELECT body FROM events WHERE table_id = ? ORDER BY id", (table,)):
            b = json.loads(body)
            if b.get("id") == doc_id and "gaming_day" in b:
                return b
        self.fail("no event of document %d at %s" % (doc_id, table))

    def pending_exceptions(self, table=None):
        day = datetime.date.fromisoformat(self.gaming_day())
        q = "from=%s&to=%s" % (day - datetime.timedelta(days=1), day + datetime.timedelta(days=2))
        if table:
            q += "&table=" + table
        js = self.ok("GET", "/api/v1/reports/exceptions?" + q, token=PITBOSS_TOKEN)
        return [e for e in js["exceptions"] if e["kind"] == "pending_slip"]

    # ---- the tests, in order ----

    def test_1_opener_and_closer_by_the_dealer_and_the_floor(self):
        inv = "/tables/T1/inventory"
        chips = {"2500": 40, "500": 10}
        body = {"kind": "opener", "chips": chips}
        # two floor supervisors, a floor supervisor and a pit boss: no dealer signed
        err = self.refuse(403, "witness_required", inv, dict(body, witness=w("FL2")), "FL1")
        self.assertIn("the dealer", err["message"])
        self.refuse(403, "witness_required", inv, dict(body, witnesses=[w("PB1")]), "FL1")
        # two dealers: no floor supervisor signed
        err = self.refuse(403, "witness_required", inv, dict(body, witness=w("DL2")), "DL1")
        self.assertIn("a floor supervisor or pit boss", err["message"])
        # one signer only, one signer too many, a role that signs no opener
        self.refuse(403, "witness_required", inv, body, "DL1")
        self.refuse(403, "witness_required", inv, dict(body, witnesses=[]), "FL1")
        self.refuse(400, "invalid_witness", inv, dict(body, witnesses=[w("FL1"), w("PB1")]), "DL1")
        self.refuse(400, "invalid_witness", inv, dict(body, witness=w("DL1"), witnesses=[w("DL1")]), "FL1")
        self.refuse(403, "forbidden", inv, dict(body, witness=w("DL1")), "CG1")
        self.refuse(403, "witness_same_person", inv, dict(body, witness=w("DL1")), "DL1")
        self.assertEqual(self.d.db_value("SELECT count(*) FROM acct_documents"), 0)
        # the dealer and a floor supervisor, either way round; a pit boss as the floor's signer
        o = self.post(inv, dict(body, witness=w("DL1")), "FL1")
        self.assertEqual((o["signer"], o["witness"], o["witnesses"], o["total"]), ("FL1", "DL1", ["DL1"], chips_total(chips)))
        c = self.post(inv, {"kind": "closer", "chips": chips, "witnesses": [w("FL1")]}, "DL1")
        self.assertEqual((c["signer"], c["witness"], c["witnesses"]), ("DL1", "FL1", ["FL1"]))
        o2 = self.post(inv, dict(body, witness=w("PB1")), "DL2")
        self.assertEqual((o2["signer"], o2["witness"], o2["discrepancy"]), ("DL2", "PB1", 0))
        # the event keeps "witness" (the first) and every witness
        ev = self.event_body("T1", c["id"])
        self.assertEqual((ev["signer"], ev["witness"], ev["witnesses"]), ("DL1", "FL1", ["FL1"]))
        self.assertEqual(self.d.db_value("SELECT witnesses FROM acct_documents WHERE id = ?", (o["id"],)), '["DL1"]')

    def test_2_slips_signed_by_the_floor_and_the_runner(self):
        fills = "/tables/T2/fills"
        good = {"serial": "SF-1", "chips": {"2500": 8}}
        err = self.refuse(403, "witness_required", fills, dict(good, witness=w("PB1")), "CG1")
        self.assertIn("the runner (security)", err["message"])
        err = self.refuse(403, "witness_required", fills, dict(good, witnesses=[w("PB1"), w("FL1")]), "CG1")
        self.assertIn("needs the signature of the runner (security)", err["message"])
        signed = [w("PB1"), w("SC1")]
        err = self.refuse(422, "invalid_runner", fills, dict(good, runner="SC2", witnesses=signed), "CG1")
        self.assertIn("SC1", err["message"])
        self.refuse(422, "invalid_runner", fills, dict(good, runner="CG1", witnesses=signed), "CG1")     # the cashier
        self.refuse(422, "invalid_runner", fills, dict(good, runner="DL1", witnesses=signed), "CG1")     # a dealer
        self.refuse(422, "invalid_runner", fills, dict(good, witnesses=[w("PB1"), w("SD1")]), "CG1")   # a dealer signs
        self.refuse(403, "witness_same_person", fills, dict(good, witnesses=[w("PB1"), w("PB1")]), "CG1")
        self.refuse(403, "forbidden", fills, dict(good, witnesses=signed), "FL1")
        self.assertEqual(self.d.db_value("SELECT count(*) FROM acct_documents WHERE table_id = 'T2'"), 0)
        # the runner's signature in either order; "runner" left out, or naming him
        f = self.post(fills, dict(good, witnesses=[w("SC1"), w("PB1")]), "CG1")
        self.assertEqual((f["signer"], f["witness"], f["witnesses"], f["runner"], f["status"]),
                         ("CG1", "PB1", ["PB1", "SC1"], "SC1", "pending"))
        self.assertEqual(f["total"], chips_total(good["chips"]))
        c = self.post("/tables/T2/credits", {"serial": "SC-1", "chips": {"500": 6}, "runner": "sc2",
                                             "witnesses": [w("FL1"), w("SC2")]}, "CG1")
        self.assertEqual((c["runner"], c["witnesses"], c["status"]), ("SC2", ["FL1", "SC2"], "pending"))
        ev = self.event_body("T2", f["id"])
        self.assertEqual((ev["witness"], ev["witnesses"], ev["runner"]), ("PB1", ["PB1", "SC1"], "SC1"))

    def test_3_received_at_the_table_then_counted(self):
        T, day = "T3", self.gaming_day()
        opener, fill, credit, sold = {"2500": 40}, {"2500": 12}, {"500": 10}, 15000
        O, F, C = chips_total(opener), chips_total(fill), chips_total(credit)
        self.post("/tables/T3/inventory", {"kind": "opener", "chips": opener, "witness": w("DL1")}, "FL1")
        slip = [w("PB1"), w("SC1")]
        f = self.post("/tables/T3/fills", {"serial": "RF-1", "chips": fill, "witnesses": slip}, "CG1")
        c = self.post("/tables/T3/credits", {"serial": "RC-1", "chips": credit, "witnesses": slip}, "CG1")
        self.post("/tables/T3/fills", {"serial": "RF-2", "chips": {"2500": 4}, "witnesses": slip}, "CG1")
        self.post("/tables/T3/fills/RF-2/void", {"reason": "written for T2", "witness": w("PB1")}, "FL1")
        # the tray received the fill, gave up the credit and the chips sold for the drop's cash: the closer
        K = O + F - C - sold
        self.post("/tables/T3/inventory", {"kind": "closer", "chips": {"2500": K // 2500, "100": K % 2500 // 100},
                                           "witness": w("DL1")}, "FL1")
        self.post("/tables/T3/drop", {"box": "D-T3", "count": {"cash": {"10000": sold // 10000, "100": sold % 10000 // 100}},
                                      "witnesses": [w("CT2"), w("CT3")], "gaming_day": day}, "CT1")
        # pending: neither slip counts; the count win is what the documents give without them
        row = self.row(T, day)
        self.assertEqual((row["fills"], row["credits"], row["documents"]["fills"], row["documents"]["credits"]), (0, 0, 0, 0))
        self.assertEqual((row["win"], row["hand_win"]), (sold + K - O, 0))
        statuses = {d["serial"]: d["status"] for d in self.documents(T) if d["type"] in ("fill", "credit")}
        self.assertEqual(statuses, {"RF-1": "pending", "RC-1": "pending", "RF-2": "void"})
        # refusals of a receipt, each changing nothing
        receipt = "/tables/T3/fills/RF-1/receipt"
        self.refuse(403, "forbidden", receipt, {"witness": w("DL1")}, "CG1")
        self.refuse(403, "person_required", receipt, {"witness": w("DL1")}, PITBOSS_TOKEN)
        err = self.refuse(403, "witness_required", receipt, {"witness": w("FL2")}, "FL1")      # no dealer signed
        self.assertIn("the dealer", err["message"])
        self.refuse(403, "witness_required", receipt, {}, "DL1")
        self.refuse(400, "unknown_field", receipt, {"witness": w("FL1"), "chips": fill}, "DL1")
        self.refuse(404, "document_not_found", "/tables/T3/fills/RF-404/receipt", {"witness": w("FL1")}, "DL1")
        err = self.refuse(404, "document_not_found", "/tables/T2/fills/RF-1/receipt", {"witness": w("FL1")}, "DL1")
        self.assertIn("T3", err["message"])
        self.refuse(404, "document_not_found", "/tables/T3/credits/RF-1/receipt", {"witness": w("FL1")}, "DL1")
        self.refuse(409, "slip_voided", "/tables/T3/fills/RF-2/receipt", {"witness": w("FL1")}, "DL1")
        # the fill received by the dealer with the floor's signature: it counts
        r = self.post(receipt, {"witness": w("FL1")}, "DL1")
        self.assertEqual((r["type"], r["serial"], r["slip"], r["total"], r["signer"], r["witnesses"]),
                         ("fill_receipt", "RF-1", f["id"], F, "DL1", ["FL1"]))
        self.refuse(409, "already_received", receipt, {"witness": w("PB1")}, "DL2")
        row = self.row(T, day)
        self.assertEqual((row["fills"], row["credits"], row["documents"]["fills"]), (F, 0, 1))
        self.assertEqual(row["win"], sold + K - O - F)
        # the credit received by the floor with the dealer's signature: the count win is the hand win again
        self.post("/tables/T3/credits/RC-1/receipt", {"witnesses": [w("DL2")], "year": int(day[:4])}, "PB1")
        row = self.row(T, day)
        self.assertEqual((row["fills"], row["credits"]), (F, C))
        self.assertEqual((row["win"], row["variance"], row["flagged"]), (sold + K - O + C - F, 0, False))
        self.assertEqual(sold + K - O + C - F, 0)
        # the documents list every receipt beside its slip
        docs = self.documents(T)
        by_serial = {d["serial"]: d for d in docs if d["type"] in ("fill", "credit")}
        self.assertEqual(by_serial["RF-1"]["status"], "received")
        self.assertEqual((by_serial["RF-1"]["received"]["id"], by_serial["RF-1"]["received"]["signer"],
                          by_serial["RF-1"]["received"]["witnesses"]), (r["id"], "DL1", ["FL1"]))
        self.assertEqual((by_serial["RC-1"]["status"], by_serial["RC-1"]["received"]["signer"]), ("received", "PB1"))
        self.assertEqual((by_serial["RF-2"]["status"], by_serial["RF-2"]["received"]), ("void", None))
        self.assertEqual(sorted(d["type"] for d in docs if d["type"].endswith("_receipt")), ["credit_receipt", "fill_receipt"])
        evs = self.d.db_rows("SELECT type, body FROM events WHERE table_id = 'T3' AND type LIKE '%_received' ORDER BY id")
        self.assertEqual([e[0] for e in evs], ["fill_received", "credit_received"])
        self.assertEqual(json.loads(evs[1][1])["slip"], c["id"])

    def test_4_basic_signatures(self):
        self.d.write_config(dict(self.d.config, **BASIC))
        self.d.sighup()
        one = {"serial": "BF-1", "chips": {"2500": 2}, "runner": "FL2", "witness": w("PB1")}

        def accepted():
            st, js = self.call("POST", "/api/v1/tables/F1/fills", one, token=self.tok["CG1"])
            if st == 201:
                return js
            self.assertEqual((st, js["error"]["code"]), (403, "witness_required"), js)
            return None
        f = pbtest.wait_until("the reload to basic takes", accepted)
        self.assertEqual((f["status"], f["runner"], f["witnesses"]), ("issued", "FL2", ["PB1"]))
        row = self.row("F1")
        self.assertEqual((row["fills"], row["documents"]["fills"]), (5000, 1))
        # an opener: a dealer's session signs none, two floor supervisors do
        inv = {"kind": "opener", "chips": {"2500": 4}, "witness": w("FL1")}
        self.refuse(403, "forbidden", "/tables/F1/inventory", inv, "DL1")
        self.post("/tables/F1/inventory", dict(inv, witness=w("FL2")), "FL1")
        # every slip counts as issued, the ones issued under "nj" too, and none is pending
        self.assertEqual(self.row("T2")["fills"], 20000)
        self.assertEqual(self.pending_exceptions(), [])
        self.d.write_config(dict(self.d.config, **NJ))
        self.d.sighup()
        pbtest.wait_until("the reload to nj takes", lambda: self.row("T2")["fills"] == 0)

    def test_5_pending_slip_after_the_time(self):
        slip = [w("PB1"), w("SC1")]
        pf = self.post("/tables/T1/fills", {"serial": "PF-1", "chips": {"2500": 2}, "witnesses": slip}, "CG1")
        self.post("/tables/T1/fills", {"serial": "PF-2", "chips": {"2500": 2}, "witnesses": slip}, "CG1")
        self.post("/tables/T1/fills", {"serial": "PF-3", "chips": {"2500": 2}, "witnesses": slip}, "CG1")
        self.post("/tables/T1/fills/PF-2/void", {"reason": "keyed twice", "witness": w("FL1")}, "PB1")
        self.post("/tables/T1/fills/PF-3/receipt", {"witness": w("DL1")}, "FL1")
        self.assertEqual(self.pending_exceptions("T1"), [])
        self.d.advance_clock(60 * (PENDING_MINUTES - 1))
        self.assertEqual(self.pending_exceptions("T1"), [])
        self.d.advance_clock(60 * 2)
        got = self.pending_exceptions("T1")
        self.assertEqual([(e["table"], e["ref"], e["document"], e["slip"], e["serial"], e["amount"]) for e in got],
                         [("T1", str(pf["id"]), pf["id"], "fill", "PF-1", 5000)])
        self.assertIn("/api/v1/tables/T1/fills/PF-1/receipt", got[0]["detail"])
        self.assertIn("fill PF-1 of $%d.%02d issued by" % (5000 // 100, 5000 % 100), got[0]["detail"])
        self.assertEqual(got[0]["at"], pf["at"])
        # T2's slips of test 2 are pending too
        self.assertEqual(sorted(e["serial"] for e in self.pending_exceptions() if e["table"] == "T2"), ["SC-1", "SF-1"])
        self.post("/tables/T1/fills/PF-1/receipt", {"witness": w("FL1"), "year": pf["year"]}, "DL1")
        self.assertEqual(self.pending_exceptions("T1"), [])

    def test_6_witnesses_elsewhere(self):
        rng = random.Random(29)
        while True:                                      # a settled round with a payout line
            r = self.whole("F1", random_round(rng, 6, (500, 5000), (500, 2500), None, False))
            lines = self.ok("GET", "/api/v1/rounds/%d" % r["id"], token=AUDITOR)["round"]["payouts"]
            if lines:
                break
        line = lines[0]
        body = {"seat": line["seat"], "wager": line["wager"], "paid": line["net"] + 500, "reason": "overpaid",
                "witnesses": [w("FL1")]}
        st, js = self.d.call("POST", "/api/v1/rounds/%d/corrections" % r["id"], body, token=self.tok["PB1"],
                             idem="sig-correction-1")
        self.assertEqual(st, 201, js)
        self.assertEqual((js["by"], js["witness"]), ("PB1", "FL1"))
        # the request's hash is of the body without the witnesses' passwords (no unsalted hash of one is kept)
        kept = self.d.db_value("SELECT request_hash FROM idempotency WHERE key = 'sig-correction-1'")
        path = "/api/v1/rounds/%d/corrections" % r["id"]
        bare = dict(body, witnesses=[{"person": "FL1"}])
        text = json.dumps(bare, sort_keys=True, separators=(",", ":"))
        self.assertEqual(kept, hashlib.sha256(("POST %s\n%s" % (path, text)).encode()).hexdigest())
        self.refuse(400, "invalid_witness", "/rounds/%d/corrections" % r["id"],
                    dict(body, witnesses=[w("FL1"), w("FL2")]), "PB1")


if __name__ == "__main__":
    pbtest.main()
