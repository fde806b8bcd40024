#!/bin/bash
# timeout: 200
# Two labs' daemons (and an xcb-copy) started together on a new, empty
# PostgreSQL store, as compose's central profile starts xcbenchd-lab-a and
# xcbenchd-lab-b: each migrates the store at its start, and all of them
# come up on the newest schema. Both used to read version 0 and run
# migration 1, and all but one died on "migration 1 failed: ERROR:
# duplicate key value violates unique constraint pg_type_typname_nsp_index"
# (every round, on a 2-core machine). Three rounds, a new database each.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
. "$ROOT/tests/lib/pg.sh"
pg_copy_test "daemons that start together on an empty store"
pg_copy_empty_source

# The newest schema version: the one this build gave the SQLite source.
NMIG=$(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("PRAGMA user_version").fetchone()[0])' "$SQ")
PIDS=()
stop_all() {
	local p
	for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	PIDS=()
}
trap 'stop_all; cleanup_daemon; pg_stop' EXIT

for round in 1 2 3; do
	pg_createdb "race$round"
	url=$(pg_url "race$round")
	# Started back to back, the three reach the store within a few
	# milliseconds of each other, well inside migration 1's transaction.
	for lab in A B; do
		port=$(free_port)
		"$XCBENCHD" --listen "127.0.0.1:$port" --udp "127.0.0.1:$port" --open --lab "$lab" \
			--db "$url" --ready-fd 3 3>"$TMP/ready-$round-$lab" >"$TMP/d-$round-$lab.log" 2>&1 </dev/null &
		PIDS+=($!)
	done
	"$COPY" --from "$SQ" --db "$url" --lab A >"$TMP/c-$round.out" 2>&1 &
	CP=$!
	wait "$CP"
	crc=$?
	for lab in A B; do
		for _ in $(seq 100); do
			[ -s "$TMP/ready-$round-$lab" ] && break
			kill -0 "${PIDS[$([ "$lab" = A ] && echo 0 || echo 1)]}" 2>/dev/null || break
			sleep 0.1
		done
		diag "round $round, lab $lab: $(head -c 300 "$TMP/d-$round-$lab.log" | tr '\n' '|')"
		check "round $round: lab $lab's daemon comes up on the new store" \
			grep -q '^ready ' "$TMP/ready-$round-$lab"
	done
	diag "round $round, xcb-copy: exit $crc: $(head -c 300 "$TMP/c-$round.out")"
	check "round $round: xcb-copy, started with them, migrates and copies (exit $crc)" test "$crc" = 0
	check "round $round: no migration failed" bash -c "! grep -h 'migration' $TMP/d-$round-*.log $TMP/c-$round.out"
	v=$(pg_psql "race$round" 'SELECT v FROM xcb_schema_version')
	check "round $round: the store is at the newest schema version ($v of $NMIG)" test "$v" = "$NMIG"
	stop_all
done
