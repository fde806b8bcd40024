#!/bin/bash
# timeout: 400
# Crash safety of the payload, end to end over the real network path: a CPU
# that takes an exception inside a cross-call (fault_cpu=N) and a CPU that
# wedges so the watchdog expires (hang_cpu=N), each on a QEMU VM streaming
# over UDP to xcbenchd → the report arrives as an ERROR frame, the run is
# marked crashed, and the run's API (what the run page shows) carries the
# report: run.error is its first line, errors[] the whole text, which CPU.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/net.sh"
net_require "payload crash reaches the daemon"

net_daemon crash PORT

# boot NAME KEYS REGEX: one VM (4 CPUs: CPU 0 watches, stress never initiates
# from it), then checks the run in the daemon.
boot() {
	local name=$1 keys=$2 want=$3 token id rc
	token=$(new_token)
	register "$PORT" "$token" stress
	XCB_QEMU_TIMEOUT=180 qemu_direct "$NET_DIR/$name.serial.log" 4 \
		"$(NET_SUITE="suite=stress duration=20 watchdog_ms=1000 kinds=xcall" net_cmdline "$PORT" "$token" "$keys")" \
		-netdev user,id=n0 -device virtio-net-pci,netdev=n0
	rc=$?
	check "$name: the VM ends by itself (qemu $rc; 7 = payload crash exit)" [ "$rc" -ne 124 -a "$rc" -ne 137 -a "$rc" -ne 0 ]
	grep -a -E '^ERROR: ' "$NET_DIR/$name.serial.log" | head -3 | sed 's/^/# console: /'
	id=$(run_id "$PORT" "$token")
	check "$name: the run exists in the daemon" [ -n "$id" ]
	[ -n "$id" ] || return
	# The ERROR frame may still be in flight when QEMU exits: poll briefly.
	for _ in $(seq 50); do
		[ "$(run_summary "$PORT" "$id" | cut -d' ' -f1)" = crashed ] && break
		sleep 0.2
	done
	api "$PORT" "/api/v1/runs/$id" >"$NET_DIR/$name.run.json"
	"$NET_PY" - "$NET_DIR/$name.run.json" "$name" "$want" <<'PY'
import json, re, sys
d, name, want = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
run, errs = d["run"], d.get("errors") or []
from tap import prefixed
tap = prefixed(name + ": ")
print("# run %s: status %s, frames %s/%s, error %r" % (run["id"], run["status"], run["frames_received"],
      run["frames_expected"], run["error"]))
tap(run["status"] == "crashed", "run marked crashed (status %s)" % run["status"])
tap(any(re.search(want, e["text"], re.S) for e in errs), "the ERROR frame's report is in the run's errors[] (/%s/)" % want)
tap(bool(run["error"]) and any(e["text"].split("\n")[0] == run["error"] for e in errs),
    "run.error is the report's first line")
PY
	ev=$(api "$PORT" "/api/v1/runs/$id/events?kind=error" | json 'len(j["events"])')
	check "$name: /events?kind=error lists the report ($ev)" [ "${ev:-0}" -ge 1 ]
}

# cpu3 takes #UD inside a callee: the exception handler's crash hook sends it.
boot exception "fault_cpu=3" '^exception: cpu3 vector 6'
# cpu2 wedges with interrupts off inside a callee: the watchdog on CPU 0 reports,
# naming cpu2 as stuck in a callee. (Whose call crosses the bound first — cpu2's
# own, or one waiting on cpu2 — depends on the random stress schedule; the
# report's per-CPU lines name the wedged CPU either way.)
boot watchdog "hang_cpu=2" '^watchdog: .*\ncpu2: running a callee for cpu[0-9]+'
check "daemon still healthy" api "$PORT" /api/v1/health -o /dev/null
