#!/bin/bash
# t-engine-bounded.sh - issue 21: every wait on another CPU is bounded and ends with
# a report naming the CPU waited on. One boot per hang:
#  - a sync reader wedged with interrupts off (hang_cpu): the writer's shootdown
#    never completes; the writer's watchdog tick names the reader;
#  - a sync reader that crashes (fault_cpu): named as crashed, crash exit code;
#  - a sync reader that cannot start (startfail_cpu): the readers already started
#    are stopped (not left spinning) and the run ends naming the CPU;
#  - a lost call with watchdog_ms=0 (dupskip_cpu): the check gives up after its own
#    bound, names the target that did not run every call, and the verdict says
#    1 lost, 1 duplicated;
#  - a wedged target of another initiator with watchdog_ms=0 (hang_cpu, 2 initiators):
#    CPU 0 finishes its own calls and waits for the other (rep_supervise), which
#    ends after the check's own bound with the report naming cpu1 and its target;
#  - a wedged TLB initiator with watchdog_ms=0: CPU 0 waits before its no-flush
#    control for cpu1 to end its timed shootdowns; its tick ends the wait after the
#    check's own bound, naming cpu1.
# Each QEMU boot is bounded by XCB_QEMU_TIMEOUT: a hang shows as 124/137.
# timeout: 300
. "$(dirname "$0")/lib/tap.sh"

T=$(mktemp -d "$OUTDIR/engine-bounded.XXXXXX")
need_payload

# boot NAME SMP CMDLINE: boots; prints QEMU's status; decodes the frames.
boot() {
	local name=$1 smp=$2 cl=$3
	XCB_QEMU_TIMEOUT=90 qemu_direct "$T/$name.log" "$smp" "$cl"
	local rc=$?
	check "$name: the run ends by itself (qemu $rc)" test "$rc" -ne 124 -a "$rc" -ne 137 -a "$rc" -ne 1
	check "$name: frames decode" frames_json "$T/$name.log" "$T/$name.json" 5
	return 0
}

# verify NAME PYTHON-REGEX WHAT: exactly one ERROR frame matching, DONE not ok.
verify() {
	python3 - "$T/$1.json" "$1" "$2" "$3" <<'PY'
import json, re, sys
run, name, rx, what = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3], sys.argv[4]
from tap import prefixed
ok = prefixed(name + ": ")
hits = [e for e in run["errors"] if re.search(rx, e, re.S)]
for e in run["errors"]:
    print("# " + e.split("\n")[0])
ok(len(hits) == 1, what)
ok(run["done"] is not None and run["done"]["status"] != 0, "DONE sent, status not ok")
PY
}

SYNC="suite=ept iters=20 reps=1 watchdog_ms=1000"

boot wedged 3 "$SYNC modes=inside masks=1 hang_cpu=1"
verify wedged '^watchdog: sync case \d+ rep 0: writer: .*\ncpu0 waits on: cpu1\(reader' \
	"the writer's report names the wedged reader cpu1 (and only it)"
grep -aq '^cpu1: reader' "$T/wedged.log" && ok "wedged: console says what cpu1 was doing" \
	|| notok "wedged: console says what cpu1 was doing"

boot crashed 3 "$SYNC modes=after masks=2 fault_cpu=2"
verify crashed '^watchdog: sync case \d+ rep 0: a reader crashed.*\ncpu0 waits on: cpu2\(crashed\)' \
	"the report names cpu2 as crashed"
python3 - "$T/crashed.json" <<'PY'
import json, sys
from tap import ok
run = json.load(open(sys.argv[1]))
ex = [e for e in run["errors"] if e.startswith("exception: cpu2 vector 6")]
ok(len(ex) == 1, "crashed: the exception report (cpu2, #UD) came first")
PY

boot nostart 3 "suite=ept iters=20 reps=1 watchdog_ms=0 modes=lazy masks=2 startfail_cpu=2"
verify nostart '^sync case \d+ rep 0: cannot start reader cpu2; stopping the 1 started' \
	"a failed reader start names cpu2 and stops the reader already started"
grep -aq 'did not stop' "$T/nostart.log" && notok "nostart: the started reader cpu1 stopped" \
	|| ok "nostart: the started reader cpu1 stopped"

boot lost 2 "suite=quick kinds=xcall algos=locked waits=done deliveries=unicast inits=1 masks=1 iters=20 reps=1 dupskip_cpu=1 watchdog_ms=0"
grep -aEq '^# case 1 rep 0: 29 of 30 calls ran in [0-9]+ ms; waiting on: cpu1\(ran 29 of cpu0' "$T/lost.log" \
	&& ok "lost: with watchdog_ms=0 the check ends after its own bound, naming cpu1" \
	|| notok "lost: with watchdog_ms=0 the check ends after its own bound, naming cpu1"
grep -aq 'initiator cpu0: 1 lost, 1 duplicated' "$T/lost.log" && ok "lost: the verdict: 1 lost, 1 duplicated" \
	|| notok "lost: the verdict: 1 lost, 1 duplicated"
# ... naming the algorithm and the target (the sums alone named neither)
grep -aq 'initiator cpu0: 1 lost, 1 duplicated, 0 out of order: locked, at 1 of 1 targets, first cpu1$' "$T/lost.log" \
	&& ok "lost: the verdict names the algorithm and the target cpu1" \
	|| notok "lost: the verdict names the algorithm and the target cpu1"

XC2="suite=quick kinds=xcall algos=lockless waits=done deliveries=unicast inits=2 masks=1 iters=20 reps=1 watchdog_ms=0"
boot supervise 4 "$XC2 hang_cpu=3"
verify supervise '^watchdog: cpu1 call #\d+ \(lockless\) still running after \d+ ms \(bound 2000 ms\)\ncpu1 waits on: cpu3\(done' \
	"with watchdog_ms=0 the wait for the other initiator ends after the check's bound, naming cpu1 and its target cpu3"

boot tlbctl 4 "suite=quick kinds=tlb flush=xcall methods=invlpg inits=2 masks=1 iters=20 reps=1 watchdog_ms=0 hang_cpu=1"
verify tlbctl '^watchdog: cpu1 call #\d+ \(.*\) still running after \d+ ms \(bound 2000 ms\)' \
	"with watchdog_ms=0 the wait before the TLB control ends after the check's bound, naming cpu1"
grep -aq '^cpu0: finished its calls' "$T/tlbctl.log" && ok "tlbctl: cpu0 was waiting (finished its timed calls)" \
	|| notok "tlbctl: cpu0 was waiting (finished its timed calls)"
