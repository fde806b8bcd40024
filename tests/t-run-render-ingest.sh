#!/bin/bash
# timeout: 300
# Rendering finished runs' pages (host/src/runrender.c) never holds up
# ingest: the writer renders one page only while no frame waits. A store of
# 1000 finished runs without renderings (one real run, copied in SQL), a
# daemon started on it; once it has begun storing their pages, a new run is
# sent over UDP. When the sender has every frame ACKed, the new run is
# complete while most of the backlog is still pending (had the renderings
# gone first, all 1000 would be stored by then); the backlog is then
# finished, the new run's page included. Counts and order only, no clock.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "rendering does not hold up ingest"
RUNS=1000

# stored: how many renderings the store holds.
stored() { python3 -c 'import sqlite3, sys
print(sqlite3.connect(sys.argv[1], timeout=30).execute("SELECT count(*) FROM run_renders").fetchone()[0])' "$DB"; }

start_daemon --open || { notok "xcbenchd starts"; exit 1; }
"$XCB_GEN" --server "127.0.0.1:$PORT" --token 13dd000000000001 --reps 2 >/dev/null 2>&1 || { notok "xcb-gen sends a run"; exit 1; }
stop_daemon
# Run 1 copied to runs 2..RUNS (other tokens), its rendering dropped.
python3 "$ROOT/tests/lib/grow_runs.py" "$DB" "$RUNS" 13dd >/dev/null &&
	python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("DELETE FROM run_renders"); c.commit()' "$DB" ||
	{ notok "the store is grown"; exit 1; }
start_daemon --open || { notok "xcbenchd restarts"; exit 1; }
until_some() {
	for _ in $(seq 600); do
		[ "$(stored)" -gt 0 ] && return 0
		sleep 0.05
	done
	return 1
}
check "the daemon begins storing the $RUNS finished runs' pages" until_some
"$XCB_GEN" --server "127.0.0.1:$PORT" --token 13dd0000000fffff --reps 2 >"$TMP/gen.out" 2>&1
rc=$? at=$(stored)
check "a run sent meanwhile has every frame ACKed (xcb-gen: $rc)" test "$rc" = 0
check "... while most of the backlog still waits ($at of $RUNS stored)" test "$at" -lt $((RUNS / 2))
check "the new run is complete" test "$(curl -sf "$URL/api/v1/runs/$((RUNS + 1))" | python3 -c \
	'import json, sys; print(json.load(sys.stdin)["run"]["status"])')" = complete
all_stored() {
	for _ in $(seq 1200); do
		[ "$(stored)" = $((RUNS + 1)) ] && return 0
		sleep 0.1
	done
	return 1
}
check "then every finished run's page is stored, the new run's too" all_stored
check "the daemon stops cleanly" stop_daemon
