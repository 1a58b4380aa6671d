"""
The central day and month roll-ups (schema version 4, set-based since 5,
docs/central.md "Reports") against a real PostgreSQL (pgserver.py): report
facts inserted in a random order (one property's one a statement, the
other's many a statement) over four UTC days across a month's end, on two tables, two
dealers and two games, with rounds that run into the next hour and breaks
longer than the join gap; each row of pitboss.report_days and
pitboss.report_months equals the sums recomputed here from the facts, and
the play time and carry recomputed here by the rule the property's own
roll-ups follow (table/rounds/rollup.c).  A property's granted role reads
only its own roll-up rows.
"""
import calendar
import datetime
import json
import os
import random
import subprocess
import time
import unittest
import zoneinfo

import pbtest
import pgserver

HOUR_MS = 3600 * 1000
JOIN_GAP_MS = 15 * 60 * 1000
WAGERS = 5
ARRAYS = ("handle", "house_win", "lines", "banked_handle", "banked_win", "banked_lines")
START = calendar.timegm((2026, 1, 30, 20, 0, 0))       # 4 h before the 31st, the month's last day
HOURS = 4 * 24 + 6


def psql_as(pg, role, sql):
    conninfo = pg.conninfo.replace("user=postgres", "user=%s" % role)
    p = subprocess.run([os.path.join(pgserver.PG_BIN, "psql"), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1",
                        "-d", conninfo, "-c", sql], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def month_of(t):
    tm = time.gmtime(t)
    return calendar.timegm((tm.tm_year, tm.tm_mon, 1, 0, 0, 0))


class GamingDays:
    """A property's gaming days (zone, day start on a whole hour), as gaming_day.c bounds them."""

    def __init__(self, zone, start_hour):
        self.tz, self.start_hour = zoneinfo.ZoneInfo(zone), start_hour

    def bound(self, d):
        """The instant gaming day d (a date) starts."""
        return int(datetime.datetime.combine(d, datetime.time(self.start_hour), tzinfo=self.tz).timestamp())

    def day_of(self, t):
        local = datetime.datetime.fromtimestamp(t, self.tz) - datetime.timedelta(hours=self.start_hour)
        d = local.date()
        if t < self.bound(d):
            return d - datetime.timedelta(days=1)
        if t >= self.bound(d + datetime.timedelta(days=1)):
            return d + datetime.timedelta(days=1)
        return d

    def start(self, t):
        return self.bound(self.day_of(t))

    def next(self, start):
        return self.bound(self.day_of(start) + datetime.timedelta(days=1))

    def month(self, start):
        return self.bound(self.day_of(start).replace(day=1))


class UtcDays:
    """UTC days from midnight: the roll-ups of a property that has not sent its calendar."""

    def start(self, t):
        return t - t % 86400

    def next(self, start):
        return start + 86400

    def month(self, start):
        return month_of(start)


def make_facts(rng, prop, games, start=START):
    """Facts of prop: for each series, hours played in runs with breaks; each round within its hour."""
    START = start
    facts, rid = [], 0
    for table in ("T1", "T2"):
        for dealer in ("D1", "D2"):
            for game in games:
                h = START + rng.randrange(0, 3) * 3600
                while h < START + HOURS * 3600:
                    for k in range(rng.randrange(1, 3)):
                        hs = h * 1000
                        opened = hs + rng.randrange(0, HOUR_MS - 60000) if k else hs + rng.choice(
                            [-40000, 0, 5 * 60000, 20 * 60000])
                        settled = max(opened + 1000, hs + 1000) + rng.randrange(0, 60000)
                        if rng.random() < 0.3:
                            settled = hs + HOUR_MS - rng.randrange(1000, 30 * 60000)
                        settled = max(settled, hs + 1)
                        rid += 1
                        facts.append({
                            "round_id": rid, "table_id": table, "dealer": dealer, "hour": h, "game": game,
                            "voided": rng.random() < 0.1, "hands": rng.randrange(1, 7),
                            "opened_ms": opened, "settled_ms": settled,
                            "banked_rounds": rng.randrange(0, 2), "collections": rng.randrange(0, 500),
                            **{a: [rng.randrange(-5000, 20000) for _ in range(WAGERS)] for a in ARRAYS}})
                    # mostly on to the next hour; sometimes a break of hours
                    h += 3600 * (1 if rng.random() < 0.8 else rng.randrange(2, 6))
    rng.shuffle(facts)
    return facts


def insert_sql(prop, f, sha):
    arr = lambda v: "'{%s}'" % ",".join(str(x) for x in v)
    return ("INSERT INTO pitboss.round_facts VALUES ('%s', %d, '%s', %d, %d, '%s', 'Dealer %s', '%s', %s, %d, "
            "%s, %s, %s, %d, %d, %d, %s, %s, %s, %d)" % (
                prop, f["round_id"], f["table_id"], f["round_id"], f["hour"], f["dealer"], f["dealer"], sha,
                "true" if f["voided"] else "false", f["hands"], arr(f["handle"]), arr(f["house_win"]),
                arr(f["lines"]), f["opened_ms"], f["settled_ms"], f["banked_rounds"], arr(f["banked_handle"]),
                arr(f["banked_win"]), arr(f["banked_lines"]), f["collections"]))


def multi_insert_sql(prop, facts):
    """One INSERT statement of all of facts."""
    return insert_sql(prop, facts[0], facts[0]["game"]) + "".join(
        ", " + insert_sql(prop, f, f["game"]).split(" VALUES ", 1)[1] for f in facts[1:])


def hours_of(facts):
    """The report_hours rows the facts make: {(table, dealer, game): {hour: row}}."""
    series = {}
    for f in facts:
        h = series.setdefault((f["table_id"], f["dealer"], f["game"]), {}).setdefault(f["hour"], {
            "rounds": 0, "voids": 0, "hands": 0, "banked_rounds": 0, "collections": 0,
            "first_ms": f["opened_ms"], "last_ms": f["settled_ms"], **{a: [0] * WAGERS for a in ARRAYS}})
        h["voids" if f["voided"] else "rounds"] += 1
        for k in ("hands", "banked_rounds", "collections"):
            h[k] += f[k]
        for a in ARRAYS:
            h[a] = [x + y for x, y in zip(h[a], f[a])]
        h["first_ms"] = min(h["first_ms"], f["opened_ms"])
        h["last_ms"] = max(h["last_ms"], f["settled_ms"])
    return series


def play(row, hour, jb, ja):
    hs, he = hour * 1000, hour * 1000 + HOUR_MS
    start = hs if jb else min(max(row["first_ms"], hs), he)
    end = he if ja else min(max(row["last_ms"], hs), he)
    return max(end - start, 0)


def joined(hours, before, after):
    return after == before + 3600 and after in hours and before in hours and \
        hours[after]["first_ms"] - hours[before]["last_ms"] <= JOIN_GAP_MS


def days_of(series, cal=None):
    """{(table, dealer, game, day): row}, as the property's build_day makes its day rows (UTC days, or cal's)."""
    cal = cal or UtcDays()
    out = {}
    for key, hours in series.items():
        for day in sorted({cal.start(h) for h in hours} | {cal.next(cal.start(h)) for h in hours}):
            end = cal.next(day)
            inside = [h for h in sorted(hours) if day <= h < end]
            if not inside:
                continue
            row = {"rounds": 0, "voids": 0, "hands": 0, "banked_rounds": 0, "collections": 0, "play_ms": 0,
                   "carry_ms": 0, **{a: [0] * WAGERS for a in ARRAYS}}
            for h in inside:
                jb = h - 3600 >= day - 7200 and joined(hours, h - 3600, h)
                ja = h + 3600 < end and joined(hours, h, h + 3600)
                for k in ("rounds", "voids", "hands", "banked_rounds", "collections"):
                    row[k] += hours[h][k]
                for a in ARRAYS:
                    row[a] = [x + y for x, y in zip(row[a], hours[h][a])]
                row["play_ms"] += play(hours[h], h, jb, ja)
            b = day - 3600
            if b in hours and joined(hours, b, day):
                jb = joined(hours, b - 3600, b)
                row["carry_ms"] = play(hours[b], b, jb, True) - play(hours[b], b, jb, False)
            out[key + (day,)] = row
    return out


def months_of(days, cal=None):
    cal = cal or UtcDays()
    out = {}
    for (t, d, g, day), r in sorted(days.items(), key=lambda kv: kv[0][3]):
        m = cal.month(day)
        row = out.setdefault((t, d, g, m), {"play_ms": 0, "carry_ms": 0, **{
            k: 0 for k in ("rounds", "voids", "hands", "banked_rounds", "collections")}, **{
            a: [0] * WAGERS for a in ARRAYS}})
        for k in ("rounds", "voids", "hands", "banked_rounds", "collections", "play_ms"):
            row[k] += r[k]
        for a in ARRAYS:
            row[a] = [x + y for x, y in zip(row[a], r[a])]
        row["carry_ms" if day == m else "play_ms"] += r["carry_ms"]
    return out


def with_sums(rows):
    """rows and their sums per table (dealer ""), per dealer (table "") and in all (both ""), per game and start."""
    out = dict(rows)
    for (t, d, g, start), r in rows.items():
        for key in ((t, "", g, start), ("", d, g, start), ("", "", g, start)):
            s = out.setdefault(key, {k: 0 for k in r if k not in ARRAYS} | {a: [0] * WAGERS for a in ARRAYS})
            for k in r:
                s[k] = [x + y for x, y in zip(s[k], r[k])] if k in ARRAYS else s[k] + r[k]
    return out


COLUMNS = ("rounds", "voids", "hands", "banked_rounds", "collections", "play_ms", "carry_ms") + ARRAYS


def central_rollup(pg, table, start, prop):
    """{(table, dealer, game, start): row} of the central roll-up table of prop; table or dealer "" for the sums kept"""
    sql = "SELECT table_id, dealer, rules_sha256, %s, %s FROM pitboss.%s WHERE property = '%s'" % (
        start, ", ".join(c if c not in ARRAYS else "array_to_string(%s, ',')" % c for c in COLUMNS), table, prop)
    rows = {}
    for line in pg.psql(sql).splitlines():
        v = line.split("|")
        rows[(v[0], v[1], v[2], int(v[3]))] = {
            c: int(x) if c not in ARRAYS else [int(y) for y in x.split(",")] for c, x in zip(COLUMNS, v[4:])}
    return rows


class CentralRollupTest(pgserver.CentralServerCase):

    def central(self, table, start, prop):
        return central_rollup(self.pg, table, start, prop)

    def test_rollups_are_the_facts_sums(self):
        rng = random.Random(32)
        games = []
        for i in range(2):
            sha = "%064x" % (0xabc0 + i)
            self.pg.psql("INSERT INTO pitboss.rules (sha256, body) VALUES ('%s', '{}')" % sha)
            games.append(sha)
        facts = {p: make_facts(rng, p, games) for p in ("RU-1", "RU-2")}
        for p, fs in facts.items():
            # a few facts a transaction: RU-1's one a statement, RU-2's in one statement a transaction as the
            # shipper sends a batch (the statement's facts of many series, days and hours rolled up together)
            if p == "RU-1":
                txs = ["BEGIN; %s; COMMIT" % "; ".join(insert_sql(p, f, f["game"]) for f in fs[i:i + 7])
                       for i in range(0, len(fs), 7)]
            else:
                txs = ["BEGIN; %s; COMMIT" % multi_insert_sql(p, fs[i:i + 25]) for i in range(0, len(fs), 25)]
            per = 40 if p == "RU-1" else 8        # one psql argument stays under the kernel's 128 kB
            for i in range(0, len(txs), per):
                self.pg.psql("; ".join(txs[i:i + per]))
        for p, fs in facts.items():
            days = days_of(hours_of(fs))
            months = months_of(days)
            self.assertGreater(len(days), 20)
            self.assertTrue(any(r["carry_ms"] for r in days.values()), "some day has a carry")
            self.assertEqual(len({k[3] for k in months}), 2, "the facts span two months")
            for table, start, want in (("report_days", "day", with_sums(days)), ("report_months", "month",
                                                                                 with_sums(months))):
                got = self.central(table, start, p)
                self.assertEqual(sorted(got), sorted(want), table)
                for k in want:
                    self.assertEqual(got[k], want[k], (p, table, k))

        # the report by day over whole UTC days reads these roll-ups: its counts are the facts' per day, and its
        # play time is the report by table's (the property's summary code, from the same rows grouped otherwise)
        self.pg.psql("INSERT INTO pitboss.properties (property) VALUES ('RU-1')")     # UTC days from midnight
        first = START + 4 * 3600
        span = ("--from", time.strftime("%Y-%m-%d", time.gmtime(first)),
                "--to", time.strftime("%Y-%m-%d", time.gmtime(first + 2 * 86400)))
        reports = {}
        for group in ("day", "table"):
            rc, out, err = pgserver.run_pitboss("central", "report", "--conninfo", self.pg.conninfo, "--group", group,
                                                "--property", "RU-1", *span)
            self.assertEqual(rc, 0, err)
            reports[group] = json.loads(out)
        want = {}
        for f in facts["RU-1"]:
            if first <= f["hour"] < first + 3 * 86400:
                w = want.setdefault(time.strftime("%Y-%m-%d", time.gmtime(f["hour"])), [0, 0, 0])
                w[1 if f["voided"] else 0] += 1
                w[2] += f["hands"]
        got = {g["key"]: [g["rounds"], g["voids"], g["hands"]] for g in reports["day"]["groups"]}
        self.assertEqual(got, want)
        self.assertEqual(reports["day"]["totals"]["play_seconds"], reports["table"]["totals"]["play_seconds"])
        self.assertGreater(reports["day"]["totals"]["play_seconds"], 0)

        # a property's role reads only its own roll-up rows
        g = subprocess.run([pbtest.PITBOSS, "central", "grant", "--conninfo", self.pg.conninfo, "--property", "RU-1",
                            "--role", "ship_ru1"], input=b"secret\n", stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=60)
        self.assertEqual(g.returncode, 0, g.stderr)
        for table in ("report_days", "report_months"):
            rc, out, err = psql_as(self.pg, "ship_ru1", "SELECT DISTINCT property FROM pitboss.%s" % table)
            self.assertEqual((rc, out.split()), (0, ["RU-1"]), err)

    def assert_rollups(self, prop, facts, cal):
        days = days_of(hours_of(facts), cal)
        for table, start, want in (("report_days", "day", with_sums(days)),
                                   ("report_months", "month", with_sums(months_of(days, cal)))):
            got = self.central(table, start, prop)
            self.assertEqual(sorted(got), sorted(want), table)
            for k in want:
                self.assertEqual(got[k], want[k], (prop, table, k))
        return days

    def report(self, prop, group, first, last):
        rc, out, err = pgserver.run_pitboss("central", "report", "--conninfo", self.pg.conninfo, "--group", group,
                                            "--property", prop, "--from", first, "--to", last)
        self.assertEqual(rc, 0, err)
        return json.loads(out)

    def test_rollups_by_gaming_day(self):
        """
        A property in New York whose gaming day starts at 06:00, over the end of October 2026 and the
        change of clocks of 1 November (a gaming day of 25 hours): facts rolled up by UTC days until it
        sends its calendar, then made again by its gaming days; the facts after, many a statement, rolled
        up by them.  Every row equals the sums recomputed here by its gaming days; the report by day, table
        and dealer over whole gaming days reads them and answers exactly as from the hours alone.
        """
        rng = random.Random(33)
        prop, games = "RU-NY", []
        for i in range(2):
            sha = "%064x" % (0xbcd0 + i)
            self.pg.psql("INSERT INTO pitboss.rules (sha256, body) VALUES ('%s', '{}') ON CONFLICT DO NOTHING" % sha)
            games.append(sha)
        start = calendar.timegm((2026, 10, 30, 20, 0, 0))
        facts = make_facts(rng, prop, games, start)
        before, after = facts[:len(facts) // 2], facts[len(facts) // 2:]
        self.pg.psql("INSERT INTO pitboss.properties (property) VALUES ('%s')" % prop)
        for i in range(0, len(before), 7 * 40):
            self.pg.psql("; ".join("BEGIN; %s; COMMIT" % "; ".join(insert_sql(prop, f, f["game"])
                                                                   for f in before[j:j + 7])
                                   for j in range(i, min(i + 7 * 40, len(before)), 7)))
        self.assert_rollups(prop, before, UtcDays())
        self.pg.psql("SELECT pitboss.set_property_calendar('%s', 'New York', 'America/New_York', '06:00', '[]')" % prop)
        ny = GamingDays("America/New_York", 6)
        self.assert_rollups(prop, before, ny)
        for i in range(0, len(after), 25 * 8):
            self.pg.psql("; ".join("BEGIN; %s; COMMIT" % multi_insert_sql(prop, after[j:j + 25])
                                   for j in range(i, min(i + 25 * 8, len(after)), 25)))
        days = self.assert_rollups(prop, facts, ny)
        long_day = ny.start(calendar.timegm((2026, 11, 1, 12, 0, 0))) - 86400 - 3600
        self.assertIn(long_day, {k[3] for k in days}, "the gaming day of 25 hours is rolled up")
        self.assertEqual(ny.next(long_day) - long_day, 25 * 3600)
        # the report over whole gaming days (Oct 31 to Nov 2, local): from the roll-ups, then from the hours
        # alone (the roll-ups marked as made for another calendar, so the report does not read them)
        span = ("2026-10-31", "2026-11-02")
        got = {g: self.report(prop, g, *span) for g in ("day", "table", "dealer")}
        self.pg.psql("UPDATE pitboss.properties SET rollup_zone = 'UTC' WHERE property = '%s'" % prop)
        try:
            want = {g: self.report(prop, g, *span) for g in ("day", "table", "dealer")}
        finally:
            self.pg.psql("UPDATE pitboss.properties SET rollup_zone = time_zone WHERE property = '%s'" % prop)
        self.assertEqual(got, want)
        counts = {}
        for f in facts:
            d = ny.day_of(f["hour"]).isoformat()
            if span[0] <= d <= span[1]:
                c = counts.setdefault(d, [0, 0, 0])
                c[1 if f["voided"] else 0] += 1
                c[2] += f["hands"]
        self.assertEqual({g["key"]: [g["rounds"], g["voids"], g["hands"]] for g in got["day"]["groups"]}, counts)
        self.assertGreater(got["table"]["totals"]["play_seconds"], 0)
        # and the report by day did read them: a day's property row altered shows in it
        first = ny.bound(datetime.date(2026, 10, 31))
        alter = "UPDATE pitboss.report_days SET rounds = rounds %s 1000 WHERE property = '%s' AND day = %d " \
            "AND table_id = '' AND dealer = ''"
        self.pg.psql(alter % ("+", prop, first))
        try:
            altered = self.report(prop, "day", *span)
        finally:
            self.pg.psql(alter % ("-", prop, first))
        self.assertEqual([g["rounds"] for g in altered["groups"]][0],
                         counts["2026-10-31"][0] + 1000 * len(games))


if __name__ == "__main__":
    unittest.main()
