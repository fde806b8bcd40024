#!/bin/bash
# bench/load-1000.sh — a mass boot: 1000 simulated machines at once
# (host/build/xcb-load: the payload's own retransmit window, firmware/net/
# rtx.c, built for the host), one 48-case run of 2 reps each, against one
# daemon. Reports the wall time until every frame is ACKed (ACK = committed)
# and the retransmit ratio (retransmissions per frame): the price of the
# payload's timer against a daemon that ACKs only after its commit.
. "$(dirname "$0")/lib/tap.sh"
XCB_LOAD=$ROOT/host/build/xcb-load
need "$XCBENCHD" "$XCB_LOAD"
N=${BENCH_MACHINES:-1000}
T=$(mktemp -d "$BOUT/load.XXXXXX")
daemon "$T/xcbench.db" --open || exit 1
c0=$(cpu_s "$DPID")
"$XCB_LOAD" --server 127.0.0.1:$PORT --machines "$N" --reps 2 --give-up 240 >"$T/load.json" 2>"$T/load.err"
dcpu=$(echo "$(cpu_s "$DPID") - $c0" | bc)
hwm=$(awk '/^VmHWM/ {print int($2 / 1024)}' /proc/$DPID/status)
stored=$($PY -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute("SELECT count(*) FROM frames").fetchone()[0], c.execute("SELECT count(*) FROM runs WHERE status = '"'complete'"'").fetchone()[0])' "$T/xcbench.db")
stop_daemon
$PY - "$T/load.json" "$stored" "$dcpu" "$hwm" <<'PY'
import json, os, sys
d = json.load(open(sys.argv[1]))
frames_stored, runs_complete = map(int, sys.argv[2].split())
dcpu, hwm = float(sys.argv[3]), int(sys.argv[4])
print("### Mass boot: %d machines at once (xcb-load, firmware/net/rtx.c), 1 run x 2 reps each, loopback UDP" % d["machines"])
print()
print("| machines | frames | seconds | frames/s | retransmitted | retransmit ratio | RTO timeouts | runs complete | frames stored |")
print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
print("| %d | %d | %.1f | %.0f | %d | %.3f | %d | %d | %d |" % (d["machines"], d["frames"], d["seconds"], d["frames"] / d["seconds"],
      d["retransmitted"], d["retransmit_ratio"], d["timeouts"], runs_complete, frames_stored))
print()
print("xcbenchd used %.1f CPU-seconds (peak RSS %d MiB); %s; load average %.1f on %d cores." %
      (dcpu, hwm, "every run complete, every frame stored" if runs_complete == d["machines"] and frames_stored == d["frames"] else "NOT all delivered",
       os.getloadavg()[0], os.cpu_count()))
PY
rm -rf "$T"
