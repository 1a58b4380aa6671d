"""
The banker as a person on player-banked tables (docs/players.md, "The
banker"; docs/api.md, "Player-banked tables"), through the real daemon:
the banker named on the round (a player by id, or a third-party proposition
player by badge and company) and shown by GET /rounds/{id}, the history and
the report; the rotation counted per person across a seat change; a second
badge of the same provider company at a table refused (4 CCR 12270(b)(5));
every offer and decline of the bank recorded as an event and listed; the
round's recorded banker checked against its events by verify.
"""
import sys
import json
import unittest

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
import pbtest  # noqa: E402
from pbtest import DEALER, PITBOSS_TOKEN, AUDITOR  # noqa: E402

ACME = {"badge": "TPPPS-0192", "company": "Acme Banking LLC"}
ACME_2 = {"badge": "TPPPS-0200", "company": "Acme Banking LLC"}
OTHER = {"badge": "GB-0007", "company": "Golden Bank Services Inc."}


def banked_table(tid, seats=6):
    t = pbtest.example_table("P1")
    t["id"] = tid
    t["name"] = "player-banked " + tid
    t["seats"] = seats
    t["banker"] = {"max_consecutive": 2, "min_bank": 10000, "max_bank": 500000}
    return t


def body(seat, who=None, player_seat=None):
    """A whole round banked from seat by who ({"player": ID} or {"provider": {...}}), one other seat betting."""
    s = str(player_seat or (seat % 6 + 1))
    b = {"seat": seat, "bank": 20000}
    b.update(who or {})
    return {"banker": b, "bets": {s: {"ante": 1000}}, "hands": {s: ["9h", "9c", "5d"]},
            "dealer": ["Qd", "7c", "2h"], "decisions": {s: "play"}}


class BankerCase(pbtest.DaemonTestCase):
    """The players the tests name as bankers are registered first (a banker named as a player must be one)."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.pid = {}
        for name in ['PL1', 'PL100', 'PL200', 'PL7', 'PL9']:
            st, js = cls.d.call("POST", "/api/v1/players", {"description": "banker " + name}, token=PITBOSS_TOKEN)
            assert st == 201, (st, js)
            cls.pid[name] = js["id"]

    def whole(self, table, b, token=DEALER):
        r = super().whole(table, b, token=token)
        v = self.ok("GET", "/api/v1/rounds/%d/verify" % r["id"], token=AUDITOR)
        self.assertEqual(v, {"round": r["id"], "ok": True, "problems": []})
        return r

    def bankers(self, table):
        return self.ok("GET", "/api/v1/tables/%s/bankers?limit=100" % table, token=AUDITOR)

    def opened_banker(self, rid):
        """The banker block of the round's round_opened event, as recorded."""
        rows = self.d.db_rows("SELECT body FROM events WHERE round_id = ? AND type = 'round_opened'", (rid,))
        self.assertEqual(len(rows), 1)
        return json.loads(rows[0][0])["banker"]


class RotationPerPerson(BankerCase):
    daemon_kwargs = {"extra_tables": [banked_table("QA"), banked_table("QE")]}

    def test_rotation_per_person_across_a_seat_change(self):
        pl = {"player": self.pid["PL100"]}
        r1 = self.whole("QA", body(1, pl))
        self.assertEqual(r1["banker"]["player"], self.pid["PL100"])
        self.assertEqual(self.opened_banker(r1["id"])["player"], self.pid["PL100"])
        r2 = self.whole("QA", body(1, pl))
        cur = self.bankers("QA")["current"]
        self.assertEqual((cur["seat"], cur["consecutive"], cur["player"], cur["person_consecutive"], cur["person_must_pass"]),
                         (1, 2, self.pid["PL100"], 2, True))
        # the same person at another seat: the seat rule alone would let him bank; the rule per person refuses him
        err = self.refused(422, "rotation_violation", "POST", "/api/v1/tables/QA/rounds", body(4, pl))
        self.assertIn("player " + self.pid["PL100"], err["message"])
        self.assertIn("2 rounds in a row", err["message"])
        self.assertIn("whatever seat", err["message"])
        # and at his own seat too (both rules)
        self.refused(422, "rotation_violation", "POST", "/api/v1/tables/QA/rounds", body(1, pl))
        # another person banks: the run is broken, PL100 may bank again from his new seat
        r3 = self.whole("QA", body(2, {"player": self.pid["PL200"]}))
        r4 = self.whole("QA", body(4, pl))
        cur = self.bankers("QA")["current"]
        self.assertEqual((cur["seat"], cur["consecutive"], cur["player"], cur["person_consecutive"]), (4, 1, self.pid["PL100"], 1))
        # he moves again after one round: his run goes on across the seat change
        r5 = self.whole("QA", body(5, pl))
        cur = self.bankers("QA")["current"]
        self.assertEqual((cur["seat"], cur["consecutive"], cur["person_consecutive"], cur["person_must_pass"]), (5, 1, 2, True))
        self.refused(422, "rotation_violation", "POST", "/api/v1/tables/QA/rounds", body(6, pl, player_seat=1))
        hist = [(h["round"], h["seat"], h.get("player")) for h in self.bankers("QA")["history"] if h["kind"] == "bank"]
        self.assertEqual(hist, [(r5["id"], 5, self.pid["PL100"]), (r4["id"], 4, self.pid["PL100"]), (r3["id"], 2, self.pid["PL200"]),
                                (r2["id"], 1, self.pid["PL100"]), (r1["id"], 1, self.pid["PL100"])])
        # the report per person
        rep = self.ok("GET", "/api/v1/reports/bankers?table=QA", token=PITBOSS_TOKEN)
        people = {p["player"]: p for p in rep["tables"][0]["people"]}
        self.assertEqual((people[self.pid["PL100"]]["rounds"], people[self.pid["PL100"]]["seats"]), (4, 3))
        self.assertEqual(people[self.pid["PL200"]]["rounds"], 1)
        self.assertEqual(people[self.pid["PL100"]]["banker_result"],
                         sum(-r["totals"]["players_net"] for r in (r1, r2, r4, r5)))
        self.assertIs(self.ok("GET", "/api/v1/integrity?table=QA", token=AUDITOR)["ok"], True)

    def test_unnamed_banker_unchanged(self):
        """A round that names no banker records and answers as before (no "declined": the seats passed over are
        no longer recorded as declining)."""
        for _ in range(2):
            r = self.whole("QE", body(3))
            self.assertNotIn("player", r["banker"])
            self.assertNotIn("provider", r["banker"])
            self.assertEqual(set(self.opened_banker(r["id"])), {"seat", "bank", "consecutive"})
        cur = self.bankers("QE")["current"]
        self.assertEqual(cur, {"seat": 3, "consecutive": 2, "must_pass": True, "next_seat": 4})


class Provider(BankerCase):
    daemon_kwargs = {"extra_tables": [banked_table("QB"), banked_table("QD")]}

    def test_provider_banker_and_the_same_company_refused(self):
        r1 = self.whole("QB", body(3, {"provider": ACME}))
        self.assertEqual(r1["banker"]["provider"], ACME)
        got = self.ok("GET", "/api/v1/rounds/%d" % r1["id"], token=AUDITOR)["round"]
        self.assertEqual(got["banker"]["provider"], ACME)
        self.assertEqual(self.opened_banker(r1["id"])["provider"], ACME)
        # a second badge of the same company, at another seat of the same table: refused
        err = self.refused(422, "provider_company_at_table", "POST", "/api/v1/tables/QB/rounds", body(5, {"provider": ACME_2}))
        self.assertIn("TPPPS-0192", err["message"])
        self.assertIn("seat 3", err["message"])
        # the same company banks another table meanwhile
        self.whole("QD", body(5, {"provider": ACME_2}))
        # a relief at the same seat is the same authorized player's place: allowed, the seat's run goes on
        r2 = self.whole("QB", body(3, {"provider": ACME_2}))
        self.assertEqual(self.bankers("QB")["current"]["consecutive"], 2)
        # another company at another seat: allowed
        r3 = self.whole("QB", body(5, {"provider": OTHER}))
        self.assertEqual(r3["banker"]["provider"], OTHER)
        rep = self.ok("GET", "/api/v1/reports/bankers?table=QB", token=PITBOSS_TOKEN)
        badges = sorted((p["provider"]["badge"], p["provider"]["company"], p["rounds"]) for p in rep["tables"][0]["people"])
        self.assertEqual(badges, [("GB-0007", OTHER["company"], 1), ("TPPPS-0192", ACME["company"], 1),
                                  ("TPPPS-0200", ACME["company"], 1)])
        self.assertNotEqual(r2["id"], r1["id"])

    def test_bad_banker_names_refused(self):
        bad = [
            ({"player": self.pid["PL1"], "provider": ACME}, "not both"),
            ({"player": ""}, "banker.player"),
            ({"player": 7}, "banker.player"),
            ({"provider": {"badge": "B1"}}, "banker.provider.company"),
            ({"provider": {"badge": "B 1", "company": "X"}}, "banker.provider.badge"),
            ({"provider": {"badge": "B1", "company": "   "}}, "banker.provider.company"),
            ({"provider": {"badge": "B1", "company": "X", "licence": "L"}}, "licence"),
            ({"provider": "Acme"}, "banker.provider"),
        ]
        for who, words in bad:
            err = self.refused(400, None, "POST", "/api/v1/tables/QB/rounds", body(2, who))
            self.assertIn(words, err["message"], who)
        # a banker named as a player is a registered one
        err = self.refused(422, "unknown_player", "POST", "/api/v1/tables/QB/rounds", body(2, {"player": "NOBODY"}))
        self.assertIn("POST /api/v1/players", err["message"])
        err = self.refused(422, "unknown_player", "POST", "/api/v1/tables/QB/bank-offers",
                           {"seat": 2, "answer": "declined", "player": "NOBODY"})


class Offers(BankerCase):
    daemon_kwargs = {"extra_tables": [banked_table("QC")]}

    def test_offers_and_declines_logged(self):
        a = self.ok("POST", "/api/v1/tables/QC/bank-offers", {"seat": 2, "answer": "declined", "player": self.pid["PL7"]}, status=201)
        self.assertEqual({k: a[k] for k in ("table", "seat", "answer", "player", "by")},
                         {"table": "QC", "seat": 2, "answer": "declined", "player": self.pid["PL7"], "by": "demo-dealer"})
        self.ok("POST", "/api/v1/tables/QC/bank-offers", {"seat": 3, "answer": "declined"}, status=201,
                token=PITBOSS_TOKEN)
        self.ok("POST", "/api/v1/tables/QC/bank-offers", {"seat": 4, "answer": "accepted", "provider": ACME}, status=201)
        self.whole("QC", body(4, {"provider": ACME}))
        self.whole("QC", body(4, {"provider": ACME}))
        # an acceptance the rotation would refuse is refused, and not logged
        self.refused(422, "rotation_violation", "POST", "/api/v1/tables/QC/bank-offers",
                     {"seat": 1, "answer": "accepted", "provider": ACME})
        # a decline by the same person is always recorded
        self.ok("POST", "/api/v1/tables/QC/bank-offers", {"seat": 4, "answer": "declined", "provider": ACME}, status=201)
        offers = self.bankers("QC")["offers"]
        self.assertEqual([(o["seat"], o["answer"], o.get("player"), o.get("provider"), o["by"]) for o in offers], [
            (4, "declined", None, ACME, "demo-dealer"),
            (4, "accepted", None, ACME, "demo-dealer"),
            (3, "declined", None, None, "demo-pitboss"),
            (2, "declined", self.pid["PL7"], None, "demo-dealer")])
        seqs = [o["seq"] for o in offers]
        self.assertEqual(seqs, sorted(seqs, reverse=True))
        rows = self.d.db_rows("SELECT table_seq, round_id, actor, body FROM events WHERE table_id = 'QC' AND type = 'bank_offered' "
                              "ORDER BY table_seq DESC")
        self.assertEqual([r[0] for r in rows], seqs)
        self.assertTrue(all(r[1] is None or r[1] == 0 for r in rows))
        self.assertEqual(json.loads(rows[-1][3]), {"seat": 2, "answer": "declined", "player": self.pid["PL7"]})
        self.assertIs(self.ok("GET", "/api/v1/integrity?table=QC", token=AUDITOR)["ok"], True)

    def test_bad_offers_refused(self):
        path = "/api/v1/tables/QC/bank-offers"
        self.refused(400, "invalid_body", "POST", path, {"seat": 9, "answer": "declined"})
        self.refused(400, "invalid_body", "POST", path, {"seat": 1, "answer": "maybe"})
        self.refused(400, "invalid_body", "POST", path, {"seat": 1})
        self.refused(400, "unknown_field", "POST", path, {"seat": 1, "answer": "declined", "note": "x"})
        self.refused(404, "not_player_banked", "POST", "/api/v1/tables/T1/bank-offers", {"seat": 1, "answer": "declined"})
        self.refused(403, "forbidden", "POST", path, {"seat": 1, "answer": "declined"}, token=AUDITOR)
        self.refused(404, "table_not_found", "POST", "/api/v1/tables/NOPE/bank-offers", {"seat": 1, "answer": "declined"})


class VerifyBanker(BankerCase):
    daemon_kwargs = {"extra_tables": [banked_table("QV")]}

    def test_a_changed_banker_row_is_found(self):
        r = self.whole("QV", body(2, {"player": self.pid["PL9"]}))
        conn = self.d.db_connect(read_only=False)
        try:
            conn.execute("DROP TRIGGER banker_turns_no_update")
            conn.execute("UPDATE banker_turns SET banker_player = 'PL8' WHERE round_id = ? AND kind = 'bank'", (r["id"],))
            conn.commit()
        finally:
            conn.close()
        v = self.ok("GET", "/api/v1/rounds/%d/verify" % r["id"], token=AUDITOR)
        self.assertIs(v["ok"], False)
        self.assertTrue(any("recorded banker" in p["problem"] and self.pid["PL9"] in p["problem"] for p in v["problems"]), v)


if __name__ == "__main__":
    pbtest.main()
