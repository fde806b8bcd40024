#!/bin/bash
# timeout: 300
# The API golden test on PostgreSQL (issue 24): tests/t-api-golden.sh as it
# is — the same ingests, writes and reads, compared byte for byte with the
# same goldens — with the daemon's --db a database of a throwaway cluster
# (tests/lib/pg.sh), its password from PGPASSFILE only.
. "$(dirname "$0")/lib/tap.sh"
. "$ROOT/tests/lib/pg.sh"
pg_test_db golden
DB=$(pg_url golden) bash "$ROOT/tests/t-api-golden.sh"
# The CAST audit (dbi.h's rule): no statement of the daemon left a
# parameter's type to guess. The engine would retry such a reader as text;
# the server logs each failed try, and none may be there.
untyped=$(grep -cE 'could not determine data type of parameter|inconsistent types deduced for parameter' "$PG_DIR/server.log")
grep -A1 -E 'could not determine data type of parameter|inconsistent types deduced' "$PG_DIR/server.log" | grep STATEMENT | sort | uniq -c | head -20 >&2
check "no statement needed its parameters' types guessed (server log: $untyped)" test "$untyped" = 0
check "the cluster stops" pg_stop
