"""
The dealer at each table, against the real daemon: PUT /tables/{t}/dealer
(who may, which person may deal, the table event in the chain, the history),
the dealer on every round opened afterwards (GET, the round's row, verify),
the summary grouped by dealer (people by id, terminal tokens as before), the
dealer rotation report (JSON, CSV, its parameters and scope), and a void with
a witness (recorded; each wrong witness refused).

Sessions of people are not signed in here: people rows are written into the
database while the daemon is stopped (their Argon2id hashes made with
libsodium through ctypes: pbtest.add_person), and the tokens of config/pitboss.json act.  The
paths of a dealer's own session are covered by tests/unit/test_dealer.c.
"""
import json
import sys
import unittest

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
import pbtest  # noqa: E402
from pbtest import DEALER, PITBOSS_TOKEN, AUDITOR, ADMIN  # noqa: E402
WHOLE = {"bets": {"1": {"ante": 1000}}, "hands": {"1": ["As", "Kd", "Qh"]}, "dealer": ["2c", "7d", "9h"],
         "decisions": {"1": "play"}}


PEOPLE = (
    # id, name, roles, active, password
    ("E1027", "Ana Ruiz", ["dealer"], True, "ana-secret-1"),
    ("E1028", "=Ben Ode", ["dealer"], True, "ben-secret-1"),       # a name a spreadsheet would evaluate
    ("F2001", "Flo Ng", ["floor"], True, "flo-secret-1"),
    ("C4001", "Cy Old", ["dealer", "floor"], False, "cy-secret-1"),
    ("E1029", "Dee Vale", ["dealer"], True, "dee-secret-1"),       # disabled in test_6 while dealing
)


class DealerAtTheTable(pbtest.DaemonTestCase):
    daemon_kwargs = {"clock": True}     # test_4 moves it between two changes of dealer

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.d.stop()
        for pid, name, roles, active, pw in PEOPLE:
            pbtest.add_person(cls.d, pid, name, roles, pw, active=active)
        cls.d.start()

    def set_dealer(self, table, person, token=PITBOSS_TOKEN, status=200):
        return self.ok("PUT", "/api/v1/tables/%s/dealer" % table, {"person": person}, status=status, token=token)

    def round(self, rid):
        return self.ok("GET", "/api/v1/rounds/%d" % rid, token=AUDITOR)["round"]

    def test_1_refusals_change_nothing(self):
        self.refused(403, "forbidden", "PUT", "/api/v1/tables/T2/dealer", {"person": "E1027"}, token=DEALER)
        self.refused(403, "forbidden", "PUT", "/api/v1/tables/T2/dealer", {"person": "E1027"}, token=AUDITOR)
        self.refused(404, "table_not_found", "PUT", "/api/v1/tables/NOPE/dealer", {"person": "E1027"}, token=PITBOSS_TOKEN)
        self.refused(422, "unknown_person", "PUT", "/api/v1/tables/T2/dealer", {"person": "E9999"}, token=PITBOSS_TOKEN)
        err = self.refused(422, "person_inactive", "PUT", "/api/v1/tables/T2/dealer", {"person": "C4001"}, token=PITBOSS_TOKEN)
        self.assertIn("disabled", err["message"])
        err = self.refused(422, "not_a_dealer", "PUT", "/api/v1/tables/T2/dealer", {"person": "F2001"}, token=PITBOSS_TOKEN)
        self.assertIn("dealer role", err["message"])
        self.refused(400, "invalid_body", "PUT", "/api/v1/tables/T2/dealer", {}, token=PITBOSS_TOKEN)
        self.refused(400, "invalid_body", "PUT", "/api/v1/tables/T2/dealer", {"person": ["E1027"]}, token=PITBOSS_TOKEN)
        self.refused(400, None, "PUT", "/api/v1/tables/T2/dealer", {"person": "E1027", "seat": 1}, token=PITBOSS_TOKEN)
        self.refused(405, None, "POST", "/api/v1/tables/T2/dealer", {"person": "E1027"}, token=PITBOSS_TOKEN)
        self.assertEqual(self.d.db_value("SELECT count(*) FROM dealer_changes WHERE table_id = 'T2'"), 0)

    def test_2_dealer_on_rounds_and_in_the_chain(self):
        before = self.whole("T1", WHOLE)
        self.assertNotIn("id", before["dealer"])          # the dealer's hand only, as before
        self.assertEqual(before["dealer"]["cards"], ["2c", "7d", "9h"])
        opened = json.loads(self.d.db_value("SELECT body FROM events WHERE round_id = ? AND type = 'round_opened'",
                                            (before["id"],)))
        self.assertNotIn("dealer", opened)

        t = self.set_dealer("T1", "E1027")["table"]
        self.assertEqual(t["dealer"], {"id": "E1027", "name": "Ana Ruiz"})
        self.assertEqual(self.ok("GET", "/api/v1/tables/T1", token=AUDITOR)["table"]["dealer"]["id"], "E1027")
        self.assertEqual(self.d.db_value("SELECT dealer_id FROM table_state WHERE table_id = 'T1'"), "E1027")
        ev = self.d.db_rows("SELECT round_id, actor, body FROM events WHERE table_id = 'T1' AND type = 'dealer_changed'")
        self.assertEqual(ev, [(None, "demo-pitboss", '{"name":"Ana Ruiz","person":"E1027"}')])
        # Setting the same dealer again records nothing.
        self.set_dealer("T1", "E1027")
        self.assertEqual(self.d.db_value("SELECT count(*) FROM dealer_changes WHERE table_id = 'T1'"), 1)

        # A round opened step by step, and a whole round: both carry her.
        rid = self.open_round("T1")
        r = self.round(rid)
        self.assertEqual(r["dealer"], {"id": "E1027", "name": "Ana Ruiz"})
        self.void(rid)
        w = self.whole("T1", WHOLE)
        self.assertEqual(w["dealer"]["id"], "E1027")
        self.assertEqual(w["dealer"]["name"], "Ana Ruiz")
        self.assertEqual(w["dealer"]["cards"], ["2c", "7d", "9h"])
        self.assertEqual(self.d.db_rows("SELECT dealer_id, dealer_name, opened_by FROM rounds WHERE id = ?", (w["id"],)),
                         [("E1027", "Ana Ruiz", "demo-dealer")])
        opened = [e for e in w["events"] if e["type"] == "round_opened"][0]
        self.assertEqual(opened["body"]["dealer"], {"id": "E1027", "name": "Ana Ruiz"})
        self.assertTrue(self.ok("GET", "/api/v1/rounds/%d/verify" % w["id"], token=AUDITOR)["ok"])

        # Taken off: the next round has no dealer again.
        self.assertIsNone(self.set_dealer("T1", None)["table"]["dealer"])
        self.assertNotIn("id", self.whole("T1", WHOLE)["dealer"])
        integrity = self.ok("GET", "/api/v1/integrity", token=AUDITOR)
        self.assertTrue(integrity["ok"], json.dumps(integrity["problems"]))

    def test_3_summary_by_dealer(self):
        self.set_dealer("T3", "E1028")
        self.whole("T3", WHOLE)
        self.set_dealer("T3", None)
        self.whole("T3", WHOLE)
        js = self.ok("GET", "/api/v1/reports/summary?table=T3&group=dealer", token=AUDITOR)
        keys = {g["key"]: g for g in js["groups"]}
        self.assertEqual(sorted(keys), ["E1028", "demo-dealer"])
        self.assertEqual(keys["E1028"]["rounds"], 1)
        self.assertEqual(keys["demo-dealer"]["rounds"], 1)
        self.assertEqual(keys["E1028"]["name"], "=Ben Ode")      # a person's group names the person
        self.assertNotIn("name", keys["demo-dealer"])             # a terminal's group does not
        stored = self.d.db_rows("SELECT DISTINCT dealer FROM report_hours WHERE table_id = 'T3' ORDER BY dealer")
        self.assertEqual(stored, [("E1028",), ("demo-dealer",)])

    def test_4_rotation_report(self):
        self.set_dealer("F1", "E1027")
        self.d.advance_clock(1)          # the second change is a second later on the daemon's clock
        self.set_dealer("F1", "E1028", token=ADMIN)
        js = self.ok("GET", "/api/v1/reports/dealers?table=F1", token=AUDITOR)
        self.assertFalse(js["truncated"])
        ch = js["changes"]
        self.assertEqual([(c["table"], c["person"], c["name"], c["by"]) for c in ch],
                         [("F1", "E1027", "Ana Ruiz", "demo-pitboss"), ("F1", "E1028", "=Ben Ode", "demo-admin")])
        self.assertEqual(ch[0]["until"], ch[1]["at"])
        self.assertIsNone(ch[1]["until"])
        self.assertEqual(self.ok("GET", "/api/v1/reports/dealers?table=F1&limit=1", token=AUDITOR)["truncated"], True)
        # Every table: the other tests' changes too, oldest first.
        everything = self.ok("GET", "/api/v1/reports/dealers", token=PITBOSS_TOKEN)["changes"]
        self.assertGreaterEqual(len(everything), 2)
        self.assertEqual([c["at"] for c in everything], sorted(c["at"] for c in everything))
        st, hdrs, raw = self.d.request("GET", "/api/v1/reports/dealers?table=F1&format=csv", token=AUDITOR)
        self.assertEqual(st, 200)
        self.assertTrue(hdrs["content-type"].startswith("text/csv"))
        rows = raw.decode().split("\r\n")
        self.assertEqual(rows[0], "table,person,name,at,until,by")
        self.assertTrue(rows[2].startswith("F1,E1028,'=Ben Ode,"), rows[2])   # not a formula
        self.refused(400, "unknown_parameter", "GET", "/api/v1/reports/dealers?group=dealer", token=AUDITOR)
        self.refused(400, "invalid_query", "GET", "/api/v1/reports/dealers?limit=0", token=AUDITOR)
        self.refused(403, "forbidden", "GET", "/api/v1/reports/dealers", token=DEALER)
        self.refused(404, "table_not_found", "GET", "/api/v1/reports/dealers?table=NOPE", token=AUDITOR)

    def test_5_void_with_a_witness(self):
        rid = self.open_round("T2")
        self.ok("PUT", "/api/v1/rounds/%d/bets/1" % rid, {"ante": 1000})
        self.ok("POST", "/api/v1/rounds/%d/close" % rid, {})
        self.ok("POST", "/api/v1/rounds/%d/deal" % rid, {"hands": {"1": ["As", "Kd", "Qh"]}})
        url = "/api/v1/rounds/%d/void" % rid
        # A terminal token needs no witness; when it names one, each wrong one is refused, alike.
        bad = (
            (403, "witness_refused", {"person": "C4001", "password": "cy-secret-1"}),      # disabled
            (403, "witness_refused", {"person": "E1028", "password": "ben-secret-1"}),       # no floor or pitboss role
            (403, "witness_refused", {"person": "F2001", "password": "not-her-password"}),
            (400, "invalid_witness", {"person": "F2001"}),
        )
        for status, code, w in bad:
            self.refused(status, code, "POST", url, {"reason": "misdeal", "witness": w}, token=DEALER)
        self.assertEqual(self.d.db_value("SELECT failures FROM people WHERE id = 'F2001'"), 1)
        good = {"reason": "misdeal", "witness": {"person": "F2001", "password": "flo-secret-1"}}
        r = self.ok("POST", url, good, token=DEALER, idem="void-with-witness")["round"]
        self.assertEqual(r["state"], "void")
        # The stored request hash of an Idempotency-Key never covers the witness's password (an
        # unsalted SHA-256 of it would be a password hash in the database); a retry still matches.
        import hashlib
        raw = ("POST %s\n" % url).encode() + json.dumps(good).encode()
        stored = self.d.db_value("SELECT request_hash FROM idempotency WHERE key = 'void-with-witness'")
        self.assertIsNotNone(stored)
        self.assertNotEqual(stored, hashlib.sha256(raw).hexdigest())
        self.assertEqual(self.ok("POST", url, good, token=DEALER, idem="void-with-witness")["round"]["id"], rid)
        self.assertEqual(self.d.db_value("SELECT failures FROM people WHERE id = 'F2001'"), 0)
        body = json.loads(self.d.db_value("SELECT body FROM events WHERE round_id = ? AND type = 'round_voided'", (rid,)))
        self.assertEqual(body["witness"], "F2001")
        detail = self.d.db_value("SELECT detail FROM significant_events WHERE code = 'round_voided' ORDER BY id DESC LIMIT 1")
        self.assertEqual(json.loads(detail)["witness"], "F2001")
        self.assertTrue(self.ok("GET", "/api/v1/rounds/%d/verify" % rid, token=AUDITOR)["ok"])
        # No password in clear anywhere in the record or the log.
        conn = self.d.db_connect()
        try:
            dump = "\n".join(conn.iterdump())
        finally:
            conn.close()
        for _, _, _, _, pw in PEOPLE:
            self.assertNotIn(pw, dump)
            self.assertNotIn(pw, self.d.full_log())


    def test_6_disabling_takes_the_dealer_off(self):
        self.set_dealer("T3", "E1029")
        self.assertEqual(self.ok("GET", "/api/v1/tables/T3", token=AUDITOR)["table"]["dealer"]["id"], "E1029")
        self.ok("PATCH", "/api/v1/people/E1029", {"active": False}, token=ADMIN)
        self.assertIsNone(self.ok("GET", "/api/v1/tables/T3", token=AUDITOR)["table"]["dealer"])
        body, actor = self.d.db_rows("SELECT body, actor FROM events WHERE table_id = 'T3' AND type = 'dealer_changed' "
                                     "ORDER BY table_seq DESC LIMIT 1")[0]
        self.assertEqual(json.loads(body), {"person": None, "name": None})
        self.assertEqual(actor, "demo-admin")
        detail = json.loads(self.d.db_value("SELECT detail FROM significant_events WHERE code = 'person_changed' "
                                            "ORDER BY id DESC LIMIT 1"))
        self.assertEqual(detail["tables_left"], ["T3"])
        rid = self.open_round("T3")
        self.assertIsNone((self.round(rid)["dealer"] or {}).get("id"))
        self.assertTrue(self.ok("GET", "/api/v1/integrity?table=T3", token=AUDITOR)["ok"])

if __name__ == "__main__":
    pbtest.main()
