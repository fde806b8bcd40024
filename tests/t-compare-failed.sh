#!/bin/bash
# t-compare-failed.sh - a compared case that failed a check (RESULT flag
# XCB_RF_INVARIANT: calls lost, duplicated or out of order; XCB_RF_WATCHDOG)
# is marked per case. An algorithm that lost calls on CPU 3 is faster for
# it, and no view said which case: only a warning for the whole table;
# `check --baseline lockless lossy` printed "check: pass", exit 0.
#  - compare's JSON: each case's a_failed/b_failed, a/b_failed_checks,
#    a/b_failed_runs; the pivots' cells a_failed/b_failed; the summary's
#    failed_a/failed_b. compare.csv: a_failed,b_failed columns.
#  - xcbench compare's seed, text and Markdown tables and --html mark the
#    case "!B", with a line that says what the mark is.
#  - xcbench check: B's failed case fails the check (exit 4, --json verdict
#    "failed check"), listed with why, in which run, and the payload's lines;
#    a failed case of the baseline A is named and not judged (exit 0 on the
#    rest), and when it was the only one tested nothing was checked (3).
# Hand-made runs (UDP frames, tests/web/frames.py) shaped as the quick
# suite's xcall cases (unicast, wait=done, masks 1-3, 5 repetitions).
# timeout: 120
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
open_daemon_test "compare: failed cases"

# send TOKEN ALGO FACTOR [MASK:FLAG]: a run of ALGO's three cases at FACTOR x
# the base time; the case of mask MASK carries FLAG in its repetition 2, with
# the payload's lines on it and a DONE that says the checks failed.
send() {
	frames_py "$@" <<'PY'
import struct, sys
import frames
token, algo, factor = int(sys.argv[2], 16), sys.argv[3], float(sys.argv[4])
bad_mask, bad_flag = (int(v) for v in sys.argv[5].split(':')) if len(sys.argv) > 5 else (0, 0)
r = frames.Run(token)
r.text(frames.HELLO, 'fw=t-check-failed\ncpus=4\ntsc_khz=2000000\ntransport=udp\nsuite=quick\n')
for cid, mask in enumerate((1, 2, 3), 1):
    r.text(frames.CASE, f'id={cid}\nkind=xcall\nalgo={algo}\ndelivery=unicast\nwait=done\ninits=1\nmask={mask}\n'
           f'placement=first\noverlap=disjoint\nwork_us=0\niters=400\nreps=5\n')
    for rep in range(5):
        flag = bad_flag if mask == bad_mask and rep == 2 else 0
        r.result(cid, rep, frames.ALL, int((2000 + 300 * mask + 7 * rep) * factor), ipis=400 * mask,
                 calls=400 * mask, flags=flag)
        if flag == 2:
            r.text(frames.LOG, f'case {cid} rep {rep}: initiator cpu0: 1 lost, 0 duplicated, 0 out of order: '
                   f'{algo}, at 1 of {mask} targets, first cpu3')
        elif flag == 1:
            r.text(frames.LOG, f'case {cid} rep {rep}: 399 of 400 calls ran in 1000 ms; waiting on: cpu3')
failed = bad_flag != 0
r.text(frames.LOG, f'done: {"FAILED" if failed else "ok"} (0 ERROR frames, 0 stale, {int(failed)} lost, '
       '0 duplicated, 0 out of order)')
r.frame(frames.DONE, struct.pack('<II', len(r.frames), 2 if failed else 0))
frames.send(sys.argv[1], r.frames, 0, len(r.frames))
PY
}
# lockless; lossy at 0.8x, which lost a call in its mask=3 case; a lockless
# baseline whose mask=2 case ran past the watchdog, and a clean lockless.
send c4ec01 lockless 1.0 && send c4ec02 lossy 0.8 3:2 && send c4ec03 lockless 1.0 2:1 &&
	send c4ec04 lockless 1.0
check "four hand-made runs sent" test $? -eq 0
ids=$(curl -sf "$URL/api/v1/runs" | python3 -c 'import json,sys; print(" ".join(str(r["id"]) for r in sorted(json.load(sys.stdin)["runs"], key=lambda r: r["id"])))')
read -r A B C D <<<"$ids"

curl -s "$URL/api/v1/compare?a=$A&b=$B&algo_a=lockless&algo_b=lossy" >"$T/ab.json"
curl -s "$URL/api/v1/compare.csv?a=$A&b=$B&algo_a=lockless&algo_b=lossy" >"$T/ab.csv"
curl -s "$URL/api/v1/compare?a=$C&b=$D" >"$T/cd.json"
python3 - "$T" "$B" "$C" <<'PY'
import csv, json, sys
from tap import ok
t, B, C = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
ab, cd = json.load(open(f"{t}/ab.json")), json.load(open(f"{t}/cd.json"))
bad = [c for c in ab["cases"] if c["b_failed"]]
ok(len(ab["cases"]) == 3 and [c["key"]["mask"] for c in bad] == [3] and bad[0]["b_failed_checks"] == ["invariant"]
   and bad[0]["b_failed_runs"] == [B] and not any(c["a_failed"] or c["a_failed_checks"] or c["a_failed_runs"]
                                                for c in ab["cases"]),
   f"compare: B's mask=3 case b_failed, checks {bad[0]['b_failed_checks'] if bad else None}, runs "
   f"{bad[0]['b_failed_runs'] if bad else None}; no other case, no A case")
ok(all(c["b_failed_checks"] == [] and c["b_failed_runs"] == [] for c in ab["cases"] if not c["b_failed"]),
   "... the others: no check, no run")
ok(ab["summary"]["failed_b"] == 1 and ab["summary"]["failed_a"] == 0,
   f"summary: failed_a {ab['summary'].get('failed_a')}, failed_b {ab['summary'].get('failed_b')}")
cells = [(r, c) for p in ab["pivots"] for ri, r in enumerate(p["rows"]) for c in p["cells"][ri] if c]
ok(sorted((r, c["b_failed"], c["a_failed"]) for r, c in cells) == [(1, False, False), (2, False, False), (3, True, False)],
   "the pivot cells: b_failed on mask 3's alone")
rows = list(csv.DictReader(open(f"{t}/ab.csv", newline="")))
ok(",row,a_failed,b_failed," in open(f"{t}/ab.csv").readline().rstrip("\r\n") + ","
   and sorted((r["mask"], r["a_failed"], r["b_failed"]) for r in rows) == [("1", "0", "0"), ("2", "0", "0"), ("3", "0", "1")],
   f"compare.csv: a_failed,b_failed after row (later columns appended after them), 1 on mask 3's B ({[(r['mask'], r['b_failed']) for r in rows]})")
bad = [c for c in cd["cases"] if c["a_failed"]]
ok([(c["key"]["mask"], c["a_failed_checks"], c["a_failed_runs"]) for c in bad] == [(2, ["watchdog"], [C])]
   and cd["summary"]["failed_a"] == 1, "a baseline's watchdog: a_failed, checks [watchdog], its run")
PY

# The CLI's tables mark the case; the legend says what the mark is.
"${X[@]}" compare "$A" "$B" --algo-a lockless --algo-b lossy >"$T/seed.txt" 2>&1
check "compare (seed): mask 3's cell marked !B, the others not, and the legend" \
	bash -c 'grep -q "^  3 CPUs in mask .* !B$" "$1" && [ $(grep -c "!B" "$1") = 2 ] && grep -q "^!A, !B, !AB: the case failed a check" "$1"' _ "$T/seed.txt"
"${X[@]}" compare "$A" "$B" --algo-a lockless --algo-b lossy --format text >"$T/text.txt" 2>&1
check "compare --format text: the mask 3 row ends !B, within 80 columns" \
	bash -c 'grep -Eq "^ +3 +1 .*\] !B$" "$1" && [ $(grep -c "\] !B$" "$1") = 1 ] && ! awk "length > 80" "$1" | grep -q .' _ "$T/text.txt"
"${X[@]}" compare "$A" "$B" --algo-a lockless --algo-b lossy --format markdown >"$T/md.txt" 2>&1
check "compare --format markdown: the mask 3 row's interval cell ends !B" grep -Eq '^\| 3 \| 1 \| .*\] !B \|$' "$T/md.txt"
"${X[@]}" compare "$A" "$B" --algo-a lockless --algo-b lossy --html "$T/c.html" >/dev/null 2>&1
check "compare --html: the mask 3 row's interval marked !B, once" \
	bash -c '[ $(grep -c ">!B</b>" "$1") = 1 ] && grep -q "^<tr><td class=.n.>3</td>.*>!B</b>" "$1"' _ "$T/c.html"

# check: B lost a call: fails, whatever its speed.
"${X[@]}" check --baseline "$A" "$B" --a-where algo=lockless --b-where algo=lossy >"$T/check.txt" 2>&1
rc=$?
check "check lockless -> lossy: exit 4, not a pass ($rc: $(tail -1 "$T/check.txt"))" \
	bash -c '[ $1 = 4 ] && tail -1 "$2" | grep -q "^check: FAILED CHECK: 1 of 3 compared cases failed a check in B; 0 of 3 tested"' _ "$rc" "$T/check.txt"
# words: the output with its wrapped lines joined
words() { tr '\n' ' ' <"$1" | tr -s ' '; }
check "... names the case, why and the run" \
	grep -q "failed a check in B (.*): case 3 (.*mask=3.*): invariant: calls lost, duplicated or out of order, or a stale translation; in run $B the payload" <<<"$(words "$T/check.txt")"
check "... and the payload's line on it" \
	bash -c 'grep -q "^  the payload.s lines on run $2.s failed cases:$" "$1" && grep -q "^    case 3 rep 2: initiator cpu0: 1 lost" "$1"' _ "$T/check.txt" "$B"
"${X[@]}" check --baseline "$A" "$B" --a-where algo=lockless --b-where algo=lossy --json >"$T/check.json" 2>"$T/check.err"
rc=$?
v=$(python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); print(o["verdict"], o["check"]["failed_b"], [c["key"]["mask"] for c in o["cases"] if c["b_failed"]])' "$T/check.json" 2>&1)
check "check --json: exit 4, verdict 'failed check', the case ($rc: $v)" bash -c '[ $1 = 4 ] && [ "$2" = "failed check 1 [3]" ]' _ "$rc" "$v"

# A baseline that failed a check: that case is not judged, the rest is.
"${X[@]}" check --baseline "$C" "$D" >"$T/base.txt" 2>&1
rc=$?
check "check against a baseline whose mask 2 case hit the watchdog: exit 0 on the rest ($rc: $(tail -1 "$T/base.txt"))" \
	bash -c '[ $1 = 0 ] && tail -1 "$2" | grep -q "^check: pass: 0 of 2 tested cases .*(1 tested not judged: the baseline A failed a check there)$" &&
		grep -q "^failed a check in the baseline A (not judged.*: case 2 (.*mask=2.*): watchdog: a call ran past the watchdog; in run $3 the payload" <<<"$4"' \
	_ "$rc" "$T/base.txt" "$C" "$(words "$T/base.txt")"
"${X[@]}" check --baseline "$C" "$D" --json >"$T/base.json" 2>/dev/null
rc=$?
v=$(python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); c=o["check"]; print(o["verdict"], c["judged"], c["baseline_failed"])' "$T/base.json" 2>&1)
check "... --json: verdict pass, 2 judged, 1 not ($rc: $v)" bash -c '[ $1 = 0 ] && [ "$2" = "pass 2 1" ]' _ "$rc" "$v"
"${X[@]}" check --baseline "$C" "$D" --a-where mask=2 --b-where mask=2 >"$T/none.txt" 2>"$T/none.err"
rc=$?
check "... its only tested case failed in the baseline: nothing was checked, exit 3 ($rc: $(cat "$T/none.err"))" \
	bash -c '[ $1 = 3 ] && grep -q "the baseline A failed a check in every tested case (1): nothing was checked" "$2" &&
		! grep -q "^check: pass" "$3"' _ "$rc" "$T/none.err" "$T/none.txt"
"${X[@]}" check --baseline "$C" "$D" --a-where mask=2 --b-where mask=2 --json >"$T/none.json" 2>/dev/null
rc=$?
v=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["verdict"])' "$T/none.json" 2>&1)
check "... --json: exit 3, verdict 'baseline failed check' ($rc: $v)" bash -c '[ $1 = 3 ] && [ "$2" = "baseline failed check" ]' _ "$rc" "$v"
check "SIGTERM: clean shutdown" stop_daemon
