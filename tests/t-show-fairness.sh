#!/bin/bash
# t-show-fairness.sh - `xcbench show` prints a case's fairness to 3 decimals,
# the figures the API, the payload's console and the run page give (README:
# every output gives the same figure): it printed 2 ("jain 1.00" for 0.996,
# "p50 max/min 1.99" for 1.987). A hand-made run (UDP frames,
# tests/web/frames.py) of two initiators whose p50s are 1000 and 1987 cycles.
# timeout: 120
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "show: fairness to 3 decimals"
start_daemon --open || { notok "the daemon starts"; exit 1; }
T=$TMP

python3 - "127.0.0.1:$PORT" <<'PY'
import os, struct, sys
sys.path.insert(0, os.path.join(os.environ.get('ROOT', '.'), 'tests', 'web'))
import frames
r = frames.Run(0xfa1e01)
r.text(frames.HELLO, 'fw=t-show-fairness\ncpus=4\ntsc_khz=2000000\ntransport=udp\nsuite=quick\n')
r.text(frames.CASE, 'id=1\nkind=xcall\nalgo=locked\ndelivery=unicast\nwait=done\ninits=2\nmask=1\n'
       'placement=first\noverlap=disjoint\nwork_us=0\niters=400\nreps=2\n')
for rep in range(2):
    r.result(1, rep, frames.ALL, 1500, ipis=800, calls=800)
    r.result(1, rep, 0, 1000, ipis=400, calls=400)
    r.result(1, rep, 1, 1987, ipis=400, calls=400)
r.frame(frames.DONE, struct.pack('<II', len(r.frames), 0))
frames.send(sys.argv[1], r.frames, 0, len(r.frames))
PY
check "the hand-made run is sent" test $? -eq 0
id=$(curl -sf "$URL/api/v1/runs" | python3 -c "import json,sys; print(json.load(sys.stdin)['runs'][0]['id'])")
curl -sf "$URL/api/v1/runs/$id" >"$T/run.json"
want=$(python3 -c 'import json,sys
fa = json.load(open(sys.argv[1]))["cases"][0]["fairness"]
print("jain %.3f over %s, p50 max/min %.3f" % (fa["jain"], fa["jain_of"], fa["p50_max_min"]))' "$T/run.json")
"$XCBENCH" --server "$URL" show "$id" >"$T/show.out" 2>&1
grep fairness "$T/show.out" | sed 's/^ */# show: /'
check "show's fairness is the API's to 3 decimals ($want)" grep -q "fairness *$want\$" "$T/show.out"
check "... p50 max/min 1.987 (2 decimals read 1.99)" grep -q "p50 max/min 1.987\$" "$T/show.out"

# A sync case (seed 002) of the current payload: its readers send no window
# and share the writer's timed phase as their span (every row the same
# elapsed_cycles), so the API's jain_of is elapsed_throughput; show said
# "over elapsed_throughput", which README gives as the name of runs stored
# before the window. It says what the figure is.
python3 - "127.0.0.1:$PORT" <<'PY'
import os, struct, sys
sys.path.insert(0, os.path.join(os.environ.get('ROOT', '.'), 'tests', 'web'))
import frames
r = frames.Run(0xfa1e02)
r.text(frames.HELLO, 'fw=t-show-fairness\ncpus=4\ntsc_khz=2000000\ntransport=udp\nsuite=ept\n')
r.text(frames.CASE, 'id=1\nkind=sync\nalgo=inside\ndelivery=auto\nwait=done\ninits=1\nmask=2\n'
       'placement=first\noverlap=disjoint\nwork_us=0\niters=100\nreps=2\nmethod=invlpg\nbatch=1\n')
def row(rep, init, p50, calls, elapsed):
    # frames.result's 152-byte head, then the appended fields: elapsed_cycles
    # the fifth (proto/xcb_schema.h), no window (window_calls 0)
    payload = struct.pack('<IHH17QII', 1, rep, init, calls, p50 * 8 // 10, p50, p50 * 11 // 10, p50 * 14 // 10,
                          p50 * 17 // 10, p50 * 2, p50 * calls, p50 * 90, 0, calls, 0, 0, 0, 0, 0, 0, 0, 0)
    r.frame(frames.RESULT, payload + struct.pack('<11Q', 0, 0, 0, 0, elapsed, 0, 0, 0, 0, 0, 0))
for rep in range(2):
    row(rep, frames.ALL, 150, 800, 100000)
    row(rep, 1, 140, 420, 100000)
    row(rep, 2, 160, 380, 100000)
r.frame(frames.DONE, struct.pack('<II', len(r.frames), 0))
frames.send(sys.argv[1], r.frames, 0, len(r.frames))
PY
check "the hand-made sync run is sent" test $? -eq 0
id=$(curl -sf "$URL/api/v1/runs" | python3 -c "import json,sys; print(json.load(sys.stdin)['runs'][0]['id'])")
of=$(curl -sf "$URL/api/v1/runs/$id" | python3 -c "import json,sys; print(json.load(sys.stdin)['cases'][0]['fairness']['jain_of'])")
check "the API names the sync readers' figure by its fields: elapsed_throughput ($of)" test "$of" = elapsed_throughput
"$XCBENCH" --server "$URL" show "$id" >"$T/sync.out" 2>&1
grep fairness "$T/sync.out" | sed 's/^ */# show: /'
check "show says what it is: the readers' throughput in the writer's timed phase" \
	grep -Eq "fairness +jain [0-9.]+ over the readers' throughput in the writer's timed phase, p50 max/min" "$T/sync.out"
