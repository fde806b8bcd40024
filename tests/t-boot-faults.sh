#!/bin/bash
# Faults and bad input at boot: a deliberate page fault on the BSP and an
# invalid opcode on an AP print the exception report and exit non-zero (never
# hang); a bad command-line value is an error naming the key and ends the
# boot with code 2 (the AP bring-up's keys and the test faults' too; a
# one-word key's with the nearest word, tsc= too); an unknown key
# only warns; apic=x2apic without x2APIC is refused.
# timeout: 300
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/boot.sh"
export XCB_QEMU_TIMEOUT=${XCB_QEMU_TIMEOUT:-60}
export XCBENCH_ACCEL=tcg
T=$(mktemp -d "$OUTDIR/t-boot-faults.XXXXXX")
trap 'rm -rf "$T"' EXIT
need_payload

# boot NAME SMP CMDLINE: one boot; its console in $log (T/NAME.log), QEMU's
# status in $rc.
boot() {
	log=$T/$1.log
	qemu_direct "$log" "$2" "$3"
	rc=$?
}

# crash=pf on the BSP: reads PAGING_TEST_WINDOW+0x1000, which nothing maps.
boot pf 2 "crash=pf boot_only=1"
cp "$log" "$OUTDIR/t-boot-faults-pf.serial.log"
check "crash=pf: exits with code 3 (QEMU status 7), not a hang (got $rc)" test "$rc" -eq 7
check "crash=pf: report names #PF, vector 14, cpu 0" \
	grep -qE '^xcbench: EXCEPTION #PF page fault \(vector 14\) error 0x[0-9a-f]+ cpu 0 apic 0$' "$log"
check "crash=pf: report gives RIP and CR2 = the faulting address" \
	grep -qE '^xcbench:   rip 0x[0-9a-f]{16} cr2 0x0000008000001000 ' "$log"

# crash=ud on an AP: the AP reports and parks, the BSP notices and exits 3.
boot ud 2 "crash=ud crash_cpu=1 boot_only=1"
cp "$log" "$OUTDIR/t-boot-faults-ud.serial.log"
check "crash=ud on cpu 1: exits with code 3 (got $rc)" test "$rc" -eq 7
check "crash=ud on cpu 1: report names #UD on cpu 1" \
	grep -qE '^xcbench: EXCEPTION #UD invalid opcode \(vector 6\) error 0x0 cpu 1 apic 1$' "$log"
check "crash=ud on cpu 1: the BSP saw the AP crash" grep -qx 'xcbench: cpu 1 crashed (reported above)' "$log"

# A bad value is an error that names the key; exit code 2 (status 5).
boot bad 1 "apic=bogus boot_only=1"
check "apic=bogus: exit code 2 (got $rc)" test "$rc" -eq 5
check "apic=bogus: error names the key and value" \
	grep -qF "xcbench: error: cmdline key 'apic': unknown value 'bogus' (one of: auto xapic x2apic)" "$log"
# One-word keys say what a word list's value says (lib/cmdline.c
# cmdline_refuse): the nearest word too. tsc= was read as pit, unrefused.
boot badword 1 "end=rebot tsc=hpet boot_only=1"
check "end=rebot tsc=hpet: exit code 2 (got $rc; tsc=hpet measured by the PIT)" test "$rc" -eq 5
check "end=rebot: did you mean 'reboot'" grep -qF \
	"xcbench: error: cmdline key 'end': unknown value 'rebot'; did you mean 'reboot'? (one of: exit halt reboot)" "$log"
check "tsc=hpet: refused, its words listed" grep -qF \
	"xcbench: error: cmdline key 'tsc': unknown value 'hpet' (one of: auto cpuid pmtimer pit)" "$log"
boot badnum 1 "ap_timeout_ms=12q boot_only=1"
check "ap_timeout_ms=12q: error names the key" grep -qF "xcbench: error: cmdline key 'ap_timeout_ms': bad number '12q'" "$log"
check "ap_timeout_ms=12q: exit code 2 (got $rc; it was 0, the default taken)" test "$rc" -eq 5
boot badnum2 1 "boot_only=1 kick_drops=99999999999999999999"
check "kick_drops past 2^64: exit code 2, key named (got $rc)" \
	bash -c "test $rc -eq 5 && grep -qF \"cmdline key 'kick_drops': bad number\" '$log'"
# crash_cpu is checked whole: 4294967297 was cpu 1 (truncated to 32 bits).
boot badcpu 2 "crash=ud crash_cpu=4294967297 boot_only=1"
check "crash_cpu=4294967297: not online, exit code 2, nothing crashed (got $rc)" \
	bash -c "test $rc -eq 5 && grep -qF \"cmdline key 'crash_cpu': cpu 4294967297 is not online\" '$log' && ! grep -q EXCEPTION '$log'"
# The test faults' keys (bench/faults.c) too: a bad number, a CPU that is
# not online, ipidrop_cpu without its site. Each was taken as "no fault",
# the run passing a fault test whose fault never happened (exit 0).
boot badfault 2 "suite=quick kinds=raw reps=1 hang_cpu=x fwddrop_cpu=12abc dupskip_cpu=2 ipidrop_cpu=1"
check "bad test-fault keys: exit code 2 (got $rc; it was 0, no fault injected)" test "$rc" -eq 5
for e in "'hang_cpu': bad number 'x'" "'fwddrop_cpu': bad number '12abc'" \
	"'dupskip_cpu': cpu 2 is not online (cpus 0-1)" "'ipidrop_cpu': needs ipidrop=SITE too"; do
	check "bad test-fault keys: the error names $e" grep -qF "xcbench: error: cmdline key $e" "$log"
done
check "bad test-fault keys: the run ends as a bad command line, nothing measured" \
	bash -c "grep -qF 'ERROR: bad command line' '$log' && ! grep -q '^# suite quick: ' '$log'"

# An unknown key warns and the boot carries on.
boot unknown 1 "no_such_key=1 boot_only=1"
check "unknown key: still exits 0 (got $rc)" test "$rc" -eq 1
check "unknown key: warning names it" grep -qF "xcbench: warning: unknown cmdline key 'no_such_key'" "$log"

# TCG has no x2APIC (QEMU 7.2): asking for it is refused, not ignored.
if grep -qE '^xcbench: hypervisor .*x2apic no' "$log"; then
	boot x2 1 "apic=x2apic boot_only=1"
	check "apic=x2apic without x2APIC: exit code 2 (got $rc) with a reason" \
		bash -c "test $rc -eq 5 && grep -q 'apic=x2apic but this CPU has no x2APIC' '$log'"
else
	skip "apic=x2apic refused without x2APIC" "this CPU model has x2APIC"
fi
