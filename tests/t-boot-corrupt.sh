#!/bin/bash
# A damaged BIOS image (xcbench.elf): bytes flipped inside the compressed
# payload, or the stream's last blocks zeroed, must stop in the loader
# (loader/unpack.c: the payload does not inflate to exactly what was built)
# with its message and exit code 1 — never jump into a half-written
# payload, never hang.
# timeout: 120
. "$(dirname "$0")/lib/tap.sh"
export XCB_QEMU_TIMEOUT=${XCB_QEMU_TIMEOUT:-60}
T=$(mktemp -d "$OUTDIR/t-boot-corrupt.XXXXXX")
trap 'rm -rf "$T"' EXIT
[ -f "$XCB_ELF" ] || { notok "image built ($XCB_ELF missing)"; exit 1; }

# The compressed payload is most of the file: it runs from the loader's
# few KiB after the headers to the section table's ~100 bytes at the end.
python3 - "$XCB_ELF" "$T" <<'PY'
import sys
img = open(sys.argv[1], "rb").read()
b = bytearray(img)
mid = len(b) // 2
for i in range(mid, mid + 16):
    b[i] ^= 0x5a
open(sys.argv[2] + "/flipped.elf", "wb").write(b)
b = bytearray(img)
b[-3000:-1000] = bytes(2000)
open(sys.argv[2] + "/zeroed.elf", "wb").write(b)
PY

for kind in flipped zeroed; do
	log=$T/$kind.log
	XCB_ELF=$T/$kind.elf qemu_direct "$log" 1 "boot_only=1"
	rc=$?
	cp "$log" "$OUTDIR/t-boot-corrupt-$kind.serial.log"
	check "$kind image: exits with code 1 (QEMU status 3), not a hang (got $rc)" test "$rc" -eq 3
	check "$kind image: the loader says the image is corrupt" \
		grep -qx 'xcbench: loader: payload does not inflate to what was built; image corrupt' "$log"
	check "$kind image: the payload never ran" sh -c "! grep -q '^xcbench: cmdline' '$log'"
done
