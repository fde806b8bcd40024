#!/bin/bash
# t-pg-list-fail.sh - tests/t-api-list-fail.sh on PostgreSQL: the daemon's
# --db a database of a throwaway cluster (tests/lib/pg.sh), whose tables
# the test renames away with psql (the cluster's settings exported for it).
# timeout: 240
. "$(dirname "$0")/lib/tap.sh"
. "$ROOT/tests/lib/pg.sh"
pg_test_db listfail
export PG_DIR PG_PORT PG_BIN PGPASSFILE
PG_DBNAME=listfail DB=$(pg_url listfail) bash "$ROOT/tests/t-api-list-fail.sh"
check "the cluster stops" pg_stop
