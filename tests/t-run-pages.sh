#!/bin/bash
# t-run-pages.sh — a run of more cases than one page of GET
# /api/v1/runs/{id} (1000: RUN_CASES_PAGE, then cases_next) is read whole:
# `xcbench show` lists every case (text and --json) and its VERDICT names a
# failed case of the second page; the run page counts every case. Each read
# the first page as the whole run. A hand-made run (UDP frames,
# tests/web/frames.py) of 1003 cases, case 1002 failing its check.
# timeout: 240
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
. "$(dirname "$0")/lib/browser.sh"
daemon_test "runs of many cases"
N=1003

start_daemon --open --web "$ROOT/web" || { notok "the daemon starts"; exit 1; }
python3 - "127.0.0.1:$PORT" "$N" <<'PY'
import os, struct, sys
sys.path.insert(0, os.path.join(os.environ.get('ROOT', '.'), 'tests', 'web'))
import frames
n = int(sys.argv[2])
r = frames.Run(0x9a6e5)
r.text(frames.HELLO, 'fw=t-run-pages\ncpus=2\ntsc_khz=2000000\ntransport=udp\nsuite=stress\n')
for cid in range(1, n + 1):
    r.text(frames.CASE, f'id={cid}\nkind=xcall\nalgo=locked\ndelivery=unicast\nwait=done\ninits=1\nmask=2\n'
           f'placement=first\noverlap=disjoint\nwork_us={cid}\niters=10\nreps=1\n')
    bad = cid == n - 1      # case 1002: its calls lost (XCB_RF_INVARIANT)
    r.frame(frames.RESULT, struct.pack('<IHH17QII9Q', cid, 0, frames.ALL,
                                       10, 4000, 5000, 6000, 7000, 7000, 8000, 5_000_000, 100_000,
                                       10, 0, 0, 0, 0, 0, 10 - 2 * bad, 10, 2 if bad else 0, 0,
                                       0, 2 * bad, 0, 0, 60000, 0, 0, 0, 0))
    if bad:
        r.text(frames.LOG, f'case {cid} rep 0: initiator cpu0: 2 lost, 0 duplicated, 0 out of order: locked, at 1 of 1 targets (cpu1)\n')
r.frame(frames.DONE, struct.pack('<II', len(r.frames), 2))
frames.send(sys.argv[1], r.frames, 0, len(r.frames))
PY
check "the run of $N cases is sent" test $? -eq 0
ID=$(pyjson "$URL/api/v1/runs" 'd["runs"][0]["id"]')
page1=$(pyjson "$URL/api/v1/runs/$ID" 'len(d["cases"]), d["cases_next"]')
check "the API answers a page of 1000 and where the next starts ($page1)" test "$page1" = "1000 1000"

"$XCBENCH" --server "$URL" show "$ID" >"$TMP/show.out" 2>&1
rows=$(grep -cE '^ +[0-9]+ xcall ' "$TMP/show.out")
check "xcbench show lists every case ($rows of $N)" test "$rows" = "$N"
check "... the last one too" grep -qE "^ +$N xcall " "$TMP/show.out"
check "... its VERDICT names case $((N - 1)), of the second page" \
	bash -c 'grep -q "^VERDICT: " "$1" && grep -q "^  case $2 rep 0: initiator cpu0: 2 lost" "$1"' _ "$TMP/show.out" $((N - 1))
check "... whose row says FAILED check" grep -qE "^ +$((N - 1)) xcall .*FAILED check" "$TMP/show.out"
"$XCBENCH" --server "$URL" show "$ID" --json >"$TMP/show.json" 2>&1
js=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(len(d["cases"]), "cases_next" in d)' "$TMP/show.json")
check "xcbench show --json: every case, no cases_next ($js)" test "$js" = "$N False"

missing=$(browser_missing "$XCBENCHD")
if [ -n "$missing" ]; then
	skip "run page of $N cases" "missing:$missing"
else
	browser_traps
	export XCB_BASE=$URL/ XCB_OUT=$OUTDIR XCB_RUN=$ID XCB_CASES=$N
	run_driver pages.mjs
fi
