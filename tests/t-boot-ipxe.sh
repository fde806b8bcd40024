#!/bin/bash
# The shipped image boots through iPXE's multiboot loader too (not only QEMU
# -kernel): SeaBIOS + QEMU's e1000 iPXE ROM, TFTP from QEMU's user-mode
# network (no host network involved), "kernel ... boot_only=1; boot".
# timeout: 180
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/boot.sh"
T=$(mktemp -d "$OUTDIR/t-boot-ipxe.XXXXXX")
trap 'rm -rf "$T"' EXIT
[ -f "$XCB_ELF" ] || { notok "payload built ($XCB_ELF missing)"; exit 1; }
if [ ! -f /usr/share/qemu/pxe-e1000.rom ] && [ ! -f /usr/lib/ipxe/qemu/pxe-e1000.rom ] &&
	[ ! -f /usr/lib/ipxe/qemu/efi-e1000.rom ]; then
	skip "boot through iPXE" "no iPXE ROM for QEMU's e1000 (package ipxe-qemu)"
	exit 0
fi
cp "$XCB_ELF" "$T/xcbench.elf"
printf '#!ipxe\nkernel tftp://10.0.2.2/xcbench.elf boot_only=1\nboot\n' >"$T/boot.ipxe"
log=$T/serial.log
timeout -k 5 120 qemu-system-x86_64 -accel tcg -M q35 -m 256 -smp 2 -nographic -no-reboot \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
	-netdev "user,id=n0,tftp=$T,bootfile=boot.ipxe" -device e1000,netdev=n0 -boot n \
	-serial "file:$log" -monitor none -display none </dev/null >/dev/null 2>&1
rc=$?
cp "$log" "$OUTDIR/t-boot-ipxe.serial.log"
check "iPXE boot: exit status 1 (payload exit code 0), got $rc" test "$rc" -eq 1
check "iPXE boot: the payload names iPXE as its loader" grep -qE '^xcbench: payload .* \(loader "iPXE' "$log"
read -r online listed khz src mode <<<"$(summary_fields "$log")"
check "iPXE boot: 2/2 cpus online (got ${online:-?}/${listed:-?})" test "${online:-0}" -eq 2 -a "${listed:-0}" -eq 2
check "iPXE boot: the command line arrived" grep -qx 'xcbench: cmdline "boot_only=1"' "$log"
