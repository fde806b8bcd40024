#!/bin/bash
# The front-door documents against the product, read out of the documents
# (tests/lib/docs.py), so they cannot rot unseen: every repository path they
# name exists; every option an xcbench/xcbenchd command of theirs gives is one
# that command's --help lists; README's by-hand QEMU boot, run as written,
# boots and exits as README says; firmware/README.md's foundation-only build
# builds and boots (main.c once needed bench/ to link); host/API.md's
# /health, run and /boot.json examples have the keys a real daemon answers,
# and its /schema example the RESULT lengths; README's seed-table and seed
# 002 compare and show lines, as written, answer on captured boots. (host/API.md once showed /health without run_limit,
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

# README's reviewer lines, as written, on stored boots: the seed table's
# compare lines (a captured seed boot, tests/fixtures/aa: locked, lockless
# and queued, 5 repetitions) and seed 002's (a captured ept boot), R and
# RUN its run id; the boots themselves take minutes under TCG
# (t-tlb-deliveries, t-sync-ept boot them). Each exits 0 and prints what
# README says it does: a table of % changes, the CSV's header, show's
# lock profiles and the writer's rows. (The shorthand lines need a boot
# with deliveries=: t-tlb-deliveries runs them.)
readme_run() {	# readme_run ID LINE: the line with R/RUN = ID, from the root
	local line=$2 w out=()
	for w in $line; do
		case $w in R | RUN) out+=("$1") ;; *) out+=("$w") ;; esac
	done
	XCBENCH_SERVER=$URL "${out[@]}"
}
ingest_fixture() {	# ingest_fixture FILE.gz: prints the new run's id
	gunzip -c "$1" >"$TMP/fixture.log"
	"$XCBENCH" --server "$URL" ingest "$TMP/fixture.log" >"$TMP/ingest.out" 2>&1 || return 1
	curl -sf "$URL/api/v1/runs" | python3 -c 'import json,sys; print(max(r["id"] for r in json.load(sys.stdin)["runs"]))'
}
SEED=$(ingest_fixture "$ROOT/tests/fixtures/aa/boot1.serial.log.gz")
EPT=$(ingest_fixture "$ROOT/tests/fixtures/sync-ept-smp4.serial.log.gz")
check "the captured seed and ept boots are stored (runs $SEED, $EPT)" test -n "$SEED" -a -n "$EPT"
mapfile -t lines < <("${DOCPY[@]}" cmds README.md "host/build/xcbench compare R R")
check "README gives the seed table's compare lines (${#lines[@]})" test "${#lines[@]}" -ge 2
for line in "${lines[@]}"; do
	out=$(readme_run "$SEED" "$line" 2>&1)
	rc=$?
	case $line in
	*--csv*) want='^kind,.*change_pct,ci_low,ci_high' ;;
	*) want='^% change of the median call time \(p50\), locked -> lockless, ' ;;
	esac
	check "README's '$line': exits 0 ($rc) and prints its table" \
		bash -c '[ "$1" = 0 ] && grep -qE "$2" <<<"$3"' _ "$rc" "$want" "$out"
done
mapfile -t lines < <("${DOCPY[@]}" cmds README.md "host/build/xcbench compare RUN RUN --algo-a inside")
check "README gives seed 002's compare lines (${#lines[@]})" test "${#lines[@]}" -ge 2
for line in "${lines[@]}"; do
	out=$(readme_run "$EPT" "$line" 2>&1)
	rc=$?
	check "README's '$line': exits 0 ($rc), inside -> after by its row" \
		bash -c '[ "$1" = 0 ] && grep -qE "^% change of the (writer|readers).* \(p50\), inside -> after, " <<<"$2"' _ "$rc" "$out"
done
line=$("${DOCPY[@]}" cmd README.md "host/build/xcbench show RUN")
out=$(readme_run "$EPT" "$line" 2>&1)
rc=$?
check "README's '$line' on the ept boot: exits 0 ($rc), the lock profiles and the writer's hold in cycles and ns" \
	bash -c '[ "$1" = 0 ] && grep -q "lock profile" <<<"$2" && grep -qE "writer.s lock hold +p50 [0-9]+  p99 [0-9]+ cycles \(p50 [0-9.]+ ns" <<<"$2"' \
	_ "$rc" "$out"
