#!/usr/bin/env python3
"""
tests/bench/cash_count_bench.py - the figures of the cash and count controls (docs/players.md
"Cash controls", docs/accounting.md), against the real pitbossd of PB_BUILD_DIR:

1. Title 31: N_PATRONS identified patrons, N_TXNS cash transactions of one gaming day (a third at the
   cage); the latency of each POST (the identification check inside the write included), then of
   GET /reports/title31 and GET /transactions for that day;
2. the master game: 3 tables, each an opener, N_ROUNDS whole rounds, 20 fills, a closer and a drop;
   the latency of GET /reports/master-game for that day.

usage: cash_count_bench.py [--txns N] [--rounds N]      (PB_BUILD_DIR=build as for the integration tests)
Not run by make check: a measurement, whose figures depend on the machine.
"""
import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
import pbtest  # noqa: E402

WHOLE = {"bets": {"1": {"ante": 2500, "pair_plus": 1000}, "3": {"ante": 1000}},
         "hands": {"1": ["As", "Ks", "Qs"], "3": ["2c", "3d", "4h"]}, "dealer": ["Qd", "7c", "2h"],
         "decisions": {"1": "play", "3": "fold"}}


def median_ms(fn, runs=7):
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return 1000 * statistics.median(times)


def title31(n_txns, n_patrons=200):
    people = pbtest.staff("FL1", "CG1", "PB1")
    with pbtest.Daemon() as d:
        d.start()
        d.stop()
        pbtest.add_staff(d, people)
        d.start()
        tok = pbtest.sign_in_staff(d, people)
        rng = random.Random(7)
        for i in range(n_patrons):
            st, js = d.call("POST", "/api/v1/players", {"card": "9%05d" % i, "name": "P %d" % i, "id_type": "passport",
                                                        "id_number": "X%d" % i}, token=tok["CG1"])
            assert st == 201, js
        lat = []
        for i in range(n_txns):
            pid = "P%d" % rng.randint(1, n_patrons)
            t0 = time.perf_counter()
            if i % 3 == 0:
                st, js = d.call("POST", "/api/v1/cage/transactions", {"player": pid, "direction": rng.choice(["in", "out"]),
                                                                      "type": "other", "amount": rng.randint(1000, 600000)},
                                token=tok["CG1"])
            else:
                st, js = d.call("POST", "/api/v1/tables/T1/transactions", {"player": pid, "direction": "in", "kind": "cash",
                                                                           "amount": rng.randint(1000, 600000)},
                                token=tok["FL1"])
            lat.append(time.perf_counter() - t0)
            assert st == 201, js
        day = js["gaming_day"]
        lat.sort()
        print("title31: %d transactions; POST median %.2f ms, p99 %.2f ms" % (
            n_txns, 1000 * statistics.median(lat), 1000 * lat[int(0.99 * len(lat))]))
        rep = d.call("GET", "/api/v1/reports/title31?gaming_day=" + day, token=tok["PB1"])[1]
        print("title31: GET /reports/title31 (%d MTL entries, %d CTR items): median %.1f ms" % (
            len(rep["mtl"]), len(rep["ctr"]),
            median_ms(lambda: d.call("GET", "/api/v1/reports/title31?gaming_day=" + day, token=tok["PB1"]))))
        print("title31: GET /transactions: median %.1f ms" % median_ms(
            lambda: d.call("GET", "/api/v1/transactions?gaming_day=" + day, token=tok["PB1"])))
        d.stop()


def master_game(n_rounds, tables=("T1", "T2", "T3")):
    people = pbtest.staff("FL1", "DL1", "CG1", "PB1", "CT1", "CT2")
    w = pbtest.staff_witness
    with pbtest.Daemon(overrides={"accounting": {"signatures": "basic", "count_team_min": 2}}) as d:
        d.start()
        d.stop()
        pbtest.add_staff(d, people)
        d.start()
        tok = pbtest.sign_in_staff(d, people)
        for t in tables:
            st, js = d.call("POST", "/api/v1/tables/%s/inventory" % t, {"kind": "opener", "chips": {"2500": 400},
                                                                        "witness": w("DL1")}, token=tok["FL1"])
            assert st == 201, js
        for _ in range(n_rounds):
            for t in tables:
                st, js = d.call("POST", "/api/v1/tables/%s/rounds" % t, WHOLE)
                assert st == 201, js
        for i, t in enumerate(tables):
            for k in range(20):
                st, js = d.call("POST", "/api/v1/tables/%s/fills" % t, {"serial": "F-%d-%d" % (i, k), "chips": {"2500": 4},
                                                                        "witness": w("PB1")}, token=tok["CG1"])
                assert st == 201, js
            st, js = d.call("POST", "/api/v1/tables/%s/inventory" % t, {"kind": "closer", "chips": {"2500": 400},
                                                                        "witness": w("DL1")}, token=tok["FL1"])
            assert st == 201, js
        day = js["gaming_day"]
        for t in tables:
            st, js = d.call("POST", "/api/v1/tables/%s/drop" % t, {"box": "B-" + t, "cash": 100000, "gaming_day": day,
                                                                   "witnesses": [w("CT2")]}, token=tok["CT1"])
            assert st == 201, js
        path = "/api/v1/reports/master-game?gaming_day=" + day
        t0 = time.perf_counter()
        d.call("GET", path, token=pbtest.PITBOSS_TOKEN)
        first = 1000 * (time.perf_counter() - t0)
        print("master game: %d tables, %d rounds, %d documents: GET /reports/master-game %.1f ms the first time, "
              "then median %.1f ms (the report cache)" % (len(tables), n_rounds * len(tables), len(tables) * 23, first,
                                                          median_ms(lambda: d.call("GET", path, token=pbtest.PITBOSS_TOKEN))))
        d.stop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--txns", type=int, default=5000)
    ap.add_argument("--rounds", type=int, default=1000, help="whole rounds per table")
    a = ap.parse_args()
    title31(a.txns)
    master_game(a.rounds)


if __name__ == "__main__":
    main()
