#!/bin/bash
# t-compare-levels.sh - a comparison's level (between boots, within one) is
# each case's: a case that is in one run of a side is compared within that
# boot however many runs the side has. Runs booted at --cpus 2, 4 and 8,
# compared 3 runs a side by delivery, have each case in one run only: every
# cell was a bootstrap over one boot while the answer said level
# between_boot, the titles "geometric mean of the boots'", the method line
# "paired t ... each boot's median", and the "within-boot only" warning was
# gone.
#  - every case in 1 boot of a side: level within_boot (each case's too,
#    compare.csv's level column), the bootstrap method line, a warning that
#    says the intervals are within-boot only, no "geometric mean" in the
#    seed's title, the summary's count of such cases.
#  - some cases in 3 boots a side, one in 1: level mixed, the method line
#    per case with its counts, the warning naming how many, the seed's cell
#    of the 1-boot case marked "1 boot" with the legend.
# Hand-made runs (UDP frames, tests/web/frames.py): xcall cases of two
# deliveries, 5 repetitions each.
# timeout: 120
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
open_daemon_test "compare: each case's level"

# send TOKEN MASKS: a run with a unicast and an allbutself case per mask of
# the comma-separated MASKS (allbutself 1.3x slower).
send() {
	frames_py "$@" <<'PY'
import struct, sys
import frames
token, masks = int(sys.argv[2], 16), [int(m) for m in sys.argv[3].split(',')]
r = frames.Run(token)
r.text(frames.HELLO, 'fw=t-compare-levels\ncpus=8\ntsc_khz=2000000\ntransport=udp\nsuite=quick\n')
cid = 0
for mask in masks:
    for delivery, factor in (('unicast', 1.0), ('allbutself', 1.3)):
        cid += 1
        r.text(frames.CASE, f'id={cid}\nkind=xcall\nalgo=locked\ndelivery={delivery}\nwait=done\ninits=1\n'
               f'mask={mask}\nplacement=first\noverlap=disjoint\nwork_us=0\niters=400\nreps=5\n')
        for rep in range(5):
            r.result(cid, rep, frames.ALL, int((2000 + 300 * mask + 7 * rep) * factor), ipis=400 * mask,
                     calls=400 * mask)
r.text(frames.LOG, 'done: ok (0 ERROR frames, 0 stale, 0 lost, 0 duplicated, 0 out of order)')
r.frame(frames.DONE, struct.pack('<II', len(r.frames), 0))
frames.send(sys.argv[1], r.frames, 0, len(r.frames))
PY
}
# R1: mask 1; R2: mask 2; R3: masks 1, 2, 3; R4: masks 1, 2.
send 1e7e01 1 && send 1e7e02 2 && send 1e7e03 1,2,3 && send 1e7e04 1,2
check "four hand-made runs sent" test $? -eq 0
ids=$(curl -sf "$URL/api/v1/runs" | python3 -c 'import json,sys; print(" ".join(str(r["id"]) for r in sorted(json.load(sys.stdin)["runs"], key=lambda r: r["id"])))')
read -r R1 R2 R3 R4 <<<"$ids"
W="a_where=delivery=unicast&b_where=delivery=allbutself"

# R1,R2 against themselves: mask 1 is in R1 only, mask 2 in R2 only.
curl -s "$URL/api/v1/compare?a=$R1,$R2&b=$R1,$R2&$W" >"$T/within.json"
curl -s "$URL/api/v1/compare.csv?a=$R1,$R2&b=$R1,$R2&$W" >"$T/within.csv"
# R1-R4: masks 1 and 2 are in three runs each (3 boots: an interval,
# compare.h COMPARE_MIN_BOOTS), mask 3 in R3 only.
curl -s "$URL/api/v1/compare?a=$R1,$R2,$R3,$R4&b=$R1,$R2,$R3,$R4&$W" >"$T/mixed.json"
curl -s "$URL/api/v1/compare.csv?a=$R1,$R2,$R3,$R4&b=$R1,$R2,$R3,$R4&$W" >"$T/mixed.csv"
python3 - "$T" <<'PY'
import csv, json, sys
from tap import ok
t = sys.argv[1]
w, m = json.load(open(f"{t}/within.json")), json.load(open(f"{t}/mixed.json"))
lv = lambda o: sorted((c["key"]["mask"], c["level"], c["method"], c["a_boots"], c["b_boots"]) for c in o["cases"])
ok(w["level"] == "within_boot" and lv(w) == [(1, "within_boot", "bootstrap", 1, 1), (2, "within_boot", "bootstrap", 1, 1)],
   f"2 boots a side, each case in one: level within_boot, each case's too ({w.get('level')}, {lv(w)})")
ok(w["method_text"].startswith("bootstrap over repetitions of one boot") and "geometric mean" not in w["method_text"],
   f"... the method line is the bootstrap's ({w['method_text'][:60]})")
ok(any("intervals are within-boot only" in x and "every compared case is in 1 boot" in x for x in w["warnings"]),
   f"... a warning says the intervals are within-boot only ({w['warnings']})")
ok(m["level"] == "mixed" and lv(m) == [(1, "between_boot", "paired_boots", 3, 3), (2, "between_boot", "paired_boots", 3, 3),
                                       (3, "within_boot", "bootstrap", 1, 1)],
   f"masks 1, 2 in 3 boots a side, 3 in 1: level mixed, each case's own ({m.get('level')}, {lv(m)})")
ok(m["method_text"].startswith("per case: where each side has it in 2 or more boots (2 cases), paired t")
   and "where a side has it in 1 boot (1 case), bootstrap over repetitions" in m["method_text"],
   f"... the method line per case, with counts ({m['method_text'][:160]})")
ok(any(x.startswith("1 of 3 compared cases are in 1 boot of a side") for x in m["warnings"]),
   f"... the warning counts the 1-boot case ({m['warnings']})")
cells = sorted((r, c["level"]) for p in m["pivots"] for ri, r in enumerate(p["rows"]) for c in p["cells"][ri] if c)
ok(cells == [(1, "between_boot"), (2, "between_boot"), (3, "within_boot")], f"... the pivot cells carry it ({cells})")
for name, want in (("within", {"1": "within_boot", "2": "within_boot"}),
                   ("mixed", {"1": "between_boot", "2": "between_boot", "3": "within_boot"})):
    rows = list(csv.DictReader(open(f"{t}/{name}.csv", newline="")))
    ok({r["mask"]: r["level"] for r in rows} == want, f"compare.csv ({name}): a level column per case ({[(r['mask'], r.get('level')) for r in rows]})")
PY

"${X[@]}" compare "$R1,$R2" "$R1,$R2" --a-where delivery=unicast --b-where delivery=allbutself >"$T/within.txt" 2>&1
check "seed, all within: no 'geometric mean' title, the warning, the summary counts the cases" \
	bash -c '! grep -q "geometric mean" "$1" && grep -q "^% change of .* (p50), " "$1" &&
		tr "\n" " " <"$1" | tr -s " " | grep -q "warning: every compared case is in 1 boot of a side .*within-boot only" &&
		tr "\n" " " <"$1" | tr -s " " | grep -q "2 boots vs 2; .*2 of 2 cases in 1 boot of a side"' _ "$T/within.txt"
"${X[@]}" compare "$R1,$R2" "$R1,$R2" --a-where delivery=unicast --b-where delivery=allbutself --format text \
	>"$T/within-text.txt" 2>&1
check "text, all within: the columns are medians ('A p50 ns'), not gm" \
	bash -c 'grep -q " A p50 ns " "$1" && ! grep -q " gm " "$1"' _ "$T/within-text.txt"
"${X[@]}" compare "$R1,$R2,$R3,$R4" "$R1,$R2,$R3,$R4" --a-where delivery=unicast --b-where delivery=allbutself >"$T/mixed.txt" 2>&1
check "seed, mixed: the title says both, mask 3's cell alone marked '1 boot', the legend" \
	bash -c 'grep -q "geometric mean of the boots. p50; marked 1 boot: the median p50)" "$1" &&
		grep -q "^  3 CPUs in mask .* 1 boot *$" "$1" && [ $(grep -c " 1 boot *$" "$1") = 1 ] &&
		grep -q "^1 boot: the case is in one boot of a side" "$1"' _ "$T/mixed.txt"
"${X[@]}" compare "$R1,$R2,$R3,$R4" "$R1,$R2,$R3,$R4" --a-where delivery=unicast --b-where delivery=allbutself --format text \
	>"$T/mixed-text.txt" 2>&1
check "text, mixed: gm columns, mask 3's row marked '1 boot'" \
	bash -c 'grep -q " A gm p50 ns " "$1" && grep -Eq "^ +3 +1 .* 1 boot$" "$1" && [ $(grep -c " 1 boot$" "$1") = 1 ]' \
	_ "$T/mixed-text.txt"
check "SIGTERM: clean shutdown" stop_daemon
