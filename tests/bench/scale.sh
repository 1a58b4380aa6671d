#!/usr/bin/env bash
# The figures at ROUNDS whole rounds (docs/performance.md, "The figures at 10^7 rounds"):
# one database of whole rounds dealt through pit_round_open by 20 tables over simulated
# months (bench_load --timeline: a round a minute a table, 64 dealers changing every eight
# hours; 10^7 rounds span 347 days), then on it:
#   - its size, and the size per million rounds;
#   - pitbossd's start with the start-up check from the last checkpoints, and
#     GET /api/v1/rounds/{id} and GET /api/v1/rounds/{id}/verify p50 / p99 over random ids
#     (bench_load);
#   - the summary over the whole record by day, table, hour, dealer and shift, p50 / p99,
#     each answer's totals checked against the rounds dealt (bench_reports --reuse-db);
#   - pitbossd's start with the default full start-up check: when it answers, and how long
#     the background walk of every chain takes on an idle pit (bench_startup --walk-only);
#   - a dealer's whole-round latency under mixed load, with and without CPU hogs (bench_mixed;
#     MIXED_PAIRS pairs of phases, default 3);
#   - pitboss backup of the whole database (the copy is removed at once unless KEEP_COPY=1).
# With VERIFY=1 it also times a full `pitboss verify` of the database (every event rehashed,
# every round replayed: hours at 10^7).
#
# Usage: tests/bench/scale.sh BUILD_DIR [ROUNDS] [DIR]
#   ROUNDS  default 10000000 (about 6.6 KB each on disk: 66 GB; the load runs at 2,000-3,700
#           rounds/s with synchronous=OFF, so an hour or more)
#   DIR     where the database is made and kept (default /var/tmp/pitboss-scale); a database
#           of the same ROUNDS already there is reused, a smaller one is dealt up to ROUNDS.
#           The backup needs as much free space again.
set -euo pipefail
build=$(cd "$1" && pwd)
rounds=${2:-10000000}
dir=${3:-/var/tmp/pitboss-scale}
src=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$dir"
db=$dir/scale.db
export PB_SOURCE_DIR=$src

echo "== $rounds whole rounds, 20 tables, simulated clock: load (or reuse), start, GET and verify (bench_load)"
"$build/tests/bench_load" --rounds "$rounds" --samples 2000 --tables 20 --timeline --db "$db" \
	--pitbossd "$build/pitbossd"
size=$(stat -c %s "$db")
have=$(sqlite3 -readonly "$db" "SELECT count(*) FROM rounds" 2>/dev/null || echo "$rounds")
awk -v s="$size" -v n="$have" 'BEGIN {
	printf "size: %.2f GB for %d rounds: %.0f bytes a round, %.2f GB per million rounds\n", s / 1e9, n, s / n, s / n * 1e6 / 1e9
}'

echo
echo "== the summary over the whole record (bench_reports --reuse-db)"
"$build/tests/bench_reports" --reuse-db "$db" "$db.json"

echo
echo "== pitbossd with the default full start-up check, idle (bench_startup --walk-only)"
"$build/tests/bench_startup" --db "$db" --pitbossd "$build/pitbossd" --mode full --tables 20 --walk-only

echo
echo "== a dealer's rounds under mixed load, with and without CPU hogs (bench_mixed on the same database)"
"$build/tests/bench_mixed" --db "$db" --tables 20 --pitbossd "$build/pitbossd" --pairs "${MIXED_PAIRS:-3}"

echo
echo "== pitboss backup"
rm -f "$dir/copy.db" "$dir/copy.db.public-key"
start=$(date +%s.%N)
"$build/pitboss" backup --database "$db" --to "$dir/copy.db" >/dev/null
end=$(date +%s.%N)
awk -v s="$(stat -c %s "$dir/copy.db")" -v a="$start" -v b="$end" 'BEGIN {
	printf "backup: %.2f GB in %.1f s (%.2f s per GB)\n", s / 1e9, b - a, (b - a) / (s / 1e9)
}'
if [ "${KEEP_COPY:-0}" != 1 ]; then
	rm -f "$dir/copy.db" "$dir/copy.db.public-key"
fi

if [ "${VERIFY:-0}" = 1 ]; then
	echo
	echo "== pitboss verify (full)"
	start=$(date +%s.%N)
	"$build/pitboss" verify --database "$db" >/dev/null
	end=$(date +%s.%N)
	awk -v a="$start" -v b="$end" 'BEGIN { printf "verify: %.1f s\n", b - a }'
fi
