#!/bin/bash
# timeout: 120
# The run page's cases are kept between requests (host/src/casecache.c)
# until the run stores another frame: a live run is never answered from a
# rendering of fewer frames. A run streams into a real daemon in two parts
# (`xcbench ingest` of a serial capture's halves); the run page, asked
# twice after each part (the second answer the kept one), always has every
# case stored so far, and its cases are those of a page built afresh
# (?cases_limit=, which the cache never answers).
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "the run page's cache"
start_daemon --open || { notok "xcbenchd starts"; exit 1; }
capture_halves 11fe0000000000c1 || { notok "xcb-gen capture"; exit 1; }

# page NAME: the run page now, twice (the second from the cache), and a
# page built afresh; one TAP line each for: the two answers the same bytes,
# their cases those of the fresh page. $TMP/NAME.sum: status, frames, cases.
page() {
	curl -sf "$URL/api/v1/runs/1" >"$TMP/$1.a"
	curl -sf "$URL/api/v1/runs/1" >"$TMP/$1.b"
	curl -sf "$URL/api/v1/runs/1?cases_limit=1000" >"$TMP/$1.fresh"
	check "$1: asked again, the same bytes" cmp -s "$TMP/$1.a" "$TMP/$1.b"
	check "$1: its cases are those of a page built afresh" python3 -c "import json, sys
a, f = (json.load(open(p)) for p in sys.argv[1:])
sys.exit(not (a['cases'] == f['cases'] and 'cases_next' not in a))" "$TMP/$1.b" "$TMP/$1.fresh"
	python3 -c "import json, sys
j = json.load(open(sys.argv[1]))
print(j['run']['status'], j['run']['frames_received'], len(j['cases']))" "$TMP/$1.b" >"$TMP/$1.sum"
}

"$XCBENCH" --server "$URL" ingest "$TMP/part1" 2>"$TMP/ingest1.err" || { notok "ingest of the first half"; exit 1; }
page mid-run
read -r status nframes cases <"$TMP/mid-run.sum"
check "mid-run: running, $((frames / 2)) frames, some of the $ncases cases ($status $nframes $cases)" \
	test "$status $nframes" = "running $((frames / 2))" -a "$cases" -gt 0 -a "$cases" -lt "$ncases"

"$XCBENCH" --server "$URL" ingest "$TMP/part2" 2>"$TMP/ingest2.err" || { notok "ingest of the second half"; exit 1; }
page complete
check "complete: every frame and every case, not the mid-run rendering ($(cat "$TMP/complete.sum"))" \
	test "$(cat "$TMP/complete.sum")" = "complete $frames $ncases"
