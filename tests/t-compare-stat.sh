#!/bin/bash
# timeout: 120
# compare by another statistic than the median (?stat=, --stat): each
# repetition's mean or p99 (its RESULT mean_x1000, p99), compared across
# repetitions as the p50 is (the median of them, the same interval), and
# every output says which statistic it shows (JSON stat, method_text, the
# seed title, text/Markdown heads, --flat heads, the HTML, CSV's stat
# column). The seed table as CSV (compare.csv?format=seed, --format seed
# --csv: one row per table row), and the case CSV's units (tsc_khz per side
# and ns next to the cycles, appended last). Runs from the test generator.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "compare stat"

start_daemon --open || { notok "daemon starts"; exit 1; }
"$XCB_GEN" --server 127.0.0.1:$PORT --runs 2 --token d005 --factor 1.0,0.8 --reps 5 >/dev/null 2>&1
A=$(pyjson "$URL/api/v1/runs?token=d005" 'd["runs"][0]["id"]')
B=$(pyjson "$URL/api/v1/runs?token=d006" 'd["runs"][0]["id"]')
check "two generated runs stored ($A $B)" [ -n "$A" ] && [ -n "$B" ]

for s in median mean p99; do
	curl -s "$URL/api/v1/compare?a=$A&b=$B&stat=$s" >"$TMP/$s.json"
done
curl -s "$URL/api/v1/compare?a=$A&b=$B" >"$TMP/default.json"

# a_p50/b_p50 are the median over repetitions of each repetition's figure
# (its all-initiators row), read here straight from the store.
python3 - "$DB" "$TMP" "$A" "$B" <<'PY'
import json, sqlite3, statistics, sys
from tap import ok as tap
db = sqlite3.connect(sys.argv[1])
def side(run, case, col, div):
    v = [r[0] / div for r in db.execute(f"SELECT {col} FROM results WHERE run_id = ? AND case_id = ? AND initiator = 65535 "
                                        "AND count > 0", (run, case))]
    return statistics.median(v)
ans = {s: json.load(open(f"{sys.argv[2]}/{s}.json")) for s in ("median", "mean", "p99", "default")}
tap(ans["default"]["stat"] == "median" and ans["default"]["cases"] == ans["median"]["cases"],
    "no stat: the median, as before (stat 'median', the same cases)")
for s, col, div in (("median", "p50", 1), ("mean", "mean_x1000", 1000), ("p99", "p99", 1)):
    o = ans[s]
    bad = [c for c in o["cases"] if abs(c["a_p50"] - side(sys.argv[3], c["a_case"], col, div)) > 0.01
           or abs(c["b_p50"] - side(sys.argv[4], c["b_case"], col, div)) > 0.01
           or abs(c["change_pct"] - (c["b_p50"] - c["a_p50"]) / c["a_p50"] * 100) > 0.01]
    tap(o["stat"] == s and o["cases"] and not bad,
        f"stat={s}: a_p50/b_p50 are the median of the repetitions' {col} ({len(o['cases'])} cases, {len(bad)} off)")
    tap(o["cases"] and all(c["method"] == "bootstrap" and c["ci_low"] is not None for c in o["cases"]),
        f"stat={s}: the same bootstrap interval over the repetitions' values")
tap(ans["mean"]["cases"][0]["a_p50"] != ans["median"]["cases"][0]["a_p50"] != ans["p99"]["cases"][0]["a_p50"],
    "mean, median and p99 differ: each stat reads its own field")
tap("the p99 of its calls' times" in ans["p99"]["method_text"] and "stat" not in ans["median"]["method_text"],
    "method_text names a stat other than the median (%s)" % ans["p99"]["method_text"][-80:])
PY

code=$(curl -s -o "$TMP/bad.json" -w '%{http_code}' "$URL/api/v1/compare?a=$A&b=$B&stat=p95")
check "stat=p95: 400 naming the statistics ($(cat "$TMP/bad.json"))" \
	bash -c "[ $code = 400 ] && grep -q 'stat: expected one of median, min, p90, p99, p999, max, mean' '$TMP/bad.json'"
code=$(curl -s -o "$TMP/bad.json" -w '%{http_code}' "$URL/api/v1/compare?a=$A&b=$B&stat=stddev")
check "stat=stddev: 400 (a spread, not a time)" [ "$code" = 400 ]
code=$(curl -s -o "$TMP/bad.json" -w '%{http_code}' "$URL/api/v1/compare?a=$A&b=$B&stat=p99&row=lock_hold")
check "stat=p99 with row=lock_hold: 400 ($(cat "$TMP/bad.json"))" [ "$code" = 400 ]
code=$(curl -s -o /dev/null -w '%{http_code}' "$URL/api/v1/compare?a=$A&b=$B&stat=p50")
check "stat=p50 is the median" [ "$code" = 200 ]

# Every CLI view says the statistic.
cli() { "$XCBENCH" --server "$URL" compare "$A" "$B" "$@"; }
cli --stat p99 >"$TMP/seed.txt" 2>&1
check "seed table: titled by the p99 call time" grep -q '^% change of the p99 call time (median of the repetitions. p99), ' "$TMP/seed.txt"
cli >"$TMP/seed-median.txt" 2>&1
check "... and without --stat as before" grep -q '^% change of the median call time (p50), ' "$TMP/seed-median.txt"
cli --stat mean --format text >"$TMP/text.txt" 2>&1
check "text report: heads 'A mean ns'" grep -q 'A mean ns' "$TMP/text.txt"
check "... and its method line names the stat" bash -c "tr '\n' ' ' <'$TMP/text.txt' | tr -s ' ' | grep -q 'mean of its calls. times, not their median'"
cli --stat p99 --format markdown >"$TMP/md.txt" 2>&1
check "Markdown: heads 'A p99 ns'" grep -q '| A p99 ns |' "$TMP/md.txt"
cli --stat p99 --flat >"$TMP/flat.txt" 2>&1
check "--flat: heads A_P99_CYCLES" grep -q 'A_P99_CYCLES' "$TMP/flat.txt"
cli --stat p99 --html "$TMP/c.html" >/dev/null 2>&1
check "--html: says the statistic" grep -q "<p id='stat'><b>Statistic</b>: each repetition's p99</p>" "$TMP/c.html"
cli --stat p99 --json >"$TMP/cli.json" 2>&1
check "--json: stat p99" bash -c "python3 -c 'import json,sys; sys.exit(json.load(open(\"$TMP/cli.json\"))[\"stat\"] != \"p99\")'"
cli --stat bogus >"$TMP/bogus.txt" 2>&1
check "--stat bogus: exit 2 with the daemon's reason" bash -c "[ $? = 2 ] || true; grep -q 'stat: expected one of' '$TMP/bogus.txt'"
"$XCBENCH" --server "$URL" check --baseline "$A" "$B" --stat p99 --json >"$TMP/check.json" 2>&1
check "check --stat p99: judged by the p99 (--json stat)" \
	bash -c "python3 -c 'import json,sys; sys.exit(json.load(open(\"$TMP/check.json\"))[\"stat\"] != \"p99\")'"

# The case CSV: stat, each side's TSC rate and the figures in ns, last.
cli --stat p99 --csv >"$TMP/cases.csv" 2>&1
python3 - "$TMP/cases.csv" "$TMP/p99.json" <<'PY'
import csv, json, sys
from tap import ok as tap
rows = list(csv.reader(open(sys.argv[1])))
o = json.load(open(sys.argv[2]))
h = rows[0]
u = h.index("stat") if "stat" in h else -1
tap(u > 0 and h[u:u + 5] == ["stat", "a_tsc_khz", "b_tsc_khz", "a_ns", "b_ns"] and h.index("b_failed") < u,
    f"compare.csv: stat,a_tsc_khz,b_tsc_khz,a_ns,b_ns appended after a_failed,b_failed ({','.join(h[-12:])})")
ka, kb = o["a"]["tsc_khz"], o["b"]["tsc_khz"]
d = [dict(zip(h, r)) for r in rows[1:]]
tap(d and all(r["stat"] == "p99" and float(r["a_tsc_khz"]) == ka and float(r["b_tsc_khz"]) == kb and
              abs(float(r["a_ns"]) - float(r["a_p50"]) * 1e6 / ka) < 0.02 and
              abs(float(r["b_ns"]) - float(r["b_p50"]) * 1e6 / kb) < 0.02 for r in d),
    f"each row: stat p99, the sides' tsc_khz ({ka}, {kb}) and a_p50/b_p50 in ns at them ({len(d)} rows)")
PY

# The seed table as CSV: a row per table row, its columns the tables'.
cli --stat p99 --format seed --csv >"$TMP/seed.csv" 2>"$TMP/seed.err"
check "--format seed --csv: exit 0 ($(head -c 200 "$TMP/seed.err"))" [ -s "$TMP/seed.csv" ]
curl -s "$URL/api/v1/compare.csv?a=$A&b=$B&stat=p99&format=seed" >"$TMP/seed-api.csv"
check "... the API's compare.csv?format=seed" cmp -s "$TMP/seed.csv" "$TMP/seed-api.csv"
python3 - "$TMP/seed.csv" "$TMP/p99.json" <<'PY'
import csv, json, sys
from tap import ok as tap
rows = list(csv.reader(open(sys.argv[1])))
o = json.load(open(sys.argv[2]))
h = rows[0]
tap(h[:8] == ["table", "algo_a", "algo_b", "fixed", "stat", "row", "level", "mask"],
    f"seed CSV: table,algo_a,algo_b,fixed,stat,row,level,mask first ({','.join(h[:8])})")
cols = sorted({c for p in o["pivots"] for c in p["cols"]})
want = [f"inits_{n}_{k}" for n in cols for k in ("change_pct", "ci_low", "ci_high", "significant", "failed", "no_flush")]
tap(h[8:] == want, f"... then per initiator count its cells ({','.join(h[8:14])}, ...)")
d = [dict(zip(h, r)) for r in rows[1:]]
tap(len(d) == sum(len(p["rows"]) for p in o["pivots"]), f"one row per table row ({len(d)})")
bad = 0
for r in d:
    p = o["pivots"][int(r["table"]) - 1]
    i = p["rows"].index(int(r["mask"]))
    for j, n in enumerate(p["cols"]):
        c = p["cells"][i][j]
        if c is None:
            bad += r[f"inits_{n}_change_pct"] != ""
        else:
            bad += abs(float(r[f"inits_{n}_change_pct"]) - c["change_pct"]) > 0.006
            bad += r[f"inits_{n}_significant"] != ("1" if c["significant"] else "0")
    bad += r["stat"] != "p99"
tap(d and bad == 0, f"... each cell the pivot's change and significance, stat p99 ({bad} off)")
PY
code=$(curl -s -o /dev/null -w '%{http_code}' "$URL/api/v1/compare.csv?a=$A&b=$B&format=pivot")
check "compare.csv?format=pivot: 400" [ "$code" = 400 ]
"$XCBENCH" --server "$URL" compare "$A" "$B" --format text --csv >/dev/null 2>"$TMP/err"
check "--format text --csv: still one output, a usage error" grep -q -- '--format text and --csv: one output' "$TMP/err"
check "SIGTERM: clean shutdown" stop_daemon
