#!/bin/bash
# t-xcall-axes.sh — the algorithm axes, on the payload under TCG:
#  - the targets' idle state (idles=hlt,mwait,poll, CASE key `idle`, sent
#    only when not hlt): with -cpu max (which offers MONITOR/MWAIT) every
#    state runs a cross-call case, each call exactly once per target; with
#    the default CPU model mwait is refused by name while hlt and poll run;
#  - tree's group size (groups=2,4,0: CASE key `group`, the G in effect, 8
#    for 0 = the default; only on algorithms with groups);
#  - the delivery axis: tree, which sends its own unicast IPIs, runs once, as
#    delivery=unicast, where lockless runs under every delivery.
# timeout: 600
. "$(dirname "$0")/lib/tap.sh"

need_payload
T=$(mktemp -d "$OUTDIR/xcall-axes.XXXXXX")
args="suite=quick kinds=xcall algos=lockless,tree waits=done deliveries=unicast idles=hlt,mwait,poll"

XCB_QEMU_TIMEOUT=300 qemu_direct "$T/max.log" 2 "$args" -cpu max
rc=$?
check "idles=hlt,mwait,poll with -cpu max exits 0 (qemu status $rc)" [ "$rc" -eq 1 ]
check "serial frames decode" frames_json "$T/max.log" "$T/max.json"
python3 - "$T/max.json" max <<'PY'
import json, sys
run, cpu = json.load(open(sys.argv[1])), sys.argv[2]
from tap import ok
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

# Every delivery of suite quick too: tree, which sends its own unicast IPIs,
# runs once per G, as unicast, what it sends; it once ran under all four, its
# x2apic_cluster and allbutself cases sending unicast, and compare paired them
# with lockless's real cluster and shorthand cases.
XCB_QEMU_TIMEOUT=300 qemu_direct "$T/g.log" 4 "suite=quick kinds=xcall algos=lockless,tree waits=done inits=1 masks=all groups=2,0"
rc=$?
check "groups=2,0, every delivery, exits 0 (qemu status $rc)" [ "$rc" -eq 1 ]
check "serial frames decode" frames_json "$T/g.log" "$T/g.json"
python3 - "$T/g.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
from tap import ok
cases = [c for c in run["cases"].values() if c["kind"] == "xcall"]
g = sorted(c.get("group") for c in cases if c["algo"] == "tree")
ok(g == ["2", "8"], f"tree: one case per G, the default named as 8 ({g})")
ok(all("group" not in c for c in cases if c["algo"] == "lockless"), "lockless (flat) carries no group")
d = lambda a: sorted(set(c["delivery"] for c in cases if c["algo"] == a))
ok(d("tree") == ["unicast"], f"tree (sends unicast itself): delivery unicast only ({d('tree')})")
ok(all(c["x_delivery_used"] == "unicast" for c in cases if c["algo"] == "tree"), "tree: x_delivery_used unicast")
ok({"auto", "unicast", "allbutself"} <= set(d("lockless")),
   f"lockless (the delivery policy) still runs under each delivery ({d('lockless')})")
ids = {int(c["id"]) for c in cases}
rows = [r for r in run["results"] if r["case_id"] in ids]
ok(rows and all(r["calls_executed"] == r["calls_expected"] > 0 for r in rows),
   "every G and delivery: every call ran exactly once")
PY

