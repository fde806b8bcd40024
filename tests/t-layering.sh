#!/bin/bash
# timeout: 60
# The layering rule (docs/ARCHITECTURE.md, tools/check-layering): the tree
# follows it, and the check fails, naming the line, on each kind of
# violation fed to a copy of the tree: an include up a floor (arch/ reading
# boot/), one beside (net/ reading bench/), one up inside arch/ (apic reading
# smp), a private header from outside its module, and a relative include.
. "$(dirname "$0")/lib/tap.sh"
CHECK=$ROOT/tools/check-layering
T=$(mktemp -d "$OUTDIR/layering.XXXXXX")
trap 'rm -rf "$T"' EXIT

out=$("$CHECK" 2>&1)
check "the tree follows the layering rule" test $? -eq 0
[ -n "$out" ] && diag "$out"
check "--help says what it checks" bash -c "'$CHECK' --help | grep -q 'layers'"
"$CHECK" --bogus >/dev/null 2>&1
check "an unknown argument is a usage error (status 2)" test $? -eq 2

# A copy of the sources and the document, to break one rule at a time.
(cd "$ROOT" && git ls-files -co --exclude-standard firmware host proto docs/ARCHITECTURE.md |
	grep -E '\.(c|h|S|md)$' | tar -cf - -T -) | tar -xf - -C "$T"
check "the copy follows it too" "$CHECK" --root "$T"

# feed FILE LINE WANT NAME: append LINE to FILE in the copy, expect the check to
# fail with a report matching WANT, then restore FILE.
feed() {
	local f=$T/$1 line=$2 want=$3 name=$4 rc
	cp "$f" "$f.orig"
	printf '%s\n' "$line" >>"$f"
	out=$("$CHECK" --root "$T" 2>/dev/null); rc=$?
	mv "$f.orig" "$f"
	diag "$out"
	check "$name: fails (status $rc) and names it" bash -c "[ $rc -eq 1 ] && grep -q -- '$want' <<<'$out'"
}
# One violation a line: FILE|LINE appended|what the report must say|name.
while IFS='|' read -r file line want name; do
	feed "$file" "$line" "$want" "$name"
done <<'EOF'
firmware/arch/tsc.c|#include "boot/bootinfo.h"|firmware/arch/tsc.c:.*firmware/arch (floor 2) includes firmware/boot (floor 6): up a floor|an upward include (arch/ -> boot/)
firmware/net/udp.c|#include "bench/suite.h"|firmware/net/udp.c:.*includes firmware/bench .*beside it|an include beside (net/ -> bench/)
firmware/arch/apic.c|#include "arch/smp.h"|firmware/arch/apic.c:.*firmware/arch/apic (floor .*) includes firmware/arch/smp .*up a floor|an upward include inside arch/ (apic -> smp)
host/src/api_runs.c|#include "store_sql.h"|host/src/api_runs.c:.*store_sql.h is private to host/src/store|a private header from outside its module
firmware/net/arp.c|#include "../lib/string.h"|firmware/net/arp.c:.*include style: write "lib/string.h"|a relative include
host/common/csv.c|#include "store.h"|host/common/csv.c:.*host/common (floor 1) includes host/src (floor 2): up a floor|an upward include on the host (common -> src)
EOF
