#!/bin/bash
# timeout: 300
# Raw samples read back on PostgreSQL: tests/t-api-samples.sh as it is (the
# same capture, answers and holes) with the daemon's --db a database of a
# throwaway cluster (tests/lib/pg.sh), and no statement of the samples
# routes leaving a parameter's type to guess (dbi.h's CAST rule, as
# t-pg-golden checks it).
. "$(dirname "$0")/lib/tap.sh"
. "$ROOT/tests/lib/pg.sh"
pg_test_db samples
DB=$(pg_url samples) bash "$ROOT/tests/t-api-samples.sh"
untyped=$(grep -cE 'could not determine data type of parameter|inconsistent types deduced for parameter' "$PG_DIR/server.log")
check "no statement needed its parameters' types guessed (server log: $untyped)" test "$untyped" = 0
check "the cluster stops" pg_stop
