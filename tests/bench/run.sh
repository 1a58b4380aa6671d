#!/bin/sh
# tests/bench/run.sh BUILD_DIR - the benchmarks `make bench` runs.
# Prints the machine, then the engine figures (analysis time per rules file,
# settlements per second) from BUILD_DIR/bench_engine.
set -eu

build=${1:?usage: tests/bench/run.sh BUILD_DIR}
src=$(cd "$(dirname "$0")/../.." && pwd)

echo "machine: $(nproc) CPU(s), $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')"
echo

# add_executable() in tests/extra.cmake puts it under BUILD_DIR/tests.
bench=$build/tests/bench_engine
[ -x "$bench" ] || bench=$build/bench_engine
if [ ! -x "$bench" ]; then
	echo "run.sh: bench_engine not built in $build (cmake --build $build --target bench_tools)" >&2
	exit 1
fi
PB_SOURCE_DIR=$src "$bench" "$src/config/games"

# The power of the decision-knowledge statistic (tests/bench/protection_power.c, docs/protection.md
# "Power"): simulated players, engine only, a fixed seed (a few minutes).
echo
echo "== decision knowledge: power by simulation (tests/bench/protection_power.c)"
power=$build/tests/protection_power
[ -x "$power" ] || power=$build/protection_power
if [ -x "$power" ]; then
	PB_SOURCE_DIR=$src "$power"
else
	echo "run.sh: protection_power not built in $build (cmake --build $build --target bench_tools)" >&2
	exit 1
fi

echo
echo "pitboss analyze, whole process (load, analyse, print JSON):"
for f in "$src"/config/games/*.json; do
	start=$(date +%s%N)
	"$build/pitboss" analyze --rules "$f" --json >/dev/null
	end=$(date +%s%N)
	printf '  %-26s %6.1f ms\n' "$(basename "$f")" "$(awk "BEGIN { print ($end - $start) / 1000000 }")"
done

# ---- pitbossd over HTTP, each figure next to its anchor (bench_http), and
# reconstruction/verify latency in a database of 10^6 rounds (bench_load:
# the load alone takes 15-35 minutes on two cores; PB_BENCH_LOAD_ROUNDS
# sets another size, PB_BENCH_LOAD_DB=PATH keeps the database there and
# reuses it on the next run).
for b in bench_http bench_load bench_mixed; do
	if [ ! -x "$build/tests/$b" ]; then
		echo "run.sh: $b not built in $build (cmake --build $build --target bench_tools)" >&2
		exit 1
	fi
done
echo
echo "== pitbossd over HTTP against its anchors (tests/bench/bench_http.c)"
echo "memory: $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
PB_SOURCE_DIR=$src "$build/tests/bench_http" --pitbossd "$build/pitbossd"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
# The figure users feel: whole rounds/s under wrk (2 threads, 8 connections,
# one 6-seat round, tests/bench/wrk_round.lua) against raw SQLite writing the
# same rows on the same disk and against the fixed anchor (one transaction of
# 40 small rows into one rowid table), three alternating triples of 10 s, each
# ratio the median of the three, and pitbossd's CPU per round (bench_http
# --wrk-seconds; skipped without wrk).
echo "== whole rounds under wrk against raw SQLite and the fixed 40-row anchor (tests/bench/bench_http.c --wrk-seconds)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
rc=0
PB_SOURCE_DIR=$src "$build/tests/bench_http" --pitbossd "$build/pitbossd" --wrk-seconds 10 --pairs 3 || rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 77 ] || exit "$rc"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
# A dealer's whole round every 100 ms while three auditors walk the chains, three pit bosses pull
# reports and CSVs, one auditor verifies rounds and eight clients guess passwords, alternating
# phases of 20 s without and with two CPU-spinning processes, three pairs (bench_mixed; about
# 3 minutes over 10,000 rounds; PB_BENCH_MIXED_DB=PATH reuses a database, e.g. one of 10^7
# rounds kept by bench_load --db, with PB_BENCH_MIXED_TABLES its tables).
echo
echo "== a dealer's rounds under mixed load (tests/bench/bench_mixed.c)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
PB_SOURCE_DIR=$src "$build/tests/bench_mixed" --pitbossd "$build/pitbossd" ${PB_BENCH_MIXED_DB:+--db "$PB_BENCH_MIXED_DB"} \
	${PB_BENCH_MIXED_TABLES:+--tables "$PB_BENCH_MIXED_TABLES"}
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
# Pages per round: WAL frames per one-round commit by B-tree (tests/bench/wal_pages.py; the target is 8).
echo "== pages per round: WAL frames per one-round commit, by B-tree (tests/bench/wal_pages.py)"
PB_SOURCE_DIR=$src python3 "$src/tests/bench/wal_pages.py" --build "$build" --rounds 500 --warmup 100
echo
echo "== ${PB_BENCH_LOAD_ROUNDS:-1000000} rounds: GET /rounds/{id} and /verify latency (tests/bench/bench_load.c)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
load_db=${PB_BENCH_LOAD_DB:-${TMPDIR:-/tmp}/pitboss-bench-load-$$.db}
PB_SOURCE_DIR=$src "$build/tests/bench_load" --pitbossd "$build/pitbossd" --rounds "${PB_BENCH_LOAD_ROUNDS:-1000000}" \
	--db "$load_db"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

# The start-up check's background walk over that database (every chain from genesis, in file
# order), beside its anchor: one raw pass over the events in rowid order, each hash recomputed
# (tests/bench/bench_startup.c --walk-only); from disk (--cold) when run as root.
echo
echo "== the start-up walk against a raw pass over the events (tests/bench/bench_startup.c --walk-only)"
cold=
[ "$(id -u)" -eq 0 ] && cold=--cold
PB_SOURCE_DIR=$src "$build/tests/bench_startup" --db "$load_db" --pitbossd "$build/pitbossd" --mode full --walk-only $cold
if [ -z "${PB_BENCH_LOAD_DB:-}" ]; then
	rm -f "$load_db" "$load_db-wal" "$load_db-shm" "$load_db.json" "$load_db.signing-key"
fi

# The master game's windows (tests/bench/bench_master_game.c): each table's gaming-day window, not aligned to
# hours, read from the hourly rows plus its two partial hours against every round of it (the statements read
# before), alternating, on a database of bench_load --timeline (20 tables, a round a minute each: a day is
# 28,800 rounds, so a window's cost does not grow with the record's size; PB_BENCH_MG_ROUNDS, default 100000,
# about 3 minutes to fill; PB_BENCH_MG_DB=PATH keeps the database and reuses it).
echo
echo "== the master game: a table's window from the hourly rows against every round (tests/bench/bench_master_game.c)"
mg_db=${PB_BENCH_MG_DB:-${TMPDIR:-/tmp}/pitboss-bench-mg-$$.db}
PB_SOURCE_DIR=$src "$build/tests/bench_load" --pitbossd "$build/pitbossd" --timeline --tables 20 --samples 20 \
	--rounds "${PB_BENCH_MG_ROUNDS:-100000}" --db "$mg_db" >/dev/null
"$build/tests/bench_master_game" --db "$mg_db" --tables 20 --days 10
"$build/tests/bench_master_game" --db "$mg_db" --tables 20 --days 10 --corrections 1000
if [ -z "${PB_BENCH_MG_DB:-}" ]; then
	rm -f "$mg_db" "$mg_db-wal" "$mg_db-shm" "$mg_db.json" "$mg_db.signing-key"
fi

# The summary report over 10^5, 10^6 and 10^7 rounds (tests/bench/bench_reports.c),
# filled through the report tables only (--aggregates-only: a few minutes; its
# --smoke, in make check, shows the summaries equal those of a database filled
# through the pit).  PB_BENCH_REPORTS_FULL=1 loads through pit_round_open instead
# (1-2 ms and ~6 KB a round: 10^5 and 10^6 only, about 25 minutes).
echo
reports=$build/tests/bench_reports
[ -x "$reports" ] || reports=$build/bench_reports
if [ -x "$reports" ]; then
	if [ -n "${PB_BENCH_REPORTS_FULL:-}" ]; then
		PB_SOURCE_DIR=$src "$reports"
	else
		PB_BENCH_SIZES=${PB_BENCH_SIZES:-100000,1000000,10000000} PB_SOURCE_DIR=$src "$reports" --aggregates-only
	fi
else
	echo "run.sh: bench_reports not built in $build" >&2
fi

# The central tier (tests/bench/central_bench.py): shipping rate against the
# floor's, catch-up after a 60-second outage at full load, the cross-property
# report at 10^6 rounds, against a PostgreSQL 15 with fsync on (a few minutes).
echo
echo "== the central tier (tests/bench/central_bench.py)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
PB_SOURCE_DIR=$src PB_BUILD_DIR=$build python3 "$src/tests/bench/central_bench.py"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
