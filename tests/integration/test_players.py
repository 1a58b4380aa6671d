"""
Players, seating, rated play and Title 31 against the real daemon (API.md
"Players", docs/players.md): player records and who may read their personal
data; seating and the players each round records; a rating computed here
from the rounds (GET /rounds/{id} payout lines, the edges from `pitboss
analyze --json`) matching the daemon's to the cent; cash at two tables
against the Title 31 limits, at, below and above each; acknowledgments;
the record checked by the integrity check afterwards.

The gaming day boundary is tested in tests/unit/test_title31.c (the clock of
the daemon cannot be moved here).
"""
import csv
import io
import json
import os
from fractions import Fraction
import random
import subprocess
import sys
import threading
import time
import unittest

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
import pbtest  # noqa: E402
from pbtest import DEALER, PITBOSS_TOKEN, AUDITOR  # noqa: E402
from test_reports import random_round  # noqa: E402

PEOPLE = (
    ("FL1", "Flo Floor", ["floor"]),
    ("PB1", "Pat Boss", ["pitboss"]),
    ("DL1", "Dee Dealer", ["dealer"]),
    ("CG1", "Cy Cage", ["cage"]),
    ("SV1", "Sue Surveil", ["surveillance"]),
    ("CT1", "Kim Count", ["count"]),
)
PASSWORD = "the-right-one-%s"


def today():
    return time.strftime("%Y-%m-%d", time.gmtime())


def half_away(x):
    """A Fraction to the nearest integer, a half away from zero (docs/players.md)."""
    n = (abs(x.numerator) * 2 + x.denominator) // (2 * x.denominator)
    return n if x >= 0 else -n


def exact_edge(figures):
    """A wager's house edge as a Fraction, from the analysis' distribution of net results and their counts."""
    net = figures["net"]
    deals = sum(net.values())
    assert deals == figures["combinations"], figures
    return -sum(Fraction(v) * n for v, n in net.items()) / deals


def edges(rules_file):
    """Each wager's exact edge per unit staked (Play 0: the Ante's edge covers the Ante/Play game)."""
    out = subprocess.run([pbtest.PITBOSS, "analyze", "--rules", rules_file, "--json"], check=True, capture_output=True,
                         text=True).stdout
    a = json.loads(out)
    e = {"ante": exact_edge(a["ante_play"]), "pair_plus": exact_edge(a["pair_plus"]),
         "six_card": exact_edge(a["six_card_bonus"]), "play": Fraction(0)}
    for k, v in (("ante", a["ante_play"]), ("pair_plus", a["pair_plus"]), ("six_card", a["six_card_bonus"])):
        assert abs(float(e[k]) - v["house_edge"]) < 1e-15, (k, e[k], v["house_edge"])
    return e


def old_doubles(lines, hands, e):
    """The rating's theoretical, estimate and comps as they were summed in doubles and rounded before (llround)."""
    def llround(x):
        return int(x + 0.5) if x >= 0 else -int(-x + 0.5)
    theo = initial = est = 0.0
    for wager, stake in lines:
        theo += float(e[wager]) * float(stake)
        initial += stake if wager != "play" else 0
    for _ in range(hands):
        est += float(e["ante"])
    return llround(theo), llround(initial / hands * est), llround(theo * 0.3)


class Players(pbtest.DaemonTestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.d.stop()
        for pid, name, roles in PEOPLE:
            pbtest.add_person(cls.d, pid, name, roles, PASSWORD % pid)
        cls.d.start()
        cls.tok = {}
        for pid, _, _ in PEOPLE:
            st, js = cls.d.call("POST", "/api/v1/sessions", {"person": pid, "password": PASSWORD % pid}, token=None)
            assert st == 201, (st, js)
            cls.tok[pid] = js["token"]
        cls.rng = random.Random(19)

    def as_(self, who, method, path, body=None, status=200):
        return self.ok(method, "/api/v1" + path, body, status=status, token=self.tok.get(who, who))

    def register(self, body, who="CG1"):
        return self.as_(who, "POST", "/players", body, status=201)

    # ---- players ----

    def test_1_players_and_personal_data(self):
        p1 = self.register({"card": "100001", "name": "Ana Maria Lopez", "date_of_birth": "1980-02-03",
                            "id_type": "passport", "id_number": "X1234567", "id_issuer": "ES",
                            "id_expiry": "2030-01-01", "address": "1 Main St"})
        self.assertEqual(p1["id"], "P1")
        self.assertFalse(p1["anonymous"])
        before = self.d.db_value("SELECT count(*) FROM events")
        self.refused(409, "card_taken", "POST", "/api/v1/players", {"card": "100001", "name": "Other"},
                     token=self.tok["CG1"])
        self.refused(422, "description_required", "POST", "/api/v1/players", {}, token=self.tok["CG1"])
        self.refused(422, "card_required", "POST", "/api/v1/players", {"name": "No Card"}, token=self.tok["CG1"])
        self.refused(400, "unknown_field", "POST", "/api/v1/players", {"card": "9", "name": "A", "ssn": "1"},
                     token=self.tok["CG1"])
        self.refused(400, "invalid_body", "POST", "/api/v1/players", {"card": "9", "name": "A", "date_of_birth": "x"},
                     token=self.tok["CG1"])
        self.refused(403, "forbidden", "POST", "/api/v1/players", {"card": "9", "name": "A"}, token=DEALER)
        self.refused(403, "forbidden", "POST", "/api/v1/players", {"card": "9", "name": "A"}, token=self.tok["CT1"])
        self.assertEqual(self.d.db_value("SELECT count(*) FROM events"), before)   # refusals change nothing
        p2 = self.register({"card": "100002", "name": "Bo Chen"}, who="FL1")
        p3 = self.register({"description": "tall man, red cap, grey beard"})
        self.assertTrue(p3["anonymous"])
        # the dealer and the count team see no personal data
        for who in (DEALER, "DL1", "CT1"):
            js = self.as_(who, "GET", "/players/P1")
            self.assertEqual(js["display"], "Ana L.")
            self.assertEqual(js["card"], "100001")
            for k in ("name", "date_of_birth", "id_number", "address"):
                self.assertNotIn(k, js)
            self.refused(403, "forbidden", "GET", "/api/v1/players?name=Ana", token=self.tok.get(who, who))
            self.refused(403, "forbidden", "GET", "/api/v1/players/P1/rating", token=self.tok.get(who, who))
        self.assertEqual(self.as_(DEALER, "GET", "/players/P3")["display"], "tall man, red cap, grey beard")
        for who in ("CG1", "FL1", "PB1", "SV1", AUDITOR):
            js = self.as_(who, "GET", "/players/P1")
            self.assertEqual(js["id_number"], "X1234567")
        self.assertEqual([p["id"] for p in self.as_("FL1", "GET", "/players?name=lopez")["players"]], ["P1"])
        self.assertEqual([p["id"] for p in self.as_(DEALER, "GET", "/players?card=100002")["players"]], ["P2"])
        self.assertNotIn("name", self.as_(DEALER, "GET", "/players?card=100002")["players"][0])
        # an anonymous patron identified later: a change recorded who/when, the earlier record kept in the chain
        js = self.as_("CG1", "PATCH", "/players/P3", {"card": "100003", "name": "Cal Dunn"})
        self.assertFalse(js["anonymous"])
        self.assertEqual(js["description"], "tall man, red cap, grey beard")
        evs = self.d.db_rows("SELECT type, actor, body FROM events WHERE table_id = '_players' ORDER BY table_seq")
        self.assertEqual([e[0] for e in evs], ["player_registered"] * 3 + ["player_updated"])
        self.assertEqual(evs[3][1], "CG1")
        self.refused(409, "card_taken", "PATCH", "/api/v1/players/P3", {"card": "100001"}, token=self.tok["CG1"])
        self.refused(404, "player_not_found", "PATCH", "/api/v1/players/P99", {"card": "1"}, token=self.tok["CG1"])
        self.assertEqual(p2["id"], "P2")
        # personal data never in the log
        self.assertNotIn("Lopez", self.d.full_log())

    # ---- seating and rated play ----

    def test_2_seating_and_rating(self):
        self.refused(403, "forbidden", "PUT", "/api/v1/tables/T1/seats/1/player", {"player": "P1"}, token=self.tok["DL1"])
        self.refused(403, "forbidden", "PUT", "/api/v1/tables/T1/seats/1/player", {"player": "P1"}, token=self.tok["CG1"])
        self.refused(422, "unknown_player", "PUT", "/api/v1/tables/T1/seats/1/player", {"player": "P77"},
                     token=self.tok["FL1"])
        self.refused(422, "invalid_seat", "PUT", "/api/v1/tables/T1/seats/7/player", {"player": "P1"},
                     token=self.tok["FL1"])
        self.as_("FL1", "PUT", "/tables/T1/seats/1/player", {"player": "P1"})
        self.refused(409, "seat_taken", "PUT", "/api/v1/tables/T1/seats/1/player", {"player": "P2"}, token=self.tok["FL1"])
        # the dealer at the table seats players there
        self.as_("PB1", "PUT", "/tables/T1/dealer", {"person": "DL1"})
        self.as_("DL1", "PUT", "/tables/T1/seats/2/player", {"player": "P2"})
        self.refused(403, "forbidden", "PUT", "/api/v1/tables/T2/seats/2/player", {"player": "P2"}, token=self.tok["DL1"])
        # who sits where (GET /tables/{t}/seats): the record as the reader may read it
        js = self.as_("FL1", "GET", "/tables/T1/seats")
        self.assertEqual(js["table"], "T1")
        self.assertEqual([s["seat"] for s in js["seats"]], [1, 2, 3, 4, 5, 6])
        self.assertEqual([(s["player"] or {}).get("id") for s in js["seats"]], ["P1", "P2", None, None, None, None])
        self.assertEqual(js["seats"][0]["player"]["name"], "Ana Maria Lopez")
        for who in ("DL1", "CT1"):
            seat1 = self.as_(who, "GET", "/tables/T1/seats")["seats"][0]["player"]
            self.assertEqual(sorted(seat1), ["anonymous", "card", "display", "id", "merged_into"])
            self.assertEqual(seat1["display"], "Ana L.")
        self.refused(404, "table_not_found", "GET", "/api/v1/tables/NOPE/seats", token=self.tok["FL1"])
        self.refused(400, "unknown_parameter", "GET", "/api/v1/tables/T1/seats?x=1", token=self.tok["FL1"])
        e = edges(pbtest.os.path.join(pbtest.CONFIG_DIR, "games", "standard.json"))
        want = {"P1": dict(hands=0, wagered=0, initial=0, result=0, theo=Fraction(0)),
                "P2": dict(hands=0, wagered=0, initial=0, result=0, theo=Fraction(0))}
        seat_of = {1: "P1", 2: "P2"}
        hands = known = 0
        for i in range(40):
            if i == 30:   # P2 leaves; seat 2 plays on unknown
                self.as_("FL1", "DELETE", "/tables/T1/seats/2/player")
                seat_of.pop(2)
            r = self.whole("T1", random_round(self.rng, 6, (500, 5000), (500, 2500), (500, 2500), False))
            got = self.ok("GET", "/api/v1/rounds/%d" % r["id"], token=AUDITOR)["round"]
            self.assertEqual(got["players"], {str(s): p for s, p in seat_of.items()})
            seats = {int(s) for s in got["bets"]}
            hands += len(seats)
            known += len(seats & set(seat_of))
            for s, pid in seat_of.items():
                lines = [p for p in got["payouts"] if p["seat"] == s]
                if not lines:
                    continue
                w = want[pid]
                w["hands"] += 1
                for p in lines:
                    w["result"] += p["net"]
                    if p["wager"] == "ante_bonus" or p["result"] == "returned":
                        continue
                    w["wagered"] += p["stake"]
                    if p["wager"] != "play":
                        w["initial"] += p["stake"]
                    w["theo"] += e[p["wager"]] * p["stake"]
        self.refused(409, "seat_empty", "DELETE", "/api/v1/tables/T1/seats/2/player", token=self.tok["FL1"])
        for pid, w in want.items():
            js = self.as_("FL1", "GET", "/players/%s/rating" % pid)
            self.assertEqual(js["hands"], w["hands"], pid)
            self.assertEqual(js["wagered"], w["wagered"], pid)
            self.assertEqual(js["result"], w["result"], pid)
            self.assertEqual(js["theoretical"], half_away(w["theo"]), pid)
            avg = Fraction(w["initial"], w["hands"])
            self.assertEqual(js["average_bet"], half_away(avg), pid)
            self.assertEqual(js["estimated_theoretical"], half_away(avg * w["hands"] * e["ante"]), pid)
            self.assertEqual(js["comps"], half_away(w["theo"] * Fraction(3, 10)), pid)
            self.assertGreaterEqual(js["seconds"], 0)
        rep = self.as_("PB1", "GET", "/reports/ratings?gaming_day=%s" % today())
        self.assertEqual([p["player"] for p in rep["players"]], ["P1", "P2"])
        self.assertEqual(rep["coverage"]["hands"], hands)
        self.assertEqual(rep["coverage"]["rated_hands"], known)
        st, _, body = self.d.request("GET", "/api/v1/reports/ratings?gaming_day=%s&format=csv" % today(),
                                     token=self.tok["PB1"])
        self.assertEqual(st, 200)
        self.assertTrue(body.decode().startswith("player,hands,wagered,average_bet"))
        # a rating of an empty period
        js = self.as_("FL1", "GET", "/players/P1/rating?from=2020-01-01T00:00:00Z&to=2020-01-02T00:00:00Z")
        self.assertEqual((js["hands"], js["wagered"], js["theoretical"]), (0, 0, 0))
        self.refused(400, "invalid_query", "GET", "/api/v1/players/P1/rating?from=yesterday", token=self.tok["FL1"])

    def deal_for(self, table, seat, pid, hands):
        """One round per (ante, pair_plus, six_card) of hands (0: no bet) with pid alone at seat; his rated lines."""
        self.as_("FL1", "PUT", "/tables/%s/seats/%d/player" % (table, seat), {"player": pid})
        lines = []
        for ante, pp, six in hands:
            deck = [r + s for r in "23456789TJQKA" for s in "cdhs"]
            self.rng.shuffle(deck)
            bet = {k: v for k, v in (("ante", ante), ("pair_plus", pp), ("six_card", six)) if v}
            r = self.whole(table, {"bets": {str(seat): bet}, "hands": {str(seat): deck[:3]}, "dealer": deck[3:6],
                                   "decisions": {str(seat): "play"}})
            self.assertEqual(r["players"][str(seat)], pid)
            lines += [(p["wager"], p["stake"]) for p in r["payouts"]
                      if p["seat"] == seat and p["wager"] != "ante_bonus" and p["result"] != "returned"]
        self.as_("FL1", "DELETE", "/tables/%s/seats/%d/player" % (table, seat))
        return lines

    def test_2c_exact_at_half_cents(self):
        """Ratings exactly half a cent from a whole one: rounded away from zero, where sums of doubles fell short.

        Each case's stakes were chosen so that one figure is exactly x.5 cents (checked here with
        fractions); the same lines summed in doubles, as the rating was before, come to x.4999...
        and rounded down (checked too, so that the case still tells the two apart).
        """
        e = edges(pbtest.os.path.join(pbtest.CONFIG_DIR, "games", "standard.json"))
        cases = (
            # 19.00 + 15.00 + 25.00 then 6.00: a theoretical win of 407.5 cents
            ("theoretical", "T1", [(1900, 1500, 2500), (600, 0, 0)]),
            # a theoretical win of 815 cents exactly, whose comps (0.3) are 244.5
            ("comps", "T1", [(1000, 0, 1800), (2900, 700, 800), (600, 0, 800), (500, 2300, 1600)]),
            # 129 hands, 101,792.60 initial: an estimate of 686689/2 = 343,344.5 cents
            ("estimated_theoretical", "T2", [(60000, 19000, 0)] * 128 + [(67260, 0, 0)]),
        )
        rated = {}
        for i, (figure, table, hands) in enumerate(cases):
            pid = self.register({"card": "2000%02d" % i, "name": "Half Cent %d" % i})["id"]
            lines = self.deal_for(table, 3, pid, hands)
            theo = sum(e[w] * stake for w, stake in lines)
            initial = sum(stake for w, stake in lines if w != "play")
            exact = {"theoretical": theo, "estimated_theoretical": Fraction(initial, len(hands)) * len(hands) * e["ante"],
                     "comps": theo * Fraction(3, 10)}
            self.assertEqual(exact[figure].denominator, 2, (figure, exact[figure]))
            js = self.as_("FL1", "GET", "/players/%s/rating" % pid)
            self.assertEqual((js["hands"], js["wagered"]), (len(hands), sum(stake for _, stake in lines)))
            self.assertEqual(js["average_bet"], half_away(Fraction(initial, len(hands))))
            for k, v in exact.items():
                self.assertEqual(js[k], half_away(v), (figure, k, v))
            old = dict(zip(("theoretical", "estimated_theoretical", "comps"), old_doubles(lines, len(hands), e)))
            self.assertEqual(old[figure], js[figure] - 1, (figure, old))
            rated[pid] = js
        # the day's report, JSON and CSV, says the same
        rep = self.as_("PB1", "GET", "/reports/ratings?gaming_day=%s" % today())
        rows = {p["player"]: p for p in rep["players"]}
        st, _, body = self.d.request("GET", "/api/v1/reports/ratings?gaming_day=%s&format=csv" % today(),
                                     token=self.tok["PB1"])
        self.assertEqual(st, 200)
        cells = {r["player"]: r for r in csv.DictReader(io.StringIO(body.decode()))}
        for pid, js in rated.items():
            for k in ("theoretical", "estimated_theoretical", "comps", "average_bet"):
                self.assertEqual(rows[pid][k], js[k], (pid, k))
                self.assertEqual(int(cells[pid][k]), js[k], (pid, k))

    def seated_at(self, table):
        return [(s["player"] or {}).get("id") for s in self.as_("FL1", "GET", "/tables/%s/seats" % table)["seats"]]

    def test_2b_one_seat_per_player(self):
        """A player sits at one seat at a time: anywhere else is refused until he leaves; a move is both recorded."""
        pid = self.register({"card": "100077", "name": "Dana Move"})["id"]
        anon = self.register({"description": "woman in a green coat"})["id"]
        self.as_("FL1", "PUT", "/tables/T1/seats/3/player", {"player": pid})
        changes = self.d.db_value("SELECT count(*) FROM seat_changes")
        t2 = self.seated_at("T2")
        # another table, another seat of the same table: refused, naming where he sits; nothing recorded
        err = self.refused(409, "player_seated_elsewhere", "PUT", "/api/v1/tables/T2/seats/1/player", {"player": pid},
                           token=self.tok["FL1"])
        self.assertIn("seat 3 of table T1", err["message"])
        self.assertIn("DELETE /api/v1/tables/T1/seats/3/player", err["message"])
        self.refused(409, "player_seated_elsewhere", "PUT", "/api/v1/tables/T1/seats/4/player", {"player": pid},
                     token=self.tok["FL1"])
        self.assertEqual(self.seated_at("T2"), t2)
        self.assertEqual(self.seated_at("T1")[3], None)
        self.assertEqual(self.d.db_value("SELECT count(*) FROM seat_changes"), changes)
        self.assertEqual(self.d.db_value("SELECT count(*) FROM seat_players WHERE player_id = ?", (pid,)), 1)
        # the seat he has: answered as before, nothing recorded
        events = self.d.db_value("SELECT count(*) FROM events")
        js = self.as_("FL1", "PUT", "/tables/T1/seats/3/player", {"player": pid})
        self.assertEqual((js["table"], js["seat"], js["player"]), ("T1", 3, pid))
        self.assertEqual(self.d.db_value("SELECT count(*) FROM events"), events)
        # a move: he leaves, then sits at the other table; both recorded
        self.as_("FL1", "DELETE", "/tables/T1/seats/3/player")
        self.as_("FL1", "PUT", "/tables/T2/seats/1/player", {"player": pid})
        seatings = self.as_("FL1", "GET", "/players/" + pid)["seatings"]
        self.assertEqual([(s["table"], s["seat"], s["seated"]) for s in seatings],
                         [("T1", 3, True), ("T1", 3, False), ("T2", 1, True)])
        # an anonymous patron's record the same
        self.as_("FL1", "PUT", "/tables/T2/seats/2/player", {"player": anon})
        err = self.refused(409, "player_seated_elsewhere", "PUT", "/api/v1/tables/T1/seats/5/player", {"player": anon},
                           token=self.tok["FL1"])
        self.assertIn("seat 2 of table T2", err["message"])
        for seat in (1, 2):
            self.as_("FL1", "DELETE", "/tables/T2/seats/%d/player" % seat)
        # ten seatings of one player at once, at ten empty seats of two tables: one recorded
        free = [("T1", s) for s in range(2, 7) if self.seated_at("T1")[s - 1] is None] + [("T2", s) for s in range(1, 6)]
        self.assertEqual(len(free), 10, free)
        gate, res = threading.Barrier(10), [None] * 10

        def sit(i):
            gate.wait()
            res[i] = self.d.call("PUT", "/api/v1/tables/%s/seats/%d/player" % free[i], {"player": pid},
                                 token=self.tok["FL1"])
        threads = [threading.Thread(target=sit, args=(i,)) for i in range(10)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(sorted(st for st, _ in res), [200] + [409] * 9, res)
        self.assertEqual({js["error"]["code"] for st, js in res if st == 409}, {"player_seated_elsewhere"})
        where = free[[st for st, _ in res].index(200)]
        self.assertEqual(self.d.db_rows("SELECT table_id, seat FROM seat_players WHERE player_id = ?", (pid,)), [where])
        self.as_("FL1", "DELETE", "/tables/%s/seats/%d/player" % where)

    # ---- Title 31 ----

    def cash(self, table, player, direction, amount, kind="cash", who="FL1"):
        return self.as_(who, "POST", "/tables/%s/transactions" % table,
                        {"seat": 1, "player": player, "direction": direction, "kind": kind, "amount": amount}, status=201)

    def test_3_title31(self):
        day = today()
        self.refused(403, "forbidden", "POST", "/api/v1/tables/T1/transactions",
                     {"player": "P1", "direction": "in", "kind": "cash", "amount": 100}, token=self.tok["CG1"])
        self.refused(400, "invalid_body", "POST", "/api/v1/tables/T1/transactions",
                     {"player": "P1", "direction": "sideways", "kind": "cash", "amount": 100}, token=self.tok["FL1"])
        self.refused(422, "invalid_amount", "POST", "/api/v1/tables/T1/transactions",
                     {"player": "P1", "direction": "in", "kind": "cash", "amount": 0}, token=self.tok["FL1"])
        self.cash("T1", "P1", "in", 299999)           # below the MTL threshold
        self.cash("T2", "P1", "in", 300000)           # at it: an MTL entry
        t = self.cash("T1", "P1", "in", 200000)       # 799999: no alert yet
        self.assertEqual(t["totals"], {"cash_in": 799999, "cash_out": 0})
        self.cash("T2", "P1", "out", 500000)          # cash out apart, never netted
        self.cash("T1", "P1", "in", 900000, kind="chips")   # chips are not currency
        rep = self.as_("CG1", "GET", "/reports/title31?gaming_day=%s" % day)
        self.assertEqual(len(rep["mtl"]), 2)
        self.assertEqual(rep["alerts"], [])
        self.cash("T2", "P1", "in", 1)                # 800000: at the alert
        self.cash("T1", "P1", "in", 200000)           # 1000000: at the CTR limit, not over it
        rep = self.as_("CG1", "GET", "/reports/title31?gaming_day=%s" % day)
        self.assertEqual([(a["player"], a["direction"], a["total"]) for a in rep["alerts"]], [("P1", "in", 1000000)])
        self.assertEqual(rep["ctr"], [])
        self.cash("T2", "P1", "in", 1)                # 1000001: over it
        # the formerly anonymous patron, by his record: refused over the limit until his identification is recorded
        err = self.refused(422, "identification_required", "POST", "/api/v1/tables/T1/transactions",
                           {"seat": 1, "player": "P3", "direction": "out", "kind": "cash", "amount": 1000001},
                           token=self.tok["FL1"])
        self.assertIn("$10,000.01, over $10,000.00", err["message"])
        self.as_("CG1", "PATCH", "/players/P3", {"id_type": "passport", "id_number": "X1234567"})
        self.cash("T1", "P3", "out", 1000001)
        rep = self.as_("CG1", "GET", "/reports/title31?gaming_day=%s" % day)
        self.assertEqual(sorted((c["player"], c["direction"], c["total"]) for c in rep["ctr"]),
                         [("P1", "in", 1000001), ("P3", "out", 1000001)])
        self.assertEqual(rep["totals"]["P1"], {"cash_in": 1000001, "cash_out": 500000})
        self.assertEqual(sorted((m["player"], m["table"], m["amount"]) for m in rep["mtl"]),
                         [("P1", "T2", 300000), ("P1", "T2", 500000), ("P3", "T1", 1000001)])
        for m in rep["mtl"]:
            self.assertEqual(set(m), {"id", "player", "counted_for", "table", "seat", "window", "direction", "kind", "type",
                                      "amount", "at", "gaming_day", "by", "description", "name", "void", "patron"})
            self.assertEqual((m["by"], m["seat"], m["type"], m["void"]), ("FL1", 1, "chip_purchase" if
                             m["direction"] == "in" else "other", None))
        self.refused(403, "forbidden", "GET", "/api/v1/reports/title31?gaming_day=%s" % day, token=DEALER)
        # acknowledgments
        ack = {"gaming_day": day, "player": "P1", "direction": "in", "kind": "ctr", "note": "CTR filed, ref 123"}
        self.refused(403, "forbidden", "POST", "/api/v1/title31/acknowledgments", ack, token=self.tok["FL1"])
        self.refused(422, "no_such_item", "POST", "/api/v1/title31/acknowledgments", dict(ack, direction="out"),
                     token=self.tok["CG1"])
        self.as_("CG1", "POST", "/title31/acknowledgments", ack, status=201)
        # a second acknowledgment is a note: kept beside the first
        again = self.as_("PB1", "POST", "/title31/acknowledgments", dict(ack, note="ID copy sent to compliance"), status=201)
        self.assertFalse(again["first"])
        rep = self.as_("PB1", "GET", "/reports/title31?gaming_day=%s" % day)
        done = [c for c in rep["ctr"] if c["player"] == "P1"][0]
        self.assertEqual(done["acknowledged"]["by"], "CG1")
        self.assertEqual([(n["note"], n["by"]) for n in done["notes"]], [("ID copy sent to compliance", "PB1")])
        st, _, body = self.d.request("GET", "/api/v1/reports/title31?gaming_day=%s&format=csv" % day, token=self.tok["PB1"])
        self.assertEqual(st, 200)
        self.assertIn("CTR filed, ref 123", body.decode())

    def test_4_record_verifies(self):
        js = self.ok("GET", "/api/v1/integrity", token=AUDITOR)
        self.assertTrue(js["ok"], js["problems"])
        self.assertIn("_players", [t["table"] for t in js["tables"]])

    def test_5_altered_rows_caught_by_verify(self):
        """The ratings and the Title 31 log read the derived rows: each altered one is named by pitboss verify."""
        def alter(conn):
            conn.execute("DROP TRIGGER table_transactions_no_update")
            conn.execute("UPDATE table_transactions SET amount = amount - 1 WHERE id = (SELECT max(id) "
                         "FROM table_transactions)")
            conn.execute("UPDATE players SET name = 'Someone Else' WHERE id = 'P1'")
            conn.execute("DROP TRIGGER seat_changes_no_delete")
            conn.execute("DELETE FROM seat_changes WHERE id = (SELECT max(id) FROM seat_changes)")
        rc, out, err = self.d.verify_altered_copy(alter)
        self.assertEqual(rc, 1, out + err)
        for table in ("table_transactions", "players", "seat_changes"):
            self.assertRegex(out, r"PROBLEM .*the %s rows differ from what their events record" % table)
        self.assertNotIn("title31_acks rows differ", out)


class Cards(pbtest.DaemonTestCase):
    """Player cards: 1 to 32 of A-Z a-z 0-9 _ -, one card whatever its case (409 card_taken on registration and on a
    change of card, nothing written)."""

    def player(self, method, path, body, status):
        return self.ok(method, "/api/v1" + path, body, status=status, token=pbtest.ADMIN)

    def test_cards_without_regard_to_case(self):
        self.assertEqual(self.player("POST", "/players", {"card": "ABC-1", "name": "Ana Lopez"}, 201)["id"], "P1")
        for card in ("abc-1", "Abc-1", "ABC-1"):
            err = self.refused(409, "card_taken", "POST", "/api/v1/players", {"card": card, "name": "Bo Chen"},
                               token=pbtest.ADMIN)
            self.assertIn("P1", err["message"])
        p2 = self.player("POST", "/players", {"card": "abc_2", "name": "Bo Chen"}, 201)      # '_' now taken
        self.assertEqual((p2["id"], p2["card"]), ("P2", "abc_2"))
        self.refused(409, "card_taken", "PATCH", "/api/v1/players/P2", {"card": "aBc-1"}, token=pbtest.ADMIN)
        self.refused(409, "card_taken", "PATCH", "/api/v1/players/P1", {"card": "ABC_2"}, token=pbtest.ADMIN)
        # A player's own card in another case is his still.
        self.assertEqual(self.player("PATCH", "/players/P1", {"card": "abc-1"}, 200)["card"], "abc-1")
        for card in ("A.1", "A 1", "7" * 33, ""):
            err = self.refused(400, "invalid_body", "POST", "/api/v1/players", {"card": card, "name": "Cy Dunn"},
                               token=pbtest.ADMIN)
            self.assertIn("card", err["message"])
        self.assertEqual(self.player("POST", "/players", {"card": "7" * 32, "name": "Cy Dunn"}, 201)["id"], "P3")
        self.assertEqual([p["id"] for p in self.player("GET", "/players?card=abc-1", None, 200)["players"]], ["P1"])


if __name__ == "__main__":
    unittest.main()
