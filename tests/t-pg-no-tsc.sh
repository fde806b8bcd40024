#!/bin/bash
# t-pg-no-tsc.sh - tests/t-api-no-tsc.sh on PostgreSQL: the daemon's --db
# a database of a throwaway cluster (tests/lib/pg.sh).
# timeout: 180
. "$(dirname "$0")/lib/tap.sh"
. "$ROOT/tests/lib/pg.sh"
pg_test_db notsc
DB=$(pg_url notsc) bash "$ROOT/tests/t-api-no-tsc.sh"
check "the cluster stops" pg_stop
