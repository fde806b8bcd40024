#!/bin/bash
# timeout: 300
# Moving a lab's history (issue 24): a SQLite database as `make run` leaves
# it (a daemon's --db: two runs ingested from the committed serial captures,
# a label, a job) is copied into PostgreSQL under a lab name with
# host/build/xcb-copy. Every table's counts are equal, `xcbench compare`
# prints the same (but for the lab it names) before (daemon on SQLite) and after (daemon on
# PostgreSQL), and a second copy adds nothing. The lab's ended jobs (with
# their events, linked to their runs) and its baselines (their run ids
# mapped) come along too; a job that has not ended stays behind. The
# machines of the ended jobs come under the lab too (M2, set up on the lab's
# daemon, no runs; M3, which only its job names): they came without one, or
# not at all ("No lab" on the lab page). A machine the store has in another
# lab stays there, said. The same
# copy by xcb-copy built with ASan/UBSan (host/build/san/xcb-copy-asan) into
# a second database: no memory error, no leak at its exit, the same rows.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
. "$ROOT/tests/lib/pg.sh"
pg_copy_test "sqlite -> PostgreSQL copy"
FIX=$ROOT/tests/fixtures

admin_daemon copy-admin
for f in qemu-smp4 xcbgen-crash; do
	gzip -dc "$FIX/$f.serial.log.gz" >"$TMP/$f.log"
	"$XCBENCH" --server "$URL" --token-file "$TMP/token" ingest "$TMP/$f.log" >/dev/null 2>"$TMP/$f.err"
	check "ingest $f into SQLite" grep -q "frames acknowledged" "$TMP/$f.err"
done
curl -s -X PATCH "${ADMIN[@]}" "$URL/api/v1/runs/1" -d '{"label": "before-copy"}' >/dev/null
curl -s -X POST "${ADMIN[@]}" "$URL/api/v1/jobs" -d '{"mac": "52:54:00:00:00:01", "suite": "quick"}' >/dev/null
# A machine that asked for its boot: its record and its pending run.
check "a machine boots (its record, a pending run)" curl -sf -o /dev/null "$URL/boot.ipxe?mac=52:54:00:00:00:01"
"$XCBENCH" --server "$URL" compare 1 2 >"$TMP/cmp-sqlite.txt" 2>&1
"$XCBENCH" --server "$URL" compare 1 1 --algo-a locked --algo-b lockless >"$TMP/cmp2-sqlite.txt" 2>&1
check "xcbench compare 1 2 on SQLite: $(wc -l <"$TMP/cmp-sqlite.txt") lines" test -s "$TMP/cmp-sqlite.txt"
# An ended job (queued behind the booted one, then cancelled: stage events)
# and a baseline of the booted machine's run.
jid=$(curl -s -X POST "${ADMIN[@]}" "$URL/api/v1/jobs" -d '{"mac": "52:54:00:00:00:01", "suite": "seed"}' |
	python3 -c 'import json, sys; print(json.load(sys.stdin)["job"]["id"])')
curl -s -X POST "${ADMIN[@]}" "$URL/api/v1/jobs/$jid/cancel" >/dev/null
bl=$(curl -s -X POST "${ADMIN[@]}" "$URL/api/v1/baselines" -d '{"runs": [3]}')
# M2: a machine set up on the lab's daemon without --lab, M3 only named by
# a job: each an ended job, no run.
M2=52:54:00:aa:00:02 M3=52:54:00:aa:00:03
"$XCBENCH" --server "$URL" --token-file "$TMP/token" machine set $M2 --power manual >/dev/null
for m in $M2 $M3; do
	j=$(curl -s -X POST "${ADMIN[@]}" "$URL/api/v1/jobs" -d "{\"mac\": \"$m\", \"suite\": \"quick\"}" |
		python3 -c 'import json, sys; print(json.load(sys.stdin)["job"]["id"])')
	curl -s -X POST "${ADMIN[@]}" "$URL/api/v1/jobs/$j/cancel" >/dev/null
done
check "three cancelled jobs and a baseline in SQLite ($bl)" test "$(dbq "$DB" "SELECT (SELECT count(*) FROM jobs WHERE stage = 'cancelled') || ' ' || (SELECT count(*) FROM baselines)")" = "3 1"
check "SIGTERM: the SQLite daemon stops" stop_daemon
SQ=$DB

pg_test_db central cleanup_daemon
PGDB=$(pg_url central)
"$COPY" --from "$SQ" --db "$PGDB" --lab old-lab >"$TMP/copy1.out" 2>"$TMP/copy1.err"
rc=$?
diag "first copy: $(cat "$TMP/copy1.out") $(cat "$TMP/copy1.err")"
check "first copy: exit 0, 3 runs copied" bash -c "[ $rc = 0 ] && grep -q '^3 runs copied, 0 already there' '$TMP/copy1.out'"
for t in runs frames frame_spans cases results histogram_chunks sample_chunks events; do
	a=$(dbq "$SQ" "SELECT count(*) FROM $t")
	b=$(pg_psql central "SELECT count(*) FROM $t")
	check "$t: $a rows in SQLite, $b in PostgreSQL" test "$a" = "$b" -a "$a" -gt 0
done
a=$(dbq "$SQ" "SELECT count(*) FROM machines")
check "machines: SQLite's $a and M3, which only its job named ($(pg_psql central "SELECT count(*) FROM machines"))" \
	test "$(pg_psql central "SELECT count(*) FROM machines")" = $((a + 1))
check "jobs: the ended ones copied, the booting one left ($(grep -o '[0-9]* jobs copied.*' "$TMP/copy1.out"))" \
	test "$(pg_psql central "SELECT string_agg(stage, ' ' ORDER BY id) FROM jobs")" = "cancelled cancelled cancelled"
a=$(dbq "$SQ" "SELECT count(*) FROM job_events WHERE job_id IN (SELECT id FROM jobs WHERE stage = 'cancelled')")
check "job_events: the ended jobs' $a in both" test "$a" -gt 0 -a "$(pg_psql central "SELECT count(*) FROM job_events")" = "$a"
check "baselines: 1 in both, naming the copied run (by its token)" test "$(pg_psql central "SELECT b.runs || ' ' || r.token FROM baselines b, runs r WHERE r.id = 3")" = "[3] $(dbq "$SQ" "SELECT token FROM runs WHERE id = 3")"
check "the copied runs and machines are lab old-lab" test "$(pg_psql central "SELECT (SELECT count(*) FROM runs WHERE lab = 'old-lab') || ' ' || (SELECT count(*) FROM machines WHERE lab = 'old-lab')")" = "3 3"
check "... M3, which no boot or run ever showed, is never seen (0, machines_db.h), not seen when its job was made ($(pg_psql central "SELECT first_seen || ' ' || last_seen FROM machines WHERE mac = '$M3'"))" \
	test "$(pg_psql central "SELECT first_seen || ' ' || last_seen FROM machines WHERE mac = '$M3'")" = "0 0"
check "... M2, which the SQLite store had, keeps its seen times" \
	test "$(pg_psql central "SELECT first_seen || ' ' || last_seen FROM machines WHERE mac = '$M2'")" = "$(dbq "$SQ" "SELECT first_seen || ' ' || last_seen FROM machines WHERE mac = '$M2'")"
check "... M2 and M3, the machines of ended jobs alone, too ($(pg_psql central "SELECT string_agg(mac || '=' || coalesce(lab, '-'), ' ' ORDER BY mac) FROM machines WHERE mac IN ('$M2', '$M3')"))" \
	test "$(pg_psql central "SELECT string_agg(mac || '=' || coalesce(lab, '-'), ' ' ORDER BY mac) FROM machines WHERE mac IN ('$M2', '$M3')")" = "$M2=old-lab $M3=old-lab"
"$COPY" --from "$SQ" --db "$PGDB" --lab old-lab >"$TMP/copy2.out" 2>&1
rc=$?
check "second copy: exit 0, adds nothing ($(cat "$TMP/copy2.out"))" \
	bash -c "[ $rc = 0 ] && grep -q '^0 runs copied, 3 already there, 0 rows copied; 0 jobs copied (0 events), 3 already there, 1 not ended (left in the source); 0 baselines copied, 1 already there' '$TMP/copy2.out'"
check "... the jobs, job events and baselines counts unchanged" test "$(pg_psql central "SELECT (SELECT count(*) FROM jobs) || ' ' || (SELECT count(*) FROM job_events) || ' ' || (SELECT count(*) FROM baselines)")" = "3 $a 1"
check "... the frames count unchanged" test "$(pg_psql central "$XCB_LEDGER_COUNT")" = "$(dbq "$SQ" "$XCB_LEDGER_COUNT")"

# Progress: the first copy said how many runs it copies; a copy whose run
# takes long (here the store's frames table locked for 3 s by another
# session) says how far it got within 2 s of work, not only every 50 runs
# (a lab's big runs left it silent for minutes).
check "first copy: it says first how many runs it copies ($(head -1 "$TMP/copy1.err"))" \
	grep -qx "xcb-copy: 3 runs in $SQ, copying into lab old-lab (a run already there is skipped)" "$TMP/copy1.err"
pg_createdb central3
{ "$PG_BIN/pg_dump" -s "$PGDB"; "$PG_BIN/pg_dump" -a -t xcb_schema_version "$PGDB"; } |
	"$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 "$(pg_url central3)" >/dev/null
# M2 is another lab's in this store already: it stays there, said.
pg_psql central3 "INSERT INTO machines(mac, first_seen, last_seen, lab) VALUES ('$M2', 1, 1, 'lab-b')" >/dev/null
"$PG_BIN/psql" -X -q "$(pg_url central3)" -c "BEGIN; LOCK TABLE frames IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(3); COMMIT" >/dev/null &
LOCKER=$!
for _ in $(seq 100); do
	[ "$(pg_psql central3 "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE c.relname = 'frames' AND l.granted AND l.mode = 'AccessExclusiveLock'")" = 1 ] && break
	sleep 0.05
done
"$COPY" --from "$SQ" --db "$(pg_url central3)" --lab old-lab >"$TMP/copy4.out" 2>"$TMP/copy4.err"
rc=$?
wait "$LOCKER"
diag "slow copy: exit $rc: $(tr '\n' '|' <"$TMP/copy4.err")"
check "a slow copy: exit 0, 3 runs copied" bash -c "[ $rc = 0 ] && grep -q '^3 runs copied, 0 already there' '$TMP/copy4.out'"
check "... its first run, 3 s in, is followed by a progress line (1 of 3)" \
	grep -qx "xcb-copy: 1 of 3 runs read, 1 copied" "$TMP/copy4.err"
check "... M2, lab-b's in that store, stays lab-b's ($(pg_psql central3 "SELECT lab FROM machines WHERE mac = '$M2'"))" \
	test "$(pg_psql central3 "SELECT lab FROM machines WHERE mac = '$M2'")" = lab-b
check "... said once" test "$(grep -c "^xcb-copy: machine $M2 is in lab 'lab-b' in --db: it stays there (the copied runs and jobs are of lab 'old-lab'; " "$TMP/copy4.err")" = 1

TMP2=$(mktemp -d "$OUTDIR/daemon.XXXXXX")
DPID=
TMP=$TMP2 DB=$PGDB start_daemon --lab central-lab --token-file "$TMP/token" || { notok "a daemon starts on PostgreSQL"; exit 1; }
"$XCBENCH" --server "$URL" compare 1 2 >"$TMP2/cmp-pg.txt" 2>&1
"$XCBENCH" --server "$URL" compare 1 1 --algo-a locked --algo-b lockless >"$TMP2/cmp2-pg.txt" 2>&1
# The copied runs are lab old-lab's, so compare's A:/B: lines on the
# central store name that lab (across labs, which side is whose); the
# SQLite daemon had no labs. Apart from that, every word is the same: the
# header lines are joined before comparing (the lab moves where they wrap).
unwrap() { awk '/^   / { sub(/^ +/, ""); printf " %s", $0; next } NR > 1 { print "" } { printf "%s", $0 } END { print "" }' "$1"; }
for f in cmp cmp2; do
	unwrap "$TMP/$f-sqlite.txt" >"$TMP2/$f-sqlite-joined.txt"
	unwrap "$TMP2/$f-pg.txt" >"$TMP2/$f-pg-joined.txt"
	sed 's/ lab old-lab;//' "$TMP2/$f-pg-joined.txt" >"$TMP2/$f-pg-nolab.txt"
	diff "$TMP2/$f-sqlite-joined.txt" "$TMP2/$f-pg-nolab.txt" | head -8 | while read -r l; do diag "$l"; done
done
check "compare on PostgreSQL names the copied runs' lab on its A: and B: lines" \
	bash -c "[ \$(grep -c '^[AB]: .* lab old-lab;' '$TMP2/cmp-pg-joined.txt') = 2 ] && ! grep -q ' lab ' '$TMP2/cmp-sqlite-joined.txt'"
check "xcbench compare 1 2: the same output after the copy, the lab aside" cmp "$TMP2/cmp-sqlite-joined.txt" "$TMP2/cmp-pg-nolab.txt"
check "xcbench compare 1 1 locked vs lockless: the same output, the lab aside" cmp "$TMP2/cmp2-sqlite-joined.txt" "$TMP2/cmp2-pg-nolab.txt"
"$XCBENCH" --server "$URL" machine list >"$TMP2/mlist.txt"
check "xcbench machine list on PostgreSQL: M2 and M3 in lab old-lab ($(grep -E "$M2|$M3" "$TMP2/mlist.txt" | tr -s ' ' | tr '\n' '|'))" \
	test "$(awk -v a=$M2 -v b=$M3 '$1 == a || $1 == b { print $1, $2 }' "$TMP2/mlist.txt" | tr '\n' ' ')" = "$M2 old-lab $M3 old-lab "
# The first copy's rows, for the copy under ASan below (before M3's run).
q="SELECT (SELECT count(*) FROM runs) || ' ' || ($XCB_LEDGER_COUNT) || ' ' || (SELECT count(*) FROM results) || ' ' ||
   (SELECT count(*) FROM sample_chunks) || ' ' || (SELECT count(*) FROM jobs) || ' ' || (SELECT count(*) FROM baselines)"
FIRST_ROWS=$(pg_psql central "$q")
# A machine never seen, as the API and the CLI show it: no dates, listed.
seen() { pyjson "$URL/api/v1/machines" "[(m['first_seen'], m['last_seen']) for m in d['machines'] if m['mac'] == '$1']"; }
check "GET machines: M3 never seen, first_seen and last_seen null ($(seen $M3))" test "$(seen $M3)" = "[(None, None)]"
check "GET machines/M3: the same ($(pyjson "$URL/api/v1/machines/$M3" 'd["machine"]["first_seen"], d["machine"]["last_seen"]'))" \
	test "$(pyjson "$URL/api/v1/machines/$M3" 'd["machine"]["first_seen"], d["machine"]["last_seen"]')" = "None None"
check "GET lab lists M3 (idle)" test "$(pyjson "$URL/api/v1/lab" "[m['state'] for m in d['machines'] if m['mac'] == '$M3']")" = "['idle']"
check "GET machines: M2 keeps its dates ($(seen $M2))" \
	pyjson "$URL/api/v1/machines" "[m for m in d['machines'] if m['mac'] == '$M2' and m['first_seen'] and m['last_seen']] or sys.exit(1)"
# Its first run (a capture for it): seen now, both times.
curl -sf -o /dev/null -X POST "${ADMIN[@]}" "$URL/api/v1/runs" -d "{\"mac\": \"$M3\", \"suite\": \"quick\", \"label\": \"m3-first\"}"
check "M3's first run: it is seen, first_seen = last_seen ($(seen $M3))" \
	pyjson "$URL/api/v1/machines" "[m for m in d['machines'] if m['mac'] == '$M3' and m['first_seen'] and m['first_seen'] == m['last_seen']] or sys.exit(1)"
check "the label came along, the lab given" test "$(pyjson "$URL/api/v1/runs/1" 'd["run"]["label"], d["run"]["lab"]')" = "before-copy old-lab"
check "SIGTERM: the PostgreSQL daemon stops" stop_daemon
rm -rf "$TMP2"

# The copy again, by the ASan/UBSan/LSan build, into a database of its own:
# a memory error or undefined behaviour aborts it, a leak at its exit makes
# its status 1; its rows must be the first copy's.
ACOPY=$ROOT/host/build/san/xcb-copy-asan
check "host/build/san/xcb-copy-asan is built (make -C host tests)" test -x "$ACOPY"
pg_createdb central2
ASAN_OPTIONS=detect_leaks=1 "$ACOPY" --from "$SQ" --db "$(pg_url central2)" --lab old-lab >"$TMP/copy3.out" 2>"$TMP/copy3.err"
rc=$?
grep -E -A12 -m2 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$TMP/copy3.err" | sed 's/^/# /'
check "the copy under ASan/UBSan/LSan: exit $rc, no report, 3 runs copied" \
	bash -c "[ $rc = 0 ] && ! grep -qE 'Sanitizer|runtime error:' '$TMP/copy3.err' && grep -q '^3 runs copied' '$TMP/copy3.out'"
check "... its rows are the first copy's ($(pg_psql central2 "$q"))" test "$(pg_psql central2 "$q")" = "$FIRST_ROWS"
