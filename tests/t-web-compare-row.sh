#!/bin/bash
# t-web-compare-row.sh — the dashboard's compare page compares seed 002's
# figures, not only the readers' wait per read: compare.html?...&row=NAME
# asks the API for that row (GET /api/v1/compare's row=), offers a chooser
# of the rows (sync cases) and a row field in the picker (before any run
# is chosen; the schema's rows, a row it adds too), names the measure in the table's title with the
# CLI's words (served once: GET /api/v1/schema's pseudo_rows), keeps the row
# in its swap and CSV links, and shows the API's 400 for an unknown row. The
# run is the stored real -smp 4 suite=ept boot (tests/fixtures, as
# t-compare-sync-row), compared inside -> after; every figure the page shows
# is checked against the API's and every title against `xcbench compare
# --row`'s; the run page's sync table heads its figures with the same
# served words. The chooser offers lock_hold too (the schema's lock_row:
# seed 001's lock hold per acquisition, which a sync case's rw-lock has).
# The chooser shows for cross-call and TLB cases as well (they may hold a
# lock), not for raw floors alone. Screenshot: tests/out/web-compare-row.png.
# timeout: 180
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
. "$(dirname "$0")/lib/browser.sh"
browser_require "compare page row= browser tests" "$XCBENCHD" "$XCBENCH"
browser_traps

admin_daemon webrow-admin --web "$ROOT/web"
gzip -dc "$ROOT/tests/fixtures/sync-ept-smp4.serial.log.gz" >"$TMP/ept.log"
MAC=52:54:00:0e:02:01 # its machine page shows its trend
timeout 60 "$XCBENCH" --server "$URL" --token-file "$TMP/token" ingest "$TMP/ept.log" --mac "$MAC" --timeout 30 >"$TMP/ingest.out" 2>&1
check "the stored suite=ept boot is ingested" test $? -eq 0
ID=$(pyjson "$URL/api/v1/runs" 'd["runs"][0]["id"]')

# The CLI's title measure for a row: what "% change of MEASURE (p50), ..." names.
cli_measure() {
	"$XCBENCH" --server "$URL" compare "$ID" "$ID" --algo-a inside --algo-b after "$@" 2>&1 |
		sed -n 's/^% change of \(.*\) (p50), .*/\1/p' | head -1
}
HOLD=$(cli_measure --row writer_hold)
ALL=$(cli_measure)
check "the CLI names both measures ('$HOLD'; '$ALL')" test -n "$HOLD" -a -n "$ALL"

export XCB_BASE=$URL/ XCB_OUT=$OUTDIR XCB_RUN=$ID XCB_MAC=$MAC XCB_CLI_HOLD=$HOLD XCB_CLI_ALL=$ALL
run_driver compare-row.mjs
