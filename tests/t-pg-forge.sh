#!/bin/bash
# timeout: 240
# t-hostile-forge.sh on PostgreSQL (a throwaway cluster, tests/lib/pg.sh):
# the same forged frames, refused with the same counted reasons. On this
# engine the writer's fast path queues a batch's statements in libpq's
# pipeline (dbi_pg_pipe.c) and only learns at the COMMIT that a forged
# RESULT for a stored key inserted nothing: the batch must then be rolled
# back and applied again the careful way, so that the forgery is refused
# (a conflict, not ACKed) and the real frames beside it are stored once.
. "$(dirname "$0")/lib/tap.sh"
. "$ROOT/tests/lib/pg.sh"
pg_test_db forge
# The forge test takes its database from DB (tests/lib/test-daemon.sh).
DB=$(pg_url forge) "$ROOT/tests/t-hostile-forge.sh"
