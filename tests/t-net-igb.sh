#!/bin/bash
# The igb driver (QEMU -device igb = Intel 82576): a complete quick run over
# UDP into a real xcbenchd, direct boot (-kernel), and the NIC named on the
# console. An unsupported NIC (rtl8139) is named by vendor:device, with the
# serial-over-LAN way to collect the results instead.
# timeout: 400
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/net.sh"
net_require "igb direct boot" 180

net_daemon d PORT

token=$(new_token)
log=$NET_DIR/igb.serial.log
register "$PORT" "$token" quick || { notok "igb: register run"; exit 1; }
qemu_direct "$log" 2 "$(net_cmdline "$PORT" "$token")" -netdev user,id=n0 -device igb,netdev=n0
rc=$?
cp "$log" "$OUTDIR/t-net-igb.serial.log" 2>/dev/null
diag "igb: qemu status $rc; $(grep -m1 'net: .* ip ' "$log")"
grep 'net: .*udp: sent' "$log" | sed 's/^/# /'
check "igb: console names the 82576" grep -qE '^net: igb\(82576\) [0-9a-f]{2}:[0-9a-f]{2}\.[0-7] ip 10\.0\.2\.15 ' "$log"
id=$(run_id "$PORT" "$token")
if [ -n "$id" ] && run_complete_ok "$PORT" "$id"; then
	ok "igb: run $id complete over UDP, every frame stored"
else
	notok "igb: run ${id:-?} complete over UDP, every frame stored"
	grep -E '^(net|xcbench)' "$log" | tail -15 | sed 's/^/#   /'
fi
check "igb: no frame went over the serial fallback" test "$(grep -c 'XCB1 ' "$log")" -eq 0

# Unsupported NIC: its vendor:device and the serial-over-LAN hint.
log=$NET_DIR/rtl.serial.log
qemu_direct "$log" 2 "$(net_cmdline "$PORT" "$(new_token)")" \
	-netdev user,id=n0 -device rtl8139,netdev=n0
check "unsupported NIC named as 10ec:8139" grep -qE '^net: [0-9a-f:.]+: network controller 10ec:8139: no driver' "$log"
check "console says how to collect over serial-over-LAN" \
	grep -q 'sol activate | xcbench ingest -' "$log"
