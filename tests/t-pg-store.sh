#!/bin/bash
# timeout: 120
# A benchmark's PostgreSQL is set up as a central store is
# (tests/lib/pg_store.sh, PG_STORE=central): the server runs with the
# shared_buffers asked for, in huge pages where this user may reserve them
# (root: vm.nr_hugepages raised by what the server says it needs), and the
# pages are given back when the cluster stops, also when a start fails.
# PG_STORE=defaults states the defaults (huge pages off); a cluster without
# PG_STORE keeps them unstated, as every test's.
. "$(dirname "$0")/lib/tap.sh"
. "$ROOT/tests/lib/pg.sh"
pg_available || { notok "PostgreSQL server installed (make deps)"; exit 1; }
trap pg_stop EXIT
pages() { cat /proc/sys/vm/nr_hugepages; }
before=$(pages)

PG_STORE=central PG_SHARED_BUFFERS=24MB pg_start || { notok "a central-store cluster starts"; exit 1; }
ok "a central-store cluster starts ($PG_STORE_SAYS)"
check "it runs with the shared_buffers asked for" test "$(pg_psql postgres 'SHOW shared_buffers')" = 24MB
if [ "$(id -u)" = 0 ] && [ "$PG_STORE_PAGES" -gt 0 ]; then
	check "its shared memory is in huge pages (huge_pages=on, the pages in use)" \
		eval "[ \"\$(pg_psql postgres 'SHOW huge_pages')\" = on ] && \
		      [ \$(awk '/^HugePages_Free:/ { print \$2 }' /proc/meminfo) -lt \$(pages) ]"
	check "the words say so" eval 'case $PG_STORE_SAYS in *"in huge pages"*) true ;; *) false ;; esac'
else
	# Not root, or the kernel had no free blocks for them: the words say
	# what the server runs with.
	skip "its shared memory is in huge pages" "none reserved here: $PG_STORE_SAYS"
fi
pg_stop
check "the reserved pages are given back at stop ($before huge pages before)" test "$(pages)" = "$before"

# A start that fails after the reservation gives the pages back too (the
# server refuses an fsync setting it cannot parse; the reservation, sized
# without it, went through).
if PG_STORE=central PG_SHARED_BUFFERS=24MB PG_FSYNC=nonsense pg_start; then
	notok "a server with a bad setting does not start"
else
	ok "a server with a bad setting does not start"
fi
check "the pages of a failed start are given back" test "$(pages)" = "$before"
rm -rf "${PG_DIR:-/nonexistent}"
PG_DIR=

# PG_STORE=defaults: the defaults said out loud, huge pages off even where
# another cluster left reserved ones free (the bench's second cluster).
PG_STORE=defaults pg_start || { notok "a cluster on the stated defaults starts"; exit 1; }
check "PG_STORE=defaults: shared_buffers 128MB, huge_pages off, nothing reserved" \
	eval "[ \"\$(pg_psql postgres 'SHOW shared_buffers')\" = 128MB ] && \
	      [ \"\$(pg_psql postgres 'SHOW huge_pages')\" = off ] && [ \"\$(pages)\" = \"$before\" ]"
pg_stop

pg_start || { notok "a default cluster starts"; exit 1; }
check "a cluster without PG_STORE keeps the server's defaults" \
	eval "[ \"\$(pg_psql postgres 'SHOW shared_buffers')\" = 128MB ] && [ \"\$PG_STORE_SAYS\" = 'server defaults' ]"
check "and reserves nothing" test "$(pages)" = "$before"
check "the cluster stops" pg_stop
