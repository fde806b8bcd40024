#!/bin/bash
# The lab deployment end to end, in network namespaces: the topology of
# docker-compose.yml with the very same dnsmasq configuration (lab/).
#
#   netns "site": the site's own DHCP server (a plain dnsmasq range, no PXE)
#   netns "lab":  bridge br0 (10.77.0.1/24, fd77::1/64), the site's veth,
#                 xcbenchd (10.77.0.1:8080, admin token, not --open),
#                 lab/dnsmasq-start in proxy-DHCP mode + TFTP,
#                 two QEMU machines on tap devices: machine 1 BIOS
#                 (SeaBIOS, NIC ROM), machine 2 UEFI (OVMF, EFI NIC ROM)
#
# Machine 1 PXE-boots BIOS-mode: ROM --DHCP + ProxyDHCP--> undionly.kpxe
# (TFTP) --DHCP again, now iPXE--> http://10.77.0.1:8080/boot.ipxe?mac=…
# --> the payload (xcbench.elf) of the suite queued for its MAC --> UDP
# results. QEMU's BIOS ROM is iPXE itself, so XCB_CHAIN_IPXE=1 makes it take
# the undionly.kpxe step a vendor PXE ROM takes. Machine 2 is the same on
# UEFI with the firmware's own network stack (OVMF's virtio-net driver and
# PXE, no iPXE ROM: what a server's UEFI PXE is): DHCP + ProxyDHCP (port
# 4011) --> snponly.efi (TFTP) --> the same boot URL, whose ${platform} test
# gives it xcbench.efi. Both runs must be complete; they are compared through
# the API and the CLI. Then the same lab/ configuration runs as the only DHCP
# server (a plain range, no site server) and machine 1 boots once more.
# Private addresses exist only inside our namespaces.
# timeout: 400
. "$(dirname "$0")/lib/tap.sh"

need() { skip "lab PXE in network namespaces" "$1"; exit 0; }
for f in "$XCB_ELF" "$XCBENCHD" "$XCBENCH"; do [ -e "$f" ] || need "$f not built"; done
for c in ip dnsmasq qemu-system-x86_64 curl python3; do
	command -v "$c" >/dev/null || need "$c missing"
done
[ -r /usr/lib/ipxe/undionly.kpxe ] || need "/usr/lib/ipxe/undionly.kpxe missing (Debian package ipxe)"
OVMF_CODE=/usr/share/OVMF/OVMF_CODE_4M.fd OVMF_VARS=/usr/share/OVMF/OVMF_VARS_4M.fd
for f in "$OVMF_CODE" "$OVMF_VARS" /usr/lib/ipxe/snponly.efi "$ROOT/firmware/build/xcbench.efi"; do
	[ -r "$f" ] || need "$f missing (make deps: ovmf, ipxe, ipxe-qemu; make -C firmware)"
done
[ -c /dev/net/tun ] || need "/dev/net/tun missing"
[ "$(id -u)" = 0 ] || need "needs root for network namespaces and tap devices"

LAB=xcb-lab-$$
SITE=xcb-site-$$
ip netns add "$LAB" 2>/dev/null || need "cannot create network namespaces (ip netns add)"
DIR=$(mktemp -d "$OUTDIR/lab.XXXXXX")
PIDS=()
cleanup() {
	local p
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
	# Anything still inside our own namespaces (only ours: we created them).
	for ns in "$LAB" "$SITE"; do
		for p in $(ip netns pids "$ns" 2>/dev/null); do kill "$p" 2>/dev/null; done
	done
	sleep 0.2
	ip netns del "$LAB" 2>/dev/null
	ip netns del "$SITE" 2>/dev/null
	[ -n "${KEEP:-}" ] || rm -rf "$DIR"
}
trap cleanup EXIT
# (background jobs call ip netns exec directly: a backgrounded shell function
# would leave $! naming a subshell, and kill would miss the real process)
inlab() { ip netns exec "$LAB" "$@"; }

# --- the network ---------------------------------------------------------------
if ! { ip netns add "$SITE" &&
	ip -n "$LAB" link set lo up &&
	ip -n "$LAB" link add br0 type bridge &&
	ip -n "$LAB" addr add 10.77.0.1/24 dev br0 &&
	ip -n "$LAB" addr add fd77::1/64 dev br0 nodad &&
	ip -n "$LAB" link set br0 up &&
	ip -n "$LAB" link add site0 type veth peer name site1 netns "$SITE" &&
	ip -n "$LAB" link set site0 master br0 up &&
	ip -n "$SITE" addr add 10.77.0.2/24 dev site1 &&
	ip -n "$SITE" link set site1 up &&
	ip -n "$LAB" tuntap add dev tap1 mode tap &&
	ip -n "$LAB" tuntap add dev tap2 mode tap &&
	ip -n "$LAB" link set tap1 master br0 up &&
	ip -n "$LAB" link set tap2 master br0 up; } 2>"$DIR/net.err"; then
	need "cannot build the test network: $(head -n1 "$DIR/net.err")"
fi
ok "test network: bridge, site veth and two taps in namespace $LAB"

# --- the site's DHCP server (not ours: addresses only, no PXE) -----------------
ip netns exec "$SITE" dnsmasq --keep-in-foreground --log-facility=- --pid-file= --conf-file=/dev/null \
	--port=0 --log-dhcp --no-ping --interface=site1 --bind-interfaces \
	--dhcp-range=10.77.0.100,10.77.0.199,255.255.255.0,1h --dhcp-option=3,10.77.0.1 \
	--dhcp-leasefile="$DIR/site.leases" >"$DIR/site-dhcp.log" 2>&1 &
SITE_PID=$!
PIDS+=($!)

# --- xcbenchd, as a lab runs it: an admin token, no --open ---------------------
od -An -N16 -tx1 /dev/urandom | tr -d ' \n' >"$DIR/token"
XCBD_WRAP="ip netns exec $LAB" XCBD_LISTEN=10.77.0.1 xcbd_start "$DIR/xcbenchd.log" 8080 --db "$DIR/lab.db" \
	--token-file "$DIR/token" --firmware "$XCB_ELF"
PIDS+=("$XCBD_PID")
API=http://10.77.0.1:8080
api() { inlab curl -sf "$API$1"; }
api /api/v1/health >/dev/null
check "xcbenchd answers on 10.77.0.1:8080 inside the lab namespace" test $? = 0

# --- lab/dnsmasq-start: proxy-DHCP + TFTP, exactly as docker-compose.yml --------
ip netns exec "$LAB" env XCB_DAEMON=10.77.0.1:8080 XCB_DHCP_RANGE=10.77.0.0,proxy XCB_INTERFACE=br0 \
	XCB_RA_PREFIX=fd77:: XCB_CHAIN_IPXE=1 "$ROOT/lab/dnsmasq-start" \
	--dhcp-leasefile="$DIR/lab.leases" >"$DIR/lab-dnsmasq.log" 2>&1 &
LABDNS_PID=$!
PIDS+=($!)
sleep 0.5
check "lab dnsmasq runs (proxy on 10.77.0.0, TFTP)" grep -q 'proxy on subnet 10.77.0.0' "$DIR/lab-dnsmasq.log"

# --- a suite queued for each machine, with the CLI and the admin token ---------
SUITE=(kinds=xcall reps=2 iters=20)
MACS=(52:54:00:77:00:01 52:54:00:77:00:02)
for i in 0 1; do
	check "xcbench queue for ${MACS[$i]}" inlab "$XCBENCH" --server "$API" --token-file "$DIR/token" \
		queue --mac "${MACS[$i]}" --suite quick --label lab-pxe "${SUITE[@]}"
done

# --- two machines, PXE-booting BIOS-mode through their NIC ROMs ----------------
boot() {	# boot I LOGNAME [uefi]: machine I (1 or 2) on tapI, in the background
	local fw=(-boot n) nic=""
	if [ "${3:-}" = uefi ]; then
		# OVMF (a variable store of its own) with no NIC ROM (romfile=):
		# its own virtio-net driver and PXE client, first in its boot order
		# (bootindex: OVMF ignores -boot).
		cp "$OVMF_VARS" "$DIR/$2.vars.fd"
		fw=(-drive "if=pflash,format=raw,unit=0,readonly=on,file=$OVMF_CODE"
			-drive "if=pflash,format=raw,unit=1,file=$DIR/$2.vars.fd")
		nic=",romfile=,bootindex=1"
	fi
	ip netns exec "$LAB" timeout -k 5 240 qemu-system-x86_64 -accel "$(accel)" -M q35 -m 256 -smp 2 \
		-display none -monitor none -no-reboot -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
		-serial "file:$DIR/$2.console.log" \
		-smbios "type=1,serial=lab-machine-$1,uuid=7c0e0000-0000-4000-8000-00000000000$1" \
		-netdev "tap,id=n0,ifname=tap$1,script=no,downscript=no" \
		-device "virtio-net-pci,netdev=n0,mac=${MACS[$(($1 - 1))]}$nic" "${fw[@]}" \
		</dev/null >"$DIR/$2.qemu.log" 2>&1 &
	QPID=$!
	PIDS+=($!)
}
QPIDS=()
boot 1 vm1
QPIDS+=("$QPID")
boot 2 vm2 uefi
QPIDS+=("$QPID")
for i in 0 1; do
	wait "${QPIDS[$i]}"
	rc=$?
	check "machine $((i + 1)): the payload ended QEMU with status 0 (QEMU status $rc)" test "$rc" = 1
done

# --- what happened on the wire --------------------------------------------------
LOADERS=(undionly.kpxe snponly.efi)
for i in 0 1; do
	mac=${MACS[$i]}
	ip4=$(grep -m1 "DHCPACK(site1) [0-9.]* $mac" "$DIR/site-dhcp.log" | grep -oE '10\.77\.0\.[0-9]+')
	check "$mac: address from the site's DHCP server (${ip4:-none})" test -n "$ip4"
	check "$mac: ROM got ${LOADERS[$i]} by TFTP from the lab" \
		grep -qE "sent /usr/lib/ipxe/${LOADERS[$i]} to ${ip4:-x}( |\$)" "$DIR/lab-dnsmasq.log"
done
n=$(grep -cF 'bootfile name: http://10.77.0.1:8080/boot.ipxe?mac=${mac:hexhyp}&uuid=${uuid}&serial=${serial:uristring}' "$DIR/lab-dnsmasq.log")
check "iPXE (undionly) was handed the daemon's boot URL ($n replies)" test "$n" -ge 2
check "machine 1 (BIOS): console shows the payload loaded by iPXE on BIOS" \
	bash -c "grep -q 'loader \"iPXE' '$DIR/vm1.console.log' && ! grep -q 'boot firmware UEFI' '$DIR/vm1.console.log'"
check "machine 2 (UEFI): console shows xcbench.efi loaded by snponly.efi (iPXE's EFI build) on UEFI" \
	bash -c "grep -q 'firmware/xcbench.efi' '$DIR/vm2.console.log' && grep -q 'loader \"iPXE (EFI)\"' '$DIR/vm2.console.log' &&
		grep -q 'xcbench: boot firmware UEFI' '$DIR/vm2.console.log'"
fw=$(api "/api/v1/runs?limit=10" | python3 -c 'import json,sys
print(" ".join(r["facts"].get("boot_fw", "-") for r in sorted(json.load(sys.stdin)["runs"], key=lambda r: r["machine"]["mac"])))')
check "the runs list says bios for machine 1 and uefi for machine 2 ($fw)" test "$fw" = "bios uefi"

# --- the runs, through the API ----------------------------------------------------
IDS=()
for i in 0 1; do
	mac=${MACS[$i]}
	info=$(api "/api/v1/runs?machine=$mac" | python3 -c 'import json,sys
r=json.load(sys.stdin)["runs"][0]
print(r["id"], r["status"], r["frames_received"], r["frames_expected"], r["suite"], r["label"], r["cases"])')
	diag "$mac: id status received expected suite label cases = $info"
	set -- $info
	IDS+=("${1:-0}")
	check "$mac: run $1 is complete with every frame" test "${2:-}" = complete -a "${3:-0}" = "${4:-x}"
	check "$mac: run $1 ran the queued suite (quick, label lab-pxe, $7 cases)" \
		test "${5:-}" = quick -a "${6:-}" = lab-pxe -a "${7:-0}" -gt 0
	m=$(api /api/v1/machines | python3 -c 'import json,sys
for m in json.load(sys.stdin)["machines"]:
    if m["mac"] == "'"$mac"'": print(m["serial"], m["uuid"])')
	check "$mac: machine known with its SMBIOS serial and UUID ($m)" \
		test "$m" = "lab-machine-$((i + 1)) 7c0e0000-0000-4000-8000-00000000000$((i + 1))"
done
A=${IDS[0]} B=${IDS[1]}

# --- compared through the API and the CLI -------------------------------------
cmp=$(api "/api/v1/compare?a=$A&b=$B" | python3 -c 'import json,sys
c=json.load(sys.stdin); print(len(c["cases"]), c["unmatched_a"], c["unmatched_b"], sum(1 for x in c["cases"] if x["change_pct"] is not None))')
diag "compare $A $B (API): matched unmatched_a unmatched_b with_change = $cmp"
set -- $cmp
check "API compare: every case of run $A matches one of run $B ($1 cases)" \
	test "${1:-0}" -gt 0 -a "${2:-x}" = 0 -a "${3:-x}" = 0
check "API compare: a % change for each matched case" test "${4:-x}" = "${1:-y}"
inlab "$XCBENCH" --server "$API" compare "$A" "$B" >"$DIR/compare.txt" 2>&1
check "CLI compare $A $B exits 0" test $? = 0
sed 's/^/# /' "$DIR/compare.txt" | head -n 12
inlab "$XCBENCH" --server "$API" compare "$A" "$B" --csv >"$DIR/compare.csv" 2>&1
rows=$(python3 -c 'import csv,sys; print(len(list(csv.DictReader(open(sys.argv[1])))))' "$DIR/compare.csv" 2>/dev/null)
check "CLI compare --csv: one row per matched case ($rows of ${1:-?})" test "${rows:-x}" = "${1:-y}"
n=$(inlab "$XCBENCH" --server "$API" runs --label lab-pxe | grep -cE "^($A|$B) ")
check "CLI runs --label lab-pxe lists both runs ($n)" test "$n" = 2
jobs=$(api "/api/v1/jobs" | python3 -c 'import json,sys; print(sum(1 for j in json.load(sys.stdin)["jobs"] if j["run_id"] in ('"$A,$B"')))')
check "both queued jobs were consumed by those runs" test "${jobs:-0}" = 2


# --- the same configuration as the only DHCP server (a plain range) -----------
# A lab network of its own has no site DHCP server: XCB_DHCP_RANGE is then an
# address range and dnsmasq answers everything, with the same iPXE split.
kill "$SITE_PID" "$LABDNS_PID" 2>/dev/null
wait "$SITE_PID" "$LABDNS_PID" 2>/dev/null
ip netns exec "$LAB" env XCB_DAEMON=10.77.0.1:8080 XCB_DHCP_RANGE=10.77.0.150,10.77.0.199,255.255.255.0,1h \
	XCB_INTERFACE=br0 XCB_RA_PREFIX=fd77:: XCB_CHAIN_IPXE=1 "$ROOT/lab/dnsmasq-start" \
	--dhcp-leasefile="$DIR/full.leases" >"$DIR/full-dnsmasq.log" 2>&1 &
PIDS+=($!)
sleep 0.5
check "full-DHCP mode: queue another suite for ${MACS[0]}" inlab "$XCBENCH" --server "$API" \
	--token-file "$DIR/token" queue --mac "${MACS[0]}" --suite quick --label lab-full "${SUITE[@]}"
boot 1 full
wait "$QPID"
rc=$?
check "full-DHCP mode: machine 1 ended with payload status 0 (QEMU status $rc)" test "$rc" = 1
ip4=$(grep -m1 "DHCPACK(br0) [0-9.]* ${MACS[0]}" "$DIR/full-dnsmasq.log" | grep -oE '10\.77\.0\.[0-9]+')
check "full-DHCP mode: address from the lab dnsmasq itself (${ip4:-none})" test -n "$ip4"
check "full-DHCP mode: ROM got undionly.kpxe by TFTP" \
	grep -qE "sent /usr/lib/ipxe/undionly.kpxe to ${ip4:-x}( |\$)" "$DIR/full-dnsmasq.log"
info=$(api "/api/v1/runs?machine=${MACS[0]}" | python3 -c 'import json,sys
j=json.load(sys.stdin); r=j["runs"][0]; print(j["total"], r["status"], r["label"], r["frames_received"] == r["frames_expected"])')
diag "machine 1: runs newest-status newest-label all-frames = $info"
set -- $info
check "full-DHCP mode: machine 1's new run is complete (label lab-full), its history holds 2 runs" \
	test "${1:-0}" = 2 -a "${2:-}" = complete -a "${3:-}" = lab-full -a "${4:-}" = True

cp "$DIR/lab-dnsmasq.log" "$OUTDIR/t-lab-pxe.dnsmasq.log" 2>/dev/null
