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
