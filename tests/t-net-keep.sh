#!/bin/bash
# tests/lib/net.sh's cleanup keeps its NET_DIR (daemon log and database, QEMU's
# and ipmi_sim's output) when a check of the script failed, so an intermittent
# failure leaves what explains it, and removes it when every check passed.
# timeout: 30
. "$(dirname "$0")/lib/tap.sh"
T=$(mktemp -d "$OUTDIR/t-net-keep.XXXXXX")
trap 'rm -rf "$T"' EXIT

# inner ok|notok: a script using net.sh whose one check passes or fails; its
# output (TAP lines of its own) is printed here, not to the runner. NET_DIR
# in T/dir.RESULT.
inner() {
	NET_KEEP= bash -c '. "$1/tests/lib/tap.sh"; . "$1/tests/lib/net.sh"; echo "$NET_DIR" >"$2"; "$3" "inner check"' \
		_ "$ROOT" "$T/dir.$1" "$1"
}
out=$(inner notok)
d=$(cat "$T/dir.notok")
check "a failed check keeps NET_DIR (${d##*/})" test -n "$d" -a -d "$d"
check "... and says so" grep -qF "# a check failed: $d kept" <<<"$out"
[ -n "$d" ] && rm -rf "$d"
out=$(inner ok)
d=$(cat "$T/dir.ok")
check "every check passed: NET_DIR removed (${d##*/})" test -n "$d" -a ! -e "$d"
check "... silently" test -z "$(grep -F 'kept' <<<"$out")"
