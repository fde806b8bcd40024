#!/bin/bash
# bench/ingest.sh — how fast xcbenchd takes frames: S sender processes
# (xcb-gen, the payload's reliable-UDP sender) stream R runs each with
# histograms and raw samples; the clock stops when every frame is ACKed, and
# the daemon ACKs only after the SQLite commit, so this is the stored rate.
# The baseline is the same senders against bench/null-acker.c, which ACKs
# each valid frame at once and stores nothing: the rate the senders produce.
. "$(dirname "$0")/lib.sh"
need "$XCBENCHD" "$XCB_GEN"
S=${BENCH_SENDERS:-4} R=${BENCH_RUNS:-2} REPS=${BENCH_REPS:-20}
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
"$NA" "$NPORT" 300 >"$T/null.out" 2>&1 &
NPID=$!
PIDS+=("$NPID")
sleep 0.3
read -r nsec nfr nsa < <(send "$NPORT" null)
kill "$NPID" 2>/dev/null; wait "$NPID" 2>/dev/null

daemon "$T/xcbench.db" --open || exit 1
c0=$(cpu_s "$DPID")
read -r dsec dfr dsa < <(send "$PORT" daemon)
dcpu=$(echo "$(cpu_s "$DPID") - $c0" | bc)
retx=$(grep -ho 'retransmits [0-9]*' "$T"/daemon.*.err | awk '{ s += $2 } END { print s + 0 }')
acked=$(cat "$T/daemon.acked")
stored=$($PY -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute("SELECT count(*) FROM frames").fetchone()[0], c.execute("SELECT count(*) FROM samples").fetchone()[0])' "$T/xcbench.db")
stop_daemon

$PY - "$S" "$R" "$nsec" "$nfr" "$nsa" "$dsec" "$dfr" "$dsa" "$acked" "$stored" "$dcpu" "$retx" <<'PY'
import os, sys
dcpu, retx = float(sys.argv[11]), int(sys.argv[12])
S, R = int(sys.argv[1]), int(sys.argv[2])
nsec, nfr, nsa, dsec, dfr, dsa = float(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6]), int(sys.argv[7]), int(sys.argv[8])
acked, (sf, ss) = int(sys.argv[9]), map(int, sys.argv[10].split())
print("### Ingest: %d senders x %d runs (%d frames, %d raw samples), loopback UDP" % (S, R, dfr, dsa))
print()
print("| collector | seconds | frames/s | samples/s | ratio to senders' rate |")
print("|---|---:|---:|---:|---:|")
print("| null-acker (ACK at once, store nothing) = senders' rate | %.2f | %.0f | %.0f | 1.00 |" % (nsec, nfr / nsec, nsa / nsec))
print("| xcbenchd (ACK after SQLite commit) | %.2f | %.0f | %.0f | %.2f |" % (dsec, dfr / dsec, dsa / dsec, (dfr / dsec) / (nfr / nsec)))
print()
print("Every frame ACKed: %s (%d of %d senders); stored: %d frames rows = %s frames sent, %d sample rows = %s samples sent." %
      ("yes" if acked == S else "NO", acked, S, sf, "all" if sf == dfr else "NOT all (%d)" % dfr, ss, "all" if ss == dsa else "NOT all (%d)" % dsa))
print()
print("xcbenchd used %.1f CPU-seconds in %.1f s (%.0f %% of one core, %d cores here, load average %s);"
      " senders retransmitted %d frames (ACKs slower than their 0.2 s timeout)." % (dcpu, dsec, 100 * dcpu / dsec, os.cpu_count(), os.getloadavg()[0], retx))
PY
rm -rf "$T"
