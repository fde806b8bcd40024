#!/bin/bash
# t-compare-sync-row.sh - seed 002's figures are compared, not just shown:
# `xcbench compare --row writer_hold` (and the API's row=) compares each sync
# case by its writer_hold rows, the writer's write-lock hold, where the
# default compares the all row, the readers' wait per single read
# acquisition, which the seed's effect hardly moves (147 vs 126 cycles
# inside vs after on a 4-CPU boot whose writer's hold fell 99.7 %). The run
# is the stored real -smp 4 suite=ept boot (tests/fixtures); each side's
# figure is checked against the median of the run CSV's per-repetition p50
# of that row, cases without the row (the raw floors) are left out, the
# title names the measure, an unknown row is refused with the names.
# timeout: 120
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "compare by a sync case's pseudo-initiator row"
start_daemon --open || { notok "the daemon starts"; exit 1; }
T=$TMP

gzip -dc "$ROOT/tests/fixtures/sync-ept-smp4.serial.log.gz" >"$T/ept.log"
timeout 60 "$XCBENCH" --server "$URL" ingest "$T/ept.log" --timeout 30 >"$T/ingest.out" 2>&1
check "the stored suite=ept boot is ingested" test $? -eq 0
ID=$(curl -sf "$URL/api/v1/runs" | python3 -c 'import json,sys; print(json.load(sys.stdin)["runs"][0]["id"])')
curl -sf "$URL/api/v1/runs/$ID.csv" >"$T/run.csv"

cmp_json() { # OUT ROW...: compare inside -> after as JSON (ROW: --row NAME, or nothing)
	local out=$1; shift
	"$XCBENCH" --server "$URL" compare "$ID" "$ID" --algo-a inside --algo-b after "$@" --json >"$T/$out" 2>"$T/$out.err"
}
cmp_json hold.json --row writer_hold
check "compare --row writer_hold exits 0" test $? -eq 0
cmp_json all.json
check "compare without --row exits 0" test $? -eq 0
"$XCBENCH" --server "$URL" compare "$ID" "$ID" --row writer_hold --json >"$T/any.json" 2>&1
check "compare --row writer_hold of every algo exits 0" test $? -eq 0

python3 - "$T/run.csv" "$T/hold.json" "$T/all.json" "$T/any.json" <<'PY'
import csv, json, sys, statistics
from tap import ok
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
hold, allr, anyr = (json.load(open(p)) for p in sys.argv[2:5])
def med(case, init):  # the median of the case's repetitions' p50 in that row
    v = [float(r["p50"]) for r in rows if r["case_id"] == str(case) and r["initiator"] == init
         and r["rep"].isdigit() and r["p50"] != ""]
    return statistics.median(v) if v else None
ok(hold.get("row") == "writer_hold" and allr.get("row") == "all",
   f"the answer names the row compared (row: {hold.get('row')!r}, default {allr.get('row')!r})")
hc = hold["cases"]
ok(len(hc) == 3 and all(c["key"]["kind"] == "sync" for c in hc), f"--row writer_hold: the 3 masks' sync cases ({len(hc)})")
bad = [(c["a_case"], c["a_p50"], med(c["a_case"], "writer_hold")) for c in hc
       if med(c["a_case"], "writer_hold") != c["a_p50"] or med(c["b_case"], "writer_hold") != c["b_p50"]]
ok(not bad, "each side's p50 is the median of its case's writer_hold repetitions" + (f" ({bad})" if bad else ""))
bad = [(c["a_case"], c["a_p50"], med(c["a_case"], "all")) for c in allr["cases"]
       if med(c["a_case"], "all") != c["a_p50"] or med(c["b_case"], "all") != c["b_p50"]]
ok(allr["cases"] and not bad, "without --row: the all row, as before" + (f" ({bad})" if bad else ""))
diff = [c for c, a in zip(hc, allr["cases"]) if c["a_p50"] != a["a_p50"]]
ok(len(diff) == len(hc), "the writer's hold is not the readers' wait per read (every case differs)")
kinds = {c["key"]["kind"] for c in anyr["cases"]}
ok(kinds == {"sync"} and anyr["cases"], f"cases without a writer_hold row (the raw floors) are left out ({kinds})")
PY

"$XCBENCH" --server "$URL" compare "$ID" "$ID" --algo-a inside --algo-b after --row writer_hold >"$T/hold.out" 2>&1
sed 's/^/# /' "$T/hold.out" | sed -n 4,9p
check "the seed table's title names the writer's hold, not the read-lock wait" \
	sh -c "grep -q \"% change of the writer's median write-lock hold\" '$T/hold.out' && ! grep -q 'read-lock wait per acquisition' '$T/hold.out'"
"$XCBENCH" --server "$URL" compare "$ID" "$ID" --algo-a inside --algo-b after --row reader_batch >"$T/batch.out" 2>&1
check "--row reader_batch: the readers' wait per batch" grep -q "% change of the readers' median read-lock wait per batch" "$T/batch.out"
"$XCBENCH" --server "$URL" compare "$ID" "$ID" --row writer_hld >"$T/bad.out" 2>&1
rc=$?
check "an unknown row: exit 2 (a usage error), the daemon's 400 lists the rows (rc $rc)" \
	sh -c "test $rc -eq 2 && grep -q 'row: expected one of all, writer_hold, writer_e2e, writer_effective, reader_batch' '$T/bad.out'"
check "... and names the row meant: did you mean 'writer_hold' ($(grep -o 'did you mean.*' "$T/bad.out"))" \
	grep -q "row: expected one of .*; did you mean 'writer_hold'?" "$T/bad.out"
curl -s "$URL/api/v1/compare?a=$ID&b=$ID&row=lokc_hold" >"$T/swap.json"
check "API: row=lokc_hold (a swap): did you mean 'lock_hold' ($(cat "$T/swap.json"))" \
	grep -q "did you mean 'lock_hold'?\"" "$T/swap.json"
code=$(curl -s -o /dev/null -w '%{http_code}' "$URL/api/v1/compare?a=$ID&b=$ID&row=cpu0")
check "API: row=cpu0 is 400 ($code)" test "$code" = 400
check "... and row=cpu0, near none, suggests nothing" sh -c "! curl -s '$URL/api/v1/compare?a=$ID&b=$ID&row=cpu0' | grep -q 'did you mean'"
"$XCBENCH" --server "$URL" show "$ID" >"$T/show.out" 2>&1
check "show still labels the rows as compare's table does (writer's lock hold, readers' wait per batch)" \
	sh -c "grep -q \"writer's lock hold *p50 [0-9]\" '$T/show.out' && grep -q \"readers' wait per batch *p50 [0-9]\" '$T/show.out'"
