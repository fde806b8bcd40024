#!/bin/bash
# timeout: 200
# xcb-copy's mistakes (an operator's, moving a lab's SQLite history into the
# central store, README "Several labs, one history"): each is refused with
# one line on stderr naming what is wrong, a non-zero exit, and nothing
# written to the store. A lab name no xcbenchd --lab takes ('' or "lab a")
# once copied the runs under it: unlisted by lab, and skipped as "already
# there" by the copy under the right name. A missing option, an operand,
# or --db naming --from's own file is said in one line. A --from that is no xcbench
# database said "disk I/O error" (a directory), or "has schema version -1
# ... start this version's xcbenchd on it" (a text file).
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
. "$ROOT/tests/lib/pg.sh"
pg_copy_test "xcb-copy's errors"

# The source: one run in a daemon's SQLite database.
start_daemon --open || { notok "a SQLite daemon starts"; exit 1; }
"$XCB_GEN" --server "127.0.0.1:$PORT" --runs 1 --reps 2 --token c0b1 >/dev/null 2>&1
check "a run in the SQLite source" test "$(dbq "$DB" 'SELECT count(*) FROM runs')" = 1
check "SIGTERM: the SQLite daemon stops" stop_daemon
SQ=$DB

pg_test_db central cleanup_daemon
PGDB=$(pg_url central)

# refused NAME PATTERN RC xcb-copy-args...: exit RC, exactly one line on
# stderr matching PATTERN (grep -E), nothing on stdout, the store untouched
# (not even migrated).
refused() {
	local name=$1 pat=$2 want=$3 rc
	shift 3
	"$COPY" "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	diag "$name: exit $rc: $(head -c 300 "$TMP/err")"
	check "$name: exit $want" test "$rc" = "$want"
	check "$name: one line naming it" bash -c "[ \$(wc -l <'$TMP/err') = 1 ] && grep -qE -- \"\$1\" '$TMP/err'" _ "$pat"
	check "$name: nothing on stdout, the store untouched" \
		test ! -s "$TMP/out" -a "$(pg_psql central "SELECT to_regclass('runs') IS NULL")" = t
}

refused "--lab ''" "^xcb-copy: --lab needs a value, not ''$" 2 --from "$SQ" --db "$PGDB" --lab ''
refused "--lab 'lab a'" "--lab: 'lab a' is not" 2 --from "$SQ" --db "$PGDB" --lab 'lab a'
refused "--lab of 33 characters" "--lab: 'x{33}' is not" 2 --from "$SQ" --db "$PGDB" --lab "$(printf 'x%.0s' {1..33})"
# A missing option or an operand: named, in one line (the usage alone said
# neither). The lab's own file as the store: refused, where every run was
# 'already there' and the copy ended 0, copied nowhere.
refused "no --lab" "^xcb-copy: --lab is required \(see --help\)\$" 2 --from "$SQ" --db "$PGDB"
refused "no --from" "^xcb-copy: --from is required" 2 --db "$PGDB" --lab lab-a
refused "an operand" "^xcb-copy: unexpected argument 'central' \(see --help\)\$" 2 --from "$SQ" --db "$PGDB" --lab lab-a central
cp "$SQ" "$TMP/same.db"
"$COPY" --from "$TMP/same.db" --db "$TMP/./same.db" --lab lab-a >"$TMP/out" 2>"$TMP/err"
rc=$?
check "--from and --db the same file: exit 2, named in one line ($rc: $(cat "$TMP/err"))" \
	bash -c "[ $rc = 2 ] && [ \$(wc -l <'$TMP/err') = 1 ] && grep -q \"^xcb-copy: --from and --db name the same file ('$TMP/./same.db')\" '$TMP/err' && [ ! -s '$TMP/out' ]"

# --from naming something else than the lab's xcbench database: what it is,
# not SQLite's "disk I/O error", nor "start xcbenchd on it" (which would
# turn a text file or another program's database into an xcbench one).
echo "not a database" >"$TMP/text.db"
python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("CREATE TABLE t (x)"); c.commit()' "$TMP/other.db"
cp "$SQ" "$TMP/newer.db"
python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("PRAGMA user_version = 999"); c.commit()' "$TMP/newer.db"
refused "--from a missing file" "^xcb-copy: --from '$TMP/missing.db': No such file or directory: name the lab daemon's --db file\$" 1 \
	--from "$TMP/missing.db" --db "$PGDB" --lab lab-a
refused "--from a directory" "^xcb-copy: --from '$TMP': a directory: name" 1 --from "$TMP" --db "$PGDB" --lab lab-a
refused "--from a text file" "^xcb-copy: --from '$TMP/text.db' is not a SQLite database \\(file is not a database\\): name" 1 \
	--from "$TMP/text.db" --db "$PGDB" --lab lab-a
refused "--from another program's SQLite database" "^xcb-copy: --from '$TMP/other.db' is not an xcbench database" 1 \
	--from "$TMP/other.db" --db "$PGDB" --lab lab-a
refused "--from a newer xcbench's database" "schema version 999, newer than this xcb-copy's [0-9]+: copy with the xcb-copy of the xcbench that wrote it\$" 1 \
	--from "$TMP/newer.db" --db "$PGDB" --lab lab-a
check "... none of them changed" test "$(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM sqlite_master").fetchone()[0])' "$TMP/other.db")/$(cat "$TMP/text.db")" = "1/not a database"

"$COPY" --from "$SQ" --db "$PGDB" --lab lab-a.2 >"$TMP/out" 2>"$TMP/err"
check "--lab lab-a.2 (what xcbenchd --lab takes): the run copied under it" \
	test "$?/$(pg_psql central "SELECT string_agg(lab, ',') FROM runs")" = "0/lab-a.2"
