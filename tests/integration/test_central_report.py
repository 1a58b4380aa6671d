"""
`pitboss central report` against a real PostgreSQL (pgserver.py;
docs/central.md "Reports"): two properties in different time zones ship
rounds of several kinds (house-banked with every wager, Tri-Card, a
player-banked table, a void, a seated dealer); the central report, computed
from the central copy, gives per table, per dealer and per property exactly
the figures of each property's own summary, and per gaming day and in total
their sums (the theoretical win, rounded once over the merged stakes, within
a cent per property of the sum of the rounded figures).  CSV has the
summary's columns.  A property's report facts are sent once even when the
shipper starts again from nothing.
"""
import csv
import datetime
import io
import json
import time
import unittest

import pbtest
import pgserver
from pbtest import AUDITOR, PITBOSS_TOKEN

run = pgserver.run_pitboss

WHOLE = {
    "bets": {"1": {"ante": 2500, "pair_plus": 1000, "six_card": 500}, "3": {"ante": 1000}},
    "hands": {"1": ["As", "Ks", "Qs"], "3": ["2c", "3d", "4h"]},
    "dealer": ["Qd", "7c", "2h"],
    "decisions": {"1": "play", "3": "fold"}}
TRICARD = {
    "bets": {"1": {"ante": 2500, "pair_plus": 1000}, "3": {"ante": 1000}},
    "hands": {"1": ["As", "Ks", "Qs"], "3": ["2c", "3d", "4h"]},
    "dealer": ["Qd", "7c", "2h"],
    "decisions": {"1": "play", "3": "fold"}}
LOSING = {
    "bets": {"2": {"ante": 500, "pair_plus": 500}},
    "hands": {"2": ["2c", "5d", "9h"]},
    "dealer": ["Ah", "Kd", "3c"],
    "decisions": {"2": "play"}}
BANKED = {"banker": {"seat": 4, "bank": 50000},
          "bets": {"1": {"ante": 1000}, "2": {"ante": 500, "pair_plus": 500}},
          "hands": {"1": ["9h", "9c", "5d"], "2": ["3c", "6d", "Ts"]},
          "dealer": ["Qd", "7c", "2h"],
          "decisions": {"1": "play", "2": "fold"}}

# What the central report adds to a group to say where it comes from.
LABELS = ("key", "property", "table", "dealer", "name")
COUNTED = ("drop", "win_per_drop")     # the property's summary only: the central copy holds no accounting documents
MONEY = ("rounds", "voids", "hands")


def figures(group):
    return {k: v for k, v in group.items() if k not in LABELS and k not in COUNTED}


class CentralReportTest(pgserver.CentralServerCase):

    def setUp(self):
        self.daemons = []
        # each test has properties of its own on the one central server
        tag = self._testMethodName[5:9]
        self.ids = ("A-" + tag, "B-" + tag)
        for pid, zone in zip(self.ids, ("America/New_York", "Asia/Tokyo")):
            prop = {"id": pid, "name": "Property " + pid, "time_zone": zone, "gaming_day_start": "06:00"}
            d = pbtest.Daemon(overrides={"central": {"conninfo": self.pg.conninfo}, "property": prop})
            d.start()
            self.daemons.append((pid, d))

    def tearDown(self):
        for _, d in self.daemons:
            try:
                if d.running:
                    d.stop()
            finally:
                d.close()

    def deal(self, d, table, body, n):
        for _ in range(n):
            st, js = d.call("POST", "/api/v1/tables/%s/rounds" % table, body)
            self.assertEqual(st, 201, js)

    def void_one(self, d, table):
        st, js = d.call("POST", "/api/v1/tables/%s/rounds" % table, {})
        self.assertEqual(st, 201, js)
        rid = js["round"]["id"]
        st, js = d.call("PUT", "/api/v1/rounds/%d/bets/2" % rid, {"ante": 2000})
        self.assertEqual(st, 200, js)
        st, js = d.call("POST", "/api/v1/rounds/%d/void" % rid, {"reason": "misdeal"}, token=PITBOSS_TOKEN)
        self.assertEqual(st, 200, js)

    def wait_facts(self, timeout=60):
        """Until PostgreSQL holds the report facts of every finished round of both properties."""
        deadline = time.monotonic() + timeout
        for pid, d in self.daemons:
            want = d.db_value("SELECT count(*) FROM rounds WHERE state IN ('settled', 'void')")
            pbtest.wait_until(lambda: "the %d finished rounds of %s in round_facts:\n%s" % (want, pid, d.full_log()),
                              lambda: int(self.pg.psql("SELECT count(*) FROM pitboss.round_facts WHERE property = "
                                                       "'%s'" % pid)) == want,
                              timeout=max(0.0, deadline - time.monotonic()), every=0.1)

    def central(self, *args):
        if "--property" not in args:
            args += ("--property", ",".join(self.ids))
        rc, out, err = run("central", "report", "--conninfo", self.pg.conninfo, *args)
        self.assertEqual(rc, 0, out + err)
        return out if "csv" in args else json.loads(out)

    def local(self, d, group):
        st, js = d.call("GET", "/api/v1/reports/summary?group=%s" % group, token=AUDITOR)
        self.assertEqual(st, 200, js)
        return js

    def deal_everything(self):
        for i, (pid, d) in enumerate(self.daemons):
            self.deal(d, "T1", WHOLE, 4 + i)
            self.deal(d, "T1", LOSING, 3)
            self.deal(d, "T3", TRICARD, 2)
            self.deal(d, "P1", BANKED, 2)
            self.void_one(d, "T2")
        self.wait_facts()

    def test_report_equals_each_property(self):
        self.deal_everything()
        for group in ("table", "dealer"):
            report = self.central("--group", group)
            self.assertEqual(report["group"], group)
            for pid, d in self.daemons:
                local = self.local(d, group)
                mine = [g for g in report["groups"] if g["property"] == pid]
                self.assertEqual([g["key"] for g in mine], ["%s/%s" % (pid, g["key"]) for g in local["groups"]])
                for g, l in zip(mine, local["groups"]):
                    self.assertEqual(g[group], l["key"])
                    self.assertEqual(figures(g), figures(l), (group, pid, g["key"]))
                # one property alone: its totals are its own summary's
                alone = self.central("--group", group, "--property", pid)
                self.assertEqual(figures(alone["totals"]), figures(local["totals"]))
        by_property = self.central("--group", "property")
        self.assertEqual([g["key"] for g in by_property["groups"]], list(self.ids))
        for g, (pid, d) in zip(by_property["groups"], self.daemons):
            self.assertEqual(g["name"], "Property " + pid)
            self.assertEqual(figures(g), figures(self.local(d, "table")["totals"]))
        self.assertEqual([p["time_zone"] for p in by_property["properties"]], ["America/New_York", "Asia/Tokyo"])

    def test_whole_months_equal_each_property(self):
        """A range of whole months (the central copy reads its month and day roll-ups, the property its hours or
        its own roll-ups): every table, dealer and property group still the property's own summary's."""
        self.deal_everything()
        today = datetime.date.today()
        first = (today.replace(day=1) - datetime.timedelta(days=1)).replace(day=1)
        last = (today.replace(day=28) + datetime.timedelta(days=40)).replace(day=1) - datetime.timedelta(days=1)
        span = ("--from", first.isoformat(), "--to", last.isoformat())
        for group in ("table", "dealer", "day"):
            report = self.central("--group", group, *span)
            for pid, d in self.daemons:
                st, local = d.call("GET", "/api/v1/reports/summary?group=%s&from=%s&to=%s" % (
                    group, first.isoformat(), last.isoformat()), token=AUDITOR)
                self.assertEqual(st, 200, local)
                self.assertGreater(local["totals"]["rounds"], 0)
                if group == "day":
                    continue
                mine = [g for g in report["groups"] if g["property"] == pid]
                self.assertEqual([g["key"] for g in mine], ["%s/%s" % (pid, g["key"]) for g in local["groups"]])
                for g, l in zip(mine, local["groups"]):
                    self.assertEqual(figures(g), figures(l), (group, pid, g["key"]))
                alone = self.central("--group", group, "--property", pid, *span)
                self.assertEqual(figures(alone["totals"]), figures(local["totals"]))
        by_property = self.central("--group", "property", *span)
        for g, (pid, d) in zip(by_property["groups"], self.daemons):
            st, local = d.call("GET", "/api/v1/reports/summary?group=table&from=%s&to=%s" % (
                first.isoformat(), last.isoformat()), token=AUDITOR)
            self.assertEqual(figures(g), figures(local["totals"]))

    def assert_sums(self, merged, parts):
        for k in MONEY:
            self.assertEqual(merged[k], sum(p[k] for p in parts), k)
        # play time is whole milliseconds, shown in seconds: compared in milliseconds (no float sums)
        self.assertEqual(round(merged["play_seconds"] * 1000), sum(round(p["play_seconds"] * 1000) for p in parts))
        for k in ("handle", "house_win"):
            for w in merged[k]:
                self.assertEqual(merged[k][w], sum(p[k][w] for p in parts), (k, w))
        # rounded once over the merged stakes: within half a cent per property of the sum of the rounded
        self.assertLessEqual(abs(merged["theoretical_win"] - sum(p["theoretical_win"] for p in parts)), len(parts))

    def test_days_and_totals_are_sums(self):
        self.deal_everything()
        report = self.central("--group", "day")
        want = {}
        for _, d in self.daemons:
            for g in self.local(d, "day")["groups"]:
                want.setdefault(g["key"], []).append(g)
        self.assertEqual([g["key"] for g in report["groups"]], sorted(want))
        for g in report["groups"]:
            self.assert_sums(g, want[g["key"]])
            if len(want[g["key"]]) == 1:
                self.assertEqual(figures(g), figures(want[g["key"]][0]))
        self.assert_sums(report["totals"], [self.local(d, "day")["totals"] for _, d in self.daemons])

    def test_csv(self):
        self.deal_everything()
        text = self.central("--group", "table", "--format", "csv")
        rows = list(csv.reader(io.StringIO(text)))
        st, _, local = self.daemons[0][1].request("GET", "/api/v1/reports/summary?group=table&format=csv",
                                                  token=AUDITOR)
        self.assertEqual(st, 200)
        local_rows = list(csv.reader(io.StringIO(local.decode() if isinstance(local, bytes) else local)))
        self.assertEqual(rows[0], local_rows[0])
        keys = [r[1] for r in rows[1:] if r[0] == "group"]
        self.assertEqual(keys, ["%s/%s" % (p, t) for p in self.ids for t in ("P1", "T1", "T2", "T3")])
        self.assertEqual(rows[-1][0], "totals")

    def test_head_office_over_http(self):
        self.deal_everything()
        hq = pbtest.Daemon(overrides={"central": {"conninfo": self.pg.conninfo, "ship": False, "reports": True},
                                      "property": {"id": "HQ", "name": "Head office"}})
        try:
            hq.start()
            props = ",".join(self.ids)
            for group in ("property", "table", "day", "dealer"):
                st, js = hq.call("GET", "/api/v1/central/summary?group=%s&property=%s" % (group, props),
                                 token=AUDITOR)
                self.assertEqual(st, 200, js)
                self.assertEqual(js, self.central("--group", group))
            st, _, text = hq.request("GET", "/api/v1/central/summary?group=table&property=%s&format=csv" % props,
                                     token=AUDITOR)
            self.assertEqual(st, 200)
            self.assertEqual(text.decode() if isinstance(text, bytes) else text,
                             self.central("--group", "table", "--format", "csv"))
            st, js = hq.call("GET", "/api/v1/central/summary?group=week", token=AUDITOR)
            self.assertEqual((st, js["error"]["code"]), (400, "invalid_query"), js)
            st, js = hq.call("GET", "/api/v1/central/summary?table=T1", token=AUDITOR)
            self.assertEqual((st, js["error"]["code"]), (400, "unknown_parameter"), js)
            st, js = hq.call("GET", "/api/v1/central/summary")          # the dealer's token
            self.assertEqual(st, 403, js)
            # it ships nothing: the head office is not a property
            self.assertEqual(self.pg.psql("SELECT count(*) FROM pitboss.properties WHERE property = 'HQ'").strip(), "0")
            hq.stop()
        finally:
            hq.close()
        # a property's own pitbossd does not serve it unless told to
        st, js = self.daemons[0][1].call("GET", "/api/v1/central/summary", token=AUDITOR)
        self.assertEqual((st, js["error"]["code"]), (404, "central_reports_off"), js)

    def test_altered_report_row_caught(self):
        self.deal_everything()
        pid = self.ids[0]
        rc, out, err = run("central", "verify", "--conninfo", self.pg.conninfo, "--property", pid)
        self.assertEqual(rc, 0, out + err)
        # a fact altered together with its report row: only a replay of the round's events shows it
        rid = self.pg.psql("SELECT max(round_id) FROM pitboss.round_facts WHERE property = '%s' AND table_id = 'T3' "
                           "AND NOT voided" % pid).strip()
        self.pg.psql("SET session_replication_role = replica; "
                     "UPDATE pitboss.round_facts SET hands = hands + 1 WHERE property = '%s' AND round_id = %s; "
                     "UPDATE pitboss.report_hours h SET hands = h.hands + 1 FROM pitboss.round_facts f "
                     "WHERE f.property = '%s' AND f.round_id = %s AND h.property = f.property AND h.table_id = f.table_id "
                     "AND h.hour = f.hour AND h.dealer = f.dealer AND h.rules_sha256 = f.rules_sha256"
                     % (pid, rid, pid, rid))
        rc, out, err = run("central", "verify", "--conninfo", self.pg.conninfo, "--property", pid)
        self.assertEqual(rc, 1, out + err)
        self.assertRegex(out, r"property %s table T3 #\d+: round %s: its report facts differ from a replay of its "
                         r"events \(void or hands\)" % (pid, rid))
        self.assertNotIn("not the sum of its rounds' facts", out)
        self.pg.psql("UPDATE pitboss.report_hours SET house_win[1] = house_win[1] + 100 WHERE property = '%s' "
                     "AND table_id = 'T1'" % pid)            # report_hours has no trigger: its owner may edit it
        self.pg.psql("SET session_replication_role = replica; INSERT INTO pitboss.round_facts SELECT property, "
                     "round_id + 1000000, table_id, final_event, hour, dealer, dealer_name, rules_sha256, voided, hands, "
                     "handle, house_win, lines, opened_ms, settled_ms, banked_rounds, banked_handle, banked_win, "
                     "banked_lines, collections FROM pitboss.round_facts WHERE property = '%s' LIMIT 1" % pid)
        rc, out, err = run("central", "verify", "--conninfo", self.pg.conninfo, "--property", pid)
        self.assertEqual(rc, 1, out + err)
        self.assertRegex(out, r"property %s table T1 #-: report row of hour \d+, dealer \S+: not the sum of its "
                         r"rounds' facts" % pid)
        self.assertRegex(out, r"report facts of round 100\d+, which the central copy never saw finish")

    def test_refusals(self):
        rc, out, err = run("central", "report", "--conninfo", self.pg.conninfo, "--group", "week")
        self.assertEqual(rc, 1)
        self.assertIn("--group: property, table, day, shift or dealer", err)
        rc, out, err = run("central", "report", "--conninfo", self.pg.conninfo, "--group", "table",
                           "--property", "NOWHERE")
        self.assertEqual(rc, 1)
        self.assertIn('lacks a property of "NOWHERE"', err)
        rc, out, err = run("central", "report", "--conninfo", self.pg.conninfo, "--group", "table",
                           "--from", "yesterday")
        self.assertEqual(rc, 1)
        self.assertIn("from", err)
        rc, out, err = run("central", "report", "--conninfo", self.pg.conninfo)
        self.assertEqual(rc, 2)                 # --group is required

    def test_facts_sent_once(self):
        pid, d = self.daemons[0]
        self.deal(d, "T1", WHOLE, 5)
        self.wait_facts()
        before = self.central("--group", "property", "--property", pid)["totals"]
        d.stop()
        conn = d.db_connect(read_only=False)
        with conn:                              # the shipper forgets what it sent: everything goes again
            conn.execute("DELETE FROM central_position")
        conn.close()
        d.start()
        self.deal(d, "T1", LOSING, 1)
        self.wait_facts()
        after = self.central("--group", "property", "--property", pid)["totals"]
        self.assertEqual(after["rounds"], before["rounds"] + 1)
        self.assertEqual(after["house_win"]["total"], before["house_win"]["total"] + 1500)
        dup = self.pg.psql("SELECT count(*) FROM (SELECT 1 FROM pitboss.events GROUP BY property, table_id, "
                           "table_seq HAVING count(*) > 1) d")
        self.assertEqual(int(dup), 0)


if __name__ == "__main__":
    missing = pgserver.missing()
    if missing is not None:
        raise SystemExit("test_central_report: FAILED: " + missing)
    pbtest.main()
