#!/usr/bin/env python3
"""
tests/bench/central_bench.py - the central tier's figures (docs/central.md,
"Sizing and measurements"), against a real PostgreSQL 15 started here with
fsync on (durable, unlike the tests' server) and the real pitbossd:

1. the floor's own rate: `pitboss simulate` (whole rounds, as fast as the
   daemon takes them, no central configured), in rounds and events per second;
2. the shipping rate: the same daemon started again with "central"
   configured, timed until PostgreSQL holds every event and every round's
   report facts;
3. an outage at full load: the central server stopped for --outage seconds
   while the simulator deals as fast as it can, then started again with the
   load still running; the backlog, and the time until the shipper is back
   within one batch of the floor;
4. the cross-property report at --report-rounds rounds: report facts made in
   PostgreSQL from the real ones (20 tables, 60 rounds an hour each, as a
   floor deals), then `pitboss central report` timed per group;
5. the central copy's size per event and per round;
6. `pitboss central restore` of the whole property, and `pitboss verify` of the result;
7. the ingest of report facts with the central triggers (the hours and the day and month
   roll-ups): --ingest-facts facts of 20 tables in time order (60 rounds an hour each, as a
   floor deals them), sent a batch per transaction and one statement per batch, as the shipper
   sends them, with batches of 50 and of 500 (the shipper's most); `--only ingest` runs this alone.

usage: central_bench.py [--rounds N] [--outage S] [--report-rounds M] [--ingest-facts F] [--only ingest] [--smoke]
       (PB_BUILD_DIR=build, PB_SOURCE_DIR=. as for the integration tests)
"""
import argparse
import http.client
import os
import re
import statistics
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
import pbtest      # noqa: E402
import pgserver    # noqa: E402

TABLES = "T1,T2,T3,F1"
PROPERTY = "BENCH"


def metrics(d):
    conn = http.client.HTTPConnection(d.host, d.port, timeout=10)
    try:
        conn.request("GET", "/metrics")
        return conn.getresponse().read().decode()
    finally:
        conn.close()


def metric(text, name):
    m = re.search(r"^%s (\S+)$" % re.escape(name), text, re.M)
    return float(m.group(1)) if m else None


def simulator(d, rounds_per_table=0):
    """`pitboss simulate` dealing whole rounds as fast as pitbossd takes them (0 rounds: until stopped)."""
    args = [pbtest.PITBOSS, "simulate", "--url", "http://%s:%d" % (d.host, d.port), "--token", pbtest.DEALER,
            "--tables", TABLES, "--rate", "0", "--mode", "whole", "--misdeal-rate", "0.01", "--clients", "2",
            "--quiet", "--rounds", str(rounds_per_table)]
    return subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


def simulate(d, rounds_per_table):
    """Deals rounds_per_table rounds at each table; returns the seconds it took."""
    start = time.monotonic()
    p = simulator(d, rounds_per_table)
    out = p.communicate(timeout=3600)[0].decode()
    if p.returncode != 0:
        raise SystemExit("pitboss simulate: %s" % out)
    return time.monotonic() - start


def finished(d):
    return d.db_value("SELECT count(*) FROM rounds WHERE state IN ('settled', 'void')")


def wait_shipped(pg, d, timeout=3600):
    events = d.db_value("SELECT count(*) FROM events")
    rounds = finished(d)
    deadline = time.monotonic() + timeout
    while True:
        n = int(pg.psql("SELECT count(*) FROM pitboss.events WHERE property = '%s'" % PROPERTY))
        f = int(pg.psql("SELECT count(*) FROM pitboss.round_facts WHERE property = '%s'" % PROPERTY))
        if n >= events and f >= rounds:
            return events
        if time.monotonic() > deadline:
            raise SystemExit("not shipped in %d s: %d of %d events, %d of %d facts" % (timeout, n, events, f, rounds))
        time.sleep(0.05)


def daemon(pg=None, tmpdir=None):
    over = {"property": {"id": PROPERTY, "name": "Bench", "time_zone": "UTC", "gaming_day_start": "06:00"}}
    if pg is not None:
        over["central"] = {"conninfo": pg.conninfo}
    return pbtest.Daemon(overrides=over, tmpdir=tmpdir)


def floor_and_shipping(pg, rounds):
    d = daemon()
    d.start()
    simulate(d, rounds_per_table=rounds // 4)      # warm: the next figure is the steady floor
    e0, r0 = d.db_value("SELECT count(*) FROM events"), finished(d)
    secs = simulate(d, rounds_per_table=rounds // 4)
    events, done = d.db_value("SELECT count(*) FROM events") - e0, finished(d) - r0
    print("floor (no central): %d rounds, %d events in %.1f s: %.0f rounds/s, %.0f events/s"
          % (done, events, secs, done / secs, events / secs))
    d.stop()
    total = d.db_value("SELECT count(*) FROM events")
    rounds_total = finished(d)
    shipped = daemon(pg, tmpdir=d.tmpdir)
    start = time.monotonic()
    shipped.start()
    wait_shipped(pg, shipped)
    secs = time.monotonic() - start
    print("shipping: %d events and %d rounds' facts into PostgreSQL in %.1f s (start included): %.0f events/s"
          % (total, rounds_total, secs, total / secs))
    return shipped


def outage(pg, d, seconds):
    print("outage: the central server stopped for %d s with the floor at full load" % seconds)
    e0 = d.db_value("SELECT count(*) FROM events")
    pg.stop()
    load = simulator(d)
    try:
        time.sleep(seconds)
        backlog = metric(metrics(d), "pitboss_central_lag_events")
        floor = (d.db_value("SELECT count(*) FROM events") - e0) / seconds
        pg.start()
        back = time.monotonic()
        caught = None
        while caught is None and time.monotonic() - back < 600:
            m = metrics(d)
            if metric(m, "pitboss_central_up") == 1 and (metric(m, "pitboss_central_lag_events") or 0) <= 500:
                caught = time.monotonic() - back
            time.sleep(0.1)
    finally:
        load.terminate()
        load.communicate(timeout=120)
    print("  backlog %d events (the floor recorded %.0f events/s); back within one batch of the floor %.1f s after "
          "the server came back, the floor still at full load" % (backlog or 0, floor, caught if caught else -1))
    wait_shipped(pg, d)
    t0 = time.monotonic()
    rc, out, err = pgserver.run_pitboss("central", "verify", "--conninfo", pg.conninfo, "--property", PROPERTY)
    print("  central verify after it (chains, checkpoints, every round's facts replayed): %s in %.1f s"
          % ((out.strip().splitlines() or [err.strip()])[-1], time.monotonic() - t0))


SYNTHETIC = """
INSERT INTO pitboss.round_facts (property, round_id, table_id, final_event, hour, dealer, dealer_name, rules_sha256,
    voided, hands, handle, house_win, lines, opened_ms, settled_ms, banked_rounds, banked_handle, banked_win,
    banked_lines, collections)
WITH f AS MATERIALIZED (SELECT row_number() OVER (ORDER BY round_id) - 1 AS rn, * FROM pitboss.round_facts
                        WHERE property = '%s' ORDER BY round_id LIMIT %d)
SELECT 'SYN', i, 'T' || lpad((i %% 20)::text, 2, '0'), i, h, 'D' || ((i / 480) %% 40), 'Dealer ' || ((i / 480) %% 40),
       f.rules_sha256, f.voided, f.hands, f.handle, f.house_win, f.lines, h * 1000 + (i / 20 %% 60) * 60000,
       h * 1000 + (i / 20 %% 60) * 60000 + 45000, f.banked_rounds, f.banked_handle, f.banked_win, f.banked_lines,
       f.collections
FROM generate_series(%d::bigint, %d) AS i
CROSS JOIN LATERAL (SELECT 1767243600 + (i / 1200) * 3600 AS h) AS hh
JOIN f ON f.rn = i %% %d;
"""


def report_latency(pg, rounds):
    have = int(pg.psql("SELECT count(*) FROM pitboss.round_facts WHERE property = '%s'" % PROPERTY))
    sample = min(have, 1000)
    start = time.monotonic()
    pg.psql("INSERT INTO pitboss.properties (property, name, time_zone, gaming_day_start, shifts) "
            "VALUES ('SYN', 'Synthetic', 'America/New_York', '06:00', '[]') ON CONFLICT DO NOTHING")
    for first in range(1, rounds + 1, 50000):     # in parts: each statement well within psql's timeout
        pg.psql(SYNTHETIC % (PROPERTY, sample, first, min(first + 49999, rounds), sample))
    print("report facts: %d rounds made in PostgreSQL from %d real ones (20 tables, 60 rounds/hour each) in %.0f s"
          % (rounds, sample, time.monotonic() - start))
    hours = int(pg.psql("SELECT count(*) FROM pitboss.report_hours WHERE property = 'SYN'"))
    days = rounds // 1200 // 24 + 2
    first = "2026-01-01"
    last = time.strftime("%Y-%m-%d", time.gmtime(1767243600 + days * 86400))
    print("  pitboss.report_hours: %d rows; the report covers %s to %s" % (hours, first, last))
    for group in ("property", "table", "day", "dealer"):
        times = []
        for _ in range(7):
            t0 = time.monotonic()
            rc, out, err = pgserver.run_pitboss("central", "report", "--conninfo", pg.conninfo, "--group", group,
                                                "--property", "SYN", "--from", first, "--to", last)
            times.append(time.monotonic() - t0)
            if rc != 0:
                raise SystemExit("central report --group %s: %s" % (group, err))
        times.sort()
        print("  central report --group %-8s p50 %.0f ms, max %.0f ms (7 runs, the whole process)"
              % (group, statistics.median(times) * 1000, times[-1] * 1000))


def sizes(pg):
    ev = int(pg.psql("SELECT count(*) FROM pitboss.events"))
    ev_bytes = int(pg.psql("SELECT sum(pg_total_relation_size(inhrelid)) FROM pg_inherits "
                           "WHERE inhparent = 'pitboss.events'::regclass"))
    facts = int(pg.psql("SELECT count(*) FROM pitboss.round_facts"))
    facts_bytes = int(pg.psql("SELECT pg_total_relation_size('pitboss.round_facts')"))
    print("central size: events %d, %.0f bytes each (with their index); report facts %d, %.0f bytes each"
          % (ev, ev_bytes / max(ev, 1), facts, facts_bytes / max(facts, 1)))


def restore(pg, tmp):
    path = os.path.join(tmp, "restored.db")
    t0 = time.monotonic()
    rc, out, err = pgserver.run_pitboss("central", "restore", "--conninfo", pg.conninfo, "--property", PROPERTY,
                                        "--database", path, timeout=7200)
    secs = time.monotonic() - t0
    if rc != 0:
        raise SystemExit("central restore: %s" % err)
    t0 = time.monotonic()
    rc, vout, verr = pgserver.run_pitboss("verify", "--database", path, timeout=7200)
    print("restore: %s in %.1f s; pitboss verify of it %s in %.1f s" % (out.strip(), secs,
          "OK" if rc == 0 else "FAILED", time.monotonic() - t0))


INGEST_RULES = "0" * 64
INGEST = """
BEGIN;
INSERT INTO pitboss.round_facts (property, round_id, table_id, final_event, hour, dealer, dealer_name, rules_sha256,
    voided, hands, handle, house_win, lines, opened_ms, settled_ms, banked_rounds, banked_handle, banked_win,
    banked_lines, collections)
SELECT '%s', i, 'T' || lpad((i %% 20)::text, 2, '0'), i * 11, h, 'D' || ((i / 480) %% 40),
       'Dealer ' || ((i / 480) %% 40), '%s', i %% 100 = 0, 1 + i %% 6, '{500,100,0,0,0}', '{120,-40,0,0,0}',
       '{2,1,0,0,0}', h * 1000 + (i / 20 %% 60) * 60000, h * 1000 + (i / 20 %% 60) * 60000 + 45000, 0,
       '{0,0,0,0,0}', '{0,0,0,0,0}', '{0,0,0,0,0}', 0
FROM generate_series(%d::bigint, %d) AS i CROSS JOIN LATERAL (SELECT 1767243600 + (i / 1200) * 3600 AS h) AS hh;
COMMIT;
"""


def facts_ingest(pg, facts):
    """Report facts inserted as the shipper sends them (one statement a batch, one transaction each), timed."""
    pg.psql("INSERT INTO pitboss.rules (sha256, body) VALUES ('%s', '{}') ON CONFLICT DO NOTHING" % INGEST_RULES)
    for batch in (50, 500):
        prop = "ING%d" % batch
        pg.psql("INSERT INTO pitboss.properties (property) VALUES ('%s') ON CONFLICT DO NOTHING" % prop)
        script = "".join(INGEST % (prop, INGEST_RULES, first, min(first + batch, facts + 1) - 1)
                         for first in range(1, facts + 1, batch))
        t0 = time.monotonic()
        p = subprocess.run([os.path.join(pgserver.PG_BIN, "psql"), "-X", "-q", "-v", "ON_ERROR_STOP=1",
                            "-d", pg.conninfo], input=script.encode(), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=3600)
        secs = time.monotonic() - t0
        if p.returncode != 0:
            raise SystemExit("facts ingest: %s" % p.stderr.decode(errors="replace"))
        print("facts ingest: %d facts of 20 tables (%d hours), %d a transaction, in %.2f s: %.0f facts/s"
              % (facts, facts // 1200 + 1, batch, secs, facts / secs))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=40000)
    ap.add_argument("--outage", type=int, default=60)
    ap.add_argument("--report-rounds", type=int, default=1000000)
    ap.add_argument("--ingest-facts", type=int, default=20000)
    ap.add_argument("--only", choices=("ingest",), help="run one part alone")
    ap.add_argument("--smoke", action="store_true", help="small figures: proves the benchmark runs")
    a = ap.parse_args()
    if a.smoke:
        a.rounds, a.outage, a.report_rounds, a.ingest_facts = 400, 3, 5000, 1000
    why = pgserver.missing()
    if why is not None:
        raise SystemExit("central_bench: " + why)
    print("machine: %d CPU(s); PostgreSQL %s with fsync on" % (os.cpu_count(), pgserver.PG_BIN))
    pg = pgserver.PgServer(durable=True).start()
    d = None
    try:
        rc, out, err = pgserver.run_pitboss("central", "init", "--conninfo", pg.conninfo)
        if rc != 0:
            raise SystemExit(err)
        if a.only == "ingest":
            facts_ingest(pg, a.ingest_facts)
            return
        d = floor_and_shipping(pg, a.rounds)
        outage(pg, d, a.outage)
        d.stop(allow_errors=True)      # it logged the outage
        sizes(pg)
        restore(pg, d.tmpdir)
        report_latency(pg, a.report_rounds)
        facts_ingest(pg, a.ingest_facts)
    finally:
        if d is not None:
            if d.running:
                d.stop(allow_errors=True)
            d.close()
        pg.close()


if __name__ == "__main__":
    main()
