#!/bin/bash
# The payload on the network, booted directly (-kernel): over virtio-net (1.0
# and legacy transports), e1000 and e1000e, each run stored complete in a real
# xcbenchd; the NIC chosen by mac= among two; DHCP when ip= is absent.
# timeout: 600
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/net.sh"
net_require "network direct boot" 180

net_daemon d PORT

# boot NAME EXPECT_NIC_TEXT EXTRA_CMDLINE QEMU_ARGS...
boot() {
	local name=$1 expect=$2 extra=$3; shift 3
	local token log id rc cmdline
	token=$(new_token)
	log=$NET_DIR/$name.serial.log
	register "$PORT" "$token" quick || { notok "$name: register run"; return; }
	cmdline=$(net_cmdline "$PORT" "$token" "$extra")
	# As iPXE renders ${netX/ip} etc. when it has no address: empty values.
	[ -n "${NET_NO_IP:-}" ] && cmdline=${cmdline/ ip=10.0.2.15 gw=10.0.2.2 netmask=255.255.255.0/ ip= gw= netmask=}
	local t0=$SECONDS
	qemu_direct "$log" 2 "$cmdline" "$@"
	rc=$?
	cp "$log" "$OUTDIR/t-net-direct.$name.serial.log" 2>/dev/null
	diag "$name: qemu status $rc after $((SECONDS - t0)) s; $(grep -m1 'net: .* ip ' "$log")"
	grep 'net: .*udp: sent' "$log" | sed 's/^/# /'
	id=$(run_id "$PORT" "$token")
	if [ -z "$id" ]; then
		notok "$name: run stored"
		grep -E "^(net|xcbench)" "$log" | tail -15 | sed "s/^/#   /"
		return
	fi
	if run_complete_ok "$PORT" "$id"; then ok "$name: run $id complete, every frame stored"
	else notok "$name: run $id complete, every frame stored"; grep -E '^(net|xcbench)' "$log" | tail -15 | sed 's/^/#   /'; fi
	check "$name: log says '$expect'" grep -q "net: $expect" "$log"
}

boot virtio-1.0 'virtio-net(1.0) .* ip ' '' \
	-netdev user,id=n0 -device virtio-net-pci,netdev=n0,disable-legacy=on,disable-modern=off
boot virtio-legacy 'virtio-net(legacy) .* ip ' '' \
	-netdev user,id=n0 -device virtio-net-pci,netdev=n0,disable-modern=on
boot e1000 'e1000(8254x) .* ip ' '' -netdev user,id=n0 -device e1000,netdev=n0
boot e1000e 'e1000e(82574) .* ip ' '' -netdev user,id=n0 -device e1000e,netdev=n0
# Two NICs, each with a working network: mac= picks the second one.
boot mac-select 'e1000(8254x) [0-9a-f:.]* ip 10.0.2.15' 'mac=52:54:00:aa:bb:02' \
	-netdev user,id=n0 -device virtio-net-pci,netdev=n0,mac=52:54:00:aa:bb:01 \
	-netdev user,id=n1 -device e1000,netdev=n1,mac=52:54:00:aa:bb:02
NET_NO_IP=1 boot dhcp 'virtio-net.* ip 10.0.2.15 .*(dhcp)' '' -netdev user,id=n0 -device virtio-net-pci,netdev=n0

# A NIC we do not drive (rtl8139): transport=udp falls back to serial, and
# the serial frames make a complete run.
token=$(new_token)
log=$NET_DIR/fallback.serial.log
qemu_direct "$log" 2 "$(net_cmdline "$PORT" "$token")" -netdev user,id=n0 -device rtl8139,netdev=n0
check "unsupported NIC: payload says so" grep -q 'net: no supported NIC' "$log"
PORT2=$(free_port)
net_daemon_start fallback "$PORT2" || notok "second xcbenchd starts"
serial_ingest "$log" "$PORT2" >/dev/null
id=$(run_id "$PORT2" "$token")
check "unsupported NIC: run complete over the serial fallback" run_complete_ok "$PORT2" "${id:-0}"
