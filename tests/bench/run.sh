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
	echo "run.sh: bench_engine not built in $build (cmake --build $build)" >&2
	exit 1
fi
PB_SOURCE_DIR=$src "$bench" "$src/config/games"

echo
echo "pitboss analyze, whole process (load, analyse, print JSON):"
for f in "$src"/config/games/*.json; do
	start=$(date +%s%N)
	"$build/pitboss" analyze --rules "$f" --json >/dev/null
	end=$(date +%s%N)
	printf '  %-26s %6.1f ms\n' "$(basename "$f")" "$(awk "BEGIN { print ($end - $start) / 1000000 }")"
done
