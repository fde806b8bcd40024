#!/bin/bash
# t-sync-writer-kick.sh - a lost kick to a sync writer of its own (suite=ept
# writer=N) never hangs the payload: the boot CPU waits for the writer's start
# within the bound, as for the readers' (bench/sync.c wait_cpus), and the case
# fails with an ERROR naming the writer's CPU; the reader already started is
# stopped. Its watch of the writer saw only a write in flight, so a writer that
# never started hung the run with no report.
# The kick lost is the writer's start: kick_drop=2 kick_drop_after=2 keeps the
# kicks of CPU 2's first two jobs (the boot check's and the TLB feature set-up's,
# firmware/bench/benchenv.c) and loses the next one, the writer's (CPU 2 runs no
# other job in this suite: its floors are raw IPIs). Bounded by XCB_QEMU_TIMEOUT:
# a hang shows as QEMU status 124/137.
# timeout: 240
. "$(dirname "$0")/lib/tap.sh"

T=$(mktemp -d "$OUTDIR/sync-writer-kick.XXXXXX")
trap 'rm -rf "$T"' EXIT
need_payload

XCB_QEMU_TIMEOUT=90 qemu_direct "$T/lost.log" 3 \
	"suite=ept iters=20 warmup=2 reps=1 modes=inside masks=1 writer=2 watchdog_ms=1000 kick_drop=2 kick_drop_after=2"
rc=$?
cp "$T/lost.log" "$OUTDIR/t-sync-writer-kick.serial.log"
check "the run ends by itself, exit code 1 (QEMU status $rc; 124/137: it hung)" test "$rc" -eq 3
check "frames decode" frames_json "$T/lost.log" "$T/lost.json" 5
python3 - "$T/lost.json" <<'PY'
import json, re, sys
from tap import ok
run = json.load(open(sys.argv[1]))
for e in run["errors"]:
    print("# " + e.split("\n")[0])
ok(len(run["errors"]) == 1 and re.fullmatch(r"watchdog: sync case \d+ rep 0: writer not started: cpu2\n?",
                                            run["errors"][0]),
   "one ERROR, naming the writer's CPU: 'writer not started: cpu2'")
ok(run["done"] is not None and run["done"]["status"] != 0, "DONE sent, status not ok")
ok(not [r for r in run["results"] if r["initiator"] == 0xfff0], "no write was timed (the writer never ran)")
PY
grep -aq 'did not stop' "$T/lost.log" && notok "the started reader cpu1 stopped" \
	|| ok "the started reader cpu1 stopped"
