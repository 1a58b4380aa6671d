#!/usr/bin/env python3
"""
wal_pages.py - the pages a whole round writes: WAL frames per one-round commit, by B-tree.

Starts pitbossd (the example configuration, a temporary database, WAL, synchronous=FULL),
posts --warmup whole rounds, then --rounds more, one at a time from one client
(POST /api/v1/tables/{T}/rounds, 6 seats, seeded), so that each COMMIT holds one round.
After each measured round it reads the frame headers the -wal file gained (a frame whose
salts are the header's belongs to the WAL as it is now; a frame with a database size
ends a commit), then maps each page number to the table or index whose B-tree holds it
(the dbstat virtual table, read at the end) and prints the frames per round by B-tree,
with the table an index belongs to.

usage: python3 tests/bench/wal_pages.py [--build DIR] [--rounds N] [--warmup W] [--tables T1,T2]
                                        [--seed S] [--json] [--keep]
  --build: where pitbossd is (else $PB_BUILD_DIR, else ./build);
  --tables: the tables posted to in turn (default T1, as bench_http's wrk run);
  --json: one JSON object instead of the table; --keep: keep the temporary directory.
Exit status: 0 when every round was answered 201 and every measured round was one commit; 1 otherwise.
"""
import argparse
import json
import os
import random
import sqlite3
import struct
import sys

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))

WAL_HEADER = 32
FRAME_HEADER = 24
RANKS = "23456789TJQKA"
SUITS = "cdhs"


def parse_args():
    ap = argparse.ArgumentParser(description="WAL frames per one-round commit, by B-tree")
    ap.add_argument("--build", default=None)
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--warmup", type=int, default=50)
    ap.add_argument("--tables", default="T1")
    ap.add_argument("--seed", type=int, default=20261128)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--keep", action="store_true")
    return ap.parse_args()


def round_body(rng, limits, seats):
    """A whole round of `seats` seats within the table's limits: bets, a shuffled deck's hands, decisions."""
    deck = [r + s for r in RANKS for s in SUITS]
    rng.shuffle(deck)
    body = {"bets": {}, "hands": {}, "decisions": {}}
    for n, seat in enumerate(sorted(rng.sample(range(1, 7), seats))):
        key = str(seat)
        bet = {"ante": limits["ante"]["min"] * rng.randint(1, 4)}
        for side in ("pair_plus", "six_card"):
            if side in limits and rng.random() < 0.4:
                bet[side] = limits[side]["min"]
        body["bets"][key] = bet
        body["hands"][key] = deck[3 * n:3 * n + 3]
        body["decisions"][key] = "play" if rng.random() < 0.7 else "fold"
    body["dealer"] = deck[30:33]
    return body


class WalReader:
    """Reads the frames a -wal file gained since the last call, as commits (lists of page numbers)."""

    def __init__(self, path):
        self.path = path
        self.salts = None
        self.frames_seen = 0
        self.page_size = 0

    def new_commits(self):
        """The commits appended since the last call, each a list of page numbers (a restarted WAL: all of it)."""
        with open(self.path, "rb") as f:
            data = f.read()
        if len(data) < WAL_HEADER:
            return []
        magic, _version, page_size, _seq, salt1, salt2 = struct.unpack(">IIIIII", data[:24])
        if magic not in (0x377F0682, 0x377F0683):
            raise RuntimeError("%s: not a WAL file" % self.path)
        self.page_size = page_size
        if (salt1, salt2) != self.salts:
            self.salts = (salt1, salt2)
            self.frames_seen = 0
        frame = FRAME_HEADER + page_size
        commits, current, i = [], [], self.frames_seen
        while WAL_HEADER + (i + 1) * frame <= len(data):
            off = WAL_HEADER + i * frame
            pgno, db_size, s1, s2 = struct.unpack(">IIII", data[off:off + 16])
            if (s1, s2) != self.salts:
                break
            current.append(pgno)
            i += 1
            if db_size != 0:
                commits.append(current)
                current = []
                self.frames_seen = i
        return commits


def btree_of_pages(db_path):
    """{page number: (b-tree name, its table)} for every page of the database as it is now (dbstat)."""
    conn = sqlite3.connect("file:%s?mode=ro" % db_path, uri=True)
    try:
        owner = {name: tbl for name, tbl in conn.execute("SELECT name, tbl_name FROM sqlite_schema")}
        owner["sqlite_schema"] = "sqlite_schema"
        pages = {}
        for name, pageno in conn.execute("SELECT name, pageno FROM dbstat"):
            pages[pageno] = (name, owner.get(name, name))
        return pages
    finally:
        conn.close()


def measure(args):
    if args.build:
        os.environ["PB_BUILD_DIR"] = os.path.abspath(args.build)
    sys.path.insert(0, os.path.join(HERE, "..", "integration"))
    import pbtest  # noqa: E402

    tables = args.tables.split(",")
    d = pbtest.Daemon()
    limits = {t["id"]: t["limits"] for t in d.config["tables"]}
    rng = random.Random(args.seed)
    bad = []
    commits = []
    try:
        d.start()
        wal = WalReader(d.db_path + "-wal")

        def post(i):
            t = tables[i % len(tables)]
            st, body = d.call("POST", "/api/v1/tables/%s/rounds" % t, round_body(rng, limits[t], 6))
            if st != 201:
                bad.append((t, st, body))
        for i in range(args.warmup):
            post(i)
        wal.new_commits()
        for i in range(args.rounds):
            post(i)
            commits.append(wal.new_commits())
        pages = btree_of_pages(d.db_path)
        page_size = wal.page_size
    finally:
        d.stop()
        if not args.keep:
            d.close()
        else:
            print("kept %s" % d.tmpdir, file=sys.stderr)
    return tables, commits, pages, page_size, bad


def report(args, tables, commits, pages, page_size, bad):
    rounds = len(commits)
    odd = sum(1 for c in commits if len(c) != 1)
    frames = {}
    total = 0
    for round_commits in commits:
        for c in round_commits:
            total += len(c)
            for p in c:
                key = pages.get(p, ("(free or not a b-tree now)", "-"))
                frames[key] = frames.get(key, 0) + 1
    rows = sorted(frames, key=lambda k: (-frames[k], k))
    if args.json:
        print(json.dumps({
            "rounds": rounds, "tables": tables, "page_size": page_size, "not_one_commit": odd,
            "frames_per_round": total / rounds if rounds else 0.0,
            "by_btree": [{"btree": k[0], "table": k[1], "frames_per_round": frames[k] / rounds} for k in rows],
            "not_201": len(bad)}, indent=1))
    else:
        print("wal_pages: %d whole rounds (6 seats) posted one at a time to %s after %d of warm-up; page size %d"
              % (rounds, ",".join(tables), args.warmup, page_size))
        print("%-34s %-22s %10s" % ("b-tree", "table", "frames/round"))
        for k in rows:
            print("%-34s %-22s %10.2f" % (k[0], k[1], frames[k] / rounds))
        print("%-34s %-22s %10.2f   (%.1f KB a round; target <= 8)"
              % ("total", "", total / rounds, total / rounds * (page_size + FRAME_HEADER) / 1024))
        if odd:
            print("note: %d measured round(s) were not exactly one commit" % odd)
    for t, st, body in bad[:5]:
        print("wal_pages: %s answered %d: %s" % (t, st, body), file=sys.stderr)
    return 0 if not bad and odd == 0 else 1


def main():
    args = parse_args()
    return report(args, *measure(args))


if __name__ == "__main__":
    sys.exit(main())
