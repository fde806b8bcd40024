#!/bin/bash
# bench/boot-1024.sh — the biggest machines the payload supports, under TCG
# with x2APIC, boot_only: -smp 1024 (XCB_MAX_CPUS): every CPU online; and
# -smp 1032, past the limit: the first 1024 run and the console says
# "1024 of 1032 CPUs used (limit 1024)". Rows: the summary, QEMU's own set-up
# time (start to the payload's first line, ~90 s for 1024 vCPUs), the
# payload's bring-up (first line to the summary), memory free before and
# after the APs' stacks, the exit status. Too slow for make test (the suite
# must stay under 30 minutes on 2 cores).
# SeaBIOS, not qboot: with this many vCPUs qboot hands the multiboot loader
# no memory map (mmap_length 0); SeaBIOS does, and it starts every AP itself
# first and hands over in x2APIC mode, as big servers' firmware does.
. "$(dirname "$0")/lib.sh"
need "$XCB_ELF"
T=$(mktemp -d "$BOUT/boot-1024.XXXXXX")
fail=0

# boot_big N: one boot and its table; returns 0 when it went as expected.
boot_big() {
	local n=$1 log=$T/serial-$1.log first=NA summary=NA t0 rc total sum mem after boot limit
	# The console through a pipe that stamps each line with the time it came
	# (the payload exits right after its summary: polling a file misses it).
	t0=$(now)
	timeout -k 5 900 qemu-system-x86_64 -accel tcg -M q35 -m 1024 -smp "$n" -cpu max \
		-device intel-iommu,intremap=on,eim=on -nic none -display none -no-reboot \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
		-serial stdio -monitor none -kernel "$XCB_ELF" -append "boot_only=1" </dev/null 2>/dev/null |
		$PY -c 'import sys, time
for raw in sys.stdin.buffer:
    sys.stdout.write("%.3f %s" % (time.time(), raw.decode("latin-1")))
    sys.stdout.flush()' >"$log.ts"
	rc=${PIPESTATUS[0]}
	total=$(echo "$(now) - $t0" | bc)
	cut -d' ' -f2- "$log.ts" >"$log"
	stamp() { grep -a -m1 "$1" "$log.ts" | cut -d' ' -f1; }
	local tf ts
	tf=$(stamp 'xcbench: payload')
	ts=$(stamp 'cpus online, tsc')
	[ -n "$tf" ] && first=$(echo "$tf - $t0" | bc)
	[ -n "$tf" ] && [ -n "$ts" ] && summary=$(echo "$ts - $tf" | bc)
	cp "$log" "$BOUT/boot-$n.serial.log"
	sum=$(grep -a -m1 'cpus online, tsc' "$log" | sed 's/^xcbench: //')
	mem=$(grep -a -m1 'MiB free for buffers' "$log" | sed -E 's/.*memory ([0-9]+) MiB usable, ([0-9]+) MiB free.*/\1 \2/')
	after=$(grep -a -m1 'free after bring-up' "$log" | sed -E 's/.*, ([0-9]+) KiB of AP stacks, ([0-9]+) MiB free.*/\1 \2/')
	limit=$(grep -a -m1 'CPUs used (limit' "$log" | sed 's/^xcbench: warning: //')
	boot=$summary
	# bc prints ".331302836": two decimals, a leading zero; a stamp that
	# never came is n/a (bench/run-all fails a figure that reads so).
	secs() { case $1 in ''|NA) echo n/a ;; *) LC_NUMERIC=C printf '%.2f' "$1" ;; esac; }
	first=$(secs "$first") boot=$(secs "$boot") total=$(secs "$total")
	echo "### Boot at -smp $n (TCG, x2APIC, SeaBIOS, boot_only)"
	echo
	echo "| what | value |"
	echo "|---|---|"
	echo "| summary | ${sum:-none} |"
	echo "| limit line | ${limit:-none} |"
	echo "| QEMU set-up (start to the payload's first line) | ${first} s |"
	echo "| payload: first line to summary (all APs up) | ${boot} s |"
	echo "| total, to exit | ${total} s |"
	echo "| memory usable / free at start | ${mem% *} MiB / ${mem#* } MiB |"
	echo "| AP stacks / free after bring-up | ${after% *} KiB / ${after#* } MiB |"
	echo "| exit status (1 = payload exit 0) | $rc |"
	echo
	[ "$rc" -eq 1 ] || return 1
	if [ "$n" -le 1024 ]; then
		echo "$sum" | grep -q "^$n/$n cpus online"
	else
		echo "$sum" | grep -q "^1024/1024 cpus online" && [ "$limit" = "1024 of $n CPUs used (limit 1024)" ]
	fi
}

boot_big "${BENCH_BIG_SMP:-1024}" || fail=1
[ -n "${BENCH_BIG_SKIP_LIMIT:-}" ] || boot_big 1032 || fail=1
rm -rf "$T"
exit $fail
