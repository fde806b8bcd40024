#!/bin/sh
# check_algos.sh — the build's checks of the algorithm files in xcall/
# (firmware/Makefile), so that an author's slip stops `make` with a line
# saying what to do, before anything boots:
#   check_algos.sh OBJ...      before the payload's link, over xcall/'s
#                              objects: an object with a NAME_handle_ipi
#                              function registers an algorithm (it has an
#                              XCALL_ALGO / XCALL_TABLE_ENTRY entry), no
#                              two objects register one name, and no name
#                              is reserved ($ALGO_NAME, the host build of
#                              registry.c's xcall_name_reserved, says which;
#                              skipped when unset);
#   check_algos.sh --linked ELF OBJ...
#                              after the link, over the linked payload ELF
#                              and the same objects: each entry's .name and
#                              .desc as init judges them ($ALGO_DECL, the
#                              host build of registry.c's xcall_decl_error:
#                              a name outside [a-z0-9_] or past
#                              XCALL_NAME_MAX, a .desc missing, empty, of
#                              two lines or past XCALL_DESC_MAX, no .init
#                              or .call), the file named by the object that
#                              holds the entry;
#   check_algos.sh --hint SRC  after SRC failed to compile: if it has a
#                              NAME_handle_ipi but no XCALL_ALGO(, say that
#                              this is why (gcc's words are "'NAME_init'
#                              defined but not used"); if its XCALL_ALGO's
#                              name starts with a digit, that (gcc's are
#                              'invalid suffix "level_init" on integer
#                              constant').
# Why: a bad name or .desc was said only at boot (the payload stopped with
# "xcall: mine: .desc missing", minutes into a lab job) or by test_xcall;
# an algorithm whose functions are not static and that forgot
# XCALL_ALGO() built without a word, and algos=NAME then failed at boot as
# an unknown value; two files registering one name (a copy of the template
# not renamed) failed the link with "multiple definition of `xcall_NAME'".
# Names are read from the objects' symbols (nm), which XCALL_ALGO() derives
# from the name: xcall_entry_NAME (xcall/xcall_internal.h).
GUIDE=docs/ADDING-AN-ALGORITHM.md
NM=${NM:-nm}

# decl NAME: the declaration the guide's step 1 ends a file with.
decl() {
	echo "XCALL_ALGO($1, .desc = \"...\", .nipi = 1, .waits = XCALL_WAITS_ALL, .sends = XCALL_SENDS_MASK)"
}

if [ "$1" = --hint ]; then
	src=$2
	# A name starting with a digit: gcc says 'invalid suffix "level_init"
	# on integer constant' of 2level_init, naming no name.
	d=$(sed -nE 's/^[[:space:]]*(XCALL_ALGO|XCALL_TABLE_ENTRY)\([[:space:]]*([0-9][A-Za-z0-9_]*).*/\2/p' "$src" | head -n 1)
	if [ -n "$d" ]; then
		echo "firmware: $src: algorithm $d: a name cannot start with a digit (the likely cause of the errors above:" \
			"XCALL_ALGO() makes C identifiers of it, ${d}_init): rename it (its XCALL_ALGO(name, ...)" \
			"and identifiers, step 1 of $GUIDE)" >&2
		exit 0
	fi
	grep -qE '^[[:space:]]*(XCALL_ALGO|XCALL_TABLE_ENTRY)\(' "$src" && exit 0
	h=$(grep -oE '\b[a-z0-9_]+_handle_ipi[[:space:]]*\(' "$src" | head -n 1 | sed 's/[[:space:]]*($//')
	[ -n "$h" ] || exit 0
	name=${h%_handle_ipi}
	echo "firmware: $src has $h but registers no algorithm (the likely cause of the errors above):" \
		"end it with $(decl "$name") ($GUIDE, step 1)" >&2
	exit 0
fi

if [ "$1" = --linked ]; then
	elf=$2
	shift 2
	[ $# -gt 0 ] || exit 0		# no xcall/ (a foundation-only build): no table
	out=$("$ALGO_DECL" "$elf") && exit 0
	[ -n "$out" ] || exit 1		# the tool said why on stderr
	printf '%s\n' "$out" | while IFS="$(printf '\t')" read -r ident name why; do
		src=
		for o in "$@"; do
			$NM "$o" | awk -v s="xcall_entry_$ident" '$NF == s { f = 1 } END { exit !f }' &&
				src=xcall/$(basename "$o" .o).c && break
		done
		# Where the fix goes: its XCALL_ALGO(), or the table written out
		# by hand (two vectors) whose .name the symbols do not carry.
		if [ -n "$src" ] && ! grep -qE "^[[:space:]]*XCALL_ALGO\([[:space:]]*$ident[[:space:]]*," "$src"; then
			named="table, struct xcall_ops xcall_$ident," decl=$named
		else
			named="XCALL_ALGO(name, ...)" decl="XCALL_ALGO($ident, ...)"
		fi
		case $why in
		name*|"no name"*) fix="rename it (its $named and identifiers, step 1 of $GUIDE)" ;;
		*) fix="fix its $decl (step 1 of $GUIDE)" ;;
		esac
		echo "firmware: ${src:-xcall/?.c}: algorithm ${name:-$ident}: $why: $fix" >&2
	done
	exit 1
fi

fail=0
entries=$(mktemp)
trap 'rm -f "$entries"' EXIT
for o in "$@"; do
	src=xcall/$(basename "$o" .o).c
	syms=$($NM "$o") || exit 1
	reg=$(printf '%s\n' "$syms" | awk '$NF ~ /^xcall_entry_/ { print substr($NF, 13) }')
	h=$(printf '%s\n' "$syms" | awk '$NF ~ /_handle_ipi$/ { print $NF; exit }')
	if [ -z "$reg" ] && [ -n "$h" ]; then
		echo "firmware: $src has $h but registers no algorithm: end it with" \
			"$(decl "${h%_handle_ipi}") ($GUIDE, step 1)" >&2
		fail=1
	fi
	for n in $reg; do
		echo "$n $src" >>"$entries"
		if [ -n "${ALGO_NAME:-}" ] && why=$("$ALGO_NAME" "$n"); [ -n "${why:-}" ]; then
			echo "firmware: $src: algorithm $why: rename it (its XCALL_ALGO(name, ...)" \
				"and identifiers, step 1 of $GUIDE)" >&2
			fail=1
		fi
	done
done
sort "$entries" | awk '
	$1 == prev { printf "firmware: two algorithms named %s: %s and %s: rename one (its XCALL_ALGO(name, ...) and identifiers, step 1 of %s)\n", $1, prevsrc, $2, guide > "/dev/stderr"; bad = 1 }
	{ prev = $1; prevsrc = $2 }
	END { exit bad }' guide="$GUIDE" || fail=1
exit $fail
