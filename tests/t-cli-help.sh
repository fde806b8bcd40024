#!/bin/bash
# timeout: 60
# xcbench --help against each command's own --help: every command it lists
# answers --help with its usage (exit 0), and the filters it names for
# `runs` are the ones `xcbench runs --help` takes — it left out --lab, the
# filter README's "Several labs, one history" sends operators to; and each
# command's --help names every option of its table; every --help's option
# list (the daemon's and the tools' too) lines up, its parentheses closed.
. "$(dirname "$0")/lib/tap.sh"
[ -x "$XCBENCH" ] || { skip "xcbench --help" "host/ not built (make -C host)"; exit 0; }
"$XCBENCH" --help >"$OUTDIR/help.out" 2>&1
check "xcbench --help: exit 0" test $? = 0
# A command's line: two blanks, its name, its description (which may start
# with a capital: check's 'CI verdict' was skipped by a [a-z] here).
cmds=$(sed -nE 's/^  ([a-z]+) +[^ ].*/\1/p' "$OUTDIR/help.out")
check "it lists commands ($(echo $cmds))" test -n "$cmds"
for c in $cmds; do
	"$XCBENCH" "$c" --help >"$OUTDIR/help.$c" 2>&1
	check "xcbench $c --help: exit 0, its usage" bash -c "[ $? = 0 ] && grep -q '^usage: xcbench $c' '$OUTDIR/help.$c'"
done
# `xcbench help COMMAND` is COMMAND --help (it printed the command list);
# an unknown one is a usage error.
"$XCBENCH" help compare >"$OUTDIR/helpcmd.out" 2>&1; rc=$?
check "xcbench help compare: exit 0, compare's usage ($rc)" \
	bash -c '[ "$1" = 0 ] && cmp -s "$2" "$3"' _ "$rc" "$OUTDIR/helpcmd.out" "$OUTDIR/help.compare"
"$XCBENCH" help nosuch >"$OUTDIR/helpcmd.out" 2>&1; rc=$?
check "xcbench help nosuch: exit 2, naming it ($rc)" \
	bash -c '[ "$1" = 2 ] && grep -q "no command .nosuch." "$2"' _ "$rc" "$OUTDIR/helpcmd.out"
rm -f "$OUTDIR/helpcmd.out"
# Every option a command takes (its table in host/cli/cmd_NAME.c, the one
# definition) is named in its --help: label's --json and export's and
# samples' --output were taken but not listed.
for c in $cmds; do
	src=$ROOT/host/cli/cmd_$c.c
	[ -f "$src" ] || { notok "xcbench $c: its table in $src"; continue; }
	opts=$(grep -oE 'OPT_[A-Z_]+\("[a-z-]+"|\.name = "[a-z-]+"' "$src" | grep -oE '"[a-z-]+"' | tr -d '"' | sort -u)
	missing=$(for o in $opts; do grep -qE -- "--$o([^a-z-]|\$)" "$OUTDIR/help.$c" || echo "--$o"; done | xargs)
	check "xcbench $c --help names every option it takes ($(echo $opts | wc -w) options; missing: ${missing:-none})" \
		test -n "$opts" -a -z "$missing"
done
# The filters: runs --help's options but the paging and output ones.
want=$(grep -oE -- '--[a-z]+' "$OUTDIR/help.runs" | grep -vxE -- '--(limit|offset|json)' | sort -u | xargs)
got=$(grep -E '^  runs ' "$OUTDIR/help.out" | grep -oE -- '--[a-z]+' | sort -u | xargs)
check "xcbench --help names runs' filters ($got) as runs --help does ($want)" test "$got" = "$want"
# The option lists line up (tests/lib/help_columns.py): xcbenchd's
# --boot-from and --run-limit were one column off, --boot-from's text left
# a parenthesis open, vm's --nic went on one column off. The daemon's and
# the tools' helps too; xcbenchd's within 80 columns.
for t in xcbenchd xcb-gen xcb-load xcb-copy; do
	[ -x "$ROOT/host/build/$t" ] && "$ROOT/host/build/$t" --help >"$OUTDIR/help.$t" 2>&1
done
bad=$(python3 "$ROOT/tests/lib/help_columns.py" "$OUTDIR"/help.* | sed "s|$OUTDIR/||" | paste -sd ";" -)
check "every --help's options line up, parentheses closed (${bad:-all})" test -z "$bad"
wide=$(awk 'length > 80 { print FNR ": " length }' "$OUTDIR/help.xcbenchd" | xargs)
check "xcbenchd --help within 80 columns (${wide:-all})" test -n "$(cat "$OUTDIR/help.xcbenchd")" -a -z "$wide"
# calibrate takes 2..10 runs (its text says so): the usage asked for four
check "calibrate --help: its usage takes two runs or more ($(head -1 "$OUTDIR/help.calibrate"))" \
	grep -q '^usage: xcbench calibrate RUN,RUN\[,\.\.\.\] ' "$OUTDIR/help.calibrate"
# --version: the client's and the daemon's name the release and the tree
# they were built from, as a bug report needs (there was none).
rev=$(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo unknown)
for t in xcbench xcbenchd; do
	v=$("$ROOT/host/build/$t" --version 2>&1); rc=$?
	check "$t --version: exit 0, '$t 0.1.0 (build REV)' of this tree ($v; git describe: $rev)" \
		test "$rc" = 0 -a "$v" = "$t 0.1.0 (build $rev)"
done
rm -f "$OUTDIR"/help.*
