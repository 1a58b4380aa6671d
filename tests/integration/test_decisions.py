"""
test_decisions.py - game protection (docs/protection.md, docs/api.md "Game
protection"): the decisions report's figures by player, dealer and table
(JSON and CSV, who may read it), each decided seat's decision_ev and mistake
in GET /rounds/{id}, and the decision_knowledge exception of a flagged group,
acknowledged.  Every figure is computed here from the cards dealt, by a hand
evaluator of this file and an enumeration of the 18,424 dealer hands, under
the standard rules of config/games/standard.json (Ante, Play, Ante Bonus; no
Pair Plus in these rounds).
"""
import csv
import io
import functools
import itertools
import math
import os
import random
import sys
import unittest
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pbtest  # noqa: E402
from pbtest import ADMIN, AUDITOR, DEALER, PITBOSS_TOKEN  # noqa: E402

RANKS = "23456789TJQKA"
DECK = [r + s for r in RANKS for s in "cdhs"]
ANTE_BONUS = {5: 5, 4: 4, 3: 1}          # straight flush, three of a kind, straight (standard.json)
QUALIFIER = (0, 10, 0, 0)                # Q high


def value(cards):
    """A hand's value as a comparable tuple: (category, ranks...), categories 0 high .. 5 straight flush."""
    return value_of(tuple(sorted(cards)))


@functools.lru_cache(maxsize=None)
def value_of(cards):
    """value() of a hand given as a sorted tuple: each of the 22,100 hands is valued once for the whole test."""
    rs = sorted((RANKS.index(c[0]) for c in cards), reverse=True)
    flush = len({c[1] for c in cards}) == 1
    a, b, c = rs
    if a == c:
        return (4, a, 0, 0)
    if a == b:
        return (1, a, c, 0)
    if b == c:
        return (1, b, a, 0)
    top = a if a == b + 1 and b == c + 1 else (1 if (a, b, c) == (12, 1, 0) else -1)
    if top >= 0:
        return (5 if flush else 3, top, 0, 0)
    return (2 if flush else 0, a, b, c)


def net(cards, dealer, ante, played):
    """The seat's net in cents against dealer, played or folded."""
    if not played:
        return -ante
    mine, theirs = value(cards), value(dealer)
    bonus = ante * ANTE_BONUS.get(mine[0], 0)
    if theirs < QUALIFIER:
        return ante + bonus
    if mine > theirs:
        return 2 * ante + bonus
    if mine < theirs:
        return -2 * ante + bonus
    return bonus


@functools.lru_cache(maxsize=None)
def sums_of(cards, ante):
    """sums() of a hand given as a tuple: each hand's enumeration is made once for the whole test."""
    rest = [c for c in DECK if c not in cards]
    n = sp = sf = g2 = 0
    for d in itertools.combinations(rest, 3):
        p, f = net(cards, d, ante, True), -ante
        n += 1
        sp += p
        sf += f
        g2 += (p - f) ** 2
    return n, sp, sf, g2


def sums(cards, ante):
    """(n, sum_play, sum_fold, sum_g2) over the dealer hands from the other 49 cards."""
    return sums_of(tuple(cards), ante)


def round_half_away(x):
    return int(math.floor(x + Fraction(1, 2))) if x >= 0 else -int(math.floor(-x + Fraction(1, 2)))


def figures(decisions):
    """The report's figures of a group of decisions [(cards, dealer, ante, played)]."""
    lost, num, var, mistakes = Fraction(0), Fraction(0), Fraction(0), 0
    for cards, dealer, ante, played in decisions:
        n, sp, sf, g2 = sums(cards, ante)
        ev_p, ev_f = Fraction(sp, n), Fraction(sf, n)
        taken = ev_p if played else ev_f
        mistakes += taken < max(ev_p, ev_f)
        lost += max(ev_p, ev_f) - taken
        g = net(cards, dealer, ante, True) + ante
        e = ev_p - ev_f
        num += (g - e) if played else (-g + e)
        var += Fraction(g2, n) - e * e
    z = float(num) / math.sqrt(float(var)) if var > 0 else 0.0
    return {"decisions": len(decisions), "mistakes": mistakes, "ev_lost": round_half_away(lost), "z": z}


class Decisions(pbtest.StaffTestCase):
    PEOPLE = pbtest.staff("PB1", "DL1", "DL2", "SV1", "FL1", "CT1")
    daemon_kwargs = {"overrides": {"protection": {"z_flag": 2.0, "min_decisions": 12}}}

    @classmethod
    def after_start(cls):
        rng = random.Random(31)
        d = cls.d
        st, js = d.call("POST", "/api/v1/players", {"card": "31-1", "name": "Sy Peek"}, token=ADMIN)
        assert st == 201, js
        cls.player = js["player"]["id"] if "player" in js else js["id"]
        st, js = d.call("PUT", "/api/v1/tables/T1/seats/1/player", {"player": cls.player}, token=ADMIN)
        assert st == 200, js
        cls.recorded = []                # (table, seat, player, dealer, cards, dealer cards, ante, played, round id)
        for table, dealer, rounds in (("T1", "DL1", 16), ("T2", "DL2", 4)):
            st, js = d.call("PUT", "/api/v1/tables/%s/dealer" % table, {"person": dealer}, token=ADMIN)
            assert st == 200, js
            for _ in range(rounds):
                deck = DECK[:]
                rng.shuffle(deck)
                hands = {str(s): [deck.pop(), deck.pop(), deck.pop()] for s in (1, 2)}
                dealer_cards = [deck.pop(), deck.pop(), deck.pop()]
                ante = 1000
                # seat 1 sees the dealer's hand (plays exactly when playing beats folding); seat 2 always plays
                peek = net(hands["1"], dealer_cards, ante, True) > -ante
                decisions = {"1": "play" if peek else "fold", "2": "play"}
                body = {"bets": {"1": {"ante": ante}, "2": {"ante": ante}}, "hands": hands, "dealer": dealer_cards,
                        "decisions": decisions}
                st, js = d.call("POST", "/api/v1/tables/%s/rounds" % table, body, token=DEALER)
                assert st == 201, js
                for s in ("1", "2"):
                    who = cls.player if (table, s) == ("T1", "1") else ""
                    cls.recorded.append((table, int(s), who, dealer, hands[s], dealer_cards, ante,
                                         decisions[s] == "play", js["round"]["id"]))

    def report(self, query, token=AUDITOR):
        return self.ok("GET", "/api/v1/reports/decisions?" + query, token=token)

    def expected(self, keyfn):
        groups = {}
        for r in self.recorded:
            groups.setdefault(keyfn(r), []).append((r[4], r[5], r[6], r[7]))
        return {k: figures(v) for k, v in groups.items()}

    def check_groups(self, js, want):
        got = {g["key"]: g for g in js["groups"]}
        self.assertEqual(sorted(got), sorted(want))
        for k, e in want.items():
            g = got[k]
            for f in ("decisions", "mistakes", "ev_lost"):
                self.assertEqual(g[f], e[f], "%s %s" % (k, f))
            self.assertAlmostEqual(g["z"], e["z"], places=6, msg=k)
            self.assertEqual(g["flagged"], g["z"] >= 2.0 and g["decisions"] >= 12, k)

    def test_1_by_player_dealer_table(self):
        day = self.ok("GET", "/api/v1/tables", token=AUDITOR)["property"]["gaming_day"]
        js = self.report("gaming_day=" + day)
        self.assertEqual((js["group"], js["z_flag"], js["min_decisions"]), ("player", 2.0, 12))
        self.check_groups(js, self.expected(lambda r: r[2] or "%s/%d" % (r[0], r[1])))
        seat = [g for g in js["groups"] if g["key"] == "T2/2"][0]
        self.assertEqual((seat["table"], seat["seat"]), ("T2", 2))
        self.assertEqual([g for g in js["groups"] if g["key"] == self.player][0]["player"], self.player)
        self.check_groups(self.report("group=dealer&gaming_day=" + day), self.expected(lambda r: r[3]))
        self.check_groups(self.report("group=table"), self.expected(lambda r: r[0]))
        self.check_groups(self.report("group=table&table=T2"),
                          {k: v for k, v in self.expected(lambda r: r[0]).items() if k == "T2"})
        peeker = [g for g in js["groups"] if g["key"] == self.player][0]
        self.assertTrue(peeker["flagged"], peeker)
        always = [g for g in js["groups"] if g["key"] == "T1/2"][0]
        self.assertFalse(always["flagged"], always)

    def test_2_csv_and_roles(self):
        st, _, text = self.d.request("GET", "/api/v1/reports/decisions?group=table&format=csv", token=AUDITOR)
        self.assertEqual(st, 200)
        rows = list(csv.DictReader(io.StringIO(text.decode() if isinstance(text, bytes) else text)))
        want = self.expected(lambda r: r[0])
        self.assertEqual(sorted(r["key"] for r in rows), sorted(want))
        for r in rows:
            self.assertEqual(int(r["decisions"]), want[r["key"]]["decisions"])
            self.assertEqual(int(r["ev_lost"]), want[r["key"]]["ev_lost"])
            self.assertEqual(r["ev_lost_amount"], "%.2f" % (want[r["key"]]["ev_lost"] / 100))
        for tok in (PITBOSS_TOKEN, self.tok["FL1"], self.tok["SV1"], self.tok["PB1"]):
            self.report("group=table", token=tok)
        for tok in (DEALER, self.tok["CT1"]):
            self.refused(403, "forbidden", "GET", "/api/v1/reports/decisions", token=tok)
        self.refused(400, "invalid_query", "GET", "/api/v1/reports/decisions?group=hour", token=AUDITOR)
        self.refused(400, "invalid_query", "GET", "/api/v1/reports/decisions?gaming_day=2026-01-01&from=2026-01-01",
                     token=AUDITOR)

    def test_3_round_values(self):
        for table, seat, _, _, cards, _, ante, played, rid in self.recorded[:6]:
            rnd = self.ok("GET", "/api/v1/rounds/%d" % rid, token=AUDITOR)["round"]
            h = rnd["hands"][str(seat)]
            n, sp, sf, _ = sums(cards, ante)
            self.assertEqual(h["decision_ev"], {"play": round(sp / n, 2), "fold": round(sf / n, 2)})
            self.assertEqual(h["mistake"], (sp < sf) if played else (sf < sp))

    def test_4_exception_acknowledged(self):
        js = self.ok("GET", "/api/v1/reports/exceptions", token=PITBOSS_TOKEN)
        found = [e for e in js["exceptions"] if e["kind"] == "decision_knowledge" and e.get("key") == self.player]
        self.assertEqual(len(found), 1, js["exceptions"])
        e = found[0]
        self.assertEqual((e["group"], e["table"], e["acknowledged"]), ("player", "T1", None))
        mine = [r for r in self.recorded if r[2] == self.player]
        self.assertEqual(e["decisions"], len(mine))
        self.assertTrue(1 <= len(e["evidence"]) <= 5)
        weights = [x["weight"] for x in e["evidence"]]
        self.assertEqual(weights, sorted(weights, reverse=True))
        for x in e["evidence"]:
            r = [r for r in mine if r[8] == x["round"]][0]
            self.assertEqual((x["cards"], x["dealer"], x["decision"]), (r[4], r[5], "play" if r[7] else "fold"))
        body = {"kind": "decision_knowledge", "table": "T1", "ref": e["ref"], "note": "tape reviewed"}
        self.refused(404, "exception_not_found", "POST", "/api/v1/exceptions/acknowledgments",
                     dict(body, table="T2"), token=self.tok["PB1"])
        self.refused(404, "exception_not_found", "POST", "/api/v1/exceptions/acknowledgments",
                     dict(body, ref=e["ref"][:11] + "player/T2/2"), token=self.tok["PB1"])
        self.ok("POST", "/api/v1/exceptions/acknowledgments", body, status=201, token=self.tok["PB1"])
        js = self.ok("GET", "/api/v1/reports/exceptions", token=PITBOSS_TOKEN)
        e = [e for e in js["exceptions"] if e["kind"] == "decision_knowledge" and e.get("key") == self.player][0]
        self.assertEqual(e["acknowledged"]["note"], "tape reviewed")


if __name__ == "__main__":
    pbtest.main()
