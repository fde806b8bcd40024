#!/bin/bash
# x2APIC under TCG (QEMU 10, -cpu max): the quick suite at -smp 4 runs its
# unicast, x2APIC-cluster and all-but-self shorthand rows, each case naming the
# delivery the APIC layer really used (x_delivery_used, never "auto"); a short
# quick run at -smp 32 (two x2APIC clusters) delivers across clusters; the
# handover: x2APIC on in every CPU at entry (test key x2apic_handover=1),
# apic=auto keeps it, apic=xapic leaves it on the BSP and on every AP with
# the two-step disable and boots all CPUs; and an AP that answers only after
# its bring-up timed out (ap_late) leaves no trace: its logical number goes to
# the next AP; one whose first INIT-SIPI-SIPI starts nothing (ap_nosipi) is
# sent a second one and comes up.
# timeout: 900
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/boot.sh"
T=$(mktemp -d "$OUTDIR/t-x2apic.XXXXXX")
trap 'rm -rf "$T"' EXIT
[ -f "$XCB_ELF" ] || { notok "payload built ($XCB_ELF missing)"; exit 1; }
export XCBENCH_ACCEL=tcg  # x2APIC under TCG is what this checks

# rows LOG SMP: the quick run's cases and rows, checked per delivery.
rows() {
	python3 "$ROOT/tests/lib/engine_frames.py" "$1" --json >"$1.json" 2>"$1.err"
	check "-smp $2: serial frames decode" test $? -eq 0
	python3 - "$1.json" "$2" <<'PY'
import json, sys
run, smp = json.load(open(sys.argv[1])), sys.argv[2]
from tap import prefixed
ok = prefixed(f"-smp {smp}: ")
cases = {int(k): v for k, v in run["cases"].items()}
rows = [r for r in run["results"] if r["initiator"] == 0xffff]
ok(run["hello"].get("apic_mode") == "x2apic", f"HELLO apic_mode x2apic (got {run['hello'].get('apic_mode')})")
ok(run["done"] is not None and run["done"]["status"] == 0 and not run["errors"], "DONE ok, no ERROR frames")
skipped = [l for l in run["logs"] if "not available" in l]
ok(not skipped, "no delivery skipped as unavailable" + (f" ({skipped[0]})" if skipped else ""))
for deliv in ("unicast", "x2apic_cluster", "allbutself"):
    ids = [i for i, c in cases.items() if c["kind"] == "xcall" and c["delivery"] == deliv]
    good = [r for r in rows if r["case_id"] in ids and r["count"] > 0 and r["p50"] > 0
            and r["calls_executed"] == r["calls_expected"] > 0]
    print(f"# {deliv}: {len(ids)} cases, {len(good)} rows with p50 > 0 and every call run once")
    ok(ids and len(good) >= len(ids), f"{deliv} rows: p50 > 0, every target ran every call")
used = {c.get("x_delivery_used") for c in cases.values()}
ok(used and None not in used and "auto" not in used, f"every case names the delivery used ({sorted(map(str, used))})")
# Forced deliveries resolve to themselves; a shorthand case only where its mask is all-but-self.
ok(all(c["x_delivery_used"] == "unicast" for c in cases.values() if c["delivery"] == "unicast"),
   "unicast cases used unicast")
# An algorithm that chooses its own IPIs (tree: one unicast per group leader,
# XCALL_SENDS_UNICAST) labels every case unicast, whatever delivery was asked;
# every other algorithm's cluster cases must use cluster multicast.
algos = {c["algo"] for c in cases.values() if c["kind"] == "xcall"}
own = {a for a in algos if all(c["x_delivery_used"] == "unicast" for c in cases.values()
                                if c["kind"] == "xcall" and c["algo"] == a)}
ok(own != algos, f"the delivery policy reaches some algorithm (own sends: {sorted(own)})")
ok(all(c["x_delivery_used"] == "x2apic_cluster" for c in cases.values()
       if c["delivery"] == "x2apic_cluster" and c.get("algo") not in own),
   f"cluster cases used cluster multicast (but {sorted(own)}, whose sends are their own)")
ok(any(c["x_delivery_used"] == "allbutself" for c in cases.values()), "some case used the all-but-self shorthand")
PY
}

XCB_QEMU_TIMEOUT=300 qemu_direct "$T/q4.log" 4 "suite=quick" -cpu max
rc=$?
cp "$T/q4.log" "$OUTDIR/t-x2apic.quick4.serial.log"
check "quick suite under x2APIC at -smp 4 exits 0 (qemu status $rc)" test "$rc" -eq 1
rows "$T/q4.log" 4

# 32 CPUs = two x2APIC clusters of 16: cluster multicast needs one ICR write per cluster.
XCB_QEMU_TIMEOUT=400 qemu_direct "$T/q32.log" 32 \
	"suite=quick kinds=xcall algos=lockless waits=done inits=1 masks=all reps=1 iters=5" -m 512 -cpu max
rc=$?
cp "$T/q32.log" "$OUTDIR/t-x2apic.quick32.serial.log"
check "short quick run under x2APIC at -smp 32 exits 0 (qemu status $rc)" test "$rc" -eq 1
check "-smp 32: two x2APIC clusters" grep -qx 'xcbench: apic: 2 x2APIC clusters' "$T/q32.log"
rows "$T/q32.log" 32

# Handover: firmware left x2APIC on in every CPU. handover APIC EXPECT_LINE
# MODE: boots with apic=APIC, checks the BSP's line and all 4 CPUs in MODE.
handover() {
	local log=$T/h-$1.log online listed mode
	XCB_QEMU_TIMEOUT=60 qemu_direct "$log" 4 "boot_only=1 x2apic_handover=1 apic=$1" -cpu max
	check "handover, apic=$1: exit 0" test $? -eq 1
	check "handover, apic=$1: x2APIC at entry $2" grep -q "^xcbench: apic: x2APIC was on at entry (x2apic_handover=1); $2" "$log"
	read -r online listed _ _ mode <<<"$(summary_fields "$log")"
	check "handover, apic=$1: 4/4 online in $3 (got ${online:-?}/${listed:-?} $mode)" \
		test "${online:-0}" -eq 4 -a "${listed:-0}" -eq 4 -a "$mode" = "$3"
	HLOG=$log
}
handover auto "kept" x2apic
check "handover, apic=auto: no AP left x2APIC" test -z "$(grep 'APs left x2APIC' "$HLOG")"
handover xapic "leaving it on every CPU" xapic
check "handover, apic=xapic: all 3 APs did the two-step" \
	grep -qx 'xcbench: apic: 3 APs left x2APIC for xAPIC (x2APIC -> disabled -> xAPIC)' "$HLOG"

# A late AP: APIC 2 answers only once the BSP gave up on it. It waits for
# that whatever the bound, so the bound is generous: at 100 ms a loaded host
# (load ~6) once left APIC 3 unstarted too (2/4 online).
XCB_QEMU_TIMEOUT=60 qemu_direct "$T/late.log" 4 "boot_only=1 ap_late=2 ap_timeout_ms=3000" -cpu max
check "late AP: exit 0 (the test call ran on every online CPU)" test $? -eq 1
check "late AP: reported as not answering (claimed, so tried once)" \
	grep -q 'warning: apic 2 did not answer INIT-SIPI-SIPI within 3000 ms (tries: 1)' "$T/late.log"
check "late AP: its number went to the next AP (cpu 2 apic 3)" grep -qE '^xcbench: cpu 2 apic 3 .* online$' "$T/late.log"
check "late AP: listed not online, never online" grep -qx 'xcbench: cpu 3 apic 2 not online' "$T/late.log"
read -r online listed _ _ _ <<<"$(summary_fields "$T/late.log")"
check "late AP: 3/4 online (got ${online:-?}/${listed:-?})" test "${online:-0}" -eq 3 -a "${listed:-0}" -eq 4

# An AP whose first INIT-SIPI-SIPI starts nothing (test key ap_nosipi: its
# SIPIs left out, as when a stale SIPI spent the INIT: APIC 256, woken early
# by the IPIs for 255) gets a second sequence once the bound runs out, and
# comes up as itself.
XCB_QEMU_TIMEOUT=60 qemu_direct "$T/nosipi.log" 4 "boot_only=1 ap_nosipi=2 ap_timeout_ms=500" -cpu max
check "no SIPI the first time: exit 0" test $? -eq 1
check "no SIPI the first time: it says it tries again" \
	grep -qx 'xcbench: apic 2: no answer in 500 ms, INIT-SIPI-SIPI again' "$T/nosipi.log"
check "no SIPI the first time: APIC 2 comes up as cpu 2" grep -qE '^xcbench: cpu 2 apic 2 .* online$' "$T/nosipi.log"
read -r online listed _ _ _ <<<"$(summary_fields "$T/nosipi.log")"
check "no SIPI the first time: 4/4 online (got ${online:-?}/${listed:-?})" test "${online:-0}" -eq 4 -a "${listed:-0}" -eq 4
check "no SIPI the first time: no warning" test -z "$(grep -E 'warning|error' "$T/nosipi.log")"
