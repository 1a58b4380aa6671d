"""
The table's accounting documents against the real daemon (API.md "Table
accounting", docs/accounting.md): openers and closers, fills and credits and
their voids, the drop, each signed by a person's session and a witness; the
master game report checked against figures this test computes from the
rounds it dealt (GET /rounds/{id} payouts): a table where the count win
equals the hand win to the cent, one with a deliberate mispay and one with a
fill that was never recorded; every refusal of a bad document, each changing
nothing; the exceptions (an opener's discrepancy, the count variances) and
their acknowledgment; accounting.require_opener.  Signed by accounting.signatures "basic" (one
witness each, slips counted when issued); the "nj" rules are
test_acct_signatures.py's.

People are written into the database while the daemon is stopped (as in
test_dealer.py), then sign in for their sessions.
"""
import random
import sys
import time
import unittest

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
import pbtest  # noqa: E402
from pbtest import DEALER, PITBOSS_TOKEN, AUDITOR  # noqa: E402
from test_reports import random_round  # noqa: E402

PEOPLE = (
    # id, name, roles
    ("FL1", "Flo Floor", ["floor"]),
    ("PB1", "Pat Boss", ["pitboss"]),
    ("DL1", "Dee Dealer", ["dealer"]),
    ("CG1", "Cy Cage", ["cage"]),
    ("CT1", "Kim Count", ["count"]),
    ("CT2", "Lou Count", ["count"]),
    ("CT3", "Max Count", ["count"]),
    ("RN1", "Ray Runner", ["floor"]),
    ("SC1", "Sal Security", ["security"]),     # a runner who signs (accounting.signatures "nj")
)
# These tests are of the figures, and sign by the second wave's rules; test_acct_signatures.py has "nj"'s.
BASIC = {"accounting": {"signatures": "basic"}}
PASSWORD = "the-right-one-%s"


def dollars(cents, whole=False):
    """An amount as the daemon's messages say it: 5000 -> "$50.00"; a chip (whole=True) 2500 -> "$25"."""
    sign, c = ("-" if cents < 0 else ""), abs(cents)
    if whole and c % 100 == 0:
        return "%s${:,}".format(c // 100) % sign
    return "%s${:,}.{:02d}".format(c // 100, c % 100) % sign


def witness(pid):
    return {"person": pid, "password": PASSWORD % pid}


def chips_of(total):
    """A count of chips for an amount: $25 chips, then $1 chips."""
    assert total >= 0 and total % 100 == 0, total
    return {"2500": total // 2500, "100": total % 2500 // 100}


def count_sheet(cash, chips=0, markers=0):
    """A drop's count sheet of these amounts: $100 and $1 bills, $25 and $1 chips, the markers."""
    assert cash % 100 == 0, cash
    bills = {k: v for k, v in (("10000", cash // 10000), ("100", cash % 10000 // 100)) if v}
    return {"cash": bills, "chips": chips_of(chips) if chips else {}, "markers": markers}


def count_team():
    """The drop's witnesses: with CT1's session, the three of the count team accounting.count_team_min asks."""
    return [witness("CT2"), witness("CT3")]


def today():
    return time.strftime("%Y-%m-%d", time.gmtime())


def setup_people(d):
    """Writes PEOPLE into d's database (d stopped)."""
    for pid, name, roles in PEOPLE:
        pbtest.add_person(d, pid, name, roles, PASSWORD % pid)


def sign_in(d, pid):
    st, js = d.call("POST", "/api/v1/sessions", {"person": pid, "password": PASSWORD % pid}, token=None)
    assert st == 201, (st, js)
    return js["token"]


class Accounting(pbtest.DaemonTestCase):
    daemon_kwargs = {"overrides": BASIC}

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.d.stop()
        setup_people(cls.d)
        cls.d.start()
        cls.tok = {pid: sign_in(cls.d, pid) for pid, _, _ in PEOPLE}
        cls.rng = random.Random(18)

    # ---- helpers ----

    def post(self, path, body, who, status=201):
        return self.ok("POST", "/api/v1" + path, body, status=status, token=self.tok[who])

    def opener(self, table, chips, reason=None, status=201):
        body = {"kind": "opener", "chips": chips, "witness": witness("DL1")}
        if reason is not None:
            body["reason"] = reason
        return self.post("/tables/%s/inventory" % table, body, "FL1", status)

    def closer(self, table, chips):
        return self.post("/tables/%s/inventory" % table, {"kind": "closer", "chips": chips, "witness": witness("DL1")}, "FL1")

    def fill(self, table, serial, chips, kind="fills"):
        return self.post("/tables/%s/%s" % (table, kind), {"serial": serial, "chips": chips, "runner": "RN1",
                                                           "requester": "FL1", "witness": witness("PB1")}, "CG1")

    def drop(self, table, cash, chips=0, markers=0, **extra):
        body = dict({"box": "D-%s" % table, "count": count_sheet(cash, chips, markers), "witnesses": count_team(),
                     "gaming_day": today()}, **extra)
        return self.post("/tables/%s/drop" % table, body, "CT1")

    def deal(self, table, n, ante=(500, 5000), pp=(500, 2500)):
        """n rounds at table; the house's win computed from each round's payout lines."""
        win = 0
        for _ in range(n):
            r = self.whole(table, random_round(self.rng, 6, ante, pp, None, False))
            got = self.ok("GET", "/api/v1/rounds/%d" % r["id"], token=AUDITOR)["round"]
            win -= sum(p["net"] for p in got["payouts"])
        return win

    def master(self, table=None, **params):
        q = "gaming_day=%s" % today() + ("&table=%s" % table if table else "")
        for k, v in params.items():
            q += "&%s=%s" % (k, v)
        return self.ok("GET", "/api/v1/reports/master-game?" + q, token=PITBOSS_TOKEN)

    def exceptions(self, kind):
        js = self.ok("GET", "/api/v1/reports/exceptions", token=PITBOSS_TOKEN)
        return [e for e in js["exceptions"] if e["kind"] == kind]

    # ---- the tests, in order ----

    def test_1_refusals_change_nothing(self):
        inv = "/api/v1/tables/T1/inventory"
        good = {"kind": "opener", "chips": {"2500": 40}, "witness": witness("DL1")}

        def bad(status, code, path, body, who="FL1", **kw):
            token = kw.pop("token", None) or self.tok[who]
            return self.refused(status, code, "POST", path, body, token=token)

        bad(403, "witness_required", inv, {"kind": "opener", "chips": {"2500": 40}})               # one signer
        bad(403, "forbidden", inv, good, who="CG1")                                                  # wrong role
        bad(403, "forbidden", inv, good, who="DL1")
        bad(403, "person_required", inv, good, token=PITBOSS_TOKEN)                                  # a terminal
        bad(403, "witness_refused", "/api/v1/tables/T1/fills",
            {"serial": "F-1", "chips": {"2500": 1}, "witness": witness("DL1")}, who="CG1")           # witness's role
        bad(403, "forbidden", "/api/v1/tables/T1/fills", {"serial": "F-1", "chips": {"2500": 1}, "witness": witness("PB1")})
        bad(403, "witness_same_person", inv, dict(good, witness=witness("FL1")))
        bad(403, "witness_refused", inv, dict(good, witness={"person": "DL1", "password": "wrong"}))
        err = bad(400, "invalid_count", inv, dict(good, chips={"2500": -1}))                         # negative chips
        self.assertIn("2500", err["message"])
        bad(400, "invalid_count", inv, dict(good, chips={"2500": 1.5}))
        bad(400, "invalid_count", inv, dict(good, chips={"2500": 100001}))
        err = bad(400, "unknown_denomination", inv, dict(good, chips={"300": 1}))                    # unknown denomination
        self.assertIn("100, 500, 2500, 10000", err["message"])
        bad(400, "empty_chips", inv, dict(good, chips={}))
        bad(400, "unknown_field", inv, dict(good, colour="red"))
        bad(400, "invalid_body", inv, dict(good, kind="middle"))
        bad(404, "table_not_found", "/api/v1/tables/NOPE/inventory", good)
        fills = "/api/v1/tables/T1/fills"
        bad(400, "invalid_body", fills, {"chips": {"2500": 1}, "witness": witness("PB1")}, who="CG1")       # no serial
        bad(400, "invalid_body", fills, {"serial": "F 1", "chips": {"2500": 1}, "witness": witness("PB1")}, who="CG1")
        bad(422, "unknown_person", fills, {"serial": "F-9", "chips": {"2500": 1}, "runner": "NOBODY",
                                           "witness": witness("PB1")}, who="CG1")
        drop = "/api/v1/tables/T1/drop"
        dbody = {"box": "D-1", "count": count_sheet(100), "witnesses": count_team(), "gaming_day": today()}
        bad(400, "invalid_count", drop, dict(dbody, count={"cash": {"100": -1}}), who="CT1")            # negative cash
        bad(400, "invalid_body", drop, dict(dbody, collections=100), who="CT1")                         # house-banked
        bad(400, "invalid_body", drop, dict(dbody, gaming_day="yesterday"), who="CT1")
        bad(403, "witness_refused", drop, dict(dbody, witnesses=[witness("CT2"), witness("PB1")]), who="CT1")
        bad(404, "document_not_found", "/api/v1/tables/T1/fills/F-404/void", {"reason": "x", "witness": witness("PB1")})
        bad(422, "reason_required", "/api/v1/tables/T1/fills/F-404/void", {"witness": witness("PB1")})
        self.assertEqual(self.d.db_value("SELECT count(*) FROM acct_documents"), 0)
        st, js = self.call("GET", "/api/v1/reports/master-game?gaming_day=2026-13-01", token=PITBOSS_TOKEN)
        self.assertEqual((st, js["error"]["code"]), (400, "invalid_query"))
        st, js = self.call("GET", "/api/v1/reports/master-game?shift=night", token=PITBOSS_TOKEN)
        self.assertEqual((st, js["error"]["code"]), (400, "invalid_query"))
        st, js = self.call("GET", "/api/v1/reports/master-game", token=DEALER)
        self.assertEqual(st, 403)

    def test_2_a_day_that_reconciles(self):
        """T1: opener, fills, credits, rounds, closer and drop; count win = hand win to the cent."""
        opener_chips = {"2500": 40, "500": 40, "100": 100}                      # 130000
        o = self.opener("T1", opener_chips)                                      # the table's first: no reason needed
        self.assertEqual(o["total"], 130000)
        self.assertIsNone(o["discrepancy"])
        f = self.fill("T1", "F-1001", {"2500": 20})                              # 50000 into the tray
        self.assertEqual((f["total"], f["runner"], f["requester"], f["signer"], f["witness"]), (50000, "RN1", "FL1", "CG1", "PB1"))
        c = self.fill("T1", "C-2001", {"500": 10}, kind="credits")              # 5000 out of it
        self.assertEqual(c["total"], 5000)
        self.fill("T1", "F-1002", {"2500": 4})                                   # recorded by mistake, then voided
        v = self.post("/tables/T1/fills/F-1002/void", {"reason": "wrong table", "witness": witness("PB1")}, "FL1")
        self.assertEqual((v["voids"], v["total"]), (f["id"] + 2, 10000))
        # refusals after the fact: the serial reused, the void again
        self.refused(409, "duplicate_serial", "POST", "/api/v1/tables/T1/fills",
                     {"serial": "F-1001", "chips": {"2500": 1}, "witness": witness("PB1")}, token=self.tok["CG1"])
        self.refused(409, "already_voided", "POST", "/api/v1/tables/T1/fills/F-1002/void",
                     {"reason": "again", "witness": witness("PB1")}, token=self.tok["FL1"])
        hand_win = self.deal("T1", 12)
        sold = 30000                                                             # chips sold for cash, into the drop box
        closer_total = 130000 + 50000 - 5000 - sold + hand_win
        self.closer("T1", chips_of(closer_total))
        self.drop("T1", sold)
        row = self.master("T1")["tables"][0]
        self.assertEqual(row["table"], "T1")
        want = {"opener": 130000, "closer": closer_total, "fills": 50000, "credits": 5000, "drop": sold,
                "win": hand_win, "hand_win": hand_win, "variance": 0, "flagged": False}
        self.assertEqual({k: row[k] for k in want}, want)
        self.assertAlmostEqual(row["win_per_drop"], hand_win / sold)
        self.assertEqual(row["documents"]["fills"], 1, "the voided fill counts for nothing")
        # CSV: a row per table and the total
        st, hdrs, raw = self.d.request("GET", "/api/v1/reports/master-game?gaming_day=%s&table=T1&format=csv" % today(),
                                       token=PITBOSS_TOKEN)
        self.assertEqual(st, 200)
        lines = raw.decode().split("\r\n")
        self.assertEqual(lines[0], "table,opener,closer,fills,credits,drop,win,win_per_drop,hand_win,variance,"
                                   "variance_percent,flagged,complete,discrepancy,mispays,voids,pending_slips,"
                                   "unexplained,investigation")
        self.assertTrue(lines[1].startswith("T1,130000,%d,50000,5000,%d,%d," % (closer_total, sold, hand_win)), lines[1])
        self.assertTrue(lines[2].startswith("total,"), lines[2])
        # every document is an event of the table's chain, signed by both
        evs = self.d.db_rows("SELECT type, actor, body FROM events WHERE table_id = 'T1' AND type IN "
                             "('inventory', 'fill', 'credit', 'fill_void', 'drop') ORDER BY id")
        self.assertEqual([e[0] for e in evs], ["inventory", "fill", "credit", "fill", "fill_void", "inventory", "drop"])
        self.assertIn('"gaming_day":"%s"' % today(), evs[0][2])
        self.assertEqual(self.d.db_value("SELECT count(*) FROM acct_documents"), 7)

    def test_3_opener_against_the_last_closer(self):
        closer = self.d.db_rows("SELECT id, total, chips_json FROM acct_documents WHERE table_id = 'T1' AND kind = 'closer'")[0]
        import json
        was = json.loads(closer[2])
        short = dict(was, **{"100": was.get("100", 0) + 0})
        short["2500"] = was["2500"] - 2                                             # 5000 short
        err = self.refused(409, "opener_discrepancy", "POST", "/api/v1/tables/T1/inventory",
                           {"kind": "opener", "chips": short, "witness": witness("DL1")}, token=self.tok["FL1"])
        self.assertIn("%d x %s (was %d)" % (short["2500"], dollars(2500, whole=True), was["2500"]), err["message"])
        self.assertIn("the opener is %s short of the table's last closer" % dollars(2 * 2500), err["message"])
        self.assertNotIn("cents", err["message"])
        o = self.opener("T1", short, reason="two $25 chips found on the floor, handed to security")
        self.assertEqual(o["discrepancy"], -5000)
        ex = self.exceptions("inventory_discrepancy")
        self.assertEqual(len(ex), 1, ex)
        self.assertEqual((ex[0]["table"], ex[0]["ref"], ex[0]["level"], ex[0]["amount"], ex[0]["acknowledged"]),
                         ("T1", str(o["id"]), "reported", -5000, None))
        ack = {"kind": "inventory_discrepancy", "table": "T1", "ref": str(o["id"]), "note": "security has the chips"}
        self.refused(403, "forbidden", "POST", "/api/v1/exceptions/acknowledgments", ack, token=self.tok["FL1"])
        self.refused(404, "exception_not_found", "POST", "/api/v1/exceptions/acknowledgments",
                     dict(ack, ref=str(closer[0])), token=self.tok["PB1"])
        got = self.post("/exceptions/acknowledgments", ack, "PB1")
        self.assertEqual(got["acknowledged"]["by"], "PB1")
        self.refused(409, "already_acknowledged", "POST", "/api/v1/exceptions/acknowledgments", ack, token=self.tok["PB1"])
        ex = self.exceptions("inventory_discrepancy")
        self.assertEqual((ex[0]["acknowledged"]["by"], ex[0]["acknowledged"]["note"]), ("PB1", "security has the chips"))
        self.assertEqual(self.d.db_value("SELECT count(*) FROM events WHERE type = 'exception_acknowledged'"), 1)
        # the report's opener is still the day's first
        self.assertEqual(self.master("T1")["tables"][0]["opener"], 130000)

    def test_4_a_mispay_and_a_missing_fill(self):
        """T2: the dealer overpaid X (the tray is X short); F1: a fill reached the tray without its slip."""
        mispay, missing = 1500, 10000
        self.opener("T2", {"2500": 40})
        self.opener("F1", {"2500": 40})
        win_t2 = self.deal("T2", 8, ante=(1000, 5000), pp=(1000, 2500))
        win_f1 = self.deal("F1", 8, ante=(200, 5000), pp=(200, 2500))
        sold = 30000
        self.closer("T2", chips_of(100000 - sold + win_t2 - mispay))
        self.closer("F1", chips_of(100000 + missing - sold + win_f1))
        self.drop("T2", 20000, chips=5000, markers=5000)                         # 30000 in all
        self.drop("F1", sold)
        report = self.master()
        rows = {r["table"]: r for r in report["tables"]}
        self.assertEqual((rows["T2"]["win"], rows["T2"]["hand_win"], rows["T2"]["variance"]), (win_t2 - mispay, win_t2, -mispay))
        self.assertAlmostEqual(rows["T2"]["variance_percent"], -100.0 * mispay / sold)
        self.assertTrue(rows["T2"]["flagged"], "5% of the drop")
        self.assertEqual((rows["F1"]["win"], rows["F1"]["variance"]), (win_f1 + missing, missing))
        self.assertTrue(rows["F1"]["flagged"])
        # T1 was opened again in test_3 and has no closer since: its row is incomplete, not flagged, out of the total
        self.assertEqual((rows["T1"]["complete"], rows["T1"]["win"], rows["T1"]["variance"], rows["T1"]["flagged"]),
                         (False, None, None, False))
        total = report["total"]
        complete = [r for r in report["tables"] if r["complete"]]
        self.assertEqual(sorted(r["table"] for r in complete), ["F1", "T2"])
        for k in ("fills", "credits", "drop", "win", "hand_win", "variance"):
            self.assertEqual(total[k], sum(r[k] for r in complete), k)
        self.assertEqual((total["complete"], total["incomplete"]), (False, ["T1"]))
        ex = {e["table"]: e for e in self.exceptions("count_variance")}
        self.assertEqual(sorted(ex), ["F1", "T2"])
        self.assertEqual((ex["T2"]["ref"], ex["T2"]["variance"]), (today(), -mispay))
        self.assertIn("a variance of %s" % dollars(-mispay), ex["T2"]["detail"])
        self.assertNotIn("cents", ex["T2"]["detail"])
        ack = {"kind": "count_variance", "table": "T2", "ref": today(), "note": "surveillance: overpaid pair plus, seat 3"}
        self.refused(404, "exception_not_found", "POST", "/api/v1/exceptions/acknowledgments", dict(ack, table="T1"),
                     token=self.tok["PB1"])
        self.post("/exceptions/acknowledgments", ack, "PB1")
        ex = {e["table"]: e for e in self.exceptions("count_variance")}
        self.assertEqual(ex["T2"]["acknowledged"]["by"], "PB1")
        self.assertIsNone(ex["F1"]["acknowledged"])

    def test_5_player_banked(self):
        """P1: the house's win is its collection fees; counted in the drop, they match the rounds' to the cent."""
        self.opener("P1", {"500": 20})
        fees = 0
        for banker in (1, 2, 3, 4, 5):
            r = self.whole("P1", random_round(self.rng, 8, (500, 5000), (500, 2500), None, False, banker=banker))
            fees += self.ok("GET", "/api/v1/rounds/%d" % r["id"], token=AUDITOR)["round"]["collections"]["total"]
        self.assertGreater(fees, 0)
        self.closer("P1", {"500": 20})                   # the players bank the game: the tray does not move
        self.refused(400, "invalid_amount", "POST", "/api/v1/tables/P1/drop",
                     {"box": "D-P1", "count": {}, "collections": -5, "witnesses": count_team(), "gaming_day": today()},
                     token=self.tok["CT1"])
        self.drop("P1", 0, collections=fees)
        row = self.master("P1")["tables"][0]
        self.assertTrue(row["player_banked"])
        self.assertEqual((row["drop"], row["win"], row["hand_win"], row["variance"]), (fees, fees, fees, 0))

    def test_6_require_opener(self):
        cfg = dict(self.d.config, accounting=dict(BASIC["accounting"], require_opener=True))
        self.d.write_config(cfg)
        self.d.sighup()
        answer = []

        def refused():
            st, js = self.call("POST", "/api/v1/tables/T3/rounds", {})
            answer[:] = [js]
            if st == 201:
                self.void(js["round"]["id"])
                return False
            self.assertEqual(st, 409, js)
            return True
        pbtest.wait_until("the reload takes", refused)
        js = answer[0]
        self.assertEqual(js["error"]["code"], "opener_required")
        self.assertIn("POST /api/v1/tables/T3/inventory", js["error"]["message"])
        self.opener("T3", {"2500": 40})
        self.open_round("T3")
        self.d.write_config(self.d.config)
        self.d.sighup()

    def test_9_altered_rows_caught_by_verify(self):
        """The master game report reads the document rows: a row altered or added is caught by pitboss verify."""
        self.post("/tables/T1/fills", {"serial": "F-990001", "chips": {"2500": 4}, "runner": "RN1",
                                      "witness": witness("PB1")}, "CG1")
        fill = {}

        def alter(conn):
            conn.execute("DROP TRIGGER acct_documents_no_update")
            fill["id"] = conn.execute("SELECT max(id) FROM acct_documents WHERE kind = 'fill'").fetchone()[0]
            conn.execute("UPDATE acct_documents SET total = total - 2500 WHERE id = ?", (fill["id"],))
            conn.execute("INSERT INTO acct_documents (id, table_id, kind, at, gaming_day, total, signer, witness) "
                         "SELECT max(id) + 1, 'T1', 'credit', at, gaming_day, 50000, signer, witness "
                         "FROM acct_documents")
        rc, out, err = self.d.verify_altered_copy(alter)
        self.assertEqual(rc, 1, out + err)
        self.assertRegex(out, r"PROBLEM .*accounting document %d: its row's chips or total differs from its event"
                         % fill["id"])
        self.assertIn("1 accounting document rows have no event in any chain", out)


if __name__ == "__main__":
    pbtest.main()
