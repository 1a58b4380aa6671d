#!/usr/bin/env bash
# Backup under full load (docs/performance.md, "Backups under load"): a database of ROUNDS
# rounds made by bench_load, pitbossd started on it, `pitboss simulate` dealing at every
# example table as fast as it can, and after 5 s a `pitboss backup`; prints the copy's size
# and time and the -wal file's size before, at its largest during, and 5 s after.
# Usage: tests/bench/backup_under_load.sh BUILD_DIR [ROUNDS]   (80000 rounds: about 550 MB)
set -euo pipefail
build=$(cd "$1" && pwd)
rounds=${2:-80000}
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d /tmp/pb-backup-load-XXXXXX)
daemon=""
dealer=""
cleanup() {
	[ -n "$dealer" ] && kill "$dealer" 2>/dev/null || true
	[ -n "$daemon" ] && kill "$daemon" 2>/dev/null && wait "$daemon" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
db=$tmp/pitboss.db
echo "making a database of $rounds rounds (bench_load) ..."
PB_SOURCE_DIR=$src "$build/tests/bench_load" --rounds "$rounds" --samples 10 --db "$db" --pitbossd "$build/pitbossd" >/dev/null
port=$((20000 + RANDOM % 20000))
"$build/pitbossd" -f -c "$src/config/pitboss.json" --database "$db" --listen "127.0.0.1:$port" 2>"$tmp/pitbossd.log" &
daemon=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/api/v1/health" >/dev/null && break; sleep 0.1; done
"$build/pitboss" simulate --url "http://127.0.0.1:$port" --token demo-dealer --rate 0 --mode whole --quiet \
	>"$tmp/simulate.log" 2>&1 &
dealer=$!
sleep 5
wal() { stat -c %s "$db-wal" 2>/dev/null || echo 0; }
before=$(wal)
largest=$before
( while :; do w=$(wal); echo "$w"; sleep 0.1; done ) >"$tmp/wal.samples" &
sampler=$!
start=$(date +%s.%N)
"$build/pitboss" backup --database "$db" --to "$tmp/copy.db" >/dev/null
end=$(date +%s.%N)
sleep 5
kill "$sampler"
after=$(wal)
largest=$(sort -n "$tmp/wal.samples" | tail -1)
size=$(stat -c %s "$tmp/copy.db")
awk -v s="$size" -v a="$start" -v b="$end" -v w0="$before" -v w1="$largest" -v w2="$after" 'BEGIN {
	t = b - a
	printf "copy: %.0f MB in %.2f s (%.2f s per GB)\n", s / 1e6, t, t / (s / 1e9)
	printf "wal: %.1f MB before, %.1f MB at its largest during, %.1f MB 5 s after (still dealing)\n", w0 / 1e6, w1 / 1e6, w2 / 1e6
}'
kill "$dealer" 2>/dev/null || true
"$build/pitboss" verify --database "$tmp/copy.db" --public-key "$(cat "$tmp/copy.db.public-key")" >/dev/null &&
	echo "the copy verifies against its public key"
