# tests/lib/pg.sh — a throwaway PostgreSQL cluster for a test: initdb in a
# temporary directory, started with pg_ctl as an unprivileged user (the
# `postgres` account when run as root), listening on a Unix socket only
# (listen_addresses empty) whose port number comes from free_port, with
# scram-sha-256 authentication and the password in a libpq password file
# (PGPASSFILE) — the way a daemon is meant to get it. Defines functions
# only, like tests/lib/daemon.sh (which it needs, for free_port).
#
#   pg_start            the cluster; sets PG_DIR, PG_PORT, PG_BIN, PGPASSFILE
#   pg_url DBNAME       a postgresql:// URL for DBNAME (no password in it)
#   pg_createdb DBNAME  a new database, owned by the test user
#   pg_psql DBNAME SQL  runs SQL, prints the rows unaligned (-At)
#   pg_kill9            SIGKILL to the postmaster (no shutdown checkpoint)
#   pg_restart          starts it again on the same directory and port
#                       (it and pg_start under $PG_WRAP, if set; fsync
#                       $PG_FSYNC, off unless set)
#   pg_stop             stops it and removes everything
#   (PG_STORE=central: pg_start sets it up as a central store is, huge
#   pages and all: tests/lib/pg_store.sh)
#   pg_available        0 if PostgreSQL's server binaries are installed
#   pg_test_cluster [CLEANUP]  how a test on PostgreSQL starts (below)
#   pg_test_db NAME [CLEANUP]  the same, with database NAME (below)
#   pg_copy_test NAME   how a test of xcb-copy starts (below)
#   pg_copy_empty_source  an empty SQLite source and a cluster (below)
#   pg_daemon_start_fails WHAT URL  xcbenchd on a --db it should refuse (below)

. "$(dirname "${BASH_SOURCE[0]}")/pg_store.sh"

# Every cluster's connection slots: xcb-load's kill test holds many
# daemons' and readers' connections at once. pg_store_prepare sizes the
# shared memory with them too.
PG_CONNS_OPT="-c max_connections=200"

pg_bindir() {
	local d
	for d in /usr/lib/postgresql/*/bin; do
		[ -x "$d/initdb" ] && echo "$d"
	done | sort -V | tail -1
}

pg_available() {
	[ -n "$(pg_bindir)" ]
}

# Runs a command as the cluster's owner.
pg_as() {
	if [ "$(id -u)" = 0 ]; then
		runuser -u postgres -- "$@"
	else
		"$@"
	fi
}

pg_start() {
	local pw
	PG_BIN=$(pg_bindir)
	[ -n "$PG_BIN" ] || return 1
	PG_DIR=$(mktemp -d /tmp/xcb-pg.XXXXXX) || return 1
	chmod 755 "$PG_DIR"
	PG_PORT=$(free_port)
	pw=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
	printf '%s\n' "$pw" >"$PG_DIR/pw"
	[ "$(id -u)" = 0 ] && chown postgres "$PG_DIR" "$PG_DIR/pw"
	pg_as "$PG_BIN/initdb" -D "$PG_DIR/data" -U xcb --pwfile="$PG_DIR/pw" \
		--auth=scram-sha-256 -E UTF8 --locale=C >"$PG_DIR/initdb.log" 2>&1 || return 1
	rm -f "$PG_DIR/pw"
	pg_store_prepare
	# The password file is the client's (root's or the test user's), 0600
	# as libpq requires; any socket directory and database, user xcb.
	printf '*:%s:*:xcb:%s\n' "$PG_PORT" "$pw" >"$PG_DIR/pgpass"
	chmod 600 "$PG_DIR/pgpass"
	export PGPASSFILE="$PG_DIR/pgpass"
	pg_restart || { pg_store_release; return 1; }
}

# PG_WRAP: words put before pg_ctl (a benchmark's "taskset -c 1": the
# postmaster, and so every backend, runs where it says).
# PG_FSYNC: the server's fsync setting, off unless set (bench/lib.sh sets
# on: a figure of the store is one of the store as deployed). A test's
# cluster lives for a minute in /tmp and is never meant to survive the
# machine; its COMMITs still write the WAL to the kernel before they
# return, so a SIGKILLed server (t-pg-kill9) recovers every committed
# transaction as with fsync on, and an ACK sent before its COMMIT is still
# caught. With fsync on, each commit waited ~3 ms for the disk on the CI
# machine, which bounded every PostgreSQL test's ingest to ~4,000 frames/s.
# PG_STORE_OPTS: pg_store_prepare's settings (none unless PG_STORE=central).
pg_restart() {
	# shellcheck disable=SC2086  # PG_WRAP is a list of words on purpose
	pg_as ${PG_WRAP:-} "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 \
		-o "-k $PG_DIR -p $PG_PORT -c listen_addresses= $PG_CONNS_OPT -c fsync=${PG_FSYNC:-off} $PG_STORE_OPTS" \
		start >/dev/null 2>&1
}

pg_url() {
	echo "postgresql://xcb@/$1?host=$PG_DIR&port=$PG_PORT"
}

pg_psql() {
	"$PG_BIN/psql" -X -q -At -v ON_ERROR_STOP=1 "$(pg_url "$1")" -c "$2"
}

pg_createdb() {
	pg_psql postgres "CREATE DATABASE \"$1\""
}

pg_kill9() {
	local pid kids k
	pid=$(head -1 "$PG_DIR/data/postmaster.pid" 2>/dev/null)
	[ -n "$pid" ] || return 1
	kids=$(ps -o pid= --ppid "$pid")
	kill -9 "$pid"
	# Its backends exit when they see the postmaster gone; the restart
	# refuses while they still hold the old shared memory.
	for k in $pid $kids; do
		while kill -0 "$k" 2>/dev/null; do sleep 0.05; done
	done
}

pg_stop() {
	[ -n "${PG_DIR:-}" ] || return 0
	pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null 2>&1
	pg_store_release
	rm -rf "$PG_DIR"
	PG_DIR=
}

# pg_test_cluster [CLEANUP]: how a test on PostgreSQL starts (after
# tap.sh): a throwaway cluster, stopped at exit after CLEANUP (the test's
# own, e.g. cleanup_daemon: one EXIT trap holds both); without a server or
# a cluster, one failed TAP line (the server's logs as comments) and the
# script ends.
pg_test_cluster() {
	pg_available || { notok "PostgreSQL server installed (make deps)"; exit 1; }
	# shellcheck disable=SC2064  # CLEANUP is the caller's, fixed now
	trap "${1:+$1; }pg_stop" EXIT
	pg_start || {
		notok "a PostgreSQL cluster starts"
		[ -n "${PG_DIR:-}" ] && sed 's/^/# /' "$PG_DIR"/*.log 2>/dev/null
		exit 1
	}
}

# pg_test_db NAME [CLEANUP]: pg_test_cluster, and in it database NAME
# (pg_url NAME).
pg_test_db() {
	pg_test_cluster "${2:-}"
	check "the $1 database is created" pg_createdb "$1"
}

# pg_copy_test NAME: how a test of xcb-copy starts (after tap.sh and
# test-daemon.sh): one SKIP line for NAME without the host build, COPY set
# to xcb-copy, a failed TAP line and the end without it or a server; at
# exit, the daemon and the cluster are stopped.
pg_copy_test() {
	need_host_build "$1"
	COPY=$ROOT/host/build/xcb-copy
	[ -x "$COPY" ] || { notok "xcb-copy built (make -C host)"; exit 1; }
	pg_available || { notok "PostgreSQL server installed (make deps)"; exit 1; }
	trap 'cleanup_daemon; pg_stop' EXIT
}

# pg_copy_empty_source: SQ, a migrated SQLite database without runs (a
# daemon started on it and stopped), for xcb-copy's --from; then a cluster
# with database central (pg_test_db; the daemons stopped at exit too).
pg_copy_empty_source() {
	start_daemon --open || { notok "a SQLite daemon starts"; exit 1; }
	check "SIGTERM: the SQLite daemon stops" stop_daemon
	SQ=$DB
	pg_test_db central cleanup_daemon
}

# pg_daemon_start_fails WHAT URL: starts xcbenchd (lab A, --open, a free
# port) on --db URL, expecting it to refuse: its output in $TMP/d.out, its
# exit status in rc, and one diagnostic line (WHAT names the case).
pg_daemon_start_fails() {
	local p
	p=$(free_port)
	timeout 30 "$XCBENCHD" --listen "127.0.0.1:$p" --udp "127.0.0.1:$p" --open --lab A \
		--db "$2" >"$TMP/d.out" 2>&1 </dev/null
	rc=$?
	diag "xcbenchd, $1: exit $rc: $(head -c 400 "$TMP/d.out")"
}
