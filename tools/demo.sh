#!/usr/bin/env bash
# make demo: starts pitbossd with the example config/ and an embedded SQLite
# database in var/, and a simulated dealer terminal dealing rounds at every
# table but one (FREE_TABLE, T1 by default), left free for the dealer's page;
# the simulator never deals where a person has taken the table.  Ctrl-C stops both.
set -euo pipefail
BUILD=${1:-build}
LISTEN=${2:-127.0.0.1:8080}
cd "$(dirname "$0")/.."
mkdir -p var
DB=var/demo.db
FREE_TABLE=${FREE_TABLE:-T1}

"$BUILD/pitbossd" -t -c config/pitboss.json >/dev/null
"$BUILD/pitbossd" -f -c config/pitboss.json --listen "$LISTEN" --database "$DB" 2>var/pitbossd.log &
DAEMON=$!
SIM=""
cleanup() {
	trap - EXIT
	[ -n "$SIM" ] && kill "$SIM" 2>/dev/null || true
	kill "$DAEMON" 2>/dev/null || true
	wait 2>/dev/null || true
	echo
	echo "pitbossd stopped; the record stays in $DB (log: var/pitbossd.log)"
}
trap cleanup EXIT
trap 'exit 0' INT TERM

for _ in $(seq 1 100); do
	if curl -fsS "http://$LISTEN/api/v1/health" >/dev/null 2>&1; then break; fi
	if ! kill -0 "$DAEMON" 2>/dev/null; then cat var/pitbossd.log; exit 1; fi
	sleep 0.1
done

"$BUILD/pitboss" simulate --url "http://$LISTEN" --token demo-dealer --rate 0.5 --rounds 0 --quiet \
	--except "$FREE_TABLE" 2>var/simulate.log &
SIM=$!

# A person to sign in as (the first run only): a pit boss and floor supervisor with a one-time password.
if echo "change-me-first" | "$BUILD/pitboss" person add --database "$DB" --id E1000 --name "Demo Pitboss" \
	--roles pitboss,floor --password-stdin >/dev/null 2>&1; then
	PERSON_NOTE="one-time password change-me-first: you choose your own at once"
else
	PERSON_NOTE="with the password you chose at your first sign-in"
fi

# The others a shift needs, to try the table's documents with a witness (docs/accounting.md): the
# same one-time password; each chooses his own at his first sign-in.
for who in "E1001:Demo Floor:floor" "E1002:Demo Cashier:cage" "E1003:Demo Counter:count" \
	"E1004:Demo Counter Two:count" "E1005:Demo Dealer:dealer"; do
	IFS=: read -r id name roles <<<"$who"
	echo "change-me-first" | "$BUILD/pitboss" person add --database "$DB" --id "$id" --name "$name" \
		--roles "$roles" --password-stdin >/dev/null 2>&1 || true
done

cat <<TXT

  pitbossd is running with the example config/ and database $DB.
  A simulated dealer terminal is dealing rounds at every table but $FREE_TABLE.
  $FREE_TABLE is free for you:  http://$LISTEN/dealer/  (sign in as E1005, the dealer, and pick $FREE_TABLE)
  The simulator never deals at a table a person has taken as its dealer.

  The page:            http://$LISTEN/
  Sign in as:          E1000             ($PERSON_NOTE)
  or with a token:     demo-pitboss      ("Sign in with a token"; also demo-auditor, demo-admin, demo-dealer)
  A shift's people:    E1001 floor, E1002 cage, E1003 and E1004 count, E1005 dealer (the same
                       one-time password at first): sign openers, fills and the drop with a witness

  Try the API:         curl -H 'Authorization: Bearer demo-pitboss' http://$LISTEN/api/v1/tables
  Logs:                var/pitbossd.log, var/simulate.log

  Ctrl-C stops it.
TXT
wait "$DAEMON"
