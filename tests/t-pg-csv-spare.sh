#!/bin/bash
# timeout: 300
# The read-ahead's connection outlives its export (host/src/csvahead.c,
# spares): on PostgreSQL a connection is a server backend, and a new one
# pays for its first touch of the server's shared buffers (bench/LIMITS.md,
# CSV export), so the next export's read-ahead reads on the same backend.
# A run of several read-ahead blocks, exported by a daemon with one HTTP
# worker: after the first export the daemon holds one connection more than
# before it (idle: the spare); the second export is the same CSV, read on
# that same backend (its pid and start unchanged, its last statement a COPY
# begun after the second export started), with no new one. After kill -9
# and a restart of the server the spare is dead: the next export is still
# the whole CSV (a reader reconnects). Six exports at once leave at most 4
# spares (AHEAD_MAX), each export whole; SIGTERM stops the daemon cleanly
# (ahead_close_spares after the HTTP threads).
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
. "$ROOT/tests/lib/pg.sh"
need_host_build "read-ahead connections kept across exports on PostgreSQL"
done_all() {
	cleanup_daemon
	pg_stop
}
pg_test_db spare
trap done_all EXIT
trap "exit 143" TERM INT # a signal (tests/run-all timeout) still cleans up
DB=$(pg_url spare)
start_daemon --open --threads 1 || { notok "daemon starts"; exit 1; }
"$XCB_GEN" --server "127.0.0.1:$PORT" --runs 1 --reps 1 --token 5a1e000000000001 >"$TMP/gen.out" 2>"$TMP/gen.err"
check "a run is stored" grep -q 'all frames acknowledged' "$TMP/gen.err"
# More repetitions of its RESULT rows in SQL (ingesting them would take
# minutes here): the columns are the server's own, never a list written here.
cols=$(pg_psql spare "SELECT string_agg(column_name, ', ' ORDER BY ordinal_position) FROM information_schema.columns
	WHERE table_schema = 'public' AND table_name = 'results' AND column_name <> 'rep'")
pg_psql spare "INSERT INTO results(rep, $cols) SELECT r.rep + k, $cols FROM results r, generate_series(1, 299) k" >/dev/null
pg_psql spare "VACUUM ANALYZE results" >/dev/null
ID=$(pyjson "$URL/api/v1/runs" 'd["runs"][0]["id"]')
ROWS=$(pg_psql spare "SELECT count(*) FROM results WHERE run_id = $ID")
check "the run spans several read-ahead blocks ($ROWS rows > 3 x 2048)" [ "$ROWS" -gt 6144 ]
wait_rendered "its page stored by the idle writer"

# conns: the daemon's connections (every client backend but psql's own),
# one a line: pid, start, the start of its last statement, the statement.
conns() {
	pg_psql spare "SELECT pid, backend_start, query_start, left(query, 40) FROM pg_stat_activity
		WHERE datname = 'spare' AND backend_type = 'client backend' AND pid <> pg_backend_pid() ORDER BY pid"
}
# settled N: waits (5 s at most) until the daemon holds N connections.
settled() {
	for _ in $(seq 50); do
		[ "$(conns | wc -l)" = "$1" ] && return 0
		sleep 0.1
	done
	return 1
}
conns >"$TMP/c0"
n0=$(wc -l <"$TMP/c0")
curl -sf "$URL/api/v1/runs/$ID.csv" >"$TMP/ref.csv"
check "the first export has every row" [ "$(($(wc -l <"$TMP/ref.csv") - 1))" = "$ROWS" ]
check "after it the daemon holds one connection more ($n0 before): its read-ahead's, kept" settled $((n0 + 1))
conns >"$TMP/c1"
# (the HTTP thread's reader reads each export's first block, a COPY too:
# the spare is the connection the first export added.)
awk -F'|' 'NR == FNR { seen[$1] = 1; next } !seen[$1]' "$TMP/c0" "$TMP/c1" >"$TMP/new"
spare=$(cut -d'|' -f1,2 "$TMP/new")
diag "the spare: $(cat "$TMP/new")"
check "... idle between exports, its last statement the export's COPY" grep -q '|COPY (SELECT r.case_id' "$TMP/new"
t0=$(pg_psql spare "SELECT now()")
curl -sf "$URL/api/v1/runs/$ID.csv" >"$TMP/again.csv"
check "the second export is the same CSV" cmp -s "$TMP/ref.csv" "$TMP/again.csv"
conns >"$TMP/c2"
check "... and opened no connection (still $((n0 + 1)))" [ "$(wc -l <"$TMP/c2")" = $((n0 + 1)) ]
check "... its blocks read on the spare's backend (same pid and start, a COPY begun after the export started)" \
	python3 - "$TMP/c2" "$spare" "$t0" <<'PY'
import sys
rows = [l.rstrip("\n").split("|") for l in open(sys.argv[1]) if l.strip()]
pid, start = sys.argv[2].split("|")
mine = [r for r in rows if r[0] == pid and r[1] == start]
# ISO timestamps of one server and zone: compared as text.
sys.exit(not (mine and mine[0][2] > sys.argv[3] and mine[0][3].startswith("COPY (SELECT r.case_id")))
PY

pg_kill9
pg_restart || { notok "PostgreSQL restarts after kill -9"; exit 1; }
curl -sf -m 60 "$URL/api/v1/runs/$ID.csv" >"$TMP/restart.csv"
check "after kill -9 and a restart of the server, the next export is the whole CSV" \
	cmp -s "$TMP/ref.csv" "$TMP/restart.csv"

# Six at once, each read slowly enough that all overlap: four read ahead,
# two on their HTTP thread; at most four connections kept after.
SIX=()
for i in 1 2 3 4 5 6; do
	curl -sf -m 120 --limit-rate 400k "$URL/api/v1/runs/$ID.csv" -o "$TMP/six.$i" &
	SIX+=($!)
done
wait "${SIX[@]}"
for i in 1 2 3 4 5 6; do
	check "export $i of six at once is the whole CSV" cmp -s "$TMP/ref.csv" "$TMP/six.$i"
done
n=$(conns | wc -l)
check "after six exports at once the daemon holds at most 4 spares ($n connections, $n0 before any export)" \
	[ "$n" -le $((n0 + 4)) ]
check "SIGTERM: clean shutdown" stop_daemon
