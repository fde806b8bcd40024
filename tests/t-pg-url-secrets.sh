#!/bin/bash
# timeout: 200
# A password in a postgresql:// URL (README "Several labs, one history": "a
# URL with a password is refused"): xcbenchd and xcb-copy refuse each way
# libpq takes one — user:PASSWORD@, ?password=, &password=, a %-encoded
# key (pass%77ord=), sslpassword= — with one line that says where the
# password goes instead, and never print it: the refusal of ?password=
# once printed the URL as given, and pass%77ord= was not refused at all
# (the daemon connected, its log and /api/v1/health showing the password).
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
. "$ROOT/tests/lib/pg.sh"
pg_copy_test "passwords in postgresql:// URLs"

pg_copy_empty_source
PW=$(cut -d: -f5 "$PGPASSFILE")
BASE="postgresql://xcb@/central?host=$PG_DIR&port=$PG_PORT"
# The password the URL carries is the cluster's own: refused as given, not
# because it is wrong.
declare -A URLS=(
	[user:PASSWORD@]="postgresql://xcb:$PW@/central?host=$PG_DIR&port=$PG_PORT"
	[?password=]="postgresql://xcb@/central?password=$PW&host=$PG_DIR&port=$PG_PORT"
	[\&password=]="$BASE&password=$PW"
	[pass%77ord=]="$BASE&pass%77ord=$PW"
	[sslpassword=]="$BASE&sslpassword=$PW"
)
for how in "user:PASSWORD@" "?password=" "&password=" "pass%77ord=" "sslpassword="; do
	url=${URLS[$how]}
	pg_daemon_start_fails "$how" "$url"
	check "xcbenchd, $how: exit 1, refused, saying where the password goes" \
		bash -c "[ $rc = 1 ] && grep -q \"a password in the URL is refused; put it in a password file (PGPASSFILE\" '$TMP/d.out'"
	check "xcbenchd, $how: the password is not printed" bash -c "! grep -qF '$PW' '$TMP/d.out'"
	"$COPY" --from "$SQ" --db "$url" --lab A >"$TMP/c.out" 2>&1
	rc=$?
	check "xcb-copy, $how: exit 1, one line, refused" \
		bash -c "[ $rc = 1 ] && [ \$(wc -l <'$TMP/c.out') = 1 ] && grep -q 'a password in the URL is refused' '$TMP/c.out'"
	check "xcb-copy, $how: the password is not printed" bash -c "! grep -qF '$PW' '$TMP/c.out'"
done
check "nothing reached the store" test "$(pg_psql central "SELECT to_regclass('runs') IS NULL")" = t
