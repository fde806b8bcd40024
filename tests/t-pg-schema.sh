#!/bin/bash
# timeout: 120
# The schema on PostgreSQL (issue 24): host/build/tests/test_schema — the
# schema's columns, every CASE and RESULT field through the real store and
# back — run against a throwaway PostgreSQL cluster (tests/lib/pg.sh), with
# the migrations rendered in its dialect by host/gen-migrations.sh; and
# host/build/tests/test_dbi, the seam's one-statement helpers (dbi_row,
# dbi_run, ...), on the same cluster.
. "$(dirname "$0")/lib/tap.sh"
. "$ROOT/tests/lib/pg.sh"
T=$ROOT/host/build/tests/test_schema
TD=$ROOT/host/build/tests/test_dbi
[ -x "$T" ] && [ -x "$TD" ] || { notok "test_schema and test_dbi built (make -C host tests)"; exit 1; }
pg_test_cluster
ok "a PostgreSQL cluster starts (initdb, pg_ctl as $(stat -c %U "$PG_DIR/data"), socket only)"
# unit_on_pg NAME BINARY: the unit test in a database of its own.
unit_on_pg() {
	check "test_$1's database is created" pg_createdb "$1"
	XCB_TEST_PG=$(pg_url "$1") "$2" >"$OUTDIR/pg-$1.out" 2>&1
	local rc=$?
	sed 's/^/# /' "$OUTDIR/pg-$1.out" | grep -v 'OK \]\|RUN ' | head -40
	check "test_$1 passes on PostgreSQL" [ "$rc" = 0 ]
}
unit_on_pg schema "$T"
check "the schema version is recorded (xcb_schema_version)" \
	test "$(pg_psql schema 'SELECT v FROM xcb_schema_version')" = \
	"$(grep -c '^	/\* .*\.sql \*/$' "$ROOT/host/build/gen/migrations.c")"
unit_on_pg dbi "$TD"
check "the cluster stops" pg_stop
