#!/bin/bash
# `xcbench ingest -` is a live stream, not a file read at the end: fed from a
# pipe (as from `ipmitool ... sol activate`), it delivers the frames it has
# while the capture is still being written. A real serial capture goes into a
# FIFO in two halves; after the first half the daemon already holds exactly
# those frames (the writer still has the FIFO open, so ingest cannot have seen
# the end), and after the rest the run is complete.
# timeout: 300
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/net.sh"
net_require "ingest from a pipe"
[ -x "$XCBENCH" ] || { skip "ingest from a pipe" "host/build/xcbench not built"; exit 0; }

# A real capture: a short run over the serial console (no server=).
token=$(new_token)
cap=$NET_DIR/capture.log
XCB_QEMU_TIMEOUT=180 qemu_direct "$cap" 2 "run=$token suite=quick kinds=xcall algos=lockless reps=1 iters=10"
check "the capture run exits 0" test $? -eq 1
total=$(grep -c 'XCB1 ' "$cap")
diag "capture: $total frames"
[ "$total" -ge 4 ] || { notok "capture has frames"; exit 1; }
# Split after the middle frame line.
half=$(( total / 2 ))
cut_line=$(grep -n 'XCB1 ' "$cap" | sed -n "${half}p" | cut -d: -f1)

net_daemon d PORT
fifo=$NET_DIR/sol.fifo
mkfifo "$fifo"
"$XCBENCH" --server "http://127.0.0.1:$PORT" ingest - --timeout 60 <"$fifo" >"$NET_DIR/ingest.out" 2>&1 &
ipid=$!
NET_PIDS+=("$ipid")
exec 3>"$fifo"
head -n "$cut_line" "$cap" >&3

# The first half arrives while the writer keeps the pipe open.
got=""
for _ in $(seq 300); do
	id=$(run_id "$PORT" "$token")
	[ -n "$id" ] && got=$(run_summary "$PORT" "$id" | cut -d' ' -f2)
	[ "${got:-0}" -ge "$half" ] && break
	sleep 0.2
done
check "while the capture is still open: the daemon holds the first $half frames (got ${got:-none})" \
	test "${got:-0}" -eq "$half"
check "the ingest process is still reading" kill -0 "$ipid"
status=$(run_summary "$PORT" "${id:-0}" | cut -d' ' -f1)
check "the run is not complete yet (status ${status:-?})" test "${status:-complete}" != complete

tail -n +"$((cut_line + 1))" "$cap" >&3
exec 3>&-
wait "$ipid"
rc=$?
sed 's/^/# /' "$NET_DIR/ingest.out"
check "ingest exits 0 at the end of the stream" test "$rc" -eq 0
check "the run is complete with all $total frames" run_complete_ok "$PORT" "${id:-0}"
