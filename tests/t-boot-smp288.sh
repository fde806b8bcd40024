#!/bin/bash
# A big x2APIC machine under TCG: -smp 288 (APIC IDs up to 287, so x2APIC
# mode and 32-bit destinations; QEMU's IOMMU with interrupt remapping and
# extended interrupt mode, as real > 255-CPU boards have). Every CPU comes
# online with its own APIC ID (none taken for another that aliases it in 8
# bits), the IDs above 255 are reported, and the CPUs are grouped into 18
# x2APIC clusters of 16.
# timeout: 300
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/boot.sh"
T=$(mktemp -d "$OUTDIR/t-boot-smp288.XXXXXX")
trap 'rm -rf "$T"' EXIT
[ -f "$XCB_ELF" ] || { notok "payload built ($XCB_ELF missing)"; exit 1; }

log=$T/serial.log
# ap_timeout_ms: 288 TCG vCPU threads share this host's 2 cores with
# whatever else runs, and a vCPU can go unscheduled for over the default
# second; this suite checks the topology, not how fast APs come up. (APIC
# 256's failures here - "never finished its setup", "did not answer", online
# but deaf to kicks, ~1 boot in 15 under load - were not slowness: it was
# woken early by the start-up IPIs for 255, which every xAPIC-mode CPU takes
# for a broadcast; firmware/arch/smp.c start_ap now offers the stack only
# after its INIT and sends a second INIT-SIPI-SIPI to an AP nobody claimed.)
XCBENCH_ACCEL=tcg XCB_QEMU_TIMEOUT=240 qemu_direct "$log" 288 "boot_only=1 ap_timeout_ms=10000" -m 512 -cpu max \
	-device intel-iommu,intremap=on,eim=on
rc=$?
cp "$log" "$OUTDIR/t-boot-smp288.serial.log"
check "-smp 288: exit status 1 (payload exit code 0), got $rc" test "$rc" -eq 1
read -r online listed _ _ mode <<<"$(summary_fields "$log")"
check "288/288 cpus online in x2apic (got ${online:-?}/${listed:-?} ${mode:-?})" \
	test "${online:-0}" -eq 288 -a "${listed:-0}" -eq 288 -a "${mode:-}" = x2apic
cpu_apics "$log" >"$T/apics"
check "288 'online' lines" test "$(wc -l <"$T/apics")" -eq 288
check "288 distinct APIC IDs" test "$(cut -d' ' -f2 "$T/apics" | sort -u | wc -l)" -eq 288
check "APIC IDs above 255 reported (32 of them)" test "$(awk '$2 > 255' "$T/apics" | wc -l)" -eq 32
check "the ID each CPU reports is the one the MADT gave it" test -z "$(awk '$1 != $2' "$T/apics")"
check "18 x2APIC clusters" grep -qx 'xcbench: apic: 18 x2APIC clusters' "$log"
check "no MADT entry skipped" test -z "$(grep 'warning: MADT' "$log")"
check "every AP answered" test -z "$(grep 'did not answer' "$log")"
