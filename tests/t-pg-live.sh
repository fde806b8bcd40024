#!/bin/bash
# timeout: 240
# Live pages follow runs that another daemon is ingesting (issue 24): two
# daemons, labs A and B, on one PostgreSQL database (a throwaway cluster,
# tests/lib/pg.sh). A run streams into daemon A (`xcbench ingest -` fed a
# serial capture in two parts through a FIFO, as a serial-over-LAN console
# would); meanwhile daemon B's API, which the run page polls while a run is
# live (web/js/run.js), and its run list show it running with what A has
# stored so far, then complete with every frame, the same answer as A's.
# In headless Chromium (tests/web/live.mjs), B's run page, opened mid-stream,
# says the run is running with A's frames and cases so far, and after the rest
# is fed to A turns complete by itself (no reload) with every case and A's
# numbers on its charts. Screenshots: tests/out/web-pg-live-{running,complete}.png.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
. "$ROOT/tests/lib/pg.sh"
. "$ROOT/tests/lib/browser.sh"
need_host_build "a live run across daemons"
T=$(mktemp -d "$OUTDIR/pglive.XXXXXX")
PIDS=()
cleanup() {
	local p
	exec 5>&- 2>/dev/null
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done # the browser exits with its driver
	for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
	rm -rf "$T"
}
trap "exit 143" TERM INT # a signal (tests/run-all timeout) still cleans up
pg_test_db live cleanup
DBURL=$(pg_url live)
# lab_daemon NAME LAB [xcbenchd options...]: a daemon on loopback; sets
# P_NAME (its HTTP port).
lab_daemon() {
	local port
	port=$(free_port)
	xcbd_start "$T/$1.log" "$port" --db "$DBURL" --lab "$2" --open "${@:3}" || {
		notok "daemon $1 starts: $(tail -3 "$T/$1.log")"
		exit 1
	}
	PIDS+=("$XCBD_PID")
	printf -v "P_$1" %s "$port"
}
lab_daemon a A
lab_daemon b B --web "$ROOT/web" # the dashboard is B's
ok "two daemons (labs A and B) on one database"
# get PORT PATH EXPR: EXPR of the JSON answer j (empty when there is none).
get() {
	curl -sf "http://127.0.0.1:$1$2" | python3 -c "import json, sys
try: j = json.load(sys.stdin)
except ValueError: sys.exit(0)
print($3)" 2>/dev/null
}
# until_eq PORT PATH EXPR WANT: polls (every 0.2 s, at most 30 s) until EXPR
# is WANT; prints the last value.
until_eq() {
	local v i
	for i in $(seq 150); do
		v=$(get "$1" "$2" "$3")
		[ "$v" = "$4" ] && break
		sleep 0.2
	done
	echo "$v"
}

"$XCB_GEN" --serial "$T/cap.txt" --token 11fe000000000001 --reps 2 >"$T/gen.out" || { notok "xcb-gen capture"; exit 1; }
frames=$(grep -c 'XCB1 ' "$T/cap.txt") # a frame line may follow an escape code
half=$((frames / 2))
ncases=$(sed -E 's/.*cases=([0-9]+).*/\1/' "$T/gen.out")
nresults=$(sed -E 's/.*results=([0-9]+).*/\1/' "$T/gen.out")
# the first part: up to the half-th frame line
cut=$(grep -n 'XCB1 ' "$T/cap.txt" | sed -n "${half}p" | cut -d: -f1)
mkfifo "$T/serial"
"$XCBENCH" --server "http://127.0.0.1:$P_a" ingest - <"$T/serial" >"$T/ingest.out" 2>"$T/ingest.err" &
PIDS+=($!)
ING=$!
exec 5>"$T/serial"
head -n "$cut" "$T/cap.txt" >&5

run=$(until_eq "$P_a" "/api/v1/runs?lab=A" "j['runs'][0]['frames_received'] if j['runs'] else 0" "$half")
check "daemon A stored the first $half of $frames frames ($run)" test "$run" = "$half"
id=$(get "$P_a" "/api/v1/runs?lab=A" "j['runs'][0]['id']")
got=$(get "$P_b" "/api/v1/runs/$id" "j['run']['status'], j['run']['lab'], j['run']['frames_received'], 0 < j['run']['cases_done'] < $ncases or j['run']['cases_done']")
check "daemon B's run page API: A's run $id live, lab A, $half frames, part of its cases ($got)" \
	test "$got" = "running A $half True"
got=$(get "$P_b" "/api/v1/runs?status=running" "[(r['id'], r['frames_received']) for r in j['runs']]")
check "daemon B's run list: A's run running with its frames so far ($got)" test "$got" = "[($id, $half)]"
check "mid-stream, B answers the run page's call with A's bytes" \
	cmp <(curl -sf "http://127.0.0.1:$P_a/api/v1/runs/$id") <(curl -sf "http://127.0.0.1:$P_b/api/v1/runs/$id")
done1=$(get "$P_b" "/api/v1/runs/$id" "j['run']['cases_done']")

# The rest of the capture, through the FIFO by name: fd 5 stays open, so
# ingest reads on (it sends a batch whenever its input pauses, DONE too).
# T/fed says it went, so a driver that failed before feeding it still leaves
# the checks below a whole run.
more="tail -n +$((cut + 1)) '$T/cap.txt' >'$T/serial' && touch '$T/fed'"
missing=$(browser_missing)
if [ -n "$missing" ]; then
	skip "B's run page in Chromium follows A's run" "missing:$missing"
else
	# The driver must not hold the FIFO open (5>&-), or ingest never sees its end.
	XCB_BASE=http://127.0.0.1:$P_b/ XCB_A=http://127.0.0.1:$P_a/ XCB_RUN=$id XCB_CASES=$ncases \
		XCB_OUT=$OUTDIR XCB_LIVE_MORE=$more node "$ROOT/tests/web/live.mjs" 5>&- &
	PIDS+=($!)
	wait $! || tail -n 20 "$T/b.log" | sed 's/^/# /'
fi
[ -e "$T/fed" ] || bash -c "$more"
exec 5>&-
wait "$ING"
check "xcbench ingest delivered the run (exit $?)" grep -q "frames acknowledged" "$T/ingest.err"
got=$(until_eq "$P_b" "/api/v1/runs/$id" "j['run']['status'], j['run']['frames_received'], j['run']['cases_done'] == j['run']['cases'] == $ncases" "complete $frames True")
check "daemon B follows it to the end: complete, $frames frames, every case done (was $done1 mid-stream; $got)" \
	test "$got" = "complete $frames True"
check "... and B's answer is A's" cmp <(curl -sf "http://127.0.0.1:$P_a/api/v1/runs/$id") <(curl -sf "http://127.0.0.1:$P_b/api/v1/runs/$id")
check "B's CSV of A's run: one row per RESULT ($nresults)" \
	test "$(curl -sf "http://127.0.0.1:$P_b/api/v1/runs/$id.csv" | tail -n +2 | wc -l)" = "$nresults"
