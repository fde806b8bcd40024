#!/bin/bash
# t-compare-noflush.sh - a compared TLB case of method none is marked per
# case. Such a case invalidates nothing (README "TLB": a cost figure, never
# a pass; its stale reads are not checked), so against method invlpg it is
# "faster" for it: `compare 6 6 --a-where method=invlpg --b-where
# method=none` printed early_ack -22.12%* and nothing said B flushed nothing;
# `check` took it as a pass.
#  - compare's JSON: each case's a_no_flush/b_no_flush, the pivots' cells
#    too, the summary's no_flush_a/no_flush_b and a warning line;
#    compare.csv: a_no_flush,b_no_flush, the last two columns; the seed
#    table's CSV (format=seed, compare --format seed --csv): per initiator
#    count inits_N_no_flush after inits_N_failed, "B" in each cell.
#  - xcbench compare's seed, text and Markdown tables and --html mark the
#    case "0B", with a line that says what the mark is.
#  - xcbench check: B's case of method none is not judged: alone, nothing
#    was checked (exit 3, --json verdict "not tested"); beside cases that
#    flush, the pass says how many were left out.
# Hand-made runs (tests/lib/noflush-runs.sh) shaped as the tlb suite's
# early_ack cases (unicast, masks 1-3, 5 repetitions), each at method
# invlpg and at method none (0.78x the time: no invalidation).
# timeout: 120
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
. "$(dirname "$0")/lib/noflush-runs.sh"
open_daemon_test "compare: cases of method none"

noflush_send 0f1a01 && noflush_send 0f1a02
check "two hand-made runs sent" test $? -eq 0
ids=$(curl -sf "$URL/api/v1/runs" | python3 -c 'import json,sys; print(" ".join(str(r["id"]) for r in sorted(json.load(sys.stdin)["runs"], key=lambda r: r["id"])))')
read -r R S <<<"$ids"
Q="a=$R&b=$R&a_where=method=invlpg&b_where=method=none"
W=(--a-where method=invlpg --b-where method=none)

curl -s "$URL/api/v1/compare?$Q" >"$T/in.json"
curl -s "$URL/api/v1/compare.csv?$Q" >"$T/in.csv"
curl -s "$URL/api/v1/compare?a=$R&b=$S" >"$T/rs.json"
python3 - "$T" <<'PY'
import csv, json, sys
from tap import ok
t = sys.argv[1]
o, rs = json.load(open(f"{t}/in.json")), json.load(open(f"{t}/rs.json"))
cs = o.get("cases", [])
ok(len(cs) == 3 and all(c.get("b_no_flush") is True and c.get("a_no_flush") is False for c in cs),
   f"compare invlpg -> none: every case b_no_flush, none a_no_flush ({[(c.get('a_no_flush'), c.get('b_no_flush')) for c in cs]})")
ok(all(c["change_pct"] < -20 for c in cs), "... (and B reads 'faster': what the marks are for)")
cells = [c for p in o.get("pivots", []) for row in p["cells"] for c in row if c]
ok(len(cells) == 3 and all(c.get("b_no_flush") is True and c.get("a_no_flush") is False for c in cells),
   "the pivot cells: b_no_flush")
s = o.get("summary", {})
ok(s.get("no_flush_b") == 3 and s.get("no_flush_a") == 0, f"summary: no_flush_a {s.get('no_flush_a')}, no_flush_b {s.get('no_flush_b')}")
want = "3 compared cases are of method none on B's side: they invalidate nothing (a cost figure; stale reads not checked)"
ok(want in o.get("warnings", []), f"the warning line ({o.get('warnings')})")
head = open(f"{t}/in.csv").readline().rstrip("\r\n")
rows = list(csv.DictReader(open(f"{t}/in.csv", newline="")))
ok(head.endswith(",a_where,b_where,a_no_flush,b_no_flush") and len(rows) == 3
   and all((r["a_no_flush"], r["b_no_flush"]) == ("0", "1") for r in rows),
   f"compare.csv: a_no_flush,b_no_flush last, 0 and 1 on every row ({head[-60:]})")
# runs against runs, unrestricted: the none cases are none on both sides
nf = sorted((c["key"].get("method"), c.get("a_no_flush"), c.get("b_no_flush")) for c in rs.get("cases", []))
ok(nf == [("invlpg", False, False)] * 3 + [("none", True, True)] * 3 and rs["summary"].get("no_flush_a") == 3,
   f"run against run: the method none cases marked on both sides, the invlpg ones not ({nf})")
PY

# The seed table's CSV: the printed 0B as inits_N_no_flush, "B" (AB where
# both sides are of method none, empty where neither is).
curl -s "$URL/api/v1/compare.csv?$Q&format=seed" >"$T/seed-in.csv"
curl -s "$URL/api/v1/compare.csv?a=$R&b=$S&format=seed" >"$T/seed-rs.csv"
"${X[@]}" compare "$R" "$R" "${W[@]}" --format seed --csv >"$T/seed-cli.csv" 2>&1
check "compare --format seed --csv: the API's format=seed" cmp -s "$T/seed-cli.csv" "$T/seed-in.csv"
python3 - "$T" <<'PY'
import csv, sys
from tap import ok
t = sys.argv[1]
h = next(csv.reader(open(f"{t}/seed-in.csv", newline="")))
rows = list(csv.DictReader(open(f"{t}/seed-in.csv", newline="")))
ok(h[8:] == ["inits_1_change_pct", "inits_1_ci_low", "inits_1_ci_high", "inits_1_significant",
             "inits_1_failed", "inits_1_no_flush"],
   f"seed CSV: inits_1_no_flush after inits_1_failed ({','.join(h[8:])})")
ok(len(rows) == 3 and all(r.get("inits_1_no_flush") == "B" and r.get("inits_1_failed") == "" for r in rows),
   f"... B in each mask's row ({[(r.get('mask'), r.get('inits_1_no_flush')) for r in rows]})")
rs = list(csv.DictReader(open(f"{t}/seed-rs.csv", newline="")))
got = sorted((r["fixed"], r["mask"], r.get("inits_1_no_flush")) for r in rs)
ok(len(rs) == 6 and all(nf == ("AB" if "method=none" in f else "") for f, _, nf in got),
   f"run against run: AB in the method none table's rows, empty in the invlpg one's ({[nf for _, _, nf in got]})")
PY

# The CLI's tables mark the cases; the legend says what the mark is.
words() { tr '\n' ' ' <"$1" | tr -s ' '; }
"${X[@]}" compare "$R" "$R" "${W[@]}" >"$T/seed.txt" 2>&1
check "compare (seed): each mask's cell marked 0B, and the legend" \
	bash -c '[ $(grep -Ec "^  [123] CPUs? +in mask .* 0B$" "$1") = 3 ] && grep -q "^0A, 0B, 0AB: the case is of method none" "$1"' _ "$T/seed.txt"
check "... and the warning" grep -q "warning: 3 compared cases are of method none on B's side: they invalidate nothing" \
	<<<"$(words "$T/seed.txt")"
"${X[@]}" compare "$R" "$R" "${W[@]}" --format text >"$T/text.txt" 2>&1
check "compare --format text: each row ends 0B, within 80 columns" \
	bash -c '[ $(grep -Ec "^ +[123] +1 .*\] 0B$" "$1") = 3 ] && grep -q "^0A, 0B, 0AB:" "$1" && ! awk "length > 80" "$1" | grep -q .' _ "$T/text.txt"
"${X[@]}" compare "$R" "$R" "${W[@]}" --format markdown >"$T/md.txt" 2>&1
check "compare --format markdown: each row's interval cell ends 0B" \
	bash -c '[ $(grep -Ec "^\| [123] \| 1 \| .*\] 0B \|$" "$1") = 3 ]' _ "$T/md.txt"
"${X[@]}" compare "$R" "$R" "${W[@]}" --html "$T/c.html" >/dev/null 2>&1
check "compare --html: each row marked 0B, the legend once" \
	bash -c '[ $(grep -c ">0B</b>" "$1") = 3 ] && [ $(grep -c "<p class=.note.>0A, 0B, 0AB:" "$1") = 1 ]' _ "$T/c.html"

# check: B flushed nothing: no pass, nothing was checked.
"${X[@]}" check --baseline "$R" "$R" "${W[@]}" >"$T/check.txt" 2>"$T/check.err"
rc=$?
check "check invlpg -> none: exit 3, not a pass ($rc: $(cat "$T/check.err"))" \
	bash -c '[ $1 = 3 ] && grep -q "none of the 3 tested cases could be judged: 3 of method none in B" "$2" &&
		! grep -q "^check: pass" "$3"' _ "$rc" "$T/check.err" "$T/check.txt"
"${X[@]}" check --baseline "$R" "$R" "${W[@]}" --json >"$T/check.json" 2>/dev/null
rc=$?
v=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["verdict"])' "$T/check.json" 2>&1)
check "... --json: exit 3, verdict 'not tested' ($rc: $v)" bash -c '[ $1 = 3 ] && [ "$2" = "not tested" ]' _ "$rc" "$v"
# beside cases that flush: those are judged, the method none ones named as left out
"${X[@]}" check --baseline "$R" "$S" >"$T/both.txt" 2>&1
rc=$?
check "check run against run: a pass of the 3 invlpg cases, the 3 of method none not judged ($rc: $(tail -1 "$T/both.txt"))" \
	bash -c '[ $1 = 0 ] && tail -1 "$2" | grep -q "^check: pass: 0 of 3 tested cases .*(3 tested not judged: of method none in B, they invalidate nothing: a cost figure, stale reads not checked)$"' \
	_ "$rc" "$T/both.txt"
"${X[@]}" check --baseline "$R" "$S" --json >"$T/both.json" 2>/dev/null
rc=$?
v=$(python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); c=o["check"]; print(o["verdict"], c["judged"], c.get("no_flush_b"))' "$T/both.json" 2>&1)
check "... --json: verdict pass, 3 judged, no_flush_b 3 ($rc: $v)" bash -c '[ $1 = 0 ] && [ "$2" = "pass 3 3" ]' _ "$rc" "$v"
check "SIGTERM: clean shutdown" stop_daemon
