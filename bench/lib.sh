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

# A bench's PostgreSQL syncs its commits to disk, as a deployed store does
# (tests/lib/pg.sh turns fsync off for the tests' throwaway clusters).
export PG_FSYNC=on
# ... and is set up as a central store is (README, "A central store"):
# shared_buffers that hold the runs it serves, in huge pages
# (tests/lib/pg_store.sh; the pages reserved for the run and given back).
# BENCH_PG_STORE=defaults measures the server's defaults instead.
export PG_STORE=${BENCH_PG_STORE:-central}

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
# children_cpu_s: CPU seconds of the script's children it has waited for
# (cutime + cstime of $$): the senders' once they have exited, when the
# script's own shell started and waited for them (not a subshell, whose
# children count in its own figure until it exits).
children_cpu_s() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f\n", ($16 + $17) / hz }' "/proc/$$/stat"; }
# tree_cpu_s PID: CPU seconds of PID, of its exited children and of the live
# ones (a postmaster and its backends: the PostgreSQL server's CPU).
tree_cpu_s() {
	local k kids
	kids=$(ps -o pid= --ppid "$1")
	# shellcheck disable=SC2086  # the kids' pids are words on purpose
	for k in "$1" $kids; do
		[ -r "/proc/$k/stat" ] && cat "/proc/$k/stat"
	done | awk -v hz="$(getconf CLK_TCK)" -v top="$1" \
		'{ s += $14 + $15; if ($1 == top) s += $16 + $17 } END { printf "%.2f\n", s / hz }'
}

# cpu_list: the CPUs this shell may run on, one a word ("0-1,4" -> 0 1 4).
cpu_list() {
	local r a b
	for r in $(awk '/^Cpus_allowed_list:/ { gsub(",", " ", $2); print $2 }' /proc/self/status); do
		a=${r%-*} b=${r#*-}
		seq "$a" "$b"
	done | paste -sd' '
}

# bench_placement: where the senders (stand-ins for remote lab machines) and
# the collector under test run. BENCH_PLACEMENT=split (the default): the
# senders on the first half of this shell's CPUs, the collector (and its
# database server) on the other half, as two machines would be; on one
# shared set the senders get whatever the collector leaves, and the ratio
# measures how the cores are shared. shared: anywhere, as before. Split
# needs two CPUs and taskset (util-linux): else shared, said in PLACEMENT.
# Sets PLACEMENT (for the table's heading) and SEND_WRAP / COLL_WRAP (a
# taskset prefix for a command line, or nothing).
bench_placement() {
	local want=${BENCH_PLACEMENT:-split} cpus n h
	SEND_WRAP= COLL_WRAP=
	case $want in split|shared) ;; *) echo "BENCH_PLACEMENT=$want: split or shared" >&2; exit 2 ;; esac
	read -r -a cpus <<<"$(cpu_list)"
	n=${#cpus[@]}
	if [ "$want" = shared ]; then
		PLACEMENT="shared (senders and collector on CPUs $(echo "${cpus[*]}" | tr ' ' ,))"
	elif [ "$n" -lt 2 ]; then
		PLACEMENT="shared (split asked, but only $n CPU here)"
	elif ! command -v taskset >/dev/null; then
		PLACEMENT="shared (split asked, but no taskset here: util-linux)"
	else
		h=$((n / 2))
		SEND_CPUS=$(echo "${cpus[*]:0:h}" | tr ' ' ,)
		COLL_CPUS=$(echo "${cpus[*]:h}" | tr ' ' ,)
		SEND_WRAP="taskset -c $SEND_CPUS" COLL_WRAP="taskset -c $COLL_CPUS"
		PLACEMENT="split (senders on CPU $SEND_CPUS, collector and its database on CPU $COLL_CPUS)"
	fi
}

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
