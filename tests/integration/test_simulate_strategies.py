#!/usr/bin/env python3
"""`pitboss simulate --strategy` (docs/simulator.md, "Player strategies"): the rounds recorded with each
strategy make the decisions the strategy says, checked from GET /rounds with the round's own rules and a
settlement computed here (a three-card evaluator and the dealer hands enumerated):
q64 (the default) plays Q-6-4 or better; always plays; optimal plays when EV(play|X) >= EV(fold|X) over
the C(49,3) dealer hands; hole:100 plays exactly when playing beats folding against the dealer's hand;
share plays when playing is worth at least folding over the dealer hands left by the seat's and its
neighbours' (seat - 1, seat + 1) cards."""
import itertools
import os
import subprocess
import sys
import unittest
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pbtest  # noqa: E402

ROUNDS = 8                  # per table and strategy
TABLES = ("T1", "F1")       # standard rules; Florida (Pair Plus must beat the dealer, forfeited on a fold)
RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK = [r + s for r in RANKS for s in SUITS]
CATEGORIES = ("high_card", "pair", "flush", "straight", "three_of_a_kind", "straight_flush")


def hand_value(cards):
    """A comparable value of three cards: (category, tie-break ranks); A-2-3 the lowest straight."""
    ranks = sorted((RANKS.index(c[0]) for c in cards), reverse=True)
    flush = len({c[1] for c in cards}) == 1
    straight_top = None
    if ranks[0] - ranks[1] == 1 and ranks[1] - ranks[2] == 1:
        straight_top = ranks[0]
    elif ranks == [12, 1, 0]:
        straight_top = 1          # A-2-3: three-high
    if straight_top is not None:
        return (5 if flush else 3, straight_top)
    if ranks[0] == ranks[2]:
        return (4, ranks[0])
    if ranks[0] == ranks[1] or ranks[1] == ranks[2]:
        pair = ranks[1]
        kicker = ranks[2] if ranks[0] == ranks[1] else ranks[0]
        return (1, pair, kicker)
    return (2 if flush else 0,) + tuple(ranks)


def qualifier_value(text):
    """The lowest qualifying hand: "Q" is Q-3-2, "Q-6-4" itself (missing ranks filled from the bottom)."""
    want = [RANKS.index(r) for r in text.split("-")]
    low = [r for r in range(13) if r not in want]
    while len(want) < 3:
        want.append(low.pop(0))
    return (0,) + tuple(sorted(want, reverse=True))


def pay(table, cards, value):
    """The pay (a Fraction, to 1) of a pay table for a hand, or None."""
    if not table:
        return None
    ranks = {c[0] for c in cards}
    if "mini_royal" in table and ranks == {"A", "K", "Q"} and len({c[1] for c in cards}) == 1:
        return Fraction(table["mini_royal"])
    p = table.get(CATEGORIES[value[0]])
    return Fraction(p) if p is not None else None


def win(p, stake):
    return int(p * stake)     # rounded down to the cent


def net(rules, ante, pp, cards, pv, dv, play):
    """The seat's net in cents against dealer value dv (the 6-Card Bonus left out)."""
    if not play:
        return -ante - pp
    if dv < qualifier_value(rules["dealer_qualifier"]):
        n = ante
    elif pv > dv:
        n = 2 * ante
    elif pv < dv:
        n = -2 * ante
    else:
        n = 0
    if pp:
        p = pay(rules.get("pair_plus"), cards, pv)
        if rules.get("pair_plus_mode", "standard") == "standard":
            n += win(p, pp) if p is not None else -pp
        elif pv == dv:
            push = rules.get("pair_plus_tie", "push") == "push" or pv[0] >= 1
            n += 0 if push else -pp
        else:
            n += win(p, pp) if pv > dv and p is not None else -pp
    bonus = pay(rules.get("ante_bonus"), cards, pv)
    if bonus is not None:
        n += win(bonus, ante)
    return n


VALUES = {frozenset(h): hand_value(h) for h in itertools.combinations(DECK, 3)}


def gain_sum(rules, ante, pp, cards, seen):
    """Sum over the dealer hands from the cards not in `seen` of net(play) - net(fold)."""
    pv = hand_value(cards)
    counts = {}
    for h, dv in VALUES.items():
        if not (h & seen):
            counts[dv] = counts.get(dv, 0) + 1
    fold = net(rules, ante, pp, cards, pv, None, False)
    return sum(k * (net(rules, ante, pp, cards, pv, dv, True) - fold) for dv, k in counts.items())


class SimulateStrategies(pbtest.DaemonTestCase):
    def simulate(self, *args):
        r = subprocess.run([pbtest.PITBOSS, "simulate", "--url", "http://%s:%d" % (self.d.host, self.d.port),
                            "--token", pbtest.DEALER, "--tables", ",".join(TABLES), "--rounds", str(ROUNDS),
                            "--rate", "0", "--misdeal-rate", "0", "--quiet"] + list(args),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
        return r.returncode, r.stderr.decode()

    def rounds_since(self, seen):
        """The settled rounds at TABLES not in `seen` (ids), read in full; adds them to seen."""
        out = []
        for t in TABLES:
            st, js = self.call("GET", "/api/v1/tables/%s/rounds?limit=200" % t, token=pbtest.PITBOSS_TOKEN)
            self.assertEqual(st, 200, js)
            for r in js["rounds"]:
                if r["id"] in seen:
                    continue
                seen.add(r["id"])
                st, full = self.call("GET", "/api/v1/rounds/%s" % r["id"], token=pbtest.PITBOSS_TOKEN)
                self.assertEqual(st, 200, full)
                rnd = full.get("round", full)
                self.assertEqual(rnd["state"], "settled", rnd)
                out.append(rnd)
        return out

    def decisions(self, strategy):
        """Runs the simulator with `strategy` and yields (round, seat, bet, cards, decision) of each decision."""
        seen = getattr(self, "_seen", set())
        self._seen = seen
        self.rounds_since(seen)
        args = [] if strategy is None else ["--strategy", strategy]
        rc, err = self.simulate(*args)
        self.assertEqual(rc, 0, err)
        rounds = self.rounds_since(seen)
        self.assertEqual(len(rounds), ROUNDS * len(TABLES), err)
        n = 0
        for rnd in rounds:
            for seat, d in sorted(rnd["decisions"].items()):
                n += 1
                yield rnd, int(seat), rnd["bets"][seat], rnd["hands"][seat]["cards"], d
        self.assertGreater(n, 0)

    def test_q64_by_default(self):
        q64 = qualifier_value("Q-6-4")
        for rnd, seat, bet, cards, d in self.decisions(None):
            self.assertEqual(d, "play" if hand_value(cards) >= q64 else "fold", (rnd["id"], seat, cards))

    def test_always(self):
        for rnd, seat, bet, cards, d in self.decisions("always"):
            self.assertEqual(d, "play", (rnd["id"], seat, cards))

    def test_optimal(self):
        taken = set()
        for rnd, seat, bet, cards, d in self.decisions("optimal"):
            g = gain_sum(rnd["rules"], bet["ante"], bet["pair_plus"], cards, frozenset(cards))
            self.assertEqual(d, "play" if g >= 0 else "fold", (rnd["id"], seat, cards, bet, g))
            taken.add(d)
        self.assertEqual(taken, {"play", "fold"}, "some hands are played and some folded")

    def test_hole_card_always_seen(self):
        taken = set()
        for rnd, seat, bet, cards, d in self.decisions("hole:100"):
            taken.add(d)
            rules = rnd["rules"]
            pv, dv = hand_value(cards), hand_value(rnd["dealer"]["cards"])
            g = (net(rules, bet["ante"], bet["pair_plus"], cards, pv, dv, True)
                 - net(rules, bet["ante"], bet["pair_plus"], cards, pv, dv, False))
            self.assertEqual(d, "play" if g > 0 else "fold", (rnd["id"], seat, cards, rnd["dealer"]["cards"], g))
        self.assertEqual(taken, {"play", "fold"}, "some hands are played and some folded")

    def test_share(self):
        for rnd, seat, bet, cards, d in self.decisions("share"):
            seen = set(cards)
            for s in (seat - 1, seat + 1):
                if str(s) in rnd["hands"]:
                    seen |= set(rnd["hands"][str(s)]["cards"])
            g = gain_sum(rnd["rules"], bet["ante"], bet["pair_plus"], cards, frozenset(seen))
            self.assertEqual(d, "play" if g >= 0 else "fold", (rnd["id"], seat, cards, sorted(seen), g))

    def test_bad_strategy(self):
        rc, err = self.simulate("--strategy", "hole:120")
        self.assertEqual(rc, 2)
        self.assertIn("--strategy: hole:P takes a percentage 0..100", err)
        rc, err = self.simulate("--strategy", "peek")
        self.assertEqual(rc, 2)
        self.assertIn("--strategy: q64, optimal, always, hole:P or share", err)


if __name__ == "__main__":
    pbtest.main()
