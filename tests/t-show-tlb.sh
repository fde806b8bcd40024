#!/bin/bash
# t-show-tlb.sh - `xcbench show` on TLB and sync (seed 002) cases says what the
# figures are: a TLB case whose no-flush control saw no stale read is
# UNVERIFIED (its stale count of 0 proves nothing), a TLB case of method none
# (no invalidation: stale reads expected, never counted) is "no flush", never
# a blank NOTE that reads as a pass; a sync case's rw-lock profile counts the
# timed reads and writes only (firmware/bench/sync.c), and gives the readers'
# wait per read acquisition and the writer's hold per write (the wait was
# divided by reads + writes); a TLB case's says it counts the timed
# shootdowns only (not the warm-up's or the no-flush control's) and gives
# compare --row lock_hold's figure, in cycles and ns. A hand-made run (UDP
# frames, tests/web/frames.py) and the seed-002 fixture (xcbench ingest).
# timeout: 120
. "$(dirname "$0")/lib/tap.sh"

T=$(mktemp -d "$OUTDIR/show-tlb.XXXXXX")
cleanup() { [ -n "${DPID:-}" ] && kill "$DPID" 2>/dev/null; wait 2>/dev/null; }
trap cleanup EXIT

PORT=$(free_port)
URL="http://127.0.0.1:$PORT"
xcbd_start "$T/xcbenchd.log" "$PORT" --db "$T/x.db" --open
DPID=$XCBD_PID

# Three TLB cases (invlpg verified, invlpg unverified, method none) and a
# RESULT with the appended fields (control_runs, control_stale).
python3 - "127.0.0.1:$PORT" <<'PY'
import struct, sys

import os
sys.path.insert(0, os.path.join(os.environ.get('ROOT', '.'), 'tests', 'web'))
import frames
r = frames.Run(0xfe5b01)
r.text(frames.HELLO, 'fw=t-show-tlb\ncpus=4\ntsc_khz=2000000\ntransport=udp\nsuite=tlb\n')
cases = [('invlpg', 8, 8), ('invlpg', 64, 0), ('none', 8, 8)]
for cid, (method, runs, seen) in enumerate(cases, 1):
    r.text(frames.CASE, f'id={cid}\nkind=tlb\nalgo=vector\ndelivery=auto\nwait=done\ninits=1\nmask=2\n'
           f'placement=first\noverlap=disjoint\nwork_us=0\nflush=vector\nmethod={method}\nbatch=1\npages=1\n'
           'iters=10\nreps=1\n')
    p50 = 5000
    r.frame(frames.RESULT, struct.pack('<IHH17QII9Q', cid, 0, frames.ALL,
                                       10, 4000, p50, 6000, 7000, 7000, 8000, p50 * 1000, 100 * 1000,
                                       20, 30, 2, 3000, 600, 0, 0, 0, 0, 0,
                                       4000, 0, 0, 0, 60000, runs, seen, 0, 0))
# A sync case whose reads and writes are of one order (a real run's reads
# outnumber its writes 4000 to 1, which hid the divisor): 300 timed read
# acquisitions (count) + 100 writes (lock_acq 400), the writer's hold
# 100 x 2000 cycles, the readers' wait 300 x 700 cycles.
r.text(frames.CASE, 'id=4\nkind=sync\nalgo=inside\ndelivery=auto\nwait=done\ninits=1\nmask=2\n'
       'placement=first\noverlap=disjoint\nwork_us=0\nflush=vector\nmethod=invlpg\nbatch=1\npages=1\n'
       'xcall_algo=-\nrwlock=fair\nbatch_reads=4\nentry_us=50\niters=100\nreps=1\n')
r.frame(frames.RESULT, struct.pack('<IHH17QII9Q', 4, 0, frames.ALL,
                                   300, 100, 700, 800, 900, 900, 1000, 700 * 1000, 50 * 1000,
                                   200, 400, 30, 100 * 2000, 300 * 700, 0, 0, 0, 0, 0,
                                   4000, 0, 0, 0, 60000, 8, 8, 0, 0))
# A case a watchdog stopped before it timed a call: its one RESULT counts
# nothing and carries the watchdog's flag (XCB_RF_WATCHDOG).
r.text(frames.CASE, 'id=5\nkind=tlb\nalgo=vector\ndelivery=auto\nwait=done\ninits=1\nmask=2\n'
       'placement=first\noverlap=disjoint\nwork_us=0\nflush=vector\nmethod=invlpg\nbatch=1\npages=1\n'
       'iters=10\nreps=1\n')
r.frame(frames.RESULT, struct.pack('<IHH17QII9Q', 5, 0, frames.ALL, *([0] * 17), 1, 0, *([0] * 9)))
r.frame(frames.DONE, struct.pack('<II', len(r.frames), 0))
frames.send(sys.argv[1], r.frames, 0, len(r.frames))
PY
check "the hand-made TLB run is sent" test $? -eq 0
ID=$(curl -sf "$URL/api/v1/runs" | python3 -c 'import json,sys; print(json.load(sys.stdin)["runs"][0]["id"])')
"$XCBENCH" --server "$URL" show "$ID" >"$T/tlb.out" 2>&1
check "xcbench show answers" test $? -eq 0
line() { grep -E "^ +$1 tlb " "$T/tlb.out"; }
check "a verified invlpg case has no NOTE of doubt" \
	bash -c "! grep -qiE 'unverified|no flush' <<<\"\$1\"" _ "$(line 1)"
check "an invlpg case whose control saw no stale read says UNVERIFIED" \
	grep -q 'UNVERIFIED' <<<"$(line 2)"
check "a method=none case says no flush (its 0 stale is not a pass)" \
	grep -q 'no flush' <<<"$(line 3)"
check "a method=none case is not called unverified or verified" \
	bash -c "! grep -qi 'verified' <<<\"\$1\"" _ "$(line 3)"
# A TLB case's lock profile (flush=vector: flush_lock, 30 acquisitions) is of
# its timed shootdowns only (the payload leaves the warm-up's and the no-flush
# control's out), which it says, with compare --row lock_hold's figure.
check "TLB lock profile: timed calls only, and the repetitions' median hold on the line after" \
	grep -A1 'lock profile .*30 acquisitions.*timed calls only)$' "$T/tlb.out" | grep -qE "^ +lock hold per acquisition +the repetitions' median: [0-9]"
# ... and says its unit: the figure ends the line, and the thread it
# reproduces quotes ns (it once printed a bare "100.0"). 3000 cycles over 30
# acquisitions in one repetition, at tsc_khz=2000000: 100 cycles, 50 ns.
check "the repetitions' median hold is in cycles, and in ns at the run's TSC rate" \
	grep -qE "^ +lock hold per acquisition +the repetitions' median: 100\.0 cycles \(50\.0 ns\)$" "$T/tlb.out"
check "a case a watchdog stopped before it timed a call: no result, and FAILED check ($(line 5))" \
	grep -q 'no result (no timed call stored) FAILED check' <<<"$(line 5)"
check "show names each profile's lock (the API's: the vector path's flush lock, the sync case's rw-lock)" \
	bash -c 'grep -qE "lock profile +flush lock: 30 acquisitions" "$1" && grep -qE "lock profile +rw-lock \(fair\), timed: " "$1"' _ "$T/tlb.out"
# ... as is a case of method none's (which runs no control).
prof3=$(awk '/^ +3 tlb /{on=1; next} on && /lock profile/{print; exit}' "$T/tlb.out")
check "method none's lock profile: timed calls only ($prof3)" \
	bash -c '[[ "$1" == *"timed calls only"* ]]' _ "$prof3"
# The rw-lock profile's figures are each per its own acquisitions: the
# readers' wait per read acquisition (700, not 210000 / 400 = 525), the
# writer's hold per write (2000).
prof=$(grep -A1 'lock profile.*read acquisitions' "$T/tlb.out" | paste -sd ' ' | tr -s ' ')
check "sync lock profile: 300 read acquisitions + 100 writes ($prof)" \
	grep -q '300 read acquisitions + 100 writes' <<<"$prof"
check "sync lock profile: the readers' wait per read acquisition is 700 cycles" \
	grep -q "readers' wait 210000 cycles (700 a read acquisition)" <<<"$prof"
check "sync lock profile: the writer's hold per write is 2000 cycles" \
	grep -q "writer's hold 200000 cycles (2000 a write)" <<<"$prof"

# seed 002's fixture: the rw-lock profile of a sync case is over the timed
# reads and writes (lock_acq = reads + writes), not "warm-up included".
FIX=$ROOT/tests/fixtures/sync-ept-smp4.serial.log.gz
gunzip -c "$FIX" >"$T/sync.log"
timeout 60 "$XCBENCH" --server "$URL" ingest "$T/sync.log" --timeout 30 >"$T/ingest.out" 2>&1
check "xcbench ingest stores the seed-002 fixture" test $? -eq 0
SID=$(curl -sf "$URL/api/v1/runs" | python3 -c 'import json,sys; print(max(r["id"] for r in json.load(sys.stdin)["runs"]))')
"$XCBENCH" --server "$URL" show "$SID" >"$T/sync.out" 2>&1
check "sync run: show prints lock profiles" grep -q 'lock profile' "$T/sync.out"
check "sync run: no lock profile claims warm-up acquisitions" \
	bash -c "! grep 'lock profile' \"\$1\" | grep -q 'warm-up included'" _ "$T/sync.out"
check "sync run: the profile says timed reads + writes, the writer's hold, the readers' wait" \
	bash -c "grep -A1 'lock profile' \"\$1\" | paste -sd ' ' | grep -q \"lock profile.*timed: [0-9]* read acquisitions + [0-9]* writes.*the writer's hold.*the readers' wait\"" _ "$T/sync.out"
# ... and each of its rows (the writer's hold, end-to-end, ...) in ns at the
# run's TSC rate, as the thread quotes its invalidation ("~3-5 ms"): each
# figure is its cycles x 1e6 / tsc_khz.
"$XCBENCH" --server "$URL" show "$SID" --json >"$T/sync.json"
python3 - "$T/sync.out" "$T/sync.json" <<'PY'
import json, re, sys
from tap import ok
khz = json.load(open(sys.argv[2]))["run"]["tsc_khz"]
rows = re.findall(r"(writer's lock hold|writer end-to-end|time to effective invalidation|readers' wait per batch|readers' wait per read)"
                  r" +p50 (\d+)  p99 (\d+) cycles(?: over \d+ read acquisitions)? \(p50 ([\d.]+) ns, p99 ([\d.]+) ns\)", open(sys.argv[1]).read())
# show gives whole cycles (a percentile of two repetitions may end in .5)
# and the ns of the exact figure: half a cycle apart at most, plus the 0.1
# ns of rounding.
tol = 0.5 * 1e6 / khz + 0.06
bad = [r for r in rows if abs(float(r[3]) - int(r[1]) * 1e6 / khz) > tol or abs(float(r[4]) - int(r[2]) * 1e6 / khz) > tol]
ok(len(rows) >= 5 and any(r[0] == "readers' wait per read" for r in rows) and not bad, f"sync run: {len(rows)} rows in cycles and ns at {khz} kHz" + (f" ({bad[:2]})" if bad else ""))
PY
