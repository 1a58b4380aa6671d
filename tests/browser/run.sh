#!/usr/bin/env bash
# Runs a browser suite: the pit boss page (tests/browser/page.test.mjs, the default) or
# the one named as the argument (dealer.test.mjs, the dealer's page):
# installs playwright-core from the lock file when node_modules is missing,
# then node's built-in test runner.  Needs node >= 18, npm and Debian's
# chromium (/usr/bin/chromium, or PB_CHROMIUM); tools/install-deps.sh installs them, so a
# missing one is a failure, never a skip.
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
if [ ! -d node_modules/playwright-core ]; then
	if [ -f package-lock.json ]; then
		npm ci --no-audit --no-fund
	else
		npm install --no-audit --no-fund
	fi
fi
mkdir -p out
exec node --test --test-reporter=spec "${1:-page.test.mjs}"
