#!/bin/bash
# timeout: 300
# Issue 26, item 3: every run is bounded. One token from an anonymous
# /boot.json used to take the database (20,000 HISTO frames: 142 MB) and the
# daemon's memory without bound. Now each run has limits (--run-limit; small
# ones here, the defaults in run_limits.c): past one, a frame is refused (not
# stored, not ACKed), counted (/health rejected.run_limit, runs.limited) and
# the run's events say which limit, once; the database grows no further and
# the daemon's RSS stays within a stated bound. Also: RESULT/HISTO for a case
# never described and a lying DONE are refused; the per-address limit on
# pending job-less runs.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "per-run limits"

admin_daemon limits-admin --run-limit cases=50 --run-limit frames=100 --run-limit histo=2000 \
	--run-limit samples=1000 --run-limit events=40 --run-limit facts=30 --run-limit console=10000
XCB_ADMIN=limits-admin
F=(python3 "$ROOT/tests/runflood.py" 127.0.0.1:$PORT)
# fresh: an anonymous boot's token and run id, for a new MAC (the counter
# lives in a file: fresh runs in a subshell).
fresh() {
	local n=$(($(cat "$TMP/macs" 2>/dev/null || echo 0) + 1))
	echo $n >"$TMP/macs"
	curl -s "$URL/boot.json?mac=52:54:00:26:00:$(printf %02x $n)" |
		python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["args"].split("run=")[1].split()[0], d["run"]["id"])'
}
q() { dbq "$DB" "$1"; }
limit_event() { q "SELECT count(*) FROM events WHERE run_id = $1 AND text LIKE 'limit: $2 %'"; }
rss() { awk '/^VmRSS/ {print int($2 / 1024)}' /proc/$DPID/status; }
# The database's logical size (its pages, the WAL's included): the files
# themselves also hold a WAL that the checkpoints recycle.
dbsize() { dbq "$DB" "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()"; }

# A run's non-empty histogram buckets (what its histogram limit counts):
# the buckets of its chunks (migration 013) less their zero counts, each
# count between commas of its own to be matched whole (printf, not ||:
# the specs below split on '|').
HBUCKETS="SELECT COALESCE(sum(n - (length(c) - length(replace(c, ',0,', ''))) / 3), 0) FROM \
(SELECT n, printf(',%s,', replace(counts, ',', ',,')) AS c FROM histogram_chunks WHERE run_id = ID)"

# Each kind: flood, then check what was kept, the refusal and its event.
# kind N table/count-SQL limit "event text"
for spec in "case 200|SELECT count(*) FROM cases WHERE run_id = ID|50|50 cases" \
	"result 300|SELECT frames_received FROM runs WHERE id = ID|100|100 frames" \
	"histo 40|$HBUCKETS|2000|2000 histogram rows" \
	"samples 40|SELECT COALESCE(sum(n), 0) FROM sample_chunks WHERE run_id = ID|1000|1000 sample rows" \
	"log 100|SELECT count(*) FROM events WHERE run_id = ID AND seq < 4294967296|40|40 log and error lines" \
	"hello 5|SELECT hello FROM runs WHERE id = ID|30|30 HELLO facts"; do
	IFS='|' read -r what sql lim ev <<<"$spec"
	read -r T ID < <(fresh)
	out=$("${F[@]}" "$T" $what)
	got=$(q "${sql//ID/$ID}")
	[ "${what%% *}" = hello ] && got=$(python3 -c 'import json,sys; print(len(json.loads(sys.argv[1])))' "$got")
	diag "$what: $out; stored $got (limit $lim)"
	check "${what%% *}: stored up to the limit ($got of at most $lim) and no more" [ "$got" -le "$lim" -a "$got" -gt $((lim / 2)) ]
	check "${what%% *}: the refusals counted in the run ($(q "SELECT limited FROM runs WHERE id = $ID"))" \
		[ "$(q "SELECT limited FROM runs WHERE id = $ID")" -ge 1 ]
	check "${what%% *}: the run's events name the limit, once" [ "$(limit_event $ID "$ev")" = 1 ]
done
rl=$(pyjson "$URL/api/v1/health" 'd["rejected"]["run_limit"]')
check "/health counts them (rejected.run_limit = $rl)" [ "$rl" -ge 6 ]

# The run detail pages its cases (?cases_after=, ?cases_limit=; at most 1000
# a GET), so no GET builds a whole large run in memory.
read -r T ID < <(fresh)
"${F[@]}" "$T" case 45 >/dev/null
page() { pyjson "$URL/api/v1/runs/$ID?cases_limit=20${1:+&cases_after=$1}" '"%d %d %s" % (len(d["cases"]), d["cases"][0]["case_id"], d["cases_next"])'; }
p1=$(page) p2=$(page 20) p3=$(page 40)
check "cases paged 20 at a time: '$p1' '$p2' '$p3'" [ "$p1|$p2|$p3" = "20 1 20|20 21 40|5 41 None" ]
check "a whole run of 45 cases has no cases_next" [ "$(pyjson "$URL/api/v1/runs/$ID" '"%d %s" % (len(d["cases"]), "cases_next" in d)')" = "45 False" ]
check "cases_limit=0 / 1001 / x: 400" [ "$(curl -s -o /dev/null -w '%{http_code}' "$URL/api/v1/runs/$ID?cases_limit=0")$(curl -s -o /dev/null -w '%{http_code}' "$URL/api/v1/runs/$ID?cases_limit=1001")$(curl -s -o /dev/null -w '%{http_code}' "$URL/api/v1/runs/$ID?cases_after=x")" = 400400400 ]

# The database grows no further: the same sender, 4x as much again.
read -r T ID < <(fresh)
"${F[@]}" "$T" histo 40 >/dev/null
sleep 1
before=$(dbsize) r0=$(rss)
"${F[@]}" "$T" histo 160 --first-seq 100 >/dev/null
sleep 1
after=$(dbsize) r1=$(rss)
diag "160 more HISTO frames past the limit: database $before -> $after bytes, RSS $r0 -> $r1 MiB"
check "... the database grew by less than 64 KiB ($before -> $after)" [ $((after - before)) -lt 65536 ]
check "... the histogram rows stay at the limit" [ "$(q "${HBUCKETS//ID/$ID}")" -le 2000 ]
check "... the daemon's RSS grew by less than 16 MiB ($r0 -> $r1)" [ $((r1 - r0)) -lt 16 ]

# Console text (admin upload) past its limit: 413, the rest refused.
read -r T ID < <(fresh)
code=$(python3 -c 'print("\n".join("console line %d %s" % (i, "c" * 80) for i in range(300)))' |
	curl -s -o "$TMP/console.out" -w '%{http_code}' "${ADMIN[@]}" -H 'Content-Type: text/plain' --data-binary @- "$URL/api/v1/runs/$ID/console")
check "console past 10000 bytes: 413 naming the limit ($code)" [ "$code" = 413 ] && grep -q "console=N" "$TMP/console.out"
check "... what fits is kept ($(q "SELECT sum(length(text)) FROM events WHERE run_id = $ID AND kind = 'console'") bytes)" \
	[ "$(q "SELECT sum(length(text)) FROM events WHERE run_id = $ID AND kind = 'console'")" -le 10000 ]
check "... and the run's events say so" [ "$(limit_event $ID "10000 console bytes")" = 1 ]

# Results of a case never described, and a lying DONE.
read -r T ID < <(fresh)
"${HOSTILE[@]}" frame 127.0.0.1:$PORT "$T" 0 hello 'cpus=4\n' >/dev/null
r=$("${HOSTILE[@]}" frame 127.0.0.1:$PORT "$T" 1 result 1234)
check "a RESULT for a case never described is refused ($r)" [ "$(q "SELECT count(*) FROM results WHERE run_id = $ID")" = 0 ]
python3 - "$PORT" "$T" "$ROOT" <<'PY'
import os, socket, struct, sys
sys.path.insert(0, os.path.join(sys.argv[3], "tests", "web"))
import frames
r = frames.Run(int(sys.argv[2], 16))
r.frames = [None] * 2
r.frame(frames.DONE, struct.pack('<II', 0xffffffff, 0))
r.frame(frames.DONE, struct.pack('<II', 3, 7))
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.sendto(r.frames[2], ("127.0.0.1", int(sys.argv[1])))
s.sendto(r.frames[3], ("127.0.0.1", int(sys.argv[1])))
PY
sleep 0.5
check "DONE with frames=0xffffffff or status=7 refused (no frame count stored)" \
	[ "$(q "SELECT coalesce(frames_expected, '-') FROM runs WHERE id = $ID")" = - ]

# Per address: at most 16 pending runs without a job.
codes=
for i in $(seq 20); do
	codes="$codes $(curl -s -o /dev/null -w '%{http_code}' --interface 127.0.0.1 "$URL/boot.ipxe?mac=52:54:00:26:1f:$(printf %02x $i)")"
done
live=$(q "SELECT count(*) FROM runs WHERE boot_peer = '127.0.0.1' AND status = 'pending' AND job_id IS NULL")
diag "20 boot GETs for new MACs: $codes; pending job-less runs of 127.0.0.1: $live"
check "one address holds at most 16 pending job-less runs ($live)" [ "$live" -le 16 ]
check "... the rest answered 429" grep -q 429 <<<"$codes"
stop_daemon

# --open: one address starts at most 1024 live runs with HELLOs alone.
DB=$TMP/open.db
start_daemon --open || { notok "open daemon starts"; exit 1; }
python3 -c '
import socket, sys, time
sys.path.insert(0, sys.argv[2])
import frames
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("127.0.0.1", 0))
for i in range(1100):
    r = frames.Run(0x0fe0000000000000 + i)
    r.text(frames.HELLO, "cpus=2\n")
    s.sendto(r.frames[0], ("127.0.0.1", int(sys.argv[1])))
    time.sleep(0.0005)
' "$PORT" "$ROOT/tests/web"
sleep 1
for _ in $(seq 50); do [ "$(q "SELECT count(*) FROM runs")" -ge 1024 ] && break; sleep 0.2; done
sleep 1
nr=$(q "SELECT count(*) FROM runs")
check "--open: 1100 HELLOs from one address start 1024 runs ($nr)" [ "$nr" = 1024 ]
check "... the others counted (rejected.run_limit $(pyjson "$URL/api/v1/health" 'd["rejected"]["run_limit"]'))" \
	[ "$(pyjson "$URL/api/v1/health" 'd["rejected"]["run_limit"]')" -ge 1 ]
stop_daemon

# A pending run that never sent a frame expires after --lost-after: its
# token then takes nothing (a boot that never said HELLO, or a GET's).
DB=$TMP/expire.db
start_daemon --token-file "$TMP/token" --lost-after 2 || { notok "expiry daemon starts"; exit 1; }
read -r T ID < <(fresh)
read -r T2 ID2 < <(fresh)
"${HOSTILE[@]}" frame 127.0.0.1:$PORT "$T2" 0 hello 'cpus=2\n' >/dev/null
for _ in $(seq 60); do [ "$(q "SELECT status FROM runs WHERE id = $ID")" = lost ] && break; sleep 0.2; done
sleep 1.5
check "a pending run with no frame expires (lost, '$(q "SELECT error FROM runs WHERE id = $ID")')" \
	[ "$(q "SELECT status || ' ' || substr(error, 1, 7) FROM runs WHERE id = $ID")" = "lost expired" ]
r=$("${HOSTILE[@]}" frame 127.0.0.1:$PORT "$T" 0 hello 'cpus=2\n')
sleep 0.5
check "... its late HELLO is refused ($r): nothing stored" [ "$(q "SELECT frames_received FROM runs WHERE id = $ID")" = 0 ]
check "a run that sent a frame is only lost, not expired" [ "$(q "SELECT status || coalesce(error, '') FROM runs WHERE id = $ID2")" = lost ]
r=$("${HOSTILE[@]}" frame 127.0.0.1:$PORT "$T2" 1 log 'back again')
check "... and resumes ($r)" [ "$(q "SELECT frames_received FROM runs WHERE id = $ID2")" = 2 ]
stop_daemon
