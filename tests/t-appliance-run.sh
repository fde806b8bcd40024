#!/bin/bash
# `make run` as a new user runs it, non-interactively: XCBENCH_RUN_ONCE=1 make run
# on a free port with a fresh var/ directory must boot a virtual machine through
# iPXE, print the dashboard URL of its run, and exit; that run must exist and be
# complete in the database (checked by a daemon started afterwards on the same
# database), and the URL's page must load. A second make run reuses the database.
# A failure (the port in use) fails make; Ctrl-C while it serves ends with the
# appliance's own stop message, no "make: *** ... Error 130" under it.
# timeout: 600
. "$(dirname "$0")/lib/tap.sh"

# A user types make run at a shell. Under `make test` this script inherits the
# outer make's MAKELEVEL and MAKEFLAGS: the inner make would then say
# "make[2]: ***" and "make[1]: Leaving directory", not the words a user sees
# (CI failed on exactly that, while the script alone passed).
unset MAKELEVEL MAKEFLAGS MFLAGS

for f in "$XCB_ELF" "$XCBENCHD" "$XCBENCH"; do
	[ -e "$f" ] || { skip "make run" "$f not built"; exit 0; }
done
command -v qemu-system-x86_64 >/dev/null || { skip "make run" "qemu-system-x86_64 missing"; exit 0; }

DIR=$(mktemp -d "$OUTDIR/appliance.XXXXXX")
DPID=
cleanup() {
	[ -n "$DPID" ] && kill "$DPID" 2>/dev/null && wait "$DPID" 2>/dev/null
	[ -n "${KEEP:-}" ] || rm -rf "$DIR"
}
trap cleanup EXIT

PORT=$(free_port)
# A short suite keeps the test to seconds; the flow is the same as the default's.
export XCBENCH_PORT=$PORT XCBENCH_VAR=$DIR/var XCBENCH_RUN_ONCE=1 XCBENCH_CPUS=2 \
	XCBENCH_SUITE=quick XCBENCH_VM_ARGS="--timeout 240 kinds=xcall reps=2 iters=20"

once() {	# once N: one `make run`, output in $DIR/run-N.out; sets URL, ID
	(cd "$ROOT" && timeout -k 10 300 make -s run) >"$DIR/run-$1.out" 2>&1
	local rc=$?
	sed 's/^/# /' "$DIR/run-$1.out" | grep -v '^# make\[' | tail -n 20
	URL=$(grep -oE "Dashboard of this run: +http://127\.0\.0\.1:$PORT/run\.html\?id=[0-9]+" "$DIR/run-$1.out" |
		grep -oE 'http://[^ ]+' | tail -n 1)
	ID=${URL##*=}
	return $rc
}

check "make run exits 0 with XCBENCH_RUN_ONCE=1" once 1
check "it printed the dashboard URL of its run" test -n "$URL"
check "the database is under XCBENCH_VAR" test -s "$DIR/var/xcbench.db"
check "the daemon was stopped (nothing listens on port $PORT)" \
	python3 -c "import socket; s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(('127.0.0.1', $PORT)); s.listen(1)"
check "... and it said so, and where the runs are kept (every way out: done, Ctrl-C, an error)" \
	grep -qF "make run: xcbenchd stopped; its runs are kept in $DIR/var/xcbench.db" "$DIR/run-1.out"
FIRST=$ID

# The command that message gives must start a daemon on those runs as
# written (it once gave `--open` without loopback addresses, which xcbenchd
# refuses): run from the repository root, with --ready-fd added to know.
hint=$(grep -oE 'or: host/build/xcbenchd [^)]*' "$DIR/run-1.out" | tail -n 1)
hint=${hint#or: }
diag "hint: $hint"
fifo=$DIR/hint.ready
mkfifo "$fifo"
# shellcheck disable=SC2086  # the hint is a list of words, as a user pastes it
(cd "$ROOT" && exec $hint --ready-fd 3 3>"$fifo" >"$DIR/hint.log" 2>&1 </dev/null) &
DPID=$!
read -r -t 60 line <"$fifo"
check "the hinted command (${hint:-none}) starts a daemon" test "${line%% *}" = ready
[ "${line%% *}" = ready ] || sed 's/^/# /' "$DIR/hint.log"
check "... serving the run it kept" curl -sf "http://127.0.0.1:$PORT/api/v1/runs/${ID:-0}" -o /dev/null
kill "$DPID" 2>/dev/null; wait "$DPID" 2>/dev/null; DPID=

# Look at what it left, through a daemon on the same database.
xcbd_start "$DIR/check.log" "$PORT" --db "$DIR/var/xcbench.db"
DPID=$XCBD_PID

run_json=$(curl -sf "http://127.0.0.1:$PORT/api/v1/runs/${ID:-0}")
status=$(echo "$run_json" | python3 -c 'import json,sys; r=json.load(sys.stdin)["run"]
print(r["status"], r["frames_received"], r["frames_expected"], r["cases"], (r["machine"] or {}).get("mac"))' 2>/dev/null)
diag "run ${ID:-?}: status frames expected cases mac = $status"
set -- $status
check "run $ID is complete with every frame" test "${1:-}" = complete -a "${2:-0}" = "${3:-x}" -a "${4:-0}" -gt 0
check "run $ID came from the virtual machine's MAC (booted through /boot.ipxe)" test "${5:-}" = 52:54:00:78:63:01
page=$(curl -sf "${URL:-http://127.0.0.1:$PORT/none}")
check "the URL's page loads (run.html)" grep -qi '<html' <<<"$page"
check "the run's CSV has result rows" \
	test "$(curl -sf "http://127.0.0.1:$PORT/api/v1/runs/$ID.csv" | wc -l)" -gt 1
notes=$(echo "$run_json" | python3 -c 'import json,sys; print(json.load(sys.stdin)["run"]["notes"] or "")')
check "the run's notes name its console file, which exists" test -s "$(echo "$notes" | grep -oE '/[^ ]+console\.log')"
kill "$DPID"; wait "$DPID" 2>/dev/null; DPID=

# A second make run: same database, one more run.
check "a second make run exits 0" once 2
check "it reports a new run ($FIRST, then $ID)" test -n "$ID" -a "$ID" != "$FIRST"
xcbd_start "$DIR/check.log" "$PORT" --db "$DIR/var/xcbench.db"
DPID=$XCBD_PID
n=$(curl -sf "http://127.0.0.1:$PORT/api/v1/runs?status=complete" | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])')
check "the database holds both runs (history accumulates): $n complete" test "${n:-0}" -ge 2

# Port in use: a clear message, not a hang or a crash.
out=$(cd "$ROOT" && timeout 60 tools/run-appliance.sh 2>&1)
rc=$?
check "port in use: make run fails (status $rc)" test "$rc" -ne 0
check "port in use: the message names the port and XCBENCH_PORT" \
	grep -q "port $PORT .*in use.*XCBENCH_PORT" <<<"$out"
out=$(cd "$ROOT" && timeout 120 make run 2>&1)
rc=$?
check "... and through make: a failure, make says so ($rc: $(tail -n 1 <<<"$out"))" \
	bash -c '[ "$1" != 0 ] && grep -q "^make: \*\*\* \[Makefile:[0-9]*: run\] Error 1$" <<<"$2"' _ "$rc" "$out"
kill "$DPID"; wait "$DPID" 2>/dev/null; DPID=

# Ctrl-C once it serves, as a user ends it: the terminal sends SIGINT to
# make and everything under it. The appliance's stop message is the last
# word (make added "make: *** [Makefile:46: run] Error 130" under it).
python3 - "$DIR/run-3.out" "$ROOT" <<'EOF' >"$DIR/ctrl-c.rc"
import os, signal, subprocess, sys, time
out, root = sys.argv[1], sys.argv[2]
with open(out, 'wb') as f:
    p = subprocess.Popen(['make', 'run'], cwd=root, stdout=f, stderr=subprocess.STDOUT,
                         start_new_session=True, env=dict(os.environ, XCBENCH_RUN_ONCE='0'))
    end = time.time() + 240
    while p.poll() is None and time.time() < end and b'keeps serving' not in open(out, 'rb').read():
        time.sleep(0.2)
    os.killpg(p.pid, signal.SIGINT)
    try:
        print(p.wait(60))
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        print('hung')
EOF
rc=$(cat "$DIR/ctrl-c.rc")
sed 's/^/# /' "$DIR/run-3.out" | grep -v '^# make\[' | tail -n 6
check "Ctrl-C while it serves: it served first" grep -q 'keeps serving' "$DIR/run-3.out"
check "... make ends by the interrupt, as an interrupted command does ($rc)" test "$rc" = -2 -o "$rc" = 130
check "... the last line is the appliance's own ($(grep . "$DIR/run-3.out" | tail -n 1))" \
	bash -c 'grep . "$1" | tail -n 1 | grep -q "^make run: xcbenchd stopped; its runs are kept in "' _ "$DIR/run-3.out"
check "... and make adds no error ($(grep -c '^make.*\*\*\*' "$DIR/run-3.out"))" bash -c '! grep -q "^make.*\*\*\*" "$1"' _ "$DIR/run-3.out"
check "... the daemon is stopped (nothing listens on port $PORT)" \
	python3 -c "import socket; s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(('127.0.0.1', $PORT)); s.listen(1)"
