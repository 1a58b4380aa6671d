"""
The registry of event types (docs/audit.md "The event types"; `pitboss event-types`):

- `pitboss event-types --json` has exactly the shape of API.md ("The event registry"), and the
  text form lists the same types with the same fields;
- one scenario records an event of every registered type through the real daemon (rounds step by
  step and whole, voids with and without a witness, the table's changes, a game file reloaded, the
  dealer, the bank offered, every accounting document, players, seats, cash, Title 31, a manual
  rating, payout corrections, a variance investigated); every body stored is then checked against the registry by
  pbtest.event_body_problems (written apart from the daemon's own check, from the printed
  registry), every registered type is met, and `pitboss verify` finds nothing to say;
- that checker catches a body that does not match.

Every other integration test can make the same check of its own databases: with
PB_CHECK_EVENT_BODIES=1 each clean stop of a daemon checks every stored event
(pbtest.Daemon.check_event_bodies), and PB_EVENT_TYPES_SEEN=FILE appends the types met to FILE:

    PB_CHECK_EVENT_BODIES=1 PB_EVENT_TYPES_SEEN=/tmp/seen python3 tests/integration/test_accounting.py
"""
import datetime
import json
import os
import shutil
import sys
import unittest

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
import pbtest  # noqa: E402
import test_accounting as acct  # noqa: E402
from pbtest import AUDITOR, PITBOSS_TOKEN  # noqa: E402

WHOLE = {
    "bets": {"1": {"ante": 2500, "pair_plus": 1000}, "3": {"ante": 1000}},
    "hands": {"1": ["As", "Ks", "Qs"], "3": ["2c", "3d", "4h"]},
    "dealer": ["Qd", "7c", "2h"],
    "decisions": {"1": "play", "3": "fold"}}
BANKED = {
    "banker": {"seat": 4, "bank": 50000, "player": "P2"},
    "bets": {"1": {"ante": 1000}, "2": {"ante": 500, "pair_plus": 500}},
    "hands": {"1": ["9h", "9c", "5d"], "2": ["3c", "6d", "Ts"]},
    "dealer": ["Qd", "7c", "2h"],
    "decisions": {"1": "play", "2": "fold"}}
FULL_RECORD = {"date_of_birth": "1980-01-02", "id_type": "passport", "id_number": "X1", "id_issuer": "US",
               "id_expiry": "2030-01-01", "address": "1 Main St", "description": "tall"}
JSON_TYPES = {"string", "integer", "boolean", "object", "array", "null"}


class Listing(unittest.TestCase):
    """`pitboss event-types`, as printed."""

    def test_json_has_the_contract_shape(self):
        rc, out, err = pbtest.run_pitboss("event-types", "--json")
        self.assertEqual(rc, 0, err)
        js = json.loads(out)
        self.assertEqual(list(js), ["types"])
        names = [t["type"] for t in js["types"]]
        self.assertEqual(len(names), len(set(names)), "a type listed twice")
        self.assertGreaterEqual(len(names), 30)
        for t in js["types"]:
            self.assertEqual(sorted(t), ["chain", "description", "fields", "type"], t)
            self.assertIn(t["chain"], ("round", "table", "players"), t)
            self.assertRegex(t["type"], r"^[a-z][a-z0-9_]*$")
            self.assertTrue(t["description"] and "\n" not in t["description"], t)
            keys = [f["key"] for f in t["fields"]]
            self.assertEqual(keys, sorted(keys), "%s: fields in key order" % t["type"])
            self.assertEqual(len(keys), len(set(keys)), t["type"])
            for f in t["fields"]:
                self.assertEqual(sorted(f), ["key", "required", "type"], f)
                self.assertIsInstance(f["required"], bool)
                parts = f["type"].split("|")
                self.assertTrue(parts and set(parts) <= JSON_TYPES and len(parts) == len(set(parts)), f)
        # the round's steps, in the chain of rounds; the players' records in theirs
        chains = {t["type"]: t["chain"] for t in js["types"]}
        for name in ("round_opened", "bet_placed", "bet_removed", "betting_closed", "cards_dealt", "decision",
                     "dealer_revealed", "round_settled", "round_voided"):
            self.assertEqual(chains.pop(name), "round", name)
        for name in ("player_registered", "player_updated", "title31_acknowledged", "cage_transaction",
                     "transaction_voided", "player_merged", "title31_noted", "ctr_status_changed",
                     "manual_rating"):
            self.assertEqual(chains.pop(name), "players", name)
        self.assertEqual(set(chains.values()), {"table"})

    def test_text_lists_the_same_types_and_fields(self):
        rc, out, err = pbtest.run_pitboss("event-types")
        self.assertEqual(rc, 0, err)
        lines = out.splitlines()
        self.assertEqual(lines[0].split()[:3], ["type", "chain", "fields"])
        rows = {}
        current = None
        for l in lines[1:]:
            if not l.startswith(" "):
                current = l.split()[0]
                rows[current] = [l.split()[1], l[33:83].strip()]
            else:
                rows[current][1] += " " + l.strip()
        reg = pbtest.event_types()
        self.assertEqual(list(rows), list(reg))
        for name, t in reg.items():
            self.assertEqual(rows[name][0], t["chain"], name)
            want = ", ".join(f["key"] + ("" if f["required"] else "?") for f in t["fields"]) or "-"
            self.assertEqual(rows[name][1], want, name)
            self.assertIn(t["description"], [l[84:] for l in lines if l.startswith(name + " ")][0])

    def test_usage(self):
        for args in (("--bogus",), ("extra",), ("--json", "extra")):
            rc, out, err = pbtest.run_pitboss("event-types", *args)
            self.assertEqual(rc, 2, args)
            self.assertIn("usage: pitboss event-types [--json]", err)
        rc, out, err = pbtest.run_pitboss("event-types", "--help")
        self.assertEqual((rc, err), (0, ""))
        self.assertIn("usage: pitboss event-types [--json]", out)


class Checker(unittest.TestCase):
    """pbtest.event_body_problem, the independent check, says what is wrong."""

    def test_it_catches_what_does_not_match(self):
        ok = '{"ante":1000,"pair_plus":0,"seat":2,"six_card":0}'
        self.assertIsNone(pbtest.event_body_problem("T1", 7, "bet_placed", ok))
        cases = (
            (("T1", 7, "bet_placed", '{"ante":1000,"pair_plus":0,"seat":2}'), "required six_card missing"),
            (("T1", 7, "bet_placed", ok[:-1] + ',"tip":5}'), "'tip' is no field"),
            (("T1", 7, "bet_placed", ok.replace('"seat":2', '"seat":"2"')), "'seat' is string, not integer"),
            (("T1", None, "bet_placed", ok), "a round event in the table chain"),
            (("T1", 7, "bet_moved", ok), "type 'bet_moved' is not in the registry"),
            (("T1", None, "player_updated", '{"anonymous":true,"id":"P1"}'), "a players event in the table chain"),
            (("_players", None, "player_updated", '{"anonymous":"no","id":"P1"}'), "'anonymous' is string"),
            (("T1", None, "dealer_changed", '{"name":null,"person":null}'), None),
            (("T1", None, "dealer_changed", '{"name":null,"person":7}'), "'person' is integer, not string|null"),
            (("T1", None, "table_opened", '[]'), "the body is not an object"),
        )
        for args, want in cases:
            got = pbtest.event_body_problem(*args)
            if want is None:
                self.assertIsNone(got, args)
            else:
                self.assertIsNotNone(got, args)
                self.assertIn(want, got, args)


class EveryType(unittest.TestCase):
    """One record holding every type of event, checked against the registry."""

    def setUp(self):
        self.d = pbtest.Daemon()
        self.addCleanup(self.d.close)
        games = os.path.join(self.d.tmpdir, "games")    # the game files the daemon's own, to change one
        os.mkdir(games)
        for name, path in list(self.d.config["games"].items()):
            shutil.copy(path, os.path.join(games, os.path.basename(path)))
            self.d.config["games"][name] = "games/" + os.path.basename(path)
        self.d.config["accounting"] = {"serials": {"fill": {"prefix": "F-", "digits": 6}}}     # serial_explained
        self.d.write_config()
        self.d.start()
        self.d.stop()
        # a dealer to seat at a table (people are the property's own, not in the record)
        pbtest.add_person(self.d, "E1027", "Ana Ruiz", "dealer")
        acct.setup_people(self.d)
        pbtest.add_person(self.d, "PB2", "Paz Boss", ["pitboss"], acct.PASSWORD % "PB2")   # resolves with PB1
        self.d.start()
        self.tok = {pid: acct.sign_in(self.d, pid) for pid in ("FL1", "CG1", "CT1", "PB1", "DL1")}

    def ok(self, method, path, body=None, status=200, token=pbtest.DEALER):
        st, js = self.d.call(method, "/api/v1" + path, body, token=token)
        self.assertEqual(st, status, "%s %s %s -> %d %s" % (method, path, body, st, js))
        return js

    def rounds(self):
        ok = self.ok
        # step by step, a bet taken down and the dealer's cards at the reveal
        rid = ok("POST", "/tables/T1/rounds", {}, 201)["round"]["id"]
        ok("PUT", "/rounds/%d/bets/2" % rid, {"ante": 1000, "pair_plus": 500})
        ok("PUT", "/rounds/%d/bets/5" % rid, {"ante": 2000})
        ok("DELETE", "/rounds/%d/bets/5" % rid)
        ok("POST", "/rounds/%d/close" % rid, {})
        ok("POST", "/rounds/%d/deal" % rid, {"hands": {"2": ["Jh", "Jd", "4c"]}})
        ok("POST", "/rounds/%d/decisions" % rid, {"seat": 2, "action": "play"})
        ok("POST", "/rounds/%d/reveal" % rid, {"dealer": ["Kc", "5d", "3h"]})
        ok("POST", "/rounds/%d/settle" % rid, {})
        # voids: in betting by the pit boss; after the deal by a dealer's session, witnessed
        rid = ok("POST", "/tables/T2/rounds", {}, 201)["round"]["id"]
        ok("PUT", "/rounds/%d/bets/2" % rid, {"ante": 2000})
        ok("POST", "/rounds/%d/void" % rid, {"reason": "misdeal: exposed card"}, token=PITBOSS_TOKEN)
        rid = ok("POST", "/tables/T2/rounds", {}, 201)["round"]["id"]
        ok("PUT", "/rounds/%d/bets/1" % rid, {"ante": 2000})
        ok("POST", "/rounds/%d/close" % rid, {})
        ok("POST", "/rounds/%d/deal" % rid, {"hands": {"1": ["As", "Ad", "Kc"]}, "dealer": ["Qc", "Jd", "9h"]})
        ok("POST", "/rounds/%d/void" % rid, {"reason": "cards exposed", "witness": acct.witness("FL1")},
           token=self.tok["DL1"])
        # a banked round whose banker is named, and an offer of the bank
        ok("POST", "/tables/P1/rounds", BANKED, 201)
        ok("POST", "/tables/P1/bank-offers", {"seat": 4, "answer": "declined", "player": "P1"}, 201)
        ok("POST", "/tables/P1/bank-offers", {"seat": 3, "answer": "declined",
                                              "provider": {"badge": "TPPPS-0192", "company": "Acme Banking LLC"}}, 201)

    def table_and_players(self):
        ok, cage = self.ok, self.tok["CG1"]
        ok("POST", "/players", dict(FULL_RECORD, card="100001", name="Ana Lopez"), 201, token=cage)
        ok("POST", "/players", {"description": "red cap"}, 201, token=cage)
        ok("PATCH", "/players/P2", dict(FULL_RECORD, card="100002", name="Bo Chen"), token=cage)
        ok("PUT", "/tables/T1/dealer", {"person": "E1027"}, token=PITBOSS_TOKEN)
        ok("PUT", "/tables/T1/seats/1/player", {"player": "P1"})
        ok("PUT", "/tables/T1/seats/3/player", {"player": "P2"})
        ok("POST", "/tables/T1/rounds", WHOLE, 201)            # with its dealer and players
        ok("DELETE", "/tables/T1/seats/3/player")
        day = ok("POST", "/tables/T1/transactions", {"seat": 1, "player": "P1", "direction": "in", "kind": "cash",
                                                    "amount": 1000001}, 201)["gaming_day"]
        ok("POST", "/title31/acknowledgments", {"gaming_day": day, "player": "P1", "direction": "in", "kind": "ctr",
                                                "note": "filed"}, 201, token=cage)
        # the cash controls: the cage, a void, a merge, a further note, a CTR item filed
        ok("POST", "/players", {"description": "green dress"}, 201, token=cage)
        tid = ok("POST", "/cage/transactions", {"player": "P3", "direction": "in", "type": "front_money",
                                                "amount": 50000, "window": "W1"}, 201, token=cage)["id"]
        ok("POST", "/cage/transactions", {"player": "P1", "direction": "out", "type": "chip_redemption",
                                          "amount": 20000}, 201, token=cage)
        ok("POST", "/transactions/%d/void" % tid, {"reason": "keyed twice", "witness": acct.witness("PB1")}, 201,
           token=cage)
        ok("POST", "/players/P3/merge", {"into": "P1", "reason": "same patron", "witness": acct.witness("PB1")}, 201,
           token=cage)
        ok("POST", "/title31/acknowledgments", {"gaming_day": day, "player": "P1", "direction": "in", "kind": "ctr",
                                                "note": "a second note"}, 201, token=cage)
        ok("POST", "/title31/ctr/%s-P1-in" % day, {"status": "filed", "bsa_id": "31000123456789", "note": "filed"}, 201,
           token=cage)
        ok("POST", "/players/P2/ratings", {"average_bet": 2500, "minutes": 60, "table": "T1", "note": "no seat recorded"},
           201, token=self.tok["FL1"])
        ok("PUT", "/tables/T2/limits", {"ante": {"min": 1000, "max": 50000}}, token=PITBOSS_TOKEN)
        ok("POST", "/tables/T3/close", None, token=PITBOSS_TOKEN)
        ok("POST", "/tables/T3/open", None, token=PITBOSS_TOKEN)

    def documents(self):
        tok, w = self.tok, acct.witness

        def post(path, body, who):
            return self.ok("POST", path, body, 201, token=tok[who])
        post("/tables/T1/inventory", {"kind": "opener", "chips": {"2500": 40}, "witness": w("DL1")}, "FL1")
        # slips by the "nj" signatures: the floor and the runner (security) beside the cage, then received at the table
        slip = [w("PB1"), w("SC1")]
        post("/tables/T1/fills", {"serial": "F-1", "chips": {"2500": 4}, "runner": "SC1", "witnesses": slip}, "CG1")
        post("/tables/T1/fills/F-1/void", {"reason": "wrong table", "witness": w("PB1")}, "FL1")
        post("/tables/T1/credits", {"serial": "C-1", "chips": {"500": 3}, "witnesses": slip}, "CG1")
        post("/tables/T1/credits/C-1/void", {"reason": "wrong count", "witness": w("PB1")}, "FL1")
        post("/tables/T1/fills", {"serial": "F-2", "chips": {"2500": 2}, "witnesses": slip}, "CG1")
        post("/tables/T1/fills/F-2/receipt", {"witness": w("DL1")}, "FL1")
        post("/tables/T1/credits", {"serial": "C-2", "chips": {"500": 1}, "witnesses": slip}, "CG1")
        post("/tables/T1/credits/C-2/receipt", {"witnesses": [w("FL1")]}, "DL1")
        post("/tables/T1/inventory", {"kind": "closer", "chips": {"2500": 39}, "witness": w("DL1")}, "FL1")
        # a drop of three days ago: its count sheet, its count team, the pit boss's approval
        back = (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=3)).strftime("%Y-%m-%d")
        post("/tables/T1/drop", {"box": "D-1", "count": acct.count_sheet(12000), "witnesses": acct.count_team(),
                                 "gaming_day": back, "approval": w("PB1")}, "CT1")
        # a fill's serial outside its series (accounting.serials), accounted for
        post("/tables/T1/fills", {"serial": "F-9", "chips": {"2500": 1}, "witnesses": slip}, "CG1")
        post("/serials/fill/F-9/explanation", {"note": "keyed short: the slip reads F-000009", "witness": w("FL1")}, "PB1")
        o = post("/tables/T1/inventory", {"kind": "opener", "chips": {"2500": 38}, "reason": "short",
                                          "witness": w("DL1")}, "FL1")
        post("/exceptions/acknowledgments", {"kind": "inventory_discrepancy", "table": "T1", "ref": str(o["id"]),
                                             "note": "counted again"}, "PB1")
        # a shift change and the closer: the day's count is complete, with a variance (no round since the opener)
        post("/tables/T1/inventory", {"kind": "shift_change", "chips": {"2500": 38}, "witness": w("DL1")}, "FL1")
        day = post("/tables/T1/inventory", {"kind": "closer", "chips": {"2500": 38}, "witness": w("DL1")},
                   "FL1")["gaming_day"]
        var = "/variances/T1/%s" % day
        post(var, {"status": "assigned", "assignee": "FL1", "note": "count the box again"}, "PB1")
        post(var, {"status": "cause_found", "cause": "rounds dealt before the opener", "note": "seen"}, "FL1")
        post(var, {"status": "resolved", "note": "explained", "witness": w("PB2")}, "PB1")
        rid = self.d.db_value("SELECT id FROM rounds WHERE state = 'settled' ORDER BY id LIMIT 1")
        line = self.ok("GET", "/rounds/%d" % rid)["round"]["payouts"][0]
        first = post("/rounds/%d/corrections" % rid, {"seat": line["seat"], "wager": line["wager"],
                                                      "paid": line["net"] + 500, "reason": "overpaid",
                                                      "witness": w("FL1")}, "PB1")
        post("/rounds/%d/corrections" % rid, {"seat": line["seat"], "wager": line["wager"], "paid": line["net"] + 400,
                                              "reason": "counted again", "supersedes": first["id"],
                                              "witness": w("FL1")}, "PB1")

    def reload_a_game(self):
        """A game file changed under unchanged table entries: rules_changed (as test_config_audit does)."""
        path = os.path.join(self.d.tmpdir, "games", "standard.json")
        with open(path) as f:
            game = json.load(f)
        game["pair_plus"]["flush"] = "4"
        with open(path, "w") as f:
            json.dump(game, f)
        self.d.sighup()
        pbtest.wait_until("a rules_changed event",
                          lambda: self.d.db_value("SELECT count(*) FROM events WHERE type = 'rules_changed'"))

    def test_every_type_recorded_matches_the_registry(self):
        self.table_and_players()
        self.rounds()
        self.documents()
        self.reload_a_game()
        self.d.stop()
        seen = set()
        conn = self.d.db_connect()
        try:
            problems = pbtest.event_body_problems(conn, seen)
            met = {(t, k) for (t, b) in conn.execute("SELECT type, body FROM events") for k in json.loads(b)}
        finally:
            conn.close()
        self.assertEqual(problems, [])
        self.assertEqual(sorted(set(pbtest.event_types()) - seen), [], "registered types this record lacks")
        # every field is met, the optional ones too: the registry lists no field the record cannot hold (but
        # table_configured's hashes, optional for the records made before them, are always there now)
        reg = pbtest.event_types()
        unmet = sorted((t, f["key"]) for t, row in reg.items() for f in row["fields"] if (t, f["key"]) not in met)
        self.assertEqual(unmet, [])
        # verify, which names an unknown type, finds every one of them known
        rc, out, err = pbtest.run_pitboss("verify", "--database", self.d.db_path)
        self.assertEqual(rc, 0, out + err)
        self.assertEqual(out.splitlines()[-1], "OK: the record is intact", out)


if __name__ == "__main__":
    pbtest.main()
