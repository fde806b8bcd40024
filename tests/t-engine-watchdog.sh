#!/bin/bash
# t-engine-watchdog.sh - a target that never finishes its call (hang_cpu=N wedges it
# with interrupts off) must not hang the run: the watchdog reports, as an ERROR frame
# and console text, which CPU waits on which and what each CPU was doing, then the
# run ends (DONE, non-zero exit). Once with CPU 0 watching (stress), once with CPU 0
# itself the stuck initiator (the APIC-timer tick watches it). And a CPU that takes
# an exception mid-call (fault_cpu=N) is reported as an ERROR frame by the crash
# hook before the run ends. `xcbench show` of the stored tick run prints the
# watchdog's report whole (it printed its first line only: not the CPU waited
# on, nor what each CPU was doing).
# timeout: 300
. "$(dirname "$0")/lib/tap.sh"

T=$(mktemp -d "$OUTDIR/engine-watchdog.XXXXXX")
cleanup() { [ -n "${DPID:-}" ] && kill "$DPID" 2>/dev/null; wait 2>/dev/null; }
trap cleanup EXIT

need_payload

verify() { # NAME LOG CPU
	local name=$1 log=$2 cpu=$3
	check "$name: frames decode" frames_json "$log" "$T/$name.json"
	python3 - "$T/$name.json" "$cpu" "$name" <<'PY'
import json, re, sys
run, cpu, name = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
from tap import prefixed
ok = prefixed(name + ": ")
errs = [e for e in run["errors"] if e.startswith("watchdog:")]
ok(len(errs) == 1, "exactly one watchdog ERROR frame")
e = errs[0] if errs else ""
print("# " + e.split("\n")[0])
ok(re.search(r"waits on:.* cpu%s\(done 0/" % cpu, e) is not None, f"it names cpu{cpu} as the one waited on")
ok(re.search(r"cpu%s: running a callee for cpu\d+" % cpu, e) is not None, f"it says what cpu{cpu} was doing")
ok(run["done"] is not None and run["done"]["status"] != 0, "DONE sent, status not ok")
PY
}

# CPU 0 watches (stress never initiates from CPU 0); CPU 3 wedges.
XCB_QEMU_TIMEOUT=120 qemu_direct "$T/stress.log" 4 "suite=stress duration=30 watchdog_ms=1000 hang_cpu=3 kinds=xcall"
rc=$?
check "stress with a wedged cpu3 ends by itself, exit status non-zero (qemu $rc)" \
	test "$rc" -ne 1 -a "$rc" -ne 124 -a "$rc" -ne 137
check "watchdog text on the console" grep -aq '^ERROR: watchdog: cpu' "$T/stress.log"
verify stress "$T/stress.log" 3

# CPU 0 initiates (first placement) towards cpu1, which wedges: the tick reports.
XCB_QEMU_TIMEOUT=120 qemu_direct "$T/tick.log" 2 \
	"suite=quick kinds=xcall algos=locked waits=done deliveries=auto inits=1 masks=1 watchdog_ms=1000 hang_cpu=1"
rc=$?
check "cpu0's own stuck call ends the run (qemu $rc)" test "$rc" -ne 1 -a "$rc" -ne 124 -a "$rc" -ne 137
verify tick "$T/tick.log" 1

# cpu3 takes #UD inside a call: the crash hook's ERROR frame, then the run ends.
XCB_QEMU_TIMEOUT=120 qemu_direct "$T/fault.log" 4 "suite=stress duration=30 watchdog_ms=1000 fault_cpu=3 kinds=xcall"
rc=$?
# XCB_EXIT_CRASH (3) -> qemu status 7
check "a faulting cpu3 ends the run with the crash exit code (qemu $rc)" test "$rc" -eq 7
check "fault: frames decode" frames_json "$T/fault.log" "$T/fault.json"
python3 - "$T/fault.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
from tap import prefixed
ok = prefixed("fault: ")
ex = [e for e in run["errors"] if e.startswith("exception: cpu3 vector 6")]
print("# " + (ex[0] if ex else f"errors: {run['errors']}"))
ok(len(ex) == 1, "one ERROR frame names cpu3 and the invalid-opcode vector")
ok(run["done"] is not None and run["done"]["status"] != 0, "DONE sent, status not ok")
PY

# The reviewer's view of the crashed run: the report whole, not its first line.
PORT=$(free_port)
URL="http://127.0.0.1:$PORT"
xcbd_start "$T/xcbenchd.log" "$PORT" --db "$T/x.db" --open
DPID=$XCBD_PID
timeout 60 "$XCBENCH" --server "$URL" ingest "$T/tick.log" --timeout 30 >"$T/ingest.out" 2>&1
check "xcbench ingest stores the tick run" grep -q 'status crashed' "$T/ingest.out"
ID=$(curl -sf "$URL/api/v1/runs" | python3 -c 'import json,sys; print(json.load(sys.stdin)["runs"][0]["id"])')
"$XCBENCH" --server "$URL" show "$ID" >"$T/show.out" 2>&1
diag "$(grep -A4 '^ERROR:' "$T/show.out")"
check "show: the watchdog's first line" grep -q '^ERROR: watchdog: cpu0 call #[0-9]* (locked) still running' "$T/show.out"
check "show: and the line naming the CPU waited on" grep -qE '^ +cpu0 waits on: cpu1\(done 0/' "$T/show.out"
check "show: and what cpu1 was doing" grep -qE '^ +cpu1: running a callee for cpu0' "$T/show.out"
check "show: the case the run hung in says it has no result (not a row of dashes)" \
	grep -qE '^ +1 xcall +locked .* no result \(no timed call stored\)$' "$T/show.out"
