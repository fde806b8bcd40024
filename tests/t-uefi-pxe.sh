#!/bin/bash
# UEFI network boot end to end, through `xcbench vm --firmware uefi` (the
# command a developer runs): OVMF + QEMU's EFI iPXE ROM (romfile=
# /usr/lib/ipxe/qemu/efi-virtio.rom, then efi-e1000e.rom) → DHCP + TFTP script
# from QEMU user networking → the daemon's /boot.ipxe (${platform} = efi) →
# /firmware/xcbench.efi → the payload → a complete run over UDP. The same
# suite booted on BIOS (SeaBIOS, PXE) must give a CSV with the same columns
# and the same case set. Also: `--boot direct --firmware uefi` (OVMF -kernel),
# and the run's facts (API run page + runs list) name UEFI and the loader.
# timeout: 420
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/net.sh"
. "$(dirname "$0")/lib/uefi.sh"
net_require "UEFI PXE boot"
uefi_require "UEFI PXE boot"
[ -r /usr/lib/ipxe/qemu/efi-e1000e.rom ] || { skip "UEFI PXE boot" "EFI iPXE ROMs (ipxe-qemu) missing"; exit 0; }

PORT=$(free_port)
net_daemon_start uefi "$PORT" || { notok "xcbenchd starts"; exit 1; }
# reps=1: what is checked is the boot path and a complete run with the BIOS
# run's columns and case set, which one repetition gives as well as two.
SUITE=(--suite quick kinds=xcall reps=1 iters=20)

# vm NAME FIRST ARGS...: one machine (number FIRST), waits for its run.
vm() {
	local name=$1 first=$2; shift 2
	"$XCBENCH" --server "http://127.0.0.1:$PORT" vm --cpus 2 --accel tcg --wait --timeout 300 \
		--first "$first" --dir "$NET_DIR/$name" "$@" "${SUITE[@]}" >"$NET_DIR/$name.out" 2>&1
}
# run_of FIRST: the newest run of machine number FIRST.
run_of() {
	api "$PORT" "/api/v1/runs?machine=52:54:00:78:63:$(printf %02x "$1")" | json "j['runs'][0]['id'] if j['runs'] else ''"
}
console() { uefi_clean "$NET_DIR/$1/vm-$2.console.log" "$NET_DIR/$1.console"; cat "$NET_DIR/$1.console"; }

uefi_pxe() {
	local name=$1 nic=$2 first=$3 rom=$4 id
	vm "$name" "$first" --firmware uefi --nic "$nic"
	check "$name: xcbench vm --firmware uefi --nic $nic ends with every run complete" \
		grep -q 'run [0-9]* complete' "$NET_DIR/$name.out"
	check "$name: QEMU ran OVMF with the EFI iPXE ROM $rom" \
		bash -c "head -1 '$NET_DIR/$name/vm-$first.qemu.log' | grep -q 'OVMF_CODE_4M.fd' &&
			head -1 '$NET_DIR/$name/vm-$first.qemu.log' | grep -q 'romfile=$rom'"
	console "$name" "$first" >/dev/null
	check "$name: iPXE fetched the TFTP script, /boot.ipxe and xcbench.efi" \
		bash -c "grep -q 'tftp://10.0.2.2/boot.ipxe\\.\\.\\. ok' '$NET_DIR/$name.console' &&
			grep -q '/boot.ipxe?mac=.*\\.\\.\\. ok\\|/boot.ipxe\\.\\.\\. ok' '$NET_DIR/$name.console' &&
			grep -q 'http://10.0.2.2:$PORT/firmware/xcbench.efi\\.\\.\\. ok' '$NET_DIR/$name.console'"
	check "$name: the payload names its loader iPXE (EFI) and the firmware UEFI" \
		bash -c "grep -q '^xcbench: payload .* booting (loader \"iPXE (EFI)\")' '$NET_DIR/$name.console' &&
			grep -q '^xcbench: boot firmware UEFI ' '$NET_DIR/$name.console'"
	check "$name: the NIC runs on the BARs OVMF assigned (none placed by the payload)" \
		bash -c "grep -q '^net: ' '$NET_DIR/$name.console' && ! grep -q 'left unassigned by the firmware' '$NET_DIR/$name.console'"
	id=$(run_of "$first")
	check "$name: run ${id:-?} complete over UDP, every frame stored" run_complete_ok "$PORT" "${id:-0}"
	results_csv "$PORT" "${id:-0}" >"$NET_DIR/$name.csv"
	eval "ID_$name=\${id:-0}"
}
uefi_pxe virtio virtio 1 /usr/lib/ipxe/qemu/efi-virtio.rom
uefi_pxe e1000e e1000e 2 /usr/lib/ipxe/qemu/efi-e1000e.rom

# The BIOS run of the same suite, same CPUs: the reference CSV.
vm bios 3 --firmware bios
ID_bios=$(run_of 3)
check "bios: run ${ID_bios:-?} complete (the reference)" run_complete_ok "$PORT" "${ID_bios:-0}"
results_csv "$PORT" "${ID_bios:-0}" >"$NET_DIR/bios.csv"
# case_set CSV: the header, then every case's axes (kind..work_us), sorted.
case_set() { head -1 "$1"; tail -n +2 "$1" | cut -d, -f2-10 | sort -u; }
case_set "$NET_DIR/bios.csv" >"$NET_DIR/bios.cases"
for n in virtio e1000e; do
	rows=$(($(wc -l <"$NET_DIR/$n.csv") - 1))
	case_set "$NET_DIR/$n.csv" >"$NET_DIR/$n.cases"
	ncases=$(($(wc -l <"$NET_DIR/$n.cases") - 1))
	check "$n: CSV has results ($rows rows, $ncases cases) with the BIOS run's columns and case set" \
		test "$rows" -gt 0 -a "$ncases" -gt 0 -a "$(cat "$NET_DIR/$n.cases")" = "$(cat "$NET_DIR/bios.cases")"
done

# What the dashboard shows: the run page's facts and the runs list's.
facts=$(api "$PORT" "/api/v1/runs/$ID_virtio" | json "' '.join(j['facts'].get(k, '-') for k in ('boot_fw', 'uefi_rev', 'boot_fw_vendor', 'loader'))")
check "run page facts: boot firmware uefi, spec revision, vendor, loader ($facts)" \
	test "$facts" = "uefi 2.7 EDK II iPXE (EFI)"
list=$(api "$PORT" "/api/v1/runs?limit=10" | json "' '.join('%s:%s' % (r['id'], r['facts'].get('boot_fw', '-')) for r in j['runs'])")
check "runs list facts say uefi for the UEFI runs and bios for the BIOS one ($list)" \
	bash -c "grep -qw '$ID_virtio:uefi' <<<'$list' && grep -qw '$ID_e1000e:uefi' <<<'$list' && grep -qw '$ID_bios:bios' <<<'$list'"

# Direct boot on UEFI: OVMF runs xcbench.efi given as -kernel.
vm direct 4 --firmware uefi --boot direct
id=$(run_of 4)
check "uefi direct (xcbench vm --boot direct --firmware uefi): run ${id:-?} complete" run_complete_ok "$PORT" "${id:-0}"
check "uefi direct: QEMU got OVMF and -kernel xcbench.efi" \
	bash -c "head -1 '$NET_DIR/direct/vm-4.qemu.log' | grep -q \"'-kernel' '[^']*/xcbench.efi'\" &&
		head -1 '$NET_DIR/direct/vm-4.qemu.log' | grep -q OVMF_CODE_4M.fd"

# make run on UEFI: XCBENCH_FIRMWARE=uefi (tools/run-appliance.sh, as `make
# run` calls it after building), a daemon and database of its own.
RPORT=$(free_port)
XCBENCH_FIRMWARE=uefi XCBENCH_PORT=$RPORT XCBENCH_VAR=$NET_DIR/run-var XCBENCH_RUN_ONCE=1 XCBENCH_CPUS=2 \
	XCBENCH_SUITE=quick XCBENCH_VM_ARGS="--timeout 240 kinds=xcall reps=1 iters=20" \
	"$ROOT/tools/run-appliance.sh" >"$NET_DIR/make-run.out" 2>&1
rc=$?
check "XCBENCH_FIRMWARE=uefi make run: exits 0 with the run's dashboard URL (status $rc)" \
	bash -c "[ $rc = 0 ] && grep -q 'Dashboard of this run:  http://127.0.0.1:$RPORT/run.html?id=1' '$NET_DIR/make-run.out'"
check "XCBENCH_FIRMWARE=uefi make run: the machine booted UEFI PXE (OVMF, xcbench.efi)" \
	bash -c "grep -q 'UEFI PXE (OVMF, iPXE) boot' '$NET_DIR/make-run.out' &&
		grep -aq 'xcbench: boot firmware UEFI' '$NET_DIR/run-var/vm/vm-1.console.log'"

# A UEFI machine without COM1 (-serial none: no UART at all) still delivers
# its run over UDP: the payload's console waits for no absent port.
mkdir -p "$NET_DIR/tftp-nocom"
printf '#!ipxe\nchain http://10.0.2.2:%s/boot.ipxe?mac=${mac:hexhyp}\n' "$PORT" >"$NET_DIR/tftp-nocom/boot.ipxe"
api "$PORT" /api/v1/jobs -X POST -H 'Content-Type: application/json' -o /dev/null \
	-d '{"mac": "52:54:00:78:63:09", "suite": "quick", "label": "no-com1", "params": {"kinds": "xcall", "reps": "1", "iters": "20"}}'
# shellcheck disable=SC2046
timeout -k 5 180 qemu-system-x86_64 -accel tcg -M q35 -m 256 -smp 2 -display none -no-reboot \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 -serial none -monitor none $(ovmf_args "$NET_DIR/nocom.vars") \
	-netdev "user,id=n0,tftp=$NET_DIR/tftp-nocom,bootfile=boot.ipxe" \
	-device virtio-net-pci,netdev=n0,mac=52:54:00:78:63:09,romfile=/usr/lib/ipxe/qemu/efi-virtio.rom,bootindex=1 \
	</dev/null >/dev/null 2>&1
rc=$?
id=$(run_of 9)
check "no COM1: the payload ended QEMU with status 0 (QEMU status $rc)" test "$rc" = 1
check "no COM1: run ${id:-?} complete over UDP" run_complete_ok "$PORT" "${id:-0}"
