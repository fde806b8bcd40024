#!/bin/bash
# t-web-daemon-gone.sh — the dashboard when its daemon stops mid-way, in
# headless Chromium against a real xcbenchd (tests/web/daemon-gone.mjs): a
# live run's page, the runs list and the lab page, all polling, must each say
# once that they lost the daemon and what to do, keep what they drew, and
# recover when it is back on the same port. The run page used to add an
# "Update failed" line every 2 s (thirty a minute) with no hint; the runs
# list said nothing and went on showing a run as running; the lab page
# replaced its machines with the error at the first failed poll.
# Screenshots: tests/out/web-daemon-gone-{run,runs,lab}.png.
# timeout: 120
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
. "$(dirname "$0")/lib/browser.sh"

browser_require "dashboard with its daemon gone" "$XCBENCHD" "$XCBENCH"
TMP=$(mktemp -d "$OUTDIR/web-gone.XXXXXX")
# The daemon the driver starts again runs outside this shell: its pid in a file.
gone_cleanup() {
	[ -s "$TMP/pid2" ] && kill -KILL "$(cat "$TMP/pid2")" 2>/dev/null
	browser_cleanup
}
browser_traps
trap gone_cleanup EXIT

start_daemon --open --web "$ROOT/web" || { notok "xcbenchd starts"; exit 1; }
ok "xcbenchd starts"
# A registered run with no frame yet: pending, so both pages poll it.
run=$(curl -sf -X POST -H 'Content-Type: application/json' -d '{"suite":"default","label":"gone"}' \
	"$URL/api/v1/runs" | python3 -c 'import json,sys; print(json.load(sys.stdin)["run"]["id"])')
check "a pending run registered (#$run)" [ -n "$run" ]
MAC=52:54:00:0e:60:01
check "a lab machine (manual power)" "$XCBENCH" --server "$URL" machine set $MAC --power manual

cat >"$TMP/start.sh" <<START
. '$ROOT/tests/lib/daemon.sh'
XCBENCHD='$XCBENCHD'
xcbd_start '$TMP/daemon.log' $PORT --db '$DB' --open --web '$ROOT/web' && echo \$XCBD_PID >'$TMP/pid2'
START
export XCB_BASE=$URL/ XCB_OUT=$OUTDIR XCB_RUN=$run XCB_MAC=$MAC
export XCB_STOP="kill -TERM $DPID" XCB_START="bash $TMP/start.sh"
node "$ROOT/tests/web/daemon-gone.mjs" &
driver=$!
wait "$driver"
rc=$?
driver=""
wait "$DPID" 2>/dev/null
DPID=
[ $rc = 0 ] || tail -n 20 "$TMP/daemon.log" | sed 's/^/# /'
check "the daemon started again answers" curl -sf "$URL/api/v1/health" -o /dev/null
