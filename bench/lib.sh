# bench/lib.sh — shared by bench/*.sh (sourced): paths, a throw-away daemon,
# the null-acker baseline, and cleanup of every process a script starts.
# Reuses tests/lib/ for free_port and the QEMU helpers.
. "$(dirname "${BASH_SOURCE[0]}")/../tests/lib/tap.sh"
set +u
BENCH=$ROOT/bench
BOUT=$ROOT/tests/out/bench   # ignored by git, like every test output
XCB_GEN=$ROOT/host/build/xcb-gen
# BENCH_XCBENCHD: another daemon binary to measure (say, main's build as
# "before", back to back with this tree's in one sitting).
XCBENCHD=${BENCH_XCBENCHD:-$XCBENCHD}
mkdir -p "$BOUT"
PIDS=()
bench_cleanup() {
	local p
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
}
trap bench_cleanup EXIT

# Python without a version-manager shim in front (seconds per call under load).
PY=python3
for p in /usr/bin/python3 /usr/local/bin/python3; do [ -x "$p" ] && { PY=$p; break; }; done

need() { # FILE... : exit with a one-line table row when a build output is missing
	local f
	for f in "$@"; do
		[ -e "$f" ] || { echo "(skipped: $f not built — run make first)"; exit 0; }
	done
}

# null_acker: builds bench/out/null-acker (the ingest baseline) if needed.
null_acker() {
	local b=$BOUT/null-acker
	if [ ! -x "$b" ] || [ "$BENCH/null-acker.c" -nt "$b" ]; then
		gcc -O2 -Wall -Wextra -Werror -std=gnu11 -I"$ROOT/proto" -o "$b" \
			"$BENCH/null-acker.c" "$ROOT/proto/xcb_proto.c" || return 1
	fi
	echo "$b"
}

# daemon DB [args]: xcbenchd on a fresh port; sets PORT URL DPID, and DLOG
# (its log) with DLOG_AT (the log's lines before this daemon's).
daemon() {
	local db=$1 log=$1.log; shift
	# A PostgreSQL URL is no file name: its log goes beside the others.
	case $db in postgres*) log=$BOUT/daemon-pg.$$.log ;; esac
	DLOG=$log
	DLOG_AT=$(cat "$log" 2>/dev/null | wc -l)
	PORT=$(free_port)
	URL=http://127.0.0.1:$PORT
	xcbd_start "$log" "$PORT" --db "$db" "$@"
	local rc=$?
	DPID=$XCBD_PID
	PIDS+=("$DPID")
	[ "$rc" = 0 ] && return 0
	echo "xcbenchd did not start: $(tail -3 "$log")" >&2
	return 1
}
# daemon_rendered DB [args]: daemon, then waits until it has stored the
# pages of all finished runs (host/src/runrender.c logs "stored run pages:
# 0 pending" when none is left), so that a run's first request is measured
# as a finished run's is once the daemon has been idle. A daemon that says
# nothing of stored pages in 5 s (one built before them: BENCH_XCBENCHD) is
# measured at once. 1 if it does not start or is not done in 30 minutes.
daemon_rendered() {
	daemon "$@" || return 1
	xcbd_rendered "$DLOG" "$DLOG_AT" 1800
	[ $? != 1 ] && return 0
	echo "xcbenchd did not store the run pages in 30 minutes" >&2
	return 1
}
stop_daemon() { kill "$DPID" 2>/dev/null; wait "$DPID" 2>/dev/null; }

now() { date +%s.%N; }

# cpu_s PID: CPU seconds (user + system) the process has used so far.
cpu_s() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f\n", ($14 + $15) / hz }' "/proc/$1/stat"; }

# pg_seed SEED_DB: a throwaway PostgreSQL cluster (tests/lib/pg.sh) with
# database "bench" holding SEED_DB's runs (xcb-copy, lab "bench"); sets
# PGDB (its URL) and stops the cluster on exit. 1 (and no cluster) when
# this machine has no server binaries or no xcb-copy: the script then
# prints its SQLite rows alone.
pg_seed() {
	. "$ROOT/tests/lib/pg.sh"
	pg_available && [ -x "$ROOT/host/build/xcb-copy" ] && pg_start || return 1
	trap 'pg_stop; bench_cleanup' EXIT
	pg_createdb bench
	PGDB=$(pg_url bench)
	"$ROOT/host/build/xcb-copy" --quiet --from "$1" --db "$PGDB" --lab bench >/dev/null || exit 1
}
# pg_cols TABLE EXCLUDED: TABLE's columns on the server, in order, but the
# quoted EXCLUDED ones ("'id', 'token'"): bench SQL lists the schema's
# columns, never its own list.
pg_cols() { pg_psql bench "SELECT string_agg(column_name, ', ' ORDER BY ordinal_position) FROM information_schema.columns WHERE table_schema = 'public' AND table_name = '$1' AND column_name NOT IN ($2)"; }
