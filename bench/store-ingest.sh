#!/bin/bash
# bench/store-ingest.sh — ingest on both storage engines side by side
# (issue 24): BENCH_STORE_MACHINES simulated machines (xcb-load, the
# payload's retransmit window; default 200, one 48-case run of 1 rep each)
# into a fresh daemon on SQLite, then on PostgreSQL (a throwaway cluster,
# tests/lib/pg.sh, on a Unix socket). Frames stored per second of the
# senders' wall time, the ratio of each engine to the senders' rate (the
# same xcb-load against bench/null-acker.c, which stores nothing and ACKs
# each machine as a batching collector does, every 64 frames or 1 ms) and of the two engines, in this one run.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/lib/pg.sh"
LOAD=$ROOT/host/build/xcb-load
need "$XCBENCHD" "$LOAD"
M=${BENCH_STORE_MACHINES:-200}
T=$(mktemp -d "$BOUT/store.XXXXXX")

# load PORT TOKEN: "frames seconds retransmit_ratio" of one xcb-load run.
load() {
	"$LOAD" --server "127.0.0.1:$1" --machines "$M" --reps 1 --token "$2" --give-up 120 >"$T/load.json" 2>/dev/null || return 1
	$PY -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["frames"], d["seconds"], d["retransmit_ratio"])' "$T/load.json"
}
# one DB TOKEN: the same, into a fresh daemon on DB.
one() {
	daemon "$1" --open || return 1
	load "$PORT" "$2" || return 1
	stop_daemon
}
f0=0 s0=0 x0=0
NA=$(null_acker) || exit 1
NPORT=$(free_port)
"$NA" "$NPORT" 600 >"$T/null.out" 2>&1 &
PIDS+=("$!")
sleep 0.3
# (the null-acker keeps 256 runs: a larger M has no baseline row)
[ "$M" -le 256 ] && read -r f0 s0 x0 < <(load "$NPORT" 5700000000000000)
kill "${PIDS[-1]}" 2>/dev/null
read -r f1 s1 x1 < <(one "$T/xcbench.db" 5701000000000000) || { echo "SQLite ingest failed"; exit 1; }
f2= s2= x2=
if pg_available && pg_start; then
	trap 'pg_stop; bench_cleanup' EXIT
	pg_createdb ingest
	read -r f2 s2 x2 < <(one "$(pg_url ingest)" 5702000000000000) || { echo "PostgreSQL ingest failed"; exit 1; }
	pg_stop
fi
$PY - "$M" "$f0" "$s0" "$x0" "$f1" "$s1" "$x1" "${f2:-0}" "${s2:-0}" "${x2:-0}" <<'PY'
import os, sys
m = int(sys.argv[1])
f0, s0, x0, f1, s1, x1, f2, s2, x2 = (float(x) for x in sys.argv[2:])
rate0 = f0 / s0 if f0 else 0
ratio = lambda f, s: "%.2f" % ((f / s) / rate0) if rate0 else "-"
print("### Ingest per storage engine: %d machines (xcb-load), one run each, every frame ACKed after its commit" % m)
print()
print("| collector | frames | seconds | frames/s | retransmit ratio | ratio to senders' rate | / SQLite |")
print("|---|---:|---:|---:|---:|---:|---:|")
if rate0:
    print("| null-acker (ACKs every 64 frames or 1 ms, stores nothing) = senders' rate | %d | %.2f | %.0f | %.3f | 1.00 | |" % (f0, s0, rate0, x0))
print("| SQLite (WAL) | %d | %.2f | %.0f | %.3f | %s | 1.00x |" % (f1, s1, f1 / s1, x1, ratio(f1, s1)))
if f2:
    print("| PostgreSQL 15 (Unix socket) | %d | %.2f | %.0f | %.3f | %s | %.2fx |" % (f2, s2, f2 / s2, x2, ratio(f2, s2), (f2 / s2) / (f1 / s1)))
else:
    print("| PostgreSQL | - | - | - | - | - | (no server binaries here) |")
print()
if f2:
    print("PostgreSQL's server: %s; fsync on." % os.environ.get("PG_STORE_SAYS", "?"))
    print()
print("%d cores here, load average %.1f at the end." % (os.cpu_count(), os.getloadavg()[0]))
PY
rm -rf "$T"
