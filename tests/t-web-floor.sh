#!/bin/bash
# t-web-floor.sh — issue 21: the run page's floor over time, in headless Chromium
# against a real xcbenchd. One short TCG boot (-smp 2: raw ipi, lockless 1->1
# done, 6 repetitions) is ingested; the page's "floor" chart must draw one point
# per repetition in run order with the API's rep_floor_paired / rep_ipi_floor /
# rep_p50 converted to ns, name its axes with units, and a run without paired
# floors (the aa fixture's boot, recorded before them) draws only the floor
# before each repetition and says why. Screenshot: tests/out/web-floor.png.
# timeout: 240
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
. "$(dirname "$0")/lib/browser.sh"

browser_require "run page floor chart" "$XCBENCHD" "$XCBENCH"
browser_traps
need_payload

TMP=$(mktemp -d "$OUTDIR/web-floor.XXXXXX")
XCB_QEMU_TIMEOUT=120 qemu_direct "$TMP/boot.log" 2 \
	"suite=quick kinds=raw,xcall algos=lockless waits=done inits=1 masks=1 work_us=0 reps=6 iters=200 transport=serial deliveries=unicast"
admin_daemon floor-admin --web "$ROOT/web"
"$XCBENCH" --server "$URL" --token-file "$TMP/token" ingest "$TMP/boot.log" >/dev/null 2>"$TMP/ing.err" ||
	sed 's/^/# /' "$TMP/ing.err"
zcat "$ROOT/tests/fixtures/aa/boot1.serial.log.gz" >"$TMP/old.log"
"$XCBENCH" --server "$URL" --token-file "$TMP/token" ingest "$TMP/old.log" >/dev/null 2>"$TMP/ing2.err" ||
	sed 's/^/# /' "$TMP/ing2.err"
mapfile -t ID < <(pyjson "$URL/api/v1/runs" '"\n".join(str(r["id"]) for r in sorted(d["runs"], key=lambda r: r["id"]))')
check "both captures ingested (${ID[*]})" [ "${#ID[@]}" = 2 ]

export XCB_BASE=$URL/ XCB_OUT=$OUTDIR XCB_RUN=${ID[0]} XCB_OLD=${ID[1]}
run_driver floor.mjs
