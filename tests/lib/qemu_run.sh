# tests/lib/qemu_run.sh — qemu_run: one bounded QEMU run for the boot helpers
# (qemu_direct in tap.sh, qemu_uefi in uefi.sh), sourced by tap.sh. Besides
# the time bound it keeps QEMU's stderr beside the serial log, ends a QEMU
# that is still there long after the payload's "xcbench: exit N" line (the
# status that line implies is returned), and writes thread stacks to
# tests/out before it kills a QEMU that hangs, so the next hang explains
# itself. Not a test itself. Its clock is bash's SECONDS, not a count of its
# 0.5 s sleeps: with 288 vCPU threads on 2 cores each turn of its loop took
# far longer than 0.5 s, the count never reached "5 s before the limit", and
# a hang in a clean-clone run (2026-12-02) left no stacks.
#
# Why: a clean-clone CI run (2026-12-02, /tmp/ci5.log) had t-boot-smp288
# print "xcbench: exit 0" and every summary line, yet QEMU 10.0 (288 MTTCG
# vCPU threads, exit() called from the vCPU thread in hw/misc/debugexit.c)
# had not exited 240 s later; the suite normally takes 16 s, and the firmware
# prints "xcbench: halted" after the port write even in passing runs, so
# QEMU's exit is not instantaneous. With its stderr discarded and no stacks
# taken nothing said why.

# XCB_QEMU_EXIT_GRACE: seconds QEMU gets to end after the exit line (20).

# qemu_stacks PID FILE WHY: appends what PID's threads are doing to FILE
# (gdb's backtraces when gdb is there, else each thread's wchan and kernel
# stack from /proc), headed by WHY.
qemu_stacks() {
	local pid=$1 file=$2 t
	{
		echo "== $3 (pid $pid, $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg))"
		if command -v gdb >/dev/null; then
			timeout 60 gdb -p "$pid" -batch -ex 'info threads' -ex 'thread apply all bt' 2>&1
		fi
		for t in /proc/"$pid"/task/*; do
			echo "-- $t $(cat "$t/comm" 2>/dev/null) state=$(cut -d' ' -f3 "$t/stat" 2>/dev/null) wchan=$(cat "$t/wchan" 2>/dev/null)"
			cat "$t/stack" 2>/dev/null
		done
	} >>"$file"
}

# qemu_exit_line SERIAL: the N of the last "xcbench: exit N" line near the end
# of the serial log SERIAL (nothing when there is none): the payload prints
# it just before its isa-debug-exit port write (firmware/arch/exit.c), and
# only "xcbench: halted" after it.
qemu_exit_line() {
	tail -c 512 "$1" 2>/dev/null | grep -aoE 'xcbench: exit -?[0-9]+' | tail -n1 | cut -d' ' -f3
}

# qemu_watch TPID SERIAL MARK LIMIT: run beside a QEMU started under
# `timeout` (TPID, QEMU its child). Once SERIAL has the exit line, QEMU gets
# XCB_QEMU_EXIT_GRACE seconds; still there after it, its stacks go to
# tests/out, MARK gets the status the line implies ((N<<1)|1, as
# isa-debug-exit would have made it) and QEMU is killed. Near LIMIT without
# the line (the last 30 s of it, a sixth for short limits: gdb needs that
# long for 288 threads on a loaded host), only the stacks are taken:
# `timeout` ends it, and the run fails.
qemu_watch() {
	local tpid=$1 serial=$2 mark=$3 limit=$4 code seen= took= qpid ev
	local grace=${XCB_QEMU_EXIT_GRACE:-20} start=$SECONDS
	local late=$((limit - (limit / 6 < 30 ? limit / 6 : 30)))
	ev=$OUTDIR/qemu-hang.$(basename "$(dirname "$serial")")-$(basename "$serial").$tpid.txt
	while kill -0 "$tpid" 2>/dev/null; do
		sleep 0.5
		code=$(qemu_exit_line "$serial")
		if [ -n "$code" ]; then
			[ -n "$seen" ] || seen=$SECONDS
			[ $((SECONDS - seen)) -ge "$grace" ] || continue
			qpid=$(pgrep -P "$tpid" | head -n1)
			[ -n "$qpid" ] || return 0
			qemu_stacks "$qpid" "$ev" "still running ${grace} s after 'xcbench: exit $code'"
			echo $(((((code & 255) << 1) | 1) & 255)) >"$mark"
			echo "# qemu_run: QEMU $qpid still running ${grace} s after the payload's 'xcbench: exit $code'; killed, status taken from that line; stacks in $ev" >&2
			kill -KILL "$qpid" 2>/dev/null
			return 0
		fi
		if [ -z "$took" ] && [ $((SECONDS - start)) -ge "$late" ]; then
			took=1
			qpid=$(pgrep -P "$tpid" | head -n1)
			[ -n "$qpid" ] && qemu_stacks "$qpid" "$ev" "no exit line $((SECONDS - start)) s in"
			[ -n "$qpid" ] && echo "# qemu_run: QEMU $qpid without an exit line $((SECONDS - start)) s in; stacks in $ev" >&2
		fi
	done
}

# qemu_run SERIAL LIMIT CMD...: runs CMD (a QEMU whose serial port writes the
# file SERIAL) under `timeout -k 5 LIMIT`, stdin from /dev/null, stdout
# discarded, stderr in SERIAL.stderr, with qemu_watch beside it. Returns
# QEMU's status, or the one the exit line implies when qemu_watch had to end
# a QEMU that did not (124 when LIMIT ran out, as timeout says).
qemu_run() {
	local serial=$1 limit=$2 tpid wpid rc
	shift 2
	rm -f "$serial.wedged"
	timeout -k 5 "$limit" "$@" </dev/null >/dev/null 2>"$serial.stderr" &
	tpid=$!
	qemu_watch "$tpid" "$serial" "$serial.wedged" "$limit" &
	wpid=$!
	wait "$tpid"
	rc=$?
	# The watcher polls every 0.5 s; it has nothing to do once QEMU is gone.
	kill "$wpid" 2>/dev/null
	wait "$wpid" 2>/dev/null
	if [ -s "$serial.wedged" ]; then
		rc=$(cat "$serial.wedged")
		rm -f "$serial.wedged"
	fi
	return "$rc"
}
