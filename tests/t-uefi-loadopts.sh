#!/bin/bash
# t-uefi-loadopts.sh - issue 21: UEFI LoadOptions are parsed as the firmware
# delivers them. OVMF's -kernel passes the -append text with no image name in
# front, so its first word is a key, not a name to drop: "bogus boot_only=1"
# is refused as an unknown key (the EFI path's rule for unknown keys), as the
# BIOS path names it (and warns), where the old parser dropped "bogus" unseen
# and booted with cmdline "boot_only=1". A line that starts with a key still
# boots with every key. (With an image name in front - the UEFI shell's
# "xcbench.efi boot_only=1 ..." - t-uefi-badinput.sh covers it.)
# timeout: 240
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/uefi.sh"
uefi_require "UEFI LoadOptions"
T=$(mktemp -d "$OUTDIR/uefi-loadopts.XXXXXX")
need_payload

# OVMF goes on to its boot menu after the image returns: wait for our error line,
# then stop the VM (bounded: 90 s).
XCB_QEMU_TIMEOUT=90 qemu_uefi "$T/bogus.log" 1 "bogus boot_only=1" &
QPID=$!
uefi_wait_for "$QPID" "$T/bogus.log.raw" "$T/bogus.log" '^xcbench: efi: error:' 90
pkill -P "$QPID" 2>/dev/null	# the timeout wrapper's qemu: ours, by parent id
wait "$QPID"
rc=$?
uefi_clean "$T/bogus.log.raw" "$T/bogus.log"
check "OVMF -append 'bogus boot_only=1': the first word is checked as a key" \
	grep -q "^xcbench: warning: unknown cmdline key 'bogus'" "$T/bogus.log"
check "... and refused before the payload boots (efi error line)" \
	grep -q '^xcbench: efi: error: unknown command-line key' "$T/bogus.log"
if grep -q '^xcbench: cmdline "boot_only=1"' "$T/bogus.log"; then
	notok "... never booted with 'bogus' dropped (qemu $rc)"
else
	ok "... never booted with 'bogus' dropped (qemu $rc)"
fi

XCB_QEMU_TIMEOUT=120 qemu_uefi "$T/good.log" 1 "boot_only=1 spin=pause"
rc=$?
check "OVMF -append 'boot_only=1 spin=pause': boots with both keys (qemu $rc)" \
	grep -q '^xcbench: cmdline "boot_only=1 spin=pause"' "$T/good.log"
check "... and ends ok (qemu $rc)" test "$rc" -eq 1

XCB_QEMU_TIMEOUT=60 qemu_direct "$T/bios.log" 1 "bogus boot_only=1"
check "BIOS -append 'bogus boot_only=1': 'bogus' named as an unknown key too" \
	grep -aq "^xcbench: warning: unknown cmdline key 'bogus'" "$T/bios.log"
