#!/bin/bash
# timeout: 200
# The store unreachable or misnamed when xcbenchd or xcb-copy starts (the
# server down, a database or user that does not exist, a parameter libpq
# does not know): exit 1 with one line that names the URL and says libpq's
# reason. libpq's reasons span lines ("...failed: No such file or
# directory" then "\tIs the server running...?"), which came out as they
# were: an error of two lines, the second without the program's name.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
. "$ROOT/tests/lib/pg.sh"
pg_copy_test "the store unreachable at start"

pg_copy_empty_source
DOWN=$(free_port)
declare -A URLS=(
	[down]="postgresql://xcb@/central?host=$PG_DIR&port=$DOWN"
	[no-such-db]="postgresql://xcb@/nosuch?host=$PG_DIR&port=$PG_PORT"
	[no-such-user]="postgresql://nobody@/central?host=$PG_DIR&port=$PG_PORT"
	[bad-param]="postgresql://xcb@/central?host=$PG_DIR&port=$PG_PORT&bogus=1"
)
declare -A WHY=(
	[down]='failed: No such file or directory Is the server running'
	[no-such-db]='database "nosuch" does not exist'
	[no-such-user]='nobody'
	[bad-param]='invalid URI query parameter: "bogus"'
)
# one_error FILE URL WHY: FILE (what a program printed, its notes left out)
# is one line: the cannot-connect error naming URL, with WHY in it.
one_error() {
	local lines
	lines=$(grep -v '^xcbenchd: note:' "$1")
	[ "$(printf '%s\n' "$lines" | wc -l)" = 1 ] &&
		grep -qF "cannot connect to database '$2': " <<<"$lines" && grep -qF "$3" <<<"$lines"
}
for what in down no-such-db no-such-user bad-param; do
	url=${URLS[$what]}
	pg_daemon_start_fails "$what" "$url"
	check "xcbenchd, $what: exit 1" test "$rc" = 1
	check "xcbenchd, $what: one line, naming the URL and why" one_error "$TMP/d.out" "$url" "${WHY[$what]}"
	"$COPY" --from "$SQ" --db "$url" --lab A >"$TMP/c.out" 2>&1
	rc=$?
	check "xcb-copy, $what: exit 1" test "$rc" = 1
	check "xcb-copy, $what: one line, naming the URL and why" one_error "$TMP/c.out" "$url" "${WHY[$what]}"
done
