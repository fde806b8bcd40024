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
#   check_algos.sh --hint SRC  after SRC failed to compile: if it has a
#                              NAME_handle_ipi but no XCALL_ALGO(, say that
#                              this is why (gcc's words are "'NAME_init'
#                              defined but not used").
# Why: an algorithm whose functions are not static and that forgot
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
	grep -qE '^[[:space:]]*(XCALL_ALGO|XCALL_TABLE_ENTRY)\(' "$src" && exit 0
	h=$(grep -oE '\b[a-z0-9_]+_handle_ipi[[:space:]]*\(' "$src" | head -n 1 | sed 's/[[:space:]]*($//')
	[ -n "$h" ] || exit 0
	name=${h%_handle_ipi}
	echo "firmware: $src has $h but registers no algorithm (the likely cause of the errors above):" \
		"end it with $(decl "$name") ($GUIDE, step 1)" >&2
	exit 0
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
