"""
The cash controls of Title 31 against the real daemon (docs/players.md, "Cash controls"; API.md
"Cash controls"), one rule at a time, every figure computed here from the amounts sent:

- the types of a table's and the cage's transactions, and the kinds and directions each takes;
- identification before the limit (31 CFR 1010.312), across a table and the cage: at the limit
  accepted, one cent over refused with nothing recorded, accepted once the record holds id_type
  and id_number; the alert's warning ahead of time;
- a void (with a witness) takes a transaction out of every aggregate and keeps it, marked;
- a merge of two records of one patron raises the CTR the two together make;
- an anonymous patron named later keeps the MTL entries written while he was anonymous;
- a CTR item's life: open, identified, filed with its BSA id, amended; notes; due 15 days after
  the gaming day, overdue after it (the test clock moves 16 days on) and listed as an exception;
- pitboss verify names an altered void, merge or note row.

tests/integration/test_cash_controls.py scripts a whole gaming day and compares every aggregate
with a model of its own; tests/unit/test_title31.c has the aggregation's arithmetic.
"""
import csv
import io
import sys
import unittest

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
import pbtest  # noqa: E402

PEOPLE = pbtest.staff("FL1", "FL2", "PB1", "CG1", "CG2", "DL1", "AU1")
CTR_OVER, ALERT_AT, MTL = 1000000, 800000, 300000       # the defaults of title31.*
ID = {"id_type": "passport", "id_number": "X1234567"}
witness = pbtest.staff_witness     # {"person", "password"} of one of PEOPLE


def dollars(cents):
    return "${:,}.{:02d}".format(cents // 100, cents % 100)


class CashControls(pbtest.StaffTestCase):
    daemon_kwargs = {"clock": True}
    PEOPLE = PEOPLE

    @classmethod
    def sign_in(cls):
        cls.tok = pbtest.sign_in_staff(cls.d, PEOPLE)

    def as_(self, who, method, path, body=None, status=200):
        return self.ok(method, "/api/v1" + path, body, status=status, token=self.tok.get(who, who))

    def register(self, body):
        return self.as_("CG1", "POST", "/players", body, status=201)["id"]

    def table(self, player, amount, direction="in", table="T1", who="FL1", **extra):
        body = dict({"seat": 2, "player": player, "direction": direction, "kind": "cash", "amount": amount}, **extra)
        return self.as_(who, "POST", "/tables/%s/transactions" % table, body, status=201)

    def cage(self, player, amount, direction="in", type_="front_money", **extra):
        body = dict({"player": player, "direction": direction, "type": type_, "amount": amount}, **extra)
        return self.as_("CG1", "POST", "/cage/transactions", body, status=201)

    def report(self, day):
        return self.as_("PB1", "GET", "/reports/title31?gaming_day=%s" % day)

    def ctr_of(self, day, player, direction="in"):
        items = [c for c in self.report(day)["ctr"] if c["player"] == player and c["direction"] == direction]
        return items[0] if items else None

    # ---- types ----

    def test_1_types(self):
        pid = self.register(dict(ID, card="300001", name="Tia Types"))
        # the kind a type implies, and the default type of the kinds
        self.assertEqual((self.table(pid, 1000, type="money_play")["kind"]), "cash")
        t = self.as_("FL1", "POST", "/tables/T1/transactions", {"player": pid, "direction": "in", "type": "marker_issue",
                                                              "amount": 50000}, status=201)
        self.assertEqual((t["kind"], t["type"]), ("marker", "marker_issue"))
        self.assertEqual(self.table(pid, 1000)["type"], "chip_purchase")
        self.assertEqual(self.table(pid, 1000, direction="out")["type"], "other")
        self.assertEqual(self.table(pid, 2000, type="marker_redemption", kind="chips")["kind"], "chips")
        # kinds and directions a type cannot have; a redemption says which
        for body in ({"type": "chip_purchase", "direction": "out"}, {"type": "marker_issue", "kind": "cash"},
                     {"type": "money_play", "kind": "chips"}):
            self.refused(422, "invalid_type", "POST", "/api/v1/tables/T1/transactions",
                         dict({"player": pid, "direction": "in", "amount": 100}, **body), token=self.tok["FL1"])
        self.refused(400, "invalid_body", "POST", "/api/v1/tables/T1/transactions",
                     {"player": pid, "direction": "in", "type": "marker_redemption", "amount": 100}, token=self.tok["FL1"])
        self.refused(422, "invalid_type", "POST", "/api/v1/tables/T1/transactions",
                     {"player": pid, "direction": "in", "type": "chip_redemption", "amount": 100}, token=self.tok["FL1"])
        self.refused(400, "invalid_body", "POST", "/api/v1/tables/T1/transactions",
                     {"player": pid, "direction": "in", "type": "cash_purchase", "amount": 100}, token=self.tok["FL1"])
        # the cage: its types and their directions; currency always; the cage's role only
        allowed = {"chip_redemption": ["out"], "front_money": ["in", "out"], "safekeeping": ["in", "out"],
                   "marker_payment": ["in"], "check_cashing": ["out"], "cash_advance": ["out"], "other": ["in", "out"]}
        for type_, dirs in allowed.items():
            for d in ("in", "out"):
                body = {"player": pid, "direction": d, "type": type_, "amount": 100}
                if d in dirs:
                    t = self.as_("CG1", "POST", "/cage/transactions", body, status=201)
                    self.assertEqual((t["table"], t["seat"], t["window"], t["kind"], t["type"]),
                                     (None, "cage", "cage", "cash", type_))
                else:
                    self.refused(422, "invalid_type", "POST", "/api/v1/cage/transactions", body, token=self.tok["CG1"])
        self.refused(400, "invalid_body", "POST", "/api/v1/cage/transactions",
                     {"player": pid, "direction": "in", "amount": 100}, token=self.tok["CG1"])
        self.refused(422, "invalid_type", "POST", "/api/v1/cage/transactions",
                     {"player": pid, "direction": "in", "type": "money_play", "amount": 100}, token=self.tok["CG1"])
        self.refused(403, "forbidden", "POST", "/api/v1/cage/transactions",
                     {"player": pid, "direction": "in", "type": "front_money", "amount": 100}, token=self.tok["FL1"])
        self.refused(422, "invalid_type", "POST", "/api/v1/cage/transactions",
                     {"player": pid, "direction": "in", "type": "front_money", "kind": "chips", "amount": 100},
                     token=self.tok["CG1"])
        t = self.cage(pid, 100, window="W3", kind="cash")
        self.assertEqual(t["window"], "W3")
        # the day's list has them all, the cage's by where=cage; CSV the same
        day = t["gaming_day"]
        mine = self.as_("AU1", "GET", "/transactions?gaming_day=%s&player=%s" % (day, pid))["transactions"]
        cage = [x for x in mine if x["seat"] == "cage"]
        self.assertEqual(len(cage), sum(len(d) for d in allowed.values()) + 1)
        self.assertEqual(self.as_("AU1", "GET", "/transactions?gaming_day=%s&player=%s&where=cage" % (day, pid))
                         ["transactions"], cage)
        st, _, raw = self.d.request("GET", "/api/v1/transactions?gaming_day=%s&player=%s&format=csv" % (day, pid),
                                    token=self.tok["AU1"])
        self.assertEqual(st, 200)
        rows = list(csv.DictReader(io.StringIO(raw.decode())))
        self.assertEqual([r["id"] for r in rows], [str(x["id"]) for x in mine])
        self.assertEqual({r["by"] for r in rows}, {"FL1", "CG1"})
        # what is currency: the cash of the table and every cage transaction, chips and markers not
        cash_in = sum(x["amount"] for x in mine if x["kind"] == "cash" and x["direction"] == "in")
        cash_out = sum(x["amount"] for x in mine if x["kind"] == "cash" and x["direction"] == "out")
        self.assertEqual(self.report(day)["totals"][pid], {"cash_in": cash_in, "cash_out": cash_out})
        self.refused(403, "forbidden", "GET", "/api/v1/transactions?gaming_day=%s" % day, token=pbtest.DEALER)

    # ---- identification before the limit ----

    def test_2_identification_across_table_and_cage(self):
        pid = self.register({"description": "man in a grey suit"})
        t = self.table(pid, 600000)
        day = t["gaming_day"]
        self.assertEqual((t["title31"]["alert"], t["title31"]["remaining"]), (False, CTR_OVER - 600000))
        t = self.cage(pid, ALERT_AT - 600000)                 # at the alert: warned, ahead of time
        self.assertTrue(t["title31"]["alert"])
        self.assertFalse(t["title31"]["identified"])
        self.assertIn("identification", t["title31"]["warning"])
        self.assertIn(dollars(CTR_OVER - ALERT_AT), t["title31"]["warning"])
        t = self.table(pid, CTR_OVER - ALERT_AT, table="T2")   # exactly the limit: not over, accepted
        self.assertEqual(t["totals"], {"cash_in": CTR_OVER, "cash_out": 0})
        self.assertFalse(t["title31"]["ctr"])
        self.assertEqual(t["title31"]["remaining"], 0)
        # one cent more, at the cage or a table: refused, nothing recorded
        err = self.refused(422, "identification_required", "POST", "/api/v1/cage/transactions",
                           {"player": pid, "direction": "in", "type": "safekeeping", "amount": 1}, token=self.tok["CG1"])
        self.assertIn(dollars(CTR_OVER + 1), err["message"])
        self.refused(422, "identification_required", "POST", "/api/v1/tables/T1/transactions",
                     {"player": pid, "direction": "in", "kind": "cash", "amount": 1}, token=self.tok["FL1"])
        # chips and markers are not currency: no identification needed for them
        self.table(pid, 5000000, kind="chips")
        # cash out is its own side: $10,000.00 out is accepted, never netted with the cash in
        self.cage(pid, CTR_OVER, direction="out", type_="chip_redemption")
        self.refused(422, "identification_required", "POST", "/api/v1/cage/transactions",
                     {"player": pid, "direction": "out", "type": "chip_redemption", "amount": 1}, token=self.tok["CG1"])
        self.assertIsNone(self.ctr_of(day, pid))
        # identified: the cent passes and the CTR item is open
        self.as_("CG1", "PATCH", "/players/" + pid, ID)
        t = self.cage(pid, 1, type_="safekeeping")
        self.assertEqual((t["title31"]["ctr"], t["title31"]["identified"]), (True, True))
        self.assertEqual(t["totals"], {"cash_in": CTR_OVER + 1, "cash_out": CTR_OVER})
        item = self.ctr_of(day, pid)
        self.assertEqual((item["total"], item["status"], item["at"], item["identified"]),
                         (CTR_OVER + 1, "open", t["at"], True))
        self.assertIsNone(self.ctr_of(day, pid, "out"))

    # ---- voids ----

    def test_3_void(self):
        pid = self.register(dict(ID, card="300003", name="Val Void"))
        self.table(pid, 200000)
        wrong = self.table(pid, 900000)                      # $9,000 keyed for $900: a false CTR
        day = wrong["gaming_day"]
        self.assertEqual(self.ctr_of(day, pid)["total"], 1100000)
        path = "/api/v1/transactions/%d/void" % wrong["id"]
        self.refused(403, "witness_required", "POST", path, {"reason": "keyed $9,000 for $900"}, token=self.tok["FL1"])
        self.refused(403, "witness_refused", "POST", path, {"reason": "x", "witness": witness("DL1")},
                     token=self.tok["FL1"])
        self.refused(422, "reason_required", "POST", path, {"reason": " ", "witness": witness("FL2")},
                     token=self.tok["FL1"])
        self.refused(403, "forbidden", "POST", path, {"reason": "x", "witness": witness("FL2")}, token=self.tok["DL1"])
        v = self.as_("FL1", "POST", "/transactions/%d/void" % wrong["id"],
                     {"reason": "keyed $9,000 for $900", "witness": witness("FL2")}, status=201)
        self.assertEqual((v["void"]["by"], v["void"]["witness"], v["void"]["reason"]),
                         ("FL1", "FL2", "keyed $9,000 for $900"))
        self.assertEqual(v["totals"]["cash_in"], 200000)
        self.table(pid, 90000)                               # what was bought in
        rep = self.report(day)
        self.assertNotIn(pid, [c["player"] for c in rep["ctr"]])
        self.assertEqual(rep["totals"][pid]["cash_in"], 290000)
        entry = [m for m in rep["mtl"] if m["id"] == wrong["id"]][0]     # the MTL keeps it, marked void
        self.assertEqual((entry["amount"], entry["void"]["reason"]), (900000, "keyed $9,000 for $900"))
        self.assertEqual([x["id"] for x in rep["voids"] if x["player"] == pid], [wrong["id"]])
        self.refused(409, "already_voided", "POST", path, {"reason": "again", "witness": witness("FL2")},
                     token=self.tok["FL1"])
        self.refused(404, "transaction_not_found", "POST", "/api/v1/transactions/999999/void",
                     {"reason": "x", "witness": witness("FL2")}, token=self.tok["FL1"])
        # a filed CTR that a void takes under the limit stays, below_limit
        big = self.table(pid, 800000)
        self.as_("CG1", "POST", "/title31/ctr/%s-%s-in" % (day, pid), {"status": "filed", "bsa_id": "31000000000001",
                                                                     "note": "filed"}, status=201)
        self.as_("PB1", "POST", "/transactions/%d/void" % big["id"], {"reason": "wrong patron",
                                                                      "witness": witness("CG2")}, status=201)
        item = self.ctr_of(day, pid)
        self.assertEqual((item["below_limit"], item["status"], item["total"]), (True, "filed", 290000))

    # ---- merges ----

    def test_4_merge(self):
        anon = self.register({"description": "woman in green dress"})
        named = self.register({"card": "300004", "name": "Mia Merge"})
        day = self.table(anon, 600000, table="T1")["gaming_day"]
        self.table(named, 600000, table="T2", seat=3)
        self.assertIsNone(self.ctr_of(day, named))
        self.assertIsNone(self.ctr_of(day, anon))
        path = "/api/v1/players/%s/merge" % anon
        self.refused(403, "witness_required", "POST", path, {"into": named, "reason": "same patron"},
                     token=self.tok["CG1"])
        self.refused(422, "same_player", "POST", path, {"into": anon, "reason": "x", "witness": witness("PB1")},
                     token=self.tok["CG1"])
        self.refused(422, "unknown_player", "POST", path, {"into": "P999", "reason": "x", "witness": witness("PB1")},
                     token=self.tok["CG1"])
        self.refused(403, "forbidden", "POST", path, {"into": named, "reason": "x", "witness": witness("PB1")},
                     token=self.tok["FL1"])
        self.as_("FL1", "PUT", "/tables/T3/seats/1/player", {"player": anon})
        self.refused(409, "player_seated", "POST", path, {"into": named, "reason": "x", "witness": witness("PB1")},
                     token=self.tok["CG1"])
        self.as_("FL1", "DELETE", "/tables/T3/seats/1/player")
        m = self.as_("CG1", "POST", "/players/%s/merge" % anon,
                     {"into": named, "reason": "same patron: her card and the camera", "witness": witness("PB1")},
                     status=201)
        self.assertEqual(m["days"], [{"gaming_day": day, "cash_in": 1200000, "cash_out": 0, "ctr": ["in"]}])
        item = self.ctr_of(day, named)
        self.assertEqual((item["total"], item["status"], item["identified"]), (1200000, "open", False))
        rep = self.report(day)
        self.assertNotIn(anon, rep["totals"])
        self.assertEqual(rep["totals"][named]["cash_in"], 1200000)
        entry = [e for e in rep["mtl"] if e["player"] == anon][0]       # as written, counted for the survivor
        self.assertEqual((entry["description"], entry["name"], entry["counted_for"], entry["patron"]),
                         ("woman in green dress", None, named, "Mia Merge"))
        self.assertEqual(self.as_("CG1", "GET", "/players/" + anon)["merged_into"], named)
        survivor = self.as_("CG1", "GET", "/players/" + named)
        self.assertEqual((survivor["merged_into"], survivor["merged_from"]), (None, [anon]))
        # the merged record takes nothing more; the survivor needs identification for more cash in
        self.refused(409, "player_merged", "POST", "/api/v1/tables/T1/transactions",
                     {"player": anon, "direction": "in", "kind": "cash", "amount": 100}, token=self.tok["FL1"])
        self.refused(409, "player_merged", "PUT", "/api/v1/tables/T1/seats/4/player", {"player": anon},
                     token=self.tok["FL1"])
        self.refused(409, "player_merged", "PATCH", "/api/v1/players/" + anon, {"description": "x"},
                     token=self.tok["CG1"])
        self.refused(409, "player_merged", "POST", path, {"into": named, "reason": "x", "witness": witness("PB1")},
                     token=self.tok["CG1"])
        self.refused(422, "identification_required", "POST", "/api/v1/cage/transactions",
                     {"player": named, "direction": "in", "type": "front_money", "amount": 1}, token=self.tok["CG1"])
        # a third record merged into the merged one is refused; into the survivor it moves the whole
        third = self.register({"description": "woman in green dress, later"})
        self.refused(409, "player_merged", "POST", "/api/v1/players/%s/merge" % third,
                     {"into": anon, "reason": "x", "witness": witness("PB1")}, token=self.tok["CG1"])

    # ---- MTL entries as written ----

    def test_5_described_entries(self):
        pid = self.register({"description": "man in red cap"})
        first = self.table(pid, MTL)                      # at the MTL threshold
        day = first["gaming_day"]
        self.table(pid, MTL - 1)                          # one cent below: no entry
        self.as_("CG1", "PATCH", "/players/" + pid, {"card": "300005", "name": "Rex Cap"})
        second = self.cage(pid, MTL, window="W1")
        entries = sorted([m for m in self.report(day)["mtl"] if m["player"] == pid], key=lambda m: m["id"])
        self.assertEqual([(m["id"], m["description"], m["name"], m["by"], m["table"], m["seat"], m["window"], m["type"])
                          for m in entries],
                         [(first["id"], "man in red cap", None, "FL1", "T1", 2, None, "chip_purchase"),
                          (second["id"], "man in red cap", "Rex Cap", "CG1", None, "cage", "W1", "front_money")])
        self.assertEqual({m["patron"] for m in entries}, {"Rex Cap"})
        st, _, raw = self.d.request("GET", "/api/v1/reports/title31?gaming_day=%s&format=csv" % day,
                                    token=self.tok["PB1"])
        rows = [r for r in csv.DictReader(io.StringIO(raw.decode())) if r["record"] == "mtl" and r["player"] == pid]
        self.assertEqual([(r["description"], r["name"], r["by"], r["seat"]) for r in rows],
                         [("man in red cap", "", "FL1", "2"), ("man in red cap", "Rex Cap", "CG1", "cage")])

    # ---- a CTR item's life ----

    def test_6_ctr_life(self):
        pid = self.register({"description": "tall man, blue tie"})
        day = self.table(pid, CTR_OVER)["gaming_day"]
        self.as_("CG1", "PATCH", "/players/" + pid, ID)
        self.cage(pid, 1)
        cid = "%s-%s-in" % (day, pid)
        item = self.ctr_of(day, pid)
        y, mo, d = (int(x) for x in day.split("-"))
        import datetime
        due = (datetime.date(y, mo, d) + datetime.timedelta(days=15)).isoformat()
        self.assertEqual((item["id"], item["status"], item["due"], item["overdue"]), (cid, "open", due, False))
        path = "/api/v1/title31/ctr/" + cid
        self.refused(422, "bsa_id_required", "POST", path, {"status": "filed", "note": "filed"}, token=self.tok["CG1"])
        self.refused(409, "invalid_transition", "POST", path, {"status": "amended", "note": "x"}, token=self.tok["CG1"])
        self.refused(403, "forbidden", "POST", path, {"note": "x"}, token=self.tok["FL1"])
        self.refused(404, "ctr_not_found", "POST", "/api/v1/title31/ctr/%s-%s-out" % (day, pid), {"note": "x"},
                     token=self.tok["CG1"])
        self.refused(404, "ctr_not_found", "POST", "/api/v1/title31/ctr/nonsense", {"note": "x"}, token=self.tok["CG1"])
        self.refused(422, "note_required", "POST", path, {"status": "identified"}, token=self.tok["CG1"])
        i = self.as_("CG1", "POST", "/title31/ctr/" + cid, {"status": "identified", "note": "passport seen"}, status=201)
        self.assertEqual((i["status"], i["status_by"]), ("identified", "CG1"))
        i = self.as_("PB1", "POST", "/title31/ctr/" + cid, {"note": "called compliance"}, status=201)
        self.assertEqual(i["status"], "identified")
        i = self.as_("CG1", "POST", "/title31/ctr/" + cid, {"status": "filed", "bsa_id": "31000123456789",
                                                         "filed_on": day, "note": "filed online"}, status=201)
        self.assertEqual((i["status"], i["bsa_id"], i["filed_on"]), ("filed", "31000123456789", day))
        self.refused(409, "invalid_transition", "POST", path, {"status": "identified", "note": "x"},
                     token=self.tok["CG1"])
        i = self.as_("PB1", "POST", "/title31/ctr/" + cid, {"status": "amended", "bsa_id": "31000123456790",
                                                         "note": "address corrected"}, status=201)
        self.assertEqual((i["status"], i["bsa_id"], i["status_by"]), ("amended", "31000123456790", "PB1"))
        self.assertEqual([(n["status"], n["by"]) for n in i["notes"]],
                         [("identified", "CG1"), (None, "PB1"), ("filed", "CG1"), ("amended", "PB1")])

    def test_9_overdue(self):
        """Runs last: the clock moves 16 days on."""
        pid = self.register(dict(ID, card="300009", name="Otto Overdue"))
        day = self.table(pid, CTR_OVER + 1)["gaming_day"]
        done = self.register(dict(ID, card="300010", name="Fran Filed"))
        self.table(done, CTR_OVER + 1)
        self.as_("CG1", "POST", "/title31/ctr/%s-%s-in" % (day, done), {"status": "filed", "bsa_id": "31000000000009",
                                                                      "note": "filed"}, status=201)
        self.d.advance_clock(16 * 86400)
        self.sign_in()                                   # the sessions ended meanwhile
        self.assertTrue(self.ctr_of(day, pid)["overdue"])
        self.assertFalse(self.ctr_of(day, done)["overdue"])
        ex = self.as_("PB1", "GET", "/reports/exceptions?from=%s" % day)["exceptions"]
        overdue = [e for e in ex if e["kind"] == "ctr_overdue"]
        self.assertIn("%s-%s-in" % (day, pid), [e["ref"] for e in overdue])
        self.assertNotIn("%s-%s-in" % (day, done), [e["ref"] for e in overdue])
        self.assertTrue(self.ok("GET", "/api/v1/integrity", token=pbtest.AUDITOR)["ok"])

    def test_8_altered_rows_caught_by_verify(self):
        def alter(conn):
            for table in ("transaction_voids", "player_merges", "title31_notes"):
                conn.execute("DROP TRIGGER %s_no_update" % table)
            conn.execute("UPDATE transaction_voids SET reason = 'nothing' WHERE txn_id = (SELECT min(txn_id) "
                         "FROM transaction_voids)")
            conn.execute("UPDATE player_merges SET into_id = 'P1'")
            conn.execute("UPDATE title31_notes SET bsa_id = '0' WHERE bsa_id IS NOT NULL")
        rc, out, err = self.d.verify_altered_copy(alter)
        self.assertEqual(rc, 1, out + err)
        for table in ("transaction_voids", "player_merges", "title31_notes"):
            self.assertRegex(out, r"PROBLEM .*the %s rows differ from what their events record" % table)


if __name__ == "__main__":
    unittest.main()
