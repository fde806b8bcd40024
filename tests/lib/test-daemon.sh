# tests/lib/test-daemon.sh — helpers shared by tests/t-daemon-*.sh and tests/t-ingest-*.sh (sourced
# after tap.sh): start a real xcbenchd on loopback with a temp database, and
# stop it on exit.
XCB_GEN=$ROOT/host/build/xcb-gen
. "$ROOT/tests/lib/ledger.sh"

# need_host_build: skip the whole script (one TAP line) if host/ is not built.
need_host_build() {
	if [ ! -x "$XCBENCHD" ] || [ ! -x "$XCB_GEN" ] || [ ! -x "$XCBENCH" ]; then
		skip "$1" "host/ not built (make -C host)"
		exit 0
	fi
}

# daemon_test NAME: how a test that runs daemons starts: one SKIP line for
# NAME (and the end) without the host build; at exit, the daemon is killed
# and TMP removed (cleanup_daemon).
daemon_test() {
	need_host_build "$1"
	trap cleanup_daemon EXIT
}

# open_daemon_test NAME: daemon_test NAME, then an --open daemon started
# (without one, a failed TAP line and the end); T its directory and X the
# CLI against it: how a test of hand-sent runs starts (t-compare-*).
open_daemon_test() {
	daemon_test "$1"
	start_daemon --open || { notok "daemon starts"; exit 1; }
	T=$TMP
	X=("$XCBENCH" --server "$URL")
}

# frames_py ARGS...: python3 running the program on its stdin with
# tests/web (frames.py: hand-made runs) on its path, the daemon's UDP
# address its first argument and ARGS after it.
frames_py() {
	PYTHONPATH=$ROOT/tests/web:$PYTHONPATH python3 - "127.0.0.1:$PORT" "$@"
}

# The hostile peer (tests/hostile.py): "${HOSTILE[@]}" SUBCOMMAND ARGS...
HOSTILE=(python3 "$ROOT/tests/hostile.py")

# start_daemon [xcbenchd options...]: sets PORT, URL, TMP, DB, DPID, and
# DLOG_AT (the lines of $TMP/daemon.log before this daemon's).
start_daemon() {
	TMP=${TMP:-$(mktemp -d "$OUTDIR/daemon.XXXXXX")}
	DB=${DB:-$TMP/xcbench.db}
	PORT=$(free_port)
	URL=http://127.0.0.1:$PORT
	DLOG_AT=$(cat "$TMP/daemon.log" 2>/dev/null | wc -l)
	xcbd_start "$TMP/daemon.log" "$PORT" --db "$DB" "$@"
	local rc=$?
	DPID=$XCBD_PID
	[ "$rc" = 0 ] && return 0
	diag "xcbenchd did not come up; log:"
	sed 's/^/# /' "$TMP/daemon.log"
	return 1
}

# wait_rendered NAME: one TAP line: the daemon start_daemon started has
# stored every finished run's page (xcbd_rendered), so that its idle writer
# changes nothing from now on by itself.
wait_rendered() {
	check "$1" xcbd_rendered "$TMP/daemon.log" "$DLOG_AT"
}

# admin_daemon TOKEN [xcbenchd options...]: start_daemon with TOKEN as its
# admin token (--token-file TMP/token); ADMIN holds the curl arguments of an
# admin write. A daemon that does not start ends the script (a failure).
admin_daemon() {
	local tok=$1
	shift
	TMP=${TMP:-$(mktemp -d "$OUTDIR/daemon.XXXXXX")}
	echo "$tok" >"$TMP/token"
	ADMIN=(-H "Authorization: Bearer $tok" -H 'Content-Type: application/json')
	start_daemon --token-file "$TMP/token" "$@" || { notok "daemon starts"; exit 1; }
}

# stop_daemon: SIGTERM and wait (returns xcbenchd's exit status).
stop_daemon() {
	local rc=0
	if [ -n "${DPID:-}" ] && kill -0 "$DPID" 2>/dev/null; then
		kill -TERM "$DPID"
		wait "$DPID" || rc=$?
	fi
	DPID=
	return $rc
}

cleanup_daemon() {
	if [ -n "${DPID:-}" ]; then kill -KILL "$DPID" 2>/dev/null; wait "$DPID" 2>/dev/null; fi
	[ -n "${TMP:-}" ] && [ -z "${KEEP:-}" ] && rm -rf "$TMP"
	return 0
}

# boot_token FILE: the run token of a /boot.ipxe script (its two kernel
# lines, BIOS and UEFI, carry the same one).
boot_token() {
	sed -n 's/.* run=\([0-9a-f]*\) .*/\1/p' "$1" | head -1
}

# jq-like checks with Python: pyjson URL 'python expression over d' → prints result.
# With XCB_ADMIN set (the admin token of a --token-file daemon) it asks as
# admin: run tokens and the ?token= filter are for admins only.
pyjson() {
	curl -s ${XCB_ADMIN:+-H "Authorization: Bearer $XCB_ADMIN"} "$1" |
		python3 -c "import json,sys; d=json.load(sys.stdin); print($2)"
}

# dbq FILE SQL: rows of a read-only query on a database, space-separated.
dbq() {
	python3 -c 'import sqlite3,sys
c = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True, timeout=10)
for r in c.execute(sys.argv[2]): print(*r)' "$1" "$2"
}

# capture_halves TOKEN: a run of 2 repetitions captured as serial text
# (xcb-gen --serial) into TMP/cap.txt and cut at its middle frame into
# TMP/part1 and TMP/part2 (for `xcbench ingest`, a live run in two parts);
# sets frames (its frames) and ncases (its cases). 1 if xcb-gen failed.
capture_halves() {
	local cut
	"$XCB_GEN" --serial "$TMP/cap.txt" --token "$1" --reps 2 >"$TMP/gen.out" || return 1
	frames=$(grep -c 'XCB1 ' "$TMP/cap.txt")
	ncases=$(sed -E 's/.*cases=([0-9]+).*/\1/' "$TMP/gen.out")
	cut=$(grep -n 'XCB1 ' "$TMP/cap.txt" | sed -n "$((frames / 2))p" | cut -d: -f1)
	head -n "$cut" "$TMP/cap.txt" >"$TMP/part1"
	tail -n +"$((cut + 1))" "$TMP/cap.txt" >"$TMP/part2"
}
