#!/usr/bin/env bash
# tests/bench/soak.sh BUILD [SECONDS] - pitbossd under a steady, realistic
# load for SECONDS (default 3600): 20 tables (16 house-banked in three games,
# 4 player-banked) in a temporary config and database, `pitboss simulate`
# dealing at every table (mixed whole and step-by-step rounds, 1% misdeals),
# synchronous=FULL.
#
# Every SOAK_INTERVAL seconds (default 60) it samples pitbossd's GET /metrics
# (request latency percentiles from the histogram's deltas over the
# interval, requests, rounds, 5xx), its VmRSS/VmHWM (/proc/PID/status) and the
# size of the database and its WAL, and prints one line of a table.
#
# Exits non-zero on: an answer the simulator did not intend (its exit
# status), any 5xx, pitbossd dying or not stopping cleanly on SIGTERM, no
# round recorded, or VmRSS growing by more than SOAK_RSS_GROWTH_MB (default
# 32) from the first sample to the last.
#
# Rate: SOAK_RATE rounds per second per table (default 0.2).  A real table
# deals about one round a minute (~0.017/s), so the default compresses time
# about twelve-fold: an hour of soak is about twelve hours of a 20-table pit.
# Other knobs: SOAK_TABLES (default 20), SOAK_MODE (mixed|steps|whole),
# SOAK_KEEP=1 keeps the temp dir.
set -euo pipefail

BUILD=${1:?usage: tests/bench/soak.sh BUILD [SECONDS]}
DURATION=${2:-3600}
RATE=${SOAK_RATE:-0.2}
INTERVAL=${SOAK_INTERVAL:-60}
TABLES=${SOAK_TABLES:-20}
MODE=${SOAK_MODE:-mixed}
RSS_GROWTH_MB=${SOAK_RSS_GROWTH_MB:-32}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$(cd "$BUILD" && pwd)
PITBOSSD=$BUILD/pitbossd
PITBOSS=$BUILD/pitboss

for b in "$PITBOSSD" "$PITBOSS"; do
	[ -x "$b" ] || { echo "soak: $b is not built" >&2; exit 2; }
done
command -v curl >/dev/null || { echo "soak: curl is needed" >&2; exit 2; }
[ "$INTERVAL" -gt "$DURATION" ] && INTERVAL=$DURATION

DIR=$(mktemp -d "${TMPDIR:-/tmp}/pb-soak-XXXXXX")
DAEMON=""
SIM=""
cleanup() {
	[ -n "$SIM" ] && kill "$SIM" 2>/dev/null || true
	[ -n "$DAEMON" ] && kill -9 "$DAEMON" 2>/dev/null || true
	wait 2>/dev/null || true
	if [ "${SOAK_KEEP:-0}" = 1 ] || [ "${FAILED:-0}" = 1 ]; then
		echo "soak: kept $DIR"
	else
		rm -rf "$DIR"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
URL=http://127.0.0.1:$PORT
TOKEN=soak-dealer-secret
TOKEN_SHA=$(printf '%s' "$TOKEN" | sha256sum | cut -d' ' -f1)
GAMES=$SRC/config/games

# 20 tables: T* house-banked standard, F* Florida, C* Tri-Card, P* player-banked.
{
	printf '{\n  "listen": "127.0.0.1:%s",\n  "database": "%s/pitboss.db",\n  "synchronous": "FULL",\n' "$PORT" "$DIR"
	printf '  "games": {"standard": "%s/standard.json", "florida": "%s/florida.json", "tricard": "%s/tricard.json"},\n' \
		"$GAMES" "$GAMES" "$GAMES"
	printf '  "tables": [\n'
	for i in $(seq 1 "$TABLES"); do
		sep=","; [ "$i" = "$TABLES" ] && sep=""
		case $((i % 5)) in
		0) printf '    {"id": "P%d", "game": "standard", "seats": 8, "banking": "player",
     "limits": {"ante": {"min": 500, "max": 20000}, "pair_plus": {"min": 500, "max": 5000}},
     "banker": {"max_consecutive": 2, "min_bank": 10000, "max_bank": 500000},
     "collection": {"seat_fees": [{"up_to": 2500, "fee": 100}, {"up_to": 10000, "fee": 200}, {"up_to": 20000, "fee": 300}], "banker_fee": 300}}%s\n' "$i" "$sep" ;;
		1) printf '    {"id": "F%d", "game": "florida", "seats": 7, "banking": "house",
     "limits": {"ante": {"min": 200, "max": 20000}, "pair_plus": {"min": 200, "max": 5000}}}%s\n' "$i" "$sep" ;;
		2) printf '    {"id": "C%d", "game": "tricard", "seats": 7, "banking": "house",
     "limits": {"ante": {"min": 500, "max": 25000}, "pair_plus": {"min": 500, "max": 10000}}}%s\n' "$i" "$sep" ;;
		*) printf '    {"id": "T%d", "game": "standard", "seats": 6, "banking": "house",
     "limits": {"ante": {"min": 500, "max": 50000}, "pair_plus": {"min": 500, "max": 10000}, "six_card": {"min": 500, "max": 2500}}}%s\n' "$i" "$sep" ;;
		esac
	done
	printf '  ],\n  "tokens": [{"name": "soak-dealer", "role": "dealer", "sha256": "%s"}]\n}\n' "$TOKEN_SHA"
} > "$DIR/pitboss.json"

"$PITBOSSD" -t -c "$DIR/pitboss.json" >/dev/null
"$PITBOSSD" -f -c "$DIR/pitboss.json" 2>"$DIR/pitbossd.log" &
DAEMON=$!
for _ in $(seq 1 300); do
	curl -fsS "$URL/api/v1/health" >/dev/null 2>&1 && break
	kill -0 "$DAEMON" 2>/dev/null || { cat "$DIR/pitbossd.log" >&2; FAILED=1; exit 1; }
	sleep 0.1
done

echo "soak: pitbossd pid $DAEMON on $URL, $TABLES tables, synchronous=FULL; pitboss simulate --rate $RATE --mode $MODE" \
	"for ${DURATION}s, a sample every ${INTERVAL}s (a real table deals ~0.017 rounds/s; rate $RATE compresses time" \
	"$(awk -v r="$RATE" 'BEGIN { printf "%.0f", r / (1 / 60) }')-fold)"
"$PITBOSS" simulate --url "$URL" --token "$TOKEN" --rate "$RATE" --mode "$MODE" --rounds 0 --quiet \
	>"$DIR/simulate.out" 2>"$DIR/simulate.err" &
SIM=$!

# The metrics we follow, as "name value" lines: histogram buckets by bound,
# count, rounds opened (whole rounds are counted there, not under "settled"),
# requests by status class.
metrics() {
	curl -fsS --max-time 10 "$URL/metrics" | awk '
		/^pitboss_http_request_duration_seconds_bucket/ {
			match($0, /le="[^"]*"/); le = substr($0, RSTART + 4, RLENGTH - 5); print "b " le " " $NF }
		/^pitboss_http_request_duration_seconds_count/ { print "count " $NF }
		/^pitboss_rounds_total\{event="opened"\}/ { print "opened " $NF }
		/^pitboss_http_requests_total/ && /status="5xx"/ { s5 += $NF }
		END { print "5xx " s5 + 0 }'
}

# p50, p90, p99 in ms from two cumulative histograms (previous, current),
# interpolated linearly inside a bucket.
percentiles() {
	awk '
		FNR == NR { if ($1 == "b") prev[$2] = $3; next }
		$1 == "b" { n++; le[n] = $2; cum[n] = $3 - prev[$2] }
		END {
			total = cum[n]
			if (total <= 0) { print "- - -"; exit }
			split("50 90 99", qs, " ")
			out = ""
			for (k = 1; k <= 3; k++) {
				target = total * qs[k] / 100
				lo = 0; locum = 0
				for (i = 1; i <= n; i++) {
					if (cum[i] >= target) {
						hi = (le[i] == "+Inf") ? lo * 2 : le[i] + 0
						f = (cum[i] > locum) ? (target - locum) / (cum[i] - locum) : 1
						out = out sprintf("%.2f ", (lo + (hi - lo) * f) * 1000)
						break
					}
					lo = le[i] + 0; locum = cum[i]
				}
			}
			print out
		}' "$1" "$2"
}

value() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }
rss_kib() { awk -v k="$1:" '$1 == k { print $2 }' "/proc/$DAEMON/status"; }
size_of() { stat -c %s "$1" 2>/dev/null || echo 0; }

metrics > "$DIR/m.prev"
echo "soak: latency columns are pitbossd's own (GET /metrics: first call of the handler to the answer; time a"
echo "      request waits behind another one on the same worker thread is not in them); the simulator's summary"
echo "      at the end is measured by the client."
START=$(date +%s)
FIRST_RSS=""
LAST_RSS=0
FAIL=""
printf '\n%8s %8s %9s %9s %8s %8s %8s %6s %10s %10s %12s %10s\n' "elapsed" "rounds" "rounds/s" "requests" "p50 ms" \
	"p90 ms" "p99 ms" "5xx" "RSS KiB" "HWM KiB" "db bytes" "wal bytes"
while :; do
	NOW=$(date +%s)
	LEFT=$((START + DURATION - NOW))
	[ "$LEFT" -le 0 ] && break
	sleep $((LEFT < INTERVAL ? LEFT : INTERVAL))
	if ! kill -0 "$DAEMON" 2>/dev/null; then FAIL="pitbossd died"; break; fi
	if ! kill -0 "$SIM" 2>/dev/null; then FAIL="pitboss simulate stopped early"; break; fi
	metrics > "$DIR/m.cur" || { FAIL="GET /metrics failed"; break; }
	read -r P50 P90 P99 <<<"$(percentiles "$DIR/m.prev" "$DIR/m.cur")"
	ROUNDS=$(value opened "$DIR/m.cur")
	DROUNDS=$(( ROUNDS - $(value opened "$DIR/m.prev") ))
	DREQ=$(( $(value count "$DIR/m.cur") - $(value count "$DIR/m.prev") ))
	E5=$(value 5xx "$DIR/m.cur")
	RSS=$(rss_kib VmRSS)
	HWM=$(rss_kib VmHWM)
	[ -z "$FIRST_RSS" ] && FIRST_RSS=$RSS
	LAST_RSS=$RSS
	ELAPSED=$(( $(date +%s) - START ))
	printf '%7ds %8d %9s %9d %8s %8s %8s %6d %10d %10d %12d %10d\n' "$ELAPSED" "$ROUNDS" \
		"$(awk -v d="$DROUNDS" -v i="$INTERVAL" 'BEGIN { printf "%.2f", d / i }')" "$DREQ" "$P50" "$P90" "$P99" "$E5" \
		"$RSS" "$HWM" "$(size_of "$DIR/pitboss.db")" "$(size_of "$DIR/pitboss.db-wal")"
	mv "$DIR/m.cur" "$DIR/m.prev"
	if [ "$E5" -gt 0 ]; then FAIL="pitbossd answered 5xx ($E5)"; break; fi
done

# Stop the simulator (it finishes the rounds in hand and prints its summary), then the daemon.
SIM_RC=0
if kill -0 "$SIM" 2>/dev/null; then
	kill -TERM "$SIM"
fi
wait "$SIM" || SIM_RC=$?
SIM=""
echo
cat "$DIR/simulate.out"
[ "$SIM_RC" -ne 0 ] && [ -z "$FAIL" ] && FAIL="pitboss simulate exited $SIM_RC (unexpected answers; see below)"
metrics > "$DIR/m.cur" || true
TOTAL=$(value opened "$DIR/m.cur" || echo 0)
TOTAL=${TOTAL:-0}
[ "$TOTAL" -gt 0 ] || [ -n "$FAIL" ] || FAIL="no round was recorded"
DAEMON_RC=0
kill -TERM "$DAEMON" 2>/dev/null || true
wait "$DAEMON" || DAEMON_RC=$?
DAEMON=""
[ "$DAEMON_RC" -ne 0 ] && [ -z "$FAIL" ] && FAIL="pitbossd exited $DAEMON_RC on SIGTERM"

GROWTH_KIB=$(( ${LAST_RSS:-0} - ${FIRST_RSS:-0} ))
echo "soak: VmRSS first sample ${FIRST_RSS:-?} KiB, last ${LAST_RSS} KiB (growth ${GROWTH_KIB} KiB, bound ${RSS_GROWTH_MB} MiB);" \
	"database $(size_of "$DIR/pitboss.db") bytes, $TOTAL rounds"
if [ -z "$FAIL" ] && [ "$GROWTH_KIB" -gt $((RSS_GROWTH_MB * 1024)) ]; then
	FAIL="VmRSS grew by ${GROWTH_KIB} KiB, more than ${RSS_GROWTH_MB} MiB"
fi
if [ -n "$FAIL" ]; then
	FAILED=1
	echo "soak: FAILED: $FAIL" >&2
	tail -n 30 "$DIR/simulate.err" >&2 || true
	tail -n 30 "$DIR/pitbossd.log" >&2 || true
	exit 1
fi
echo "soak: ok"
