#!/usr/bin/env python3
"""
tests/bench/central_scale.py - the cross-property report at ~10^8 rounds
(docs/central.md, "Sizing and measurements"), run by hand.

A scratch PostgreSQL is started here (pgserver.py, fsync on) and the central
schema made by `pitboss central init`.  A pitbossd ships a few real rounds to
it, so that pitboss.rules holds real games.  Then, with generate_series,
directly in PostgreSQL, the rows that --properties properties x --tables
tables x a year would leave: per property, table and gaming day (central
schema 6: the property's own), --dealers dealers' report_days rows (each table dealt by one game); report_months
summed from them; the sums kept beside them per table, per dealer and per
property (as the trigger keeps them); and report_hours rows for the first and last days (the
hours a range in a zone other than UTC reads at its two ends).  Half the
properties are in UTC, half in New York with a 06:00 gaming day.  Then
`pitboss central report --from 2026-01-01 --to 2026-12-31` is timed, N runs
per group, the whole process: p50 and p99 (a year of whole gaming days:
roll-ups only, in every zone).

With --baseline PATH, each run of this build's `pitboss` alternates with one
of PATH (another build's `pitboss`, e.g. of an earlier commit): A B A B, on
the same rows, each group's p50 and p99 for both.

usage: central_scale.py [--properties 20] [--tables 50] [--dealers 8] [--rounds-per-hour 60] [--runs 21]
                        [--baseline PATH]
       (PB_BUILD_DIR=build, PB_SOURCE_DIR=. as for the integration tests)
"""
import argparse
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
import pbtest      # noqa: E402
import pgserver    # noqa: E402

YEAR_START = 1767225600          # 2026-01-01T00:00Z
DAYS = 365
HOURS_A_DAY = 20                 # a table deals 20 hours a day

WHOLE = {
    "bets": {"1": {"ante": 2500, "pair_plus": 1000, "six_card": 500}, "3": {"ante": 1000}},
    "hands": {"1": ["As", "Ks", "Qs"], "3": ["2c", "3d", "4h"]},
    "dealer": ["Qd", "7c", "2h"],
    "decisions": {"1": "play", "3": "fold"}}

# One row's sums for a series' day: r rounds, each with 2.5 hands, an ante of $25 and a pair plus of $10 a hand.
DAY_ROW = """
INSERT INTO pitboss.report_days
SELECT 'P' || lpad(p::text, 2, '0'), 'T' || lpad(t::text, 2, '0'),
       pitboss.gday_bound('{zone}', '{ds}', '2026-01-01'::date + d),
       'D' || ((t + k * 7 + d) % 40), g.sha[1 + t % array_length(g.sha, 1)], 'Dealer ' || ((t + k * 7 + d) % 40),
       {r}, 1, {r} * 5 / 2, array[{r} * 6250, {r} * 2500, 0, 0, 0], array[{r} * 150, {r} * 180, 0, 0, 0],
       array[{r} * 5, {r} * 5 / 2, 0, 0, 0], 0, '{{0,0,0,0,0}}', '{{0,0,0,0,0}}', '{{0,0,0,0,0}}', 0,
       {play}, 0
FROM generate_series({p0}, {p1}) p, generate_series(1, {tables}) t, generate_series(0, {days} - 1) d,
     generate_series(0, {dealers} - 1) k, (SELECT array_agg(sha256 ORDER BY id) AS sha FROM pitboss.rules) g
"""
MONTHS = """
INSERT INTO pitboss.report_months
SELECT property, table_id, c.month, dealer, rules_sha256, max(dealer_name), sum(rounds), sum(voids),
       sum(hands), {handle}, {house_win}, {lines}, sum(banked_rounds), {banked_handle}, {banked_win}, {banked_lines},
       sum(collections), sum(play_ms), 0
FROM pitboss.report_days JOIN (SELECT pitboss.gday_bound('{zone}', '{ds}', '2026-01-01'::date + d) AS day,
       pitboss.gday_bound('{zone}', '{ds}', date_trunc('month', '2026-01-01'::date + d)::date) AS month
     FROM generate_series(0, {days} - 1) d) c USING (day)
WHERE property = 'P{p}' GROUP BY 1, 2, 3, 4, 5
"""
# The sums kept beside the series' rows (schema version 4): per table (dealer ''), per dealer (table ''), in all.
SUMS = """
INSERT INTO pitboss.report_{kind}
SELECT property, {t}, {start}, {d}, rules_sha256, {name}, sum(rounds), sum(voids), sum(hands), {handle}, {house_win},
       {lines}, sum(banked_rounds), {banked_handle}, {banked_win}, {banked_lines}, sum(collections), sum(play_ms),
       sum(carry_ms)
FROM pitboss.report_{kind} WHERE property = 'P{p}' AND {where} GROUP BY 1, 2, 3, 4, 5
"""
SUM_KINDS = (("table_id", "''", "''", "table_id <> '' AND dealer <> ''"),
             ("''", "dealer", "max(dealer_name)", "table_id <> '' AND dealer <> ''"),
             ("''", "''", "''", "table_id <> '' AND dealer = ''"))
WAGER_SUMS = {c: "array[%s]" % ", ".join("sum(%s[%d])" % (c, i) for i in range(1, 6))
              for c in ("handle", "house_win", "lines", "banked_handle", "banked_win", "banked_lines")}

# The hours of the first two and last two days, one dealer each: what a range in New York reads at its ends.
HOURS = """
INSERT INTO pitboss.report_hours
SELECT 'P' || lpad(p::text, 2, '0'), 'T' || lpad(t::text, 2, '0'), h, 'D' || (t % 40),
       g.sha[1 + t % array_length(g.sha, 1)], 'Dealer ' || (t % 40), {rh}, 0, {rh} * 5 / 2,
       array[{rh} * 6250, {rh} * 2500, 0, 0, 0], array[{rh} * 150, {rh} * 180, 0, 0, 0],
       array[{rh} * 5, {rh} * 5 / 2, 0, 0, 0], h * 1000 + 60000, h * 1000 + 3540000, 0, '{{0,0,0,0,0}}',
       '{{0,0,0,0,0}}', '{{0,0,0,0,0}}', 0
FROM generate_series(1, {props}) p, generate_series(1, {tables}) t,
     (SELECT {start}::bigint + x * 3600 AS h FROM generate_series(0, 47) x
      UNION ALL SELECT {start}::bigint + ({days} - 2) * 86400 + x * 3600 FROM generate_series(0, 71) x) hh,
     (SELECT array_agg(sha256 ORDER BY id) AS sha FROM pitboss.rules) g
"""


def real_games(pg):
    """A pitbossd ships a few real rounds: pitboss.rules then holds its games."""
    d = pbtest.Daemon(overrides={"central": {"conninfo": pg.conninfo},
                                 "property": {"id": "REAL", "name": "Real", "time_zone": "UTC"}})
    try:
        d.start()
        for table in ("T1", "T3"):
            body = dict(WHOLE, bets={"1": {"ante": 2500, "pair_plus": 1000}, "3": {"ante": 1000}})
            st, js = d.call("POST", "/api/v1/tables/%s/rounds" % table, body)
            if st != 201:
                raise SystemExit("dealing on %s: %s" % (table, js))
        pbtest.wait_until("the facts shipped", lambda: int(pg.psql(
            "SELECT count(*) FROM pitboss.round_facts WHERE property = 'REAL'")) == 2, timeout=60, every=0.2)
    finally:
        d.stop()
        d.close()


def generate(pg, a):
    t0 = time.monotonic()
    for p in range(1, a.properties + 1):
        zone, start = ("UTC", "00:00") if p % 2 else ("America/New_York", "06:00")
        pg.psql("INSERT INTO pitboss.properties (property, name, time_zone, gaming_day_start, rollup_zone, "
                "rollup_day_start) VALUES ('P%02d', 'Property %d', '%s', '%s', '%s', '%s')"
                % (p, p, zone, start, zone, start))
    r = a.rounds_per_hour * HOURS_A_DAY // a.dealers            # rounds per dealer row
    play = HOURS_A_DAY * 3600 * 1000 // a.dealers
    for p in range(1, a.properties + 1):                        # a property a statement: each well within psql's timeout
        zone, ds = ("UTC", "00:00") if p % 2 else ("America/New_York", "06:00")
        pg.psql(DAY_ROW.format(zone=zone, ds=ds, r=r, play=play, p0=p, p1=p, tables=a.tables, days=DAYS,
                               dealers=a.dealers))
        pg.psql(MONTHS.format(p="%02d" % p, zone=zone, ds=ds, days=DAYS, **WAGER_SUMS))
        for kind, start in (("days", "day"), ("months", "month")):
            for t, d, name, where in SUM_KINDS:
                pg.psql(SUMS.format(kind=kind, start=start, t=t, d=d, name=name, where=where, p="%02d" % p,
                                    **WAGER_SUMS))
    pg.psql(HOURS.format(rh=a.rounds_per_hour, props=a.properties, tables=a.tables, start=YEAR_START, days=DAYS))
    for t in ("report_days", "report_months", "report_hours"):
        pg.psql("VACUUM ANALYZE pitboss.%s" % t)
    rounds = int(pg.psql("SELECT sum(rounds) FROM pitboss.report_days WHERE table_id = '' AND dealer = ''"))
    counts = [int(pg.psql("SELECT count(*) FROM pitboss.%s" % t)) for t in ("report_days", "report_months",
                                                                           "report_hours")]
    sizes = [int(pg.psql("SELECT pg_total_relation_size('pitboss.%s')" % t)) for t in ("report_days",
                                                                                       "report_months")]
    print("generated in %.0f s: %d properties x %d tables x %d days, %d dealers a table-day: %.2e rounds"
          % (time.monotonic() - t0, a.properties, a.tables, DAYS, a.dealers, rounds))
    print("  report_days %d rows (%.0f MB), report_months %d rows (%.0f MB), report_hours %d rows (the ends)"
          % (counts[0], sizes[0] / 1e6, counts[1], sizes[1] / 1e6, counts[2]))


def percentile(sorted_times, q):
    return sorted_times[min(len(sorted_times) - 1, int(round(q * (len(sorted_times) - 1))))]


def time_reports(pg, a):
    """Every generated property, by each grouping (by day too: the roll-ups are by each property's gaming day)."""
    every = ",".join("P%02d" % p for p in range(1, a.properties + 1))
    utc = every
    binaries = [("this build", pbtest.PITBOSS)] + ([("baseline", a.baseline)] if a.baseline else [])
    for group in ("property", "table", "day", "dealer"):
        times = {name: [] for name, _ in binaries}
        for _ in range(a.runs):
            for name, binary in binaries:
                t0 = time.monotonic()
                p = subprocess.run([binary, "central", "report", "--conninfo", pg.conninfo, "--group", group,
                                    "--property", utc if group == "day" else every,
                                    "--from", "2026-01-01", "--to", "2026-12-31"], stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE, timeout=600)
                times[name].append(time.monotonic() - t0)
                if p.returncode != 0:
                    raise SystemExit("%s central report --group %s: %s" % (binary, group, p.stderr.decode()))
        for name, _ in binaries:
            t = sorted(times[name])
            print("  central report --group %-8s p50 %4.0f ms, p99 %4.0f ms (%d runs, the whole process; %d "
                  "properties; %s)" % (group, percentile(t, 0.5) * 1000, percentile(t, 0.99) * 1000, a.runs,
                                       len((utc if group == "day" else every).split(",")), name))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--properties", type=int, default=20)
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--dealers", type=int, default=8, help="dealers a table sees in a day")
    ap.add_argument("--rounds-per-hour", type=int, default=60)
    ap.add_argument("--runs", type=int, default=21)
    ap.add_argument("--baseline", help="another pitboss to time alternately with this build's")
    a = ap.parse_args()
    why = pgserver.missing()
    if why is not None:
        raise SystemExit("central_scale: " + why)
    print("machine: %d CPU(s), load %.1f; PostgreSQL %s with fsync on" % (os.cpu_count(), os.getloadavg()[0],
                                                                       pgserver.PG_BIN))
    pg = pgserver.PgServer(durable=True).start()
    try:
        rc, out, err = pgserver.run_pitboss("central", "init", "--conninfo", pg.conninfo)
        if rc != 0:
            raise SystemExit(err)
        real_games(pg)
        generate(pg, a)
        time_reports(pg, a)
    finally:
        pg.close()


if __name__ == "__main__":
    main()
