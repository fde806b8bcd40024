# tests/lib/tap.sh — the base of every tests/t-*.sh script: TAP lines (ok,
# notok, skip, check, diag: defined here once), paths. Source it first:
#   . "$(dirname "$0")/lib/tap.sh"
# Results are TAP lines, counted by tests/run-all.
set -u
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUTDIR=$ROOT/tests/out
# The Python side of the TAP helpers (tests/lib/tap.py: from tap import ok).
export PYTHONPATH=$ROOT/tests/lib${PYTHONPATH:+:$PYTHONPATH}
mkdir -p "$OUTDIR"
XCB_ELF=$ROOT/firmware/build/xcbench.elf
XCBENCHD=$ROOT/host/build/xcbenchd
XCBENCH=$ROOT/host/build/xcbench

ok()    { echo "ok - $*"; }
# TAP_FAILED: set by notok, so a helper's cleanup can keep what explains a
# failure (net.sh keeps its NET_DIR).
TAP_FAILED=
notok() { TAP_FAILED=1; echo "not ok - $*"; }
skip()  { echo "ok - $1 # SKIP $2"; }
# check NAME CMD...: one TAP line from a command's exit status.
check() { local n=$1; shift; if "$@"; then ok "$n"; else notok "$n"; fi; }
diag()  { echo "# $*"; }

# need_payload: the payload must be built (a failure, not a skip: `make
# test` builds it first, so a missing one is a broken build).
need_payload() {
	[ -f "$XCB_ELF" ] && return 0
	notok "payload built ($XCB_ELF missing: make -C firmware)"
	exit 1
}

# frames_json LOG JSON [LINES]: decodes the serial frames of a console log
# (tests/lib/engine_frames.py: CRC, contiguous seq, HELLO first, DONE last) into
# JSON; what it found wrong becomes diagnostics (at most LINES). Its status.
frames_json() {
	local rc
	python3 "$ROOT/tests/lib/engine_frames.py" "$1" --json >"$2" 2>"$2.err"
	rc=$?
	sed 's/^/# /' "$2.err" | head -n "${3:-1000}"
	return $rc
}

# accel: the QEMU accelerator for this host (tools/qemu-accel decides).
accel() { "$ROOT/tools/qemu-accel"; }

# free_port and xcbd_start (the daemon and its port, for tests and tools).
. "$ROOT/tests/lib/daemon.sh"

# qemu_run: one bounded QEMU run, its stderr kept, a hang explained.
. "$ROOT/tests/lib/qemu_run.sh"

# qemu_direct LOG SMP "CMDLINE" [extra qemu args...]: boots the payload with
# -kernel, serial to LOG (QEMU's stderr in LOG.stderr), exits through
# isa-debug-exit. Returns QEMU's status ((code<<1)|1 for a payload exit).
# Bounded by XCB_QEMU_TIMEOUT (default 120 s); see qemu_run.
qemu_direct() {
	local log=$1 smp=$2 cmdline=$3; shift 3
	qemu_run "$log" "${XCB_QEMU_TIMEOUT:-120}" qemu-system-x86_64 \
		-accel "$(accel)" -M q35 -m 256 -smp "$smp" -nographic -no-reboot \
		-bios /usr/share/qemu/qboot.rom \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
		-serial "file:$log" -monitor none -display none \
		-kernel "$XCB_ELF" -append "$cmdline" "$@"
}
