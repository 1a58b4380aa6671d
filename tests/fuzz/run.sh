#!/bin/sh
# tests/fuzz/run.sh BUILD SECONDS [HARNESS...]
#
# Builds the libFuzzer harnesses of tests/fuzz in the clang build directory
# BUILD (configured here with CC=clang -DPITBOSS_FUZZ=ON when it is not one
# already) and runs each for SECONDS on its seed corpus tests/fuzz/corpus/<h>.
# New inputs go to BUILD/fuzz-corpus/<h> (kept between runs; the seed
# corpus in the tree is only read), crashes to BUILD/fuzz-artifacts/.
# Exit status 0 when no harness found anything, 77 when clang is not
# installed (nothing ran: ctest shows fuzz.short as skipped).
#
#   tests/fuzz/run.sh build-fuzz 10                 # the ctest fuzz.short run
#   tests/fuzz/run.sh build-fuzz 600 fuzz_round     # ten minutes on one harness
set -eu

if [ $# -lt 2 ]; then
	echo "usage: $0 BUILD SECONDS [HARNESS...]" >&2
	exit 2
fi
SRC=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$1
SECONDS_EACH=$2
shift 2
HARNESSES=${*:-"fuzz_rules fuzz_cards fuzz_config fuzz_query fuzz_round"}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}

if ! command -v clang >/dev/null 2>&1; then
	echo "fuzz: SKIPPED: clang is not installed (tools/install-deps.sh installs it); nothing was fuzzed" >&2
	exit 77
fi

cache="$BUILD/CMakeCache.txt"
if [ -f "$cache" ] && ! grep -q '^CMAKE_C_COMPILER_ID:.*Clang\|^CMAKE_C_COMPILER:.*clang' "$cache"; then
	echo "fuzz: $BUILD is not a clang build directory; give a directory of its own (e.g. build-fuzz)" >&2
	exit 2
fi
if [ ! -f "$cache" ] || ! grep -q '^PITBOSS_FUZZ:BOOL=ON' "$cache"; then
	# -Wno-unknown-warning-option: the project's flags name a gcc-only warning.
	CC=clang cmake -S "$SRC" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPITBOSS_FUZZ=ON \
		-DCMAKE_C_FLAGS=-Wno-unknown-warning-option >/dev/null
fi
# shellcheck disable=SC2086
cmake --build "$BUILD" -j"$JOBS" --target $HARNESSES >/dev/null

mkdir -p "$BUILD/fuzz-artifacts"
failed=""
for h in $HARNESSES; do
	work="$BUILD/fuzz-corpus/$h"
	mkdir -p "$work"
	dict=""
	[ -f "$SRC/tests/fuzz/$h.dict" ] && dict="-dict=$SRC/tests/fuzz/$h.dict"
	log="$BUILD/fuzz-artifacts/$h.log"
	echo "fuzz: $h for ${SECONDS_EACH}s"
	# shellcheck disable=SC2086
	if ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		"$BUILD/$h" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
		-print_final_stats=1 \
		-artifact_prefix="$BUILD/fuzz-artifacts/$h-" $dict "$work" "$SRC/tests/fuzz/corpus/$h" >"$log" 2>&1; then
		grep -h -E '^stat::number_of_executed_units|^stat::new_units_added|Done [0-9]+ runs' "$log" | sed "s/^/fuzz: $h: /" || true
	else
		echo "fuzz: $h FAILED; its log:" >&2
		tail -n 60 "$log" >&2
		failed="$failed $h"
	fi
done
if [ -n "$failed" ]; then
	echo "fuzz: failures in:$failed (inputs in $BUILD/fuzz-artifacts/)" >&2
	exit 1
fi
echo "fuzz: every harness ran ${SECONDS_EACH}s without a finding"
