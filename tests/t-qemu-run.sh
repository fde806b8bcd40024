#!/bin/bash
# The boot helpers' QEMU run (tests/lib/qemu_run.sh), against stand-in QEMUs
# (shell scripts writing the serial file as the payload would): a QEMU that
# stays after the payload's "xcbench: exit N" line is ended after the grace
# period with the status the line implies, its stacks kept in tests/out;
# one that hangs without the line still fails (124) with its stacks taken
# first; one that ends by itself keeps its own status and its stderr.
# timeout: 120
. "$(dirname "$0")/lib/tap.sh"
T=$(mktemp -d "$OUTDIR/t-qemu-run.XXXXXX")
trap 'rm -rf "$T"; rm -f "$OUTDIR"/qemu-hang.t-qemu-run.*' EXIT
export XCB_QEMU_EXIT_GRACE=2

# fake SERIAL LINE EXIT: a stand-in QEMU that writes LINE to SERIAL and a
# line to stderr, then exits with EXIT, or sleeps on when EXIT is "hang".
cat >"$T/fake" <<'SH'
#!/bin/bash
printf '%s\n' "$2" >>"$1"
echo "fake qemu: stderr line" >&2
[ "$3" = hang ] && exec sleep 300
exit "$3"
SH
chmod +x "$T/fake"

s=$T/t-qemu-run-wedged.log
start=$SECONDS
qemu_run "$s" 60 "$T/fake" "$s" "xcbench: exit 3" hang 2>"$T/wedged.err"
rc=$?
took=$((SECONDS - start))
check "a QEMU still there after 'xcbench: exit 3': status 7 from the line (got $rc)" test "$rc" = 7
check "... ended after the grace period, not the 60 s limit (${took} s)" test "$took" -lt 30
check "... says so on stderr" grep -q "still running 2 s after the payload's 'xcbench: exit 3'" "$T/wedged.err"
ev=$(ls "$OUTDIR"/qemu-hang.*-t-qemu-run-wedged.log.* 2>/dev/null | head -n1)
check "... its threads' stacks kept in tests/out (${ev##*/})" grep -q "still running 2 s after 'xcbench: exit 3'" "${ev:-/dev/null}"
check "... its stderr kept beside the serial log" grep -q "fake qemu: stderr line" "$s.stderr"

s=$T/t-qemu-run-hang.log
qemu_run "$s" 8 "$T/fake" "$s" "xcbench: cpu 1 online" hang 2>"$T/hang.err"
rc=$?
check "a QEMU that hangs without the exit line still fails: 124 (got $rc)" test "$rc" = 124
ev=$(ls "$OUTDIR"/qemu-hang.*-t-qemu-run-hang.log.* 2>/dev/null | head -n1)
check "... its stacks taken before the limit ended it (${ev##*/})" grep -qE "no exit line [67] s in" "${ev:-/dev/null}"

# The watcher's clock is the wall's, not its turns: each turn here takes
# 2.5 s (as on a host loaded by 288 vCPU threads), and the stacks are still
# taken before the limit (a count of 0.5 s turns would want 75 s).
s=$T/t-qemu-run-slow.log
(qemu_exit_line() { sleep 2; }; qemu_run "$s" 20 "$T/fake" "$s" "xcbench: cpu 1 online" hang 2>"$T/slow.err")
rc=$?
check "a slow watcher: the hang still fails: 124 (got $rc)" test "$rc" = 124
ev=$(ls "$OUTDIR"/qemu-hang.*-t-qemu-run-slow.log.* 2>/dev/null | head -n1)
check "... and its stacks were taken before the limit (${ev##*/})" grep -qE "no exit line 1[7-9] s in" "${ev:-/dev/null}"

s=$T/t-qemu-run-own.log
qemu_run "$s" 60 "$T/fake" "$s" "xcbench: exit 3" 9 2>"$T/own.err"
rc=$?
check "a QEMU that ends by itself keeps its own status (9, got $rc)" test "$rc" = 9
check "... and nothing is said or kept about a hang" test ! -s "$T/own.err" -a -z "$(ls "$OUTDIR"/qemu-hang.*-t-qemu-run-own.log.* 2>/dev/null)"
