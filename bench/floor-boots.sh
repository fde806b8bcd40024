#!/bin/bash
# bench/floor-boots.sh — issue 21: is the cheapest call within 1.5x of the IPI
# floor of the same moment? N boots (default 5) under TCG -smp 2 of
#   suite=quick kinds=raw,xcall algos=lockless waits=done inits=1 masks=1
#   work_us=0 reps=12 transport=serial deliveries=unicast
# and per boot: the HELLO `ipi` floor (the boot's reference), the `raw ipi`
# case (median of its reps' p50), lockless 1->1 done (median p50), its ratio to
# the per-rep floor measured before each rep (median of p50/ipi_floor), its
# paired floor (median of the probes interleaved with the calls) and paired
# ratio (median of call/probe pairs), the reps flagged `unstable host`, and the
# load average when the boot started. A shared host moves every figure: rerun
# it on a quiet machine (load < 1) for the issue's table.
#   bench/floor-boots.sh [BOOTS]        (BENCH_EXTRA="..." appends to the cmdline)
. "$(dirname "$0")/lib.sh"
need "$XCB_ELF"
N=${1:-5}
T=$(mktemp -d "$BOUT/floor-boots.XXXXXX")
CL="suite=quick kinds=raw,xcall algos=lockless waits=done inits=1 masks=1 work_us=0 reps=12 transport=serial deliveries=unicast ${BENCH_EXTRA:-}"
echo "## floor-boots: lockless 1->1 done against the \`ipi\` floor, TCG -smp 2, $N boots"
echo
echo "cmdline: \`$CL\`"
echo
echo "| boot | load (1 min) | HELLO ipi floor | raw ipi case p50 | lockless p50 | / rep floor | paired floor | paired ratio | unstable reps |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for b in $(seq "$N"); do
	load=$(cut -d' ' -f1 /proc/loadavg)
	log=$T/boot$b.log
	XCB_QEMU_TIMEOUT=120 qemu_direct "$log" 2 "$CL"
	$PY "$ROOT/tests/lib/engine_frames.py" "$log" --json >"$T/boot$b.json" 2>/dev/null
	$PY - "$T/boot$b.json" "$b" "$load" <<'PY'
import json, statistics as st, sys
run, b, load = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
cases = {int(k): v for k, v in run.get("cases", {}).items()}
def rows(kind, algo):
    ids = [i for i, c in cases.items() if c["kind"] == kind and c["algo"] == algo]
    return [r for r in run.get("results", []) if r["case_id"] in ids and r["initiator"] == 0xffff]
med = lambda v: st.median(v) if v else float("nan")
raw, lk = rows("raw", "ipi"), rows("xcall", "lockless")
hello = int(run.get("hello", {}).get("floor_ipi_cycles", 0) or 0)
rep_ratio = med([r["p50"] / r["ipi_floor"] for r in lk if r["ipi_floor"]])
fp = med([r["floor_paired"] for r in lk if r["floor_paired"]])
rp = med([r["ratio_paired_x1000"] / 1000 for r in lk if r["ratio_paired_x1000"]])
unst = sum(1 for r in lk if r["flags"] & 4)
print(f"| {b} | {load} | {hello} | {med([r['p50'] for r in raw]):.0f} | {med([r['p50'] for r in lk]):.0f} "
      f"| {rep_ratio:.2f} | {fp:.0f} | {rp:.2f} | {unst}/{len(lk)} |")
PY
done
echo
echo "(cycles at the guest's TSC; load = /proc/loadavg before each boot; logs in $T)"
