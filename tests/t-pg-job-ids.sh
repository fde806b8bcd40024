#!/bin/bash
# timeout: 300
# A job's id given once, on PostgreSQL (issue 24's one schema for both
# engines): tests/t-job-ids.sh as it is, with the daemon's --db a database
# of a throwaway cluster (tests/lib/pg.sh).
. "$(dirname "$0")/lib/tap.sh"
. "$ROOT/tests/lib/pg.sh"
pg_test_db jobids
DB=$(pg_url jobids) PG_BIN=$PG_BIN bash "$ROOT/tests/t-job-ids.sh"
check "the cluster stops" pg_stop
