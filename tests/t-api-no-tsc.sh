#!/bin/bash
# t-api-no-tsc.sh - a run whose payload found no TSC rate (HELLO tsc_khz=0,
# xcb-gen --no-tsc) says so one way everywhere: tsc_khz null in the run, the
# run list, the compare sides, the histogram and samples answers, empty in
# the run CSV, every ns figure null; the CLI shows it in cycles. The JSON
# said tsc_khz 0 where the CSV cell was empty. The HELLO's facts keep the
# text as sent ("0"). With DB set (a PostgreSQL URL: t-pg-no-tsc.sh) on
# that engine.
# timeout: 120
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "a run with no TSC rate"
start_daemon --open || { notok "the daemon starts"; exit 1; }

"$XCB_GEN" --server "127.0.0.1:$PORT" --no-tsc --reps 3 --samples >"$TMP/gen.out" 2>&1
check "xcb-gen --no-tsc: every frame acknowledged" grep -q "all frames acknowledged" "$TMP/gen.out"
id=$(pyjson "$URL/api/v1/runs" 'd["runs"][0]["id"]')
curl -s "$URL/api/v1/runs/$id" -o "$TMP/run.json"
curl -s "$URL/api/v1/runs" -o "$TMP/runs.json"
curl -s "$URL/api/v1/compare?a=$id&b=$id" -o "$TMP/compare.json"
curl -s "$URL/api/v1/runs/$id/cases/1/histogram" -o "$TMP/histo.json"
curl -s "$URL/api/v1/runs/$id/cases/1/samples" -o "$TMP/samples.json"
curl -s "$URL/api/v1/runs/$id.csv" -o "$TMP/run.csv"
py() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($2) else 1)" "$1"; }
check "run: tsc_khz null ($(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["run"]["tsc_khz"])' "$TMP/run.json"))" \
	py "$TMP/run.json" 'd["run"]["tsc_khz"] is None'
check "... its facts keep the HELLO's text, \"0\"" py "$TMP/run.json" 'd["run"]["facts"]["tsc_khz"] == "0"'
check "... every case's ns null ($(grep -o '"cases":\[' "$TMP/run.json" | wc -l) case list)" \
	py "$TMP/run.json" 'len(d["cases"]) == 48 and all(c["ns"] is None for c in d["cases"])'
check "run list: tsc_khz null" py "$TMP/runs.json" 'd["runs"][0]["tsc_khz"] is None'
check "compare: both sides' tsc_khz null" py "$TMP/compare.json" 'd["a"]["tsc_khz"] is None and d["b"]["tsc_khz"] is None'
check "histogram: tsc_khz null" py "$TMP/histo.json" '"tsc_khz" in d and d["tsc_khz"] is None'
check "samples: tsc_khz null" py "$TMP/samples.json" '"tsc_khz" in d and d["tsc_khz"] is None'
check "run CSV: tsc_khz, p50_ns and p99_ns empty in every row" python3 - "$TMP/run.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
sys.exit(0 if rows and all(r['tsc_khz'] == r['p50_ns'] == r['p99_ns'] == '' for r in rows) else 1)
PY
"$XCBENCH" --server "$URL" show "$id" >"$TMP/show.txt" 2>&1
rc=$?
check "xcbench show: exit $rc, latencies in cycles" bash -c '[ "$1" = 0 ] && grep -q cyc "$2"' _ "$rc" "$TMP/show.txt"
"$XCBENCH" --server "$URL" compare "$id" "$id" >"$TMP/cmp.txt" 2>&1
rc=$?
check "xcbench compare: exit $rc" test "$rc" = 0
check "SIGTERM: clean shutdown" stop_daemon
