#!/usr/bin/env bash
# Install and package, tried as an operator would (docs/operations.md, "Install"):
#   1. `cmake --install BUILD --prefix DIR` puts the binaries, the page, the man pages, the
#      systemd unit and the example configuration where they belong;
#   2. a Release tree configured with the prefix /usr and without the test clock builds a .deb
#      whose files, control fields, conffiles and maintainer scripts are checked, lintian-clean
#      when lintian is here; its pitbossd has no test clock, and cpack refuses a tree that has one;
#   3. the unit's systemd-analyze security exposure is under 3.0 (when systemd-analyze is here).
# Usage: test_package.sh SOURCE_DIR BUILD_DIR
# Exit 0 when every check passed; 77 when all that ran passed but groff, lintian or systemd-analyze
# is missing and its check was left out (ctest shows package.install as skipped); 1 on a failure.
set -euo pipefail
src=$1
build=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
checks=0
skipped=""
expect_file() { [ -e "$1" ] || fail "missing after install: ${1#$tmp/}"; checks=$((checks + 1)); }

# ---- 1. cmake --install into a prefix ----
cmake --install "$build" --prefix "$tmp/local" >/dev/null
for f in bin/pitbossd bin/pitboss share/pitboss/web/index.html share/pitboss/web/app.js \
	share/man/man8/pitbossd.8.gz share/man/man1/pitboss.1.gz share/man/man5/pitboss.json.5.gz \
	lib/systemd/system/pitbossd.service etc/pitboss/pitboss.json etc/pitboss/games/standard.json \
	share/doc/pitboss/operations.md share/doc/pitboss/copyright; do
	expect_file "$tmp/local/$f"
done
[ -x "$tmp/local/bin/pitbossd" ] || fail "bin/pitbossd is not executable"
grep -q "^ExecStart=$tmp/local/bin/pitbossd -f -c $tmp/local/etc/pitboss/pitboss.json$" \
	"$tmp/local/lib/systemd/system/pitbossd.service" || fail "the installed unit does not name the installed paths"
# the man pages are well-formed roff with their version filled in
for page in man8/pitbossd.8 man1/pitboss.1 man5/pitboss.json.5; do
	zcat "$tmp/local/share/man/$page.gz" > "$tmp/page"
	grep -q '@PB_' "$tmp/page" && fail "$page: a placeholder was left unfilled"
	if command -v groff >/dev/null; then
		warnings=$(groff -man -Tutf8 -ww -z "$tmp/page" 2>&1 || true)
		[ -z "$warnings" ] || fail "$page: groff warns: $warnings"
	else
		case "$skipped" in *groff*) ;; *) skipped="$skipped groff(the man pages' warnings)" ;; esac
	fi
	checks=$((checks + 1))
done
# the example configuration installed is one pitbossd accepts: its database (/var/lib/pitboss, absent on a
# build machine) moved into the temporary directory; the page -t finds is the installed one (no web_root)
mkdir -p "$tmp/var"
out=$("$tmp/local/bin/pitbossd" -t -c "$tmp/local/etc/pitboss/pitboss.json" --database "$tmp/var/pitboss.db" 2>&1) ||
	fail "pitbossd -t refuses the installed example configuration: $out"
case "$out" in
*"page $tmp/local/share/pitboss/web)"*) ;;
*) fail "pitbossd -t does not find the installed page: $out" ;;
esac
# and says what is missing when the database's directory is not there
out=$("$tmp/local/bin/pitbossd" -t -c "$tmp/local/etc/pitboss/pitboss.json" --database "$tmp/none/pitboss.db" 2>&1) &&
	fail "pitbossd -t accepts a database in a directory that does not exist"
case "$out" in
*"database: the directory $tmp/none does not exist"*) ;;
*) fail "pitbossd -t's message for a missing database directory: $out" ;;
esac
checks=$((checks + 1))

# ---- 2. the Debian package ----
cmake -S "$src" -B "$tmp/pkg" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr -DPITBOSS_TEST_CLOCK=OFF >/dev/null
cmake --build "$tmp/pkg" -j2 --target pitbossd pitboss man_pages debian_changelog >/dev/null
(cd "$tmp/pkg" && cpack -G DEB >/dev/null)
deb=$(ls "$tmp"/pkg/package/pitboss_*.deb)
# the packaged pitbossd has no test clock (docs/reliability.md): neither its code nor a word of it
dpkg-deb --fsys-tarfile "$deb" | tar -xOf - ./usr/bin/pitbossd > "$tmp/pitbossd.packaged"
grep -q "TEST CLOCK" "$tmp/pitbossd.packaged" && fail "the packaged pitbossd has the test clock"
# nor the allocation failures on demand of the same builds (common/faults.h)
grep -q "ALLOCATION FAILURES" "$tmp/pitbossd.packaged" && fail "the packaged pitbossd can make allocations fail"
"$tmp/pkg/pitbossd" --version | grep -q "test clock" && fail "pitbossd --version of the package's tree names a test clock"
# and a tree with the test clock (a developer's, the tests') is refused by cpack
if "$build/pitbossd" --version | grep -q "test clock"; then
	out=$(cd "$build" && cpack -G DEB 2>&1) && fail "cpack made a package of a tree with the test clock"
	case "$out" in
	*"has the test clock"*) ;;
	*) fail "cpack's refusal of a tree with the test clock does not say why: $out" ;;
	esac
fi
checks=$((checks + 4))
dpkg-deb -c "$deb" | awk '{print $6}' | sed 's#^\./#/#' > "$tmp/contents"
for f in /usr/bin/pitbossd /usr/bin/pitboss /usr/share/pitboss/web/index.html /lib/systemd/system/pitbossd.service \
	/etc/pitboss/pitboss.json /etc/pitboss/games/standard.json /usr/share/man/man8/pitbossd.8.gz \
	/usr/share/doc/pitboss/copyright /usr/share/doc/pitboss/changelog.gz; do
	grep -qx "$f" "$tmp/contents" || fail "the package lacks $f"
	checks=$((checks + 1))
done
grep -q '^/var/lib/pitboss' "$tmp/contents" && fail "the package ships files in /var/lib/pitboss (postinst creates it)"
dpkg-deb -e "$deb" "$tmp/control"
grep -q '^Depends:.*adduser' "$tmp/control/control" || fail "Depends lacks adduser"
grep -q '^Depends:.*libsqlite3-0' "$tmp/control/control" || fail "Depends lacks the shared libraries (shlibdeps)"
grep -qx '/etc/pitboss/pitboss.json' "$tmp/control/conffiles" || fail "pitboss.json is not a conffile"
for s in postinst prerm postrm; do
	[ -x "$tmp/control/$s" ] || fail "$s is missing or not executable"
	sh -n "$tmp/control/$s" || fail "$s does not parse"
done
grep -q 'adduser --system' "$tmp/control/postinst" || fail "postinst does not create the pitboss system user"
grep -q 'install -d -m 0700 -o pitboss' "$tmp/control/postinst" || fail "postinst does not create /var/lib/pitboss 0700"
grep -v '^[[:space:]]*#' "$tmp/control/postinst" | grep -Eq 'systemctl (enable|start)|deb-systemd-(helper enable|invoke start)' &&
	fail "postinst enables or starts the service: the package must enable nothing by surprise"
grep -q 'rm -rf' "$tmp/control/postrm" && fail "postrm removes files: the record must never be removed by the package"
checks=$((checks + 6))
if command -v lintian >/dev/null; then
	out=$(lintian --allow-root "$deb" 2>&1 || true)
	[ -z "$out" ] || fail "lintian: $out"
	checks=$((checks + 1))
else
	skipped="$skipped lintian(the package)"
fi

# ---- 3. the unit's hardening ----
if command -v systemd-analyze >/dev/null; then
	dpkg-deb -x "$deb" "$tmp/root"
	score=$(systemd-analyze security --offline=true "$tmp/root/lib/systemd/system/pitbossd.service" 2>/dev/null |
		sed -n 's/.*Overall exposure level for pitbossd.service: \([0-9.]*\).*/\1/p')
	[ -n "$score" ] || fail "systemd-analyze gave no exposure level"
	awk -v s="$score" 'BEGIN { exit !(s < 3.0) }' || fail "systemd-analyze security: exposure $score, must be under 3.0"
	echo "systemd-analyze security: $score"
	checks=$((checks + 1))
else
	skipped="$skipped systemd-analyze(the unit's exposure)"
fi
if [ -n "$skipped" ]; then
	echo "package: $checks passed, 0 failed; SKIPPED, not installed:$skipped (tools/install-deps.sh installs them)"
	exit 77
fi
echo "package: $checks passed, 0 failed"
