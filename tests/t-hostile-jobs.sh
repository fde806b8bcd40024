#!/bin/bash
# timeout: 120
# Issue 26, item 2: a queued job goes only to the machine it is for. Anyone
# who knew a MAC used to take its job: from 127.0.0.2, GET /boot.json with
# serial=ATTACKER and one HELLO with the returned token consumed the job and
# rewrote the machine's serial. Now a job is rendered only to the machine's
# known boot address (the first allowed boot whose HELLO came from where it
# asked), else to an allowed network (--boot-from; default this host's
# subnets and 127.0.0.1); uuid/serial are only filled in, never rewritten
# by a GET; the job records the address that consumed it; an admin requeues.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "jobs to strangers"
if ! python3 -c 'import socket; socket.socket().bind(("127.0.0.2", 0))' 2>/dev/null; then
	skip "jobs to strangers" "cannot bind 127.0.0.2"
	exit 0
fi

admin_daemon jobs-admin
XCB_ADMIN=jobs-admin
S=127.0.0.1:$PORT
M=52:54:00:00:99:02
# boot FROM MAC [QUERY]: /boot.json from address FROM; prints "TOKEN SUITE".
boot() {
	curl -s --interface "$1" "$URL/boot.json?mac=$2${3:+&$3}" |
		python3 -c 'import json,sys; a=json.load(sys.stdin)["args"].split(); d=dict(w.split("=",1) for w in a); print(d["run"], d["suite"])'
}
serial() { dbq "$DB" "SELECT coalesce(serial, '') FROM machines WHERE mac = '$1'"; }
pending() { pyjson "$URL/api/v1/jobs?mac=$1&pending=1" 'len(d["jobs"])'; }

# The machine boots once (no job yet): it is known, at 127.0.0.1.
read -r T0 _ < <(boot 127.0.0.1 $M serial=REAL)
"${HOSTILE[@]}" frame $S "$T0" 0 hello 'cpus=4\n' >/dev/null
check "the machine's first boot sets its serial (REAL)" [ "$(serial $M)" = REAL ]
check "... and its known boot address (127.0.0.1)" [ "$(dbq "$DB" "SELECT boot_addr FROM machines WHERE mac = '$M'")" = 127.0.0.1 ]
J=$(curl -s "${ADMIN[@]}" -X POST -d "{\"mac\":\"$M\",\"suite\":\"quick\",\"label\":\"the job\"}" "$URL/api/v1/jobs" |
	python3 -c 'import json,sys; print(json.load(sys.stdin)["job"]["id"])')

# The stranger at 127.0.0.2.
read -r TA SA < <(boot 127.0.0.2 $M serial=ATTACKER)
check "a GET from another address gets the default suite, not the job ($SA)" [ "$SA" = default ]
r=$("${HOSTILE[@]}" frame $S "$TA" 0 hello 'cpus=64\n' --src 127.0.0.2)
check "... its HELLO is stored ($r) but the job stays queued" [ "$(pending $M)" = 1 ]
check "... and the serial is still REAL ($(serial $M))" [ "$(serial $M)" = REAL ]
read -r TB SB < <(boot 127.0.0.2 $M uuid=evil)
check "a second stranger GET: no job either ($SB)" [ "$SB" = default ]

# The machine itself.
read -r T1 S1 < <(boot 127.0.0.1 $M serial=OTHER)
check "the machine's own address gets the job ($S1)" [ "$S1" = quick ]
"${HOSTILE[@]}" frame $S "$T1" 0 hello 'cpus=4\n' >/dev/null
check "its HELLO consumed the job" [ "$(pending $M)" = 0 ]
check "... which records the consuming address" [ "$(dbq "$DB" "SELECT consumed_by FROM jobs WHERE id = $J")" = 127.0.0.1 ]
check "... and a known serial is not rewritten (still REAL)" [ "$(serial $M)" = REAL ]

# Requeue (admin only).
check "requeue: anonymous 401" [ "$(curl -s -o /dev/null -w '%{http_code}' -X POST "$URL/api/v1/jobs/$J/requeue")" = 401 ]
check "requeue: 200" [ "$(curl -s -o /dev/null -w '%{http_code}' "${ADMIN[@]}" -X POST "$URL/api/v1/jobs/$J/requeue")" = 200 ]
check "... the job is pending again, no run, no address" \
	[ "$(pending $M) $(dbq "$DB" "SELECT coalesce(run_id, '-'), coalesce(consumed_by, '-') FROM jobs WHERE id = $J")" = "1 - -" ]
check "requeue of a pending job: 404" [ "$(curl -s -o /dev/null -w '%{http_code}' "${ADMIN[@]}" -X POST "$URL/api/v1/jobs/$J/requeue")" = 404 ]
check "requeue of no job: 404" [ "$(curl -s -o /dev/null -w '%{http_code}' "${ADMIN[@]}" -X POST "$URL/api/v1/jobs/99999/requeue")" = 404 ]
check "requeue: bad forget_address 400" [ "$(curl -s -o /dev/null -w '%{http_code}' "${ADMIN[@]}" -X POST -d '{"forget_address":3}' "$URL/api/v1/jobs/$J/requeue")" = 400 ]

# A machine never booted: only an allowed network (default: not 127.0.0.2).
N=52:54:00:00:99:03
curl -s -o /dev/null "${ADMIN[@]}" -X POST -d "{\"mac\":\"$N\",\"suite\":\"quick\"}" "$URL/api/v1/jobs"
read -r TN SN < <(boot 127.0.0.2 $N serial=ATTACKER)
"${HOSTILE[@]}" frame $S "$TN" 0 hello 'cpus=1\n' --src 127.0.0.2 >/dev/null
check "a new machine's job is not handed to 127.0.0.2 ($SN)" [ "$SN" = default -a "$(pending $N)" = 1 ]
check "... nor its serial set by that boot" [ -z "$(serial $N)" ]

# The power driver's hook: a job bound to a boot that is over is not rendered.
dbq "$DB" "SELECT 1" >/dev/null
python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1], timeout=10); c.execute("UPDATE jobs SET bound_until = 1 WHERE id = ?", (int(sys.argv[2]),)); c.commit()' "$DB" "$J"
read -r _ SJ < <(boot 127.0.0.1 $M)
check "a job bound to a boot that is over is not rendered ($SJ)" [ "$SJ" = default ]
stop_daemon

# --boot-from names the networks: 127.0.0.2 allowed now.
DB=$DB start_daemon --token-file "$TMP/token" --boot-from 127.0.0.2/32 || { notok "daemon restarts"; exit 1; }
grep -q "handed to boot requests from 127.0.0.2/32" "$TMP/daemon.log" && ok "start-up names the allowed networks" || notok "start-up names the allowed networks"
read -r _ SN2 < <(boot 127.0.0.2 $N)
check "--boot-from 127.0.0.2/32: that address gets the new machine's job ($SN2)" [ "$SN2" = quick ]
read -r _ SN3 < <(boot 127.0.0.1 52:54:00:00:99:04)
check "... and 127.0.0.1 is no longer allowed by default (no job queued: default)" [ "$SN3" = default ]
stop_daemon

# Lab mode (--lab): the lab's own networks only, no loopback by default - a
# loopback stranger on the daemon's host gets no job; --boot-from 127.0.0.1/32
# lets QEMU user networking's boots (from 127.0.0.1) in again.
L=52:54:00:00:99:05
DB=$TMP/lab.db start_daemon --token-file "$TMP/token" --lab hostile-lab || { notok "lab daemon starts"; exit 1; }
curl -s -o /dev/null "${ADMIN[@]}" -X POST -d "{\"mac\":\"$L\",\"suite\":\"quick\"}" "$URL/api/v1/jobs"
read -r _ SL < <(boot 127.0.0.1 $L)
check "--lab: a loopback boot request gets no job by default ($SL)" [ "$SL" = default ]
stop_daemon
DB=$TMP/lab.db start_daemon --token-file "$TMP/token" --lab hostile-lab --boot-from 127.0.0.1/32 ||
	{ notok "lab daemon restarts"; exit 1; }
read -r _ SL2 < <(boot 127.0.0.1 $L)
check "--lab --boot-from 127.0.0.1/32: that boot gets its job ($SL2)" [ "$SL2" = quick ]
stop_daemon
for bad in 10.0.0.0/33 banana 1.2.3.4/ 300.1.1.1/8; do
	"$XCBENCHD" --boot-from "$bad" --db "$TMP/x.db" >"$TMP/bad.out" 2>&1
	check "--boot-from '$bad': exit 2 naming it" [ $? = 2 ] && grep -q "boot-from" "$TMP/bad.out"
done
