#!/bin/bash
# t-csv-floor-none.sh — the run CSV says "not measured" as the JSON does:
# a RESULT's ipi_floor, floor_paired and ratio_paired_x1000 of 0 (proto:
# 0 = not measured) are empty cells, as tsc_khz's is, where the run's JSON
# has null (rep_ipi_floor, rep_floor_paired); the CSV printed 0, a floor a
# script would divide by. A measured floor stays its number. The run is the
# stored real -smp 4 suite=ept boot (tests/fixtures): its sync cases probe
# no floor, its raw floor cases carry the boot's.
# timeout: 120
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "the run CSV's unmeasured floors are empty"
start_daemon --open || { notok "the daemon starts"; exit 1; }
gzip -dc "$ROOT/tests/fixtures/sync-ept-smp4.serial.log.gz" >"$TMP/ept.log"
timeout 60 "$XCBENCH" --server "$URL" ingest "$TMP/ept.log" --timeout 30 >"$TMP/ingest.out" 2>&1
check "the stored suite=ept boot is ingested" test $? -eq 0
ID=$(pyjson "$URL/api/v1/runs" 'd["runs"][0]["id"]')
curl -sf "$URL/api/v1/runs/$ID.csv" >"$TMP/run.csv"
curl -sf "$URL/api/v1/runs/$ID?cases_limit=1000" >"$TMP/run.json"
python3 - "$TMP/run.csv" "$TMP/run.json" <<'PY'
import csv, json, sys
from tap import ok
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
cases = json.load(open(sys.argv[2]))["cases"]
def cell(v):  # the JSON's value as the CSV should write it
    return "" if v is None else str(v)
bad, seen = [], {"none": 0, "measured": 0}
for c in cases:
    alls = sorted((r for r in rows if r["case_id"] == str(c["case_id"]) and r["initiator"] == "all"),
                  key=lambda r: int(r["rep"]))
    for key, col in (("rep_ipi_floor", "ipi_floor"), ("rep_floor_paired", "floor_paired")):
        want = [cell(v) for v in c.get(key) or []]
        got = [r[col] for r in alls]
        if want != got:
            bad.append((c["case_id"], col, want, got))
        for v in want:
            seen["none" if v == "" else "measured"] += 1
ok(seen["none"] and seen["measured"], f"the run has unmeasured and measured floors ({seen})")
ok(not bad, "each all row's ipi_floor and floor_paired cell is the JSON's value, empty for null" + (f" ({bad[:3]})" if bad else ""))
zeros = [(r["case_id"], r["rep"], r["initiator"]) for r in rows
         if "0" in (r["ipi_floor"], r["floor_paired"], r["ratio_paired_x1000"])]
ok(not zeros, f"no row's floor cell is 0 ({len(zeros)} are: {zeros[:3]})")
PY
