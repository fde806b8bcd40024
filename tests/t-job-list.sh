#!/bin/bash
# timeout: 60
# `xcbench job list`: the jobs the daemon holds, newest first, one a line
# (ID, MAC, its machine's lab, suite, stage, created, run), where an
# operator had `GET /api/v1/jobs?pending=1` by hand (README sent them to
# it) or `machine show` one MAC at a time. Its filters are the API's:
# --mac, --pending, and --lab (GET /api/v1/jobs?lab=, new, with each job's
# `lab`: its machine's). --json is the API's answer.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "job list"

admin_daemon job-list-admin --lab A --boot-from 127.0.0.1/32
X=("$XCBENCH" --server "$URL" --token-file "$TMP/token")
MA=52:54:00:0c:00:01 MN=52:54:00:0c:00:02
# MA boots from lab A's daemon once: its machine is lab A's. MN only has jobs.
curl -sf -o /dev/null "$URL/boot.ipxe?mac=$MA"
qid() { "${X[@]}" queue --mac "$1" --suite "$2" 2>/dev/null | grep -oE 'job [0-9]+' | cut -d' ' -f2; }
J1=$(qid $MA quick) J2=$(qid $MN seed) J3=$(qid $MA tlb)
"${X[@]}" job cancel "$J2" >/dev/null
check "three jobs queued ($J1 $J2 $J3), job $J2 cancelled" test -n "$J3"

"${X[@]}" job list >"$TMP/all" 2>"$TMP/all.err"
rc=$?
sed 's/^/#   /' "$TMP/all"
check "job list: exit 0, a header and the three, newest first (exit $rc)" \
	sh -c "test $rc = 0 && test \"\$(awk 'NR > 1 { print \$1 }' '$TMP/all' | tr '\n' ' ')\" = '$J3 $J2 $J1 '"
check "... the header names the columns" grep -qE '^ID +MAC +LAB +SUITE +STAGE +CREATED +RUN$' "$TMP/all"
# row ID: the fields of job ID's line but its date
row() { awk -v id="$1" '$1 == id { print $1, $2, $3, $4, $5, $7 }' "$2"; }
check "... job $J3: MA, lab A, tlb, queued, no run ($(row "$J3" "$TMP/all"))" \
	test "$(row "$J3" "$TMP/all")" = "$J3 $MA A tlb queued -"
check "... job $J2: MN, no lab (no machine record), seed, cancelled ($(row "$J2" "$TMP/all"))" \
	test "$(row "$J2" "$TMP/all")" = "$J2 $MN - seed cancelled -"
check "... its created date as the API gives it" \
	grep -qE "^$J1 .* [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]+Z? +-\$" "$TMP/all"

"${X[@]}" job list --pending >"$TMP/p"
check "job list --pending: MA's two, not the cancelled one ($(awk 'NR > 1 { print $1 }' "$TMP/p" | tr '\n' ' '))" \
	test "$(awk 'NR > 1 { print $1 }' "$TMP/p" | tr '\n' ' ')" = "$J3 $J1 "
"${X[@]}" job list --lab A >"$TMP/a"
check "job list --lab A: lab A's machine's jobs ($(awk 'NR > 1 { print $1 }' "$TMP/a" | tr '\n' ' '))" \
	test "$(awk 'NR > 1 { print $1 }' "$TMP/a" | tr '\n' ' ')" = "$J3 $J1 "
"${X[@]}" job list --mac 52-54-00-0c-00-02 >"$TMP/m"
check "job list --mac MN (as 52-54-…): job $J2 alone" \
	test "$(awk 'NR > 1 { print $1 }' "$TMP/m" | tr '\n' ' ')" = "$J2 "
"${X[@]}" job list --lab B >"$TMP/b"
check "job list --lab B: none, said ($(tail -1 "$TMP/b"))" test "$(tail -1 "$TMP/b")" = "(no jobs match)"
n=$("${X[@]}" job list --json | python3 -c 'import json,sys; j=json.load(sys.stdin)["jobs"]; print(len(j), j[0]["lab"], j[1]["lab"])')
check "job list --json: the API's answer, each job with its lab ($n)" test "$n" = "3 A None"

"${X[@]}" job list --mac nope >/dev/null 2>"$TMP/e"
rc=$?
check "job list --mac nope: exit 2, naming --mac ($rc: $(cat "$TMP/e"))" \
	sh -c "test $rc = 2 && grep -q -- '--mac' '$TMP/e'"
"${X[@]}" job list --timeout 5 >/dev/null 2>"$TMP/e"
rc=$?
check "job list --timeout 5: exit 2, --timeout is wait's ($rc)" test $rc = 2
"${X[@]}" job show "$J1" --pending >/dev/null 2>"$TMP/e"
rc=$?
check "job show ID --pending: exit 2, --pending is list's ($rc: $(cat "$TMP/e"))" \
	sh -c "test $rc = 2 && grep -qx 'xcbench job: --pending is list.s' '$TMP/e'"
