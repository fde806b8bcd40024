#!/bin/bash
# bench/floor-cause.sh — issue 21: what does the cheapest call cost beyond its
# floor, and what moves the floor? One TCG -smp 2 boot per variant of
#   suite=quick kinds=raw,xcall algos=lockless waits=none,ack,done idles=hlt,poll inits=1
#   masks=1 work_us=0 reps=12 transport=serial deliveries=unicast
# and per boot, from its RESULT frames:
#  - per case: median p50, median paired floor (the `ipi` probes among its
#    calls), median paired ratio, the paired floor's spread within the boot
#    (max/min over the 12 reps: does the floor move inside one boot?), and the
#    correlation of each rep's call p50 with its paired floor (r near 1: the
#    call tracks its floor as the host moves it);
#  - roundtrip (two IPIs, the second to a CPU that is spinning) over 2x the raw
#    `ipi` case, waits none/ack/done against each other (what the wait adds),
#    and the target idling by hlt or by polling between calls (idles=).
# Variants (each one boot): the default (apic=auto), apic=xapic, and
# apic=x2apic on `-cpu max` (TCG takes the big lock for xAPIC MMIO, not for
# x2APIC MSRs); HELLO's apic_mode says what each got. BENCH_TRIALS=1: the
# default only. Results and their reading: bench/FLOOR.md.
#   bench/floor-cause.sh            (BENCH_EXTRA="..." appends to every cmdline)
. "$(dirname "$0")/lib.sh"
need "$XCB_ELF"
T=$(mktemp -d "$BOUT/floor-cause.XXXXXX")
BASE="suite=quick kinds=raw,xcall algos=lockless waits=none,ack,done idles=hlt,poll inits=1 masks=1 work_us=0 reps=12 transport=serial deliveries=unicast ${BENCH_EXTRA:-}"
variants=("default||" "xapic|apic=xapic|" "x2apic|apic=x2apic|-cpu max")
[ "${BENCH_TRIALS:-}" = 1 ] && variants=("default||")
echo "## floor-cause: the call beyond its paired floor, and what moves the floor (TCG -smp 2, one boot per variant)"
echo
echo "cmdline: \`$BASE\` + the variant's keys"
echo
echo "| variant | apic | load | case | p50 | paired floor | paired ratio | floor max/min in the boot | r(call p50, floor) |"
echo "|---|---|---:|---|---:|---:|---:|---:|---:|"
for v in "${variants[@]}"; do
	IFS='|' read -r name keys qargs <<<"$v"
	load=$(cut -d' ' -f1 /proc/loadavg)
	log=$T/$name.log
	# shellcheck disable=SC2086 # qargs: QEMU arguments, word-split on purpose
	XCB_QEMU_TIMEOUT=${BENCH_TIMEOUT:-180} qemu_direct "$log" 2 "$BASE $keys" $qargs
	$PY "$ROOT/tests/lib/engine_frames.py" "$log" --json >"$T/$name.json" 2>/dev/null
	$PY - "$T/$name.json" "$name" "$load" <<'PY'
import json, statistics as st, sys
run, name, load = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
cases = {int(k): v for k, v in run.get("cases", {}).items()}
apic = run.get("hello", {}).get("apic_mode", "?")
med = lambda v: st.median(v) if v else float("nan")
def corr(a, b):
    if len(a) < 3 or len(set(a)) < 2 or len(set(b)) < 2:
        return float("nan")
    return st.correlation(a, b)
raw_ipi = None
for cid in sorted(cases):
    c = cases[cid]
    rows = sorted((r for r in run.get("results", []) if r["case_id"] == cid and r["initiator"] == 0xffff),
                  key=lambda r: r["rep"])
    if not rows:
        continue
    p50 = [r["p50"] for r in rows]
    label = f"{c['kind']} {c['algo']}" + (f" wait={c['wait']}" if c["kind"] == "xcall" else "") \
        + (f" idle={c['idle']}" if c.get("idle") else "")
    if c["kind"] == "raw":
        if c["algo"] == "ipi" and raw_ipi is None:
            raw_ipi = med(p50)
        extra = f" ({med(p50) / (2 * raw_ipi):.2f}x two raw ipi)" if c["algo"] == "roundtrip" and raw_ipi else ""
        print(f"| {name} | {apic} | {load} | {label}{extra} | {med(p50):.0f} | - | - | - | - |")
        continue
    fp = [r["floor_paired"] for r in rows if r.get("floor_paired")]
    pr = [r["ratio_paired_x1000"] / 1000 for r in rows if r.get("ratio_paired_x1000")]
    pairs = [(r["p50"], r["floor_paired"]) for r in rows if r.get("floor_paired")]
    spread = max(fp) / min(fp) if fp else float("nan")
    r = corr([a for a, _ in pairs], [b for _, b in pairs])
    print(f"| {name} | {apic} | {load} | {label} | {med(p50):.0f} | {med(fp):.0f} | {med(pr):.2f} | {spread:.2f} | {r:.2f} |")
PY
done
echo
echo "(cycles at the guest's TSC; load = /proc/loadavg before each boot; logs in $T)"
