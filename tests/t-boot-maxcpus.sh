#!/bin/bash
# The MADT lists CPUs QEMU does not start (-smp 2,maxcpus=4): the present CPUs
# boot, the rest are reported "not online", and the payload still exits 0.
# timeout: 180
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/boot.sh"
export XCB_QEMU_TIMEOUT=${XCB_QEMU_TIMEOUT:-60}
T=$(mktemp -d "$OUTDIR/t-boot-maxcpus.XXXXXX")
trap 'rm -rf "$T"' EXIT
[ -f "$XCB_ELF" ] || { notok "payload built ($XCB_ELF missing)"; exit 1; }

log=$T/serial.log
XCBENCH_ACCEL=tcg qemu_direct "$log" "2,maxcpus=4" "boot_only=1"
rc=$?
cp "$log" "$OUTDIR/t-boot-maxcpus.serial.log"
check "exit status 1 (payload exit code 0), got $rc" test "$rc" -eq 1
check "cpu 0 apic 0 online" grep -qE '^xcbench: cpu 0 apic 0 pkg [0-9]+ core [0-9]+ thread [0-9]+ online$' "$log"
check "cpu 1 apic 1 online" grep -qE '^xcbench: cpu 1 apic 1 pkg [0-9]+ core [0-9]+ thread [0-9]+ online$' "$log"
check "cpu 2 apic 2 not online" grep -qx 'xcbench: cpu 2 apic 2 not online' "$log"
check "cpu 3 apic 3 not online" grep -qx 'xcbench: cpu 3 apic 3 not online' "$log"
read -r online listed khz src mode <<<"$(summary_fields "$log")"
check "summary says 2/4 cpus online (got ${online:-?}/${listed:-?})" test "${online:-0}" -eq 2 -a "${listed:-0}" -eq 4
