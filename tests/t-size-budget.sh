#!/bin/bash
# t-size-budget.sh — what a user sees when an algorithm of their own pushes an
# image over firmware/Makefile's MAX_SIZE: in a temporary copy of the tree,
# xcall/mine.c (the guide's template, docs/ADDING-AN-ALGORITHM.md, plus an
# incompressible table just large enough) is built with the guide's step-3
# target. The build must fail with ONE line naming the image, its size, the
# budget and what to do (make MAX_SIZE=...), leave no over-budget image
# behind (for BIOS and UEFI alike), then build with the MAX_SIZE the line
# gives, and that image boot: the budget is a budget, not a loader limit.
# (Before, the build passed with a warning among its lines and t-boot-smp.sh
# failed later, saying only "within the firmware size budget".)
# timeout: 600
. "$(dirname "$0")/lib/tap.sh"
export XCB_QEMU_TIMEOUT=${XCB_QEMU_TIMEOUT:-120}
T=$(mktemp -d "$OUTDIR/size-budget.XXXXXX")
trap 'rm -rf "$T"' EXIT

max=$(sed -n 's/^MAX_SIZE := //p' "$ROOT/firmware/Makefile")
for img in xcbench.elf xcbench.efi; do
	[ -f "$ROOT/firmware/build/$img" ] || { notok "firmware/build/$img built (run make -C firmware)"; exit 1; }
done
# The copy: what git tracks plus new files, and the build as it is (so only
# the new algorithm compiles and the images relink).
(cd "$ROOT" && git ls-files -co --exclude-standard firmware proto) >"$T/files"
tar -C "$ROOT" -cf - -T "$T/files" | tar -C "$T" -xf -
cp -a "$ROOT/firmware/build" "$T/firmware/build"
F=$T/firmware
elf=$(stat -c %s "$F/build/xcbench.elf") efi=$(stat -c %s "$F/build/xcbench.efi")
diag "as built: xcbench.elf $elf, xcbench.efi $efi bytes; budget $max"

# mine.c: the template renamed (guide step 1) and a table of random bytes
# its init reads, 1.5 KiB more than the larger image's headroom: both go
# over (random bytes do not compress).
bulk=$((max - (elf < efi ? elf : efi) + 1536))
cp "$F/xcall/lockless.c" "$F/xcall/mine.c"
sed -i 's/lockless/mine/g' "$F/xcall/mine.c"
python3 - "$F/xcall/mine.c" "$bulk" <<'PY'
import random, sys
path, n = sys.argv[1], int(sys.argv[2])
random.seed(7)
table = ",".join(str(random.randrange(256)) for _ in range(n))
src = open(path).read()
head = "static int mine_init(unsigned ncpus, const unsigned *ipi)\n{\n"
assert head in src
src = src.replace(head, "static const unsigned char mine_bulk[%d] = { %s };\n%s"
                  "\tvolatile unsigned sum = 0;\n"
                  "\tfor (unsigned i = 0; i < sizeof(mine_bulk); i++)\n"
                  "\t\tsum += mine_bulk[i];\n" % (n, table, head), 1)
open(path, "w").write(src)
PY

# over_budget IMAGE: the guide's kind of make line for that image alone, which
# must fail with one line about it.
over_budget() {
	local img=$1 out=$T/make-$1.out
	make -s -C "$F" "build/$img" >"$out" 2>&1
	rc=$?
	line=$(grep -E "^firmware: build/$img is [0-9]+ bytes" "$out")
	diag "$line"
	check "$img over the budget: the build fails (rc $rc)" [ "$rc" -ne 0 ]
	check "$img over the budget: one line says so ($(grep -c '' "$out") lines of output)" \
		[ "$(grep -c "over the $max-byte image size budget" "$out")" -eq 1 ]
	check "$img over the budget: the line names the image, its size, the budget and the way to raise it" \
		grep -qE "^firmware: build/$img is [0-9]+ bytes, over the $max-byte image size budget by [0-9]+: make it smaller, or raise the budget \(a budget, not a loader limit\): make MAX_SIZE=[0-9]+ for this build, or MAX_SIZE in firmware/Makefile$" <<<"$line"
	local size
	size=$(sed -nE 's/^firmware: [^ ]+ is ([0-9]+) bytes.*/\1/p' <<<"$line")
	check "$img over the budget: its size in the line ($size) is over $max" [ "${size:-0}" -gt "$max" ]
	check "$img over the budget: no image left behind to boot by mistake" [ ! -e "$F/build/$img" ]
	# make's own "*** ... Error 1" / "Deleting file" lines follow it; no
	# compiler or linker complaint does
	local other
	other=$(grep -iE 'error|warning|\*\*\*' "$out" | grep -v "image size budget" | grep -vE '^make(\[[0-9]+\])?: \*\*\* ')
	check "$img over the budget: no other error or warning (${other:-none})" [ -z "$other" ]
	sed 's/^/#   /' "$out" | grep -v '^#     [A-Z]' | head -n 5
	want=$(sed -nE 's/.* make MAX_SIZE=([0-9]+) for this build.*/\1/p' <<<"$line")
}
over_budget xcbench.elf
want_elf=$want
over_budget xcbench.efi
want_efi=$want
raise=$((want_elf > want_efi ? want_elf : want_efi))

# The line's own advice: both images build, and the BIOS one boots.
make -s -C "$F" MAX_SIZE="$raise" build/xcbench.elf build/xcbench.efi >"$T/make-raised.out" 2>&1
rc=$?
check "make MAX_SIZE=$raise (the line's advice) builds both images (rc $rc)" \
	[ "$rc" -eq 0 ] && [ -f "$F/build/xcbench.elf" ] && [ -f "$F/build/xcbench.efi" ]
XCB_ELF=$F/build/xcbench.elf qemu_direct "$T/boot.log" 1 "boot_only=1"
rc=$?
check "the image over the default budget boots (a budget, not a loader limit; qemu $rc)" \
	[ "$rc" -eq 1 ] && grep -q '^xcbench: exit 0' "$T/boot.log"
check "and carries the algorithm and its table" \
	bash -c "nm '$F/build/xcbench64.elf' | grep -qw xcall_mine && nm '$F/build/xcbench64.elf' | grep -qw mine_bulk"
