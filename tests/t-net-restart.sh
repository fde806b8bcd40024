#!/bin/bash
# Daemon restart mid-run: the payload streams a run over UDP, the daemon is
# killed (SIGKILL: no chance to tidy up) once frames arrive, and started again
# on the same database once the payload's window has filled. The payload
# keeps every unacknowledged frame and retransmits (backoff capped at 1 s),
# pausing the benchmark while its window is full, so the run completes with
# every frame — identical to the copy the same boot wrote to the serial
# console (transport=both).
# timeout: 300
. "$(dirname "$0")/lib/tap.sh"
# One algorithm, 150 ms a repetition: ~200 frames (more than the transport's
# 128-frame window) spread over seconds, so the kill lands mid-run.
NET_SUITE="suite=quick kinds=xcall algos=locked reps=2 iters=0 time_ms=150"
. "$(dirname "$0")/lib/net.sh"
net_require "network daemon restart" 240

net_daemon d PORT
TOKEN=$(new_token)
register "$PORT" "$TOKEN" quick
ID=$(run_id "$PORT" "$TOKEN")
LOG=$NET_DIR/restart.serial.log

qemu_direct "$LOG" 2 "$(net_cmdline "$PORT" "$TOKEN" transport=both)" \
	-netdev user,id=n0 -device virtio-net-pci,netdev=n0 &
QPID=$!
NET_PIDS+=("$QPID")

# Kill as soon as the payload starts sending (its first frame shows on the
# serial console), so nearly the whole run is still to come.
for _ in $(seq 3000); do
	grep -q '^XCB1 ' "$LOG" 2>/dev/null && break
	kill -0 "$QPID" 2>/dev/null || break
	sleep 0.02
done
check "payload started sending before the kill" grep -q '^XCB1 ' "$LOG"
kill -9 "$DPID_d"; wait "$DPID_d" 2>/dev/null
n0=$(grep -c '^XCB1 ' "$LOG")
# The daemon stays away until the payload has stopped on its full window:
# it copies a frame to the serial console after the UDP window took it
# (bench/report.c fan_out), and with no ACK after the kill the window's 128
# frames are full at the latest at frame 128 + those ACKed before it; so at
# least 128 frames on the console and then none new for 3 s (the runner
# waiting in the window, retransmitting meanwhile: timeouts from 50 ms on).
# Bounded: 60 s (once a fixed 10 s, too short on a slow machine, and long).
last=$n0 still=0
for ((i = 0; i < 600 && still < 30; i++)); do
	sleep 0.1
	kill -0 "$QPID" 2>/dev/null || break
	n=$(grep -c '^XCB1 ' "$LOG")
	if [ "$n" -ge 128 ] && [ "$n" = "$last" ]; then
		still=$((still + 1))
	else
		still=0
	fi
	last=$n
done
diag "daemon killed after $n0 frames were sent; restarted $((i / 10)) s later, at $last frames"
check "payload still waiting for its ACKs while the daemon was away" kill -0 "$QPID" 2>/dev/null
net_daemon_start d "$PORT" || { notok "xcbenchd restarts"; exit 1; }
wait "$QPID"
diag "qemu status $?"
cp "$LOG" "$OUTDIR/t-net-restart.serial.log" 2>/dev/null
grep 'net: .*udp: sent' "$LOG" | sed 's/^/# /'
check "payload timed out and retransmitted while the daemon was away" grep -qE 'timeouts [1-9]' "$LOG"
check "runner paused on a full window rather than dropping" grep -qE 'window-full [1-9]' "$LOG"
check "run complete after the restart, every frame stored" run_complete_ok "$PORT" "$ID"

same_as_serial restart "$LOG" "$PORT" "$ID" "$TOKEN"
