#!/bin/bash
# t-web-skipped.sh — the run page says how many of the suite's cases were
# skipped, and why, in xcbench show's words: it read "1 cases" in its header
# for a tlb run that skipped 9 of its 12 (invpcid, x2apic_cluster, masks too
# large, allbutself left out by the plan), the 9 told only in the log, where
# show and vm said "9 of the suite's 12 cases skipped: 4 delivery allbutself
# …". In headless Chromium against a real xcbenchd, with the hand-made runs
# of tests/lib/skipped-runs.sh (t-show-skipped's): the header's line is
# show's line for the run, character for character (web/js/skipped.js
# mirrors host/cli/skipped.c), and a run that skipped nothing has none.
# Screenshot: tests/out/web-skipped.png.
# timeout: 120
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
. "$(dirname "$0")/lib/browser.sh"
. "$(dirname "$0")/lib/skipped-runs.sh"
browser_require "skipped cases on the run page" "$XCBENCHD" "$XCBENCH"
browser_traps

start_daemon --open --web "$ROOT/web" || { notok "the daemon starts"; exit 1; }
skipped_run_send
check "the run with skips is sent" test $? -eq 0
XCB_RUN_SKIPPED=$(newest_run)
unskipped_run_send
check "the run without is sent" test $? -eq 0
XCB_RUN_NONE=$(newest_run)
"$XCBENCH" --server "$URL" show "$XCB_RUN_SKIPPED" >"$TMP/show.out" 2>&1
XCB_SHOW_SKIPPED=$(grep 'cases skipped' "$TMP/show.out")
check "show says the skips (the line the page must match)" test -n "$XCB_SHOW_SKIPPED"
export XCB_BASE=$URL/ XCB_OUT=$OUTDIR XCB_RUN_SKIPPED XCB_RUN_NONE XCB_SHOW_SKIPPED
run_driver skipped.mjs
