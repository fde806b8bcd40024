#!/bin/bash
# timeout: 240
# The fast path's frame ledger is spans (migration 017, host/src/
# store_ledger.c): a run streamed into a real daemon leaves a row a span of
# consecutive seqs, far fewer than a row a frame (the PostgreSQL server's
# biggest cost a frame, bench/LIMITS.md), and insert-once still holds at
# the database: a daemon restarted mid-run takes retransmitted frames of
# its spans as duplicates (ACKed, stored once), and a span put in the
# database behind the daemon's back (its memory cannot know it) makes the
# batch that meets it go the careful way, each frame stored once. On
# SQLite, and on PostgreSQL (a throwaway cluster, tests/lib/pg.sh).
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
. "$ROOT/tests/lib/pg.sh"
daemon_test "the frame ledger as spans"
trap 'cleanup_daemon; pg_stop' EXIT
TMP=$(mktemp -d "$OUTDIR/daemon.XXXXXX")

# one ENGINE TOKEN: the checks on one engine (q: a query's answer).
one() {
	local e=$1 tok=$2 half rows id f0 before lo dup sent
	capture_halves "$tok" || { notok "$e: xcb-gen capture"; return; }
	half=$((frames / 2))
	start_daemon --open || { notok "$e: daemon starts"; return; }
	"$XCBENCH" --server "$URL" ingest "$TMP/part1" 2>"$TMP/ingest1.err"
	check "$e: the first half ingested" test "$(q "$XCB_LEDGER_COUNT")" = "$half"
	rows=$(q "SELECT (SELECT count(*) FROM frames) + (SELECT count(*) FROM frame_spans)")
	check "$e: its $half frames are $rows ledger rows (spans, and HELLO's row), not a row a frame" \
		test "$rows" -ge 2 -a $((rows * 8)) -le "$half"

	# Restarted mid-run: the spans are what it knows of the run (reg_load).
	check "$e: the daemon stops" stop_daemon
	start_daemon --open || { notok "$e: daemon restarts"; return; }
	"$XCBENCH" --server "$URL" ingest "$TMP/part1" 2>"$TMP/ingest1b.err"
	check "$e: restarted, the first half again: every frame ACKed ($(tail -1 "$TMP/ingest1b.err"))" \
		grep -q "frames acknowledged" "$TMP/ingest1b.err"
	# (the daemon knows the spans from the start, registry.c reg_load: its
	# first ACK says every seq stored, so the sender stops short of the
	# window's end; a daemon that did not know them took each to the
	# writer and ACKed it after a commit: all sent)
	# "(N sent, ...)", or ": N sent (...), M the daemon held already"
	sent=$(sed -n 's/.*[(:] *\([0-9][0-9]*\) sent.*/\1/p' "$TMP/ingest1b.err")
	check "$e: ... known stored at once: $sent of $half sent" test "${sent:-$half}" -lt "$half"
	dup=$(pyjson "$URL/api/v1/health" '"%d %d" % (d["frames"]["stored"], d["frames"]["duplicate"])')
	check "$e: ... as duplicates, stored nothing (stored, duplicates: $dup)" test "${dup% *}" = 0 -a "${dup#* }" -gt 0
	check "$e: ... the ledger unchanged" test "$(q "$XCB_LEDGER_COUNT")" = "$half"

	# A span of three seqs of the second half, put in behind the daemon.
	id=$(q "SELECT id FROM runs WHERE token = '$tok'")
	f0=$(q "SELECT count(*) FROM frames")
	lo=$((half + 3))
	w "INSERT INTO frame_spans(run_id, lo, hi, received) VALUES ($id, $lo, $((lo + 2)), 0)"
	"$XCBENCH" --server "$URL" ingest "$TMP/part2" 2>"$TMP/ingest2.err"
	check "$e: the second half: every frame ACKed" grep -q "frames acknowledged" "$TMP/ingest2.err"
	check "$e: each seq in the ledger once ($(q "$XCB_LEDGER_COUNT") of $frames)" \
		test "$(q "$XCB_LEDGER_COUNT")" = "$frames" -a \
		"$(q "SELECT count(*) FROM (SELECT run_id, seq FROM $XCB_LEDGER f GROUP BY run_id, seq HAVING count(*) > 1) d")" = 0
	check "$e: the three the span claimed not stored again ($(q "SELECT frames_received FROM runs"))" \
		test "$(q "SELECT frames_received FROM runs")" = $((frames - 3))
	before=$(q "SELECT count(*) FROM frames")
	check "$e: the batch meeting the span went the careful way (frames rows $f0 -> $before)" \
		test "$before" -gt $((f0 + 1))
	stop_daemon
	unset DB
}

# q SQL: a query's answer; w SQL: a write, committed.
q() { dbq "$DB" "$1"; }
w() {
	python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1], timeout=10)
c.execute(sys.argv[2])
c.commit()' "$DB" "$1"
}
one SQLite 5a0e000000000017

pg_test_db spans cleanup_daemon
DB=$(pg_url spans)
q() { pg_psql spans "$1"; }
w() { pg_psql spans "$1" >/dev/null; }
one PostgreSQL 5a0e000000000018
