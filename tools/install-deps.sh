#!/usr/bin/env bash
# Installs the Debian 12 packages pitboss needs to build and test, only when
# something is missing.  Uses sudo when not root.
set -euo pipefail

PKGS=(cmake make gcc pkg-config libsqlite3-dev sqlite3 libmicrohttpd-dev libjansson-dev
      libcmocka-dev libsodium-dev libpq-dev postgresql-15 python3 curl openssl chromium nodejs npm valgrind clang libclang-rt-14-dev wrk
      dpkg-dev lintian groff-base systemd tzdata)

missing=()
for p in "${PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
# nodejs/npm may come from elsewhere than Debian (as on our CI image): accept any working node.
if command -v node >/dev/null && command -v npm >/dev/null; then
	tmp=()
	for p in "${missing[@]}"; do [[ $p == nodejs || $p == npm ]] || tmp+=("$p"); done
	missing=("${tmp[@]+"${tmp[@]}"}")
fi
if [ ${#missing[@]} -eq 0 ]; then
	exit 0
fi
echo "installing: ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
