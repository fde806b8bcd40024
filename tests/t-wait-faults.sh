#!/bin/bash
# t-wait-faults.sh — every wait on another CPU in the cross-call and shootdown
# paths ends when that CPU never answers: the test keys ipidrop=SITE
# ipidrop_cpu=N (xcall/platform.h plat_lost_cpu) lose the answer one wait
# expects from CPU N, and each run must end (no QEMU timeout) with exit code 1
# and an error naming CPU N as the one waited on:
#   paths      flush=consolidated, the owner's wait for each target's line
#              (flush/paths.c): the watchdog, CPU 0 initiating (its tick);
#   paths-sync the same wait in a sync write (modes=inside, writer=1): the
#              boot CPU polls the writer's watchdog;
#   qlist-done queued, wait=done: the wait for a call's descriptor (qlist.c
#              qlist_wait);
#   qlist-none queued, wait=none, an AP initiator (cpu1 -> cpu3): the wait to
#              reuse the previous call's descriptor (qlist_post);
#   lazy       modes=lazy: the writer's wait for cpu3's entry (flush/lazy.c
#              lazy_wait), whose entries never acknowledge;
#   raw-boot   the boot floors CPU 0 -> CPU 1 (xcall/raw.c, no watchdog yet):
#              raw.c's own bound (10 s; rawwait_ms=1000 here, so the test
#              does not sit out 10 s of nothing), then the run ends naming
#              cpu1 and the bound it waited;
#   raw-rep    a repetition's floor probe cpu0 -> cpu2 (bench/rep.c, before
#              the watchdog is armed): the same bound, naming cpu2;
#   raw-watched the raw wait under the watchdog: the second initiator's
#              paired floor probe cpu1 -> cpu3 (bench/initiator.c
#              paired_probe; the floors before it probe cpu1 and cpu2 only),
#              reported by the watchdog (1 s) before raw.c's own bound (its
#              default 10 s: no rawwait_ms here), labelled
#              as what ran: "paired floor probe (raw)", not the case's
#              algorithm's call, and no ledger verdict on it.
# The waits for a shared mask to empty (xcall/xcall_internal.h
# xcall_wait_empty, xcall_finish), with ipidrop=mask (every cross-call IPI an
# initiator sends CPU N lost, xcall/platform_hw.c) unless said otherwise:
#   locked     wait=done: the holder's wait for every target to check in;
#   lockless   wait=done: the wait for the call's `selected` to empty;
#   lockless-none wait=none, an AP initiator (cpu1 -> cpu3): the wait for
#              the previous call to be picked up before reusing the data;
#   tree       wait=done, cpu1 lost: the group mask (cpu1 leads 1-3; its
#              forwards never go out), naming the lowest target that never
#              picked the call up (tree.c's `pending`);
#   tree-none  wait=none, cpu1 -> cpu3: the previous call's group mask;
#   vector     flush=vector, ipidrop=vector (the flush vector's IPI lost):
#              flush.c's wait for `pending` to empty;
#   concurrent flush=concurrent, ipidrop=paths: flush/paths.c's direct
#              paths' wait for `pending` (ipidrop=mask would lose the
#              prepare step's queued call first).
#   control    flush=vector, ipidrop_after=30: the 30 shootdowns (10
#              warm-up, 20 timed) go out, and the no-flush control's IPI to
#              cpu1 is lost: reported as "no-flush control", not as call #31.
# A TLB case keeps no ledger: its waits say "(tlb: no ledger verdict)", not
# "done 0/N" of targets that did run the shootdowns before.
# Waiters queued on a ticket lock (xcall/ticketlock.h) name its holder: two
# initiators (cpu0, cpu1) share one target, cpu2, whose IPIs are all lost, so
# whichever takes the lock first holds it for ever and the other queues
# behind it. Shared, not one target each: with cpu1's target alone lost, cpu0
# could finish all its calls before cpu1 took the lock (a slow vCPU thread),
# and nobody would queue. Which of the two holds is a race, so the waiter's
# line is checked against the holder the report names:
#   call-lock  algos=locked (call_lock), ipidrop=mask;
#   flush-lock flush=vector (flush_lock), ipidrop=vector.
# The xcall_smoke self-test (bench/smoke.c) under the watchdog
# (bench/smoke_watch.h, CPU 0's tick), ipidrop=mask:
#   smoke-1to1 cpu1 lost: the 1:1 part's first algorithm (concurrent,
#              wait=none) stalls in its second warm-up call, waiting to reuse
#              the descriptor of the first (qlist_post);
#   smoke-all  cpu3 lost: the all-CPUs part (cpu3 is never a 1:1 target),
#              an initiator's numbered call judged by the ledger;
#   each also says "xcall smoke FAIL" and never "PASS".
# Every run is -smp 4 under TCG; no wall-clock time is asserted.
# timeout: 600
. "$(dirname "$0")/lib/tap.sh"
export XCB_QEMU_TIMEOUT=${XCB_QEMU_TIMEOUT:-90}
export XCBENCH_ACCEL=tcg
T=$(mktemp -d "$OUTDIR/t-wait-faults.XXXXXX")
trap 'rm -rf "$T"' EXIT
need_payload

# WD_MS: the watchdog's bound and raw.c's (rawwait_ms), the floor of both
# keys (1000 ms; a healthy call under TCG takes tens of ms at most). Every
# boot here waits it out once, so it is most of each boot's time: at 2 s
# the 20 boots sat 40 s. Only the reports' "(bound N ms)" text names it.
WD_MS=1000
Q="suite=quick watchdog_ms=$WD_MS"
# run NAME "CMDLINE" ERROR-RE WAITS-RE: boots it, then checks that it ended
# (exit code 1: QEMU status 3), that its first ERROR line matches ERROR-RE
# and that a line matches WAITS-RE (the CPU waited on, named). The serial log
# stays in $OUTDIR/t-wait-faults.NAME.log.
run() {
	local name=$1 cmdline=$2 err=$3 waits=$4 log=$T/$1.log rc line
	qemu_direct "$log" 4 "$cmdline"
	rc=$?
	tr -d '\r' <"$log" >"$OUTDIR/t-wait-faults.$name.log"
	log=$OUTDIR/t-wait-faults.$name.log
	line=$(grep -a -m1 '^ERROR: ' "$log")
	diag "$line"
	check "$name: the run ends with exit code 1, not a hang (QEMU status $rc)" [ "$rc" -eq 3 ]
	check "$name: the error says which wait ran out" grep -qaE "$err" <<<"$line"
	line=$(grep -a -m1 -E "$waits" "$log")
	diag "$line"
	check "$name: it names the CPU waited on" [ -n "$line" ]
}

# also NAME WHAT RE: one more line of NAME's log must match RE.
also() {
	local line
	line=$(grep -a -m1 -E "$3" "$OUTDIR/t-wait-faults.$1.log")
	diag "$line"
	check "$1: $2" [ -n "$line" ]
}

# smoke_verdict NAME: the self-test said it failed, and never that it passed.
no_pass() { ! grep -qa 'xcall smoke PASS' "$1"; }
smoke_verdict() {
	local log=$OUTDIR/t-wait-faults.$1.log
	check "$1: the smoke says FAIL" \
		grep -qa '^xcbench: xcall smoke FAIL a call outlived the watchdog' "$log"
	check "$1: ... and never PASS" no_pass "$log"
}

run paths "$Q kinds=tlb flush=consolidated inits=1 masks=all ipidrop=paths ipidrop_cpu=3" \
	'^ERROR: watchdog: cpu0 call #[0-9]+ \(consolidated\) still running' \
	'^cpu0 waits on: \(tlb: no ledger verdict\), spinning on cpu3\(paths: consolidated line not done\)$'
run paths-sync "$Q kinds=sync modes=inside flush=consolidated writer=1 masks=all ipidrop=paths ipidrop_cpu=3" \
	'^ERROR: watchdog: sync case [0-9]+ rep 0: writer: shootdown \(cpu1 write' \
	'^cpu1 waits on:.*, spinning on cpu3\(paths: consolidated line not done\)$'
run qlist-done "$Q kinds=xcall algos=queued waits=done deliveries=unicast inits=1 masks=all ipidrop=qlist ipidrop_cpu=3" \
	'^ERROR: watchdog: cpu0 call #[0-9]+ \(queued\) still running' \
	'^cpu0 waits on: cpu3\(done 0/1\), spinning on cpu3\(qlist: call.s descriptor busy\)$'
run qlist-none "$Q kinds=xcall algos=queued waits=none deliveries=unicast inits=2 masks=1 placements=first overlap=disjoint ipidrop=qlist ipidrop_cpu=3" \
	'^ERROR: watchdog: cpu1 call #[0-9]+ \(queued\) still running' \
	'^cpu1 waits on: cpu3\(done 0/[0-9]+\), spinning on cpu3\(qlist: previous call.s descriptor busy\)$'
run lazy "$Q kinds=sync modes=lazy masks=all ipidrop=lazy ipidrop_cpu=3" \
	'^ERROR: watchdog: sync case [0-9]+ rep 0: writer: lazy_wait \(cpu0 write' \
	'^cpu0 waits on:.* spinning on cpu3\(lazy: entry not acknowledged\)$'
RW=rawwait_ms=$WD_MS
run raw-boot "$Q $RW kinds=raw ipidrop=raw ipidrop_cpu=1" \
	"^ERROR: floors: cpu1 never answered a raw IPI from cpu0 \(gave up after $WD_MS ms\)" \
	'^ERROR: floors: cpu1 '
run raw-rep "$Q $RW kinds=xcall algos=lockless waits=done inits=2 masks=1 placements=first overlap=disjoint ipidrop=raw ipidrop_cpu=2" \
	"^ERROR: case [0-9]+ rep 0: cpu2 never answered a raw IPI \(the repetition.s floor probe; gave up after $WD_MS ms\)" \
	'^ERROR: case [0-9]+ rep 0: cpu2 '
run raw-watched "$Q kinds=xcall algos=lockless waits=done inits=2 masks=1 placements=first overlap=disjoint ipidrop=raw ipidrop_cpu=3" \
	"^ERROR: watchdog: cpu1 paired floor probe \(raw\) still running after [0-9]+ ms \(bound $WD_MS ms\)$" \
	'^cpu1: in a raw IPI ping-pong, own paired floor probe in flight [0-9]+ ms, spinning on cpu3 \(raw: ping not answered\)'
also raw-watched "its wait: no ledger verdict on a call that is not running" \
	'^cpu1 waits on: \(paired floor probe: no ledger verdict\), spinning on cpu3\(raw: ping not answered\)$'
run locked "$Q kinds=xcall algos=locked waits=done deliveries=unicast inits=1 masks=all ipidrop=mask ipidrop_cpu=3" \
	'^ERROR: watchdog: cpu0 call #[0-9]+ \(locked\) still running' \
	'^cpu0 waits on: cpu3\(done 0/1\), spinning on cpu3\(locked: not checked in\)$'
run lockless "$Q kinds=xcall algos=lockless waits=done deliveries=unicast inits=1 masks=all ipidrop=mask ipidrop_cpu=3" \
	'^ERROR: watchdog: cpu0 call #[0-9]+ \(lockless\) still running' \
	'^cpu0 waits on: cpu3\(done 0/1\), spinning on cpu3\(lockless: not checked in\)$'
run lockless-none "$Q kinds=xcall algos=lockless waits=none deliveries=unicast inits=2 masks=1 placements=first overlap=disjoint ipidrop=mask ipidrop_cpu=3" \
	'^ERROR: watchdog: cpu1 call #[0-9]+ \(lockless\) still running' \
	'^cpu1 waits on: cpu3\(done 0/[0-9]+\), spinning on cpu3\(lockless: previous call not picked up\)$'
run tree "$Q kinds=xcall algos=tree waits=done deliveries=unicast inits=1 masks=all ipidrop=mask ipidrop_cpu=1" \
	'^ERROR: watchdog: cpu0 call #[0-9]+ \(tree\) still running' \
	'^cpu0 waits on: cpu1\(done 0/1\).*, spinning on cpu1\(tree: group not done\)$'
run tree-none "$Q kinds=xcall algos=tree waits=none deliveries=unicast inits=2 masks=1 placements=first overlap=disjoint ipidrop=mask ipidrop_cpu=3" \
	'^ERROR: watchdog: cpu1 call #[0-9]+ \(tree\) still running' \
	'^cpu1 waits on: cpu3\(done 0/[0-9]+\), spinning on cpu3\(tree: previous call.s group not done\)$'
run vector "$Q kinds=tlb flush=vector inits=1 masks=all ipidrop=vector ipidrop_cpu=3" \
	'^ERROR: watchdog: cpu0 call #[0-9]+ \(vector\) still running' \
	'^cpu0 waits on: \(tlb: no ledger verdict\), spinning on cpu3\(vector: flush not acknowledged\)$'
run concurrent "$Q kinds=tlb flush=concurrent inits=1 masks=all ipidrop=paths ipidrop_cpu=3" \
	'^ERROR: watchdog: cpu0 call #[0-9]+ \(concurrent\) still running' \
	'^cpu0 waits on: \(tlb: no ledger verdict\), spinning on cpu3\(paths: shootdown not acknowledged\)$'
run control "$Q kinds=tlb flush=vector inits=1 masks=1 warmup=10 iters=20 reps=1 ipidrop=vector ipidrop_cpu=1 ipidrop_after=30" \
	"^ERROR: watchdog: cpu0 no-flush control \(vector\) still running after [0-9]+ ms \(bound $WD_MS ms\)$" \
	'^cpu0 waits on: \(no-flush control: no ledger verdict\), spinning on cpu1\(vector: flush not acknowledged\)$'
# lock_queue NAME LOCK HOLDS: after `run NAME`, the holder's line says it
# waits on cpu2 (HOLDS, a regex of its wait), and the other initiator's line
# says it spins on the holder (LOCK: "call_lock: held").
lock_queue() {
	local log=$OUTDIR/t-wait-faults.$1.log h w line
	line=$(grep -a -m1 -E "^cpu[01] waits on: .*, spinning on cpu2\\($3\\)\$" "$log")
	diag "$line"
	check "$1: the holder's own wait names cpu2" [ -n "$line" ]
	h=${line:3:1}
	w=$((1 - ${h:-0}))
	line=$(grep -a -m1 -E "^cpu$w waits on: .*, spinning on cpu$h\\($2\\)\$" "$log")
	diag "$line"
	check "$1: the queued cpu$w names the holder cpu$h" [ -n "$line" ]
}
LQ="$Q inits=2 masks=1 placements=first overlap=overlap ipidrop_cpu=2"
run call-lock "$LQ kinds=xcall algos=locked waits=done deliveries=unicast ipidrop=mask" \
	'^ERROR: watchdog: cpu[01] call #[0-9]+ \(locked\) still running' \
	'^cpu[01] waits on: cpu2\(done [0-9]+/[0-9]+\), spinning on cpu[01]\(call_lock: held\)$'
lock_queue call-lock 'call_lock: held' 'locked: not checked in'
run flush-lock "$LQ kinds=tlb flush=vector ipidrop=vector" \
	'^ERROR: watchdog: cpu[01] call #[0-9]+ \(vector\) still running' \
	'^cpu[01] waits on:.*, spinning on cpu[01]\(flush_lock: held\)$'
lock_queue flush-lock 'flush_lock: held' 'vector: flush not acknowledged'
SM="xcall_smoke=20 watchdog_ms=$WD_MS ipidrop=mask"
run smoke-1to1 "$SM ipidrop_cpu=1" \
	"^ERROR: watchdog: cpu0 warm-up call \(concurrent\) still running after [0-9]+ ms \(bound $WD_MS ms\)$" \
	'^cpu0 waits on: \(warm-up call: no ledger verdict\), spinning on cpu1\(qlist: previous call.s descriptor busy\)$'
smoke_verdict smoke-1to1
run smoke-all "$SM ipidrop_cpu=3" \
	"^ERROR: watchdog: cpu[0-2] call #[0-9]+ \(concurrent\) still running after [0-9]+ ms \(bound $WD_MS ms\)$" \
	'^cpu[0-2] waits on: .*cpu3\(done 0/[0-9]+\).*, spinning on cpu3\(qlist: previous call.s descriptor busy\)$'
smoke_verdict smoke-all
