#!/bin/bash
# tools/run-appliance.sh — `make run`: the whole appliance on this machine.
# Starts xcbenchd on loopback (HTTP and UDP on one port, database under var/),
# boots one virtual lab machine through the real iPXE path (`xcbench vm`),
# waits for its results, prints the dashboard URL of that run, and keeps the
# daemon in the foreground until Ctrl-C. A second `make run` reuses the
# database, so history accumulates.
#
# Environment (all optional):
#   XCBENCH_PORT=8080      HTTP and UDP port on 127.0.0.1
#   XCBENCH_VAR=var        where the database, daemon log and consoles go
#   XCBENCH_CPUS=4         CPUs of the virtual machine
#   XCBENCH_SUITE=default  suite it runs
#   XCBENCH_VM_ARGS="iters=30 reps=5"  more `xcbench vm` arguments: suite
#                          overrides, "--boot direct", ... The default trims the
#                          default suite (keeping 5 reps, the least a comparison
#                          needs for an interval) to ~1 minute under TCG with 4 CPUs on a
#                          2-core host (in full: ~3 minutes); set it empty
#                          (XCBENCH_VM_ARGS=) for the full suite.
#   XCBENCH_FIRMWARE=bios  the virtual machine's firmware: bios (SeaBIOS, the
#                          default) or uefi (OVMF + QEMU's EFI iPXE ROM, which
#                          boots xcbench.efi through the same /boot.ipxe)
#   XCBENCH_RUN_ONCE=1     exit after printing the URL (stops the daemon): for tests/CI
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PORT=${XCBENCH_PORT:-8080}
VAR=${XCBENCH_VAR:-$ROOT/var}
CPUS=${XCBENCH_CPUS:-4}
SUITE=${XCBENCH_SUITE:-default}
ONCE=${XCBENCH_RUN_ONCE:-0}
FIRMWARE=${XCBENCH_FIRMWARE:-bios}
XCBENCHD=$ROOT/host/build/xcbenchd
XCBENCH=$ROOT/host/build/xcbench
ELF=$ROOT/firmware/build/xcbench.elf
# xcbd_start: the daemon, started as the tests start it (waits on --ready-fd).
. "$ROOT/tests/lib/daemon.sh"

say() { echo "make run: $*"; }
die() { echo "make run: $*" >&2; exit 1; }

case $FIRMWARE in
bios | uefi) ;;
*) die "XCBENCH_FIRMWARE='$FIRMWARE' is not bios or uefi" ;;
esac
case $PORT in
'' | *[!0-9]*) die "XCBENCH_PORT='$PORT' is not a port number" ;;
esac
[ "$PORT" -ge 1 ] && [ "$PORT" -le 65535 ] || die "XCBENCH_PORT=$PORT is not in 1..65535"

# Built already when called by `make run`; build here when run by hand.
if [ ! -x "$XCBENCHD" ] || [ ! -x "$XCBENCH" ] || [ ! -f "$ELF" ]; then
	say "building (make all)"
	make -C "$ROOT" all || die "the build failed (see above)"
fi

# The port must be free for TCP (HTTP) and UDP (results), on loopback. TCP is
# tried with SO_REUSEADDR, as xcbenchd binds it: connections of a previous run
# still in TIME_WAIT do not stop it, a listener does.
if ! python3 - "$PORT" <<'PY'
import socket, sys
p = int(sys.argv[1])
for kind in (socket.SOCK_STREAM, socket.SOCK_DGRAM):
    s = socket.socket(socket.AF_INET, kind)
    if kind == socket.SOCK_STREAM:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        s.bind(("127.0.0.1", p))
        if kind == socket.SOCK_STREAM:
            s.listen(1)
    except OSError:
        sys.exit(1)
    finally:
        s.close()
PY
then
	die "port $PORT on 127.0.0.1 is in use (another xcbenchd or make run? see: ss -ltnup 'sport = :$PORT'); pick another with XCBENCH_PORT=NNNN make run"
fi

mkdir -p "$VAR" || die "cannot create $VAR"
DB=$VAR/xcbench.db
LOG=$VAR/xcbenchd.log
URL=http://127.0.0.1:$PORT

DPID=
stop_daemon() {
	[ -n "$DPID" ] || return 0
	kill -TERM "$DPID" 2>/dev/null
	wait "$DPID" 2>/dev/null
	DPID=
	# Said on every way out (done, Ctrl-C, an error after the start): the
	# runs outlive the daemon, and the next make run serves them again. The
	# command names loopback addresses: --open refuses xcbenchd's default
	# 0.0.0.0, so without them it would not start.
	say "xcbenchd stopped; its runs are kept in $DB (make run again serves them, or: host/build/xcbenchd --db $DB --open --listen 127.0.0.1:$PORT --udp 127.0.0.1:$PORT)"
}
trap 'stop_daemon' EXIT
# Ctrl-C is how make run ends (the daemon serves until then): once the EXIT
# trap has stopped it and said so, the stop is a success. Status 130 made
# make add "make: *** [Makefile:46: run] Error 130" under that message;
# make, which the terminal sent the same SIGINT, still ends by it (130 in
# the shell), silently. A failure still exits 1 (die), and TERM 130.
trap 'echo; say "stopping"; exit 0' INT
trap 'echo; say "stopping"; exit 130' TERM

[ -f "$DB" ] && say "reusing $DB (runs so far accumulate)"
xcbd_start "$LOG" "$PORT" --db "$DB" --open --firmware "$ELF" --web "$ROOT/web"
ready=$?
DPID=$XCBD_PID
if [ "$ready" != 0 ]; then
	tail -n 20 "$LOG" >&2
	die "xcbenchd did not start (log above, in $LOG)"
fi
say "xcbenchd serves $URL/ (HTTP + UDP on 127.0.0.1:$PORT, log $LOG)"

# One virtual machine through QEMU's iPXE ROM -> /boot.ipxe -> payload -> UDP.
# Progress shows on stderr; the outcome (--json) lands in $OUT.
VMDIR=$VAR/vm
OUT=$VAR/last-run.json
# shellcheck disable=SC2086  # XCBENCH_VM_ARGS is a list of words on purpose
"$XCBENCH" --server "$URL" vm --json --cpus "$CPUS" --suite "$SUITE" --wait --dir "$VMDIR" \
	--firmware "$FIRMWARE" --label "make run" ${XCBENCH_VM_ARGS-iters=30 reps=5} 2>&1 >"$OUT"
rc=$?
# The run of the one machine, when it completed: its id, then its URL.
RUN_ID=$(python3 -c 'import json, sys
m = json.load(open(sys.argv[1]))["machines"][0]
print(m["run"]["id"] if m["state"] == "done" and m["run"] else "")' "$OUT" 2>/dev/null)
RUN_URL=${RUN_ID:+$URL/run.html?id=$RUN_ID}
if [ "$rc" -ne 0 ] || [ -z "$RUN_URL" ]; then
	echo "make run: the virtual machine's run did not complete (xcbench vm status $rc)." >&2
	echo "make run: consoles and QEMU logs: $VMDIR; daemon log: $LOG" >&2
	[ "$ONCE" = 1 ] && exit 1
	echo "make run: the daemon keeps running at $URL/ for a look; Ctrl-C stops it." >&2
else
	echo
	echo "  Dashboard of this run:  $RUN_URL"
	echo "  All runs:               $URL/"
	echo
fi
[ "$ONCE" = 1 ] && exit 0
say "xcbenchd keeps serving $URL/ — Ctrl-C stops it"
wait "$DPID"
DPID=
