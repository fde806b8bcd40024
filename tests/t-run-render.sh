#!/bin/bash
# timeout: 180
# Finished runs' pages kept in the store (host/src/runrender.c, table
# run_renders): the daemon's writer renders a finished run's cases in its
# idle time, and a run's first GET /api/v1/runs/{id} is answered from that
# row. Against a real daemon and its real store (SQLite here; DB=postgresql://
# for t-pg-run-render.sh): a complete run gets a stored rendering, byte for
# byte the cases of a page built afresh; the page answered from the store
# (a restarted daemon: nothing in memory) is that page; the reader serves the
# store's text (a marked row comes back); a row of another format version is
# ignored and rendered again; and a run that was rendered when lost and then
# stores more frames is not answered from its old rendering.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "stored run pages"
TMP=$(mktemp -d "$OUTDIR/daemon.XXXXXX")

# sq SQL: the rows of SQL on the daemon's store, one a line, columns joined
# by '|', NULL empty (psql -At's form on both engines).
sq() {
	case $DB in
	postgres*) "$PG_BIN/psql" -X -q -At -v ON_ERROR_STOP=1 "$DB" -c "$1" ;;
	*) python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1], timeout=30)
for r in c.execute(sys.argv[2]):
    print("|".join("" if v is None else str(v) for v in r))
c.commit()' "$DB" "$1" ;;
	esac
}

# The daemon logs "stored run pages: 0 pending" at its first look and each
# time the count comes down to none (runrender.c). rendered_after N: until
# it has logged that more than N times in all; 1 after 60 s.
said() { grep -c 'stored run pages: 0 pending' "$TMP/daemon.log"; }
rendered_after() {
	for _ in $(seq 600); do
		[ "$(said)" -gt "$1" ] && return 0
		sleep 0.1
	done
	return 1
}

# until_sq SQL WANT: until SQL's rows are WANT; 1 after 60 s.
until_sq() {
	for _ in $(seq 600); do
		[ "$(sq "$1")" = "$2" ] && return 0
		sleep 0.1
	done
	return 1
}

# restart: a new daemon on the same store (nothing kept in memory); SAID:
# how many times the log said none pending before it.
restart() {
	stop_daemon
	SAID=$(said)
	start_daemon --open --lost-after 1 || { notok "xcbenchd restarts"; exit 1; }
}

# cases_of FILE: the bytes of FILE's "cases" member (a run page's text).
cases_of() {
	python3 -c 'import sys
t = open(sys.argv[1]).read()
a = t.index(",\"cases\":[") + 9
sys.stdout.write(t[a:t.index(",\"errors\":", a)])' "$1"
}

start_daemon --open --lost-after 1 || { notok "xcbenchd starts"; exit 1; }
"$XCB_GEN" --server "127.0.0.1:$PORT" --token 12ee0000000000a1 --reps 2 >"$TMP/gen1.out" 2>&1 || {
	notok "xcb-gen sends a run"; exit 1; }

# 1. A complete run's rendering, and the page answered from it.
check "the complete run gets a stored rendering of the run as it is" \
	until_sq "SELECT count(*) FROM run_renders d JOIN runs r ON r.id = d.run_id AND r.token = d.token \
		AND r.frames_received = d.frames_received WHERE d.run_id = 1 AND d.cases IS NOT NULL" 1
curl -sf "$URL/api/v1/runs/1?cases_limit=1000" >"$TMP/fresh1"
sq "SELECT cases FROM run_renders WHERE run_id = 1" | head -c -1 >"$TMP/stored1"
check "its text is byte for byte the cases of a page built afresh" cmp -s "$TMP/stored1" <(cases_of "$TMP/fresh1")
restart
check "a restarted daemon says when none is pending" rendered_after "$SAID"
curl -sf "$URL/api/v1/runs/1" >"$TMP/page1"
check "the page a restarted daemon answers is the fresh page's bytes" \
	cmp -s "$TMP/page1" <(sed 's/,"cases_next":null}$/}/' "$TMP/fresh1")

# 2. The reader serves the store's text: a marked row with a valid key
# comes back (nothing else could say "marked").
stop_daemon
sq "UPDATE run_renders SET cases = '[\"marked\"]' WHERE run_id = 1"
restart
check "a valid stored rendering is what the page answers" \
	test "$(cases_of <(curl -sf "$URL/api/v1/runs/1"))" = '["marked"]'

# 3. Another format version is ignored, and rendered again.
stop_daemon
format=$(sq "SELECT format FROM run_renders WHERE run_id = 1")
sq "UPDATE run_renders SET format = format + 1, cases = '[\"other\"]' WHERE run_id = 1"
restart
curl -sf "$URL/api/v1/runs/1" >"$TMP/page1b"
check "a rendering of another format is not served" cmp -s "$TMP/page1b" "$TMP/page1"
check "it is rendered again, in the current format, before the daemon says none is pending" rendered_after "$SAID"
check "... with the current text" test "$(sq "SELECT format FROM run_renders WHERE run_id = 1")" = "$format" -a \
	"$(sq "SELECT cases FROM run_renders WHERE run_id = 1")" = "$(cat "$TMP/stored1")"

# 4. A lost run is rendered; frames it stores after are never answered
# from that rendering.
capture_halves 12ee0000000000b2 || { notok "xcb-gen capture"; exit 1; }
"$XCBENCH" --server "$URL" ingest "$TMP/part1" 2>"$TMP/ingest1.err" || { notok "ingest of the first half"; exit 1; }
# summary: status, frames_received and number of cases of run 2's page.
summary() {
	curl -sf "$URL/api/v1/runs/2" | python3 -c 'import json, sys
j = json.load(sys.stdin)
print(j["run"]["status"], j["run"]["frames_received"], len(j["cases"]))'
}
lost_rendered() {
	for _ in $(seq 600); do
		[ "$(sq "SELECT d.frames_received FROM run_renders d JOIN runs r ON r.id = d.run_id \
			WHERE r.id = 2 AND r.status = 'lost'")" = "$((frames / 2))" ] && return 0
		sleep 0.1
	done
	return 1
}
check "the half-sent run, lost, gets its rendering" lost_rendered
read -r status nframes cases < <(summary)
check "its page: lost, $((frames / 2)) frames, some of $ncases cases ($status $nframes $cases)" \
	test "$status $nframes" = "lost $((frames / 2))" -a "$cases" -gt 0 -a "$cases" -lt "$ncases"
"$XCBENCH" --server "$URL" ingest "$TMP/part2" 2>"$TMP/ingest2.err" || { notok "ingest of the second half"; exit 1; }
check "resumed and complete, its page has every frame and case, not the lost rendering ($(summary))" \
	test "$(summary)" = "complete $frames $ncases"
curl -sf "$URL/api/v1/runs/2?cases_limit=1000" >"$TMP/fresh2"
check "... and its cases are those of a page built afresh" \
	cmp -s <(cases_of <(curl -sf "$URL/api/v1/runs/2")) <(cases_of "$TMP/fresh2")
check "the daemon stops cleanly" stop_daemon
