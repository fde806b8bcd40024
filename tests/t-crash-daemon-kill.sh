#!/bin/bash
# timeout: 300
# Crash safety of the daemon: kill -9 of xcbenchd in the middle of a heavy
# ingest (simulated payloads recording every ACK they got, plus xcb-gen runs
# with histograms and samples), restart on the same database → SQLite intact
# (PRAGMA integrity_check), every frame that was ACKed before the kill is in
# the database, and the senders, retransmitting as a payload does, complete
# every run against the restarted daemon with nothing lost or doubled.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
need_host_build "daemon kill -9"
TMP=$(mktemp -d "$OUTDIR/crash-kill.XXXXXX")
SPIDS=()
cleanup() {
	for p in "${SPIDS[@]}"; do kill -CONT "$p" 2>/dev/null; kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	cleanup_daemon
}
trap cleanup EXIT

start_daemon --open || { notok "daemon starts"; exit 1; }
sql() { python3 -c 'import sqlite3,sys
c = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True, timeout=10)
for r in c.execute(sys.argv[2]): print(*r)' "$DB" "$1"; }

RUNS=6 FRAMES=5000
python3 "$ROOT/tests/acklog-sender.py" --port "$PORT" --runs $RUNS --frames $FRAMES \
	--token-base c4a5000000000000 --acklog "$TMP/acked" --give-up 60 >"$TMP/sender.json" 2>"$TMP/sender.err" &
SENDER=$!; SPIDS+=("$SENDER")
for i in 1 2; do
	"$XCB_GEN" --server 127.0.0.1:$PORT --token c4a600000000000$i --reps 20 --samples \
		>"$TMP/gen$i.out" 2>"$TMP/gen$i.err" &
	SPIDS+=("$!")
done

# Let the ingest get going (bounded), then freeze the sender so its ACK log is
# final, and kill the daemon hard while frames are in flight.
for _ in $(seq 300); do
	[ -f "$TMP/acked" ] && [ "$(wc -l <"$TMP/acked")" -ge 3000 ] && break
	sleep 0.05
done
n_acked=$(cat "$TMP/acked" 2>/dev/null | wc -l)
check "heavy ingest under way before the kill ($n_acked frames ACKed of $((RUNS * FRAMES)))" \
	[ "$n_acked" -ge 1000 -a "$n_acked" -lt $((RUNS * FRAMES)) ]
kill -STOP "$SENDER"
kill -KILL "$DPID"; wait "$DPID" 2>/dev/null; DPID=
cp "$TMP/acked" "$TMP/acked-before-kill"
diag "killed xcbenchd with $(wc -l <"$TMP/acked-before-kill") frames ACKed to the recording sender"

# Restart on the same port and database; the sender is still frozen, so
# whatever is in the database now was there before the kill.
xcbd_start "$TMP/daemon.log" "$PORT" --db "$DB" --open
DPID=$XCBD_PID
check "daemon restarts on the killed database" curl -sf "$URL/api/v1/health" -o /dev/null
check "PRAGMA integrity_check ok after kill -9" [ "$(sql 'PRAGMA integrity_check')" = ok ]
sql "SELECT r.token, f.seq FROM $XCB_LEDGER f JOIN runs r ON r.id = f.run_id WHERE r.token LIKE 'c4a5%'" \
	| sort >"$TMP/stored"
missing=$(sort "$TMP/acked-before-kill" | comm -23 - "$TMP/stored" | wc -l)
check "every frame ACKed before the kill is stored ($missing of $(wc -l <"$TMP/acked-before-kill") missing)" [ "$missing" -eq 0 ]

kill -CONT "$SENDER"
wait "$SENDER"; rc=$?
diag "sender: $(cat "$TMP/sender.json")"
check "the recording sender completes every run after the restart" [ "$rc" -eq 0 ]
for i in 1 2; do
	wait "${SPIDS[$i]}"; rc=$?
	check "xcb-gen run $i completes after the restart ($(tail -1 "$TMP/gen$i.err"))" [ "$rc" -eq 0 ]
done
SPIDS=()
st=$(sql "SELECT count(*), sum(status = 'complete'), sum(frames_received = frames_expected) FROM runs")
check "all $((RUNS + 2)) runs complete, frames_received = frames_expected ($st)" [ "$st" = "$((RUNS + 2)) $((RUNS + 2)) $((RUNS + 2))" ]
dups=$(sql "SELECT count(*) FROM (SELECT run_id, seq FROM $XCB_LEDGER f GROUP BY run_id, seq HAVING count(*) > 1)")
per=$(sql "SELECT count(*) FROM $XCB_LEDGER f JOIN runs r ON r.id = f.run_id WHERE r.token LIKE 'c4a5%'")
check "no frame stored twice, all $((RUNS * FRAMES)) simulated frames stored ($per, dups $dups)" [ "$dups" = 0 -a "$per" = $((RUNS * FRAMES)) ]
res=$(pyjson "$URL/api/v1/runs?token=c4a6000000000001" '(lambda r: r["cases"])(d["runs"][0])')
check "xcb-gen run fully usable through the API (48 cases: $res)" [ "$res" = 48 ]
check "SIGTERM: clean shutdown after the restart" stop_daemon
check "PRAGMA integrity_check ok at the end" [ "$(sql 'PRAGMA integrity_check')" = ok ]
