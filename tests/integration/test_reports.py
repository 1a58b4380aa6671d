"""
Reports over HTTP against the real pitbossd (docs/reports.md): who may read
them (a dealer gets 403, a token scoped to one table sees only that table),
the CSV download (content type, attachment, a header row, the same figures
as the JSON), and the summary's sums against the rounds as
GET /api/v1/rounds/{id} shows them: handle, house win and hands per table,
per dealer, per hour; the largest payouts against the payout lines; voids
in the exceptions.
"""
import csv
import datetime
import io
import json
import random

import pbtest
from pbtest import DEALER, PITBOSS_TOKEN, AUDITOR, ADMIN

SCOPED = "boss-t1-secret"
WAGERS = ("ante", "play", "pair_plus", "six_card", "ante_bonus")

# (table, seats, ante range, pair plus range or None, six card range or None, pair plus alone allowed)
TABLES = (
    ("T1", 6, (500, 5000), (500, 5000), (500, 2500), False),
    ("T3", 7, (500, 5000), (500, 5000), None, True),
    ("F1", 7, (200, 5000), (200, 2500), None, True),
    ("P1", 8, (500, 5000), (500, 2500), None, False),
)


def random_round(rng, seats, ante, pp, six, pp_alone, banker=None):
    deck = [r + s for r in "23456789TJQKA" for s in "cdhs"]
    rng.shuffle(deck)
    bets, hands, decisions = {}, {}, {}
    for seat in range(1, seats + 1):
        if seat == banker or rng.random() < 0.4:
            continue
        with_ante = not pp_alone or rng.random() < 0.8
        b = {}
        if with_ante:
            b["ante"] = rng.randrange(ante[0], ante[1] + 1, 100)
        if pp and (not with_ante or rng.random() < 0.5):
            b["pair_plus"] = rng.randrange(pp[0], pp[1] + 1, 100)
        if six and with_ante and rng.random() < 0.4:
            b["six_card"] = rng.randrange(six[0], six[1] + 1, 100)
        bets[str(seat)] = b
        hands[str(seat)] = [deck.pop(), deck.pop(), deck.pop()]
        if with_ante:
            decisions[str(seat)] = "play" if rng.random() < 0.7 else "fold"
    if not bets:
        seat = "2" if banker == 1 else "1"
        bets[seat] = {"ante": ante[0]}
        hands[seat] = [deck.pop(), deck.pop(), deck.pop()]
        decisions[seat] = "play"
    body = {"bets": bets, "hands": hands, "dealer": [deck.pop(), deck.pop(), deck.pop()], "decisions": decisions}
    if banker is not None:
        body["banker"] = {"seat": banker, "bank": rng.randrange(10000, 30001, 100)}
    return body


class Reports(pbtest.DaemonTestCase):
    daemon_kwargs = {"extra_tokens": [pbtest.token("boss-t1", "pitboss", SCOPED, ["T1"])]}

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        rng = random.Random(20261121)
        cls.round_ids = []
        banker = 1
        for i in range(120):
            table, seats, ante, pp, six, alone = TABLES[i % len(TABLES)]
            b = None
            if table == "P1":
                b = banker
                banker = banker % seats + 1
            st, js = cls.d.call("POST", "/api/v1/tables/%s/rounds" % table, random_round(rng, seats, ante, pp, six, alone, b))
            assert st == 201, (st, js)
            cls.round_ids.append(js["round"]["id"])
        # two voids, one with bets on
        for reason in ("misdeal: exposed card", "shuffler, \"jam\", redeal"):
            st, js = cls.d.call("POST", "/api/v1/tables/T2/rounds", {})
            assert st == 201, (st, js)
            rid = js["round"]["id"]
            st, js = cls.d.call("PUT", "/api/v1/rounds/%d/bets/1" % rid, {"ante": 1000})
            assert st == 200, (st, js)
            st, js = cls.d.call("POST", "/api/v1/rounds/%d/void" % rid, {"reason": reason}, token=PITBOSS_TOKEN)
            assert st == 200, (st, js)
            cls.round_ids.append(rid)
        cls.rounds = []
        for rid in cls.round_ids:
            st, js = cls.d.call("GET", "/api/v1/rounds/%d" % rid, token=AUDITOR)
            assert st == 200, (st, js)
            cls.rounds.append(js["round"])
        today = datetime.datetime.now(datetime.timezone.utc).date()
        cls.range = "from=%s&to=%s" % (today - datetime.timedelta(days=1), today + datetime.timedelta(days=1))

    # ---- helpers ----

    def summary(self, query, token=AUDITOR):
        return self.ok("GET", "/api/v1/reports/summary?%s&%s" % (self.range, query), token=token)

    def expected(self, keyfn):
        """Sums per key over the rounds as GET /rounds/{id} shows them."""
        out = {}
        for r in self.rounds:
            e = out.setdefault(keyfn(r), {"rounds": 0, "voids": 0, "hands": 0, "handle": dict.fromkeys(WAGERS[:4], 0),
                                          "house_win": dict.fromkeys(WAGERS, 0), "totals_handle": 0, "totals_win": 0,
                                          "banker_result": dict.fromkeys(WAGERS, 0), "totals_banker": 0,
                                          "house_handle": 0, "collections": 0})
            banked = r["banking"] == "player"
            if r["state"] == "settled":
                e["rounds"] += 1
                e["hands"] += len(r["bets"])
            else:
                e["voids"] += 1
            # a player-banked round's win is the banker's result, not the house's (docs/reports.md)
            win = "banker_result" if banked else "house_win"
            for p in r["payouts"]:
                e[win][p["wager"]] -= p["net"]
                if p["result"] != "returned" and p["wager"] != "ante_bonus":
                    e["handle"][p["wager"]] += p["stake"]
            e["totals_handle"] += r["totals"]["handle"]
            e["totals_banker" if banked else "totals_win"] += r["totals"]["house_win"]
            if not banked:
                e["house_handle"] += r["totals"]["handle"]
            e["collections"] += r.get("collections", {}).get("total", 0)
        return out

    def assert_group(self, g, e):
        self.assertEqual(g["rounds"], e["rounds"])
        self.assertEqual(g["voids"], e["voids"])
        self.assertEqual(g["hands"], e["hands"])
        for w in WAGERS[:4]:
            self.assertEqual(g["handle"][w], e["handle"][w], w)
        for w in WAGERS:
            self.assertEqual(g["house_win"][w], e["house_win"][w], w)
        self.assertEqual(g["handle"]["total"], e["totals_handle"])
        self.assertEqual(g["house_win"]["total"], e["totals_win"])
        for w in WAGERS:
            self.assertEqual(g["banker_result"][w], e["banker_result"][w], w)
        self.assertEqual(g["banker_result"]["total"], e["totals_banker"])
        self.assertEqual(g["collections"], e["collections"])
        self.assertEqual(g["win"], e["totals_win"] + e["collections"])
        self.assertEqual(g["house_banked_handle"], e["house_handle"])
        if e["house_handle"]:
            self.assertEqual(g["win_per_handle"], g["house_win"]["total"] / e["house_handle"])
            self.assertEqual(g["hold"], g["win_per_handle"])
            self.assertIsInstance(g["theoretical_win"], int)
            self.assertIn(g["hold_flag"], (None, "high", "low"))
        else:
            self.assertIsNone(g["win_per_handle"])
            self.assertIsNone(g["hold"])
            self.assertIsNone(g["hold_flag"])

    # ---- roles ----

    def test_dealer_is_refused(self):
        for name in ("summary", "payouts", "exceptions"):
            for q in ("", "?format=csv"):
                self.refused(403, "forbidden", "GET", "/api/v1/reports/%s%s" % (name, q), token=DEALER)

    def test_readers(self):
        for tok in (PITBOSS_TOKEN, AUDITOR, ADMIN):
            for name in ("summary", "payouts", "exceptions"):
                self.ok("GET", "/api/v1/reports/%s?%s" % (name, self.range), token=tok)
        self.refused(401, "unauthorized", "GET", "/api/v1/reports/summary", token=None)

    def test_scoped_token(self):
        js = self.summary("group=table", token=SCOPED)
        self.assertEqual([g["key"] for g in js["groups"]], ["T1"])
        self.refused(403, "forbidden", "GET", "/api/v1/reports/summary?table=T3", token=SCOPED)
        for p in self.ok("GET", "/api/v1/reports/payouts?min=1&%s" % self.range, token=SCOPED)["payouts"]:
            self.assertEqual(p["table"], "T1")

    def test_refusals(self):
        self.refused(400, "invalid_query", "GET", "/api/v1/reports/summary?group=week", token=AUDITOR)
        self.refused(400, "invalid_query", "GET", "/api/v1/reports/summary?from=yesterday", token=AUDITOR)
        self.refused(400, "invalid_query", "GET", "/api/v1/reports/summary?format=xml", token=AUDITOR)
        self.refused(400, "invalid_query", "GET", "/api/v1/reports/payouts?min=0", token=AUDITOR)
        self.refused(404, "table_not_found", "GET", "/api/v1/reports/summary?table=ZZ", token=AUDITOR)
        self.refused(404, "not_found", "GET", "/api/v1/reports/everything", token=AUDITOR)
        st, js = self.call("POST", "/api/v1/reports/summary", {}, token=AUDITOR)
        self.assertEqual(st, 405)

    # ---- sums against the rounds ----

    def test_summary_by_table(self):
        js = self.summary("group=table")
        exp = self.expected(lambda r: r["table"])
        self.assertEqual([g["key"] for g in js["groups"]], sorted(exp))
        for g in js["groups"]:
            self.assert_group(g, exp[g["key"]])
        total = self.expected(lambda r: "all")["all"]
        self.assert_group(js["totals"], total)

    def test_summary_by_dealer_and_hour(self):
        js = self.summary("group=dealer")
        self.assertEqual([g["key"] for g in js["groups"]], ["demo-dealer"])
        self.assert_group(js["groups"][0], self.expected(lambda r: "all")["all"])
        js = self.summary("group=hour")
        exp = self.expected(lambda r: r["settled_at"][:13] + ":00Z")
        self.assertEqual([g["key"] for g in js["groups"]], sorted(exp))
        for g in js["groups"]:
            self.assert_group(g, exp[g["key"]])
        js = self.summary("group=day")
        exp = self.expected(lambda r: r["settled_at"][:10])
        for g in js["groups"]:
            self.assert_group(g, exp[g["key"]])
        js = self.summary("group=shift&shifts=00:00,12:00")
        for g in js["groups"]:
            self.assertRegex(g["key"], r"^\d{4}-\d\d-\d\d (00:00-12:00|12:00-00:00)$")
        self.assertEqual(js["shifts"], ["00:00", "12:00"])

    def test_summary_one_table(self):
        js = self.summary("group=table&table=P1")
        self.assertEqual(js["table"], "P1")
        self.assertEqual([g["key"] for g in js["groups"]], ["P1"])
        self.assert_group(js["groups"][0], self.expected(lambda r: r["table"])["P1"])

    def test_payouts(self):
        js = self.ok("GET", "/api/v1/reports/payouts?min=1&limit=1000&%s" % self.range, token=AUDITOR)
        want = []
        for r in self.rounds:
            for p in r["payouts"]:
                if p["net"] >= 1:
                    want.append((-p["net"], -r["id"], p["seq"], r["table"], p["seat"], p["wager"], p["stake"]))
        want.sort()
        got = [(-p["net"], -p["round"], None, p["table"], p["seat"], p["wager"], p["stake"]) for p in js["payouts"]]
        self.assertEqual(len(got), len(want))
        for g, w in zip(got, want):
            self.assertEqual(g[:2] + g[3:], w[:2] + w[3:])
        for p in js["payouts"]:
            self.assertEqual(len(p["cards"]), 3)
            self.assertTrue(p["at"].endswith("Z"))
        big = self.ok("GET", "/api/v1/reports/payouts?min=5000&limit=3&%s" % self.range, token=AUDITOR)["payouts"]
        self.assertLessEqual(len(big), 3)
        self.assertTrue(all(p["net"] >= 5000 for p in big))

    def test_exceptions(self):
        js = self.ok("GET", "/api/v1/reports/exceptions?%s" % self.range, token=AUDITOR)
        voids = [e for e in js["exceptions"] if e["kind"] == "void"]
        self.assertEqual(sorted(e["detail"] for e in voids), sorted(["misdeal: exposed card", "shuffler, \"jam\", redeal"]))
        self.assertTrue(all(e["table"] == "T2" for e in voids))
        shorts = [e for e in js["exceptions"] if e["kind"] == "coverage_short"]
        want = sum(1 for r in self.rounds for p in r["payouts"] if p.get("short"))
        self.assertEqual(len(shorts), want)

    # ---- CSV ----

    def csv_get(self, path):
        st, hdrs, raw = self.d.request("GET", path, token=AUDITOR)
        self.assertEqual(st, 200, raw[:300])
        self.assertTrue(hdrs["content-type"].startswith("text/csv"), hdrs)
        self.assertRegex(hdrs.get("content-disposition", ""), r'^attachment; filename="pitboss-[a-z]+-\d{4}-\d\d-\d\d.*\.csv"$')
        text = raw.decode("utf-8")
        self.assertIn("\r\n", text)
        return list(csv.reader(io.StringIO(text, newline="")))

    def test_csv_summary(self):
        js = self.summary("group=table")
        rows = self.csv_get("/api/v1/reports/summary?%s&group=table&format=csv" % self.range)
        head = rows[0]
        self.assertEqual(head[:3], ["row", "key", "rounds"])
        self.assertEqual(len(rows), len(js["groups"]) + 2)
        for row, g in zip(rows[1:], js["groups"] + [js["totals"]]):
            rec = dict(zip(head, row))
            self.assertEqual(rec["row"], "group" if "key" in g else "totals")
            self.assertEqual(rec["key"], g.get("key", ""))
            for k in ("rounds", "voids", "hands", "theoretical_win"):
                self.assertEqual(int(rec[k]), g[k], k)
            for w in ("ante", "play", "pair_plus", "six_card", "total"):
                self.assertEqual(int(rec["handle_" + w]), g["handle"][w])
            for w in WAGERS + ("total",):
                self.assertEqual(int(rec["house_win_" + w]), g["house_win"][w])
            self.assertEqual(rec["hold"] and float(rec["hold"]), g["hold"] if g["hold"] is not None else "")
            self.assertEqual(rec["hold_flag"], g["hold_flag"] or "")
            cents = g["handle"]["total"]
            self.assertEqual(rec["handle_total_amount"], "%d.%02d" % (cents // 100, cents % 100))

    def test_csv_payouts_and_exceptions(self):
        js = self.ok("GET", "/api/v1/reports/payouts?min=1&%s" % self.range, token=AUDITOR)
        rows = self.csv_get("/api/v1/reports/payouts?min=1&format=csv&%s" % self.range)
        self.assertEqual(rows[0][:6], ["round", "table", "seat", "wager", "stake", "net"])
        self.assertEqual(len(rows), len(js["payouts"]) + 1)
        for row, p in zip(rows[1:], js["payouts"]):
            rec = dict(zip(rows[0], row))
            self.assertEqual((int(rec["round"]), rec["table"], int(rec["seat"]), rec["wager"], int(rec["stake"]), int(rec["net"])),
                             (p["round"], p["table"], p["seat"], p["wager"], p["stake"], p["net"]))
            self.assertEqual(rec["cards"], " ".join(p["cards"]))
        js = self.ok("GET", "/api/v1/reports/exceptions?%s" % self.range, token=AUDITOR)
        rows = self.csv_get("/api/v1/reports/exceptions?format=csv&%s" % self.range)
        self.assertEqual(rows[0][:5], ["at", "table", "round", "kind", "detail"])
        self.assertEqual([r[4] for r in rows[1:]], [e["detail"] for e in js["exceptions"]])
        # an empty report is a header row alone
        rows = self.csv_get("/api/v1/reports/payouts?min=1&format=csv&from=2001-01-01&to=2001-01-02")
        self.assertEqual(len(rows), 1)


if __name__ == "__main__":
    pbtest.main()
