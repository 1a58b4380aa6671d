#!/usr/bin/env python3
"""
wal_layouts.py - WAL frames per one-round commit for other layouts of a round's rows, by B-tree.

Replays the rounds of a database pitbossd recorded (e.g. one kept by `wal_pages.py --keep`)
into fresh databases, one transaction a round (the round inserted, then settled; its events;
its derived rows; the report row updated), each database with another layout of the same
rows, and prints the WAL frames per commit by B-tree for each layout.  The bytes are the
record's own; only where they are kept changes.  A figure for planning, not pitbossd's.

usage: python3 tests/bench/wal_layouts.py DB [--warmup W]
  DB: e.g. the database of `python3 tests/bench/wal_pages.py --build build --rounds 500 --warmup 100 --keep`.
"""
import argparse
import json
import os
import sqlite3
import sys
import tempfile

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wal_pages import WalReader  # noqa: E402

ROUNDS = """CREATE TABLE rounds (id INTEGER PRIMARY KEY, table_id TEXT, round_no INTEGER, state TEXT, rules_id INTEGER,
    limits_json TEXT, seats INTEGER, banking TEXT, banker_seat INTEGER, bank INTEGER, opened_at TEXT, opened_by TEXT,
    closed_at TEXT, settled_at TEXT, void_reason TEXT, dealer_qualifies INTEGER, players_net INTEGER,
    collection_json TEXT, dealer_id TEXT, dealer_name TEXT, derived TEXT, UNIQUE (table_id, round_no))"""
EVENTS = """CREATE TABLE events (id INTEGER PRIMARY KEY, table_id TEXT, table_seq INTEGER, round_id INTEGER, type TEXT,
    at TEXT, actor TEXT, body TEXT, prev_hash TEXT, hash TEXT, UNIQUE (table_id, table_seq))"""
BETS = """CREATE TABLE bets (round_id INTEGER, seat INTEGER, ante INTEGER, pair_plus INTEGER, six_card INTEGER,
    placed_at TEXT, placed_by TEXT, PRIMARY KEY (round_id, seat)) WITHOUT ROWID"""
HANDS = """CREATE TABLE hands (round_id INTEGER, seat INTEGER, cards TEXT, hand TEXT, dealt_at TEXT,
    PRIMARY KEY (round_id, seat)) WITHOUT ROWID"""
DECISIONS = """CREATE TABLE decisions (round_id INTEGER, seat INTEGER, action TEXT, decided_at TEXT, decided_by TEXT,
    PRIMARY KEY (round_id, seat)) WITHOUT ROWID"""
SEATS = """CREATE TABLE seats (round_id INTEGER, seat INTEGER, ante INTEGER, pair_plus INTEGER, six_card INTEGER,
    placed_at TEXT, placed_by TEXT, cards TEXT, hand TEXT, dealt_at TEXT, action TEXT, decided_at TEXT, decided_by TEXT,
    PRIMARY KEY (round_id, seat)) WITHOUT ROWID"""
PAYOUTS = """CREATE TABLE payouts (round_id INTEGER, seq INTEGER, seat INTEGER, wager TEXT, stake INTEGER, result TEXT,
    net INTEGER, bank_after INTEGER, short INTEGER, PRIMARY KEY (round_id, seq)) WITHOUT ROWID"""
KEYED = {t: "CREATE TABLE %s (id INTEGER PRIMARY KEY, %s)" % (t, cols) for t, cols in (
    ("bets", "round_id, seat, ante, pair_plus, six_card, placed_at, placed_by"),
    ("hands", "round_id, seat, cards, hand, dealt_at"),
    ("decisions", "round_id, seat, action, decided_at, decided_by"),
    ("payouts", "round_id, seq, seat, wager, stake, result, net, bank_after, short"))}
REPORT = """CREATE TABLE report_hours (hour INTEGER, table_id TEXT, n INTEGER, sums TEXT,
    PRIMARY KEY (hour, table_id)) WITHOUT ROWID"""
SETTLED_AT_FULL = "CREATE INDEX rounds_settled_at ON rounds(settled_at)"
SETTLED_AT = "CREATE INDEX rounds_settled_at ON rounds(settled_at) WHERE settled_at IS NOT NULL"
EVENTS_ROUND = "CREATE INDEX events_round ON events(round_id) WHERE round_id IS NOT NULL"
PAYOUTS_NET = "CREATE INDEX payouts_net ON payouts(net) WHERE net > 0"

# name: (schema statements, how the derived rows are kept)
LAYOUTS = {
    "all WITHOUT ROWID (rounds_open dropped)": ([ROUNDS, EVENTS, BETS, HANDS, DECISIONS, PAYOUTS, REPORT,
                                                SETTLED_AT_FULL, EVENTS_ROUND, PAYOUTS_NET], "tables"),
    "bets, hands, decisions keyed by rowid, rounds_settled_at partial (schema 023)": (
        [ROUNDS, EVENTS, KEYED["bets"], KEYED["hands"], KEYED["decisions"], PAYOUTS, REPORT, SETTLED_AT,
         EVENTS_ROUND, PAYOUTS_NET], "keyed"),
    "payouts keyed by rowid too (round_id * 64 + seq)": (
        [ROUNDS, EVENTS, KEYED["bets"], KEYED["hands"], KEYED["decisions"], KEYED["payouts"], REPORT, SETTLED_AT,
         EVENTS_ROUND, PAYOUTS_NET], "keyed+payouts"),
    "one seats table (bets, hands, decisions)": ([ROUNDS, EVENTS, SEATS, PAYOUTS, REPORT, SETTLED_AT, EVENTS_ROUND,
                                                  PAYOUTS_NET], "seats"),
    "seats, no events_round": ([ROUNDS, EVENTS, SEATS, PAYOUTS, REPORT, SETTLED_AT, PAYOUTS_NET], "seats"),
    "derived rows on the round's row, payouts_net kept": ([ROUNDS, EVENTS, PAYOUTS, REPORT, SETTLED_AT, PAYOUTS_NET],
                                                          "row+payouts"),
    "derived rows on the round's row, no events_round, no payouts_net": ([ROUNDS, EVENTS, REPORT, SETTLED_AT],
                                                                         "row"),
    "... and no rounds_settled_at": ([ROUNDS, EVENTS, REPORT], "row"),
    "... and the events' hashes as 32-byte blobs, prev_hash not kept": ([ROUNDS, EVENTS, REPORT], "row/blob"),
}


def source_rounds(src):
    """Each round of src with its rows: (round row dict, events, bets, hands, decisions, payouts)."""
    src.row_factory = sqlite3.Row
    out = []
    for r in src.execute("SELECT * FROM rounds ORDER BY id"):
        rid = r["id"]

        def rows(sql):
            """The rows without their rowid key (bets, hands, decisions: schema 023's id; payouts: 025's)."""
            return [{k: x[k] for k in x.keys() if k != "id" or "FROM events" in sql} for x in src.execute(sql, (rid,))]
        out.append((dict(r), rows("SELECT * FROM events WHERE round_id = ? ORDER BY id"),
                    rows("SELECT * FROM bets WHERE round_id = ? ORDER BY seat"),
                    rows("SELECT * FROM hands WHERE round_id = ? ORDER BY seat"),
                    rows("SELECT * FROM decisions WHERE round_id = ? ORDER BY seat"),
                    rows("SELECT * FROM payouts WHERE round_id = ? ORDER BY seq")))
    return out


def insert(db, table, row):
    cols = list(row)
    db.execute("INSERT INTO %s (%s) VALUES (%s)" % (table, ",".join(cols), ",".join("?" * len(cols))),
               [row[c] for c in cols])


def write_round(db, how, rd):
    """One round's rows in one transaction, as the layout keeps them."""
    r, events, bets, hands, decisions, payouts = rd
    db.execute("BEGIN IMMEDIATE")
    first = dict(r, state="betting", settled_at=None, players_net=None, closed_at=None)
    insert(db, "rounds", first)
    for e in events:
        if how.endswith("/blob"):
            e = dict(e, hash=bytes.fromhex(e["hash"]), prev_hash=b"")
        insert(db, "events", e)
    if how.startswith("keyed"):
        for t, rows in (("bets", bets), ("hands", hands), ("decisions", decisions)):
            for x in rows:
                insert(db, t, dict(x, id=x["round_id"] * 16 + x["seat"]))
        if how == "keyed+payouts":
            for x in payouts:
                insert(db, "payouts", dict(x, id=x["round_id"] * 64 + x["seq"]))
    elif how == "tables":
        for t, rows in (("bets", bets), ("hands", hands), ("decisions", decisions)):
            for x in rows:
                insert(db, t, x)
    elif how == "seats":
        seats = {}
        for rows in (bets, hands, decisions):
            for x in rows:
                seats.setdefault(x["seat"], {}).update(x)
        for s in sorted(seats):
            insert(db, "seats", seats[s])
    derived = None
    how = how.split("/")[0]
    if how in ("row", "row+payouts"):
        derived = json.dumps({"bets": bets, "hands": hands, "decisions": decisions,
                              "payouts": payouts if how == "row" else []}, separators=(",", ":"))
    if how != "row" and how != "keyed+payouts":
        for x in payouts:
            insert(db, "payouts", x)
    db.execute("UPDATE rounds SET state = ?, settled_at = ?, players_net = ?, closed_at = ?, derived = ? WHERE id = ?",
               (r["state"], r["settled_at"], r["players_net"], r["closed_at"], derived, r["id"]))
    db.execute("INSERT INTO report_hours VALUES (1, ?, 1, 'x') ON CONFLICT DO UPDATE SET n = n + 1", (r["table_id"],))
    db.execute("COMMIT")


def measure(name, statements, how, rounds, warmup, tmp):
    path = os.path.join(tmp, "%d.db" % abs(hash(name)))
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = OFF")
    for s in statements:
        db.execute(s)
    wal = WalReader(path + "-wal")
    commits = []
    for i, rd in enumerate(rounds):
        write_round(db, how, rd)
        c = wal.new_commits()
        if i >= warmup:
            commits.extend(c)
    pages = {}
    for bt, pg in db.execute("SELECT name, pageno FROM dbstat"):
        pages[pg] = bt
    db.close()
    by = {}
    for c in commits:
        for p in c:
            k = pages.get(p, "(free)")
            by[k] = by.get(k, 0) + 1
    n = len(commits)
    if n == 0:
        print("%s: no round after the warm-up of %d" % (name, warmup))
        return
    total = sum(by.values())
    print("%s: %.2f frames a commit (%d commits)" % (name, total / n, n))
    print("   " + ", ".join("%s %.2f" % (k, v / n) for k, v in sorted(by.items(), key=lambda kv: -kv[1])))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("db")
    ap.add_argument("--warmup", type=int, default=100)
    args = ap.parse_args()
    src = sqlite3.connect("file:%s?mode=ro" % args.db, uri=True)
    rounds = source_rounds(src)
    src.close()
    with tempfile.TemporaryDirectory(prefix="wal-layouts-") as tmp:
        for name, (statements, how) in LAYOUTS.items():
            measure(name, statements, how, rounds, args.warmup, tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
