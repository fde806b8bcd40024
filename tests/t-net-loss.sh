#!/bin/bash
# Results over a lossy path: the payload's UDP traffic (frames and ACKs) passes
# a relay that loses 20%, duplicates 5% and reorders 25% of datagrams; then a
# daemon that drops 20% of what it receives (--test-drop). Each boot sends its
# frames over serial too (transport=both): the run stored over the lossy path
# must be complete and identical to the lossless serial copy.
# timeout: 400
. "$(dirname "$0")/lib/tap.sh"
# One algorithm: ~260 frames, still twice the transport's 128-frame window.
NET_SUITE="suite=quick kinds=xcall algos=locked reps=2 iters=20"
. "$(dirname "$0")/lib/net.sh"
net_require "network loss" 240

net_daemon lossy PORT

# lossy_boot NAME DAEMON_PORT PAYLOAD_PORT: one boot, checks, comparison.
lossy_boot() {
	local name=$1 dport=$2 pport=$3 token log id
	token=$(new_token)
	log=$NET_DIR/$name.serial.log
	register "$dport" "$token" quick
	qemu_direct "$log" 2 "$(net_cmdline "$pport" "$token" transport=both)" \
		-netdev user,id=n0 -device virtio-net-pci,netdev=n0
	cp "$log" "$OUTDIR/t-net-loss.$name.serial.log" 2>/dev/null
	grep 'net: .*udp: sent' "$log" | sed 's/^/# /'
	id=$(run_id "$dport" "$token")
	check "$name: run complete, every frame stored" run_complete_ok "$dport" "${id:-0}"
	check "$name: frames were retransmitted" grep -qE 'retransmitted [1-9]' "$log"
	same_as_serial "$name" "$log" "$dport" "${id:-0}" "$token"
}

PROXY_PORT=$(free_port)
net_lossy_proxy "$PROXY_PORT" "$PORT"
lossy_boot netem-like "$PORT" "$PROXY_PORT"
kill "$PROXY_PID"; wait "$PROXY_PID" 2>/dev/null
diag "$(cat "$NET_DIR/proxy.log")"
check "relay lost, duplicated and reordered datagrams" \
	grep -qE "'lost': [1-9].*'dup': [1-9].*'reordered': [1-9]" "$NET_DIR/proxy.log"

# The daemon's own drop injection (test-only flag).
PORT_DROP=$(free_port)
if net_daemon_start drop "$PORT_DROP" --test-drop 0.2; then
	lossy_boot daemon-drop "$PORT_DROP" "$PORT_DROP"
else
	skip "daemon-drop" "xcbenchd has no --test-drop"
fi
