#!/bin/bash
# t-xcall-idle.sh — the targets' idle state as an axis (idles=hlt,mwait,poll,
# CASE key `idle`, sent only when not hlt): under TCG with -cpu max (which
# offers MONITOR/MWAIT) every mode runs a cross-call case, each exactly once
# per target; with the default CPU model mwait is refused by name (CPUID has
# no MONITOR/MWAIT) while hlt and poll still run.
# timeout: 600
. "$(dirname "$0")/lib.sh"

need_payload
T=$(mktemp -d "$OUTDIR/xcall-idle.XXXXXX")
args="suite=quick kinds=xcall algos=lockless,tree waits=done deliveries=unicast idles=hlt,mwait,poll"

XCB_QEMU_TIMEOUT=300 qemu_direct "$T/max.log" 2 "$args" -cpu max
rc=$?
check "idles=hlt,mwait,poll with -cpu max exits 0 (qemu status $rc)" [ "$rc" -eq 1 ]
check "serial frames decode" frames_json "$T/max.log" "$T/max.json"
python3 - "$T/max.json" max <<'PY'
import json, sys
run, cpu = json.load(open(sys.argv[1])), sys.argv[2]
def ok(c, m): print(("ok - " if c else "not ok - ") + m)
cases = {int(k): v for k, v in run["cases"].items() if v["kind"] == "xcall"}
for algo in ("lockless", "tree"):
    idles = sorted(c.get("idle", "hlt") for c in cases.values() if c["algo"] == algo)
    ok(idles == ["hlt", "mwait", "poll"], f"{algo}: one case per idle state ({idles})")
rows = [r for r in run["results"] if r["case_id"] in cases]
ok(rows and all(r["p50"] > 0 and r["calls_executed"] == r["calls_expected"] > 0 for r in rows),
   f"every idle state: measured, every call ran exactly once ({len(rows)} RESULT rows)")
ok(all("idle" not in c for c in cases.values() if c.get("idle", "hlt") == "hlt"),
   "idle=hlt cases carry no idle key (earlier runs' cases keep matching)")
for c in sorted(cases.values(), key=lambda c: (c["algo"], c.get("idle", "hlt"))):
    rs = [r["p50"] for r in rows if r["case_id"] == int(c["id"]) and r["initiator"] == 0xffff]
    print(f"# {c['algo']:9s} idle={c.get('idle', 'hlt'):5s} p50 {rs} cycles (TCG: no C-states, so no real wake-up cost)")
PY

XCB_QEMU_TIMEOUT=300 qemu_direct "$T/dflt.log" 2 "$args"
rc=$?
check "the same with the default CPU model exits 0 (qemu status $rc)" [ "$rc" -eq 1 ]
if grep -q "xcbench: hypervisor.*monitor no\|idle mwait not offered" "$T/dflt.log"; then
	check "mwait refused by name where CPUID lacks it" grep -q "skipped: idle mwait not offered by this CPU" "$T/dflt.log"
else
	skip "mwait refused where CPUID lacks it" "this QEMU's default model offers MONITOR/MWAIT"
fi
