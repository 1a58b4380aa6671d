"""
Rated play beyond the hands' own lines (docs/players.md, "Rated play, exact"
and "Manual ratings"), against the real daemon:

- the result of a rating adds the recorded corrections of the player's payout
  lines, each line at its latest correction (a superseding one replaces the
  one before, counted once), for the rounds settled in the rating's period;
- a record merged into another counts for the surviving one: its rounds,
  seats and manual ratings are in the survivor's rating, and the report lists
  its play under the survivor (players.merged_into is written here directly:
  the merge itself is another route's);
- manual ratings (POST /api/v1/players/{id}/ratings): the theoretical win,
  average bet x minutes / 60 x decisions an hour x the game's exact Ante/Play
  edge, computed here as a Fraction from `pitboss analyze` and rounded once,
  half away from zero; the rating and the day's report show them apart from
  the measured figures, the CSV with a "source" column; every refusal says
  what to fix and records nothing; pitboss verify catches an altered row.

Every figure is computed here from the inputs and the rounds' own lines.
"""
import csv
import datetime
import io
import json
import os
import subprocess
import sys
import time
import unittest
from fractions import Fraction

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
import pbtest  # noqa: E402
from pbtest import AUDITOR, DEALER  # noqa: E402
from test_players import add_hand, edges, exact_edge, half_away  # noqa: E402

PEOPLE = pbtest.staff("FL1", "FL2", "PB1", "CG1", "DL1", "SV1")

# Seats 1 and 3 of T1: a straight flush with Pair Plus, and a fold.
ROUND = {
    "bets": {"1": {"ante": 2500, "pair_plus": 500}, "3": {"ante": 1000, "six_card": 500}},
    "hands": {"1": ["As", "Ks", "Qs"], "3": ["2c", "3d", "4h"]},
    "dealer": ["Qd", "7c", "2h"],
    "decisions": {"1": "play", "3": "fold"},
}

# The legacy columns of the ratings CSV, in their order; "source" comes after them.
CSV_FIRST = ["player", "hands", "wagered", "average_bet", "result", "theoretical", "estimated_theoretical", "seconds",
             "comps", "source"]


def today():
    return time.strftime("%Y-%m-%d", time.gmtime())


def game_file(name):
    return os.path.join(pbtest.CONFIG_DIR, "games", name + ".json")


def ante_play_edge(game):
    """A game's exact Ante/Play edge per unit of Ante, as a Fraction, from `pitboss analyze --json`."""
    out = subprocess.run([pbtest.PITBOSS, "analyze", "--rules", game_file(game), "--json"], check=True,
                         capture_output=True, text=True).stdout
    return exact_edge(json.loads(out)["ante_play"])


def later(stamp, ms):
    """A stored time (2026-03-01T08:00:00.000Z) ms milliseconds later, in the same form."""
    t = datetime.datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%S.%fZ") + datetime.timedelta(milliseconds=ms)
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (t.microsecond // 1000)


def manual_theo(bet, minutes, per_hour, edge):
    """A manual rating's exact theoretical win: average bet x minutes / 60 x decisions an hour x edge."""
    return Fraction(bet) * minutes / 60 * per_hour * edge


class RatingsCase(pbtest.StaffTestCase):
    PEOPLE = PEOPLE

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.edge = {"standard": edges(game_file("standard")), "florida": {"ante": ante_play_edge("florida")}}

    def as_(self, who, method, path, body=None, status=200, **kw):
        return self.ok(method, "/api/v1" + path, body, status=status, token=self.tok.get(who, who), **kw)

    def register(self, card, name):
        return self.as_("CG1", "POST", "/players", {"card": card, "name": name}, status=201)["id"]

    def seat(self, table, seat, pid):
        self.as_("FL1", "PUT", "/tables/%s/seats/%d/player" % (table, seat), {"player": pid})

    def want_of(self, rounds, seats):
        """The measured figures of the lines of these seats in these rounds (each a dict), as the docs define them."""
        e = self.edge["standard"]
        w = dict(hands=0, wagered=0, initial=0, result=0, theo=Fraction(0))
        for r in rounds:
            for s in seats:
                lines = [p for p in r["payouts"] if p["seat"] == s]
                if not lines:
                    continue
                add_hand(w, lines, e)
        return w

    def assert_measured(self, js, w, corrections=0):
        e = self.edge["standard"]
        self.assertEqual((js["hands"], js["wagered"]), (w["hands"], w["wagered"]))
        self.assertEqual(js["corrections"], corrections)
        self.assertEqual(js["result"], w["result"] + corrections)
        self.assertEqual(js["theoretical"], half_away(w["theo"]))
        avg = Fraction(w["initial"], w["hands"])
        self.assertEqual(js["average_bet"], half_away(avg))
        self.assertEqual(js["estimated_theoretical"], half_away(avg * w["hands"] * e["ante"]))
        self.assertEqual(js["comps"], half_away(w["theo"] * Fraction(3, 10)))


class Ratings(RatingsCase):

    def correct(self, rid, body, who="PB1"):
        body = dict(body, reason=body.get("reason", "mispaid"), witness=pbtest.staff_witness("FL2"))
        return self.as_(who, "POST", "/rounds/%d/corrections" % rid, body, status=201)

    def test_1_corrections_in_the_result(self):
        """An overpay adds paid - owed to the result; a superseding correction replaces the one before it."""
        p1, p2 = self.register("300001", "Ana Lopez"), self.register("300002", "Bo Chen")
        self.seat("T1", 1, p1)
        self.seat("T1", 3, p2)
        r1 = self.whole("T1", ROUND)
        r2 = self.whole("T1", ROUND)
        for s in (1, 3):
            self.as_("FL1", "DELETE", "/tables/T1/seats/%d/player" % s)
        w1, w2 = self.want_of([r1, r2], [1]), self.want_of([r1, r2], [3])
        self.assert_measured(self.as_("FL1", "GET", "/players/%s/rating" % p1), w1)
        # an overpay of seat 1's ante in the first round: the player got paid - owed more than the round says
        owed = next(p["net"] for p in r1["payouts"] if p["seat"] == 1 and p["wager"] == "ante")
        c1 = self.correct(r1["id"], {"seat": 1, "wager": "ante", "paid": owed + 700})
        self.assertEqual(c1["difference"], 700)
        self.assert_measured(self.as_("FL1", "GET", "/players/%s/rating" % p1), w1, corrections=700)
        # the line corrected again: only its latest correction counts, once
        c2 = self.correct(r1["id"], {"seat": 1, "wager": "ante", "paid": owed + 200, "supersedes": c1["id"]})
        self.assertEqual(c2["difference"], 200)
        self.assert_measured(self.as_("FL1", "GET", "/players/%s/rating" % p1), w1, corrections=200)
        # a take of seat 3's ante twice in the second round is the other player's, not this one's
        owed3 = next(p["net"] for p in r2["payouts"] if p["seat"] == 3 and p["wager"] == "ante")
        c3 = self.correct(r2["id"], {"seat": 3, "wager": "ante", "paid": owed3 * 2}, who="FL1")
        self.assertEqual(c3["difference"], owed3)
        self.assert_measured(self.as_("FL1", "GET", "/players/%s/rating" % p1), w1, corrections=200)
        self.assert_measured(self.as_("FL1", "GET", "/players/%s/rating" % p2), w2, corrections=owed3)
        # the period is the rounds': a rating up to just after the first round settled has its correction (made
        # later), and one from just after it has neither the round nor its correction
        cut = later(self.ok("GET", "/api/v1/rounds/%d" % r1["id"], token=AUDITOR)["round"]["settled_at"], 1)
        first = self.as_("FL1", "GET", "/players/%s/rating?to=%s" % (p1, cut))
        self.assert_measured(first, self.want_of([r1], [1]), corrections=200)
        rest = self.as_("FL1", "GET", "/players/%s/rating?from=%s" % (p1, cut))
        self.assert_measured(rest, self.want_of([r2], [1]), corrections=0)
        # the day's report says the same, JSON and CSV
        rep = self.as_("PB1", "GET", "/reports/ratings?gaming_day=%s" % today())
        rows = {r["player"]: r for r in rep["players"]}
        self.assert_measured(rows[p1], w1, corrections=200)
        self.assert_measured(rows[p2], w2, corrections=owed3)
        st, _, body = self.d.request("GET", "/api/v1/reports/ratings?gaming_day=%s&format=csv" % today(),
                                     token=self.tok["PB1"])
        self.assertEqual(st, 200)
        cells = {(r["player"], r["source"]): r for r in csv.DictReader(io.StringIO(body.decode()))}
        self.assertEqual(int(cells[(p1, "measured")]["result"]), w1["result"] + 200)
        self.assertEqual(int(cells[(p1, "measured")]["corrections"]), 200)

    def test_2_manual_ratings(self):
        """A manual rating's theoretical win from the exact edge, rounded once; the rating and the report keep it apart."""
        pid = self.register("300003", "Cal Dunn")
        self.seat("T1", 2, pid)
        rnd = self.whole("T1", {"bets": {"2": {"ante": 1000}}, "hands": {"2": ["Ah", "Kd", "9c"]},
                                "dealer": ["5s", "5d", "2c"], "decisions": {"2": "play"}})
        self.as_("FL1", "DELETE", "/tables/T1/seats/2/player")
        measured = self.as_("FL1", "GET", "/players/%s/rating" % pid)
        self.assert_measured(measured, self.want_of([rnd], [2]))
        self.assertEqual(measured["manual"], {"ratings": [], "minutes": 0, "theoretical": 0})
        # at a table: its game, 60 decisions an hour unless told
        a = self.as_("FL1", "POST", "/players/%s/ratings" % pid, {"average_bet": 2500, "minutes": 90, "table": "T1",
                                                                    "note": "blackjack player on a break"}, status=201)
        ta = manual_theo(2500, 90, 60, self.edge["standard"]["ante"])
        self.assertEqual({k: a[k] for k in ("player", "counted_for", "table", "game", "average_bet", "minutes",
                                             "decisions_per_hour", "gaming_day", "note", "by", "manual", "theoretical")},
                         {"player": pid, "counted_for": pid, "table": "T1", "game": "standard", "average_bet": 2500,
                          "minutes": 90, "decisions_per_hour": 60, "gaming_day": today(),
                          "note": "blackjack player on a break", "by": "FL1", "manual": True,
                          "theoretical": half_away(ta)})
        self.assertTrue(a["id"] >= 1 and a["at"])
        # a game without a table; 4277 cents x 1360 minutes x 105 an hour at the standard edge is exactly x.5 cents
        b = self.as_("PB1", "POST", "/players/%s/ratings" % pid, {"average_bet": 4277, "minutes": 1360, "game": "standard",
                                                                    "decisions_per_hour": 105}, status=201)
        tb = manual_theo(4277, 1360, 105, self.edge["standard"]["ante"])
        self.assertEqual(tb.denominator, 2, tb)
        self.assertEqual((b["table"], b["game"], b["note"], b["by"]), (None, "standard", None, "PB1"))
        self.assertEqual(b["theoretical"], half_away(tb))
        # another game than the table's
        c = self.as_("FL1", "POST", "/players/%s/ratings" % pid, {"average_bet": 1000, "minutes": 45, "table": "T1",
                                                                    "game": "florida", "decisions_per_hour": 50},
                     status=201)
        tc = manual_theo(1000, 45, 50, self.edge["florida"]["ante"])
        self.assertEqual((c["table"], c["game"], c["theoretical"]), ("T1", "florida", half_away(tc)))
        # the player's rating: the measured figures as they were, the manual ones beside, their sum rounded once
        js = self.as_("SV1", "GET", "/players/%s/rating" % pid)
        for k in ("hands", "wagered", "result", "theoretical", "average_bet", "estimated_theoretical", "comps"):
            self.assertEqual(js[k], measured[k], k)
        self.assertEqual([r["id"] for r in js["manual"]["ratings"]], [a["id"], b["id"], c["id"]])
        self.assertEqual(js["manual"]["ratings"][1], b)
        self.assertEqual(js["manual"]["minutes"], 90 + 1360 + 45)
        self.assertEqual(js["manual"]["theoretical"], half_away(ta + tb + tc))
        # by the time each was recorded: a period before them has none
        self.assertEqual(self.as_("FL1", "GET", "/players/%s/rating?to=%s" % (pid, a["at"]))["manual"]["ratings"], [])
        self.assertEqual(len(self.as_("FL1", "GET", "/players/%s/rating?from=%s" % (pid, b["at"]))["manual"]["ratings"]),
                         2)
        # the day's report: the measured row unchanged, the manual ratings apart
        rep = self.as_("PB1", "GET", "/reports/ratings?gaming_day=%s" % today())
        row = next(r for r in rep["players"] if r["player"] == pid)
        for k in ("hands", "wagered", "result", "theoretical", "estimated_theoretical", "comps"):
            self.assertEqual(row[k], measured[k], k)
        self.assertNotIn("manual", row)
        mine = [m for m in rep["manual"] if m["counted_for"] == pid]
        self.assertEqual(mine, js["manual"]["ratings"])
        self.assertEqual(self.as_("PB1", "GET", "/reports/ratings?gaming_day=2020-01-01")["manual"], [])
        # the CSV: the measured columns first, in their order, then the source; a manual row holds its own figures
        st, _, body = self.d.request("GET", "/api/v1/reports/ratings?gaming_day=%s&format=csv" % today(),
                                     token=self.tok["PB1"])
        self.assertEqual(st, 200)
        reader = csv.DictReader(io.StringIO(body.decode()))
        self.assertEqual(reader.fieldnames[:len(CSV_FIRST)], CSV_FIRST)
        cells = [r for r in reader if r["player"] == pid]
        self.assertEqual([r["source"] for r in cells], ["measured", "manual", "manual", "manual"])
        self.assertEqual([(int(r["average_bet"]), int(r["theoretical"]), r["game"], int(r["minutes"]), r["hands"])
                          for r in cells[1:]],
                         [(2500, half_away(ta), "standard", 90, ""), (4277, half_away(tb), "standard", 1360, ""),
                          (1000, half_away(tc), "florida", 45, "")])
        self.assertEqual(int(cells[0]["theoretical"]), measured["theoretical"])
        # the event: in the players' chain, its body the row's fields, the actor who rated
        ev = self.d.db_rows("SELECT actor, body FROM events WHERE table_id = '_players' AND type = 'manual_rating' "
                            "ORDER BY table_seq")
        self.assertEqual([x[0] for x in ev[-3:]], ["FL1", "PB1", "FL1"])
        self.assertIn('"table":null', ev[-2][1])
        self.assertNotIn("note", ev[-2][1])
        # a retry with the same key gets the first answer and records nothing more
        before = self.d.db_value("SELECT count(*) FROM manual_ratings")
        body = {"average_bet": 500, "minutes": 30, "game": "standard"}
        first = self.as_("FL1", "POST", "/players/%s/ratings" % pid, body, status=201, idem="manual-1")
        self.assertEqual(self.as_("FL1", "POST", "/players/%s/ratings" % pid, body, status=201, idem="manual-1"), first)
        self.assertEqual(self.d.db_value("SELECT count(*) FROM manual_ratings"), before + 1)

    def test_3_refusals(self):
        """Each refusal says what to fix and records nothing."""
        pid = self.register("300004", "Dee Evans")
        path = "/api/v1/players/%s/ratings" % pid
        good = {"average_bet": 2500, "minutes": 60, "game": "standard"}

        def refused(status, code, body, who="FL1", p=path):
            return self.refused(status, code, "POST", p, body, token=self.tok.get(who, who))["message"]
        for who in ("DL1", "CG1", "SV1", DEALER, AUDITOR):
            refused(403, "forbidden", good, who=who)
        self.assertIn("fields are", refused(400, "unknown_field", dict(good, avg=1)))
        self.assertIn("average_bet", refused(400, "invalid_amount", {"minutes": 60, "game": "standard"}))
        self.assertIn("average_bet", refused(400, "invalid_amount", dict(good, average_bet=-5)))
        self.assertIn("average_bet", refused(400, "invalid_amount", dict(good, average_bet="25.00")))
        self.assertIn("above 0", refused(422, "invalid_amount", dict(good, average_bet=0)))
        for minutes in (0, 1441, "60", None):
            self.assertIn("minutes", refused(400, "invalid_body", dict(good, minutes=minutes)))
        for per_hour in (0, 401, 60.5):
            self.assertIn("decisions_per_hour", refused(400, "invalid_body", dict(good, decisions_per_hour=per_hour)))
        for note in ("", "   ", "x" * 501, 7):
            self.assertIn("note", refused(400, "invalid_body", dict(good, note=note)))
        refused(400, "invalid_text", dict(good, note="bad\u0007bell"))
        refused(400, "invalid_body", [good])
        self.assertIn("standard", refused(422, "game_required", {"average_bet": 2500, "minutes": 60}))
        self.assertIn("standard", refused(422, "unknown_game", dict(good, game="blackjack")))
        refused(404, "table_not_found", {"average_bet": 2500, "minutes": 60, "table": "NOPE"})
        refused(404, "player_not_found", good, p="/api/v1/players/P999/ratings")
        self.assertEqual(self.d.db_value("SELECT count(*) FROM manual_ratings WHERE player_id = ?", (pid,)), 0)
        # the largest figures are taken: a day of the largest bet at 400 decisions an hour
        big = self.as_("PB1", "POST", "/players/%s/ratings" % pid, {"average_bet": 10 ** 12, "minutes": 1440,
                                                                      "game": "standard", "decisions_per_hour": 400},
                       status=201)
        self.assertEqual(big["theoretical"], half_away(manual_theo(10 ** 12, 1440, 400, self.edge["standard"]["ante"])))
        refused(400, "invalid_amount", dict(good, average_bet=10 ** 12 + 1))

    def test_4_record_verifies(self):
        js = self.ok("GET", "/api/v1/integrity", token=AUDITOR)
        self.assertTrue(js["ok"], js["problems"])

    def test_5_altered_rows_caught_by_verify(self):
        """A manual rating altered, or one added without its event, is named by pitboss verify."""
        self.assertGreater(self.d.db_value("SELECT count(*) FROM manual_ratings"), 0)

        def alter(conn):
            conn.execute("DROP TRIGGER manual_ratings_no_update")
            conn.execute("UPDATE manual_ratings SET average_bet = average_bet + 100 WHERE id = 1")
        rc, out, err = self.d.verify_altered_copy(alter)
        self.assertEqual(rc, 1, out + err)
        self.assertRegex(out, r"PROBLEM .*the manual_ratings rows differ from what their events record")

        def add(conn):
            conn.execute("INSERT INTO manual_ratings (id, player_id, table_id, game, average_bet, minutes, "
                         "decisions_per_hour, gaming_day, note, by, at) SELECT max(id) + 1, 'P1', NULL, 'standard', "
                         "100000, 600, 60, gaming_day, NULL, 'FL1', at FROM manual_ratings")
        rc, out, err = self.d.verify_altered_copy(add)
        self.assertEqual(rc, 1, out + err)
        self.assertRegex(out, r"PROBLEM .*the manual_ratings rows differ from what their events record")
        self.assertNotRegex(out, r"the (players|seat_changes|table_transactions) rows differ")


class Merged(RatingsCase):
    """A record merged into another (players.merged_into, written here as the merge would) counts for the survivor."""

    def test_merged_record_counts_for_the_survivor(self):
        keep, gone = self.register("400001", "Eve Fox"), self.register("400002", "Eve Fox")
        # the same patron under two records, at two seats of the same rounds, and a manual rating of each
        self.seat("T2", 1, keep)
        self.seat("T2", 2, gone)
        bets = {"1": {"ante": 1000, "pair_plus": 1000}, "2": {"ante": 2000}}
        rounds = [self.whole("T2", {"bets": bets, "hands": {"1": ["As", "Ad", "4c"], "2": ["Kh", "Qh", "Jh"]},
                                    "dealer": ["9s", "8d", "2c"], "decisions": {"1": "play", "2": "play"}}),
                  self.whole("T2", {"bets": bets, "hands": {"1": ["3s", "5d", "9c"], "2": ["Th", "Td", "Tc"]},
                                    "dealer": ["Qs", "8c", "2d"], "decisions": {"1": "fold", "2": "play"}})]
        for s in (1, 2):
            self.as_("FL1", "DELETE", "/tables/T2/seats/%d/player" % s)
        m1 = self.as_("FL1", "POST", "/players/%s/ratings" % keep, {"average_bet": 1500, "minutes": 20, "table": "T2"},
                      status=201)
        m2 = self.as_("FL1", "POST", "/players/%s/ratings" % gone, {"average_bet": 3000, "minutes": 40, "table": "T2"},
                      status=201)
        rid = rounds[0]["id"]
        owed = next(p["net"] for p in rounds[0]["payouts"] if p["seat"] == 2 and p["wager"] == "ante")
        self.as_("PB1", "POST", "/rounds/%d/corrections" % rid,
                 {"seat": 2, "wager": "ante", "paid": owed - 300, "reason": "short by 3.00",
                  "witness": pbtest.staff_witness("FL2")}, status=201)
        self.d.stop()
        conn = self.d.db_connect(read_only=False)
        with conn:
            conn.execute("UPDATE players SET merged_into = ? WHERE id = ?", (keep, gone))
        conn.close()
        self.d.start()
        # the survivor's rating: both records' hands (two a round), both records' corrections and manual ratings
        js = self.as_("FL1", "GET", "/players/%s/rating" % keep)
        self.assert_measured(js, self.want_of(rounds, [1, 2]), corrections=-300)
        self.assertIsNone(js["merged_into"])
        self.assertEqual([(m["id"], m["player"], m["counted_for"]) for m in js["manual"]["ratings"]],
                         [(m1["id"], keep, keep), (m2["id"], gone, keep)])
        e = self.edge["standard"]["ante"]
        self.assertEqual(js["manual"]["theoretical"], half_away(manual_theo(1500, 20, 60, e) + manual_theo(3000, 40, 60, e)))
        self.assertEqual(js["manual"]["minutes"], 60)
        # the merged record's own rating names the survivor; it takes no new manual rating
        self.assertEqual(self.as_("FL1", "GET", "/players/%s/rating" % gone)["merged_into"], keep)
        msg = self.refused(409, "player_merged", "POST", "/api/v1/players/%s/ratings" % gone,
                           {"average_bet": 1000, "minutes": 10, "game": "standard"}, token=self.tok["FL1"])["message"]
        self.assertIn(keep, msg)
        # the report: the merged record's play under the survivor, one row; its manual rating counted for him
        rep = self.as_("PB1", "GET", "/reports/ratings?gaming_day=%s" % today())
        self.assertEqual([r["player"] for r in rep["players"]], [keep])
        self.assert_measured(rep["players"][0], self.want_of(rounds, [1, 2]), corrections=-300)
        self.assertEqual([(m["player"], m["counted_for"]) for m in rep["manual"]], [(keep, keep), (gone, keep)])
        self.assertEqual(rep["coverage"]["rated_hands"], 4)
        st, _, body = self.d.request("GET", "/api/v1/reports/ratings?gaming_day=%s&format=csv" % today(),
                                     token=self.tok["PB1"])
        self.assertEqual(st, 200)
        self.assertEqual([(r["player"], r["source"]) for r in csv.DictReader(io.StringIO(body.decode()))],
                         [(keep, "measured"), (keep, "manual"), (keep, "manual")])


if __name__ == "__main__":
    unittest.main()
