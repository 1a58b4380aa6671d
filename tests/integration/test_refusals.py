"""
The catalogue of refusals: every request pitbossd must refuse, with its HTTP
status, its error code and a message; and for each, proof that the record did
not change (row counts of the round tables, the chain head, the rows of
rounds, bets and table_state are the same before and after).
"""
import sys
import json
import socket

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
import pbtest  # noqa: E402
from pbtest import DEALER, PITBOSS_TOKEN, AUDITOR, ADMIN

T2_SECRET = "t2-only-dealer-secret"
SCOPED = pbtest.token("dealer-t2", "dealer", T2_SECRET, tables=["T2"])

BET = {"ante": 1000, "pair_plus": 1000}
HANDS = {"1": ["As", "Kd", "Qh"], "2": ["2c", "3d", "5h"]}
DEALER_CARDS = ["9c", "9d", "4s"]
WHOLE = {"bets": {"1": {"ante": 1000}}, "hands": {"1": ["As", "Kd", "Qh"]}, "dealer": ["2c", "7d", "9h"],
         "decisions": {"1": "play"}}

STATES = ("betting", "closed", "dealt", "decided", "revealed", "settled", "void")


class Refusals(pbtest.DaemonTestCase):
    # failures count for lockout_seconds: refused_auth lets the count lapse by moving the test clock past it
    daemon_kwargs = {"extra_tokens": [SCOPED], "clock": True,
                     "overrides": {"auth": {"max_failures": 5, "lockout_seconds": 1}}}
    failures_in_a_row = 0

    # ---- a round in a given state ----

    def round_in(self, state, table="T1"):
        """A round of `table` brought to `state`; voided at the end of the test if still in progress."""
        rid = self.open_round(table)
        self.addCleanup(self._cleanup_round, rid)
        if state == "void":
            self.void(rid)
            return rid
        self.ok("PUT", "/api/v1/rounds/%d/bets/1" % rid, BET)
        self.ok("PUT", "/api/v1/rounds/%d/bets/2" % rid, {"ante": 1000})
        if state == "betting":
            return rid
        self.ok("POST", "/api/v1/rounds/%d/close" % rid)
        if state == "closed":
            return rid
        self.ok("POST", "/api/v1/rounds/%d/deal" % rid, {"hands": HANDS})
        if state == "dealt":
            return rid
        self.ok("POST", "/api/v1/rounds/%d/decisions" % rid, {"seat": 1, "action": "play"})
        self.ok("POST", "/api/v1/rounds/%d/decisions" % rid, {"seat": 2, "action": "fold"})
        if state == "decided":
            return rid
        self.ok("POST", "/api/v1/rounds/%d/reveal" % rid, {"dealer": DEALER_CARDS})
        if state == "revealed":
            return rid
        self.ok("POST", "/api/v1/rounds/%d/settle" % rid)
        assert state == "settled", state
        return rid

    def _cleanup_round(self, rid):
        if self.d is None or not self.d.running:
            return
        st, js = self.d.call("GET", "/api/v1/rounds/%d" % rid, token=AUDITOR)
        if st == 200 and js["round"]["state"] not in ("settled", "void"):
            self.d.call("POST", "/api/v1/rounds/%d/void" % rid, {"reason": "test cleanup"}, token=PITBOSS_TOKEN)

    def r(self, rid, rest=""):
        return "/api/v1/rounds/%d%s" % (rid, rest)

    # ---- 401 ----

    def refused_auth(self, *a, **kw):
        """A 401; then a good request, which is served.  A good request does not clear the failure count of
        127.0.0.1 (5 failures within lockout_seconds lock it out): after four, the count is let lapse."""
        err = self.refused(401, "unauthorized", *a, **kw)
        self.ok("GET", "/api/v1/tables/T1", token=AUDITOR)
        Refusals.failures_in_a_row += 1
        if Refusals.failures_in_a_row == 4:
            self.d.advance_clock(1.2)
            Refusals.failures_in_a_row = 0
        return err

    def test_401_no_token(self):
        for method, path, body in (("GET", "/api/v1/tables", None), ("GET", "/api/v1/tables/T1", None),
                                   ("POST", "/api/v1/tables/T1/rounds", {}), ("GET", "/api/v1/rounds/1", None),
                                   ("PUT", "/api/v1/tables/T1/limits", {"ante": {"min": 1, "max": 2}})):
            self.refused_auth(method, path, body, token=None)

    def test_401_bad_token(self):
        for tok in ("wrong-secret", "demo-dealer ", "DEMO-DEALER", "x" * 600):
            self.refused_auth("POST", "/api/v1/tables/T1/rounds", {}, token=tok)
        for header in ("Basic ZGVtbzpkZW1v", "Bearer", "Bearer ", "demo-dealer", "Token demo-dealer"):
            self.refused_auth("POST", "/api/v1/tables/T1/rounds", {}, token=None, headers={"Authorization": header})
        # health needs no token
        self.assertEqual(self.ok("GET", "/api/v1/health", token=None), {"status": "ok"})

    # ---- 403 ----

    def test_403_token_scoped_to_another_table(self):
        self.refused(403, "forbidden", "POST", "/api/v1/tables/T1/rounds", {}, token=T2_SECRET)
        self.refused(403, "forbidden", "POST", "/api/v1/tables/T1/rounds", WHOLE, token=T2_SECRET)
        rid = self.round_in("betting")
        self.refused(403, "forbidden", "PUT", self.r(rid, "/bets/3"), {"ante": 1000}, token=T2_SECRET)
        self.refused(403, "forbidden", "DELETE", self.r(rid, "/bets/1"), token=T2_SECRET)
        self.refused(403, "forbidden", "POST", self.r(rid, "/close"), token=T2_SECRET)
        self.refused(403, "forbidden", "POST", self.r(rid, "/void"), {"reason": "not mine"}, token=T2_SECRET)
        self.refused(403, "forbidden", "GET", self.r(rid), token=T2_SECRET)
        self.refused(403, "forbidden", "GET", "/api/v1/tables/T1", token=T2_SECRET)
        self.refused(403, "forbidden", "GET", "/api/v1/tables/T1/rounds", token=T2_SECRET)
        # ... while its own table works, and the list shows only its own tables
        rid2 = self.open_round("T2", token=T2_SECRET)
        self.addCleanup(self._cleanup_round, rid2)
        self.ok("POST", self.r(rid2, "/void"), {"reason": "scoped token test"}, token=T2_SECRET)
        tables = self.ok("GET", "/api/v1/tables", token=T2_SECRET)["tables"]
        self.assertEqual([t["id"] for t in tables], ["T2"])

    def test_403_auditor_writes(self):
        self.refused(403, "forbidden", "POST", "/api/v1/tables/T1/rounds", {}, token=AUDITOR)
        self.refused(403, "forbidden", "POST", "/api/v1/tables/T1/rounds", WHOLE, token=AUDITOR)
        self.refused(403, "forbidden", "POST", "/api/v1/tables/T1/close", token=AUDITOR)
        self.refused(403, "forbidden", "POST", "/api/v1/tables/T1/open", token=AUDITOR)
        self.refused(403, "forbidden", "PUT", "/api/v1/tables/T1/limits", {"ante": {"min": 500, "max": 1000}}, token=AUDITOR)
        rid = self.round_in("betting")
        self.refused(403, "forbidden", "PUT", self.r(rid, "/bets/3"), {"ante": 1000}, token=AUDITOR)
        self.refused(403, "forbidden", "DELETE", self.r(rid, "/bets/1"), token=AUDITOR)
        self.refused(403, "forbidden", "POST", self.r(rid, "/close"), token=AUDITOR)
        self.refused(403, "forbidden", "POST", self.r(rid, "/void"), {"reason": "auditor"}, token=AUDITOR)
        # reading is fine
        self.ok("GET", self.r(rid), token=AUDITOR)

    def test_403_pitboss_dealing(self):
        self.refused(403, "forbidden", "POST", "/api/v1/tables/T1/rounds", {}, token=PITBOSS_TOKEN)
        self.refused(403, "forbidden", "POST", "/api/v1/tables/T1/rounds", WHOLE, token=PITBOSS_TOKEN)
        rid = self.round_in("betting")
        self.refused(403, "forbidden", "PUT", self.r(rid, "/bets/3"), {"ante": 1000}, token=PITBOSS_TOKEN)
        self.refused(403, "forbidden", "DELETE", self.r(rid, "/bets/1"), token=PITBOSS_TOKEN)
        self.refused(403, "forbidden", "POST", self.r(rid, "/close"), token=PITBOSS_TOKEN)
        self.ok("POST", self.r(rid, "/close"))
        self.refused(403, "forbidden", "POST", self.r(rid, "/deal"), {"hands": HANDS}, token=PITBOSS_TOKEN)
        self.ok("POST", self.r(rid, "/deal"), {"hands": HANDS})
        self.refused(403, "forbidden", "POST", self.r(rid, "/decisions"), {"seat": 1, "action": "play"}, token=PITBOSS_TOKEN)
        self.ok("POST", self.r(rid, "/decisions"), {"seat": 1, "action": "play"})
        self.ok("POST", self.r(rid, "/decisions"), {"seat": 2, "action": "play"})
        self.refused(403, "forbidden", "POST", self.r(rid, "/reveal"), {"dealer": DEALER_CARDS}, token=PITBOSS_TOKEN)
        self.ok("POST", self.r(rid, "/reveal"), {"dealer": DEALER_CARDS})
        self.refused(403, "forbidden", "POST", self.r(rid, "/settle"), token=PITBOSS_TOKEN)
        # the pit boss may void it
        self.assertEqual(self.void(rid)["state"], "void")

    def test_403_dealer_runs_no_table(self):
        self.refused(403, "forbidden", "POST", "/api/v1/tables/T1/close", token=DEALER)
        self.refused(403, "forbidden", "POST", "/api/v1/tables/T1/open", token=DEALER)
        self.refused(403, "forbidden", "PUT", "/api/v1/tables/T1/limits", {"ante": {"min": 500, "max": 1000}}, token=DEALER)

    # ---- 404 ----

    def test_404_unknown_table(self):
        self.refused(404, "table_not_found", "GET", "/api/v1/tables/NOPE", token=AUDITOR)
        self.refused(404, "table_not_found", "POST", "/api/v1/tables/NOPE/rounds", {})
        self.refused(404, "table_not_found", "POST", "/api/v1/tables/NOPE/rounds", WHOLE)
        self.refused(404, "table_not_found", "GET", "/api/v1/tables/NOPE/rounds", token=AUDITOR)
        self.refused(404, "table_not_found", "POST", "/api/v1/tables/NOPE/close", token=PITBOSS_TOKEN)
        self.refused(404, "table_not_found", "PUT", "/api/v1/tables/NOPE/limits", {"ante": {"min": 500, "max": 1000}},
                     token=PITBOSS_TOKEN)
        self.refused(404, "table_not_found", "POST", "/api/v1/tables/t1/rounds", {})    # ids are case-sensitive

    def test_404_unknown_round(self):
        for path in ("/api/v1/rounds/999999", "/api/v1/rounds/0", "/api/v1/rounds/abc", "/api/v1/rounds/-1",
                     "/api/v1/rounds/99999999999999999999999", "/api/v1/rounds/1e3", "/api/v1/rounds/0x10"):
            self.refused(404, "round_not_found", "GET", path, token=AUDITOR)
        self.refused(404, "round_not_found", "PUT", "/api/v1/rounds/999999/bets/1", {"ante": 1000})
        self.refused(404, "round_not_found", "DELETE", "/api/v1/rounds/999999/bets/1")
        for verb, body in (("close", {}), ("deal", {"hands": HANDS}), ("decisions", {"seat": 1, "action": "play"}),
                           ("reveal", {"dealer": DEALER_CARDS}), ("settle", {})):
            self.refused(404, "round_not_found", "POST", "/api/v1/rounds/999999/" + verb, body)
        self.refused(404, "round_not_found", "POST", "/api/v1/rounds/999999/void", {"reason": "x"}, token=PITBOSS_TOKEN)

    def test_404_unknown_path_and_bet(self):
        self.refused(404, None, "GET", "/api/v1/nothing-here", token=AUDITOR)
        self.refused(404, None, "GET", "/api/v2/tables", token=AUDITOR)
        rid = self.round_in("betting")
        self.refused(404, None, "POST", self.r(rid, "/shuffle"))
        self.refused(404, "bet_not_found", "DELETE", self.r(rid, "/bets/3"))

    def test_405_method_not_allowed(self):
        self.refused(405, "method_not_allowed", "DELETE", "/api/v1/tables", token=PITBOSS_TOKEN)
        self.refused(405, "method_not_allowed", "PUT", "/api/v1/tables/T1/rounds", {})
        self.refused(405, "method_not_allowed", "GET", "/api/v1/tables/T1/close", token=PITBOSS_TOKEN)
        self.refused(405, "method_not_allowed", "POST", "/api/v1/health", {}, token=None)

    # ---- 409 wrong state, every step out of order ----

    def test_409_every_step_out_of_order(self):
        steps = {
            "bet": ("PUT", "/bets/3", {"ante": 1000}),
            "unbet": ("DELETE", "/bets/1", None),
            "close": ("POST", "/close", {}),
            "deal": ("POST", "/deal", {"hands": HANDS, "dealer": DEALER_CARDS}),
            "decide": ("POST", "/decisions", {"seat": 1, "action": "play"}),
            "reveal": ("POST", "/reveal", {"dealer": DEALER_CARDS}),
            "settle": ("POST", "/settle", {}),
            "void": ("POST", "/void", {"reason": "out of order"}),
        }
        wrong = {
            "betting": ("deal", "decide", "reveal", "settle"),
            "closed": ("bet", "unbet", "close", "decide", "reveal", "settle"),
            "dealt": ("bet", "unbet", "close", "deal"),
            "decided": ("bet", "unbet", "close", "deal", "decide"),
            "revealed": ("bet", "unbet", "close", "deal", "decide", "reveal"),
            "settled": tuple(steps),
            "void": tuple(steps),
        }
        for state in STATES:
            rid = self.round_in(state)
            for name in wrong[state]:
                method, rest, body = steps[name]
                code = "round_final" if state in ("settled", "void") else None
                if state == "decided" and name == "decide":
                    code = "already_decided"
                tok = PITBOSS_TOKEN if name == "void" else DEALER
                with self.subTest(state=state, step=name):
                    self.refused(409, code, method, self.r(rid, rest), body, token=tok)
            if state not in ("settled", "void"):
                self.void(rid)

    def test_409_round_in_progress(self):
        rid = self.round_in("betting")
        err = self.refused(409, "round_in_progress", "POST", "/api/v1/tables/T1/rounds", {})
        self.assertIn(str(rid), err["message"])
        self.refused(409, "round_in_progress", "POST", "/api/v1/tables/T1/rounds", WHOLE)
        self.void(rid)
        rid = self.round_in("revealed")
        self.refused(409, "round_in_progress", "POST", "/api/v1/tables/T1/rounds", {})

    def test_409_concurrent_opens_on_one_table(self):
        # eight terminals open a round on T1 at once: one wins, the others are told a round is in progress
        import threading
        results = []
        lock = threading.Lock()
        barrier = threading.Barrier(8)

        def go():
            barrier.wait()
            r = self.d.call("POST", "/api/v1/tables/T1/rounds", {})
            with lock:
                results.append(r)

        threads = [threading.Thread(target=go) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        won = [js for st, js in results if st == 201]
        self.assertEqual(len(won), 1, results)
        for st, js in results:
            if st != 201:
                self.assertEqual((st, js["error"]["code"]), (409, "round_in_progress"))
        rid = won[0]["round"]["id"]
        self.addCleanup(self._cleanup_round, rid)
        self.assertEqual(self.d.db_value("SELECT count(*) FROM rounds WHERE table_id = 'T1' AND state NOT IN ('settled', 'void')"), 1)
        self.void(rid)

    def test_400_bad_recall_query(self):
        for q in ("limit=0", "limit=-1", "limit=abc", "limit=1.5", "before=0", "before=abc", "limit=10&before=-5",
                  "limit=100000"):
            with self.subTest(query=q):
                self.refused(400, "invalid_query", "GET", "/api/v1/tables/T1/rounds?" + q, token=AUDITOR)

    def test_409_double_decision(self):
        rid = self.round_in("dealt")
        self.ok("POST", self.r(rid, "/decisions"), {"seat": 1, "action": "play"})
        self.refused(409, "already_decided", "POST", self.r(rid, "/decisions"), {"seat": 1, "action": "play"})
        self.refused(409, "already_decided", "POST", self.r(rid, "/decisions"), {"seat": 1, "action": "fold"})

    def test_409_settle_before_decisions(self):
        rid = self.round_in("dealt")
        self.refused(409, "decisions_pending", "POST", self.r(rid, "/settle"))
        self.ok("POST", self.r(rid, "/decisions"), {"seat": 2, "action": "play"})
        self.refused(409, "decisions_pending", "POST", self.r(rid, "/settle"))
        # with the dealer's cards given at the deal
        self.void(rid)
        rid = self.open_round("T1")
        self.ok("PUT", self.r(rid, "/bets/1"), BET)
        self.ok("POST", self.r(rid, "/close"))
        self.ok("POST", self.r(rid, "/deal"), {"hands": {"1": HANDS["1"]}, "dealer": DEALER_CARDS})
        self.refused(409, "decisions_pending", "POST", self.r(rid, "/settle"))
        self.void(rid)

    def test_409_settle_without_dealer_cards(self):
        rid = self.round_in("decided")
        self.refused(409, "dealer_cards_missing", "POST", self.r(rid, "/settle"))

    def test_409_reveal_when_dealer_already_dealt(self):
        rid = self.open_round("T1")
        self.addCleanup(self._cleanup_round, rid)
        self.ok("PUT", self.r(rid, "/bets/1"), BET)
        self.ok("POST", self.r(rid, "/close"))
        self.ok("POST", self.r(rid, "/deal"), {"hands": {"1": HANDS["1"]}, "dealer": DEALER_CARDS})
        self.ok("POST", self.r(rid, "/decisions"), {"seat": 1, "action": "play"})
        self.refused(409, "dealer_already_dealt", "POST", self.r(rid, "/reveal"), {"dealer": ["2c", "3d", "5h"]})
        self.ok("POST", self.r(rid, "/settle"))

    # ---- 422 rules ----

    def test_422_seat_outside_the_table(self):
        rid = self.round_in("betting")                     # T1 has 6 seats
        for seat in ("0", "7", "8", "9", "10", "01", "65"):
            self.refused(422, "invalid_seat", "PUT", self.r(rid, "/bets/" + seat), {"ante": 1000})
        self.refused(422, "invalid_seat", "DELETE", self.r(rid, "/bets/7"))
        self.ok("POST", self.r(rid, "/close"))
        self.refused(422, "invalid_seat", "POST", self.r(rid, "/deal"),
                     {"hands": {"1": HANDS["1"], "2": HANDS["2"], "7": ["4c", "5c", "6c"]}})
        self.refused(422, "invalid_seat", "POST", self.r(rid, "/deal"),
                     {"hands": {"1": HANDS["1"], "2": HANDS["2"], "0": ["4c", "5c", "6c"]}})
        self.ok("POST", self.r(rid, "/deal"), {"hands": HANDS})
        for seat in (0, 7, -1, 1000):
            self.refused(422, "invalid_seat", "POST", self.r(rid, "/decisions"), {"seat": seat, "action": "play"})
        whole = json.loads(json.dumps(WHOLE))
        whole["bets"]["7"] = {"ante": 1000}
        whole["hands"]["7"] = ["4c", "5c", "6c"]
        self.void(rid)
        self.refused(422, "invalid_seat", "POST", "/api/v1/tables/T1/rounds", whole)

    def test_422_limits(self):
        rid = self.round_in("betting")
        for body, code in (({"ante": 499}, "below_minimum"), ({"ante": 50001}, "above_maximum"),
                           ({"ante": 1000, "pair_plus": 499}, "below_minimum"),
                           ({"ante": 1000, "pair_plus": 10001}, "above_maximum"),
                           ({"ante": 1000, "six_card": 1}, "below_minimum"),
                           ({"ante": 1000, "six_card": 2501}, "above_maximum"),
                           ({"ante": 1}, "below_minimum")):
            err = self.refused(422, code, "PUT", self.r(rid, "/bets/3"), body)
            self.assertNotIn("cents", err["message"])
        # the amounts in dollars: T1's Ante is 500..50000 cents
        err = self.refused(422, "below_minimum", "PUT", self.r(rid, "/bets/3"), {"ante": 499})
        self.assertIn("seat 3: the Ante of $%d.%02d is below the table's minimum of $%d.%02d" % (499 // 100, 499 % 100, 500 // 100, 500 % 100),
                      err["message"])
        err = self.refused(422, "above_maximum", "PUT", self.r(rid, "/bets/3"), {"ante": 1000, "pair_plus": 10001})
        self.assertIn("the Pair Plus of $%d.%02d is above the table's maximum of $%d.%02d"
                      % (10001 // 100, 10001 % 100, 10000 // 100, 10000 % 100), err["message"])
        # the same in a whole round: no round is created
        whole = json.loads(json.dumps(WHOLE))
        whole["bets"]["1"]["ante"] = 50001
        self.void(rid)
        self.refused(422, "above_maximum", "POST", "/api/v1/tables/T1/rounds", whole)

    def test_422_wager_not_offered(self):
        rid = self.round_in("betting", table="T2")          # standard game, but T2 has no six_card limit
        self.refused(422, "wager_not_offered", "PUT", self.r(rid, "/bets/3"), {"ante": 1000, "six_card": 1000})
        rid3 = self.round_in("betting", table="T3")         # Tri-Card offers no six card bonus at all
        self.refused(422, "wager_not_offered", "PUT", self.r(rid3, "/bets/3"), {"ante": 1000, "six_card": 1000})
        self.refused(422, "wager_not_offered", "PUT", self.r(rid3, "/bets/4"), {"six_card": 1000})

    def test_422_pair_plus_without_ante(self):
        rid = self.round_in("betting")                      # standard: pair_plus_requires_ante
        self.refused(422, "ante_required", "PUT", self.r(rid, "/bets/3"), {"pair_plus": 500})
        self.refused(422, "ante_required", "PUT", self.r(rid, "/bets/3"), {"six_card": 500})
        self.refused(422, "ante_required", "PUT", self.r(rid, "/bets/3"), {"ante": 0, "pair_plus": 500})
        self.refused(422, "empty_bet", "PUT", self.r(rid, "/bets/3"), {})
        self.refused(422, "empty_bet", "PUT", self.r(rid, "/bets/3"), {"ante": 0})

    def test_422_play_not_equal_to_ante(self):
        rid = self.round_in("betting")
        self.refused(422, "play_must_equal_ante", "PUT", self.r(rid, "/bets/3"), {"ante": 1000, "play": 500})
        self.refused(422, "play_must_equal_ante", "PUT", self.r(rid, "/bets/3"), {"ante": 1000, "play": 2000})

    def test_400_amounts(self):
        rid = self.round_in("betting")
        for raw in ('{"ante": 1000.0}', '{"ante": 1000.5}', '{"ante": 1e3}', '{"ante": "1000"}', '{"ante": -500}',
                    '{"ante": true}', '{"ante": null}', '{"ante": [1000]}', '{"ante": {"cents": 1000}}',
                    '{"ante": 1000, "pair_plus": -1}', '{"ante": 1000, "six_card": 0.5}',
                    '{"ante": 9223372036854775807}', '{"ante": -9223372036854775808}',
                    '{"ante": 9223372036854775808}', '{"ante": 18446744073709551616}',
                    '{"ante": 100000000000000000000000000000}', '{"ante": 1000, "pair_plus": 9223372036854775808}'):
            with self.subTest(body=raw):
                self.refused(400, None, "PUT", self.r(rid, "/bets/3"), raw)
        # floats and strings in a whole round too
        self.void(rid)
        for raw in ('{"bets": {"1": {"ante": 1000.0}}, "hands": {"1": ["As","Kd","Qh"]}, "dealer": ["2c","7d","9h"], "decisions": {"1": "play"}}',
                    '{"bets": {"1": {"ante": "1000"}}, "hands": {"1": ["As","Kd","Qh"]}, "dealer": ["2c","7d","9h"], "decisions": {"1": "play"}}'):
            self.refused(400, "invalid_amount", "POST", "/api/v1/tables/T1/rounds", raw)

    def test_400_amount_codes(self):
        rid = self.round_in("betting")
        for raw in ('{"ante": 1000.0}', '{"ante": "1000"}', '{"ante": -500}', '{"ante": 9223372036854775807}'):
            self.refused(400, "invalid_amount", "PUT", self.r(rid, "/bets/3"), raw)

    def test_400_malformed_json(self):
        rid = self.round_in("betting")
        for raw in ('{"ante": 1000', '{ante: 1000}', 'ante=1000', '{"ante": 1000}}', "{'ante': 1000}",
                    '{"ante": 1000,}', '{"ante": 01000}', b'{"ante": 1000, "x": "\xff\xfe"}',
                    b'{"ante": 1000}\x00', '{"ante": NaN}', '{"ante": Infinity}'):
            with self.subTest(body=raw):
                self.refused(400, None, "PUT", self.r(rid, "/bets/3"), raw)
        self.refused(400, "malformed_json", "PUT", self.r(rid, "/bets/3"), '{"ante": 1000')
        self.refused(400, "malformed_json", "POST", "/api/v1/tables/T2/rounds", '{"bets": ')
        # JSON but not an object
        for raw in ('[]', '[1000]', '1000', '"ante"', 'null', 'true'):
            with self.subTest(body=raw):
                self.refused(400, None, "PUT", self.r(rid, "/bets/3"), raw)
                self.refused(400, None, "POST", "/api/v1/tables/T2/rounds", raw)

    def test_400_duplicate_keys(self):
        rid = self.round_in("betting")
        self.refused(400, None, "PUT", self.r(rid, "/bets/3"), '{"ante": 500, "ante": 600}')
        self.refused(400, None, "PUT", self.r(rid, "/bets/3"), '{"ante": 600, "ante": 600}')
        self.refused(400, None, "POST", "/api/v1/tables/T2/rounds",
                     '{"bets": {"1": {"ante": 1000}, "1": {"ante": 2000}}, "hands": {"1": ["As","Kd","Qh"]}, '
                     '"dealer": ["2c","7d","9h"], "decisions": {"1": "play"}}')
        self.ok("POST", self.r(rid, "/close"))
        self.refused(400, None, "POST", self.r(rid, "/deal"),
                     '{"hands": {"1": ["As","Kd","Qh"], "2": ["2c","3d","5h"], "2": ["4c","5c","6c"]}}')
        self.ok("POST", self.r(rid, "/deal"), {"hands": HANDS})
        self.refused(400, None, "POST", self.r(rid, "/decisions"), '{"seat": 1, "action": "play", "action": "fold"}')

    def test_400_unknown_fields(self):
        rid = self.round_in("betting")
        self.refused(400, "unknown_field", "PUT", self.r(rid, "/bets/3"), {"ante": 1000, "tip": 100})
        self.refused(400, "unknown_field", "PUT", self.r(rid, "/bets/3"), {"Ante": 1000})
        self.refused(400, "unknown_field", "PUT", self.r(rid, "/bets/3"), {"ante": 1000, "bonus": 0})
        self.refused(400, "unknown_field", "POST", self.r(rid, "/void"), {"reason": "x", "by": "me"}, token=PITBOSS_TOKEN)
        self.ok("POST", self.r(rid, "/close"))
        self.refused(400, "unknown_field", "POST", self.r(rid, "/deal"), {"hands": HANDS, "burn": ["2s"]})
        self.ok("POST", self.r(rid, "/deal"), {"hands": HANDS})
        self.refused(400, "unknown_field", "POST", self.r(rid, "/decisions"), {"seat": 1, "action": "play", "amount": 1000})
        self.ok("POST", self.r(rid, "/decisions"), {"seat": 1, "action": "play"})
        self.ok("POST", self.r(rid, "/decisions"), {"seat": 2, "action": "play"})
        self.refused(400, "unknown_field", "POST", self.r(rid, "/reveal"), {"dealer": DEALER_CARDS, "seen": True})
        self.ok("POST", self.r(rid, "/reveal"), {"dealer": DEALER_CARDS})
        self.ok("POST", self.r(rid, "/settle"))
        self.refused(400, "unknown_field", "POST", "/api/v1/tables/T1/rounds", {"shoe": 3})
        whole = json.loads(json.dumps(WHOLE))
        whole["note"] = "x"
        self.refused(400, "unknown_field", "POST", "/api/v1/tables/T1/rounds", whole)
        whole = json.loads(json.dumps(WHOLE))
        whole["bets"]["1"]["tip"] = 5
        self.refused(400, "unknown_field", "POST", "/api/v1/tables/T1/rounds", whole)

    def test_400_unknown_fields_on_steps_without_a_body(self):
        # close, settle, and opening or closing a table take no fields: one sent is a client's mistake
        rid = self.round_in("betting")
        with self.subTest(step="close"):
            self.refused(400, "unknown_field", "POST", self.r(rid, "/close"), {"now": True})
        self._cleanup_round(rid)
        rid = self.round_in("revealed")
        with self.subTest(step="settle"):
            self.refused(400, "unknown_field", "POST", self.r(rid, "/settle"), {"force": True})
        with self.subTest(step="table close"):
            self.refused(400, "unknown_field", "POST", "/api/v1/tables/T2/close", {"until": "tomorrow"}, token=PITBOSS_TOKEN)
        self.d.call("POST", "/api/v1/tables/T2/open", token=PITBOSS_TOKEN)

    def test_400_bad_action_and_seat_types(self):
        rid = self.round_in("dealt")
        self.refused(400, None, "POST", self.r(rid, "/decisions"), {"seat": 1, "action": "raise"})
        self.refused(400, None, "POST", self.r(rid, "/decisions"), {"seat": 1, "action": "PLAYS"})
        self.refused(400, None, "POST", self.r(rid, "/decisions"), {"seat": 1})
        self.refused(400, None, "POST", self.r(rid, "/decisions"), {"seat": "1", "action": "play"})
        self.refused(400, None, "POST", self.r(rid, "/decisions"), {"seat": 1.0, "action": "play"})
        self.refused(400, None, "POST", self.r(rid, "/decisions"), {"action": "play"})

    def test_422_wrong_card_count(self):
        rid = self.round_in("closed")
        for cards in ([], ["As"], ["As", "Kd"], ["As", "Kd", "Qh", "Jc"]):
            self.refused(422, "wrong_card_count", "POST", self.r(rid, "/deal"), {"hands": {"1": cards, "2": HANDS["2"]}})
        self.refused(422, "wrong_card_count", "POST", self.r(rid, "/deal"), {"hands": HANDS, "dealer": ["9c", "9d"]})
        self.ok("POST", self.r(rid, "/deal"), {"hands": HANDS})
        self.ok("POST", self.r(rid, "/decisions"), {"seat": 1, "action": "play"})
        self.ok("POST", self.r(rid, "/decisions"), {"seat": 2, "action": "play"})
        self.refused(422, "wrong_card_count", "POST", self.r(rid, "/reveal"), {"dealer": ["9c", "9d", "4s", "4h"]})

    def test_400_bad_card_text(self):
        rid = self.round_in("closed")
        for bad in ("Xx", "1h", "A", "Ass", "10", "11h", "As ", " As", "Az", "Ts5", "", "♠A", "0s", "1os"):
            with self.subTest(card=bad):
                self.refused(400, "invalid_card", "POST", self.r(rid, "/deal"),
                             {"hands": {"1": ["As", "Kd", bad], "2": HANDS["2"]}})
        for bad in (5, None, ["As"], {"rank": "A"}):
            self.refused(400, "invalid_card", "POST", self.r(rid, "/deal"), {"hands": {"1": ["As", "Kd", bad], "2": HANDS["2"]}})
        self.refused(400, None, "POST", self.r(rid, "/deal"), {"hands": {"1": "AsKdQh", "2": HANDS["2"]}})
        self.refused(400, None, "POST", self.r(rid, "/deal"), {"hands": [["As", "Kd", "Qh"]]})
        self.refused(400, None, "POST", self.r(rid, "/deal"), {"hands": HANDS, "dealer": "9c9d4s"})
        self.refused(400, "invalid_card", "POST", self.r(rid, "/deal"), {"hands": HANDS, "dealer": ["9c", "9d", "4x"]})

    def test_422_duplicate_card(self):
        rid = self.round_in("closed")
        for hands, dealer in (({"1": ["As", "As", "Kd"], "2": HANDS["2"]}, None),      # within a hand
                              ({"1": ["As", "as", "Kd"], "2": HANDS["2"]}, None),      # case does not matter
                              ({"1": ["Th", "10h", "2s"], "2": HANDS["2"]}, None),     # 10 is T
                              ({"1": HANDS["1"], "2": ["2c", "3d", "Qh"]}, None),      # across seats
                              ({"1": HANDS["1"], "2": HANDS["2"]}, ["9c", "9d", "As"]),  # seat and dealer
                              ({"1": HANDS["1"], "2": HANDS["2"]}, ["9c", "9c", "4s"])):  # within the dealer's
            body = {"hands": hands}
            if dealer:
                body["dealer"] = dealer
            with self.subTest(body=body):
                err = self.refused(422, "duplicate_card", "POST", self.r(rid, "/deal"), body)
                self.assertRegex(err["message"], r"[2-9TJQKA][cdhs]")
        self.ok("POST", self.r(rid, "/deal"), {"hands": HANDS})
        self.ok("POST", self.r(rid, "/decisions"), {"seat": 1, "action": "play"})
        self.ok("POST", self.r(rid, "/decisions"), {"seat": 2, "action": "play"})
        err = self.refused(422, "duplicate_card", "POST", self.r(rid, "/reveal"), {"dealer": ["9c", "9d", "Kd"]})
        self.assertIn("Kd", err["message"])
        self.assertIn("dealer", err["message"])
        self.refused(422, "duplicate_card", "POST", self.r(rid, "/reveal"), {"dealer": ["9c", "9d", "9C"]})
        # whole round: no round is created
        self.ok("POST", self.r(rid, "/reveal"), {"dealer": DEALER_CARDS})
        self.ok("POST", self.r(rid, "/settle"))
        whole = json.loads(json.dumps(WHOLE))
        whole["dealer"] = ["As", "7d", "9h"]
        self.refused(422, "duplicate_card", "POST", "/api/v1/tables/T1/rounds", whole)

    def test_422_cards_for_empty_seat_and_missing_cards(self):
        rid = self.round_in("closed")
        self.refused(422, "cards_for_empty_seat", "POST", self.r(rid, "/deal"),
                     {"hands": {"1": HANDS["1"], "2": HANDS["2"], "3": ["4c", "5c", "6c"]}})
        self.refused(422, "missing_cards", "POST", self.r(rid, "/deal"), {"hands": {"1": HANDS["1"]}})
        self.refused(422, "missing_cards", "POST", self.r(rid, "/deal"), {"hands": {}})
        self.refused(400, None, "POST", self.r(rid, "/deal"), {})
        self.refused(400, None, "POST", self.r(rid, "/deal"), {"dealer": DEALER_CARDS})
        whole = json.loads(json.dumps(WHOLE))
        whole["hands"]["2"] = ["4c", "5c", "6c"]
        self.void(rid)
        self.refused(422, "cards_for_empty_seat", "POST", "/api/v1/tables/T1/rounds", whole)
        whole = json.loads(json.dumps(WHOLE))
        whole["bets"]["2"] = {"ante": 1000}
        whole["decisions"]["2"] = "play"
        self.refused(422, "missing_cards", "POST", "/api/v1/tables/T1/rounds", whole)

    def test_422_decision_without_ante(self):
        rid = self.round_in("dealt")
        self.refused(422, "decision_without_ante", "POST", self.r(rid, "/decisions"), {"seat": 5, "action": "play"})
        self.refused(422, "decision_without_ante", "POST", self.r(rid, "/decisions"), {"seat": 5, "action": "fold"})
        # Tri-Card: a Pair Plus bet alone has no decision
        rid3 = self.open_round("T3")
        self.addCleanup(self._cleanup_round, rid3)
        self.ok("PUT", self.r(rid3, "/bets/1"), {"pair_plus": 500})
        self.ok("POST", self.r(rid3, "/close"))
        self.ok("POST", self.r(rid3, "/deal"), {"hands": {"1": HANDS["1"]}})
        self.refused(422, "decision_without_ante", "POST", self.r(rid3, "/decisions"), {"seat": 1, "action": "play"})
        # a whole round with a decision for a seat without an Ante
        self.void(rid3)
        self.refused(422, "decision_without_ante", "POST", "/api/v1/tables/T3/rounds",
                     {"bets": {"1": {"pair_plus": 500}}, "hands": {"1": HANDS["1"]}, "dealer": DEALER_CARDS,
                      "decisions": {"1": "play"}})

    def test_422_void_without_reason(self):
        rid = self.round_in("dealt")
        for body in ({}, {"reason": ""}, {"reason": 5}, {"reason": None}, {"reason": ["misdeal"]}, None):
            with self.subTest(body=body):
                self.refused(422, "reason_required", "POST", self.r(rid, "/void"), body, token=PITBOSS_TOKEN)
        self.refused(422, "reason_required", "POST", self.r(rid, "/void"), {"reason": "x" * 5000}, token=PITBOSS_TOKEN)
        # a blank reason is no reason: spaces, tabs and newlines, no-break and ideographic spaces
        for reason in ("   ", " \t\n ", "\u00a0\u3000", "\u200b"):
            with self.subTest(reason=reason):
                self.refused(422, "reason_required", "POST", self.r(rid, "/void"), {"reason": reason},
                             token=PITBOSS_TOKEN)

    def test_400_void_reason_with_control_characters(self):
        rid = self.round_in("dealt")
        for reason, at in (("misdeal\u001b[2J", "U+001B at byte 7"), ("a\tb", "U+0009"), ("a\r\nb", "U+000D"),
                           ("x\u007f", "U+007F"), ("x\u0085", "U+0085")):
            with self.subTest(reason=reason):
                err = self.refused(400, "invalid_text", "POST", self.r(rid, "/void"), {"reason": reason},
                                   token=PITBOSS_TOKEN)
                self.assertIn("void: reason", err["message"])
                self.assertIn(at, err["message"])
        # a NUL never gets this far: the JSON parser refuses \u0000
        self.refused(400, "malformed_json", "POST", self.r(rid, "/void"), {"reason": "x\u0000y"}, token=PITBOSS_TOKEN)
        # a newline is allowed, and the reason is kept as typed
        st, js = self.d.call("POST", self.r(rid, "/void"), {"reason": "misdeal:\nexposed card"}, token=PITBOSS_TOKEN)
        self.assertEqual(st, 200, js)
        self.assertEqual(self.d.db_value("SELECT void_reason FROM rounds WHERE id = ?", (rid,)), "misdeal:\nexposed card")

    def test_422_close_without_bets(self):
        rid = self.open_round("T1")
        self.addCleanup(self._cleanup_round, rid)
        self.refused(422, "no_bets", "POST", self.r(rid, "/close"))

    def test_whole_round_incomplete(self):
        for key in ("bets", "hands", "dealer"):
            whole = json.loads(json.dumps(WHOLE))
            del whole[key]
            with self.subTest(missing=key):
                self.refused(400, None, "POST", "/api/v1/tables/T1/rounds", whole)
        # a seat with an Ante and no decision: the round cannot settle, and nothing is recorded
        whole = json.loads(json.dumps(WHOLE))
        del whole["decisions"]
        before = pbtest.snapshot(self.d)
        st, js = self.d.call("POST", "/api/v1/tables/T1/rounds", whole)
        self.assertIn(st, (409, 422), js)
        self.assertEqual(before, pbtest.snapshot(self.d))

    def test_422_banker(self):
        self.refused(422, "banker_not_allowed", "POST", "/api/v1/tables/T1/rounds", {"banker": {"seat": 1, "bank": 100000}})
        self.refused(422, "banker_required", "POST", "/api/v1/tables/P1/rounds", {})
        self.refused(422, None, "POST", "/api/v1/tables/P1/rounds", {"banker": {"seat": 9, "bank": 100000}})
        self.refused(422, None, "POST", "/api/v1/tables/P1/rounds", {"banker": {"seat": 1, "bank": 9999}})
        self.refused(422, None, "POST", "/api/v1/tables/P1/rounds", {"banker": {"seat": 1, "bank": 500001}})
        self.refused(400, None, "POST", "/api/v1/tables/P1/rounds", {"banker": {"seat": 1, "bank": 100000.5}})
        self.refused(400, None, "POST", "/api/v1/tables/P1/rounds", {"banker": {"seat": 1, "bank": 100000, "x": 1}})

    def test_422_banker_rotation(self):
        # P1 lets a seat bank at most 2 rounds in a row
        body = {"banker": {"seat": 4, "bank": 10000}, "bets": {"1": {"ante": 500}}, "hands": {"1": ["As", "Kd", "Qh"]},
                "dealer": ["2c", "7d", "9h"], "decisions": {"1": "play"}}
        self.ok("POST", "/api/v1/tables/P1/rounds", body, status=201)
        self.ok("POST", "/api/v1/tables/P1/rounds", body, status=201)
        self.refused(422, "rotation_violation", "POST", "/api/v1/tables/P1/rounds", body)
        self.refused(422, "rotation_violation", "POST", "/api/v1/tables/P1/rounds", {"banker": {"seat": 4, "bank": 10000}})
        body["banker"]["seat"] = 5
        self.ok("POST", "/api/v1/tables/P1/rounds", body, status=201)

    # ---- 413 ----

    def test_413_body_too_large(self):
        rid = self.round_in("betting")
        big = '{"ante": 1000, "pad": "' + "x" * (1024 * 1024) + '"}'
        self.refused(413, "body_too_large", "PUT", self.r(rid, "/bets/3"), big)
        self.refused(413, "body_too_large", "POST", "/api/v1/tables/T2/rounds", " " * (1024 * 1024 + 1) + "{}")
        # the same body sent chunked, without a Content-Length
        before = pbtest.snapshot(self.d)
        st, body = self.chunked("PUT", self.r(rid, "/bets/3"), big.encode())
        self.assertEqual(st, 413, body)
        self.assertEqual(json.loads(body)["error"]["code"], "body_too_large")
        self.assertEqual(before, pbtest.snapshot(self.d))
        # just under the limit is not refused for its size
        ok_body = '{"ante": 1000}' + " " * (1024 * 1024 - 20)
        self.ok("PUT", self.r(rid, "/bets/3"), ok_body)
        self.assertTrue(self.d.running)

    def chunked(self, method, path, data):
        s = socket.create_connection((self.d.host, self.d.port), timeout=30)
        try:
            head = ("%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\n"
                    "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n" % (method, path, DEALER)).encode()
            s.sendall(head)
            try:
                for i in range(0, len(data), 65536):
                    c = data[i:i + 65536]
                    s.sendall(b"%x\r\n" % len(c) + c + b"\r\n")
                s.sendall(b"0\r\n\r\n")
            except (BrokenPipeError, ConnectionResetError):
                pass
            resp = b""
            while True:
                try:
                    chunk = s.recv(65536)
                except ConnectionResetError:
                    break
                if not chunk:
                    break
                resp += chunk
        finally:
            s.close()
        head, _, body = resp.partition(b"\r\n\r\n")
        status = int(head.split(b" ")[1])
        if b"transfer-encoding: chunked" in head.lower():
            out = b""
            while body:
                n, _, rest = body.partition(b"\r\n")
                n = int(n, 16)
                if n == 0:
                    break
                out += rest[:n]
                body = rest[n + 2:]
            body = out
        return status, body.decode()

    # ---- idempotency ----

    def test_422_idempotency_key_reused_with_another_body(self):
        rid = self.round_in("betting")
        first = self.ok("PUT", self.r(rid, "/bets/3"), {"ante": 1000}, idem="refusal-key-1")
        self.refused(422, "idempotency_key_reused", "PUT", self.r(rid, "/bets/3"), {"ante": 2000}, idem="refusal-key-1")
        self.refused(422, "idempotency_key_reused", "PUT", self.r(rid, "/bets/4"), {"ante": 1000}, idem="refusal-key-1")
        self.refused(422, "idempotency_key_reused", "DELETE", self.r(rid, "/bets/3"), idem="refusal-key-1")
        # the same request again is answered as the first time
        st, again = self.d.call("PUT", self.r(rid, "/bets/3"), {"ante": 1000}, idem="refusal-key-1")
        self.assertEqual((st, again), (200, first))
        # the key is per token: the same key from another token is another request
        self.refused(403, "forbidden", "PUT", self.r(rid, "/bets/3"), {"ante": 2000}, idem="refusal-key-1", token=AUDITOR)

    def test_400_bad_idempotency_key(self):
        rid = self.round_in("betting")
        self.refused(400, "invalid_idempotency_key", "PUT", self.r(rid, "/bets/3"), {"ante": 1000}, idem="k" * 129)
        self.refused(400, "invalid_idempotency_key", "PUT", self.r(rid, "/bets/3"), {"ante": 1000}, idem="bad\tkey")

    def test_zz_metrics_and_chain_after_refusals(self):
        st, hdrs, raw = self.d.request("GET", "/metrics", token=ADMIN)
        self.assertEqual(st, 200)
        conn = self.d.db_connect()
        try:
            self.assertEqual(pbtest.chain_problems(conn), [])
        finally:
            conn.close()


class Lockout(pbtest.DaemonTestCase):
    """Repeated bad tokens from one address lock it out for a while (429), for failing attempts only; nothing is
    recorded in the round record.  The failures count, and the lockout lasts, for lockout_seconds of the test
    clock: however slow the machine, the three failures lock and the lockout holds until the clock is moved."""
    daemon_kwargs = {"clock": True, "overrides": {"auth": {"max_failures": 3, "lockout_seconds": 600}}}

    def test_429_after_repeated_failures(self):
        self.refused(401, "unauthorized", "GET", "/api/v1/tables", token="bad-1")
        self.refused(401, "unauthorized", "GET", "/api/v1/tables", token="bad-2")
        err = self.refused(429, "locked_out", "POST", "/api/v1/tables/T1/rounds", {}, token="bad-3")
        self.assertIn("127.0.0.1", err["message"])
        self.refused(429, "locked_out", "POST", "/api/v1/tables/T1/rounds", {}, token="bad-4")
        # a good token from the locked-out address is served all the same
        self.ok("GET", "/api/v1/tables")
        # the lockout is a significant event (written by the main loop within a second); the failures are not, one
        # by one: they are summarised (auth_failures) once a minute and at stop
        pbtest.wait_until("the lockout is recorded", lambda: self.d.db_value(
            "SELECT count(*) FROM significant_events WHERE code = 'auth_lockout'") >= 1)
        self.assertEqual(self.d.db_value("SELECT count(*) FROM significant_events WHERE code = 'auth_lockout'"), 1)
        self.assertEqual(self.d.db_value("SELECT count(*) FROM significant_events WHERE code = 'auth_failure'"), 0)
        # lockout_seconds later the address is no longer locked out: a bad token is a plain 401 again
        self.d.advance_clock(600)
        self.ok("POST", "/api/v1/tables/T1/rounds", {}, status=201)
        self.refused(401, "unauthorized", "GET", "/api/v1/tables", token="bad-5")


if __name__ == "__main__":
    pbtest.main()
