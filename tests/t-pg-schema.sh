#!/bin/bash
# timeout: 120
# The schema on PostgreSQL (issue 24): host/build/tests/test_schema — the
# schema's columns, every CASE and RESULT field through the real store and
# back — run against a throwaway PostgreSQL cluster (tests/lib/pg.sh), with
# the migrations rendered in its dialect by host/gen-migrations.sh.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/lib/pg.sh"
T=$ROOT/host/build/tests/test_schema
[ -x "$T" ] || { notok "test_schema built (make -C host tests)"; exit 1; }
pg_available || { notok "PostgreSQL server installed (make deps)"; exit 1; }
trap pg_stop EXIT
pg_start || { notok "a PostgreSQL cluster starts"; sed 's/^/# /' "$PG_DIR"/*.log; exit 1; }
ok "a PostgreSQL cluster starts (initdb, pg_ctl as $(stat -c %U "$PG_DIR/data"), socket only)"
check "test_schema's database is created" pg_createdb schema
XCB_TEST_PG=$(pg_url schema) "$T" >"$OUTDIR/pg-schema.out" 2>&1
rc=$?
sed 's/^/# /' "$OUTDIR/pg-schema.out" | grep -v 'OK \]\|RUN ' | head -40
check "test_schema passes on PostgreSQL" [ "$rc" = 0 ]
check "the schema version is recorded (xcb_schema_version)" \
	test "$(pg_psql schema 'SELECT v FROM xcb_schema_version')" = \
	"$(grep -c '^	/\* .*\.sql \*/$' "$ROOT/host/build/gen/migrations.c")"
check "the cluster stops" pg_stop
