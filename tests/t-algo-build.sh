#!/bin/bash
# t-algo-build.sh — an algorithm author's slips that `make` must stop, with a
# line saying what to do, before anything boots (firmware/xcall/check_algos.sh,
# run by firmware/Makefile): in a temporary copy of the tree, the guide's
# template (docs/ADDING-AN-ALGORITHM.md step 1: xcall/lockless.c renamed to
# xcall/mine.c) is built with the guide's step-3 make target after each of:
#   - its XCALL_ALGO() line left out (functions static, as in the template):
#     gcc's "'mine_init' defined but not used" comes with a line naming the
#     missing XCALL_ALGO(mine, ...);
#   - the same with its functions not static: the build passed without a
#     word, and algos=mine failed only at boot, as an unknown value;
#   - the template copied and not renamed (two algorithms named lockless):
#     ld's "multiple definition of `xcall_lockless'" becomes a line naming
#     both files;
#   - a reserved name (vector, a flush path's): init refused it at boot, now
#     the build does, in init's words;
#   - what the linked table says (tools/algo_decl.c): a name with a capital
#     or of 60 characters, a .desc missing, empty, of two lines or of 121
#     characters: refused at boot or by test_xcall, now by the build, in
#     init's words, and no payload ELF left to boot; a name starting with
#     a digit (gcc's error names no name) gets a line of its own;
# and the template as the guide has it builds (every shipped algorithm and
# the copy pass the checks); the guide quotes the lines as printed. Build
# only: no QEMU.
# timeout: 600
. "$(dirname "$0")/lib/tap.sh"
T=$(mktemp -d "$OUTDIR/algo-build.XXXXXX")
trap 'rm -rf "$T"' EXIT

[ -f "$ROOT/firmware/build/xcbench.elf" ] || { notok "firmware/build built (run make -C firmware)"; exit 1; }
# The copy: what git tracks plus new files, and the build as it is (so only
# the new file compiles and the payload relinks).
(cd "$ROOT" && git ls-files -co --exclude-standard firmware proto docs) >"$T/files"
tar -C "$ROOT" -cf - -T "$T/files" | tar -C "$T" -xf -
cp -a "$ROOT/firmware/build" "$T/firmware/build"
F=$T/firmware
M=$F/xcall/mine.c
template() { cp "$F/xcall/lockless.c" "$M" && sed -i 's/lockless/mine/g' "$M"; }
# build: the guide's step-3 payload target in the copy; output in $T/make.log.
build() { make -C "$F" build/xcbench.elf >"$T/make.log" 2>&1; }
says() { grep -qF -- "$1" "$T/make.log"; }
silent() { ! grep -q '^firmware: ' "$T/make.log"; }
show() { grep -v '^make\|^  ' "$T/make.log" | head -n 6 | sed 's/^/# /'; }

# 1. XCALL_ALGO() left out; the template's functions are static.
template
sed -i '/^XCALL_ALGO(mine,/,$d' "$M"
build
rc=$?
show
check "no XCALL_ALGO, static functions: the build fails (rc $rc)" [ "$rc" -ne 0 ]
check "no XCALL_ALGO, static functions: a line says the file registers no algorithm and what ends it" \
	says 'firmware: xcall/mine.c has mine_handle_ipi but registers no algorithm (the likely cause of the errors above): end it with XCALL_ALGO(mine, .desc = "...", .nipi = 1'

# 2. The same, its functions not static: nothing failed to compile.
sed -i -E 's/^static (int|void) (mine_[a-z_]+)\(/\1 \2(/' "$M"
build
rc=$?
show
check "no XCALL_ALGO, functions not static: the build fails (rc $rc), no longer silent" [ "$rc" -ne 0 ]
check "no XCALL_ALGO, functions not static: a line names the file and the XCALL_ALGO(mine, ...) to add" \
	says 'firmware: xcall/mine.c has mine_handle_ipi but registers no algorithm: end it with XCALL_ALGO(mine,'

# 3. The template copied, not renamed: a second algorithm named lockless.
cp "$F/xcall/lockless.c" "$M"
build
rc=$?
show
check "two files register lockless: the build fails (rc $rc)" [ "$rc" -ne 0 ]
check "two files register lockless: a line names the name and both files" \
	says 'firmware: two algorithms named lockless: xcall/lockless.c and xcall/mine.c: rename one'

# 4. A name the CASE key algo already gives another meaning (a flush
# path's): init refused it at boot; now the build does, in the same words
# (registry.c's xcall_name_reserved, built for the host: tools/algo_name.c).
rm -f "$M"
cp "$F/xcall/lockless.c" "$F/xcall/vector.c" && sed -i 's/lockless/vector/g' "$F/xcall/vector.c"
build
rc=$?
show
check "an algorithm named vector (a flush path's word): the build fails (rc $rc)" [ "$rc" -ne 0 ]
check "an algorithm named vector: a line names the file, the name and why, as init would" \
	says "firmware: xcall/vector.c: algorithm vector: name reserved: a flush path's (kind=tlb cases carry it as their algo): rename it"
rm -f "$F/xcall/vector.c"

# 5. What only the linked table says (tools/algo_decl.c reads it back and
# asks registry.c's xcall_decl_error, init's own judge): each was refused
# only at boot ("xcall: mine: .desc missing" in the ERROR) or by
# test_xcall. A line naming the file, the name, init's words and the fix,
# and no payload ELF left (not the last good build's either, which the
# copy starts with).
# linked_bad WHAT EDIT-SED WORDS: the template, then sed EDIT-SED on it;
# the build fails and says WORDS.
linked_bad() {
	local what=$1 edit=$2 words=$3 rc
	template
	sed -i "$edit" "$M"
	build
	rc=$?
	show
	check "$what: the build fails (rc $rc), no payload ELF left" [ "$rc" -ne 0 ] && [ ! -e "$F/build/xcbench64.elf" ]
	check "$what: one line names the file, the algorithm, why and the fix" says "$words"
}
LONG=name_of_sixty_characters_for_an_algorithm_which_is_too_long_
[ ${#LONG} = 60 ] || notok "the long name is 60 characters (${#LONG})"
linked_bad "a name with a capital (XCALL_ALGO(Mine, ...))" 's/\bmine/Mine/g' \
	"firmware: xcall/mine.c: algorithm Mine: name must be [a-z0-9_]+ (algos=, the CASE key algo and HELLO's algo.NAME take no other): rename it (its XCALL_ALGO(name, ...) and identifiers, step 1 of docs/ADDING-AN-ALGORITHM.md)"
linked_bad "a name of 60 characters" "s/\bmine/$LONG/g" \
	"firmware: xcall/mine.c: algorithm $LONG: name longer than 59 characters (XCALL_NAME_MAX): rename it"
linked_bad "no .desc" '/^\t\.desc = /d' \
	"firmware: xcall/mine.c: algorithm mine: .desc missing: one line saying what it does (HELLO, the API, xcbench show): fix its XCALL_ALGO(mine, ...) (step 1 of docs/ADDING-AN-ALGORITHM.md)"
linked_bad "an empty .desc" 's/^\t\.desc = .*/\t.desc = "",/' \
	"firmware: xcall/mine.c: algorithm mine: .desc missing: one line saying what it does"
linked_bad "a .desc of two lines" 's/^\t\.desc = .*/\t.desc = "one\\ntwo",/' \
	"firmware: xcall/mine.c: algorithm mine: .desc must be one line: fix its XCALL_ALGO(mine, ...)"
linked_bad "a .desc of 121 characters" "s/^\t\.desc = .*/\t.desc = \"$(printf '%0121d' 0)\",/" \
	"firmware: xcall/mine.c: algorithm mine: .desc longer than 120 characters (XCALL_DESC_MAX): fix its XCALL_ALGO(mine, ...)"

# A name starting with a digit: gcc's words name no name ('invalid suffix
# "level_init" on integer constant'); the hint does.
template
sed -i 's/\bmine/2level/g' "$M"
build
rc=$?
show
check "a name starting with a digit: the build fails (rc $rc)" [ "$rc" -ne 0 ]
check "a name starting with a digit: a line names the file, the name and why" \
	says "firmware: xcall/mine.c: algorithm 2level: a name cannot start with a digit (the likely cause of the errors above: XCALL_ALGO() makes C identifiers of it, 2level_init): rename it"
# A table written out by hand (the guide's two-vector form): its .name is
# data the symbols do not carry (xcall_entry_mine), read from the table.
template
sed -i '/^XCALL_ALGO(mine,/,$d' "$M"
cat >>"$M" <<'C'
const struct xcall_ops xcall_mine = {
	.name = "Mine2", .desc = "hand-written", .nipi = 1, .waits = XCALL_WAITS_ALL,
	.init = mine_init, .call = mine_call, .handle_ipi = { mine_handle_ipi }, .reset = mine_reset,
};
XCALL_TABLE_ENTRY(mine);
C
build
rc=$?
show
check "a hand-written table named Mine2: the build fails (rc $rc)" [ "$rc" -ne 0 ]
check "a hand-written table named Mine2: its .name, read from the table, and where to fix it" \
	says "firmware: xcall/mine.c: algorithm Mine2: name must be [a-z0-9_]+ (algos=, the CASE key algo and HELLO's algo.NAME take no other): rename it (its table, struct xcall_ops xcall_mine, and identifiers"
rm -f "$M"

# 6. The template as the guide has it: the checks pass it and every
# shipped algorithm (concurrent, beside the flush path of that name, too).
template
build
rc=$?
show
check "the template renamed (guide step 1) builds (rc $rc)" [ "$rc" -eq 0 ] && [ -s "$F/build/xcbench.elf" ]
check "... and no check line in its build" silent

# The guide quotes these lines as the build prints them (step 1).
G=$ROOT/docs/ADDING-AN-ALGORITHM.md
flat=$(tr '\n' ' ' <"$G" | tr -s ' ')
check "the guide quotes the line for a file that registers nothing" \
	grep -qF 'firmware: xcall/mine.c has mine_handle_ipi but registers no algorithm: end it with XCALL_ALGO(mine,' <<<"$flat"
check "the guide quotes the line for two algorithms of one name" \
	grep -qF 'firmware: two algorithms named lockless: xcall/lockless.c and xcall/mine.c: rename one' <<<"$flat"
check "the guide quotes the line for a reserved name" \
	grep -qF 'firmware: xcall/vector.c: algorithm vector: name reserved: a flush path' <<<"$flat"
check "the guide quotes the line for a missing .desc" \
	grep -qF 'firmware: xcall/mine.c: algorithm mine: .desc missing: one line saying what it does' <<<"$flat"
