#!/usr/bin/env python3
"""Space taken by stored Idempotency-Key answers before and after migration 008.

Builds databases from the migrations of schema/ (the files pitbossd embeds),
one stopped at 007 (idempotency WITHOUT ROWID) and one at the newest, inserts
the same N answers into each with the INSERT of daemon/store/idempotency.c,
and prints the file size (page_count * page_size) and the idempotency table
with its indexes by SQLite's dbstat.  Then upgrades the 007 copy in place
(as pitbossd does at start), and times one prune batch with each DELETE.

    python3 tests/bench/idempotency_size.py [--rows 20000] [--dir /tmp]

Python standard library only.  The answers are random printable JSON of
1.5-1.9 KB (1.7 KB on average, as measured in the soak of docs/performance.md).
"""
import argparse
import glob
import os
import random
import re
import sqlite3
import sys
import time

SOURCE = os.environ.get("PB_SOURCE_DIR", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

INSERT = "INSERT INTO idempotency (actor, key, request_hash, status, response, created_at) VALUES (?, ?, ?, ?, ?, ?)"
PRUNE_007 = ("DELETE FROM idempotency WHERE (actor, key) IN "
             "(SELECT actor, key FROM idempotency WHERE created_at < ? ORDER BY created_at LIMIT ?)")
PRUNE_008 = ("DELETE FROM idempotency WHERE rowid IN "
             "(SELECT rowid FROM idempotency WHERE created_at < ? ORDER BY created_at LIMIT ?)")


def migrations():
    """[(version, sql)] from schema/NNN_name.sql, in order."""
    out = []
    for path in sorted(glob.glob(os.path.join(SOURCE, "schema", "*.sql"))):
        m = re.match(r"^(\d{3})_", os.path.basename(path))
        with open(path, encoding="utf-8") as f:
            out.append((int(m.group(1)), f.read()))
    return out


def open_db(path):
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.unlink(path + suffix)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


def migrate(conn, upto):
    """Applies the missing migrations up to version upto, each in its own transaction, as store.c does."""
    have = conn.execute("PRAGMA user_version").fetchone()[0]
    for version, sql in migrations():
        if have < version <= upto:
            conn.executescript("BEGIN IMMEDIATE;\n%s\n;PRAGMA user_version = %d;\nCOMMIT;" % (sql, version))


def answers(n, seed=1):
    """n rows as pitbossd stores them: a dealer per table, a random key, created 250 ms apart."""
    rng = random.Random(seed)
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
    t0 = 1767225600  # 2026-01-01T00:00:00Z
    for i in range(n):
        size = rng.randint(1500, 1900)
        body = '{"round":{"id":%d,"lines":"' % i
        body += "".join(rng.choice(alphabet) for _ in range(size - len(body) - 4)) + '"}}'
        ms = t0 * 1000 + i * 250
        at = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ms // 1000)) + ".%03dZ" % (ms % 1000)
        key = "%08x-%04x-%04x-%04x-%012x" % tuple(rng.getrandbits(b) for b in (32, 16, 16, 16, 48))
        yield ("dealer-T%02d" % (i % 20 + 1), key, "%064x" % rng.getrandbits(256), 201, body, at)


def fill(conn, rows):
    conn.execute("BEGIN")
    for i, row in enumerate(rows):
        conn.execute(INSERT, row)
        if i % 100 == 99:
            conn.execute("COMMIT")
            conn.execute("BEGIN")
    conn.execute("COMMIT")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def sizes(conn):
    """(file bytes, free bytes, idempotency table bytes, its index bytes)"""
    page = conn.execute("PRAGMA page_size").fetchone()[0]
    count = conn.execute("PRAGMA page_count").fetchone()[0]
    free = conn.execute("PRAGMA freelist_count").fetchone()[0]
    table = conn.execute("SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name = 'idempotency'").fetchone()[0]
    index = conn.execute("SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name IN "
                         "(SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'idempotency')").fetchone()[0]
    return page * count, page * free, table, index


def report(label, conn, n):
    total, free, table, index = sizes(conn)
    kind = conn.execute("SELECT sql LIKE '%WITHOUT ROWID%' FROM sqlite_master WHERE name = 'idempotency'").fetchone()[0]
    print("%-32s %s file %12s B (free %10s B)   idempotency table %12s B + indexes %10s B = %7.2f KB an answer"
          % (label, "WITHOUT ROWID" if kind else "rowid        ", format(total, ","), format(free, ","),
             format(table, ","), format(index, ","), (table + index) / n / 1000.0))
    return total


def prune_time(conn, sql, batches, batch):
    """Median seconds of one batch DELETE, the oldest rows first."""
    times = []
    for _ in range(batches):
        t = time.perf_counter()
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(sql, ("2100-01-01T00:00:00.000Z", batch))
        conn.execute("COMMIT")
        times.append(time.perf_counter() - t)
    return sorted(times)[len(times) // 2]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=20000)
    ap.add_argument("--dir", default="/tmp")
    args = ap.parse_args()
    latest = migrations()[-1][0]
    if latest < 8:
        sys.exit("schema/ has no migration 008")
    rows = list(answers(args.rows))
    avg = sum(len(r[4]) for r in rows) / len(rows)
    print("%d answers, %.0f B of response on average, SQLite %s" % (len(rows), avg, sqlite3.sqlite_version))

    old = open_db(os.path.join(args.dir, "pb-idem-007.db"))
    migrate(old, 7)
    fill(old, rows)
    size_old = report("fresh at 007, filled", old, len(rows))

    new = open_db(os.path.join(args.dir, "pb-idem-%03d.db" % latest))
    migrate(new, latest)
    fill(new, rows)
    size_new = report("fresh at %03d, filled" % latest, new, len(rows))
    print("%-32s %+.1f%% file size" % ("", 100.0 * (size_new - size_old) / size_old))

    t = time.perf_counter()
    migrate(old, latest)
    took = time.perf_counter() - t
    old.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    report("007 upgraded in place (%.2f s)" % took, old, len(rows))
    old.execute("VACUUM")
    report("  the same after VACUUM", old, len(rows))
    old.close()

    # One prune batch of 1000, the oldest first: 007's DELETE on a fresh 007 copy, and 008's.
    old = open_db(os.path.join(args.dir, "pb-idem-007.db"))
    migrate(old, 7)
    fill(old, rows)
    print("prune, median of 5 batches of 1000: 007 by (actor, key) %.1f ms, %03d by rowid %.1f ms"
          % (1000 * prune_time(old, PRUNE_007, 5, 1000), latest, 1000 * prune_time(new, PRUNE_008, 5, 1000)))
    for conn, name in ((old, "pb-idem-007.db"), (new, "pb-idem-%03d.db" % latest)):
        conn.close()
        for suffix in ("", "-wal", "-shm"):
            p = os.path.join(args.dir, name + suffix)
            if os.path.exists(p):
                os.unlink(p)


if __name__ == "__main__":
    main()
