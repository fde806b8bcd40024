#!/bin/bash
# t-tree-topology.sh - issue 22: the tree algorithm's groups follow the
# package topology when the machine reports it (MADT / CPUID leaf 0xB), CPU
# order otherwise. Boots -smp 16,sockets=2,cores=8 (TCG): targets 1..15 cut
# into groups of G never span the two sockets (CPUs 0-7 and 8-15): G=8 leads
# at 1 and 8, G=4 at 1, 5, 8, 12 (the CASE frame's x_leaders, computed by the
# rule tree.c uses, xcall/groups.h); every call ran exactly once. Then
# -smp 16 with one socket: plain CPU order, G=8 leads at 1 and 9.
# Structure only: no timing is asserted.
# timeout: 300
. "$(dirname "$0")/lib/tap.sh"

T=$(mktemp -d "$OUTDIR/tree-topology.XXXXXX")
need_payload
ARGS="suite=quick kinds=xcall algos=tree waits=done deliveries=unicast inits=1 masks=15 groups=4,8 iters=20 reps=2"

boot() { # NAME SMP WANT_G8 WANT_G4
	XCB_QEMU_TIMEOUT=200 qemu_direct "$T/$1.log" "$2" "$ARGS"
	rc=$?
	check "$1 (-smp $2): payload exits 0 (qemu status $rc)" test "$rc" -eq 1
	check "$1: serial frames decode" frames_json "$T/$1.log" "$T/$1.json" 5
	python3 - "$T/$1.json" "$1" "$3" "$4" <<'PY'
import json, sys
run, name, g8, g4 = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3], sys.argv[4]
from tap import prefixed
ok = prefixed(f"{name}: ")
lead = {c.get("group"): c.get("x_leaders") for c in run["cases"].values() if c.get("algo") == "tree"}
ok(lead.get("8") == g8, f"G=8: leaders {lead.get('8')} (want {g8})")
ok(lead.get("4") == g4, f"G=4: leaders {lead.get('4')} (want {g4})")
rows = [r for r in run["results"] if r["initiator"] == 0xffff]
ok(rows and all(r["calls_executed"] == r["calls_expected"] > 0 and r["lost"] == 0 and r["dup"] == 0 for r in rows),
   f"every call ran exactly once on every target ({len(rows)} rows)")
PY
}

boot sockets2 16,sockets=2,cores=8 1,8 1,5,8,12
boot onesocket 16 1,9 1,5,9,13
