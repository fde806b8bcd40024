#!/bin/bash
# t-engine-cmdline.sh - a bad suite or axis value on the command line is refused
# with an error naming the key and the bad value, an ERROR frame and DONE (status
# failed), a typo'd algorithm named back with the nearest one (did you mean),
# and the payload exits with the configuration error code - it never runs
# a half-understood suite (the TLB and sync axes too: methods, batches, modes, a
# writer CPU the machine lacks); a delivery named as runs print it (allbutself) is
# understood; the ERROR frame carries the payload's line naming the key and the
# value (the host shows ERROR, not the console). Also: suite=quick at -smp 2 (the smallest machine) runs, and a
# time budget spent in warm-up still times a call a repetition.
# timeout: 300
. "$(dirname "$0")/lib/tap.sh"

T=$(mktemp -d "$OUTDIR/engine-cmdline.XXXXXX")
trap 'wait 2>/dev/null' EXIT

need_payload

bad() { # NAME CMDLINE EXPECTED-TEXT
	local name=$1 cl=$2 want=$3
	XCB_QEMU_TIMEOUT=60 qemu_direct "$T/$name.log" 2 "$cl"
	local rc=$?
	# exit code 2 (XCB_EXIT_CONFIG) -> qemu status (2 << 1) | 1 = 5
	check "$name: exits with the configuration error (qemu $rc)" test "$rc" -eq 5
	check "$name: the console names the problem" grep -aqF "$want" "$T/$name.log"
	python3 "$ROOT/tests/lib/engine_frames.py" "$T/$name.log" --json >"$T/$name.json" 2>/dev/null
	check "$name: frames decode" test $? -eq 0
	python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))
sys.exit(0 if r["errors"] and r["done"] and r["done"]["status"] == 2 and not r["cases"] else 1)' "$T/$name.json"
	check "$name: ERROR frame, DONE status failed, no case ran" test $? -eq 0
	# The host shows the ERROR, not the console: the payload's own line
	# (the key, the bad value, what it takes) travels in it.
	python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))
sys.exit(0 if r["errors"] and r["errors"][0].startswith("bad command line: ") and sys.argv[2] in r["errors"][0] else 1)' \
		"$T/$name.json" "$want"
	check "$name: the ERROR frame carries the console's line" test $? -eq 0
}

# suite= (one word) by the same line as a list's value, nearest named too
bad suite "suite=qiuck" "cmdline key 'suite': unknown value 'qiuck'; did you mean 'quick'? (one of: quick default seed tlb ept stress)"
# a typo'd algorithm is named back with the nearest registered one
bad algos "suite=quick algos=locked,lokced" "cmdline key 'algos': unknown value 'lokced'; did you mean 'locked'? (one of: "
bad masks "suite=seed masks=2,zero" "cmdline key 'masks': bad value 'zero'"
bad deliveries "suite=quick deliveries=unicast,sideways" \
	"cmdline key 'deliveries': unknown value 'sideways' (one of: auto unicast cluster x2apic_cluster shorthand allbutself all)"
# The TLB and sync (seed 002) axes: an unknown method or mode, an empty batch,
# and a writer CPU the machine lacks (it skipped every sync case and the run
# completed, status ok, with none of them).
bad methods "suite=tlb methods=invlpg,flushall" "cmdline key 'methods': unknown value 'flushall'"
bad batches "suite=tlb batches=8,0" "cmdline key 'batches': bad value '0'"
bad modes "suite=ept modes=inside,eager" "cmdline key 'modes': unknown value 'eager'"
bad writer "suite=ept writer=0,9" "cmdline key 'writer': CPU 9 is not on this machine (2 CPUs: 0..1)"

# delivery= as a run prints it (the console, CASE frames, the API: allbutself,
# x2apic_cluster) is taken back on the command line, as the words are.
XCB_QEMU_TIMEOUT=120 qemu_direct "$T/names.log" 2 \
	"suite=quick kinds=xcall algos=lockless waits=done deliveries=unicast,allbutself inits=1 iters=10 reps=1"
rc=$?
check "deliveries=unicast,allbutself (the printed names) is accepted and runs (qemu $rc)" test "$rc" -eq 1
python3 "$ROOT/tests/lib/engine_frames.py" "$T/names.log" --json >"$T/names.json" 2>/dev/null
check "deliveries=unicast,allbutself: its CASEs are the unicast and allbutself ones" test "$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
print(sorted({c["delivery"] for c in r["cases"].values()}))' "$T/names.json")" = "['allbutself', 'unicast']"

XCB_QEMU_TIMEOUT=200 qemu_direct "$T/smp2.log" 2 "suite=quick kinds=xcall,raw iters=10 reps=1"
rc=$?
check "suite=quick at -smp 2 exits 0 (qemu $rc)" test "$rc" -eq 1
python3 "$ROOT/tests/lib/engine_frames.py" "$T/smp2.log" >/dev/null 2>&1
check "suite=quick at -smp 2: frames decode" test $? -eq 0
check "suite=quick at -smp 2: 2-initiator cases skipped with a reason" \
	grep -aq 'skipped: mask does not fit the CPU count' "$T/smp2.log"

# A time budget its warm-up spends (time_ms=1, 200 warm-up calls): each
# initiator still times one call, so no RESULT has count 0 with latencies
# of 0 (which the daemon took for calls of 0 cycles: t-untimed-rep).
XCB_QEMU_TIMEOUT=120 qemu_direct "$T/budget.log" 2 \
	"suite=quick kinds=xcall algos=lockless waits=done deliveries=unicast inits=1 masks=1 iters=0 time_ms=1 warmup=200 reps=3"
rc=$?
check "time_ms=1 warmup=200: the run ends (qemu $rc)" test "$rc" -eq 1
python3 "$ROOT/tests/lib/engine_frames.py" "$T/budget.log" --json >"$T/budget.json" 2>/dev/null
counts=$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
print(" ".join(str(x["count"]) for x in r["results"]))' "$T/budget.json")
diag "RESULT counts: $counts"
check "time_ms=1 warmup=200: every RESULT timed a call (counts: $counts)" \
	bash -c '[ -n "$1" ] && ! grep -qw 0 <<<"$1"' _ "$counts"
check "... the budget was spent in warm-up (some repetition timed exactly one)" grep -qw 1 <<<"$counts"
