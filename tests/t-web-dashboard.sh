#!/bin/bash
# t-web-dashboard.sh — the dashboard in headless Chromium against a real xcbenchd.
#
# Starts xcbenchd on a free loopback port with a temp database and an admin
# token, stores runs THROUGH THE PROTOCOL (UDP frames: host/tools/xcb-gen and
# tests/web/frames.py), and lets tests/web/dashboard.mjs (playwright-core,
# /usr/bin/chromium) load every page and compare what it drew with the API.
# Issue 22: a real suite=ept boot (tests/fixtures/sync-ept-smp4.serial.log.gz,
# `xcbench ingest`) is run S: its run page answers seed 002 (web-run-sync.png).
# Screenshots: tests/out/web-{runs,run,run-sync,compare,compare-runs,live}.png.
# timeout: 300
. "$(dirname "$0")/lib/tap.sh"

XCBGEN=$ROOT/host/build/xcb-gen
. "$(dirname "$0")/lib/browser.sh"
browser_require "dashboard browser tests" "$XCBENCHD" "$XCBGEN" "$XCBENCH"

tmp=$(mktemp -d "$OUTDIR/web.XXXXXX")
daemon="" driver=""
# The browser is playwright's child on a pipe: it exits with the driver.
cleanup() {
	[ -n "$driver" ] && kill "$driver" 2>/dev/null && wait "$driver" 2>/dev/null
	[ -n "$daemon" ] && kill "$daemon" 2>/dev/null && wait "$daemon" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap "exit 143" TERM INT  # a signal (tests/run-all timeout) still cleans up

port=$(free_port)
hex() { od -An -N8 -tx1 /dev/urandom | tr -d ' \n'; }
admin=$(hex)
echo "$admin" >"$tmp/admin-token"
xcbd_start "$tmp/xcbenchd.log" "$port" --db "$tmp/xcbench.db" \
	--web "$ROOT/web" --token-file "$tmp/admin-token" --lost-after 600
ready=$?
daemon=$XCBD_PID
base="http://127.0.0.1:$port/"
if [ "$ready" != 0 ] || ! curl -sf "${base}api/v1/health" >/dev/null; then
	notok "xcbenchd answers on 127.0.0.1:$port"
	sed 's/^/# /' "$tmp/xcbenchd.log"
	exit 1
fi
ok "xcbenchd answers on 127.0.0.1:$port"

# Run tokens. xcb-gen numbers its runs token, token+1, token+2.
t0=$(printf '%016x' $(( 0x$(hex | cut -c1-12) << 8 )))
tA=$t0
tB=$(printf '%016x' $(( 0x$t0 + 1 )))
tC=$(printf '%016x' $(( 0x$t0 + 2 )))
tL=$(hex)
tS=00000000000fe022	# the sync fixture's run= token (ingest registers it)
# What dashboard.mjs runs once it has seen the empty database: store the runs.
# The daemon is not --open, so runs are registered first (POST /api/v1/runs
# with the admin token), except R, which boots like a lab machine: /boot.ipxe
# registers its MAC and hands out its token.
cat >"$tmp/fill.sh" <<FILL
set -e
register() {
	curl -sf -X POST -H "Authorization: Bearer $admin" -H 'Content-Type: application/json' \\
		-d "{\\"token\\":\\"\$1\\",\\"suite\\":\\"\$2\\",\\"label\\":\\"\$3\\"}" "${base}api/v1/runs" >/dev/null
}
register $tA gen baseline
register $tB gen faster
register $tC gen noise
register $tL web-test live
tR=\$(curl -sf '${base}boot.ipxe?mac=52:54:00:0e:b0:01' | grep -oE 'run=[0-9a-f]{16}' | head -1 | cut -d= -f2)
echo \$tR >'$tmp/token-R'
'$XCBGEN' --server 127.0.0.1:$port --runs 3 --token $tA --factor 1.0,0.7,1.002 --reps 5 --samples >'$tmp/gen.out'
python3 '$ROOT/tests/web/frames.py' --server 127.0.0.1:$port --token \$tR
python3 '$ROOT/tests/web/frames.py' --server 127.0.0.1:$port --token $tL --part first --plan log
zcat '$ROOT/tests/fixtures/sync-ept-smp4.serial.log.gz' | XCBENCH_TOKEN=$admin '$XCBENCH' --server $base ingest - --timeout 60 >'$tmp/ingest-S.out'
FILL
export XCB_FILL="bash $tmp/fill.sh"
export XCB_LIVE_MORE="python3 '$ROOT/tests/web/frames.py' --server 127.0.0.1:$port --token $tL --part rest --plan log"
export XCB_BASE=$base XCB_OUT=$OUTDIR XCB_TOKEN=$admin XCB_CLI=$XCBENCH
export XCB_RUN_A=$tA XCB_RUN_B=$tB XCB_RUN_C=$tC XCB_RUN_R_FILE=$tmp/token-R XCB_RUN_L=$tL XCB_RUN_S=$tS

node "$ROOT/tests/web/dashboard.mjs" &
driver=$!
wait "$driver"
rc=$?
driver=""
if [ $rc -ne 0 ]; then
	echo "# xcbenchd log:"
	tail -n 30 "$tmp/xcbenchd.log" | sed 's/^/# /'
fi
exit $rc
