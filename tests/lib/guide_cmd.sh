# tests/lib/guide_cmd.sh — a guide's commands, read out of it
# (tests/lib/guide.py) and run as written in a test's copy of the tree: the
# tests that add something the way an author would (t-add-algorithm,
# t-add-flush-path). Source after tap.sh; the functions use $GUIDE (the
# guide, e.g. docs/ADDING-AN-ALGORITHM.md) and $T (the copy).

# guide STEP PREFIX: the guide's command of step STEP that starts with PREFIX.
guide() { python3 "$ROOT/tests/lib/guide.py" "$GUIDE" cmd "$1" "$2"; }

# run_guide STEP PREFIX [SED]: that command, run in the copy (the sed
# expression SED applied first, e.g. the run id for R), its output in
# $T/guide.out; its status (99: the guide has no such command).
run_guide() {
	local c
	c=$(guide "$1" "$2") || { echo "# the guide's step $1 has no '$2' command"; return 99; }
	[ -n "${3:-}" ] && c=$(sed "$3" <<<"$c")
	echo "# step $1: $c"
	(cd "$T" && timeout 600 bash -c "$c") >"$T/guide.out" 2>&1
}
