#!/bin/bash
# t-web-verdict.sh — the dashboard shows a run whose payload checks FAILED
# (DONE status 2) as such wherever its status is shown: it read `complete`
# in the runs list and the run page's header, the failure told only far
# down under "Errors and logs", and the runs list had no filter for it. In
# headless Chromium against a real xcbenchd, with four hand-made runs
# (tests/lib/verdict-runs.sh: ok, aborted, FAILED, running): the runs list
# marks the aborted and the failed row `complete · <verdict>` in the words
# of GET /api/v1/schema `verdicts` (the CLI's), not the others; its Verdict
# filter lists the failed run alone (in the URL and the CSV link too); the
# run page's header carries the mark and the verdict's sentence; so do the
# compare page (its runs picker and each side above the table) and the lab
# page (a machine's last run), which read `complete` alone.
# Screenshot: tests/out/web-verdict.png.
# timeout: 120
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
. "$(dirname "$0")/lib/browser.sh"
. "$(dirname "$0")/lib/verdict-runs.sh"
browser_require "run verdicts in the dashboard" "$XCBENCHD"
browser_traps

start_daemon --open --web "$ROOT/web" || { notok "the daemon starts"; exit 1; }
MAC_OK=52:54:00:0e:1d:00 MAC_FAILED=52:54:00:0e:1d:02
verdict_runs $MAC_OK $MAC_FAILED
n=$(pyjson "$URL/api/v1/runs" 'len(d["runs"])')
check "four runs stored ($n)" test "$n" = 4
export XCB_BASE=$URL/ XCB_OUT=$OUTDIR XCB_MAC_OK=$MAC_OK XCB_MAC_FAILED=$MAC_FAILED
run_driver verdict.mjs
