#!/bin/bash
# bench/store-ingest.sh — ingest on both storage engines side by side
# (issue 24): BENCH_STORE_MACHINES simulated machines (xcb-load, the
# payload's retransmit window; default 200, one 48-case run of 1 rep each)
# into a fresh daemon on SQLite, then on PostgreSQL (a throwaway cluster,
# tests/lib/pg.sh, on a Unix socket). Frames stored per second of the
# senders' wall time, and the ratio of the two engines in this one run.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/lib/pg.sh"
LOAD=$ROOT/host/build/xcb-load
need "$XCBENCHD" "$LOAD"
M=${BENCH_STORE_MACHINES:-200}
T=$(mktemp -d "$BOUT/store.XXXXXX")

# one DB TOKEN: "frames seconds retransmit_ratio" of one xcb-load run.
one() {
	daemon "$1" --open || return 1
	"$LOAD" --server "127.0.0.1:$PORT" --machines "$M" --reps 1 --token "$2" --give-up 120 >"$T/load.json" 2>/dev/null || return 1
	stop_daemon
	$PY -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["frames"], d["seconds"], d["retransmit_ratio"])' "$T/load.json"
}
read -r f1 s1 x1 < <(one "$T/xcbench.db" 5701000000000000) || { echo "SQLite ingest failed"; exit 1; }
f2= s2= x2=
if pg_available && pg_start; then
	trap 'pg_stop; bench_cleanup' EXIT
	pg_createdb ingest
	read -r f2 s2 x2 < <(one "$(pg_url ingest)" 5702000000000000) || { echo "PostgreSQL ingest failed"; exit 1; }
	pg_stop
fi
$PY - "$M" "$f1" "$s1" "$x1" "${f2:-0}" "${s2:-0}" "${x2:-0}" <<'PY'
import sys
m = int(sys.argv[1])
f1, s1, x1, f2, s2, x2 = (float(x) for x in sys.argv[2:])
print("### Ingest per storage engine: %d machines (xcb-load), one run each, every frame ACKed after its commit" % m)
print()
print("| engine | frames | seconds | frames/s | retransmit ratio | / SQLite |")
print("|---|---:|---:|---:|---:|---:|")
print("| SQLite (WAL) | %d | %.2f | %.0f | %.3f | 1.00x |" % (f1, s1, f1 / s1, x1))
if f2:
    print("| PostgreSQL 15 (Unix socket) | %d | %.2f | %.0f | %.3f | %.2fx |" % (f2, s2, f2 / s2, x2, (f2 / s2) / (f1 / s1)))
else:
    print("| PostgreSQL | - | - | - | - | (no server binaries here) |")
PY
rm -rf "$T"
