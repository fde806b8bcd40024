#!/bin/bash
# A lost kick IPI never hangs the payload (firmware/arch/smp.c): with the test
# key kick_drop=N the first kick to CPU N is not sent, after that CPU has
# checked for a job and is halting, so only a second kick wakes it: the boot
# check (one call on every CPU) still runs everywhere and says it kicked
# again. With every kick to it lost (kick_drops=1000) the waiter takes the job
# back after 10 s: the boot check fails with an error naming the CPU, the
# job never ran there, and the payload exits instead of waiting for ever.
# Before it gives up it asks that CPU where it is with an NMI (arch/
# nmi_probe.c): halted in its idle loop with interrupts on and no kick
# requested (the kicks were never sent), which the probe line must say.
# timeout: 240
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/boot.sh"
export XCB_QEMU_TIMEOUT=${XCB_QEMU_TIMEOUT:-90}
export XCBENCH_ACCEL=tcg
T=$(mktemp -d "$OUTDIR/t-smp-kick.XXXXXX")
trap 'rm -rf "$T"' EXIT
need_payload

qemu_direct "$T/one.log" 4 "boot_only=1 kick_drop=2"
rc=$?
cp "$T/one.log" "$OUTDIR/t-smp-kick-one.serial.log"
check "one kick lost: exit 0 (got QEMU status $rc)" test "$rc" -eq 1
check "one kick lost: the boot check kicked again" \
	grep -qE '^xcbench: boot check: [1-9][0-9]* job kicks sent again \(jobs left unclaimed\)$' "$T/one.log"
check "one kick lost: no error" test -z "$(grep 'xcbench: error' "$T/one.log")"

qemu_direct "$T/all.log" 4 "boot_only=1 kick_drop=3 kick_drops=1000"
rc=$?
cp "$T/all.log" "$OUTDIR/t-smp-kick-all.serial.log"
check "every kick lost: exit code 1, not a hang (got QEMU status $rc)" test "$rc" -eq 3
check "every kick lost: the error names cpu 3 and the bound" \
	grep -qE '^xcbench: error: cpu 3 \(apic 3\) did not take a job in 10000 ms \([0-9]+ kicks\)$' "$T/all.log"
check "every kick lost: the job taken back never ran (3 of 4 answered)" \
	grep -qx 'xcbench: error: only 3 of 4 cpus ran a test call' "$T/all.log"
probe=$(grep -m1 '^xcbench: cpu 3 (apic 3) NMI probe: ' "$T/all.log")
diag "$probe"
check "every kick lost: the NMI probe finds cpu 3 with interrupts on, nothing in service or requested" \
	grep -qE '^xcbench: cpu 3 \(apic 3\) NMI probe: rip 0x[0-9a-f]+, interrupts on, in service none, requested none, ppr 0x00$' <<<"$probe"
# Its rip is in the AP's idle loop, which is inlined into ap_entry (the
# payload's own ELF, loaded at its link address).
elf=$ROOT/firmware/build/xcbench64.elf
range=$(nm -n "$elf" | awk '$3 == "ap_entry" { s = $1; next } s != "" { print s, $1; exit }')
in_idle() {
	local rip=${probe#*rip 0x}
	rip=$((16#${rip%%,*}))
	[ -n "$range" ] && [ "$rip" -ge "$((16#${range% *}))" ] && [ "$rip" -lt "$((16#${range#* }))" ]
}
check "every kick lost: ... and its rip lies in ap_entry's idle loop ($range)" in_idle
