#!/bin/bash
# t-xcall-faults.sh — the free checks catch injected faults (test_xcall built
# with a faulty copy of one algorithm, firmware/tests/faults/*.c):
#   skip_forward  a tree leader never forwards to CPU 3: the quiet phase's
#                 time bound names CPU 3, and only CPU 3, as not having run
#                 the call (stress traffic would have covered for it); the
#                 held phase's names the held target whose call never
#                 returned;
#   run_twice     lockless runs each callee twice: the ledger reports dup,
#                 naming algorithm, initiator and target;
#   pool_hog      more IPI vectors asked for than the pool has: init refuses,
#                 naming the algorithm that did not fit;
#   reserved_name an algorithm named `lazy` (a sync mode, another value of the
#                 CASE key algo): init refuses, naming it and why;
#   no_desc       an algorithm declared without .desc: init refuses, naming
#                 it and the field;
#   dup_name      a hand-written table named lockless beside the real one:
#                 init refuses, naming the name;
#   no_name       a hand-written table without a name: init refuses it as
#                 "(no name)" (the registry's sort faulted on it before);
#   relaxed_checkin lockless's targets check in without release (a barrier
#                 forgotten): the calls still run once each (x86), TSan
#                 reports the race, and the free check fails by name saying
#                 so (it said OK, cmocka PASSED, only the exit status 66 not);
#   no_checkin    locked's CPU 3 runs each call and never checks in: the
#                 quiet phase's time bound says the call ran on every target
#                 and never returned, and names CPU 3, which the initiator's
#                 wait spins on — also when each turn of a spin takes 5 ms
#                 (XCB_HOST_TURN_US: a loaded host);
#   ack_early     lockless's wait=ack returns right after the IPIs (as none
#                 does): stress and quiet pass it (each call still runs
#                 once), the held phase names the call and the target that
#                 had not read fn/arg, and wait=none and done still pass;
# and on the payload (TCG, -smp 8): fwddrop_cpu=3 loses a tree leader's
# forward to CPU 3 — the watchdog names cpu3, and only cpu3, as waited on
# (the ledger's target behind, and the CPU the initiator's wait spins on).
# timeout: 600
. "$(dirname "$0")/lib/tap.sh"

make -s -C "$ROOT/firmware" faults >"$OUTDIR/t-xcall-faults.build.log" 2>&1
check "fault builds of test_xcall (make -C firmware faults)" [ $? -eq 0 ]
F=$ROOT/firmware/build/faults

# fault NAME LIMIT PATTERN [VAR=VALUE...]: runs the fault build
# test_xcall_NAME (in that environment, bounded by LIMIT seconds; its output
# in $OUTDIR/t-xcall-faults.NAME.log), then sets rc to its exit status and
# line to its first line matching PATTERN, which it prints as a diagnostic.
fault() {
	local name=$1 limit=$2 pattern=$3 out=$OUTDIR/t-xcall-faults.$1.log
	shift 3
	env "$@" timeout "$limit" "$F/test_xcall_$name" >"$out" 2>&1
	rc=$?
	line=$(grep -m1 -e "$pattern" "$out")
	diag "$line"
}

# BOUND: test_xcall's time bound (s) for the runs that must end on it. It is
# armed per call (quiet) and per target (held), so it only has to outlast one
# call on a loaded host (milliseconds; a held target lets go after 30 ms),
# not a phase: each such run waits it out once, and at 10 s the four of them
# were over half of this suite's time. 4 s still passes long before the old
# turn-counted notes (4096 turns of 5 ms: 20 s) that no_checkin's second run
# guards against.
BOUND=4
fault skip_forward 300 "^test_xcall: TIME BOUND" XCB_XCALL_ONLY=tree XCB_XCALL_PHASES=quiet XCB_XCALL_BOUND_S=$BOUND
check "skipped forward: the run fails on its time bound (rc $rc, not a hang)" [ "$rc" -eq 3 ]
check "skipped forward: names tree, the wait and the call in flight" \
	grep -qE "quiet tree wait=[a-z]+ shape=[a-z]+.*: initiator [0-9]+ call [0-9]+ not run by CPU" <<<"$line"
check "skipped forward: names exactly CPU 3" grep -qE "not run by CPU 3 \(its other targets ran it\)" <<<"$line"
fault skip_forward 300 "^test_xcall: TIME BOUND" XCB_XCALL_ONLY=tree XCB_XCALL_PHASES=held XCB_XCALL_BOUND_S=$BOUND
check "skipped forward, held phase: the run fails on its time bound (rc $rc, not a hang)" [ "$rc" -eq 3 ]
check "skipped forward, held phase: names the held target whose call never returned" \
	grep -qE "held tree wait=(ack|done) shape=all: .*: CPU 0's call while CPU [0-9]+ held its interrupts off.* never returned" <<<"$line"

fault run_twice 300 "dup [1-9]" XCB_XCALL_ONLY=lockless XCB_XCALL_PHASES=stress XCB_XCALL_ITERS=200
check "fn run twice: the run fails (rc $rc)" [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ]
check "fn run twice: the ledger names algorithm, wait, initiator, target and dup" \
	grep -qE "lockless wait=[a-z]+ shape=[a-z]+: lockless, initiator [0-9]+ -> target [0-9]+: expected [0-9]+ calls .* dup [1-9]" <<<"$line"

fault pool_hog 120 "init failed"
check "vector pool exhausted: init refuses (rc $rc)" [ "$rc" -eq 1 ]
check "vector pool exhausted: the error names the algorithm and the pool" \
	grep -qE "xcall: [a-z0-9_]+: IPI vector pool exhausted" <<<"$line"

fault reserved_name 120 "init failed"
check "an algorithm named like a sync mode: init refuses (rc $rc)" [ "$rc" -eq 1 ]
check "an algorithm named like a sync mode: the error names it and why" \
	grep -qF "xcall: lazy: name reserved: a sync mode's (kind=sync cases carry it as their algo)" <<<"$line"
fault no_desc 120 "init failed"
check "an algorithm without .desc: init refuses (rc $rc)" [ "$rc" -eq 1 ]
check "an algorithm without .desc: the error names it and the field" \
	grep -qF "xcall: nodesc: .desc missing: one line saying what it does" <<<"$line"
fault dup_name 120 "init failed"
check "a second algorithm named lockless: init refuses (rc $rc)" [ "$rc" -eq 1 ]
check "a second algorithm named lockless: the error names it and why" \
	grep -qF "xcall: lockless: name taken by another algorithm" <<<"$line"
fault no_name 120 "init failed"
check "an algorithm without a name: init refuses (rc $rc, no fault)" [ "$rc" -eq 1 ]
check "an algorithm without a name: the error says so and what gives one" \
	grep -qF "xcall: (no name): no name: XCALL_ALGO(name, ...) gives it" <<<"$line"
fault relaxed_checkin 300 "ThreadSanitizer reported" XCB_XCALL_ONLY=lockless XCB_XCALL_ITERS=200
check "check-in without release: test_xcall fails (rc $rc)" [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ]
check "check-in without release: the free check fails by name, saying TSan saw a race and which rule" \
	grep -qE "^ERROR: lockless wait=[a-z]+: ThreadSanitizer reported [0-9]+ data race\(s\), above .*release/acquire pair" <<<"$line"
# (cmocka's words, or its TAP under tests/run-all's CMOCKA_MESSAGE_OUTPUT=TAP)
check "check-in without release: cmocka lists the check as failed, not passed" \
	grep -qE "^(\[  FAILED  \]|not ok [0-9]+ -) free check: lockless wait=" "$OUTDIR/t-xcall-faults.relaxed_checkin.log"
fault no_checkin 300 "^test_xcall: TIME BOUND" XCB_XCALL_ONLY=locked XCB_XCALL_PHASES=quiet XCB_XCALL_BOUND_S=$BOUND
check "no check-in: the run fails on its time bound (rc $rc, not a hang)" [ "$rc" -eq 3 ]
check "no check-in: the call ran on every target and never returned, the initiator waits on CPU 3" \
	grep -qE "quiet locked wait=[a-z]+ shape=[a-z]+.*: initiator [0-9]+ call [0-9]+ ran on every target, never returned; the initiator waits on CPU 3 \(locked: not checked in\)" <<<"$line"
# The same on a loaded host, made repeatable: every turn of every spin 5 ms
# (XCB_HOST_TURN_US; beside other load the shim's sched_yield took ~3 ms).
# The wait notes by the clock (PLAT_WAIT_NOTE_US), not after 4096 turns —
# 20 s of them here, past the bound, and the report named nobody.
fault no_checkin 300 "^test_xcall: TIME BOUND" XCB_XCALL_ONLY=locked XCB_XCALL_PHASES=quiet XCB_XCALL_BOUND_S=$BOUND \
	XCB_HOST_TURN_US=5000
check "no check-in, 5 ms a turn (a loaded host): the run fails on its time bound (rc $rc, not a hang)" [ "$rc" -eq 3 ]
check "no check-in, 5 ms a turn: the bound still names CPU 3, which the initiator waits on" \
	grep -qE "quiet locked wait=[a-z]+ shape=[a-z]+.*: initiator [0-9]+ call [0-9]+ ran on every target, never returned; the initiator waits on CPU 3 \(locked: not checked in\)" <<<"$line"
fault ack_early 300 "returned while target" XCB_XCALL_ONLY=lockless XCB_XCALL_PHASES=stress,quiet XCB_XCALL_ITERS=200
check "ack returning early: stress and quiet alone pass it (rc $rc: why the held phase exists)" [ "$rc" -eq 0 ]
fault ack_early 300 "returned while target" XCB_XCALL_ONLY=lockless XCB_XCALL_ITERS=200
check "ack returning early: the run fails (rc $rc)" [ "$rc" -ne 0 -a "$rc" -ne 124 ]
check "ack returning early: the held phase names algorithm, wait, call and target" \
	grep -qE "held lockless wait=ack shape=all: initiator 0 call [0-9]+ returned while target CPU [0-9]+ had its interrupts off" <<<"$line"
# cmocka's failed tests, in either of its output formats (TAP under run-all)
failed=$(grep -aE "^(not ok [0-9]+ - |\[  FAILED  \] )free check" "$OUTDIR/t-xcall-faults.ack_early.log" |
	sed -E 's/^(not ok [0-9]+ - |\[  FAILED  \] )//' | sort -u | tr '\n' ';')
check "ack returning early: only lockless wait=ack fails ($failed)" [ "$failed" = "free check: lockless wait=ack;" ]

if [ -f "$XCB_ELF" ]; then
	log=$OUTDIR/t-xcall-faults.fwddrop.log
	XCB_QEMU_TIMEOUT=120 qemu_direct "$log" 8 \
		"suite=quick kinds=xcall algos=tree waits=done deliveries=unicast inits=1 masks=all watchdog_ms=2000 fwddrop_cpu=3"
	rc=$?
	check "payload, lost forward: the watchdog ends the run (qemu $rc)" [ "$rc" -ne 1 ] && [ "$rc" -ne 124 ] && [ "$rc" -ne 137 ]
	line=$(grep -a -m1 "^cpu0 waits on:" "$log" | tr -d '\r')
	diag "$(grep -a -m1 '^ERROR: watchdog' "$log")"
	diag "$line"
	check "payload, lost forward: the watchdog names exactly cpu3 ($line)" \
		[ "$line" = "cpu0 waits on: cpu3(done 0/1), spinning on cpu3(tree: group not done)" ]
else
	skip "payload, lost forward" "$XCB_ELF not built"
fi
