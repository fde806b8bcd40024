#!/bin/bash
# UEFI direct boot of xcbench.efi under OVMF (TCG): the image itself (PE32+
# EFI application, within firmware/Makefile's MAX_SIZE), then -smp 1/2/4 — every CPU online with
# its APIC ID, TSC within 2 % of the host's, exit status, the firmware facts
# (UEFI, vendor, RSDP from the configuration table) — crash=pf reported
# with a non-zero status, and a boot from a FAT ESP through the UEFI shell
# where ExitBootServices refuses a stale map key twice.
# timeout: 400
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/boot.sh"
. "$(dirname "$0")/lib/uefi.sh"
uefi_require "UEFI direct boot"
export XCB_QEMU_TIMEOUT=${XCB_QEMU_TIMEOUT:-120}
T=$(mktemp -d "$OUTDIR/t-uefi-boot.XXXXXX")
trap 'rm -rf "$T"' EXIT

size=$(stat -c %s "$XCB_EFI")
diag "xcbench.efi $size bytes"
max=$(sed -n 's/^MAX_SIZE := //p' firmware/Makefile)
check "xcbench.efi is within the firmware size budget ($size of ${max:-?} bytes)" test "$size" -le "${max:-0}"
pe_ok() {
	python3 - "$XCB_EFI" <<'PY'
import struct, sys
b = open(sys.argv[1], "rb").read()
pe = struct.unpack_from("<I", b, 0x3c)[0]
machine, = struct.unpack_from("<H", b, pe + 4)
magic, = struct.unpack_from("<H", b, pe + 24)
subsystem, = struct.unpack_from("<H", b, pe + 24 + 68)
sys.exit(not (b[:2] == b"MZ" and b[pe:pe + 4] == b"PE\0\0" and machine == 0x8664
              and magic == 0x20b and subsystem == 10))
PY
}
check "xcbench.efi is a PE32+ x86-64 EFI application (MZ, PE, 0x8664, 0x20b, subsystem 10)" pe_ok

host_khz=$(host_tsc_khz)
diag "host TSC ${host_khz} kHz"

for n in 1 2 4; do
	log=$T/smp$n.log
	qemu_uefi "$log" "$n" "boot_only=1"
	rc=$?
	cp "$log" "$OUTDIR/t-uefi-boot-$n.serial.log" 2>/dev/null
	check "uefi -smp $n: exit status 1 (payload exit code 0), got $rc" \
		test "$rc" -eq 1 -a "$(grep -c '^xcbench: exit 0$' "$log")" -eq 1
	read -r online listed khz src mode <<<"$(summary_fields "$log")"
	check "uefi -smp $n: $n/$n cpus online (got ${online:-?}/${listed:-?})" \
		test "${online:-0}" -eq "$n" -a "${listed:-0}" -eq "$n"
	ids=$(cpu_apics "$log" | awk '{print $2}' | sort -n | tr '\n' ' ')
	want=$(seq 0 $((n - 1)) | tr '\n' ' ')
	check "uefi -smp $n: cpus 0..$((n-1)) online with APIC IDs {$want} (got {$ids})" test "$ids" = "$want"
	check "uefi -smp $n: tsc ${khz:-?} kHz ($src) within 2% of host ${host_khz} kHz" \
		within_pct "${khz:-0}" "$host_khz" 2
	check "uefi -smp $n: no exception" bash -c "! grep -q EXCEPTION '$log'"
	if [ "$n" = 2 ]; then
		check "uefi: the facts say UEFI, the vendor (EDK II) and the RSDP from the configuration table" \
			grep -qE '^xcbench: boot firmware UEFI [0-9]+\.[0-9]+, "EDK II" rev 0x[0-9a-f]+, rsdp 0x[0-9a-f]+$' "$log"
		check "uefi: ACPI found through that RSDP (MADT lists $n cpus)" \
			grep -qE "^xcbench: acpi rsdp 0x[0-9a-f]+ rev 2, madt (.* )?$n cpus listed" "$log"
		check "uefi: the command line came from LoadOptions (cmdline \"boot_only=1\")" \
			grep -qx 'xcbench: cmdline "boot_only=1"' "$log"
	fi
done

# crash=pf: the exception report, then exit code 3 -> QEMU status 7.
log=$T/crash.log
qemu_uefi "$log" 2 "boot_only=1 crash=pf crash_cpu=1"
rc=$?
cp "$log" "$OUTDIR/t-uefi-boot-crash.serial.log" 2>/dev/null
check "uefi crash=pf on cpu 1: non-zero exit, QEMU status 7 (payload exit 3), got $rc" test "$rc" -eq 7
check "uefi crash=pf: the page fault is reported (vector 14, cpu 1)" \
	grep -qE '^xcbench: EXCEPTION .*\(vector 14\) error 0x[0-9a-f]+ cpu 1 ' "$log"

# From a FAT ESP through the UEFI shell (startup.nsh), with the firmware's
# ExitBootServices refusing a stale map key twice (firmware/tests/
# efi_stalekey.c changes the map right before each of the next two calls):
# the payload maps again, exits at the third try and boots.
ESP=$T/esp
mkdir -p "$ESP"
cp "$XCB_EFI" "$ESP/xcbench.efi"
cp "$ROOT/firmware/build/efi-stalekey.efi" "$ESP/stalekey.efi"
printf '%s\r\n' 'fs0:' 'stalekey.efi' 'xcbench.efi boot_only=1' >"$ESP/startup.nsh"
log=$T/stale.log

# shellcheck disable=SC2046
timeout -k 5 "$XCB_QEMU_TIMEOUT" qemu-system-x86_64 -accel tcg -M q35 -m 256 -smp 2 -nographic -no-reboot \
	$(ovmf_args "$T/stale.vars") -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
	-serial "file:$log.raw" -monitor none -display none -net none \
	-drive "file=fat:rw:$ESP,format=raw,media=disk" </dev/null >/dev/null 2>&1
rc=$?
uefi_clean "$log.raw" "$log"
cp "$log" "$OUTDIR/t-uefi-boot-stalekey.serial.log" 2>/dev/null
check "ESP + shell, stale map key twice: the harness is in place" \
	grep -q '^efi-stalekey: the next 2 ExitBootServices calls will see a stale key' "$log"
check "stale map key: ExitBootServices retried, ok at the third attempt" \
	grep -qx 'xcbench: efi: ExitBootServices ok at attempt 3 (map key stale 2 times)' "$log"
read -r online listed khz src mode <<<"$(summary_fields "$log")"
check "stale map key: then a normal boot (2/2 online, got ${online:-?}/${listed:-?}; exit status $rc)" \
	test "$rc" -eq 1 -a "${online:-0}" -eq 2 -a "$(grep -c '^xcbench: exit 0$' "$log")" -eq 1
check "the direct boots left the firmware at the first attempt" \
	grep -qx 'xcbench: efi: ExitBootServices ok at attempt 1 (map key stale 0 times)' "$T/smp2.log"
