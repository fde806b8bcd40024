#!/bin/bash
# t-compare-intervals.sh - what a compare interval can honestly say.
#  - 2 boots a side: Welch's t on two values a side has 1 to 2 degrees of
#    freedom (t = 12.7 at 1): the interval read "-80.52 [-100.00,
#    +2819962.49]" and overflowed the seed table's columns. Below
#    COMPARE_MIN_BOOTS (3) boots a side (or boot pairs) a case has the
#    change only, method too_few_boots, no interval, no p, never marked; a
#    warning says so, every view says "(too few boots)", and `check` counts
#    such a case as not tested (exit 3 when none was).
#  - both sides' repetitions on one histogram bucket's midpoint: the
#    spread was 0 and the interval read "+0.00 [+0.00, +0.00]", certainty
#    the histogram cannot give. An interval narrower than the two buckets
#    allow is widened to them (ci_at_resolution), marked '~' in every view.
# Hand-made runs (UDP frames, tests/web/frames.py): the quick suite's xcall
# cases (unicast, wait=done, masks 1-3, 5 repetitions).
# timeout: 120
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
open_daemon_test "compare: intervals"

# send TOKEN FACTOR: a run of lockless's three cases, each repetition's p50
# (2000 + 300 x mask + noise) x FACTOR; FACTOR "flat": every p50 is 2003,
# the midpoint of the histogram's bucket [2000, 2007].
send() {
	frames_py "$@" <<'PY'
import struct, sys
import frames
token, factor = int(sys.argv[2], 16), sys.argv[3]
r = frames.Run(token)
r.text(frames.HELLO, 'fw=t-compare-intervals\ncpus=4\ntsc_khz=2000000\ntransport=udp\nsuite=quick\n')
for cid, mask in enumerate((1, 2, 3), 1):
    r.text(frames.CASE, f'id={cid}\nkind=xcall\nalgo=lockless\ndelivery=unicast\nwait=done\ninits=1\nmask={mask}\n'
           f'placement=first\noverlap=disjoint\nwork_us=0\niters=400\nreps=5\n')
    for rep in range(5):
        p50 = 2003 if factor == 'flat' else int((2000 + 300 * mask + (37 * rep * mask) % 101) * float(factor))
        r.result(cid, rep, frames.ALL, p50, ipis=400 * mask, calls=400 * mask)
r.text(frames.LOG, 'done: ok (0 ERROR frames, 0 stale, 0 lost, 0 duplicated, 0 out of order)')
r.frame(frames.DONE, struct.pack('<II', len(r.frames), 0))
frames.send(sys.argv[1], r.frames, 0, len(r.frames))
PY
}
# A: boots at 1.0, 1.7, 1.3 x; B: 0.45, 1.2, 0.9 x (TCG's boot-to-boot
# noise); then three flat boots a side.
ok=0
for s in "c0a001 1.0" "c0a002 1.7" "c0b001 0.45" "c0b002 1.2" "c0a003 1.3" "c0b003 0.9" \
	"f1a001 flat" "f1a002 flat" "f1a003 flat" "f1b001 flat" "f1b002 flat" "f1b003 flat"; do
	send $s || ok=1
done
check "twelve hand-made runs sent" test $ok -eq 0
mapfile -t ID < <(curl -sf "$URL/api/v1/runs?limit=50" | python3 -c 'import json,sys; print("\n".join(str(r["id"]) for r in sorted(json.load(sys.stdin)["runs"], key=lambda r: r["id"])))')
A2="${ID[0]},${ID[1]}" B2="${ID[2]},${ID[3]}" A3="${ID[0]},${ID[1]},${ID[4]}" B3="${ID[2]},${ID[3]},${ID[5]}"
F1=${ID[6]} G1=${ID[9]} F3="${ID[6]},${ID[7]},${ID[8]}" G3="${ID[9]},${ID[10]},${ID[11]}"

curl -s "$URL/api/v1/compare?a=$A2&b=$B2" >"$T/two.json"
curl -s "$URL/api/v1/compare.csv?a=$A2&b=$B2" >"$T/two.csv"
curl -s "$URL/api/v1/compare?a=$A2&b=$A2&a_where=mask=1&b_where=mask=2" >"$T/pair2.json"
curl -s "$URL/api/v1/compare?a=$A3&b=$B3" >"$T/three.json"
curl -s "$URL/api/v1/compare?a=$F1&b=$G1" >"$T/flat1.json"
curl -s "$URL/api/v1/compare?a=$F3&b=$G3" >"$T/flat3.json"
curl -s "$URL/api/v1/compare.csv?a=$F1&b=$G1" >"$T/flat1.csv"
python3 - "$T" <<'PY'
import csv, json, sys
from tap import ok
t = sys.argv[1]
J = lambda n: json.load(open(f"{t}/{n}.json"))
two, pair2, three, flat1, flat3 = J("two"), J("pair2"), J("three"), J("flat1"), J("flat3")
cs = two["cases"]
ok(len(cs) == 3 and all(c["method"] == "too_few_boots" and c["ci_low"] is None and c["ci_high"] is None
                        and c["p"] is None and c["q"] is None and not c["significant"] and c["change_pct"] < -5
                        and c["a_boots"] == 2 and c["b_boots"] == 2 for c in cs),
   f"2 boots a side: the change, no interval, no p, not marked ({[(c['method'], c['change_pct'], c['ci_low'], c['ci_high']) for c in cs]})")
ok(two["summary"]["tested"] == 0 and two["summary"]["flagged"] == 0, f"... none tested ({two['summary']})")
W = [w for w in two["warnings"] if "too few boots for an interval" in w]
ok(len(W) == 1 and "3 or more" in W[0], f"... a warning says why ({W})")
rows = list(csv.DictReader(open(f"{t}/two.csv", newline="")))
ok(len(rows) == 3 and all(r["method"] == "too_few_boots" and r["ci_low"] == r["ci_high"] == "" for r in rows),
   "compare.csv: method too_few_boots, empty interval")
ok(all(c["method"] == "too_few_boots" and c["ci_low"] is None for c in pair2["cases"]) and len(pair2["cases"]) == 1,
   f"2 boots paired with themselves: too few boot pairs, no interval ({[c['method'] for c in pair2['cases']]})")
cs = three["cases"]
ok(all(c["method"] == "between_boot" and c["ci_low"] is not None and c["ci_high"] is not None
       and c["p"] is not None and c["ci_at_resolution"] is False for c in cs)
   and not any("too few boots" in w for w in three["warnings"]),
   f"3 boots a side: Welch's interval ({[(c['ci_low'], c['ci_high']) for c in cs]})")
for name, o, m in (("1 boot a side", flat1, "bootstrap"), ("3 boots a side", flat3, "between_boot")):
    cs = o["cases"]
    ok(len(cs) == 3 and all(c["method"] == m and c["change_pct"] == 0 and c["ci_at_resolution"] is True
                            and c["ci_low"] == -0.35 and c["ci_high"] == 0.35 and not c["significant"] for c in cs),
       f"{name}, every p50 on one bucket's midpoint: the interval is the buckets' [-0.35, +0.35], ci_at_resolution "
       f"({[(c['method'], c['ci_low'], c['ci_high'], c.get('ci_at_resolution')) for c in cs]})")
cells = [c for p in flat1["pivots"] for r in p["cells"] for c in r if c]
ok(len(cells) == 3 and all(c["ci_at_resolution"] is True for c in cells), "... the pivot cells say it too")
rows = list(csv.DictReader(open(f"{t}/flat1.csv", newline="")))
ok(all(r["ci_at_resolution"] == "1" and r["ci_low"] == "-0.35" for r in rows)
   and open(f"{t}/flat1.csv").readline().rstrip("\r\n").find(",a_failed,b_failed,ci_at_resolution,") > 0,
   "compare.csv: ci_at_resolution 1, after a_failed,b_failed (appended last; the units' columns after it)")
PY

# The CLI's views.
"${X[@]}" compare "$A2" "$B2" >"$T/seed.txt" 2>&1
check "compare (seed), 2 boots a side: every cell '(too few boots)', a note says why, no cell wider than its column" \
	bash -c '[ $(grep -c "(too few boots)" "$1") = 3 ] && grep -q "^too few boots for an interval: 3 or more per side are needed" "$1" &&
		! grep -q "2819962\|\[-100" "$1" && ! grep "CPU.* in mask" "$1" | awk "length > 16 + 27" | grep -q .' _ "$T/seed.txt"
for f in text markdown; do
	"${X[@]}" compare "$A2" "$B2" --format $f >"$T/$f.txt" 2>&1
	check "compare --format $f, 2 boots a side: '(too few boots)' rows, the warning, within 80 columns" \
		bash -c '[ $(grep -c "(too few boots)" "$1") = 3 ] && grep -q "^warning: .*too few boots for an interval" "$1" &&
			! awk "length > 80" "$1" | grep -q .' _ "$T/$f.txt"
done
"${X[@]}" compare "$A2" "$B2" --html "$T/two.html" >/dev/null 2>&1
check "compare --html, 2 boots a side: the table's interval cells '(too few boots)', thrice, and the note" \
	bash -c '[ $(grep -o "<td class=.n.>(too few boots)</td>" "$1" | wc -l) = 3 ] && grep -q "<p class=.note.>too few boots for an interval" "$1"' _ "$T/two.html"
"${X[@]}" compare "$F1" "$G1" >"$T/fseed.txt" 2>&1
check "compare (seed), one bucket's midpoint: '+0.00 ~[-0.35, +0.35]', a note says what '~' is" \
	bash -c '[ $(grep -c "+0.00 ~\[-0.35, +0.35\]" "$1") = 3 ] && grep -q "^~: the interval is the histogram.s resolution" "$1"' _ "$T/fseed.txt"
"${X[@]}" compare "$F3" "$G3" --format text >"$T/ftext.txt" 2>&1
check "compare --format text, 3 flat boots a side: '~[-0.35, +0.35]' rows, the note, within 80 columns" \
	bash -c '[ $(grep -c " ~\[-0.35, +0.35\]$" "$1") = 3 ] && grep -q "^~: the interval is the histogram.s resolution" "$1" &&
		! awk "length > 80" "$1" | grep -q .' _ "$T/ftext.txt"
"${X[@]}" compare "$F1" "$G1" --format markdown >"$T/fmd.txt" 2>&1
check "compare --format markdown: '\\~[-0.35, +0.35]' cells (no strikethrough), the note" \
	bash -c '[ $(grep -c "| \\\\~\[-0.35, +0.35\] |$" "$1") = 3 ] && grep -q "^~: the interval is the histogram.s resolution" "$1"' _ "$T/fmd.txt"
"${X[@]}" compare "$F1" "$G1" --html "$T/flat.html" >/dev/null 2>&1
check "compare --html, one bucket's midpoint: the table's interval cells '~[-0.35, +0.35]', thrice, and the note" \
	bash -c '[ $(grep -o "<td class=.n.>~\[-0.35, +0.35\]</td>" "$1" | wc -l) = 3 ] && grep -q "<p class=.note.>~: the interval is the histogram" "$1"' _ "$T/flat.html"

# check: a case with no interval is not tested; none tested is no verdict.
"${X[@]}" check --baseline "$A2" "$B2" >"$T/check.txt" 2>"$T/check.err"
rc=$?
check "check, 2 boots a side (all 'faster' by >50 %): nothing was checked, exit 3 ($rc: $(cat "$T/check.err"))" \
	bash -c '[ $1 = 3 ] && grep -q "none of the 3 matched cases could be tested (too few boots: 3 or more a side)" "$2" &&
		! grep -q "^check: " "$3"' _ "$rc" "$T/check.err" "$T/check.txt"
"${X[@]}" check --baseline "$A2" "$B2" --json >"$T/check.json" 2>/dev/null
rc=$?
v=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["verdict"])' "$T/check.json" 2>&1)
check "check --json: exit 3, verdict 'not tested' ($rc: $v)" bash -c '[ $1 = 3 ] && [ "$2" = "not tested" ]' _ "$rc" "$v"
"${X[@]}" check --baseline "$A3" "$B3" >"$T/check3.txt" 2>&1
rc=$?
check "check, 3 boots a side: judged ($rc: $(tail -1 "$T/check3.txt"))" \
	bash -c '[ $1 = 0 ] && tail -1 "$2" | grep -q "^check: pass: 0 of 3 tested cases"' _ "$rc" "$T/check3.txt"
check "SIGTERM: clean shutdown" stop_daemon
