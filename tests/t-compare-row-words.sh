#!/bin/bash
# t-compare-row-words.sh — every rendering of a compare says which row it
# compares, in the row table's words (host/common/pseudo_words.c, served
# as GET /api/v1/schema's lock_row and call_row), not "p50" where the
# figure is lock_hold's hold per acquisition: the API's method_text, the
# seed tables' titles, --format text's and --flat's column heads (--flat's
# naming its unit, cycles, where text's are ns), and the
# --html file and compare.csv (which named no row at all). Runs: xcb-gen's (its `locked`
# cases carry a lock profile), two boots a side, B 30 % slower.
# timeout: 120
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "compare names the row it compares"
start_daemon --open || { notok "the daemon starts"; exit 1; }
"$XCB_GEN" --server "127.0.0.1:$PORT" --runs 4 --reps 5 --factor 1,1,1.3,1.3 >"$TMP/gen.out" 2>&1
check "4 generated runs stored" test "$(pyjson "$URL/api/v1/runs" 'sum(r["status"] == "complete" for r in d["runs"])')" = 4
curl -s "$URL/api/v1/schema" >"$TMP/schema.json"
X=("$XCBENCH" --server "$URL" compare 1,2 3,4)
"${X[@]}" --row lock_hold --json >"$TMP/lock.json" 2>&1
"${X[@]}" --json >"$TMP/all.json" 2>&1
"${X[@]}" --row lock_hold >"$TMP/seed.out" 2>&1
"${X[@]}" --row lock_hold --format text >"$TMP/text.out" 2>&1
"${X[@]}" --row lock_hold --flat >"$TMP/flat.out" 2>&1
"${X[@]}" --flat >"$TMP/flat-all.out" 2>&1
"${X[@]}" --row lock_hold --html "$TMP/lock.html" >/dev/null 2>&1
"${X[@]}" --html "$TMP/all.html" >/dev/null 2>&1
curl -s "$URL/api/v1/compare.csv?a=1,2&b=3,4&row=lock_hold" >"$TMP/lock.csv"
python3 - "$TMP" <<'PY'
import json, re, sys
from tap import ok
t = sys.argv[1]
schema = json.load(open(f"{t}/schema.json"))
lock, call = schema.get("lock_row") or {}, schema.get("call_row") or {}
ok(lock.get("figure") == "hold" and call.get("measure") == "the median call time" and call.get("figure") == "p50",
   f"the schema serves each row's figure and the call row ({lock}, {call})")
lj, aj = json.load(open(f"{t}/lock.json")), json.load(open(f"{t}/all.json"))
m = lj.get("method_text", "")
ok(lj.get("row") == "lock_hold" and lj.get("level") == "between_boot" and lj["cases"], "a between-boot lock_hold compare")
ok(f"row lock_hold: {lock.get('measure')}" in m and "p50" not in m and "median hold" in m,
   f"method_text names the row in the table's words, each boot's median hold, no p50 ({m})")
m = aj.get("method_text", "")
ok(f"row all: {call.get('measure')}" in m and "median p50" in m, f"without row: the all row, the call time ({m})")
seed = open(f"{t}/seed.out").read()
titles = [l for l in seed.splitlines() if l.startswith("% change of")]
ok(titles and all(l.startswith(f"% change of {lock['measure']} (geometric mean of the boots' hold),") for l in titles),
   f"seed tables: titled with the hold, not its p50 ({titles[:1]})")
text = open(f"{t}/text.out").read()
ok("A gm hold ns" in text and "B gm hold ns" in text and "p50" not in text and f"row lock_hold: {lock['measure']}" in
   re.sub(r"\s+", " ", text), "--format text: columns and method of the hold, the row named")
flat = open(f"{t}/flat.out").read().splitlines()
ok(flat and flat[0].split()[:2] == ["A_HOLD_CYCLES", "B_HOLD_CYCLES"], f"--flat heads, the unit named ({flat[0] if flat else ''})")
# --flat's figures are compare.csv's cycles (--format text's are ns): its
# heads said A_P50 beside text's "A p50 ns"
flat = open(f"{t}/flat-all.out").read().splitlines()
ok(flat and flat[0].split()[:2] == ["A_P50_CYCLES", "B_P50_CYCLES"], f"--flat without row: p50 in cycles ({flat[0] if flat else ''})")
html = open(f"{t}/lock.html").read()
ok(f"<p id='row'><b>Row compared</b>: lock_hold, {lock['measure']}</p>" in html, "--html names the row and its measure")
ok("A hold (cycles)" in html and "p50" not in html, "--html: its tables' heads and method say hold, no p50")
import csv
rows = list(csv.DictReader(open(f"{t}/lock.csv", newline="")))
ok(rows and all(r.get("row") == "lock_hold" for r in rows), f"compare.csv: each line names its row ({rows[0].get('row') if rows else '-'})")
html = open(f"{t}/all.html").read()
ok("<p id='row'><b>Row compared</b>: all</p>" in html and "A p50 (cycles)" in html and call["measure"] in html,
   "--html without row: row all, the p50 of the call time")
PY
