#!/usr/bin/env bash
# Runs a browser suite: the pit boss page (tests/browser/page.test.mjs, the default) or
# the one named as the argument (dealer.test.mjs, the dealer's page):
# installs playwright-core and axe-core from the lock file when either is missing,
# then node's built-in test runner.  Needs node >= 18, npm and Debian's
# chromium (/usr/bin/chromium, or PB_CHROMIUM); tools/install-deps.sh installs them, so a
# missing one is a failure, never a skip.  A test that skips itself (t.skip, it.skip) or is
# a todo makes the run exit 77 once the rest passed: ctest shows the suite as skipped.
#   PB_BUILD_DIR   the build directory holding pitbossd (default /work/main/build)
#   PB_SOURCE_DIR  the repository (default: two levels up)
set -euo pipefail
cd "$(dirname "$0")"

if ! command -v node >/dev/null 2>&1; then
	echo "browser tests FAILED: node is not installed (run tools/install-deps.sh)" >&2
	exit 1
fi
if [ ! -x "${PB_CHROMIUM:-/usr/bin/chromium}" ]; then
	echo "browser tests FAILED: no Chromium at ${PB_CHROMIUM:-/usr/bin/chromium} (run tools/install-deps.sh)" >&2
	exit 1
fi
if [ ! -d node_modules/playwright-core ] || [ ! -d node_modules/axe-core ]; then
	if [ -f package-lock.json ]; then
		npm ci --no-audit --no-fund
	else
		npm install --no-audit --no-fund
	fi
fi
# --install: only the install above (the fixture browser.install, so that the suites never race
# two npm installs in one directory and may run side by side).
if [ "${1:-}" = "--install" ]; then
	exit 0
fi
mkdir -p out
suite=${1:-page.test.mjs}
tap=out/$(basename "$suite" .mjs).tap
rm -f "$tap"
node --test --test-reporter=spec --test-reporter-destination=stdout \
	--test-reporter=tap --test-reporter-destination="$tap" "$suite"
# passed: the skips and todos, from the TAP summary
count() { sed -n "s/^# $1 \([0-9][0-9]*\)\$/\1/p" "$tap" | tail -n 1; }
skipped=$(count skipped)
todo=$(count todo)
if [ -z "$skipped" ] || [ -z "$todo" ]; then
	echo "browser tests FAILED: no skipped/todo count in $tap (node's TAP summary)" >&2
	exit 1
fi
if [ "$skipped" -gt 0 ] || [ "$todo" -gt 0 ]; then
	echo "browser tests SKIPPED: $skipped skipped, $todo todo in $suite:" >&2
	grep -E '# (SKIP|TODO)' "$tap" >&2 || true
	exit 77
fi
