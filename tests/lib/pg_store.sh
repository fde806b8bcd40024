# tests/lib/pg_store.sh — a throwaway cluster set up as a central store is
# (README, "A central store"), for the benchmarks: shared_buffers that hold
# the runs being read, in huge pages. Sourced by tests/lib/pg.sh; defines
# functions only. The tests' clusters keep the server's defaults.
#
# Why huge pages: a new backend maps the shared buffers page by page as it
# first touches them, and on this kind of VM a page fault is dear: ~32k
# faults (4 KiB pages) for a first 1M-row CSV export's backend, ~9 % of its
# samples, where 2 MiB pages make it ~64 (bench/LIMITS.md, round 18). Why
# larger shared_buffers: the 128 MB default does not hold a 1M-row run's
# ~300 MB of heap, so every export reads it again from the kernel's cache.
#
#   pg_store_prepare    after initdb, when PG_STORE=central: reserves the
#                       huge pages the server will ask for (vm.nr_hugepages,
#                       root only) and sets PG_STORE_OPTS, the server's
#                       options, and PG_STORE_SAYS, what they are in words
#   pg_store_release    after the server stopped: gives the pages back
#
# PG_STORE=defaults: the server's defaults said out loud (huge_pages=off);
# unset: nothing passed, as every test's cluster.
#
# PG_SHARED_BUFFERS: shared_buffers of a central-store cluster (512MB: the
# benchmarks' largest database, ~300 MB, fits).

PG_STORE_OPTS= PG_STORE_SAYS="server defaults" PG_STORE_PAGES=0
# The server's defaults, stated: huge_pages=try, the default, would take
# pages that a central-store cluster of the same bench reserved and left
# free (a second cluster beside it, or the same one restarted).
PG_STORE_DEFAULTS="-c huge_pages=off"
export PG_STORE_SAYS # for a bench's report (bench/*.sh print it)

# The huge pages free now (0 when the kernel has none configured).
pg_store_free_pages() {
	awk '/^HugePages_Free:/ { print $2; f = 1 } END { if (!f) print 0 }' /proc/meminfo
}

pg_store_prepare() {
	local sb=${PG_SHARED_BUFFERS:-512MB} need
	PG_STORE_OPTS= PG_STORE_SAYS="server defaults" PG_STORE_PAGES=0
	if [ "${PG_STORE:-}" = defaults ]; then
		PG_STORE_OPTS=$PG_STORE_DEFAULTS
		PG_STORE_SAYS="server defaults (shared_buffers 128MB, no huge pages)"
		return 0
	fi
	[ "${PG_STORE:-}" = central ] || return 0
	PG_STORE_OPTS="-c shared_buffers=$sb -c huge_pages=off"
	PG_STORE_SAYS="shared_buffers $sb, no huge pages"
	# The server's own count for these settings (a runtime-computed
	# parameter: postgres -C with the server stopped), not an estimate.
	# shellcheck disable=SC2086  # PG_CONNS_OPT is two words on purpose
	need=$(pg_as "$PG_BIN/postgres" -D "$PG_DIR/data" -c shared_buffers="$sb" \
		$PG_CONNS_OPT -C shared_memory_size_in_huge_pages 2>/dev/null)
	case $need in '' | *[!0-9]*)
		PG_STORE_SAYS="$PG_STORE_SAYS (the server did not say how many it needs)"
		return 0 ;;
	esac
	if [ "$(id -u)" != 0 ]; then
		PG_STORE_SAYS="$PG_STORE_SAYS (huge pages need root to reserve)"
		return 0
	fi
	# Its own pages, added to what the kernel holds, whatever is free now:
	# pages free now may be another cluster's, about to start (a test
	# beside a bench). The read and write of the count under a lock, for
	# the same reason.
	PG_STORE_PAGES=$(pg_store_add "$need")
	if [ "$(pg_store_free_pages)" -lt "$need" ]; then
		# The kernel found fewer free blocks of that size than asked.
		pg_store_release
		PG_STORE_SAYS="$PG_STORE_SAYS (the kernel could not reserve $need huge pages)"
		return 0
	fi
	PG_STORE_OPTS="-c shared_buffers=$sb -c huge_pages=on"
	PG_STORE_SAYS="shared_buffers $sb in huge pages ($need of $(awk '/^Hugepagesize:/ { print $2 / 1024 }' /proc/meminfo) MiB)"
}

# pg_store_add N: vm.nr_hugepages plus N (N < 0: less, not below 0);
# prints how many the kernel added (it may find fewer free blocks of that
# size than asked), which is what to give back.
pg_store_add() {
	(
		flock 9
		t0=$(cat /proc/sys/vm/nr_hugepages)
		t=$((t0 + $1))
		echo $((t < 0 ? 0 : t)) >/proc/sys/vm/nr_hugepages
		echo $(($(cat /proc/sys/vm/nr_hugepages) - t0))
	) 9>/tmp/xcb-hugepages.lock 2>/dev/null
}

pg_store_release() {
	[ "${PG_STORE_PAGES:-0}" -gt 0 ] || return 0
	pg_store_add "-$PG_STORE_PAGES" >/dev/null
	PG_STORE_PAGES=0
}
