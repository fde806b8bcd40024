#!/bin/bash
# t-xcall-smoke.sh — the cross-call and TLB-shootdown engines on (emulated)
# hardware: boots the payload at -smp 4 with xcall_smoke=N (bench/smoke.c) and
# checks the raw IPI ping-pong, every algorithm x wait at one initiator and one
# target, all CPUs initiating random masks at once (exactly-once), and every
# shootdown path x method x change: no stale translation after a real flush,
# while the noflush control DOES see stale ones (so the check can fail).
# timeout: 600
. "$(dirname "$0")/lib/tap.sh"

log=$OUTDIR/t-xcall-smoke.serial.log
iters=${XCB_XCALL_SMOKE_ITERS:-20}

if [ ! -f "$XCB_ELF" ]; then
	notok "payload built ($XCB_ELF missing: make -C firmware)"
	exit 1
fi
rm -f "$log"
XCB_QEMU_TIMEOUT=${XCB_QEMU_TIMEOUT:-500} qemu_direct "$log" 4 "xcall_smoke=$iters"
rc=$?
# isa-debug-exit: QEMU exits with (code << 1) | 1; payload code 0 = pass.
check "payload exits with code 0 (qemu status $rc)" [ "$rc" -eq 1 ]
check "smoke reports PASS" grep -q "xcbench: xcall smoke PASS" "$log"

p50_of() { # p50 cycles of a smoke line whose label is $1
	awk -v l="$1" '$0 ~ "xcbench: xcall " l " " { for (i = 1; i < NF; i++) if ($i == "p50") { print $(i+1); exit } }' "$log"
}
v=$(p50_of "raw roundtrip 0<->1")
check "raw IPI round trip measured (p50 ${v:-none} cycles)" [ "${v:-0}" -gt 0 ]
# The algorithms are the payload's registry, as it printed it (no list here).
algos=$(sed -n 's/^xcbench: xcall algos: //p' "$log" | tr -d '\r')
check "payload lists its algorithms (${algos:-none})" [ -n "$algos" ]
for a in $algos; do
	for w in none ack done; do
		v=$(p50_of "$a/$w 1->1")
		check "$a/$w 1 initiator -> 1 target (p50 ${v:-none} cycles)" [ "${v:-0}" -gt 0 ]
		check "$a/$w all 4 CPUs initiating: exactly once" \
			grep -q "xcall concurrent $a/$w: 4 cpus x $iters calls, [0-9]* runs, [0-9]* ms, exactly once" "$log"
	done
done

# Real flushes: every "... shootdowns ..." line of a method other than none
# must say "stale 0"; there must be such lines for every path. The paths
# are the vocabulary's (proto/xcb_schema.h XCB_VOCAB_FLUSH, as the smoke
# loops over it), not a list here: a path added there is checked with no
# edit. early_ack_reader, the unsafe one, is checked below.
paths=$(sed -n '/^#define XCB_VOCAB_FLUSH/,/^#define/ s/.*X(XCB_FLUSH_[A-Z_]*, *"\([a-z_]*\)".*/\1/p' \
	"$ROOT/proto/xcb_schema.h")
check "the shootdown paths read from proto/xcb_schema.h ($(echo $paths))" grep -qw early_ack_reader <<<"$paths"
for p in $paths; do
	[ "$p" = early_ack_reader ] && continue
	n=$(grep -cE "xcall flush $p/(invlpg|cr3|invpcid)/(remap|unmap): [1-9][0-9]* shootdowns" "$log")
	bad=$(grep -E "xcall flush $p/(invlpg|cr3|invpcid)/" "$log" | grep -c "stale [1-9]")
	check "flush path $p: $n method/change cases ran, none saw a stale translation" \
		[ "$n" -ge 4 ] && [ "$bad" -eq 0 ]
	f=$(grep -E "xcall flush $p/(invlpg|cr3|invpcid)/unmap:" "$log" | grep -c " 0 faults")
	check "flush path $p: unmapped pages fault (caught) on every CPU" [ "$f" -eq 0 ]
done
# The unsafe case: early acknowledgement with a reader inside the window
# reaches old frames after the initiator returned (violations, caught).
n=$(grep -E "xcall flush early_ack_reader/(invlpg|cr3|invpcid)/" "$log" | grep -c "stale [1-9]")
check "early_ack_reader: the window reader's stale reads are caught ($n method/change cases)" [ "$n" -ge 4 ]
ctl=$(grep -E "xcall flush [a-z_]+/none/" "$log" | sed -n 's/.*stale (noflush control) \([0-9]*\).*/\1/p' |
	awk '{s += $1} END {print s + 0}')
check "noflush control: targets still reach old frames ($ctl stale reads)" [ "$ctl" -gt 0 ]
grep -E "xcall (raw|[a-z]+/[a-z]+ 1->1|concurrent .*per initiator)" "$log" | sed 's/^/# /'

# A call not run exactly once (dupskip_cpu=1: CPU 1 books one call as the one
# before it): the FAIL line names the algorithm, the wait, the initiator, the
# target and what went wrong. It said "FAIL 1:1 exactly once" (or "FAIL
# exactly-once on hardware" when all CPUs call): none of the four.
dlog=$OUTDIR/t-xcall-smoke.dupskip.serial.log
XCB_QEMU_TIMEOUT=${XCB_QEMU_TIMEOUT:-500} qemu_direct "$dlog" 4 "xcall_smoke=$iters dupskip_cpu=1"
rc=$?
check "dupskip_cpu=1: the payload fails (qemu status $rc, 3 = payload exit 1)" [ "$rc" -eq 3 ]
first=$(sed -n 's/^xcbench: xcall algos: \([a-z0-9_]*\).*/\1/p' "$dlog" | tr -d '\r')
fails=$(grep -a "xcall smoke FAIL" "$dlog" | tr -d '\r')
diag "$fails"
check "dupskip_cpu=1: one FAIL line, naming ${first:-?}/none 1->1, cpu0 -> cpu1, 1 lost and 1 duplicated" \
	[ "$fails" = "xcbench: xcall smoke FAIL ${first:-?}/none 1->1: not exactly once: initiator cpu0 -> cpu1: ran $((iters - 1)) of $iters: 1 lost, 1 duplicated, 0 out of order (1 initiator-target pairs wrong)" ]
