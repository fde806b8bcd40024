#!/bin/bash
# timeout: 300
# Stored run pages on PostgreSQL (issue 24): tests/t-run-render.sh as it is
# (the rendering, the page answered from it, another format ignored, a lost
# run that resumes not answered stale) with the daemon's --db a database of
# a throwaway cluster (tests/lib/pg.sh).
. "$(dirname "$0")/lib/tap.sh"
. "$ROOT/tests/lib/pg.sh"
pg_test_db render
DB=$(pg_url render) PG_BIN=$PG_BIN bash "$ROOT/tests/t-run-render.sh"
check "the cluster stops" pg_stop
