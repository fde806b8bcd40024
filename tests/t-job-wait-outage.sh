#!/bin/bash
# timeout: 120
# `xcbench job wait` through a daemon restart (README "Power control": a job
# survives one). It ended at the first failed poll, with the daemon's error
# ("cannot connect ...: Connection refused", or a 500 while its store was
# away) and exit 1, as for a failed job, while the job went on. Now:
#   - a daemon killed and started again on the same port and database mid
#     wait: wait says once that xcbenchd is unavailable and still waits,
#     once that it answers again, and then follows the job to its end (a
#     cancel from another command: exit 1, "job N: cancelled").
#   - a daemon gone at wait's --timeout: exit 3 (the outcome unknown), not
#     1 (the job failed), naming the stage it last saw.
#   - a daemon not there when wait starts is an error at once (exit 1): a
#     wrong --server, nothing known to wait for; so is another server there
#     answering 503 (not xcbenchd's error: its store's outage from the
#     first poll is waited through, t-pg-outage).
# The jobs are for a manual machine: they stay queued (nothing boots).
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "job wait: through a daemon restart"

admin_daemon job-wait-outage-admin
X=("$XCBENCH" --server "$URL" --token-file "$TMP/token")
WPID=
trap '[ -n "$WPID" ] && kill "$WPID" 2>/dev/null; cleanup_daemon' EXIT
M=52:54:00:0d:00:01
J=$("${X[@]}" queue --mac $M --suite quick | grep -oE 'job [0-9]+' | cut -d' ' -f2)
check "job $J queued for a manual machine" test -n "$J"

# until N CMD...: CMD true within N tenths of a second.
until_t() { local n=$1 i; shift; for ((i = 0; i < n; i++)); do "$@" && return 0; sleep 0.1; done; return 1; }
# restart: the daemon killed (no goodbye) and started on its port and DB.
restart() {
	{ kill -KILL "$DPID"; wait "$DPID"; } 2>/dev/null
	DPID=
	# the wait must have found it gone before it comes back
	until_t 100 grep -q 'unavailable' "$TMP/w.err"
	xcbd_start "$TMP/daemon.log" "$PORT" --db "$DB" --token-file "$TMP/token"
	local rc=$?
	DPID=$XCBD_PID
	return $rc
}

"${X[@]}" job wait "$J" --timeout 100 >"$TMP/w.out" 2>"$TMP/w.err" &
WPID=$!
until_t 100 grep -q "^job $J " "$TMP/w.out"
check "job wait $J is following the job" kill -0 $WPID
check "xcbenchd killed and started again on port $PORT, the same database" restart
check "... job wait $J still runs" kill -0 $WPID 2>/dev/null
check "... it said once that it waits through the outage ($(head -1 "$TMP/w.err"))" \
	test "$(grep -c "^xcbench job wait: xcbenchd unavailable (xcbench: cannot connect to $URL: Connection refused (is xcbenchd running?)); still waiting\$" "$TMP/w.err")" = 1
until_t 100 grep -q 'answers again' "$TMP/w.err"
check "... and that xcbenchd answers again" grep -qx "xcbench job wait: xcbenchd answers again" "$TMP/w.err"
"${X[@]}" job cancel "$J" >/dev/null
check "job cancel $J on the restarted daemon (exit $?)" test $? = 0
until_t 100 sh -c "! kill -0 $WPID 2>/dev/null"
wait $WPID
rc=$? WPID=
check "job wait $J ends with the job: exit 1, 'job $J: cancelled' (exit $rc: $(tail -1 "$TMP/w.out"))" \
	sh -c "test $rc = 1 && test \"\$(tail -1 '$TMP/w.out')\" = 'job $J: cancelled'"

# The daemon gone at the timeout: the outcome unknown.
J2=$("${X[@]}" queue --mac 52:54:00:0d:00:02 --suite quick | grep -oE 'job [0-9]+' | cut -d' ' -f2)
: >"$TMP/w.out"
: >"$TMP/w.err"
"${X[@]}" job wait "$J2" --timeout 4 >"$TMP/w.out" 2>"$TMP/w.err" &
WPID=$!
until_t 100 grep -q "^job $J2 " "$TMP/w.out"
{ kill -KILL "$DPID"; wait "$DPID"; } 2>/dev/null
DPID=
wait $WPID
rc=$? WPID=
sed 's/^/#   /' "$TMP/w.err"
check "job wait $J2 --timeout 4, xcbenchd gone: exit 3, not the failed job's 1 (exit $rc)" test $rc = 3
check "... it says the outcome is unknown and the stage it last saw" \
	grep -q "^xcbench job wait: job $J2: outcome unknown: xcbenchd unavailable for the last [0-9]* s of 4 (last seen queued)\$" "$TMP/w.err"

# No daemon when wait starts: an error, at once.
"${X[@]}" job wait "$J2" --timeout 100 >"$TMP/w.out" 2>"$TMP/w.err"
rc=$?
check "job wait with no xcbenchd there from the start: exit 1, its error ($rc: $(cat "$TMP/w.err"))" \
	sh -c "test $rc = 1 && grep -qx 'xcbench: cannot connect to $URL: Connection refused (is xcbenchd running?)' '$TMP/w.err'"

# Another server there (no xcbenchd) whose every answer is a 503 page: an
# error at once too, though an xcbenchd's own 503 is waited through.
FP=$(free_port)
python3 - "$FP" <<'PY' &
import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        b = b'<html><body>503 Service Unavailable</body></html>'
        self.send_response(503)
        self.send_header('Content-Type', 'text/html')
        self.send_header('Content-Length', str(len(b)))
        self.end_headers()
        self.wfile.write(b)
    def log_message(self, *a):
        pass
http.server.HTTPServer(('127.0.0.1', int(sys.argv[1])), H).serve_forever()
PY
WPID=$!
until_t 100 curl -s -o /dev/null "http://127.0.0.1:$FP/"
"$XCBENCH" --server "http://127.0.0.1:$FP" job wait 1 --timeout 100 >"$TMP/w.out" 2>"$TMP/w.err"
rc=$?
kill "$WPID" 2>/dev/null
wait "$WPID" 2>/dev/null
WPID=
check "job wait against a server that is no xcbenchd answering 503: exit 1 at once, its error ($rc: $(cat "$TMP/w.err"))" \
	sh -c "test $rc = 1 && grep -qx 'xcbench: GET /api/v1/jobs/1: HTTP 503: not an xcbenchd answer (is http://127.0.0.1:$FP an xcbenchd?)' '$TMP/w.err'"
