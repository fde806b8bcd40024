#!/bin/bash
# timeout: 180
# Honest significance (issue 25), on six REAL boots of one configuration
# (tests/fixtures/aa: QEMU TCG, -smp 4, suite=seed, locked/lockless/queued,
# inits 1-3, masks 1-3, callee work 0 and 5 us, 5 repetitions).
#  - A/A as groups (boots 1-3 vs 4-6, between-boot level): Benjamini-Hochberg
#    at FDR q = 0.05 with every null true bounds the chance of marking any
#    case at 5 %, so at most 5 % of the cases (here: at most 1 of 24) may be
#    marked; the A/A calibration over every split says the same.
#  - A/A as a single pair: the "within-boot only" warning in the API and
#    the CLI (the page: tests/t-web-history.sh).
#  - The planted difference (work_us=0 vs 5 on one algorithm, lockless, the
#    same boots) is marked by the group comparison; the A/A of the same
#    cases is not; `xcbench check --baseline` exits 0 on the A/A and 1 on
#    the planted regression.
#  - `compare --format text|markdown`: <= 80 columns, no trailing spaces,
#    numbers right-aligned, both sides named, a summary line.
#  - The run CSV has a column for every matched axis of GET /api/v1/schema.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "compare groups"

admin_daemon groups-admin
for i in 1 2 3 4 5 6; do
	zcat "$ROOT/tests/fixtures/aa/boot$i.serial.log.gz" >"$TMP/boot$i.log"
	"$XCBENCH" --server "$URL" --token-file "$TMP/token" ingest "$TMP/boot$i.log" >/dev/null 2>"$TMP/ing$i.err" ||
		sed 's/^/# /' "$TMP/ing$i.err"
done
n=$(pyjson "$URL/api/v1/runs" 'len([r for r in d["runs"] if r["status"] == "complete"])')
check "six captured boots stored as complete runs ($n)" [ "$n" = 6 ]
# ids in boot order (ingested one after another: 1..6)
mapfile -t ID < <(pyjson "$URL/api/v1/runs" '"\n".join(str(r["id"]) for r in sorted(d["runs"], key=lambda r: r["id"]))')
A="${ID[0]},${ID[1]},${ID[2]}" B="${ID[3]},${ID[4]},${ID[5]}"

curl -s "$URL/api/v1/compare?a=$A&b=$B" >"$TMP/aa.json"
curl -s "$URL/api/v1/compare?a=${ID[0]}&b=${ID[3]}" >"$TMP/pair.json"
W='a_where=algo=lockless,work_us=0'
curl -s "$URL/api/v1/compare?a=$A&b=$A&$W&b_where=algo=lockless,work_us=5" >"$TMP/plant.json"
curl -s "$URL/api/v1/compare?a=$A&b=$B&$W&b_where=algo=lockless,work_us=0" >"$TMP/aa1.json"
curl -s "$URL/api/v1/compare?a=$A&b=$A&a_where=work_us=0&b_where=work_us=5" >"$TMP/plant3.json"
curl -s "$URL/api/v1/calibrate?runs=$A,$B" >"$TMP/calib.json"
python3 - "$TMP" <<'PY'
import json, sys
t = sys.argv[1]
from tap import ok as tap
J = lambda n: json.load(open(f"{t}/{n}.json"))
aa, pair, plant, aa1, plant3, cal = J("aa"), J("pair"), J("plant"), J("aa1"), J("plant3"), J("calib")
s = aa["summary"]
W = "1 boot per side: no between-boot variance, intervals are within-boot only"
tap(aa["level"] == "between_boot" and aa["boots_a"] == 3 and aa["boots_b"] == 3 and s["cases"] == 24,
    f"A/A as groups: 3 boots a side, between-boot level, {s['cases']} matched cases")
tap(all(c["method"] == "between_boot" and c["a_boots"] == 3 and c["b_boots"] == 3 and c["q"] is not None
        for c in aa["cases"]), "every case: a between-boot interval and a BH q")
tap(s["flagged"] <= int(0.05 * s["cases"]),
    f"A/A as groups: {s['flagged']} of {s['cases']} marked, at most the FDR's 5 % ({int(0.05 * s['cases'])})")
tap(W not in aa["warnings"], "groups: no within-boot warning")
tap(not aa["mismatches"] and all(c["same"] for c in aa["conditions"]),
    "same configuration: no condition mismatch")
ps = pair["summary"]
tap(pair["level"] == "within_boot" and W in pair["warnings"],
    f"A/A as a single pair: level within_boot and the warning (it marks {ps['flagged']} of {ps['cases']})")
pl = plant["summary"]
tap(pl["cases"] == 4 and pl["slower"] >= 2,
    f"planted +5 us callee work on lockless: {pl['slower']} of {pl['cases']} marked slower")
tap(all(c["change_pct"] > 0 for c in plant["cases"]), "planted: every case's change is an increase")
# The same boots on both sides (two restrictions of one set of runs) are
# compared pair by pair: the boot-to-boot spread cancels (fdr_paired_log).
tap(all(c["method"] == "paired_boots" for c in plant["cases"]) and plant["method_text"].startswith("paired t")
    and all(c["method"] == "between_boot" for c in aa["cases"]),
    "the same boots both sides: paired by boot (method paired_boots); different boots: Welch between boots")
tap(aa1["summary"]["flagged"] == 0, f"the same lockless cases A/A: {aa1['summary']['flagged']} marked")
p3 = plant3["summary"]
tap(p3["slower"] >= p3["cases"] // 2, f"planted on every algorithm: {p3['slower']} of {p3['cases']} marked slower")
g, pr = cal["groups"], cal["pairs"]
tap(g["comparisons"] == 10 and g["false_positive_rate"] <= 0.05,
    f"calibrate: every 3-vs-3 split ({g['comparisons']}) marks {100 * g['false_positive_rate']:.2f} % of cases (<= 5 %)")
tap(pr["comparisons"] == 15 and pr["false_positive_rate"] > g["false_positive_rate"],
    f"calibrate: single pairs mark {100 * pr['false_positive_rate']:.1f} % (within-boot intervals cry wolf)")
PY

X=("$XCBENCH" --server "$URL")
"${X[@]}" compare "${ID[0]}" "${ID[3]}" >"$TMP/pair-seed.txt" 2>&1
# joined: the warning wraps at 80 columns
joined() { tr -s '\n ' ' ' <"$1"; }
check "CLI: a single pair prints the within-boot warning (seed view)" \
	grep -q "warning: 1 boot per side: no between-boot variance, intervals are within-boot only" <(joined "$TMP/pair-seed.txt")
"${X[@]}" compare "${ID[0]}" "${ID[3]}" --format text >"$TMP/pair-text.txt" 2>&1
check "CLI: and in the text report" grep -q "intervals are within-boot only" <(joined "$TMP/pair-text.txt")
"${X[@]}" compare "$A" "$B" --format text >"$TMP/aa.txt" 2>&1
"${X[@]}" compare --baseline "$A" "$A" --a-where algo=lockless,work_us=0 --b-where algo=lockless,work_us=5 \
	--format markdown >"$TMP/plant.md" 2>&1
sed 's/^/# /' "$TMP/aa.txt" | head -16
python3 - "$TMP/aa.txt" "$TMP/plant.md" "$TMP/pair-text.txt" <<'PY'
import re, sys
from tap import ok as tap
for path in sys.argv[1:]:
    lines = open(path).read().split("\n")
    name = path.rsplit("/", 1)[1]
    tap(max(len(l) for l in lines) <= 80, f"{name}: at most 80 columns ({max(len(l) for l in lines)})")
    tap(not any(l != l.rstrip() for l in lines), f"{name}: no trailing spaces")
    tap(any(l.startswith(("A: run", "- **A:** run")) for l in lines) and
        any(l.startswith(("B: run", "- **B:** run")) for l in lines), f"{name}: a header naming both sides")
    tap(any(l.startswith("summary: ") and "matched cases changed" in l for l in lines), f"{name}: a summary line")
text = open(sys.argv[1]).read().split("\n")
rows = [l for l in text if re.match(r"^\s+\d+\s+\d+\s+\d+\s+\d+\s+[+-]", l)]
hdr = [l for l in text if l.lstrip().startswith("mask")]
# right-aligned: every row's numeric fields end in the same columns as the header's titles
ends = lambda l: [m.end() for m in re.finditer(r"\S+(?: \S+)*?(?=\s{2,}|$)", l)]
def field_ends(l):
    return [m.end() for m in re.finditer(r"(\[[^\]]*\]|\S+)", l)]
# between boots the sides' figures are the boots' geometric means ("gm")
tap("A gm p50 ns" in hdr[0] and "B gm p50 ns" in hdr[0], f"text, groups of boots: the columns say geometric mean ({hdr[0].strip()})")
h = field_ends(hdr[0].replace("A gm p50 ns", "A_gm_p50_ns").replace("B gm p50 ns", "B_gm_p50_ns").replace("95% interval", "95%_interval"))
tap(len(rows) == 24 and all(field_ends(r) == h for r in rows),
    f"text: {len(rows)} rows, every number right-aligned under its title (ends {h})")
tap(all(re.search(r"\b\d+\s+\d+\s+[+-]\d+\.\d\d%\*? +\[[+-]\d+\.\d\d, [+-]\d+\.\d\d\]$", r) for r in rows),
    "text: absolute p50 (ns) of both sides beside the % change and its interval")
md = open(sys.argv[2]).read()
tap("|---:|---:|---:|---:|---:|---:|" in md and md.count("*|") + md.count("* |") >= 2,
    "markdown: a right-aligned table with the planted cases starred")
PY

"${X[@]}" check --baseline "$A" "$B" >"$TMP/check-aa.txt" 2>&1
rc=$?
check "check --baseline on the A/A: exit 0, the tested cases counted ($rc; $(tail -1 "$TMP/check-aa.txt"))" \
	bash -c "[ $rc = 0 ] && tail -1 '$TMP/check-aa.txt' | grep -q '^check: pass: 0 of 24 tested cases'"
"${X[@]}" check --baseline "$A" "$A" --a-where algo=lockless,work_us=0 --b-where algo=lockless,work_us=5 >"$TMP/check-pl.txt" 2>&1
rc=$?
check "check --baseline on the planted regression: exit 1 ($rc; $(tail -1 "$TMP/check-pl.txt"))" [ "$rc" = 1 ]
"${X[@]}" compare "${ID[0]}" "${ID[0]}" --algo-a nosuch --algo-b locked >/dev/null 2>"$TMP/nosuch.err"
rc=$?
check "compare --algo-a nosuch: exit 3 with a clear error ($rc)" [ "$rc" = 3 ] && grep -q "no case matched" "$TMP/nosuch.err"
# ... which says what matched nothing and what there is: a typo in an
# algorithm or a where key was told only "no case matched".
"${X[@]}" compare "${ID[0]}" "${ID[0]}" --algo-a nosuch --algo-b locked >"$TMP/nosuch.out" 2>&1
check "compare --algo-a nosuch names the algorithms the runs have ($(grep -m1 'no case has' "$TMP/nosuch.out"))" \
	grep -Eq "^warning: A: no case has algo=nosuch \(its cases have algo: .*locked.*lockless" "$TMP/nosuch.out"
check "... and suggests none when no algorithm is near nosuch" bash -c "! grep -q 'did you mean' '$TMP/nosuch.out'"
# A typo is told the nearest value or key by the payload keys' measure
# (cmdline_nearest: a swap of two letters is one edit), in the API's
# warning and so on the CLI's stderr.
"${X[@]}" compare "${ID[0]}" "${ID[0]}" --algo-a lcokless --algo-b locked >"$TMP/lcok.err" 2>&1
rc=$?
check "compare --algo-a lcokless: exit 3 and did you mean 'lockless' ($rc: $(grep -m1 'no case has' "$TMP/lcok.err"))" \
	bash -c "[ $rc = 3 ] && grep -q \"^warning: A: no case has algo=lcokless; did you mean 'lockless'?\" '$TMP/lcok.err'"
"${X[@]}" compare "${ID[0]}" "${ID[0]}" --algo-a locked --algo-b lokced --json >/dev/null 2>"$TMP/lokc.err"
rc=$?
check "compare --algo-b lokced --json: exit 3 and did you mean 'locked' on stderr ($rc: $(grep -m1 'no case has' "$TMP/lokc.err"))" \
	bash -c "[ $rc = 3 ] && grep -q \"^warning: B: no case has algo=lokced; did you mean 'locked'?\" '$TMP/lokc.err'"
w=$(pyjson "$URL/api/v1/compare?a=${ID[0]}&b=${ID[0]}&a_where=wrok_us=0&b_where=work_us=5" '"\n".join(d["warnings"])')
check "API: a_where=wrok_us=0 warns with did you mean 'work_us' ($w)" \
	grep -q "^A: no case has the key 'wrok_us'; did you mean 'work_us'? (wrok_us=0 matched nothing)" <<<"$w"
"${X[@]}" compare "${ID[0]}" "${ID[0]}" --a-where wiat=done --json >/dev/null 2>"$TMP/wiat.err"
rc=$?
check "compare --a-where wiat=done --json: exit 3, and stderr says no case has the key ($rc: $(grep -m1 wiat "$TMP/wiat.err"))" \
	bash -c "[ $rc = 3 ] && grep -q \"^warning: A: no case has the key 'wiat'; did you mean 'wait'?\" '$TMP/wiat.err'"
# No case matched is no verdict, in every output form (a --json check
# used to say "pass" and exit 0 on a typo in --a-where).
"${X[@]}" check --baseline "$A" "$B" --a-where work_us=999 --json >"$TMP/none.json" 2>"$TMP/none.err"
rc=$?
check "check --json with no case matched: exit 3 ($rc)" [ "$rc" = 3 ]
check "... its verdict says so ($(grep -o '"verdict": "[^"]*"' "$TMP/none.json"))" \
	grep -q '"verdict": "no case matched"' "$TMP/none.json"
for form in --json --csv; do
	"${X[@]}" compare "$A" "$B" --a-where work_us=999 $form >/dev/null 2>"$TMP/none$form.err"
	rc=$?
	check "compare $form with no case matched: exit 3 ($rc)" [ "$rc" = 3 ] && grep -q "no case matched" "$TMP/none$form.err"
done
"${X[@]}" compare "$A" "$B" --csv --json >/dev/null 2>"$TMP/both.err"
rc=$?
check "compare --csv --json: a usage error (exit $rc: $(head -1 "$TMP/both.err"))" [ "$rc" = 2 ]
# --html FILE is written beside whichever form is printed (it was skipped
# with --json or --csv).
for form in --json --csv; do
	rm -f "$TMP/cmp$form.html"
	"${X[@]}" compare "$A" "$B" $form --html "$TMP/cmp$form.html" >"$TMP/cmp$form.out" 2>&1
	rc=$?
	check "compare $form --html FILE: exit $rc, the file written and the $form form printed" \
		bash -c "[ $rc = 0 ] && grep -q '</html>' '$TMP/cmp$form.html' && head -c1 '$TMP/cmp$form.out' | grep -q '[{a-z]'"
done
"${X[@]}" compare "$A" "$B" --html /nonexistent/x.html >/dev/null 2>"$TMP/html.err"
check "compare --html into a missing folder says why ($(cat "$TMP/html.err"))" grep -q "No such file or directory" "$TMP/html.err"
check "compare and check --help print '%' as it is" bash -c "! { '$XCBENCH' compare --help; '$XCBENCH' check --help; } | grep -q '%%'"
# The seed view's titles name what sets the sides apart: two sides of one
# algorithm restricted by another key were titled "lockless -> lockless".
"${X[@]}" compare "$A" "$A" --a-where algo=lockless,work_us=0 --b-where algo=lockless,work_us=5 >"$TMP/plant-seed.txt" 2>&1
t=$(grep -m1 '^% change of' "$TMP/plant-seed.txt")
check "seed view, --a-where work_us=0 --b-where work_us=5: the title names each side's restriction ($t)" \
	grep -q '^% change of the median call time (geometric mean of the boots. p50), lockless (work_us=0) -> lockless (work_us=5), ' <<<"$t"
"${X[@]}" compare "$A" "$A" --algo-a locked --algo-b lockless >"$TMP/algos-seed.txt" 2>&1
t=$(grep -m1 '^% change of' "$TMP/algos-seed.txt")
check "... and two algorithms with no restriction are titled by them alone ($t)" \
	grep -q '^% change of the median call time (geometric mean of the boots. p50), locked -> lockless, ' <<<"$t"
"${X[@]}" calibrate "$A,$B" >"$TMP/calib.txt" 2>&1
check "xcbench calibrate prints both rates" grep -q "groups (3 vs 3 boots)" "$TMP/calib.txt"
# Five boots: halves of 2 have no interval (compare's too_few_boots), so no
# group is compared, and calibrate says why rather than "0 % marked" (its
# groups of 2 once counted every case, none of them tested).
"${X[@]}" calibrate "$A,${ID[3]},${ID[4]}" >"$TMP/calib5.txt" 2>&1
check "xcbench calibrate of 5 boots: no group comparison, the 6 boots groups need said ($(grep -m1 '^groups' "$TMP/calib5.txt"))" \
	grep -q '^groups: fewer than 6 boots (3 a side), no group comparison' "$TMP/calib5.txt"
curl -s "$URL/api/v1/calibrate?runs=$A,${ID[3]},${ID[4]}" >"$TMP/calib5.json"
check "GET calibrate of 5 runs: groups.comparisons 0, groups_min_boots 6" \
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(not (d["groups"]["comparisons"] == 0 and d["groups_min_boots"] == 6 and d["pairs"]["comparisons"] == 10))' "$TMP/calib5.json"
sed 's/^/# /' "$TMP/calib.txt"

# The run CSV: a column for every matched axis, the list derived from the schema.
curl -s "$URL/api/v1/runs/${ID[0]}.csv" | head -1 >"$TMP/csvhdr"
curl -s "$URL/api/v1/schema" >"$TMP/schema.json"
python3 - "$TMP/csvhdr" "$TMP/schema.json" <<'PY'
import json, sys
from tap import ok
hdr = open(sys.argv[1]).read().strip().split(",")
axes = [k["key"] for k in json.load(open(sys.argv[2]))["case_keys"] if k["matching"]]
missing = [a for a in axes if a not in hdr]
ok(axes and not missing,
   f"run CSV: a column for each of the schema's {len(axes)} matched axes (missing: {missing})")
PY
# xcbench show: a column for every matched axis some case has (the list
# derived from the schema here), on the golden capture with TLB and sync
# cases; "-" where a case has no such axis.
zcat "$ROOT/tests/fixtures/qemu-smp4.serial.log.gz" >"$TMP/smp4.log"
"$XCBENCH" --server "$URL" --token-file "$TMP/token" ingest "$TMP/smp4.log" >/dev/null 2>&1
Q=$(pyjson "$URL/api/v1/runs?limit=1" 'd["runs"][0]["id"]')
"${X[@]}" show "$Q" >"$TMP/show.txt" 2>&1
curl -s "$URL/api/v1/runs/$Q" >"$TMP/run.json"
python3 - "$TMP/show.txt" "$TMP/schema.json" "$TMP/run.json" <<'PY'
import json, sys
from tap import ok
lines = open(sys.argv[1]).read().split("\n")
hdr = next(l for l in lines if l.lstrip().startswith("CASE")).split()
axes = [k["key"] for k in json.load(open(sys.argv[2]))["case_keys"] if k["matching"]]
cases = json.load(open(sys.argv[3]))["cases"]
have = [a for a in axes if any(a in c["config"] for c in cases)]
missing = [a for a in have if a.upper() not in hdr]
ok(have and not missing and {"BATCH", "METHOD", "FLUSH", "PAGES"} <= set(hdr),
   f"xcbench show: a column for each of the {len(have)} matched axes the run's cases have (missing: {missing})")
PY
# Conditions: the golden capture (payload 2d77dc2, suite quick) against a
# boot of the A/A set (20780d8, seed) is flagged in the API and the CLI.
m=$(pyjson "$URL/api/v1/compare?a=$Q&b=${ID[0]}" '" | ".join(d["mismatches"])')
check "differing conditions are listed ($m)" bash -c "grep -q 'payload commit differs: 2d77dc2 vs 20780d8' <<<'$m' && grep -q 'suite differs: quick vs seed' <<<'$m'"
"${X[@]}" compare "$Q" "${ID[0]}" --format text >"$TMP/mism.txt" 2>&1
check "... and the CLI lists them as mismatch lines" grep -q "^mismatch: payload commit differs: 2d77dc2 vs 20780d8" "$TMP/mism.txt"
# A check in which no case could be tested (one boot a side, fewer than 5
# repetitions: no interval, no p) is no verdict either: it used to print
# "pass: 0 of N" and exit 0 whatever B's figures.
curl -sf -X POST "${ADMIN[@]}" -d '{"token":"2b000000000000a1","suite":"gen"}' "$URL/api/v1/runs" >/dev/null
"$XCB_GEN" --server 127.0.0.1:$PORT --runs 1 --token 2b000000000000a1 --reps 2 >/dev/null 2>&1
G=$(pyjson "$URL/api/v1/runs?limit=1" 'd["runs"][0]["id"]')
"${X[@]}" check --baseline "$G" "$G" >"$TMP/untested.txt" 2>"$TMP/untested.err"
rc=$?
check "check with no case testable: exit 3, says why ($rc: $(cat "$TMP/untested.err"))" \
	bash -c "[ $rc = 3 ] && grep -q 'could be tested (too few repetitions' '$TMP/untested.err' && ! grep -q '^check: pass' '$TMP/untested.txt'"
"${X[@]}" check --baseline "$G" "$G" --json >"$TMP/untested.json" 2>/dev/null
check "... --json: verdict \"not tested\" ($(grep -o '"verdict": "[^"]*"' "$TMP/untested.json"))" \
	grep -q '"verdict": "not tested"' "$TMP/untested.json"
# The HTML file stands alone: the conditions travel with it, a case
# without an interval says why (no "nan"), and a key a case does not have
# is a dash, not 0 (initiators, when the sides restrict it: not matched).
"${X[@]}" compare "$G" "$G" --html "$TMP/few.html" >/dev/null 2>&1
"${X[@]}" compare "$Q" "$Q" --a-where inits=1 --b-where inits=2 --html "$TMP/sync.html" >/dev/null 2>&1
check "compare --html: conditions table, '(too few reps)' and no NaN" \
	bash -c "grep -q \"<table id='conditions'>\" '$TMP/few.html' && grep -q 'hypervisor' '$TMP/few.html' &&
		grep -q '(too few reps)' '$TMP/few.html' && ! grep -qiE '[^a-z]nan[^a-z]' '$TMP/few.html' '$TMP/sync.html'"
check "compare --html: a case whose key has no initiators shows a dash, not 0 ($(grep -c ' CPU, – init' "$TMP/sync.html") rows)" \
	bash -c "grep -q ' CPU, – init' '$TMP/sync.html' && ! grep -q ' CPU, 0 init' '$TMP/sync.html'"
# Hypervisors by name (proto XCB_HYPERVISORS): the schema lists the golden
# capture's signature under the name the dashboard shows, and the run list's
# search finds the run by that name (its HELLO has only the signature).
n=$(python3 -c 'import json,sys; h=json.load(open(sys.argv[1]))["hypervisors"]; print([x["name"] for x in h["signatures"] if x["signature"]=="TCGTCGTCGTCG"], h["bare_metal"])' "$TMP/schema.json")
check "GET /api/v1/schema names the hypervisors ($n)" [ "$n" = "['QEMU TCG'] none (bare metal)" ]
f=$(pyjson "$URL/api/v1/runs?q=qemu%20TCG&limit=100" '[r["id"] for r in d["runs"]]')
check "runs?q=qemu TCG finds the TCG capture by its hypervisor's name ($f)" \
	python3 -c "import sys; f = $f; sys.exit(not ($Q in f and '\"TCGTCGTCGTCG\"' in open('$TMP/run.json').read()))"
# `unstable host` (issue 21's RESULT flag XCB_RF_UNSTABLE, bit 0x4): the
# boots here are stable; one repetition of one case of boot 2 is marked as the
# payload marks a case whose floor moved (no host can be made unstable on
# demand), and the comparison lists it in its conditions and mismatches.
m=$(pyjson "$URL/api/v1/compare?a=${ID[0]},${ID[1]},${ID[2]}&b=${ID[3]},${ID[4]},${ID[5]}" '" | ".join(d["mismatches"])')
check "stable boots: no unstable-host line ($m)" bash -c "! grep -q 'unstable host' <<<'$m'"
sqlite3 -cmd ".timeout 10000" "$DB" "UPDATE results SET flags = flags | 4 WHERE run_id = ${ID[1]} AND rep = 0 AND case_id =
	(SELECT min(case_id) FROM cases WHERE run_id = ${ID[1]} AND kind = 'xcall' AND algo = 'lockless')"
m=$(pyjson "$URL/api/v1/compare?a=${ID[0]},${ID[1]},${ID[2]}&b=${ID[3]},${ID[4]},${ID[5]}" '" | ".join(d["mismatches"] + d["warnings"])')
check "a case flagged unstable host is a note in mismatches, each side named, not a difference of the sides ($m)" \
	bash -c 'grep -qF "unstable host cases: 1 of A'"'"'s cases (run $2), none of B'"'"'s" <<<"$1" &&
		grep -q "a condition to note: see mismatches" <<<"$1" && ! grep -q "differ in conditions" <<<"$1"' _ "$m" "${ID[1]}"
"${X[@]}" compare "${ID[0]},${ID[1]},${ID[2]}" "${ID[3]},${ID[4]},${ID[5]}" --format text >"$TMP/unst.txt" 2>&1
check "... and the CLI warns of it: a mismatch line, which its warning points at" \
	bash -c 'grep -qF "mismatch: unstable host cases: 1 of A'"'"'s cases (run $2), none of B'"'"'s" "$1" &&
		grep -q "^warning: .*see mismatches" "$1"' _ "$TMP/unst.txt" "${ID[1]}"
# The same runs on both sides (two algorithms): the unstable case is on
# both, and the warning does not say the sides differ - with one run a
# side, and with three (each run's own count made groups "differ").
for side in "${ID[1]}" "${ID[0]},${ID[1]},${ID[2]}"; do
	w=$(pyjson "$URL/api/v1/compare?a=$side&b=$side&algo_a=locked&algo_b=lockless" '" | ".join(d["mismatches"] + d["warnings"])')
	check "runs $side against themselves: a condition to note, not a difference ($w)" \
		bash -c 'grep -q "a condition to note: see mismatches" <<<"$1" && ! grep -q differ <<<"$1"' _ "$w"
done
# Only the cases compared count: the flagged lockless case is not among
# locked against queued.
m=$(pyjson "$URL/api/v1/compare?a=${ID[1]}&b=${ID[1]}&algo_a=locked&algo_b=queued" '" | ".join(d["mismatches"] + d["warnings"])')
check "an unstable case outside the compared ones is not counted ($m)" bash -c "! grep -q 'unstable host\|condition' <<<'$m'"
# Both sides from one run (two algorithms), each with an unstable case:
# the line names the sides, A and B ("run 2: 1 case vs run 2: 1 case" read
# as one run counted twice, differently).
sqlite3 -cmd ".timeout 10000" "$DB" "UPDATE results SET flags = flags | 4 WHERE run_id = ${ID[1]} AND rep = 0 AND case_id =
	(SELECT min(case_id) FROM cases WHERE run_id = ${ID[1]} AND kind = 'xcall' AND algo = 'locked')"
m=$(pyjson "$URL/api/v1/compare?a=${ID[1]}&b=${ID[1]}&algo_a=locked&algo_b=lockless" '" | ".join(d["mismatches"])')
check "one run on both sides, unstable cases on each: A's and B's counts ($m)" \
	test "$m" = "unstable host cases: 1 of A's cases (run ${ID[1]}), 1 of B's (run ${ID[1]})"
m=$(pyjson "$URL/api/v1/compare?a=${ID[0]},${ID[1]},${ID[2]}&b=${ID[0]},${ID[1]},${ID[2]}&algo_a=locked&algo_b=lockless" '" | ".join(d["mismatches"])')
check "... and with a group a side ($m)" \
	test "$m" = "unstable host cases: 1 of A's cases (run ${ID[1]}), 1 of B's (run ${ID[1]})"
sqlite3 -cmd ".timeout 10000" "$DB" "UPDATE results SET flags = flags | 4 WHERE run_id = ${ID[2]} AND rep = 0 AND case_id =
	(SELECT min(case_id) FROM cases WHERE run_id = ${ID[2]} AND kind = 'xcall' AND algo = 'locked')"
m=$(pyjson "$URL/api/v1/compare?a=${ID[0]},${ID[1]},${ID[2]}&b=${ID[0]},${ID[1]},${ID[2]}&algo_a=locked&algo_b=lockless" '" | ".join(d["mismatches"])')
check "... with two runs of a side that have some, each run's count ($m)" \
	test "$m" = "unstable host cases: 2 of A's cases (run ${ID[1]}: 1, run ${ID[2]}: 1), 1 of B's (run ${ID[1]})"
# Back as they were: exactly the two rows set above, each by its own run.
for r in "${ID[1]}" "${ID[2]}"; do
	sqlite3 -cmd ".timeout 10000" "$DB" "UPDATE results SET flags = flags & ~4 WHERE run_id = $r AND rep = 0 AND case_id =
		(SELECT min(case_id) FROM cases WHERE run_id = $r AND kind = 'xcall' AND algo = 'locked')"
done
# A compared case that failed a check (RESULT flag 2, XCB_RF_INVARIANT: an
# algorithm that lost or duplicated calls) is named, and warned of: a
# comparison against a broken algorithm looked like any other.
sqlite3 -cmd ".timeout 10000" "$DB" "UPDATE results SET flags = flags | 2 WHERE run_id = ${ID[4]} AND rep = 1 AND case_id =
	(SELECT min(case_id) FROM cases WHERE run_id = ${ID[4]} AND kind = 'xcall' AND algo = 'lockless')"
m=$(pyjson "$URL/api/v1/compare?a=${ID[0]},${ID[1]},${ID[2]}&b=${ID[3]},${ID[4]},${ID[5]}" '" | ".join(d["mismatches"] + d["warnings"])')
check "a compared case that failed a check: a mismatch line and a warning ($m)" \
	bash -c 'grep -qF "cases that failed a check: none of A'"'"'s cases, 1 of B'"'"'s (run $2)" <<<"$1" &&
		grep -q "compared cases failed a check .*not those of a correct algorithm" <<<"$1" && ! grep -q "differ in conditions" <<<"$1"' _ "$m" "${ID[4]}"
"${X[@]}" compare "${ID[0]},${ID[1]},${ID[2]}" "${ID[3]},${ID[4]},${ID[5]}" --format text >"$TMP/failed.txt" 2>&1
check "... and the CLI warns of it" grep -q "^warning: compared cases failed a check" "$TMP/failed.txt"
m=$(pyjson "$URL/api/v1/compare?a=${ID[4]}&b=${ID[4]}&algo_a=locked&algo_b=queued" '" | ".join(d["mismatches"] + d["warnings"])')
check "... but not when that case is not compared ($m)" bash -c "! grep -q 'failed a check' <<<'$m'"
# The run page (what show reads) is cached by the run's frames and last
# frame (casecache.c, run_renders): flags written behind the daemon's back
# need a new last_frame to be read, as a new frame would bring.
sqlite3 -cmd ".timeout 10000" "$DB" "UPDATE runs SET last_frame = last_frame + 1 WHERE id IN (${ID[1]}, ${ID[4]})"
"${X[@]}" show "${ID[4]}" >"$TMP/show-failed.txt" 2>&1
"${X[@]}" show "${ID[1]}" >"$TMP/show-unst.txt" 2>&1
check "xcbench show marks the failed case and the unstable one in NOTE, and only those ($(grep -c ' FAILED check$' "$TMP/show-failed.txt") failed, $(grep -c ' unstable host$' "$TMP/show-unst.txt") unstable)" \
	bash -c "[ \$(grep -c ' FAILED check$' '$TMP/show-failed.txt') = 1 ] && [ \$(grep -c ' unstable host$' '$TMP/show-unst.txt') = 1 ] &&
		! grep -q 'unstable host$' '$TMP/show-failed.txt' && grep -q ' P50_CYC .* NOTE$' '$TMP/show-failed.txt'"
sqlite3 -cmd ".timeout 10000" "$DB" "UPDATE results SET flags = flags & ~2 WHERE run_id = ${ID[4]}"
# show carries what the seed's table cannot: fairness under a case with 2
# initiators, the lock profile under one whose algorithm keeps it (locked)
check "xcbench show: fairness and lock-profile lines under the cases ($(grep -c 'fairness  *jain' "$TMP/show-failed.txt") fairness, $(grep -c 'lock profile  *locked.s call lock: [1-9]' "$TMP/show-failed.txt") lock)" \
	bash -c "grep -Eq '^ +fairness +jain [0-9.]+ over elapsed_throughput, p50 max/min [0-9.]+$' '$TMP/show-failed.txt' &&
		grep -Eq '^ +lock profile +locked.s call lock: [1-9][0-9]* acquisitions, [0-9]+ contended, hold [0-9]+, wait [0-9]+ cycles' '$TMP/show-failed.txt'"
# Three boots against one: within-boot, and it says which side has one.
w=$(pyjson "$URL/api/v1/compare?a=$A&b=${ID[3]}" '" | ".join(d["warnings"])')
check "3 boots against 1: the warning names B's one boot ($w)" \
	grep -q "1 boot on B's side (3 on A's): no between-boot variance, intervals are within-boot only" <<<"$w"
# A side with a run that is not complete is said, in the API and in check:
# a crashed baseline must not pass a check unremarked.
sqlite3 -cmd ".timeout 10000" "$DB" "UPDATE runs SET status = 'crashed' WHERE id = ${ID[5]}"
"${X[@]}" check --baseline "$A" "$B" >"$TMP/crashed.txt" 2>&1
check "check warns of B's crashed run ($(grep -m1 crashed "$TMP/crashed.txt"))" \
	grep -q "^warning: run ${ID[5]} (B) is crashed: only the cases it stored are compared" "$TMP/crashed.txt"
sqlite3 -cmd ".timeout 10000" "$DB" "UPDATE runs SET status = 'complete' WHERE id = ${ID[5]}"
"${X[@]}" export 999 >/dev/null 2>"$TMP/exp.err"
check "export of a missing run: the error in words, not JSON ($(cat "$TMP/exp.err"))" \
	bash -c "grep -q 'run 999 not found' '$TMP/exp.err' && ! grep -q '{' '$TMP/exp.err'"
check "SIGTERM: clean shutdown" stop_daemon
