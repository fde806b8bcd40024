#!/bin/bash
# timeout: 300
# The API golden test on PostgreSQL (issue 24): tests/t-api-golden.sh as it
# is — the same ingests, writes and reads, compared byte for byte with the
# same goldens — with the daemon's --db a database of a throwaway cluster
# (tests/lib/pg.sh), its password from PGPASSFILE only.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/lib/pg.sh"
pg_available || { notok "PostgreSQL server installed (make deps)"; exit 1; }
trap pg_stop EXIT
pg_start || { notok "a PostgreSQL cluster starts"; exit 1; }
check "the golden database is created" pg_createdb golden
DB=$(pg_url golden) bash "$ROOT/tests/t-api-golden.sh"
check "the cluster stops" pg_stop
