#!/bin/bash
# timeout: 60
# xcbench --help against each command's own --help: every command it lists
# answers --help with its usage (exit 0), and the filters it names for
# `runs` are the ones `xcbench runs --help` takes — it left out --lab, the
# filter README's "Several labs, one history" sends operators to.
. "$(dirname "$0")/lib/tap.sh"
[ -x "$XCBENCH" ] || { skip "xcbench --help" "host/ not built (make -C host)"; exit 0; }
"$XCBENCH" --help >"$OUTDIR/help.out" 2>&1
check "xcbench --help: exit 0" test $? = 0
cmds=$(sed -nE 's/^  ([a-z]+) +[a-z].*/\1/p' "$OUTDIR/help.out")
check "it lists commands ($(echo $cmds))" test -n "$cmds"
for c in $cmds; do
	"$XCBENCH" "$c" --help >"$OUTDIR/help.$c" 2>&1
	check "xcbench $c --help: exit 0, its usage" bash -c "[ $? = 0 ] && grep -q '^usage: xcbench $c' '$OUTDIR/help.$c'"
done
# The filters: runs --help's options but the paging and output ones.
want=$(grep -oE -- '--[a-z]+' "$OUTDIR/help.runs" | grep -vxE -- '--(limit|offset|json)' | sort -u | xargs)
got=$(grep -E '^  runs ' "$OUTDIR/help.out" | grep -oE -- '--[a-z]+' | sort -u | xargs)
check "xcbench --help names runs' filters ($got) as runs --help does ($want)" test "$got" = "$want"
rm -f "$OUTDIR"/help.*
