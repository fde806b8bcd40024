#!/bin/bash
# The front-door documents against the product, read out of the documents
# (tests/lib/docs.py), so they cannot rot unseen: every repository path they
# name exists; every option an xcbench/xcbenchd command of theirs gives is one
# that command's --help lists; README's by-hand QEMU boot, run as written,
# boots and exits as README says; firmware/README.md's foundation-only build
# builds and boots (main.c once needed bench/ to link); host/API.md's
# /health, run and /boot.json examples have the keys a real daemon answers,
# and its /schema example the RESULT lengths. (host/API.md once showed /health without run_limit,
# no_case and lab, and a 208-byte full RESULT after it grew to 224.)
# timeout: 120
. "$(dirname "$0")/lib/tap.sh"
. "$ROOT/tests/lib/test-daemon.sh"
daemon_test "documents"
cd "$ROOT" || exit 1
DOCS=(README.md firmware/README.md firmware/bench/README.md host/API.md docs/*.md)
DOCPY=(python3 "$ROOT/tests/lib/docs.py")

missing=$("${DOCPY[@]}" paths "${DOCS[@]}")
check "every repository path the documents name exists" test -z "$missing"
[ -z "$missing" ] || sed 's/^/# missing: /' <<<"$missing"

# Options: each against its command's own --help.
n=0
while read -r cmd flag; do
	case $cmd in
	xcbenchd) help=$("$XCBENCHD" --help 2>&1) ;;
	-) help=$("$XCBENCH" --help 2>&1) ;;
	*) help=$("$XCBENCH" "$cmd" --help 2>&1) ;;
	esac
	n=$((n + 1))
	grep -qe "$flag\b" <<<"$help" || notok "documented option: ${cmd/#-/xcbench} $flag is not in its --help"
done < <("${DOCPY[@]}" flags "${DOCS[@]}")
check "the documents give options of xcbench and xcbenchd ($n, each checked above)" test "$n" -gt 20

# "Booting the payload by hand": the command as written, from the root.
boot=$("${DOCPY[@]}" cmd README.md "qemu-system-x86_64 -accel tcg -M q35 -m 256 -smp 4 -nographic -no-reboot -bios")
check "README gives the by-hand BIOS boot" test -n "$boot"
if [ -z "$boot" ] || ! command -v qemu-system-x86_64 >/dev/null || [ ! -f "$XCB_ELF" ]; then
	skip "README's by-hand boot" "no command, QEMU or payload"
else
	out=$(timeout 120 bash -c "$boot" 2>&1)
	rc=$?
	check "README's by-hand boot: QEMU exits 1, '(code << 1) | 1' of success (got $rc)" test "$rc" = 1
	check "... after README's summary line: 4/4 cpus online" grep -q 'xcbench: 4/4 cpus online, tsc [0-9]* kHz' <<<"$out"
fi

# firmware/README.md's foundation-only build, in a copy of the tree (its own
# build/), and its image booted: main.c once needed bench/ to link.
fw=$(tr '\n' ' ' <firmware/README.md | grep -o 'make SRCDIRS=[^`]*' | head -n 1)
check "firmware/README.md gives the foundation-only build" test -n "$fw"
if [ -n "$fw" ] && command -v qemu-system-x86_64 >/dev/null; then
	copy=$(mktemp -d "$OUTDIR/fwcopy.XXXXXX")
	tar -C "$ROOT" --exclude=build -cf - firmware proto tools | tar -x -C "$copy"
	(cd "$copy/firmware" && bash -c "$fw") >"$copy/fw.log" 2>&1
	rc=$?
	check "'$fw' in firmware/ builds (status $rc)" test "$rc" = 0
	[ "$rc" = 0 ] || grep -aE 'error|undefined' "$copy/fw.log" | head -n 5 | sed 's/^/# /'
	XCB_ELF=$copy/firmware/build/xcbench.elf qemu_direct "$copy/serial.log" 2 ""
	rc=$?
	check "... and its image boots to the report and exits ok (QEMU status $rc)" \
		bash -c "[ $rc = 1 ] && grep -q 'xcbench: 2/2 cpus online' \"\$1\"" _ "$copy/serial.log"
	rm -rf "$copy"
fi

# host/API.md's examples against a daemon's answers, with a generated run.
start_daemon --open || exit 1
"$XCB_GEN" --server "127.0.0.1:$PORT" >/dev/null 2>&1
same_keys() {	# same_keys NAME HEADING URL [FILTER]: the example's keys are the answer's
	local ex=$TMP/example.json real=$TMP/real.json diff
	"${DOCPY[@]}" json host/API.md "$2" >"$ex" || { notok "host/API.md has a JSON example under '$2'"; return; }
	curl -sf "$URL$3" | python3 -c "import json,sys; d=json.load(sys.stdin); print(json.dumps(${4:-d}))" >"$real"
	# Keys inside facts, params, meta and machine are data, not the answer's shape.
	diff=$("${DOCPY[@]}" keys "$ex" "$real" | grep -vE ' (facts|params|meta|machine)\.' | xargs)
	check "host/API.md's $1 example has the answer's keys${diff:+ ($diff)}" test -z "$diff"
}
same_keys "/health" "GET /api/v1/health" /api/v1/health
same_keys "RUN" "GET /api/v1/runs" "/api/v1/runs" 'd["runs"][0]'
same_keys "/boot.json" '`GET /boot.json?' "/boot.json?mac=52:54:00:78:63:01"
lens=$(curl -sf "$URL/api/v1/schema" | python3 -c 'import json,sys; d=json.load(sys.stdin)
print("\"result_len\": %d, \"result_len_full\": %d," % (d["result_len"], d["result_len_full"]))')
check "host/API.md's /schema example gives the RESULT lengths ($lens)" grep -qF "$lens" host/API.md
