#!/bin/bash
# timeout: 120
# xcb-copy interrupted (README "Several labs, one history": an operator's
# Ctrl-C while moving a lab's history): it stops between two runs, says how
# far it got and that the same command again copies the rest, exits 130;
# every run it copied is whole; the second copy adds exactly the others, a
# third nothing. Killed at once, it used to print nothing. SQLite to SQLite
# (xcb-copy's other store): the signal path is the engine's business of
# neither.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "xcb-copy interrupted"
COPY=$ROOT/host/build/xcb-copy

# The source: 300 small runs (a copy of ~10 ms each: SIGINT at the first
# progress line, 50 runs in, lands with ~250 still to go).
start_daemon --open || { notok "daemon starts"; exit 1; }
for k in 1 2 3 4 5; do	# xcb-gen makes at most 64 runs a call
	"$XCB_GEN" --server "127.0.0.1:$PORT" --runs 60 --reps 2 --token c${k}000 >/dev/null 2>&1
done
check "300 runs in the source" test "$(dbq "$DB" "SELECT count(*) FROM runs WHERE status = 'complete'")" = 300
check "SIGTERM: the daemon stops" stop_daemon
DST=$TMP/dest.db

"$COPY" --from "$DB" --db "$DST" --lab lab-a >"$TMP/out1" 2>"$TMP/err1" &
cp=$!
for i in $(seq 400); do
	grep -q "runs read" "$TMP/err1" && break
	sleep 0.05
done
kill -INT $cp
wait $cp
rc=$?
diag "$(cat "$TMP/err1" "$TMP/out1" | tr '\n' '|')"
n1=$(dbq "$DST" "SELECT count(*) FROM runs")
check "interrupted: exit 130 ($rc)" test "$rc" = 130
check "... says how far it got and to run it again" \
	grep -qE "^xcb-copy: interrupted \(SIGINT\) after [0-9]+ runs: each run copied is whole; the same command again copies the rest" "$TMP/err1"
check "... its summary says it was interrupted, and its count is the store's ($n1)" \
	grep -qE "^$n1 runs copied, 0 already there, .*\(interrupted\)$" "$TMP/out1"
check "... part of the runs copied ($n1 of 300)" test "$n1" -gt 0 -a "$n1" -lt 300
check "... each of them whole (every frame of each copied run)" \
	test "$(dbq "$DST" "SELECT count(*) FROM runs r LEFT JOIN (SELECT run_id, count(*) AS n FROM $XCB_LEDGER f GROUP BY run_id) l ON l.run_id = r.id WHERE COALESCE(l.n, 0) != r.frames_received")" = 0

"$COPY" --from "$DB" --db "$DST" --lab lab-a >"$TMP/out2" 2>"$TMP/err2"
rc=$?
check "the same command again: exit 0 ($rc), the rest copied" \
	bash -c "[ $rc = 0 ] && grep -qE '^$((300 - n1)) runs copied, $n1 already there' '$TMP/out2'"
check "... every run and frame of the source, once" \
	test "$(dbq "$DST" "SELECT count(*) || ',' || ($XCB_LEDGER_COUNT) FROM runs")" = \
	"$(dbq "$DB" "SELECT count(*) || ',' || ($XCB_LEDGER_COUNT) FROM runs")"
"$COPY" --from "$DB" --db "$DST" --lab lab-a >"$TMP/out3" 2>&1
check "a third copy adds nothing" grep -q "^0 runs copied, 300 already there" "$TMP/out3"
