#!/bin/bash
# Bad input to xcbench.efi under OVMF (TCG), one boot into the UEFI shell
# (startup.nsh on a FAT ESP, the route a UEFI machine's own disk takes):
# an unknown LoadOptions key, a corrupt image (bytes flipped inside the
# compressed payload), a machine without an ACPI RSDP (firmware/tests/
# efi_noacpi.c removes it from the configuration table first), the payload's
# memory at 1 MiB already taken (efi_hold1m.c) and a truncated image. Each must print a clear message and return an EFI error
# status to the shell (which prints it: %lasterror%), never hang — the shell
# going on to the next line is the proof.
# timeout: 300
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/uefi.sh"
uefi_require "UEFI bad input"
T=$(mktemp -d "$OUTDIR/t-uefi-badinput.XXXXXX")
QPID=
trap '[ -n "$QPID" ] && kill "$QPID" 2>/dev/null; rm -rf "$T"' EXIT
ESP=$T/esp
mkdir -p "$ESP"
cp "$XCB_EFI" "$ESP/xcbench.efi"
cp "$ROOT/firmware/build/efi-noacpi.efi" "$ESP/noacpi.efi"
cp "$ROOT/firmware/build/efi-hold1m.efi" "$ESP/hold1m.efi"
size=$(stat -c %s "$XCB_EFI")
python3 - "$XCB_EFI" "$ESP/corrupt.efi" <<'PY'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
mid = len(b) // 2            # inside the DEFLATE payload (most of the image)
for i in range(mid, mid + 16):
    b[i] ^= 0x5a
open(sys.argv[2], "wb").write(b)
PY
head -c $((size / 2)) "$XCB_EFI" >"$ESP/trunc.efi"
# The shell stops a script when an image does not even load (the truncated
# one), so that case comes last.
printf '%s\r\n' 'fs0:' \
	'xcbench.efi boot_only=1 no_such_key=1' \
	'echo "xcbench-test: unknown-key status %lasterror%"' \
	'corrupt.efi boot_only=1' \
	'echo "xcbench-test: corrupt status %lasterror%"' \
	'noacpi.efi' \
	'xcbench.efi boot_only=1' \
	'echo "xcbench-test: no-rsdp status %lasterror%"' \
	'hold1m.efi' \
	'xcbench.efi boot_only=1' \
	'echo "xcbench-test: no-memory status %lasterror%"' \
	'trunc.efi boot_only=1' \
	'echo "xcbench-test: truncated status %lasterror%"' \
	'reset -s' >"$ESP/startup.nsh"

log=$T/shell.log
# shellcheck disable=SC2046
qemu-system-x86_64 -accel tcg -M q35 -m 256 -smp 1 -nographic -no-reboot \
	$(ovmf_args "$T/vars.fd") -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
	-serial "file:$log.raw" -monitor none -display none -net none \
	-drive "file=fat:rw:$ESP,format=raw,media=disk" </dev/null >/dev/null 2>&1 &
QPID=$!
# Wait for the last step's outcome (the shell's script error or our echo).
uefi_wait_for "$QPID" "$log.raw" "$log" '^(Script Error Status|xcbench-test: truncated status)' 250
sleep 1
kill "$QPID" 2>/dev/null
wait "$QPID" 2>/dev/null
QPID=
uefi_clean "$log.raw" "$log"
cp "$log" "$OUTDIR/t-uefi-badinput.serial.log"

status() { sed -nE "s/^xcbench-test: $1 status (0x[0-9A-Fa-f]+)$/\1/p" "$log" | head -1; }
s=$(status unknown-key)
check "unknown key: named, refused before ExitBootServices" \
	grep -q "^xcbench: warning: unknown cmdline key 'no_such_key'" "$log"
check "unknown key: clear error line" grep -q '^xcbench: efi: error: unknown command-line key' "$log"
check "unknown key: EFI_INVALID_PARAMETER returned to the shell (got ${s:-none})" test "${s^^}" = 0X2
s=$(status corrupt)
check "corrupt image: clear error line" \
	grep -q '^xcbench: efi: error: image truncated or corrupt' "$log"
check "corrupt image: EFI_CRC_ERROR returned (got ${s:-none})" test "${s^^}" = 0X1B
check "corrupt image: the payload never started (no boot line)" \
	bash -c "! grep -q '^xcbench: payload .* booting' '$log'"
s=$(status no-rsdp)
check "no RSDP: the harness removed it" grep -q '^efi-noacpi: ACPI RSDP entries removed' "$log"
check "no RSDP: clear error line" \
	grep -q '^xcbench: efi: error: no ACPI RSDP in the EFI configuration table' "$log"
check "no RSDP: EFI_NOT_FOUND returned (got ${s:-none})" test "${s^^}" = 0XE
s=$(status no-memory)
check "payload memory taken: the harness holds 1 MiB" grep -q '^efi-hold1m: the page at 1 MiB is taken' "$log"
check "payload memory taken: clear error line" \
	grep -q "^xcbench: efi: error: the payload's memory at 1 MiB is not free" "$log"
check "payload memory taken: AllocatePages' EFI_NOT_FOUND returned (got ${s:-none})" test "${s^^}" = 0XE
t=$(sed -nE 's/^(Script Error Status: .*|xcbench-test: truncated status .*)$/\1/p' "$log" | head -1)
check "truncated image: the firmware refuses it with an error status (${t:-nothing})" \
	bash -c "[ -n '$t' ] && ! grep -qx 'xcbench-test: truncated status 0x0' '$log'"
