#!/bin/bash
# t-web-compare-noflush.sh — the dashboard's compare page marks a case of
# method none on its side, as `xcbench compare` does (t-compare-noflush):
# such a case invalidates nothing (README "TLB": a cost figure, never a
# pass), so against method invlpg it reads "faster". In headless Chromium
# against a real xcbenchd, with a hand-made run of early_ack cases at
# method invlpg and none (tests/lib/noflush-runs.sh) compared
# --a-where method=invlpg --b-where method=none: every pivot cell and every
# row of the matched-case table carries the "0B" mark (noFlushMark, the
# API's b_no_flush) with a title that says what it means, and the API's
# warning line ("... of method none on B's side ...") is shown; invlpg
# against invlpg has no mark. Screenshot: tests/out/web-compare-noflush.png.
# timeout: 120
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
. "$(dirname "$0")/lib/browser.sh"
. "$(dirname "$0")/lib/noflush-runs.sh"
browser_require "compare page: cases of method none" "$XCBENCHD"
browser_traps

start_daemon --open --web "$ROOT/web" || { notok "the daemon starts"; exit 1; }
noflush_send 0f1a21
check "a hand-made run of method invlpg and none sent" test $? -eq 0
R=$(pyjson "$URL/api/v1/runs" 'd["runs"][0]["id"]')
export XCB_BASE=$URL/ XCB_OUT=$OUTDIR XCB_RUN=$R
run_driver compare-noflush.mjs
