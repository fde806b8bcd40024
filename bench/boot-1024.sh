#!/bin/bash
# bench/boot-1024.sh — the biggest machine the payload supports: -smp 1024
# (XCB_MAX_CPUS) under TCG with x2APIC, boot_only. Rows: CPUs online of
# listed, QEMU's own set-up time (start to the payload's first line, ~90 s
# for 1024 vCPUs), the payload's bring-up (first line to the summary),
# memory free before and after the APs' stacks, and the exit status. Too
# slow for make test (the suite must stay under 30 minutes on 2 cores).
# SeaBIOS, not qboot: with 1024 vCPUs qboot hands the multiboot loader no
# memory map (mmap_length 0), while SeaBIOS does; it also starts every AP
# itself first and leaves them in x2APIC mode, as big servers' firmware does.
. "$(dirname "$0")/lib.sh"
need "$XCB_ELF"
T=$(mktemp -d "$BOUT/boot-1024.XXXXXX")
N=${BENCH_BIG_SMP:-1024}
log=$T/serial.log
: >"$log"
t0=$(now)
timeout -k 5 900 qemu-system-x86_64 -accel tcg -M q35 -m 1024 -smp "$N" -cpu max \
	-device intel-iommu,intremap=on,eim=on -nic none -nographic -no-reboot \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
	-serial "file:$log" -monitor none -display none -kernel "$XCB_ELF" -append "boot_only=1" \
	</dev/null >/dev/null 2>&1 &
QPID=$!
PIDS+=("$QPID")
first=NA summary=NA
while kill -0 "$QPID" 2>/dev/null; do
	[ "$first" = NA ] && [ -s "$log" ] && first=$(echo "$(now) - $t0" | bc)
	[ "$summary" = NA ] && grep -aq 'cpus online, tsc' "$log" && summary=$(echo "$(now) - $t0" | bc)
	sleep 0.1
done
wait "$QPID"
rc=$?
total=$(echo "$(now) - $t0" | bc)
cp "$log" "$BOUT/boot-$N.serial.log"
sum=$(grep -a -m1 'cpus online, tsc' "$log" | sed 's/^xcbench: //')
mem=$(grep -a -m1 'MiB free for buffers' "$log" | sed -E 's/.*memory ([0-9]+) MiB usable, ([0-9]+) MiB free.*/\1 \2/')
after=$(grep -a -m1 'free after bring-up' "$log" | sed -E 's/.*, ([0-9]+) KiB of AP stacks, ([0-9]+) MiB free.*/\1 \2/')
boot=NA
[ "$first" != NA ] && [ "$summary" != NA ] && boot=$(echo "$summary - $first" | bc)
echo "### Boot at -smp $N (TCG, x2APIC, boot_only)"
echo
echo "| what | value |"
echo "|---|---|"
echo "| summary | ${sum:-none} |"
echo "| QEMU set-up (start to first console line) | ${first} s |"
echo "| payload: first line to summary (all APs up) | ${boot} s |"
echo "| total, to exit | ${total} s |"
echo "| memory usable / free at start | ${mem% *} MiB / ${mem#* } MiB |"
echo "| AP stacks / free after bring-up | ${after% *} KiB / ${after#* } MiB |"
echo "| exit status (1 = payload exit 0) | $rc |"
rm -rf "$T"
[ "$rc" -eq 1 ] && echo "$sum" | grep -q "^$N/$N cpus online"
