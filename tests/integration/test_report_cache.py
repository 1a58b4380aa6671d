"""
The report cache against the real pitbossd (daemon/http/report_cache.c):
a report asked again on the same connection (so the same worker thread) is
the same bytes and is counted a hit in /metrics; a round recorded, by this
worker or another, changes the answer (never a stale one); tokens of
different table scopes, CSV and JSON, a different range or group each get
their own answer; refusals are not kept.
"""
import datetime
import http.client
import json
import random
import re

import pbtest
from pbtest import DEALER, PITBOSS_TOKEN, AUDITOR

T1_SECRET = "cache-t1-secret"
T3_SECRET = "cache-t3-secret"
SUMMARY = "/api/v1/reports/summary"


def round_body(rng, seats=6):
    """A whole round with one to three antes (1000..5000) and Q-6-4-ish decisions."""
    deck = [r + s for r in "23456789TJQKA" for s in "cdhs"]
    rng.shuffle(deck)
    bets, hands, decisions = {}, {}, {}
    for seat in rng.sample(range(1, seats + 1), rng.randint(1, 3)):
        bets[str(seat)] = {"ante": rng.randrange(1000, 5001, 100)}
        hands[str(seat)] = [deck.pop(), deck.pop(), deck.pop()]
        decisions[str(seat)] = "play" if rng.random() < 0.75 else "fold"
    return {"bets": bets, "hands": hands, "dealer": [deck.pop(), deck.pop(), deck.pop()], "decisions": decisions}


class Conn:
    """One keep-alive connection: libmicrohttpd keeps it on one worker thread, so on one cache."""

    def __init__(self, d):
        self.c = http.client.HTTPConnection(d.host, d.port, timeout=30)

    def request(self, method, path, token=PITBOSS_TOKEN, body=None):
        h = {"Authorization": "Bearer " + token} if token else {}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            h["Content-Type"] = "application/json"
        h["Content-Length"] = str(len(data) if data else 0)
        self.c.request(method, path, body=data, headers=h)
        r = self.c.getresponse()
        raw = r.read()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, raw

    def get(self, path, token=PITBOSS_TOKEN):
        return self.request("GET", path, token)

    def json(self, path, token=PITBOSS_TOKEN):
        st, _, raw = self.get(path, token)
        assert st == 200, (path, st, raw)
        return json.loads(raw)

    def close(self):
        self.c.close()


class ReportCache(pbtest.DaemonTestCase):
    daemon_kwargs = {
        "extra_tokens": [pbtest.token("cache-t1", "pitboss", T1_SECRET, ["T1"]),
                         pbtest.token("cache-t3", "pitboss", T3_SECRET, ["T3"])],
        # No checkpoint timer commits between two requests of a test.
        "overrides": {"checkpoint": {"every_seconds": 86400}},
    }

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.rng = random.Random(20261122)
        for i in range(12):
            table = ("T1", "T3", "T2")[i % 3]
            st, js = cls.d.call("POST", "/api/v1/tables/%s/rounds" % table, round_body(cls.rng))
            assert st == 201, (st, js)

    def setUp(self):
        self.conns = []

    def tearDown(self):
        for c in self.conns:
            c.close()

    def conn(self):
        c = Conn(self.d)
        self.conns.append(c)
        return c

    def counters(self):
        st, _, raw = self.d.request("GET", "/metrics", token=None)
        self.assertEqual(st, 200)
        text = raw.decode()
        got = {}
        for result in ("hit", "miss"):
            m = re.search(r'^pitboss_report_cache_total\{result="%s"\} (\d+)$' % result, text, re.M)
            self.assertIsNotNone(m, "no %s counter in /metrics" % result)
            got[result] = int(m.group(1))
        return got

    def assert_counted(self, before, hits, misses):
        after = self.counters()
        self.assertEqual((after["hit"] - before["hit"], after["miss"] - before["miss"]), (hits, misses))

    def record_round(self, table="T1", conn=None):
        body = round_body(self.rng)
        if conn is None:
            st, js = self.d.call("POST", "/api/v1/tables/%s/rounds" % table, body)
        else:
            st, _, raw = conn.request("POST", "/api/v1/tables/%s/rounds" % table, token=DEALER, body=body)
            js = json.loads(raw)
        self.assertEqual(st, 201, js)

    # ---- hits ----

    def test_same_report_twice_is_a_hit(self):
        c = self.conn()
        self.record_round("T2", conn=c)      # whatever this worker kept from earlier tests is stale now
        for path in (SUMMARY + "?group=table", SUMMARY + "?group=dealer&format=csv",
                     "/api/v1/reports/payouts?min=1", "/api/v1/reports/exceptions?format=csv"):
            before = self.counters()
            st1, h1, raw1 = c.get(path)
            st2, h2, raw2 = c.get(path)
            self.assertEqual((st1, st2), (200, 200), path)
            self.assertEqual(raw1, raw2, path)
            self.assertEqual(h1.get("content-type"), h2.get("content-type"), path)
            self.assertEqual(h1.get("content-disposition"), h2.get("content-disposition"), path)
            self.assert_counted(before, 1, 1)

    def test_hit_has_current_figures(self):
        """A hit is a whole JSON answer (with the server's trailing newline) of the record as it is."""
        c = self.conn()
        path = SUMMARY + "?group=hour"
        c.get(path)
        _, _, cached = c.get(path)
        js = json.loads(cached)
        self.assertTrue(cached.endswith(b"}\n"))
        self.assertEqual(js["group"], "hour")
        self.assertEqual(js["totals"]["rounds"], self.d.db_value("SELECT count(*) FROM rounds WHERE state = 'settled'"))

    # ---- no stale answers ----

    def test_round_recorded_changes_the_answer(self):
        conns = [self.conn() for _ in range(8)]
        path = SUMMARY + "?group=table"
        first = []
        for c in conns:
            first.append(c.json(path))
            self.assertEqual(c.json(path), first[-1])
        rounds = first[0]["totals"]["rounds"]
        # Written by one of the connections: its own worker sees its own change, the others a commit
        # by another connection (8 connections over 4 workers: both kinds, whatever the placement).
        self.record_round("T1", conn=conns[0])
        for c in conns:
            js = c.json(path)
            self.assertEqual(js["totals"]["rounds"], rounds + 1)
            t1 = [g for g in js["groups"] if g["key"] == "T1"][0]
            old = [g for g in first[0]["groups"] if g["key"] == "T1"][0]
            self.assertEqual(t1["rounds"], old["rounds"] + 1)
        # And by a connection none of them holds.
        self.record_round("T3")
        for c in conns:
            self.assertEqual(c.json(path)["totals"]["rounds"], rounds + 2)

    def test_csv_changes_with_a_round(self):
        c = self.conn()
        path = SUMMARY + "?group=table&format=csv"
        _, _, before = c.get(path)
        _, _, again = c.get(path)
        self.assertEqual(before, again)
        self.record_round("T2", conn=c)
        _, _, after = c.get(path)
        self.assertNotEqual(before, after)
        total = [r for r in after.decode().split("\r\n") if r.startswith("totals,")][0]
        old = [r for r in before.decode().split("\r\n") if r.startswith("totals,")][0]
        self.assertEqual(int(total.split(",")[2]), int(old.split(",")[2]) + 1)

    # ---- separate entries ----

    def test_scopes_are_separate(self):
        c = self.conn()
        path = SUMMARY + "?group=table"
        for _ in range(2):
            everything = c.json(path, PITBOSS_TOKEN)
            t1 = c.json(path, T1_SECRET)
            t3 = c.json(path, T3_SECRET)
            self.assertEqual([g["key"] for g in t1["groups"]], ["T1"])
            self.assertEqual([g["key"] for g in t3["groups"]], ["T3"])
            self.assertEqual(sorted(g["key"] for g in everything["groups"]), ["T1", "T2", "T3"])
            self.assertEqual(t1["totals"]["rounds"] + t3["totals"]["rounds"] + [g for g in everything["groups"] if g["key"] == "T2"][0]["rounds"],
                             everything["totals"]["rounds"])
        # Another table's report by a scoped token stays refused, and refusals are not kept.
        before = self.counters()
        for _ in range(2):
            st, _, raw = c.get(SUMMARY + "?table=T3", T1_SECRET)
            self.assertEqual(st, 403, raw)
            self.assertEqual(json.loads(raw)["error"]["code"], "forbidden")
        self.assert_counted(before, 0, 2)
        st, _, raw = c.get(SUMMARY + "?table=T3", T3_SECRET)
        self.assertEqual(st, 200, raw)

    def test_csv_and_json_do_not_mix(self):
        c = self.conn()
        for _ in range(2):
            st, h, raw = c.get(SUMMARY + "?group=table&format=csv")
            self.assertEqual(st, 200)
            self.assertEqual(h["content-type"], "text/csv; charset=utf-8")
            self.assertTrue(h["content-disposition"].startswith('attachment; filename="pitboss-summary-'))
            self.assertTrue(raw.startswith(b"row,key,rounds,"))
            for path in (SUMMARY + "?group=table", SUMMARY + "?group=table&format=json"):
                st, h, raw = c.get(path)
                self.assertEqual(st, 200)
                self.assertEqual(h["content-type"], "application/json")
                self.assertNotIn("content-disposition", h)
                self.assertEqual(json.loads(raw)["group"], "table")

    def test_range_and_group_are_separate(self):
        c = self.conn()
        day = self.d.db_value("SELECT substr(max(settled_at), 1, 10) FROM rounds")
        later = (datetime.date.fromisoformat(day) + datetime.timedelta(days=1)).isoformat()
        a = SUMMARY + "?from=%s&to=%s&group=table" % (day, day)
        b = SUMMARY + "?from=%s&to=%s&group=table" % (day, later)
        g = SUMMARY + "?from=%s&to=%s&group=day" % (day, day)
        for _ in range(2):
            ja, jb, jg = c.json(a), c.json(b), c.json(g)
            self.assertNotEqual(ja["to"], jb["to"])
            self.assertEqual(ja["groups"], jb["groups"])
            self.assertTrue(ja["groups"])
            self.assertEqual((ja["group"], jg["group"]), ("table", "day"))
            self.assertEqual([x["key"] for x in jg["groups"]], [day])
        before = self.counters()
        c.json(a + "&tz_offset=60")
        self.assert_counted(before, 0, 1)

    def test_refusals_are_not_kept(self):
        c = self.conn()
        before = self.counters()
        for _ in range(2):
            st, _, _ = c.get(SUMMARY + "?table=ZZ", AUDITOR)
            self.assertEqual(st, 404)
        self.assert_counted(before, 0, 2)
        # A bad parameter is refused before the cache is asked.
        st, _, _ = c.get(SUMMARY + "?group=week", AUDITOR)
        self.assertEqual(st, 400)
        self.assert_counted(before, 0, 2)


if __name__ == "__main__":
    pbtest.main()
