#!/bin/bash
# UEFI direct boot of xcbench.efi under OVMF (TCG): the image itself (PE32+
# EFI application, at most 64 KiB), then -smp 1/2/4 — every CPU online with
# its APIC ID, TSC within 2 % of the host's, exit status, the firmware facts
# (UEFI, vendor, RSDP from the configuration table) — and crash=pf reported
# with a non-zero status.
# timeout: 400
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/boot-lib.sh"
. "$(dirname "$0")/uefi-lib.sh"
uefi_require "UEFI direct boot"
export XCB_QEMU_TIMEOUT=${XCB_QEMU_TIMEOUT:-120}
T=$(mktemp -d "$OUTDIR/t-uefi-boot.XXXXXX")
trap 'rm -rf "$T"' EXIT

size=$(stat -c %s "$XCB_EFI")
diag "xcbench.efi $size bytes"
check "xcbench.efi is at most 64 KiB ($size bytes)" test "$size" -le 65536
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
			grep -qE "^xcbench: acpi rsdp 0x[0-9a-f]+ rev 2, madt $n cpus listed" "$log"
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
