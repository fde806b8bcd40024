#!/bin/bash
# t-web-labs.sh — issue 24's "every daemon's dashboard lists and filters all
# labs' runs", in headless Chromium against a real xcbenchd: one SQLite
# database that a daemon of lab east, then one of lab west, each collected a
# run into (xcb-gen), and a third run from a daemon without --lab. The runs
# page shows a Lab column and a Lab filter (neither where no run has a lab);
# filtering keeps the lab in the URL and in the CSV link, and lists only
# that lab's runs, as the API's ?lab= does; with 100 more runs, the Lab filter
# still offers a lab whose runs are past the first page (GET /api/v1/labs),
# and a column's sort says it orders one page. The Lab page, on lab west's
# daemon, names each machine's lab (east's, west's marked as this daemon's,
# and one of no lab). Screenshots: tests/out/web-labs.png, web-labs-lab.png.
# timeout: 120
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
. "$(dirname "$0")/lib/browser.sh"
browser_require "runs page lab browser tests" "$XCBENCHD" "$XCB_GEN"

browser_traps

# gen TOKEN: one generated run into the daemon up now.
gen() { "$XCB_GEN" --server 127.0.0.1:$PORT --runs 1 --reps 2 --token "$1" >/dev/null 2>"$TMP/gen.err"; }

# setm MAC: MAC's power set (manual) on the daemon up now: its lab's machine.
setm() { "$XCBENCH" --server "$URL" machine set "$1" --power manual >/dev/null 2>"$TMP/setm.err" || notok "machine set $1: $(cat "$TMP/setm.err")"; }

start_daemon --open --web "$ROOT/web" || { notok "daemon starts"; exit 1; }
gen 1ab0
setm 52:54:00:1a:b0:00
# A database no lab daemon wrote to: the page as it always was.
XCB_MODE=nolab XCB_BASE=$URL/ XCB_OUT=$OUTDIR node "$ROOT/tests/web/labs.mjs"
stop_daemon
for lab in east west; do
	start_daemon --open --web "$ROOT/web" --lab $lab || { notok "daemon of lab $lab starts"; exit 1; }
	gen "1ab$([ $lab = east ] && echo 1 || echo 2)"
	setm "52:54:00:1a:b0:0$([ $lab = east ] && echo 1 || echo 2)"
	[ $lab = west ] || stop_daemon
done
n=$(pyjson "$URL/api/v1/runs" 'len(d["runs"])')
labs=$(pyjson "$URL/api/v1/runs" '",".join(sorted(r["lab"] or "-" for r in d["runs"]))')
check "three runs stored, of labs east, west and none ($n: $labs)" [ "$n" = 3 -a "$labs" = "-,east,west" ]
m=$(pyjson "$URL/api/v1/lab" '",".join("%s=%s" % (m["mac"][-2:], m["lab"] or "-") for m in sorted(d["machines"], key=lambda m: m["mac"])) + " " + str(d["lab"])')
check "the machines of no lab, east and west, on west's daemon ($m)" [ "$m" = "00=-,01=east,02=west west" ]

export XCB_BASE=$URL/ XCB_OUT=$OUTDIR
run_driver labs.mjs
