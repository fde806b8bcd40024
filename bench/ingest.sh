#!/bin/bash
# bench/ingest.sh — how fast xcbenchd takes frames: S sender processes
# (xcb-gen, the payload's reliable-UDP sender) stream R runs each with
# histograms and raw samples; the clock stops when every frame is ACKed, and
# the daemon ACKs only after its commit, so this is the stored rate: on
# SQLite, and on PostgreSQL (a throwaway cluster on a Unix socket,
# tests/lib/pg.sh) where its server binaries are installed.
# The baseline is the same senders against bench/null-acker.c, which stores
# nothing and ACKs each sender every 64 frames or 1 ms, as a batching
# collector does (its ACKs cost the senders no more CPU than xcbenchd's):
# the rate the senders produce.
# The senders stand in for remote lab machines: by default (BENCH_PLACEMENT,
# lib.sh's bench_placement) they run on half of the CPUs and the collector
# under test (null-acker, xcbenchd, PostgreSQL's server) on the other half;
# on one shared set the null-acker, which uses almost no CPU, left the
# senders both cores and xcbenchd only what it did not use itself. The CPU
# each side used a frame is reported beside the rates. PostgreSQL runs set
# up as a central store (bench/lib.sh), and a second cluster on the
# server's defaults beside it.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/lib/pg.sh"
. "$ROOT/tests/lib/ledger.sh"
need "$XCBENCHD" "$XCB_GEN"
S=${BENCH_SENDERS:-4} R=${BENCH_RUNS:-2} REPS=${BENCH_REPS:-20} TRIALS=${BENCH_TRIALS:-3}
T=$(mktemp -d "$BOUT/ingest.XXXXXX")
bench_placement

# send PORT TAG: runs all senders, prints "seconds frames samples
# senders'-CPU-seconds". Each sender's token is new to every daemon: the
# send's number is in it (SENDS). With a random prefix alone, two trials
# against one daemon drew the same token for one sender about once in a
# hundred benches, and the second trial's frames were all duplicates of a
# complete run: ACKed at once, stored nothing, the rate overstated and the
# stored count short by that sender's frames.
SENDS=0
send() {
	local port=$1 tag=$2 t0 t1 c0 c1 i senders=()
	SENDS=$((SENDS + 1))
	c0=$(children_cpu_s)
	t0=$(now)
	for i in $(seq "$S"); do
		$SEND_WRAP "$XCB_GEN" --server 127.0.0.1:$port --runs "$R" --reps "$REPS" --samples \
			--token "$(printf '%x%02x%04x00' "$((RANDOM % 4096 + 4096))" "$i" "$SENDS")" >"$T/$tag.$i.out" 2>"$T/$tag.$i.err" &
		senders+=($!)
	done
	wait "${senders[@]}" 2>/dev/null
	t1=$(now)
	c1=$(children_cpu_s)
	grep -h -c 'all frames acknowledged' "$T/$tag".*.err | paste -sd+ | bc >"$T/$tag.acked"
	cat "$T/$tag".*.out | awk -v t0="$t0" -v t1="$t1" -v cpu="$(echo "$c1 - $c0" | bc)" \
		'{ for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "frames") f += kv[2]; if (kv[1] == "samples") s += kv[2] } }
		 END { printf "%.3f %d %d %s\n", t1 - t0, f, s, cpu }'
}

NA=$(null_acker) || exit 1
NPORT=$(free_port)
$COLL_WRAP "$NA" "$NPORT" 600 >"$T/null.out" 2>&1 &
NPID=$!
PIDS+=("$NPID")
sleep 0.3
XCBD_WRAP=$COLL_WRAP daemon "$T/xcbench.db" --open || exit 1
LPORT=$PORT LPID=$DPID LLOG=$DLOG
PPORT= FPORT=
# pg_use C|D: tests/lib/pg.sh's one cluster at a time: C the central
# store's (bench/lib.sh's PG_STORE), D a second one on the server's
# defaults, whose trials alternate with the others (what the settings are
# worth, measured in the same minutes).
pg_use() {
	if [ "$1" = C ]; then
		PG_DIR=$C_DIR PG_PORT=$C_PORT PGPASSFILE=$C_PASS PG_STORE_PAGES=$C_PAGES
	else
		PG_DIR=$D_DIR PG_PORT=$D_PORT PGPASSFILE=$D_PASS PG_STORE_PAGES=0
	fi
}
if pg_available && PG_WRAP=$COLL_WRAP pg_start; then
	C_DIR=$PG_DIR C_PORT=$PG_PORT C_PASS=$PGPASSFILE C_PAGES=$PG_STORE_PAGES C_SAYS=$PG_STORE_SAYS C_OPTS=$PG_STORE_OPTS
	D_DIR=
	trap 'pg_use C; pg_stop; [ -n "$D_DIR" ] && { pg_use D; pg_stop; }; bench_cleanup' EXIT
	pg_createdb ingest
	XCBD_WRAP=$COLL_WRAP daemon "$(pg_url ingest)" --open || exit 1
	PPORT=$PORT PPID_=$DPID PLOG=$DLOG PGPID=$(head -1 "$PG_DIR/data/postmaster.pid")
	if [ "${PG_STORE:-}" = central ] && PG_STORE=defaults PG_WRAP=$COLL_WRAP pg_start; then
		D_DIR=$PG_DIR D_PORT=$PG_PORT D_PASS=$PGPASSFILE
		pg_createdb ingest
		XCBD_WRAP=$COLL_WRAP daemon "$(pg_url ingest)" --open || exit 1
		FPORT=$PORT FPID=$DPID FLOG=$DLOG FPGPID=$(head -1 "$PG_DIR/data/postmaster.pid")
	fi
	pg_use C
	PG_STORE_SAYS=$C_SAYS PG_STORE_OPTS=$C_OPTS
fi
# settled LOG: after a send to the daemon logging to LOG, waits (up to a
# minute) until it has stored the pages of the runs just finished: its
# writer renders them when idle (host/src/runrender.c) and logs "stored run
# pages: 0 pending" when none is left. Without this that work ran on the
# collectors' core during the next trial, another collector's (measured:
# PostgreSQL's daemon and server 0.2 s of CPU inside a 0.47 s null-acker
# trial, SQLite's daemon 0.05 s inside PostgreSQL's). A daemon that logs
# nothing of it in 5 s (one built before: BENCH_XCBENCHD) is not waited for.
settled() {
	xcbd_rendered "$1" "$(wc -l <"$1")" 60
}
# pg_trial PORT TAG DAEMON_PID POSTMASTER_PID LOG: one send to a daemon on
# PostgreSQL, its row appended to $T/TAG.res; sets TRIAL_D and TRIAL_S,
# the CPU seconds the daemon and its server took.
pg_trial() {
	local c0 s0
	c0=$(cpu_s "$3") s0=$(tree_cpu_s "$4")
	send "$1" "$2$trial" >>"$T/$2.res"
	TRIAL_D=$(echo "$(cpu_s "$3") - $c0" | bc) TRIAL_S=$(echo "$(tree_cpu_s "$4") - $s0" | bc)
	settled "$5"
}
# Alternate the collectors, TRIALS times each, so a load spike on this
# shared machine hits all alike; the table reports medians.
: >"$T/null.res"; : >"$T/sqlite.res"; : >"$T/pg.res"
ncpu=0 lcpu=0 pcpu=0 scpu=0 fcpu=0 fscpu=0
: >"$T/dflt.res"
for trial in $(seq "$TRIALS"); do
	c0=$(cpu_s "$NPID")
	send "$NPORT" "null$trial" >>"$T/null.res"
	ncpu=$(echo "$ncpu + $(cpu_s "$NPID") - $c0" | bc)
	c0=$(cpu_s "$LPID")
	send "$LPORT" "sqlite$trial" >>"$T/sqlite.res"
	lcpu=$(echo "$lcpu + $(cpu_s "$LPID") - $c0" | bc)
	settled "$LLOG"
	if [ -n "$PPORT" ]; then
		pg_trial "$PPORT" pg "$PPID_" "$PGPID" "$PLOG"
		pcpu=$(echo "$pcpu + $TRIAL_D" | bc) scpu=$(echo "$scpu + $TRIAL_S" | bc)
	fi
	if [ -n "$FPORT" ]; then
		pg_trial "$FPORT" dflt "$FPID" "$FPGPID" "$FLOG"
		fcpu=$(echo "$fcpu + $TRIAL_D" | bc) fscpu=$(echo "$fscpu + $TRIAL_S" | bc)
	fi
done
# acked TAG / retx TAG: sender processes that saw every frame ACKed, frames retransmitted.
acked() { cat "$T"/"$1"*.acked 2>/dev/null | paste -sd+ | bc; }
retx() { grep -ho 'retransmits [0-9]*' "$T"/"$1"*.err 2>/dev/null | awk '{ s += $2 } END { print s + 0 }'; }
# pg_stored DB: frames in DB's ledger and samples in its chunks.
pg_stored() { echo "$(pg_psql "$1" "$XCB_LEDGER_COUNT") $(pg_psql "$1" 'SELECT COALESCE(sum(n), 0) FROM sample_chunks')"; }
lstored=$($PY -c 'import os,sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute(os.environ["XCB_LEDGER_COUNT"]).fetchone()[0], c.execute("SELECT COALESCE(sum(n), 0) FROM sample_chunks").fetchone()[0])' "$T/xcbench.db")
pstored="0 0"
[ -n "$PPORT" ] && pstored=$(pg_stored ingest)
kill "$LPID" ${PPID_:-} 2>/dev/null; wait "$LPID" ${PPID_:-} 2>/dev/null

DFLT=
if [ -n "$FPORT" ]; then
	pg_use D
	# acked, stored frames and samples, CPU, retransmitted, server CPU
	DFLT="$(acked dflt) $(pg_stored ingest) $fcpu $(retx dflt) $fscpu"
	pg_use C
	kill "$FPID" 2>/dev/null; wait "$FPID" 2>/dev/null
fi
kill "$NPID" 2>/dev/null; wait "$NPID" 2>/dev/null

DFLT=$DFLT $PY - "$S" "$R" "$TRIALS" "$T" "$PLACEMENT" "$ncpu" "$(acked sqlite)" "$lstored" "$lcpu" "$(retx sqlite)" \
	"${PPORT:+$(acked pg)}" "$pstored" "$pcpu" "$(retx pg)" "$scpu" <<'PY'
import os, sys
S, R, trials, T, placement = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
res = lambda f: [tuple(float(x) for x in l.split()) for l in open(os.path.join(T, f)) if l.strip()]
med = lambda rs: sorted(rs)[len(rs) // 2]          # the median trial by time
spread = lambda rs: "%.0f-%.0f" % (min(r[1] / r[0] for r in rs), max(r[1] / r[0] for r in rs))
us = lambda cpu, rs: 1e6 * cpu / sum(r[1] for r in rs)  # CPU microseconds a frame, all trials
nres = res("null.res")
nsec, nfr, nsa, _ = med(nres)
# name, trials' file, acked, stored, CPU, retransmitted, server CPU, the null-acker trials it alternated with
engines = [("SQLite (WAL)", "sqlite.res") + tuple(sys.argv[7:11]) + ("", nres)]
if sys.argv[11]:
    engines.append(("PostgreSQL 15 (Unix socket)", "pg.res") + tuple(sys.argv[11:16]) + (nres,))
dflt = os.environ.get("DFLT", "").split()
if dflt:
    engines.append(("PostgreSQL 15 (Unix socket), server defaults", "dflt.res", dflt[0], dflt[1] + " " + dflt[2], dflt[3], dflt[4], dflt[5], nres))
print("### Ingest: %d senders x %d runs (%d frames, %d raw samples), loopback UDP; median of %d alternating trials; placement %s" % (S, R, nfr, nsa, trials, placement))
print()
print("| collector | seconds | frames/s | frames/s range | samples/s | ratio to senders' rate | senders' CPU a frame (us) | collector's CPU a frame (us) |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
def null_row(label, rs, cpu):
    sec, fr, sa, _ = med(rs)
    print("| %s | %.2f | %.0f | %s | %.0f | 1.00 | %.1f | %.1f |" %
          (label, sec, fr / sec, spread(rs), sa / sec, us(sum(r[3] for r in rs), rs), us(cpu, rs)))
null_row("null-acker (ACKs every 64 frames or 1 ms, stores nothing) = senders' rate", nres, float(sys.argv[6]))
notes = []
for name, f, acked, stored, cpu, retx, server, base in engines:
    bsec, bfr, _, _ = med(base)
    dres = res(f)
    dsec, dfr, dsa, _ = med(dres)
    ccpu = "%.1f" % us(float(cpu), dres) + (" + %.1f server" % us(float(server), dres) if server else "")
    print("| xcbenchd on %s, ACK after commit | %.2f | %.0f | %s | %.0f | %.2f | %.1f | %s |" %
          (name, dsec, dfr / dsec, spread(dres), dsa / dsec, (dfr / dsec) / (bfr / bsec), us(sum(r[3] for r in dres), dres), ccpu))
    sf, ss = (int(x) for x in stored.split())
    tf, ts = sum(r[1] for r in dres), sum(r[2] for r in dres)
    wall, cpu = sum(r[0] for r in dres), float(cpu)
    notes.append("%s: every frame ACKed: %s (%d of %d sender processes); stored: %d frames in the ledger = %s frames sent, %d samples stored (sample_chunks) = %s samples sent (all trials); "
                 "xcbenchd used %.1f CPU-seconds in %.1f s (%.0f %% of one core)%s; senders retransmitted %s frames (ACKs slower than their retransmit timer)." %
                 (name, "yes" if int(acked or 0) == S * trials else "NO", int(acked or 0), S * trials, sf, "all" if sf == tf else "NOT all (%d)" % tf,
                  ss, "all" if ss == ts else "NOT all (%d)" % ts, cpu, wall, 100 * cpu / wall,
                  ", its PostgreSQL server %.1f (%.0f %%)" % (float(server), 100 * float(server) / wall) if server else "", retx))
if len(engines) == 1:
    print("| xcbenchd on PostgreSQL | - | - | - | - | (no server binaries here) | - | - |")
else:
    notes.insert(0, "PostgreSQL's server: %s; fsync on.%s" % (os.environ.get("PG_STORE_SAYS", "?"),
                 " The server-defaults row: a second cluster beside it with shared_buffers 128MB and no huge pages, its own daemon, its trials alternating with the others." if dflt else ""))
print()
for n in notes:
    print(n)
    print()
print("CPU a frame: CPU-seconds over frames, all trials; the senders' from their exit (cutime), the collector's from /proc (PostgreSQL's server: the postmaster and its processes).")
print()
print("%d cores here, load average %.1f at the end." % (os.cpu_count(), os.getloadavg()[0]))
PY
rm -rf "$T"
