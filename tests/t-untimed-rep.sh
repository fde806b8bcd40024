#!/bin/bash
# t-untimed-rep.sh - a repetition that timed no call (a time budget spent in
# warm-up: count 0, every latency sent as 0) has no latencies: the case's
# median p50, min and REPS are of the repetitions that timed calls, its
# rep_p50 entry is null, the run CSV leaves its latencies (and p50_ns,
# ipi_ratio) empty, and compare leaves it out of the repetitions it tests.
# Its 0 pulled the median and min down and gave compare intervals like
# [-100 %, +1903 %] (the new-user audit, on a default-suite run under TCG).
# A hand-made run (UDP frames, tests/web/frames.py): case 1 with 6
# repetitions, one of them untimed; run B the same at 0.8x with none.
# timeout: 120
. "$(dirname "$0")/lib/tap.sh"

T=$(mktemp -d "$OUTDIR/untimed.XXXXXX")
cleanup() { [ -n "${DPID:-}" ] && kill "$DPID" 2>/dev/null; wait 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT

PORT=$(free_port)
URL="http://127.0.0.1:$PORT"
xcbd_start "$T/xcbenchd.log" "$PORT" --db "$T/x.db" --open
DPID=$XCBD_PID

# send TOKEN FACTOR UNTIMED_REP (-1: none)
send() {
	python3 - "127.0.0.1:$PORT" "$@" <<'PY'
import os, struct, sys
sys.path.insert(0, os.path.join(os.environ.get('ROOT', '.'), 'tests', 'web'))
import frames
token, factor, untimed = int(sys.argv[2], 16), float(sys.argv[3]), int(sys.argv[4])
r = frames.Run(token)
r.text(frames.HELLO, 'fw=t-untimed-rep\ncpus=4\ntsc_khz=2000000\ntransport=udp\nsuite=default\n')
r.text(frames.CASE, 'id=1\nkind=xcall\nalgo=lockless\ndelivery=unicast\nwait=done\ninits=1\nmask=2\n'
       'placement=first\noverlap=disjoint\nwork_us=0\niters=0\nx_time_ms=300\nreps=6\n')
for rep in range(6):
    p50 = int((10000 + 100 * rep) * factor)
    if rep == untimed:
        # what the payload sent: no timed call, every figure 0 (the floor
        # and the elapsed time of the warm-up measured)
        vals = (0,) * 17
    else:
        vals = (50, p50 * 8 // 10, p50, p50 * 11 // 10, p50 * 14 // 10, p50 * 17 // 10, p50 * 2,
                p50 * 1000, p50 * 90, 100, 0, 0, 0, 0, 0, 100, 100)
    r.frame(frames.RESULT, struct.pack('<IHH17QII9Q', 1, rep, frames.ALL, *vals, 0, 0,
                                       4000, 0, 0, 0, 600000, 0, 0, 0, 0))
r.frame(frames.DONE, struct.pack('<II', len(r.frames), 0))
frames.send(sys.argv[1], r.frames, 0, len(r.frames))
PY
}
send 0ed01 1.0 1 && send 0ed02 0.8 -1
check "two hand-made runs sent" test $? -eq 0
ids=$(curl -sf "$URL/api/v1/runs" | python3 -c 'import json,sys; print(" ".join(str(r["id"]) for r in sorted(json.load(sys.stdin)["runs"], key=lambda r: r["id"])))')
read -r A B <<<"$ids"
curl -sf "$URL/api/v1/runs/$A" >"$T/a.json"
python3 - "$T/a.json" <<'PY'
import json, statistics, sys
from tap import ok
c = json.load(open(sys.argv[1]))["cases"][0]
s = c["stats"]
timed = [10000 + 100 * r for r in range(6) if r != 1]
ok(s["p50"] == statistics.median(timed), f"the case's p50 is the median of the 5 timed repetitions ({s['p50']}, not {statistics.median([0] + timed)})")
ok(s["min"] == 8000, f"its min is a timed call's, not the untimed repetition's 0 ({s['min']})")
ok(s["reps"] == 5, f"REPS counts the repetitions that timed calls ({s['reps']})")
ok(s["count"] == 250, f"its count is every timed call ({s['count']})")
ok(c["rep_p50"][1] is None and c["rep_p50"][0] == 10000, f"rep_p50: null for the untimed repetition ({c['rep_p50']})")
PY
curl -sf "$URL/api/v1/runs/$A.csv" >"$T/a.csv"
python3 - "$T/a.csv" <<'PY'
import csv, sys
from tap import ok
rows = {int(r["rep"]): r for r in csv.DictReader(open(sys.argv[1]))}
u, t = rows[1], rows[0]
lat = ["min", "p50", "p90", "p99", "p999", "max", "mean", "stddev", "p50_ns", "p99_ns", "ipi_ratio"]
ok(u["count"] == "0" and all(u[k] == "" for k in lat),
   f"CSV: the untimed repetition's latencies are empty ({ {k: u[k] for k in lat} })")
ok(all(t[k] != "" for k in lat), "CSV: a timed repetition keeps them")
ok(u["ipi_floor"] == "4000" and u["elapsed_cycles"] == "600000", "CSV: what it did measure stays (floor, elapsed)")
PY
curl -sf "$URL/api/v1/compare?a=$A&b=$B" >"$T/cmp.json"
python3 - "$T/cmp.json" <<'PY'
import json, sys
from tap import ok
c = json.load(open(sys.argv[1]))["cases"][0]
ok(c["a_reps"] == 5 and c["b_reps"] == 6, f"compare tests A's 5 timed repetitions ({c['a_reps']} vs {c['b_reps']})")
ok(c["ci_low"] is not None and c["ci_low"] > -100 and c["ci_high"] < 0 and c["significant"],
   f"... and finds B 20 % faster with a sane interval ({c['change_pct']} [{c['ci_low']}, {c['ci_high']}])")
PY
"$XCBENCH" --server "$URL" show "$A" >"$T/show.txt" 2>&1
check "xcbench show: the case's REPS is 5 and its P50 the timed median" \
	grep -qE "^ +1 .* 10300 +[0-9.]+ +[0-9.]+ +5( |$)" "$T/show.txt"
sed 's/^/# /' "$T/show.txt" | grep -E "CASE|^#  +1 " | head -3
