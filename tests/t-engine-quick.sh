#!/bin/bash
# t-engine-quick.sh - boots the payload with suite=quick at -smp 4 (TCG) and checks
# the whole engine end to end from the captured console: the run completes, every
# algorithm x wait x delivery combination (minus deliveries the machine lacks, which
# must be logged as skipped) produced stats with p50 > 0, every target ran every call
# exactly once, no stale translation was seen, and the serial frames decode (CRC,
# contiguous seq, HELLO first, DONE last) - with `xcbench ingest` too when built.
# timeout: 300
. "$(dirname "$0")/lib/tap.sh"

T=$(mktemp -d "$OUTDIR/engine-quick.XXXXXX")
cleanup() { [ -n "${DPID:-}" ] && kill "$DPID" 2>/dev/null; wait 2>/dev/null; }
trap cleanup EXIT

need_payload

XCB_QEMU_TIMEOUT=240 qemu_direct "$T/console.log" 4 "suite=quick"
rc=$?
# isa-debug-exit: (code << 1) | 1, so 1 = the payload exited 0.
check "suite=quick at -smp 4 exits 0 (qemu status $rc)" test "$rc" -eq 1
check "console says PASSED" grep -q '^xcbench: PASSED' "$T/console.log"

check "serial frames decode (CRC, contiguous seq, HELLO first, DONE last)" frames_json "$T/console.log" "$T/run.json"

python3 - "$T/run.json" <<'PY'
import json, re, sys
run = json.load(open(sys.argv[1]))
from tap import ok
cases = {int(k): v for k, v in run["cases"].items()}
allrows = [r for r in run["results"] if r["initiator"] == 0xffff]
print(f"# {len(cases)} cases, {len(run['results'])} RESULT frames, hello tsc_khz={run['hello'].get('tsc_khz')}")
ok(run["done"] is not None and run["done"]["status"] == 0, "DONE status ok")
ok(not run["errors"], "no ERROR frames")
ok(all(k in run["hello"] for k in ("fw", "cpus", "tsc_khz", "apic_mode", "vendor")),
   "HELLO carries machine facts")
ok(run["hello"].get("cpus") == "4", "HELLO says 4 CPUs")
# The plan (a second HELLO): every case it announces ran (sent a CASE), none more.
planned = run["hello"].get("cases_planned")
ok(planned is not None and int(planned) == len(cases) > 0,
   f"HELLO cases_planned={planned} equals the {len(cases)} cases that ran")

# every algorithm x wait x delivery produced stats, unless the delivery is unavailable
skipped = set(re.findall(r"delivery (\S+) not available", "\n".join(run["logs"])))
print(f"# deliveries skipped as unavailable here: {sorted(skipped) or 'none'}")
missing = []
for algo in ("locked", "lockless", "queued"):
    for wait in ("none", "ack", "done"):
        for deliv in ("auto", "unicast", "x2apic_cluster", "allbutself"):
            ids = [i for i, c in cases.items() if c["kind"] == "xcall" and c["algo"] == algo
                   and c["wait"] == wait and c["delivery"] == deliv]
            good = [r for r in allrows if r["case_id"] in ids and r["count"] > 0 and r["p50"] > 0]
            if not good and deliv not in skipped:
                missing.append(f"{algo}/{wait}/{deliv}")
ok(not missing, "every algorithm x wait x delivery has p50 > 0" +
   (f" (missing: {' '.join(missing)})" if missing else ""))
ok("allbutself" not in skipped and "unicast" not in skipped, "unicast and the all-but-self shorthand ran")

ok(all(r["stale"] == 0 for r in run["results"]), "0 stale-translation violations in every RESULT")
tlb = [i for i, c in cases.items() if c["kind"] == "tlb"]
methods = {cases[i]["method"] for i in tlb}
paths = {cases[i]["flush"] for i in tlb}
ok({"invlpg", "cr3"} <= methods and {"vector", "xcall"} <= paths,
   f"tlb cases ran (methods {sorted(methods)}, paths {sorted(paths)})")
ok(all(r["p50"] > 0 for r in allrows if r["case_id"] in tlb), "every tlb case has p50 > 0")

bad = [r for r in allrows if cases[r["case_id"]]["kind"] == "xcall"
       and (r["calls_executed"] != r["calls_expected"] or r["calls_expected"] == 0)]
ok(not bad, "every target ran every call exactly once" +
   (f" ({len(bad)} rows off, e.g. case {bad[0]['case_id']})" if bad else ""))
ok(all((r["flags"] & 3) == 0 for r in run["results"]), "no invariant/watchdog flags (4, unstable host, is the host's)")

raw = [r for r in allrows if cases[r["case_id"]]["kind"] == "raw"]
ok(raw and all(r["p50"] > 0 for r in raw), "raw IPI floor measured")
locked = [r for r in allrows if cases[r["case_id"]].get("algo") == "locked" and cases[r["case_id"]]["kind"] == "xcall"]
ok(locked and all(r["lock_acq"] >= r["count"] for r in locked), "lock profile counts every locked call")
# Fairness input: multi-initiator cases report one RESULT per initiator CPU.
multi = [i for i, c in cases.items() if c["kind"] == "xcall" and c["inits"] == "2"]
per = {(r["case_id"], r["rep"]) for r in run["results"] if r["case_id"] in multi and r["initiator"] != 0xffff}
ok(multi and all(sum(1 for r in run["results"] if (r["case_id"], r["rep"]) == k and r["initiator"] != 0xffff) == 2 for k in per),
   "2-initiator cases report per-initiator results")

# Issue 13: numbers you can trust (structure only: no timing is asserted here).
h = run["hello"]
want = "plain" if h.get("hypervisor") == "TCGTCGTCGTCG" else "pause"
ok(h.get("spin") == want and h.get("spin_policy") == "auto",
   f"spin=auto: plain under TCG, pause elsewhere, stated in HELLO (spin={h.get('spin')}, hypervisor={h.get('hypervisor')})")
ok(int(h.get("floor_ipi_cycles", 0)) > 0 and int(h.get("floor_roundtrip_cycles", 0)) > 0 and h.get("pge") in ("0", "1"),
   "HELLO: both floors of this boot, and whether global pages / PCIDs are on")
floors = {cases[r["case_id"]]["algo"] for r in raw if r["p50"] > 0}
ok(floors == {"ipi", "roundtrip"}, f"both floors ran as raw cases ({sorted(floors)})")
xrows = [r for r in run["results"] if cases[r["case_id"]]["kind"] == "xcall"]
ok(xrows and all(r["ipi_floor"] > 0 and r["elapsed_cycles"] > 0 for r in xrows),
   "every cross-call RESULT carries its repetition's ipi floor and elapsed time")
ok(all(r["lost"] == 0 and r["dup"] == 0 and r["ooo"] == 0 for r in xrows),
   "exactly once by sequence numbers: nothing lost, duplicated or out of order")
ok(all(c.get("warmup") == "10" for c in cases.values()), "every CASE states its warm-up (10 calls)")
ok(all(r["calls_expected"] == (int(cases[r["case_id"]]["iters"]) + 10) * int(cases[r["case_id"]]["mask"])
       for r in xrows if r["initiator"] != 0xffff and r["count"] == int(cases[r["case_id"]]["iters"])),
   "warm-up calls are checked but not timed: expected = (iters + warmup) x mask, count = iters")
trows = [r for r in allrows if r["case_id"] in tlb and cases[r["case_id"]]["method"] != "none"]
# bench/rep.h: CTL_RUNS (8) control shootdowns per initiator, more (up to CTL_MAX,
# 64) only while none has seen a stale read.
ok(trows and all(8 * int(cases[r["case_id"]]["inits"]) <= r["control_runs"] <= 64 * int(cases[r["case_id"]]["inits"]) for r in trows),
   "every TLB repetition that flushes ran its no-flush control (8 per initiator; more only until one saw stale)")
# A case of method none is itself the no-flush shootdown: no control beside it
# (one said "verified" of a case that checks nothing), none announced.
nrows = [r for r in allrows if r["case_id"] in tlb and cases[r["case_id"]]["method"] == "none"]
ok(nrows and all(r["control_runs"] == 0 and r["control_stale"] == 0 for r in nrows) and
   all(cases[i].get("x_control_runs") == "0" for i in tlb if cases[i]["method"] == "none"),
   f"no control beside a case of method none ({len(nrows)} rows; CASE x_control_runs=0)")
# Issue 21: paired floors wherever each initiator has a target of its own - xcall
# and TLB cases, one initiator or two - on every row (per initiator and all).
def own_targets(c):
    return c["kind"] in ("xcall", "tlb") and (c["inits"] == "1" or c.get("overlap") == "disjoint")
pc = [i for i, c in cases.items() if own_targets(c)]
kinds = {(cases[i]["kind"], cases[i]["inits"]) for i in pc}
nopair = [(r["case_id"], r["initiator"]) for r in run["results"]
          if r["case_id"] in pc and r["count"] >= 4 and not (r.get("floor_paired") and r.get("ratio_paired_x1000"))]
ok({("xcall", "1"), ("xcall", "2"), ("tlb", "1"), ("tlb", "2")} <= kinds and not nopair,
   f"paired floor and ratio in every xcall and TLB row, 1 and 2 initiators ({sorted(kinds)})"
   + (f" (missing: {nopair[:4]})" if nopair else ""))
PY

# The daemon's own decoder: `xcbench ingest` submits the capture to a private
# xcbenchd on loopback, which must store it as one complete run with every case.
if [ -x "$XCBENCH" ] && [ -x "$XCBENCHD" ]; then
	PORT=$(free_port)
	xcbd_start "$T/xcbenchd.log" "$PORT" --db "$T/xcbench.db" --open
	DPID=$XCBD_PID
	timeout 120 "$XCBENCH" --server "http://127.0.0.1:$PORT" ingest "$T/console.log" --timeout 60 \
		>"$T/ingest.out" 2>&1
	check "xcbench ingest delivers the capture" test $? -eq 0
	sed 's/^/# /' "$T/ingest.out"
	curl -sf "http://127.0.0.1:$PORT/api/v1/runs" >"$T/runs.json"
	curl -sf "http://127.0.0.1:$PORT/api/v1/schema" >"$T/schema.json"
	python3 - "$T/runs.json" "$T/run.json" "$T/schema.json" <<'PY'
import json, sys
from tap import ok as tap
runs, mine = json.load(open(sys.argv[1]))["runs"], json.load(open(sys.argv[2]))
# Every HELLO key this payload sends has its name in the one table the
# views read (proto/xcb_schema.h XCB_HELLO_FACTS, the schema's hello): a
# fact added to the payload without one lands under "Other facts".
hello = json.load(open(sys.argv[3]))["hello"]
named = {f["key"] for f in hello["facts"]}
unnamed = sorted(k for k in mine["hello"] if k not in named and not k.startswith(hello["algo_prefix"]))
tap(not unnamed and len(mine["hello"]) > 20,
    f"every HELLO key the payload sent ({len(mine['hello'])}) is named in the schema's hello facts"
    + (f" (unnamed: {unnamed})" if unnamed else ""))
r = runs[0] if len(runs) == 1 else {}
ok = (r.get("status") == "complete" and r.get("frames_received") == mine["frames"]
      and r.get("cases") == len(mine["cases"]) and r.get("done_status") == 0)
tap(ok, "the daemon stored one complete run with every frame and case" + ("" if ok else f" (got {r})"))
# The run summary carries the plan and progress, and the machine facts, itself.
f = r.get("facts") or {}
ok = (r.get("cases_planned") == int(mine["hello"].get("cases_planned", -1)) == r.get("cases_done")
      and all(f.get(k) == mine["hello"].get(k) for k in ("cpus", "tsc_khz", "apic_mode", "vendor"))
      and "cmdline" not in f)
tap(ok, "run summary: cases_planned = cases_done, facts subset"
      + ("" if ok else f" (got planned={r.get('cases_planned')} done={r.get('cases_done')} facts={f})"))
PY
else
	skip "xcbench ingest of the capture" "host/build/xcbench or xcbenchd not built"
fi
