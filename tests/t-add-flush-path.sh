#!/bin/bash
# t-add-flush-path.sh — adding a TLB shootdown path the way an author would,
# following docs/ADDING-AN-ALGORITHM.md step 6 (its vocabulary line and its
# commands read out of the guide, tests/lib/guide.py), in a temporary copy
# of the tree:
#   1. the guide's line added to XCB_VOCAB_FLUSH (proto/xcb_schema.h);
#   2. the path added to paths.c's flush_path_is_direct() (the target half
#      the guide says serves it as is);
#   3. the firmware and the host built (the host checks flush= by the
#      vocabulary compiled into it);
#   4. test_xcall's random shootdowns run the new path, none stale (they
#      took a list of their own: a new path ran nowhere);
#   5. the guide's xcbench vm line boots it (TCG, 2 CPUs) against a daemon
#      built from the copy, and the guide's show, compare, compare --csv and
#      export lines carry the path by its name.
# Nothing else is edited: the rest derives from the vocabulary.
# timeout: 900
. "$(dirname "$0")/lib/tap.sh"

NAME=mine_path
GUIDE=$ROOT/docs/ADDING-AN-ALGORITHM.md
T=$(mktemp -d "$OUTDIR/add-flush-path.XXXXXX")
cleanup() { [ -n "${DPID:-}" ] && kill "$DPID" 2>/dev/null; wait 2>/dev/null; [ -n "${XCB_KEEP:-}" ] || rm -rf "$T"; }
trap cleanup EXIT
# guide, run_guide: the guide's commands, run in the copy.
. "$ROOT/tests/lib/guide_cmd.sh"

command -v qemu-system-x86_64 >/dev/null || { skip "adding a flush path" "qemu-system-x86_64 not installed"; exit 0; }
# The copy: what git tracks plus new files; the firmware's build as it is
# (tests/lib/tree_copy.sh).
. "$ROOT/tests/lib/tree_copy.sh"
tree_copy "$T" firmware proto host db

# 6.1: the guide's vocabulary line, at the end of XCB_VOCAB_FLUSH.
line=$(tr '\n' ' ' <"$GUIDE" | grep -o "X(XCB_FLUSH_MINE, \"$NAME\", \"$NAME\")" | head -n 1)
check "the guide gives the vocabulary line ($line)" test -n "$line"
python3 - "$T/proto/xcb_schema.h" "$line" <<'PY'
import re, sys
path, line = sys.argv[1], sys.argv[2]
s = open(path).read()
m = re.search(r"#define XCB_VOCAB_FLUSH\(X\)(?:[^\n]*\\\n)*[^\n]*\n", s)
block = m.group(0)
new = block[:-1] + " \\\n\t" + line + "\n"
open(path, "w").write(s.replace(block, new, 1))
PY
check "6.1: the line is the vocabulary's last" \
	bash -c "sed -n '/^#define XCB_VOCAB_FLUSH/,/^#define/p' '$T/proto/xcb_schema.h' | grep -qF '$line'"

# 6.2: the path is one of paths.c's (its target half: concurrent's branch).
P=$T/firmware/flush/paths.c
sed -i 's/p == XCB_FLUSH_CONSOLIDATED;/p == XCB_FLUSH_CONSOLIDATED || p == XCB_FLUSH_MINE;/' "$P"
check "6.2: flush_path_is_direct() names it" grep -q 'XCB_FLUSH_MINE;' "$P"

# 6.3: build both halves, two jobs at a time (as the guide's step 3 does in
# t-add-algorithm): the vocabulary's header rebuilds most of the payload, and
# each host binary is one compiler run of its own.
make -j2 -C "$T/firmware" build/xcbench.elf build/algos.txt build/tests/test_xcall >"$T/make.log" 2>&1 &&
	make -j2 -C "$T/host" build/xcbench build/xcbenchd >>"$T/make.log" 2>&1
rc=$?
[ "$rc" = 0 ] || grep -E 'error|firmware:' "$T/make.log" | head -n 5 | sed 's/^/# /'
check "6.3: the firmware and the host build (rc $rc)" [ "$rc" = 0 ]
[ "$rc" = 0 ] || exit 1

# 6.4: test_xcall's shootdowns take every default path, the new one too.
XCB_XCALL_ITERS=200 "$T/firmware/build/tests/test_xcall" >"$T/test_xcall.log" 2>&1
rc=$?
grep '^# flush path' "$T/test_xcall.log" | sed 's/^/# /'
check "6.4: test_xcall passes (rc $rc)" [ "$rc" = 0 ]
check "6.4: test_xcall's random shootdowns ran $NAME, none stale" \
	grep -qE "^# flush path $NAME: [1-9][0-9]* shootdowns, none stale" "$T/test_xcall.log"

# 6.5: a daemon built from the copy, serving the copy's payload; the
# guide's lines run in the copy (its host/build/).
XCBENCHD=$T/host/build/xcbenchd
PORT=$(free_port)
xcbd_start "$T/xcbenchd.log" "$PORT" --db "$T/xcbench.db" --open --firmware "$T/firmware/build/xcbench.elf"
DPID=$XCBD_PID
export XCBENCH_SERVER=http://127.0.0.1:$PORT
run_guide 6 "host/build/xcbench vm" "s|\$| --dir $T/vm|"
rc=$?
tail -n 2 "$T/guide.out" | sed 's/^/# /'
ID=$(grep -oE 'run [0-9]+ complete' "$T/guide.out" | grep -oE '[0-9]+' | head -1)
check "6.5: the guide's xcbench vm line: exit 0, run ${ID:-?} complete (rc $rc)" [ "$rc" -eq 0 ] && [ -n "$ID" ]
ID=${ID:-1}
run_guide 6 "host/build/xcbench show" "s/\bR\b/$ID/g"
check "6.5: the guide's show line: $NAME's cases, as algo and flush" \
	grep -qE "^ +[0-9]+ tlb +$NAME .* $NAME +invlpg " "$T/guide.out"
run_guide 6 "host/build/xcbench compare R R --a-where flush=vector --b-where flush=$NAME" "s/\bR\b/$ID/g"
rc=$?
sed 's/^/# /' "$T/guide.out" | sed -n 5,7p
check "6.5: the guide's compare line: vector -> $NAME, exit 0 (rc $rc)" \
	[ "$rc" -eq 0 ] && grep -q "vector -> $NAME" "$T/guide.out"
run_guide 6 "host/build/xcbench compare R R --a-where flush=vector --b-where flush=$NAME --csv" "s/\bR\b/$ID/g"
check "6.5: the guide's compare --csv line: rows vector -> $NAME" \
	bash -c "head -n 1 '$T/guide.out' | grep -q ',algo_a,algo_b,' && grep -qE '^tlb,.*,vector,$NAME,' '$T/guide.out'"
run_guide 6 "host/build/xcbench export" "s/\bR\b/$ID/g; s/>.*//"
n=$(awk -F, -v p="$NAME" 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "flush") f = i; if ($i == "algo") a = i } next }
	$f == p && $a == p { n++ } END { print n + 0 }' "$T/guide.out")
check "6.5: the guide's export line: $n rows whose flush and algo are $NAME" [ "$n" -gt 0 ]
