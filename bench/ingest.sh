#!/bin/bash
# bench/ingest.sh — how fast xcbenchd takes frames: S sender processes
# (xcb-gen, the payload's reliable-UDP sender) stream R runs each with
# histograms and raw samples; the clock stops when every frame is ACKed, and
# the daemon ACKs only after the SQLite commit, so this is the stored rate.
# The baseline is the same senders against bench/null-acker.c, which ACKs
# each valid frame at once and stores nothing: the rate the senders produce.
. "$(dirname "$0")/lib.sh"
need "$XCBENCHD" "$XCB_GEN"
S=${BENCH_SENDERS:-4} R=${BENCH_RUNS:-2} REPS=${BENCH_REPS:-20} TRIALS=${BENCH_TRIALS:-3}
T=$(mktemp -d "$BOUT/ingest.XXXXXX")

# send PORT TAG: runs all senders, prints "seconds frames samples".
send() {
	local port=$1 tag=$2 t0 t1 i ok=0
	t0=$(now)
	for i in $(seq "$S"); do
		"$XCB_GEN" --server 127.0.0.1:$port --runs "$R" --reps "$REPS" --samples \
			--token "$(printf '%x%02x000000' "$((RANDOM % 4096 + 4096))" "$i")" >"$T/$tag.$i.out" 2>"$T/$tag.$i.err" &
	done
	wait $(jobs -p | grep -v "^$DPID\$" | grep -v "^${NPID:-x}\$") 2>/dev/null
	t1=$(now)
	grep -h -c 'all frames acknowledged' "$T/$tag".*.err | paste -sd+ | bc >"$T/$tag.acked"
	cat "$T/$tag".*.out | awk -v t0="$t0" -v t1="$t1" \
		'{ for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "frames") f += kv[2]; if (kv[1] == "samples") s += kv[2] } }
		 END { printf "%.3f %d %d\n", t1 - t0, f, s }'
}

NA=$(null_acker) || exit 1
NPORT=$(free_port)
"$NA" "$NPORT" 600 >"$T/null.out" 2>&1 &
NPID=$!
PIDS+=("$NPID")
sleep 0.3
daemon "$T/xcbench.db" --open || exit 1
# Alternate the two collectors, TRIALS times each, so a load spike on this
# shared machine hits both alike; the table reports medians.
: >"$T/null.res"; : >"$T/daemon.res"
dcpu=0
for trial in $(seq "$TRIALS"); do
	send "$NPORT" "null$trial" >>"$T/null.res"
	c0=$(cpu_s "$DPID")
	send "$PORT" "daemon$trial" >>"$T/daemon.res"
	dcpu=$(echo "$dcpu + $(cpu_s "$DPID") - $c0" | bc)
done
kill "$NPID" 2>/dev/null; wait "$NPID" 2>/dev/null
acked=$(cat "$T"/daemon*.acked | paste -sd+ | bc)
retx=$(grep -ho 'retransmits [0-9]*' "$T"/daemon*.err | awk '{ s += $2 } END { print s + 0 }')
stored=$($PY -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute("SELECT count(*) FROM frames").fetchone()[0], c.execute("SELECT count(*) FROM samples").fetchone()[0])' "$T/xcbench.db")
stop_daemon

$PY - "$S" "$R" "$T/null.res" "$T/daemon.res" "$acked" "$stored" "$dcpu" "$retx" "$TRIALS" <<'PY'
import os, statistics, sys
S, R = int(sys.argv[1]), int(sys.argv[2])
res = lambda f: [tuple(float(x) for x in l.split()) for l in open(f) if l.strip()]
nres, dres = res(sys.argv[3]), res(sys.argv[4])
acked, (sf, ss) = int(sys.argv[5]), map(int, sys.argv[6].split())
dcpu, retx, trials = float(sys.argv[7]), int(sys.argv[8]), int(sys.argv[9])
med = lambda rs: sorted(rs)[len(rs) // 2]          # the median trial by time
nsec, nfr, nsa = med(nres)
dsec, dfr, dsa = med(dres)
spread = lambda rs: "%.0f-%.0f" % (min(r[1] / r[0] for r in rs), max(r[1] / r[0] for r in rs))
print("### Ingest: %d senders x %d runs (%d frames, %d raw samples), loopback UDP; median of %d alternating trials" % (S, R, dfr, dsa, trials))
print()
print("| collector | seconds | frames/s | frames/s range | samples/s | ratio to senders' rate |")
print("|---|---:|---:|---:|---:|---:|")
print("| null-acker (ACK at once, store nothing) = senders' rate | %.2f | %.0f | %s | %.0f | 1.00 |" % (nsec, nfr / nsec, spread(nres), nsa / nsec))
print("| xcbenchd (ACK after SQLite commit) | %.2f | %.0f | %s | %.0f | %.2f |" % (dsec, dfr / dsec, spread(dres), dsa / dsec, (dfr / dsec) / (nfr / nsec)))
print()
tf, ts = sum(r[1] for r in dres), sum(r[2] for r in dres)
print("Every frame ACKed: %s (%d of %d sender processes); stored: %d frame rows = %s frames sent, %d sample rows = %s samples sent (all trials)." %
      ("yes" if acked == S * trials else "NO", acked, S * trials, sf, "all" if sf == tf else "NOT all (%d)" % tf, ss, "all" if ss == ts else "NOT all (%d)" % ts))
print()
print("xcbenchd used %.1f CPU-seconds in %.1f s (%.0f %% of one core, %d cores here, load average %s);"
      " senders retransmitted %d frames (ACKs slower than their 0.2 s timeout)." % (dcpu, sum(r[0] for r in dres), 100 * dcpu / sum(r[0] for r in dres), os.cpu_count(), "%.1f" % os.getloadavg()[0], retx))
PY
rm -rf "$T"
