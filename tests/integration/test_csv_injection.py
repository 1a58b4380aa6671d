"""
Formula injection in every CSV the daemon and the command line write
(docs/security.md "Free text: reasons and notes"): hostile text planted in
every column of text that reaches a CSV, then every CSV route fetched and
read back with Python's csv module.

Planted: player names, descriptions, addresses and id fields (the Title 31
`patron`), Title 31 acknowledgment notes, void reasons (the exceptions'
`detail`), a hold's note (inside the detail of `integrity_acknowledged`),
dealers' names (the rotation's `name`), and ids that may start with `-`: a
table, a player-banked table, a person, a token (`table`, `key`, `person`,
`by`, `source`), and in the central tier a property.  Payloads: `=cmd|...`,
`+SUM(1+1)`, `-2+3`, `@SUM(1+1)`, `=HYPERLINK(...)`, text with quotes,
commas and a newline, and (written into the database while the daemon is
stopped, since the API refuses control characters) a leading tab and a
leading CR.

Every cell of every CSV: it does not start with = + - @ tab or CR unless it
is a plain number (-1250, -12.50); it holds no control character but a line
feed; and each planted text is found as a whole cell, with its `'` prefix.
The CSV routes are those of daemon/http/routes.c that answer text/csv to
?format=csv: a new one that this file does not read fails the test.
"""
import csv
import io
import json
import os
import re
import sys
import time

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
import pbtest  # noqa: E402
import pgserver  # noqa: E402
from pbtest import DEALER, PITBOSS_TOKEN, ADMIN  # noqa: E402

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
PLAIN_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")

# What the API takes (no control character but newline) ...
TYPED = (
    "=cmd|' /C calc'!A0",
    "+SUM(1+1)",
    "-2+3",
    "@SUM(1+1)",
    '=HYPERLINK("http://x","y")',
    'He said "no", then\nleft, "quickly"',
)
# ... and what only someone with the database file can write.
RAW = ("\t=1+1 tab", "\r=1+1 cr")

BOSS = "-boss"                       # a token whose name starts like a formula
BOSS_SECRET = "minus-boss-secret"
HOUSE = "-T9"                        # a table id likewise
BANKED = "-P9"
DEALER_ID = "-D9"                    # a person id likewise

WHOLE = {"bets": {"1": {"ante": 1000}, "2": {"ante": 2000, "pair_plus": 500}},
         "hands": {"1": ["As", "Kd", "Qh"], "2": ["2c", "5d", "9h"]}, "dealer": ["2s", "7d", "9c"],
         "decisions": {"1": "play", "2": "play"}}
BANKED_ROUND = {"banker": {"seat": 4, "bank": 50000},
                "bets": {"1": {"ante": 1000}, "2": {"ante": 500, "pair_plus": 500}},
                "hands": {"1": ["9h", "9c", "5d"], "2": ["3c", "6d", "Ts"]},
                "dealer": ["Qd", "7c", "2h"], "decisions": {"1": "play", "2": "fold"}}

# The routes that answer CSV, and the query each is read with here (today's gaming day: the property is UTC).
LOCAL_CSV_ROUTES = (
    "/api/v1/reports/summary", "/api/v1/reports/payouts", "/api/v1/reports/exceptions",
    "/api/v1/reports/bankers", "/api/v1/reports/dealers", "/api/v1/reports/master-game",
    "/api/v1/reports/statistics", "/api/v1/reports/ratings", "/api/v1/reports/title31", "/api/v1/transactions",
    "/api/v1/reports/decisions",
)
CENTRAL_CSV_ROUTE = "/api/v1/central/summary"


def today():
    return time.strftime("%Y-%m-%d", time.gmtime())


def in_csv(text):
    """What the CSV writer makes of text, as csv.reader gives the cell back: control characters but the line feed
    as their JSON escape, and a ' before text that starts like a formula and is not a plain number."""
    esc = "".join("\\u%04X" % ord(ch) if (ord(ch) < 0x20 and ch != "\n") or 0x7f <= ord(ch) <= 0x9f else ch
                  for ch in text)
    return "'" + esc if text.startswith(FORMULA_START) and not PLAIN_NUMBER.fullmatch(text) else esc


def table_like(table_id, new_id):
    t = pbtest.example_table(table_id)
    t["id"] = new_id
    t.pop("name", None)
    return t


def get_routes():
    """The GET routes of daemon/http/routes.c, as written there ("/api/v1/tables/{table}", ...)."""
    with open(os.path.join(pbtest.SOURCE_DIR, "daemon", "http", "routes.c")) as f:
        return ["/api/v1" + r for r in re.findall(r'\{"GET", V1 "([^"]+)"', f.read())]


class CsvChecks:
    """The assertions on one CSV answer, shared by the local and the central test."""

    def parse(self, name, raw):
        text = raw.decode("utf-8")
        self.assertTrue(text == "" or text.endswith("\r\n"), name)
        return list(csv.reader(io.StringIO(text, newline="")))

    def check_cells(self, name, rows):
        """No cell starts like a formula unless it is a plain number; no control character but LF is raw."""
        self.assertGreater(len(rows), 0, name)
        for r, row in enumerate(rows):
            for c, cell in enumerate(row):
                where = "%s row %d column %s: %r" % (name, r, rows[0][c] if c < len(rows[0]) else c, cell)
                if cell.startswith(FORMULA_START):
                    self.assertTrue(PLAIN_NUMBER.fullmatch(cell), where)
                bad = [ch for ch in cell if (ord(ch) < 0x20 and ch != "\n") or 0x7f <= ord(ch) <= 0x9f]
                self.assertEqual(bad, [], where)

    def column(self, rows, header):
        self.assertIn(header, rows[0])
        i = rows[0].index(header)
        return [row[i] for row in rows[1:]]

    def assert_written(self, name, rows, header, texts):
        """Each of texts is a whole cell of the column header, as the writer must write it."""
        got = self.column(rows, header)
        for t in texts:
            self.assertIn(in_csv(t), got, "%s column %s: %r is not written as %r; the column holds %r"
                          % (name, header, t, in_csv(t), got))

    def probe_csv_routes(self, d, fill):
        """The GET routes of routes.c that take ?format=csv: asked for ?format=xml, each answers 400 invalid_query
        naming csv (placeholders filled by fill)."""
        found = set()
        for route in get_routes():
            path = re.sub(r"\{(\w+)\}", lambda m: fill[m.group(1)], route)
            st, js = d.call("GET", path + "?format=xml", token=ADMIN)
            if st == 400 and js and js["error"]["code"] == "invalid_query" and "csv" in js["error"]["message"]:
                found.add(route)
        return found


class CsvInjection(pbtest.DaemonTestCase, CsvChecks):
    """One daemon, hostile text in every source of text, every CSV route read."""

    daemon_kwargs = {"extra_tables": [table_like("T1", HOUSE), table_like("P1", BANKED)],
                     "extra_tokens": [pbtest.token(BOSS, "pitboss", BOSS_SECRET)]}

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.dealers = [("D%d" % i, name) for i, name in enumerate(TYPED + RAW, 1)] + [(DEALER_ID, "Dee Nine")]
        cls.d.stop()
        for pid, name in cls.dealers:       # dealers seated by the pit boss: none signs in
            pbtest.add_person(cls.d, pid, name, "dealer")
        cls.d.start()

    @classmethod
    def tearDownClass(cls):
        if cls.d is not None and cls.d.running:
            cls.d.stop(allow_errors=True)     # the altered void reasons fail the start-up check: logged as errors
        super().tearDownClass()

    def api(self, method, path, body=None, token=PITBOSS_TOKEN, status=200):
        return self.ok(method, "/api/v1" + path, body, status=status, token=token)

    def get_csv(self, path):
        st, hdrs, raw = self.d.request("GET", path, token=PITBOSS_TOKEN)
        self.assertEqual(st, 200, "%s -> %d %s" % (path, st, raw[:300]))
        self.assertTrue(hdrs["content-type"].startswith("text/csv"), path)
        rows = self.parse(path, raw)
        self.check_cells(path, rows)
        return rows

    # ---- planting ----

    def plant_players(self, day):
        """A named and an anonymous player per payload, each with cash over the CTR limit in gaming day day, both
        items acknowledged with a payload as the note; returns {player id: (field, text)} of the ones to alter."""
        acks, alter = 0, {}
        for i, text in enumerate(TYPED + RAW):
            typed = text in TYPED
            named = {"card": "77%04d" % i, "name": text if typed else "to be altered",
                     "address": text if typed else "1 Main St", "id_type": text if typed else "passport",
                     "id_number": text if typed else "X1", "id_issuer": text if typed else "ES"}
            # identified, so that the transaction over the CTR limit is accepted (docs/players.md)
            anon = {"description": text if typed else "to be altered", "id_type": "passport", "id_number": "A%d" % i}
            for body, field in ((named, "name"), (anon, "description")):
                pid = self.api("POST", "/players", body, status=201)["id"]
                self.api("POST", "/tables/T1/transactions", {"player": pid, "direction": "in", "kind": "cash",
                                                             "amount": 1000001}, status=201)
                for kind in ("alert", "ctr"):
                    self.api("POST", "/title31/acknowledgments", {"gaming_day": day, "player": pid, "direction": "in",
                                                                  "kind": kind, "note": TYPED[acks % len(TYPED)]},
                             status=201)
                    acks += 1
                if not typed:
                    alter[pid] = (field, text)
        return alter

    def plant_rounds(self):
        """Each dealer in turn at HOUSE with a round each, set by the pit boss's token and by BOSS; a player-banked
        round at BANKED; a void per typed reason; two voids at T3 whose reasons are altered later."""
        for i, (pid, _) in enumerate(self.dealers):
            self.api("PUT", "/tables/%s/dealer" % HOUSE, {"person": pid}, token=BOSS_SECRET if i % 2 else PITBOSS_TOKEN)
            self.whole(HOUSE, WHOLE)
        self.whole(BANKED, BANKED_ROUND)
        for reason in TYPED:
            self.void(self.open_round(HOUSE), reason=reason)
        return [self.void(self.open_round("T3"), reason="to be altered")["id"] for _ in RAW]

    def alter_stored_text(self, players, voids):
        """As someone with the file: control characters the API refuses, in players' records and void reasons;
        the start-up check holds T3 for the void reasons, and BOSS lifts the hold with a note."""
        self.d.stop()
        conn = self.d.db_connect(read_only=False)
        with conn:
            for pid, (field, text) in players.items():
                conn.execute("UPDATE players SET record_json = json_set(record_json, ?, ?) WHERE id = ?",
                             ("$." + field, text, pid))
            conn.execute("DROP TRIGGER rounds_final_no_update")
            for rid, text in zip(voids, RAW):
                conn.execute("UPDATE rounds SET void_reason = ? WHERE id = ?", (text, rid))
        conn.close()
        self.d.start()
        self.d.wait_startup_check()
        held = self.d.call("POST", "/api/v1/tables/T3/rounds", {})
        self.assertEqual((held[0], held[1]["error"]["code"]), (409, "integrity_hold"), held)
        self.api("POST", "/tables/T3/acknowledge", {"note": TYPED[4]}, token=BOSS_SECRET)

    # ---- the test ----

    def test_every_csv_route(self):
        day = today()
        players = self.plant_players(day)
        voids = self.plant_rounds()
        self.alter_stored_text(players, voids)
        span = "from=%s&to=%s" % (day, today())      # the gaming day planted in, also when the run crosses midnight

        # the CSV routes are exactly the ones read below (and the central summary, read by CentralCsvInjection)
        st, js = self.d.call("GET", CENTRAL_CSV_ROUTE, token=ADMIN)
        self.assertEqual((st, js["error"]["code"]), (404, "central_reports_off"))
        rid = self.d.db_value("SELECT max(id) FROM rounds")
        found = self.probe_csv_routes(self.d, {"table": "T1", "round": str(rid), "round_text": str(rid),
                                               "person": "P1", "serial": "1"})
        self.assertEqual(found, set(LOCAL_CSV_ROUTES))

        # (path, {column: texts written there}, a further check of the rows or None)
        checks = [("/api/v1/reports/summary?group=%s&%s&format=csv" % (g, span), {}, None)
                  for g in ("hour", "day", "shift")] + [
            ("/api/v1/reports/summary?group=table&%s&format=csv" % span, {"key": [HOUSE, BANKED]},
             self.negative_amounts),
            ("/api/v1/reports/summary?group=dealer&%s&format=csv" % span, {"key": [DEALER_ID]}, None),
            ("/api/v1/reports/payouts?min=1&%s&format=csv" % span, {"table": [HOUSE, BANKED]}, None),
            ("/api/v1/reports/exceptions?%s&format=csv" % span,
             {"detail": TYPED + RAW, "source": [BOSS], "table": [HOUSE]}, self.hold_note),
            ("/api/v1/reports/bankers?%s&format=csv" % span, {"table": [BANKED]}, None),
            ("/api/v1/reports/dealers?%s&format=csv" % span, {"name": [name for _, name in self.dealers],
                                                              "person": [DEALER_ID], "by": [BOSS], "table": [HOUSE]},
             None),
            ("/api/v1/reports/master-game?gaming_day=%s&format=csv" % day, {"table": [HOUSE]}, None),
            ("/api/v1/reports/statistics?month=%s&format=csv" % day[:7], {"table": [HOUSE]}, None),
            ("/api/v1/reports/ratings?gaming_day=%s&format=csv" % day, {}, None),
            ("/api/v1/reports/title31?gaming_day=%s&format=csv" % day, {"patron": TYPED + RAW, "acknowledged": TYPED},
             self.title31_records),
            ("/api/v1/transactions?gaming_day=%s&format=csv" % day, {"name": TYPED, "description": TYPED}, None),
            ("/api/v1/reports/decisions?group=dealer&%s&format=csv" % span, {}, None),
        ]
        self.assertEqual({path.split("?")[0] for path, _, _ in checks}, found)
        for path, want, further in checks:
            with self.subTest(csv=path):
                rows = self.get_csv(path)
                for header, texts in want.items():
                    self.assert_written(path, rows, header, texts)
                if further is not None:
                    further(rows)

    def negative_amounts(self, rows):
        """Amounts below zero stay numbers: the house lost at HOUSE."""
        self.assertTrue([c for c in self.column(rows, "house_win_total") if PLAIN_NUMBER.fullmatch(c) and c[0] == "-"])

    def hold_note(self, rows):
        """A hold's note reaches the exceptions inside the JSON detail of integrity_acknowledged."""
        acks = [json.loads(c) for k, c in zip(self.column(rows, "kind"), self.column(rows, "detail"))
                if k == "integrity_acknowledged"]
        self.assertEqual([a["note"] for a in acks], [TYPED[4]])

    def title31_records(self, rows):
        self.assertEqual({"mtl", "alerts", "ctr"}, set(self.column(rows, "record")))


class CentralCsvInjection(pgserver.CentralServerCase, CsvChecks):
    """The central summary's CSV, over HTTP at the head office and from `pitboss central report`: a property, a
    table and a dealer whose ids start with -."""

    PROPERTY = "-PX"

    def test_central_summary_csv(self):
        prop = {"id": self.PROPERTY, "name": "Minus", "time_zone": "UTC", "gaming_day_start": "00:00"}
        d = pbtest.Daemon(extra_tables=[table_like("T1", HOUSE)],
                          overrides={"central": {"conninfo": self.pg.conninfo}, "property": prop})
        hq = pbtest.Daemon(overrides={"central": {"conninfo": self.pg.conninfo, "ship": False, "reports": True},
                                      "property": {"id": "HQ", "name": "Head office"}})
        self.addCleanup(d.close)
        self.addCleanup(hq.close)
        d.start()
        d.stop()
        pbtest.add_person(d, DEALER_ID, TYPED[0], "dealer")
        d.start()
        st, js = d.call("PUT", "/api/v1/tables/%s/dealer" % HOUSE, {"person": DEALER_ID}, token=PITBOSS_TOKEN)
        self.assertEqual(st, 200, js)
        for table in (HOUSE, "T1"):
            st, js = d.call("POST", "/api/v1/tables/%s/rounds" % table, WHOLE, token=DEALER)
            self.assertEqual(st, 201, js)
        pbtest.wait_until(lambda: "the two rounds in round_facts:\n" + d.full_log(),
                          lambda: int(self.pg.psql("SELECT count(*) FROM pitboss.round_facts WHERE property = '%s'"
                                                   % self.PROPERTY)) == 2, timeout=60, every=0.1)
        hq.start()

        found = self.probe_csv_routes(hq, {"table": "T1", "round": "1", "round_text": "1", "person": "P1",
                                           "serial": "1"})
        self.assertEqual(found, set(LOCAL_CSV_ROUTES) | {CENTRAL_CSV_ROUTE})
        want = {"property": [self.PROPERTY], "table": [self.PROPERTY + "/" + HOUSE],
                "dealer": [self.PROPERTY + "/" + DEALER_ID], "day": []}
        for group, keys in want.items():
            name = "%s?group=%s" % (CENTRAL_CSV_ROUTE, group)
            st, hdrs, raw = hq.request("GET", "%s&property=%s&format=csv" % (name, self.PROPERTY), token=PITBOSS_TOKEN)
            self.assertEqual(st, 200, raw)
            self.assertTrue(hdrs["content-type"].startswith("text/csv"))
            rows = self.parse(name, raw)
            self.check_cells(name, rows)
            self.assert_written(name, rows, "key", keys)
            rc, out, err = pbtest.run_pitboss("central", "report", "--conninfo", self.pg.conninfo, "--group", group,
                                              "--property", self.PROPERTY, "--format", "csv")
            self.assertEqual(rc, 0, out + err)
            self.assertEqual(out.encode(), raw, "pitboss central report --group %s --format csv" % group)
        hq.stop()
        d.stop()


if __name__ == "__main__":
    pbtest.main()
