#!/bin/bash
# timeout: 600
# Durability on PostgreSQL (issue 24): 1000 simulated machines (xcb-load,
# the payload's own retransmit window) stream into a daemon whose --db is a
# throwaway PostgreSQL cluster; mid-run the server is killed with SIGKILL.
# At the kill, the frames the senders have been ACKed must all be stored
# (an ACK only after COMMIT): the daemon is frozen (SIGSTOP) so nothing
# commits, xcb-load says how many frames it has had ACKed (SIGUSR1), the
# server restarts and the stored frames are counted. Meanwhile /health said
# degraded. Then the daemon resumes, reconnects by itself, and every run
# completes with every frame stored exactly once.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
. "$ROOT/tests/lib/pg.sh"
need_host_build "PostgreSQL kill -9 under load"
LOAD=$ROOT/host/build/xcb-load
N=${XCB_LOAD_MACHINES:-1000}
LPID=
done_all() {
	[ -n "$LPID" ] && kill "$LPID" 2>/dev/null
	[ -n "${DPID:-}" ] && kill -CONT "$DPID" 2>/dev/null
	cleanup_daemon
}
pg_test_db load done_all
DB=$(pg_url load)
start_daemon --open || { notok "daemon starts"; exit 1; }
q() { pg_psql load "$1"; }

"$LOAD" --server "127.0.0.1:$PORT" --machines "$N" --reps 1 --give-up 300 >"$TMP/load.json" 2>"$TMP/load.err" &
LPID=$!
# Until a good part is stored (the kill lands mid-run, runs half done).
for _ in $(seq 600); do
	s=$(pyjson "$URL/api/v1/health" 'd["frames"]["stored"]' 2>/dev/null)
	[ "${s:-0}" -gt $((N * 60)) ] && break
	sleep 0.2
done
diag "stored before the kill: $s frames"
pg_kill9
deg=
for _ in $(seq 150); do
	deg=$(pyjson "$URL/api/v1/health" '(d["status"], d.get("reason", ""))' 2>/dev/null)
	case $deg in *degraded*) break ;; esac
	sleep 0.1
done
check "PostgreSQL killed: /health degraded ($deg)" grep -q degraded <<<"$deg"
kill -STOP "$DPID"
sleep 0.5   # ACKs already sent are in the senders' sockets
: >"$TMP/acked"
kill -USR1 "$LPID"
for _ in $(seq 100); do grep -q acked "$TMP/load.err" && break; sleep 0.1; done
acked=$(grep -o '"acked": [0-9]*' "$TMP/load.err" | tail -1 | grep -o '[0-9]*$')
pg_restart || { notok "PostgreSQL restarts"; exit 1; }
stored=$(q "$XCB_LEDGER_COUNT")
check "no frame ACKed before its commit: ${acked:-?} ACKed at the kill, $stored stored" \
	test -n "$acked" -a "${acked:-1}" -gt 0 -a "${acked:-1}" -le "${stored:-0}"
kill -CONT "$DPID"
wait "$LPID"
rc=$?
LPID=
diag "xcb-load: $(grep -v acked "$TMP/load.err") $(cat "$TMP/load.json")"
check "every simulated machine had every frame ACKed after the restart (exit $rc)" test "$rc" = 0
frames=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["frames"])' "$TMP/load.json")
check "every frame stored exactly once ($frames)" test "$(q "SELECT count(*) FROM $XCB_LEDGER f")" = "${frames:-x}"
check "every run complete ($N)" test "$(q "SELECT count(*) FROM runs WHERE status = 'complete'")" = "$N"
check "every run has all its frames" test "$(q 'SELECT count(*) FROM runs WHERE frames_received = frames_expected')" = "$N"
check "the daemon reconnected by itself" grep -q 'reconnected to the database' "$TMP/daemon.log"
check "/health ok again" test "$(pyjson "$URL/api/v1/health" 'd["status"]')" = ok
check "SIGTERM: clean shutdown" stop_daemon
