#!/bin/bash
# timeout: 200
# The store unreachable or misnamed when xcbenchd or xcb-copy starts (the
# server down, a database or user that does not exist, a parameter libpq
# does not know, no password file): exit 1 with one line that names the URL
# and says libpq's reason — and, where the server wanted a password and
# none was found, where to put it (libpq says only "no password supplied"). libpq's reasons span lines ("...failed: No such file or
# directory" then "\tIs the server running...?"), which came out as they
# were: an error of two lines, the second without the program's name.
# Where the password file is there but gave nothing, the line says why:
# it has no line for this store (the line to add is named) or others can
# read it (libpq then ignores it); a missing one is named. All three said
# only "put its password in a password file", which the operator had done.
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
	[no-password]="postgresql://xcb@/central?host=$PG_DIR&port=$PG_PORT"
	[world-readable]="postgresql://xcb@/central?host=$PG_DIR&port=$PG_PORT"
	[bad-param]="postgresql://xcb@/central?host=$PG_DIR&port=$PG_PORT&bogus=1"
)
declare -A WHY=(
	[down]='failed: No such file or directory Is the server running'
	[no-such-db]='database "nosuch" does not exist'
	[no-such-user]="fe_sendauth: no password supplied; the password file $PGPASSFILE has no line for this store: add '$PG_DIR:$PG_PORT:central:nobody:PASSWORD' (host:port:database:user, * for any)"
	[world-readable]="fe_sendauth: no password supplied; the password file $TMP/pgpass-644 is readable by others (mode 644), so libpq ignores it: chmod 600 $TMP/pgpass-644"
	[bad-param]='invalid URI query parameter: "bogus"'
	[no-password]="fe_sendauth: no password supplied; put its password in a password file (PGPASSFILE, ~/.pgpass) or PGPASSWORD: the password file $TMP/no-such-pgpass: No such file or directory"
)
# one_error FILE URL WHY: FILE (what a program printed, its notes left out)
# is one line: the cannot-connect error naming URL, with WHY in it.
# libpq's own warning of a password file others can read is its own line
# (printed by libpq, which no caller can fold in): left out.
one_error() {
	local lines
	lines=$(grep -v -e '^xcbenchd: note:' -e '^WARNING: password file .* has group or world access' "$1")
	[ "$(printf '%s\n' "$lines" | wc -l)" = 1 ] &&
		grep -qF "cannot connect to database '$2': " <<<"$lines" && grep -qF "$3" <<<"$lines"
}
cp "$PGPASSFILE" "$TMP/pgpass-644" && chmod 644 "$TMP/pgpass-644"
for what in down no-such-db no-such-user bad-param no-password world-readable; do
	url=${URLS[$what]}
	# no-password: the operator forgot PGPASSFILE (it names no file here).
	pf=$PGPASSFILE
	[ "$what" = no-password ] && pf=$TMP/no-such-pgpass
	[ "$what" = world-readable ] && pf=$TMP/pgpass-644
	PGPASSFILE=$pf pg_daemon_start_fails "$what" "$url"
	check "xcbenchd, $what: exit 1" test "$rc" = 1
	check "xcbenchd, $what: one line, naming the URL and why" one_error "$TMP/d.out" "$url" "${WHY[$what]}"
	PGPASSFILE=$pf "$COPY" --from "$SQ" --db "$url" --lab A >"$TMP/c.out" 2>&1
	rc=$?
	check "xcb-copy, $what: exit 1" test "$rc" = 1
	check "xcb-copy, $what: one line, naming the URL and why" one_error "$TMP/c.out" "$url" "${WHY[$what]}"
done
