#!/bin/bash
# timeout: 180
# Forged results. Every run token used to be in the anonymous run list and
# runs.csv, and a token was all a frame needed: RESULT/CASE were REPLACEd on a
# complete run (p50 1200→99999, lockless→locked) and an ERROR turned it
# crashed. Now tokens are for admins only, a run is bound to the source of
# its first frame, a finished run takes only duplicates, and a frame that
# would change a stored row is refused and counted.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "forged frames"

admin_daemon forge-admin
S=127.0.0.1:$PORT
TOK=f02e000000000001
curl -s -o /dev/null "${ADMIN[@]}" -X POST -d "{\"token\":\"$TOK\"}" "$URL/api/v1/runs"
"${HOSTILE[@]}" run $S $TOK >/dev/null
XCB_ADMIN=forge-admin
ID=$(pyjson "$URL/api/v1/runs?token=$TOK" 'd["runs"][0]["id"]')
XCB_ADMIN=
state() { XCB_ADMIN=forge-admin pyjson "$URL/api/v1/runs/$ID" '"%s %s %s" % (d["run"]["status"], d["cases"][0]["algo"], d["cases"][0]["stats"]["p50"])'; }
check "the real run is complete (p50 1200, lockless)" [ "$(state)" = "complete lockless 1200" ]

# --- the token is a secret ---
for path in "/api/v1/runs" "/api/v1/runs.csv" "/api/v1/runs/$ID" "/api/v1/runs/$ID.csv" \
	"/api/v1/compare?a=$ID&b=$ID" "/api/v1/compare.csv?a=$ID&b=$ID" "/api/v1/machines" "/api/v1/jobs" "/api/v1/health"; do
	body=$(curl -s "$URL$path")
	check "anonymous $path does not show the token" [ -n "$body" -a -z "$(grep -i "$TOK" <<<"$body")" ]
done
check "anonymous ?token= filter refused (400)" [ "$(curl -s -o /dev/null -w '%{http_code}' "$URL/api/v1/runs?token=$TOK")" = 400 ]
check "the admin sees it" grep -q "$TOK" <(curl -s "${ADMIN[@]}" "$URL/api/v1/runs")
check "runs.csv keeps its token column, empty for anonymous" \
	[ "$(curl -s "$URL/api/v1/runs.csv" | sed -n 2p | cut -d, -f1-2)" = "$ID," ]

# --- forged frames on the finished run (same source, token known) ---
r1=$("${HOSTILE[@]}" frame $S $TOK 4 result 99999)
r2=$("${HOSTILE[@]}" frame $S $TOK 2 result 99999)
r3=$("${HOSTILE[@]}" frame $S $TOK 9 case 'id=1\nkind=xcall\nalgo=locked\n')
r4=$("${HOSTILE[@]}" frame $S $TOK 5 error 'forged crash')
diag "replies: new seq '$r1', old seq '$r2', case '$r3', error '$r4'"
check "nothing changed: still complete, lockless, p50 1200 ($(state))" [ "$(state)" = "complete lockless 1200" ]
check "frames past DONE refused (counted as closed)" [ "$(pyjson "$URL/api/v1/health" 'd["rejected"]["closed"]')" = 3 ]
check "a replayed seq is only a duplicate (re-ACKed CLOSED)" [ "${r2%% *}" = closed ]
check "no event from the forged ERROR" [ "$(pyjson "$URL/api/v1/runs/$ID/events" 'len(d["events"])')" = 0 ]

# --- insert-once on a running run ---
T2=f02e000000000002
curl -s -o /dev/null "${ADMIN[@]}" -X POST -d "{\"token\":\"$T2\"}" "$URL/api/v1/runs"
"${HOSTILE[@]}" frame $S $T2 0 hello 'cpus=4\ntsc_khz=2000000\n' >/dev/null
"${HOSTILE[@]}" frame $S $T2 1 case 'id=1\nkind=xcall\nalgo=lockless\nmask=2\n' >/dev/null
"${HOSTILE[@]}" frame $S $T2 2 result 1200 >/dev/null
ID2=$(XCB_ADMIN=forge-admin pyjson "$URL/api/v1/runs?token=$T2" 'd["runs"][0]["id"]')
s2() { pyjson "$URL/api/v1/runs/$ID2" '"%s %s %s %s" % (d["run"]["status"], d["cases"][0]["algo"], d["cases"][0]["stats"]["p50"], d["run"]["cpus"])'; }
check "running run stored (lockless, p50 1200, 4 cpus)" [ "$(s2)" = "running lockless 1200 4" ]
c1=$("${HOSTILE[@]}" frame $S $T2 3 result 99999)
c2=$("${HOSTILE[@]}" frame $S $T2 4 case 'id=1\nkind=xcall\nalgo=locked\nmask=2\n')
c3=$("${HOSTILE[@]}" frame $S $T2 5 hello 'cpus=64\n')
c4=$("${HOSTILE[@]}" frame $S $T2 6 case 'id=1\nkind=xcall\nalgo=lockless\nmask=2\n')
diag "replies: result '$c1', case '$c2', hello '$c3', same case '$c4'"
check "a second RESULT for the same key is refused, not REPLACEd ($(s2))" [ "$(s2)" = "running lockless 1200 4" ]
check "refusals are counted as conflicts (3)" [ "$(pyjson "$URL/api/v1/health" 'd["rejected"]["conflict"]')" = 3 ]
check "refused frames are not ACKed (the cumulative edge stays at 3)" [ "$c3" = none -o "${c3#* }" = next=3 ]
check "the same CASE again is harmless (stored, ACKed)" [ "${c4%% *}" = ok ]
# A CASE whose last id is no number (the first one passes the collector):
# refused like a conflict, never a failed batch
# (which would stall every run's ACKs: fuzz_frame found it).
c5=$("${HOSTILE[@]}" frame $S $T2 7 case 'id=7\nid=x\nkind=xcall\nalgo=locked\n')
check "a CASE whose last id is no number is refused, not ACKed ($c5)" [ "$c5" = none -o "${c5#* }" = next=7 ]
r=$(pyjson "$URL/api/v1/health" '"%d %d" % (d["rejected"]["conflict"], d["rejected"]["store_failed"])')
check "... and is no failed write (conflict, store_failed: $r)" [ "${r#* }" = 0 ]

# --- insert-once of histogram and sample chunks on a running run ---
# A chunk that overlaps a stored one of its stream is refused (a conflict,
# not ACKed) and stores nothing; one beside it goes in. Each frame is a
# batch of its own, so the writer's fast path meets the stored chunk (on
# SQLite its probe, on PostgreSQL the block statement's).
T3=f02e000000000003
curl -s -o /dev/null "${ADMIN[@]}" -X POST -d "{\"token\":\"$T3\"}" "$URL/api/v1/runs"
"${HOSTILE[@]}" frame $S $T3 0 hello 'cpus=4\ntsc_khz=2000000\n' >/dev/null
"${HOSTILE[@]}" frame $S $T3 1 case 'id=1\nkind=xcall\nalgo=lockless\nmask=2\n' >/dev/null
conflicts() { pyjson "$URL/api/v1/health" 'd["rejected"]["conflict"]'; }
k0=$(conflicts)
c1=$("${HOSTILE[@]}" frame $S $T3 2 samples 0,64)
c2=$("${HOSTILE[@]}" frame $S $T3 3 samples 32,64)
c3=$("${HOSTILE[@]}" frame $S $T3 4 samples 64,64)
c4=$("${HOSTILE[@]}" frame $S $T3 5 histo 100,10)
c5=$("${HOSTILE[@]}" frame $S $T3 6 histo 109,4)
c6=$("${HOSTILE[@]}" frame $S $T3 7 histo 110,4)
diag "replies: samples '$c1' '$c2' '$c3', histo '$c4' '$c5' '$c6'"
check "a first SAMPLES chunk is stored and ACKed ($c1)" [ "$c1" = "ok next=3" ]
check "a SAMPLES chunk overlapping it is refused, not ACKed ($c2)" [ "$c2" = none -o "$c2" = "ok next=3" ]
check "a SAMPLES chunk beside it is stored ($c3)" [ "${c3%% *}" = ok ]
check "a HISTO chunk overlapping a stored one is refused, not ACKed ($c4, $c5)" \
	[ "${c4%% *}" = ok ] && [ "$c5" = none -o "$c5" = "ok next=3" ]
check "a HISTO chunk beside it is stored ($c6)" [ "${c6%% *}" = ok ]
check "the two overlaps are counted as conflicts" [ "$(($(conflicts) - k0))" = 2 ]
ID3=$(XCB_ADMIN=forge-admin pyjson "$URL/api/v1/runs?token=$T3" 'd["runs"][0]["id"]')
stored=$(pyjson "$URL/api/v1/runs/$ID3" 'd["run"]["frames_received"]')
check "the run stored 6 frames (HELLO, CASE, 2 SAMPLES, 2 HISTO: $stored)" [ "$stored" = 6 ]

# --- bound to the first frame's source ---
if ip -4 addr show lo | grep -q '127.0.0.1/8'; then
	w=$("${HOSTILE[@]}" frame $S $T2 7 log 'from elsewhere' --src 127.0.0.2)
	check "a frame from another address gets no reply ($w)" [ "$w" = none ]
	check "... and is counted as wrong_source" [ "$(pyjson "$URL/api/v1/health" 'd["rejected"]["wrong_source"]')" = 1 ]
	check "... and stores nothing" [ "$(pyjson "$URL/api/v1/runs/$ID2/events" 'len(d["events"])')" = 0 ]
	stop_daemon
	DB=$DB start_daemon --token-file "$TMP/token" || { notok "daemon restarts"; exit 1; }
	w=$("${HOSTILE[@]}" frame 127.0.0.1:$PORT $T2 7 log 'from elsewhere' --src 127.0.0.2)
	check "the binding survives a restart ($w)" [ "$w" = none ]
	w=$("${HOSTILE[@]}" frame 127.0.0.1:$PORT $T2 7 log 'from the machine')
	check "the machine itself goes on (${w%% *})" [ "${w%% *}" = ok ]
else
	skip "source binding" "loopback is not 127.0.0.1/8"
fi
