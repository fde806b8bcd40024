#!/bin/bash
# timeout: 120
# A job's id is given once. SQLite numbers a new row from the table's
# highest id, so deleting the newest pending job handed its id to the next
# job queued (xcbench vm deletes the job it queued when it ends, so the next
# vm's job had the same id). Here: the newest job deleted, then another
# queued, on one daemon and again after a restart; each new job keeps what
# it was queued with. DB may name a PostgreSQL database (t-pg-job-ids.sh).
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "job ids"

admin_daemon ids-admin
M=52:54:00:00:77:01
# queue LABEL: POST a job (3 attempts), prints its id.
queue() {
	curl -s "${ADMIN[@]}" -X POST -d "{\"mac\":\"$M\",\"suite\":\"quick\",\"label\":\"$1\",\"attempts\":3}" \
		"$URL/api/v1/jobs" | python3 -c 'import json,sys; print(json.load(sys.stdin)["job"]["id"])'
}
delete() { curl -s -o /dev/null -w '%{http_code}' "${ADMIN[@]}" -X DELETE "$URL/api/v1/jobs/$1"; }
# job ID: "LABEL ATTEMPTS", or the HTTP status when there is no such job.
job() {
	curl -s -w '\n%{http_code}' "$URL/api/v1/jobs/$1" | python3 -c '
import json, sys
body, code = sys.stdin.read().rsplit("\n", 1)
if code != "200":
    print(code)
else:
    j = json.loads(body)["job"]
    print(j["label"], j["attempts"])'
}

J1=$(queue first)
J2=$(queue second)
check "two jobs queued ($J1, $J2)" test -n "$J1" -a -n "$J2" -a "${J2:-0}" -gt "${J1:-0}"
check "the newest ($J2) is deleted" test "$(delete "$J2")" = 200
J3=$(queue third)
check "the next job has a new id ($J3, not $J2 again)" test "${J3:-0}" -gt "${J2:-0}"
check "... it is the job just queued (label, attempts: $(job "$J3"))" test "$(job "$J3")" = "third 3"
check "... the deleted id names no job ($(job "$J2"))" test "$(job "$J2")" = 404
check "... the first job is untouched ($(job "$J1"))" test "$(job "$J1")" = "first 3"

# Only a queued job is deleted: a cancelled (ended) one keeps its history.
# DELETE took any job not being powered, booted or run, so an ended job's
# events went, and a job another lab's daemon still had to power off (a
# cross-lab cancel) was gone before it could: the machine stayed on.
JC=$(queue cancelled)
curl -s -o /dev/null "${ADMIN[@]}" -X POST -d '{}' "$URL/api/v1/jobs/$JC/cancel"
code=$(curl -s -o "$TMP/del.out" -w '%{http_code}' "${ADMIN[@]}" -X DELETE "$URL/api/v1/jobs/$JC")
check "DELETE of a cancelled job: 409 naming its stage ($code: $(cat "$TMP/del.out"))" \
	bash -c '[ "$1" = 409 ] && grep -q "job $2 is cancelled: only a queued job is deleted" "$3"' _ "$code" "$JC" "$TMP/del.out"
check "... and the job is still there ($(job "$JC"))" test "$(job "$JC")" = "cancelled 3"
check "DELETE of no job: 404" test "$(delete 99999)" = 404

# The floor is in the store, not in the daemon's memory.
check "the newest ($J3) is deleted" test "$(delete "$J3")" = 200
stop_daemon
start_daemon --token-file "$TMP/token" || { notok "the daemon starts again"; exit 1; }
J4=$(queue fourth)
check "after a restart the next job still has a new id ($J4, above $J3)" test "${J4:-0}" -gt "${J3:-0}"
check "... it is the job just queued ($(job "$J4"))" test "$(job "$J4")" = "fourth 3"
# Deleting an older job leaves the numbering as it is.
check "an older job ($J1) is deleted" test "$(delete "$J1")" = 200
J5=$(queue fifth)
check "the next id follows the newest ($J5 = $J4 + 1)" test "${J5:-0}" = $((${J4:-0} + 1))

# A delete whose floor cannot be written keeps the job (SQLite: the table
# taken away under the daemon, then given back).
if [ -f "$DB" ]; then
	dbw() { python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1], timeout=10); c.execute(sys.argv[2]); c.commit()' "$DB" "$1"; }
	dbw "ALTER TABLE id_floors RENAME TO id_floors_away"
	code=$(delete "$J5")
	check "a delete whose id floor cannot be written fails ($code)" test "$code" = 503
	check "... and keeps the job ($(job "$J5"))" test "$(job "$J5")" = "fifth 3"
	dbw "ALTER TABLE id_floors_away RENAME TO id_floors"
	code=$(delete "$J5")
	check "... which deletes once the store can write it ($code)" test "$code" = 200
	J6=$(queue sixth)
	check "... and the next job is above it ($J6 > $J5)" test "${J6:-0}" -gt "${J5:-0}"
fi
stop_daemon
