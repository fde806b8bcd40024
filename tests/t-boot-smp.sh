#!/bin/bash
# Boot tests of the payload: the image itself, then TCG with -smp 1/2/4/8
# (every CPU online with its APIC ID, TSC within 2% of the host's, exit
# status), a 2x2x2 topology, and KVM -smp 2 apic=x2apic where KVM is real.
# timeout: 600
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/boot.sh"
export XCB_QEMU_TIMEOUT=${XCB_QEMU_TIMEOUT:-60}
T=$(mktemp -d "$OUTDIR/t-boot-smp.XXXXXX")
trap 'rm -rf "$T"' EXIT

# --- the image ---
if [ ! -f "$XCB_ELF" ]; then
	notok "payload built ($XCB_ELF missing; run make -C firmware)"
	exit 1
fi
size=$(stat -c %s "$XCB_ELF")
diag "payload size $size bytes"
max=$(sed -n 's/^MAX_SIZE := //p' firmware/Makefile)
check "payload is within the firmware size budget ($size of ${max:-?} bytes)" test "$size" -le "${max:-0}"
check "payload is a 32-bit ELF (multiboot loaders reject ELF64)" \
	test "$(od -An -tx1 -j4 -N1 "$XCB_ELF" | tr -d ' ')" = 01
check "multiboot v1 header in the first 8 KiB" \
	bash -c "head -c 8192 '$XCB_ELF' | od -An -tx1 -v | tr -d ' \n' | grep -q 02b0ad1b"

host_khz=$(host_tsc_khz)
diag "host TSC ${host_khz} kHz"

# boot_smp N [QEMU args]: boots, asserts everything about an N-CPU machine.
boot_smp() {
	local n=$1 smparg=$2; shift 2
	local log=$T/smp$n.log rc
	qemu_direct "$log" "$smparg" "boot_only=1" "$@"
	rc=$?
	cp "$log" "$OUTDIR/t-boot-smp-$n.serial.log" 2>/dev/null
	check "-smp $smparg: exit status 1 (payload exit code 0), got $rc" test "$rc" -eq 1
	read -r online listed khz src mode <<<"$(summary_fields "$log")"
	check "-smp $smparg: $n/$n cpus online (got ${online:-?}/${listed:-?})" \
		test "${online:-0}" -eq "$n" -a "${listed:-0}" -eq "$n"
	local ids want
	ids=$(cpu_apics "$log" | awk '{print $2}' | sort -n | tr '\n' ' ')
	want=$(seq 0 $((n - 1)) | tr '\n' ' ')
	check "-smp $smparg: cpu lines 0..$((n-1)) online with APIC IDs {$want} (got {$ids})" \
		test "$ids" = "$want" -a "$(cpu_apics "$log" | awk '{print $1}' | tr '\n' ' ')" = "$want"
	check "-smp $smparg: tsc ${khz:-?} kHz ($src) within 2% of host ${host_khz} kHz" \
		within_pct "${khz:-0}" "$host_khz" 2
	check "-smp $smparg: no exception" bash -c "! grep -q EXCEPTION '$log'"
	check "-smp $smparg: selftest (4 KiB test window remap, one-shot APIC timer) ok" \
		grep -qE '^xcbench: selftest test-window ok, apic timer ok ' "$log"
}

if [ "$(accel)" = tcg ]; then
	for n in 1 2 4 8; do boot_smp $n $n; done
else
	for n in 1 2 4 8; do XCBENCH_ACCEL=tcg boot_smp $n $n; done
fi

# Topology: 2 packages x 2 cores x 2 threads -> APIC ID = pkg<<2 | core<<1 | thread.
log=$T/topo.log
XCBENCH_ACCEL=tcg qemu_direct "$log" "8,sockets=2,cores=2,threads=2" "boot_only=1"
rc=$?
check "2x2x2 topology: exit status 1, got $rc" test "$rc" -eq 1
bad=$(sed -nE 's/^xcbench: cpu [0-9]+ apic ([0-9]+) pkg ([0-9]+) core ([0-9]+) thread ([0-9]+) online$/\1 \2 \3 \4/p' "$log" |
	awk '{ if ($1 != $2*4 + $3*2 + $4) print }' | wc -l)
cnt=$(grep -cE '^xcbench: cpu [0-9]+ apic [0-9]+ pkg [01] core [01] thread [01] online$' "$log")
check "2x2x2 topology: 8 CPUs decode as pkg<<2|core<<1|thread (bad $bad, seen $cnt)" \
	test "$bad" -eq 0 -a "$cnt" -eq 8

# The PIT fallback (machines without an ACPI PM timer) is accurate too.
log=$T/pit.log
XCBENCH_ACCEL=tcg qemu_direct "$log" 2 "tsc=pit boot_only=1"
rc=$?
read -r online listed khz src mode <<<"$(summary_fields "$log")"
pit_ok() { [ "$rc" -eq 1 ] && [ "$src" = pit ] && within_pct "${khz:-0}" "$host_khz" 2; }
check "tsc=pit: exit 1 (got $rc), source pit (got $src), ${khz:-?} kHz within 2% of host ${host_khz} kHz" pit_ok

# KVM with x2APIC, only where KVM is the real thing.
if [ "$(accel)" = kvm ]; then
	log=$T/kvm.log
	qemu_direct "$log" 2 "apic=x2apic boot_only=1" -cpu host
	rc=$?
	read -r online listed khz src mode <<<"$(summary_fields "$log")"
	check "kvm -smp 2 apic=x2apic: exit 1 (got $rc), 2/2 online (got $online/$listed), apic $mode" \
		test "$rc" -eq 1 -a "${online:-0}" -eq 2 -a "${listed:-0}" -eq 2 -a "$mode" = x2apic
	check "kvm -smp 2: tsc ${khz:-?} kHz within 2% of host ${host_khz} kHz" within_pct "${khz:-0}" "$host_khz" 2
else
	skip "kvm -smp 2 apic=x2apic" "tools/qemu-accel says $(accel): no hardware-virtualization KVM here (x2APIC under TCG: t-x2apic.sh, t-boot-smp288.sh)"
fi
