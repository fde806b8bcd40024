#!/bin/bash
# timeout: 240
# t-payload-keys.sh — a typo in a payload key is caught before the boot, not
# after. The payload only warns of a command-line key it does not know and
# runs its default, so `xcbench vm sutie=seed` booted a machine for minutes
# into the default suite. The host now checks every key=value it hands a
# machine against the payload's own table (firmware/cmdline_keys.c, compiled
# into the host), and a vocabulary key's words against the schema:
#  - xcbench vm and queue: exit 2, one line naming the key ("did you mean"
#    when a known key is near), nothing queued, nothing booted; a key given
#    twice is refused the same way;
#  - POST /api/v1/jobs: 400 with the usual error JSON, no job stored;
#  - what the payload takes stays taken: the test-fault keys, a list's
#    "all", the wire's names of a delivery, an empty list item;
#  - every key's value by what its parser takes (firmware/cmdline_keys.c
#    says which): the payload's own words (apic=, end=, spin=, ipidrop=...:
#    one list, firmware/lib/cmdline_words.h, that its parser matches too), a
#    number by the payload's own parser and bounds (reps=-1, iters=1e3,
#    watchdog_ms=500), a number list with its words (inits=1,x, masks=foo),
#    a run token; before, each booted a machine that stopped, or took a
#    default, minutes later; one good value of each kind is still queued;
#  - algos=, which only the payload can know: by the list the firmware build
#    writes beside the images (firmware/build/algos.txt), for the images the
#    daemon serves only (CRC-32): a typo refused with "did you mean" and the
#    image's names, exit 2 / 400 (two letters swapped are one slip: tere
#    finds tree); no list, or a stale one: nothing refused;
#  - an xcbench option that takes one value, given twice, is refused (the
#    last one was taken without a word), global or a subcommand's; a
#    repeatable one (--tag) is not.
# The daemon and the CLI are the ASan/UBSan builds where built (make unit):
# a sanitizer's report fails the line it shows in.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "payload keys checked before a boot"
[ -x "$ROOT/host/build/san/xcbenchd-asan" ] && XCBENCHD=$ROOT/host/build/san/xcbenchd-asan
[ -x "$ROOT/host/build/san/xcbench-asan" ] && XCBENCH=$ROOT/host/build/san/xcbench-asan
diag "daemon $XCBENCHD, CLI $XCBENCH"

# --firmware given: the images whose algorithms algos= is checked by (6.)
admin_daemon payload-keys-admin --firmware "$XCB_ELF"
X=("$XCBENCH" --server "$URL" --token-file "$TMP/token")
MAC=52:54:00:70:6b:01

# jobs: how many jobs the daemon holds.
jobs() { pyjson "$URL/api/v1/jobs" 'len(d["jobs"])'; }

# refused NAME STATUS LINE CMD...: one TAP line: CMD exits with STATUS and
# its stderr is exactly LINE (no usage text, no sanitizer report), and no
# job was queued.
refused() {
	local name=$1 want=$2 line=$3 rc before after
	shift 3
	before=$(jobs)
	"$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	after=$(jobs)
	check "$name ($rc: $(head -c 300 "$TMP/err" | tr '\n' ' '))" \
		bash -c '[ "$1" = "$2" ] && [ "$(cat "$3")" = "$4" ] && [ "$5" = "$6" ]' _ \
		"$rc" "$want" "$TMP/err" "$line" "$before" "$after"
}

# 1. xcbench vm: refused before the daemon is even asked for a job (no QEMU
# is needed: nothing gets that far).
refused "vm sutie=seed: 2, the key and 'did you mean suite'" 2 \
	"xcbench vm: unknown payload key 'sutie'; did you mean 'suite'?" "${X[@]}" vm sutie=seed
refused "vm delivery=unicast: did you mean deliveries" 2 \
	"xcbench vm: unknown payload key 'delivery'; did you mean 'deliveries'?" "${X[@]}" vm reps=2 delivery=unicast
refused "vm bogus=1: 2, the key named, no suggestion" 2 \
	"xcbench vm: unknown payload key 'bogus' (firmware/cmdline_keys.c lists them)" "${X[@]}" vm bogus=1
refused "vm Suite=seed (keys are lower-case): did you mean suite" 2 \
	"xcbench vm: unknown payload key 'Suite'; did you mean 'suite'?" "${X[@]}" vm Suite=seed
refused "vm suite=sed: 2, the suites named" 2 \
	"xcbench vm: payload key 'suite': 'sed' is not one of quick, default, seed, tlb, ept, stress; did you mean 'seed'?" \
	"${X[@]}" vm suite=sed
refused "vm kinds=xcall,xcal: 2, the item and the words named" 2 \
	"xcbench vm: payload key 'kinds': 'xcal' is not one of xcall, tlb, raw, sync, all; did you mean 'xcall'?" \
	"${X[@]}" vm kinds=xcall,xcal
refused "vm reps=2 reps=3: a key given twice" 2 "xcbench vm: payload key 'reps' given twice" \
	"${X[@]}" vm reps=2 reps=3

# 2. xcbench queue: the same, and nothing queued.
refused "queue sutie=seed: 2, nothing queued" 2 \
	"xcbench queue: unknown payload key 'sutie'; did you mean 'suite'?" \
	"${X[@]}" queue --mac $MAC --suite quick sutie=seed
refused "queue flush=vectr: 2, flush's words named" 2 \
	"xcbench queue: payload key 'flush': 'vectr' is not one of vector, xcall, concurrent, early_ack, early_ack_reader, consolidated, all; did you mean 'vector'?" \
	"${X[@]}" queue --mac $MAC --suite quick flush=vectr
# what the payload takes: test-fault keys (tests pass them on purpose), a
# list's all, a delivery's wire name, an empty item (skipped by the payload)
"${X[@]}" queue --mac $MAC --suite quick reps=2 hang_cpu=1 ipidrop=mask ipidrop_cpu=1 kinds=all \
	deliveries=allbutself,cluster, >"$TMP/out" 2>"$TMP/err"
rc=$?
check "queue with fault keys, all, wire names: queued ($rc: $(head -c 300 "$TMP/err"))" \
	bash -c '[ "$1" = 0 ] && grep -q "^queued job " "$2"' _ "$rc" "$TMP/out"
check "its params as given" test "$(pyjson "$URL/api/v1/jobs" 'd["jobs"][0]["params"]["deliveries"]')" = "allbutself,cluster,"

# 3. POST /api/v1/jobs: 400, the usual error JSON, nothing stored.
# post PARAMS: "STATUS BODY" of a job POST with those params.
post() {
	curl -s -o "$TMP/body" -w '%{http_code}' -X POST "${ADMIN[@]}" \
		-d "{\"mac\":\"$MAC\",\"suite\":\"quick\",\"params\":$1}" "$URL/api/v1/jobs"
	printf ' %s' "$(cat "$TMP/body")"
}
n=$(jobs)
got=$(post '{"sutie":"seed"}')
check "POST params sutie: 400 naming it, did you mean suite ($got)" \
	test "$got" = "400 {\"error\":\"params: unknown payload key 'sutie'; did you mean 'suite'?\",\"status\":400}"
got=$(post '{"reps":"2","waits":"ack,dne"}')
check "POST params waits=ack,dne: 400 naming the word ($got)" \
	test "$got" = "400 {\"error\":\"params: payload key 'waits': 'dne' is not one of none, ack, done, all; did you mean 'done'?\",\"status\":400}"
got=$(post '{"suite":"defualt"}')
check "POST params suite=defualt: 400 ($got)" \
	test "$got" = "400 {\"error\":\"params: payload key 'suite': 'defualt' is not one of quick, default, seed, tlb, ept, stress; did you mean 'default'?\",\"status\":400}"
check "nothing stored by those ($(jobs))" test "$(jobs)" = "$n"
got=$(post '{"reps":3,"fault_cpu":"1","modes":"inside,lazy","harness":"bare"}')
check "POST params known keys (an integer value too): 201 (${got:0:80})" test "${got%% *}" = 201
# the checks of the shape still answer first (their messages name it)
got=$(post '{"Reps":"3"}')
check "POST params Reps: the key's spelling refused as before ($got)" \
	test "$got" = "400 {\"error\":\"params.Reps: keys [a-z0-9_], values without spaces or quotes\",\"status\":400}"

# 4. an option that takes one value, given twice: refused, both named
refused "vm --suite seed --suite tlb: 2, both values named" 2 \
	"xcbench vm: --suite: given more than once ('seed', then 'tlb'); it takes one value" \
	"${X[@]}" vm --suite seed --cpus 2 --suite tlb
refused "queue --mac twice: 2" 2 \
	"xcbench queue: --mac: given more than once ('$MAC', then '52:54:00:70:6b:02'); it takes one value" \
	"${X[@]}" queue --mac $MAC --suite quick --mac 52:54:00:70:6b:02
refused "queue --attempts twice (a JSON body option): 2" 2 \
	"xcbench queue: --attempts: given more than once ('2', then '3'); it takes one value" \
	"${X[@]}" queue --mac $MAC --suite quick --attempts 2 --attempts=3
refused "--server twice (a global option): 2" 2 \
	"xcbench: --server: given more than once ('$URL', then 'http://127.0.0.1:1'); it takes one value" \
	"${X[@]}" --server=http://127.0.0.1:1 runs
"${X[@]}" queue --mac $MAC --suite quick --tag a --tag b --meta k=1 --meta j=2 >"$TMP/out" 2>"$TMP/err"
rc=$?
tags=$(pyjson "$URL/api/v1/jobs" '",".join(d["jobs"][0]["tags"]) + " " + ",".join(sorted(d["jobs"][0]["meta"]))')
check "queue --tag a --tag b --meta twice (repeatable): queued with both ($rc, $tags: $(head -c 200 "$TMP/err"))" \
	test "$rc $tags" = "0 a,b j,k"
"${X[@]}" runs --json --json >/dev/null 2>"$TMP/err"
rc=$?
check "runs --json --json (a flag twice): taken ($rc)" test "$rc" = 0 -a ! -s "$TMP/err"

# 5. every key's value, by the kind its parser takes (cmdline_keys.c)
# the payload's own words (lib/cmdline_words.h)
refused "vm apic=x2apci: 2, apic's words named" 2 \
	"xcbench vm: payload key 'apic': 'x2apci' is not one of auto, xapic, x2apic; did you mean 'x2apic'?" "${X[@]}" vm apic=x2apci
refused "vm end=rebot: 2, end's words named" 2 \
	"xcbench vm: payload key 'end': 'rebot' is not one of exit, halt, reboot; did you mean 'reboot'?" "${X[@]}" vm end=rebot
refused "vm tsc=hpet: 2, nothing near: the words alone (the payload refuses it too)" 2 \
	"xcbench vm: payload key 'tsc': 'hpet' is not one of auto, cpuid, pmtimer, pit" "${X[@]}" vm tsc=hpet
refused "queue ipidrop=masks: 2, nothing queued" 2 \
	"xcbench queue: payload key 'ipidrop': 'masks' is not one of none, raw, paths, qlist, lazy, mask, vector; did you mean 'mask'?" \
	"${X[@]}" queue --mac $MAC --suite quick ipidrop=masks ipidrop_cpu=1
# numbers, by the payload's parser (cmdline_parse_u64) and bounds
refused "vm reps=-1: 2, the range named" 2 \
	"xcbench vm: payload key 'reps': '-1' is not a number from 1 to 1000 (decimal or 0x hex, k/m/g suffix)" \
	"${X[@]}" vm reps=-1
refused "vm iters=1e3: 2" 2 \
	"xcbench vm: payload key 'iters': '1e3' is not a number (decimal or 0x hex, k/m/g suffix)" "${X[@]}" vm iters=1e3
refused "vm ap_timeout_ms=abc: 2" 2 \
	"xcbench vm: payload key 'ap_timeout_ms': 'abc' is not a number (decimal or 0x hex, k/m/g suffix)" \
	"${X[@]}" vm ap_timeout_ms=abc
refused "queue watchdog_ms=500: 2 (the payload raised it to 1000 without a word)" 2 \
	"xcbench queue: payload key 'watchdog_ms': '500' is not 0 or a number of at least 1000" \
	"${X[@]}" queue --mac $MAC --suite quick watchdog_ms=500
refused "queue crash_cpu=1.5 (a CPU): 2" 2 \
	"xcbench queue: payload key 'crash_cpu': '1.5' is not a number (decimal or 0x hex, k/m/g suffix)" \
	"${X[@]}" queue --mac $MAC --suite quick crash_cpu=1.5
# number lists, item by item, and their words
refused "vm inits=1,x: 2, the item named" 2 \
	"xcbench vm: payload key 'inits': 'x' is not a number from 1 to 100000000 or pow2 (decimal or 0x hex, k/m/g suffix)" \
	"${X[@]}" vm inits=1,x
refused "vm masks=foo: 2, its words named" 2 \
	"xcbench vm: payload key 'masks': 'foo' is not a number from 1 to 100000000, all or pow2 (decimal or 0x hex, k/m/g suffix)" \
	"${X[@]}" vm masks=foo
refused "queue batches=8,65: 2, the bound named" 2 \
	"xcbench queue: payload key 'batches': '65' is not a number from 1 to 64" \
	"${X[@]}" queue --mac $MAC --suite quick batches=8,65
# the run token (which the daemon sets: a job's is refused as reserved)
refused "vm run=xyz: 2" 2 "xcbench vm: payload key 'run': 'xyz' is not 16 hex digits" "${X[@]}" vm run=xyz
# one good value of each kind: queued, as given (two jobs: a job's params
# fit the payload's command line)
for kv in "apic=x2apic tsc=pit end=halt console=serial spin=plain ipidrop=none reps=0x10 iters=1k" \
	"watchdog_ms=0 crash_cpu=1 inits=1,pow2, masks=1,all,pow2 batches=64 writer=0,3 seed=0xffffffffffffffff"; do
	# shellcheck disable=SC2086 # one argument per key=value
	"${X[@]}" queue --mac $MAC --suite quick $kv >"$TMP/out" 2>"$TMP/err"
	rc=$?
	check "queue $kv: queued ($rc: $(head -c 300 "$TMP/err"))" \
		bash -c '[ "$1" = 0 ] && grep -q "^queued job " "$2"' _ "$rc" "$TMP/out"
done
check "its params as given" test "$(pyjson "$URL/api/v1/jobs" 'd["jobs"][0]["params"]["masks"] + " " + d["jobs"][1]["params"]["reps"]')" = "1,all,pow2 0x10"
n=$(jobs)
got=$(post '{"spin":"fast"}')
check "POST params spin=fast: 400 naming spin's words ($got)" \
	test "$got" = "400 {\"error\":\"params: payload key 'spin': 'fast' is not one of auto, pause, plain\",\"status\":400}"
got=$(post '{"reps":0}')
check "POST params reps=0 (an integer): 400 naming the range ($got)" \
	test "$got" = "400 {\"error\":\"params: payload key 'reps': '0' is not a number from 1 to 1000\",\"status\":400}"
got=$(post '{"masks":"1,foo"}')
check "POST params masks=1,foo: 400 naming the item ($got)" \
	test "$got" = "400 {\"error\":\"params: payload key 'masks': 'foo' is not a number from 1 to 100000000, all or pow2 (decimal or 0x hex, k/m/g suffix)\",\"status\":400}"
got=$(post '{"watchdog_ms":"999"}')
check "POST params watchdog_ms=999: 400 ($got)" \
	test "$got" = "400 {\"error\":\"params: payload key 'watchdog_ms': '999' is not 0 or a number of at least 1000\",\"status\":400}"
got=$(post '{"console":"nnone"}')
check "POST params console=nnone: 400 ($got)" \
	test "$got" = "400 {\"error\":\"params: payload key 'console': 'nnone' is not one of serial, none; did you mean 'none'?\",\"status\":400}"
check "nothing stored by those ($(jobs))" test "$(jobs)" = "$n"
got=$(post '{"crash":"de","crash_cpu":1,"watchdog_ms":1000,"batches":"1,64","groups":"0,4","end":"reboot","transport":"both"}')
check "POST params a good value of each kind: 201 (${got:0:80})" test "${got%% *}" = 201

# 6. algos=: only the payload knows its algorithms, so the daemon checks a
# name against the list the firmware build wrote beside the images it
# serves (firmware/build/algos.txt, from the linked payload's XCALL_ALGO
# symbols); before, algos=lockles booted a machine that stopped with "bad
# command line" minutes later.
LIST=$ROOT/firmware/build/algos.txt
have="$(sed -n 's/^algo //p' "$LIST" | paste -sd, - | sed 's/,/, /g'), all"
check "the build lists the payload's algorithms ($have)" grep -qx 'algo lockless' "$LIST"
algos_said="payload key 'algos': 'lockles' is not an algorithm of the payload image; did you mean 'lockless'? (it has: $have)"
refused "queue algos=locked,lockles: 2, did you mean lockless, the image's names" 2 \
	"xcbench: POST /api/v1/jobs: HTTP 400: params: $algos_said" \
	"${X[@]}" queue --mac $MAC --suite quick algos=locked,lockles
"${X[@]}" vm --dir "$TMP/vm" algos=lockles >"$TMP/out" 2>"$TMP/err"
rc=$?
check "vm algos=lockles: 2, the daemon's line, no machine started ($rc: $(head -c 300 "$TMP/err"))" \
	bash -c '[ "$1" = 2 ] && grep -qxF "xcbench: POST /api/v1/jobs: HTTP 400: params: $2" "$3" && ! grep -q "QEMU started" "$4"' _ \
	"$rc" "$algos_said" "$TMP/err" "$TMP/out"
# ... and without --dir, the directory it made for the machine is gone
# again (each refused try left an empty /tmp/xcbench-vm.* behind).
"${X[@]}" vm algos=lockles >"$TMP/out" 2>"$TMP/err"
rc=$?
vmdir=$(sed -n 's/.* files in \(\/tmp\/xcbench-vm\.[A-Za-z0-9]*\)$/\1/p' "$TMP/out")
check "vm algos=lockles without --dir: 2, and its directory removed ($rc: ${vmdir:-no directory named})" \
	bash -c '[ "$1" = 2 ] && [ -n "$2" ] && [ ! -e "$2" ]' _ "$rc" "$vmdir"
n=$(jobs)
got=$(post '{"algos":"tree,bcnt"}')
check "POST params algos=tree,bcnt: 400 naming it and the image's names ($got)" \
	test "$got" = "400 {\"error\":\"params: payload key 'algos': 'bcnt' is not an algorithm of the payload image (it has: $have)\",\"status\":400}"
check "nothing stored by those ($(jobs))" test "$(jobs)" = "$n"
# Two letters swapped are one slip (firmware/lib/cmdline_key.c counts a
# swap as one edit): a 4-letter name (a third of it: 1 edit) had no "did
# you mean" for tere, which counted as two substitutions.
got=$(post '{"algos":"tere"}')
check "POST params algos=tere (a swap): 400, did you mean tree ($got)" \
	test "$got" = "400 {\"error\":\"params: payload key 'algos': 'tere' is not an algorithm of the payload image; did you mean 'tree'? (it has: $have)\",\"status\":400}"
refused "queue algos=rtee (a swap): 2, did you mean tree" 2 \
	"xcbench: POST /api/v1/jobs: HTTP 400: params: payload key 'algos': 'rtee' is not an algorithm of the payload image; did you mean 'tree'? (it has: $have)" \
	"${X[@]}" queue --mac $MAC --suite quick algos=rtee
check "nothing stored by those ($(jobs))" test "$(jobs)" = "$n"
"${X[@]}" queue --mac $MAC --suite quick algos=lockless,tree,all, >"$TMP/out" 2>"$TMP/err"
rc=$?
check "queue algos=lockless,tree,all, (the image's names): queued ($rc: $(head -c 300 "$TMP/err"))" \
	bash -c '[ "$1" = 0 ] && grep -q "^queued job " "$2"' _ "$rc" "$TMP/out"

stop_daemon
check "the daemon stops cleanly (no sanitizer report)" bash -c '! grep -E "Sanitizer|runtime error" "$1"' _ "$TMP/daemon.log"

# 7. The list is the images' it was built with: a daemon serving a payload
# of its own (--firmware) checks by the list beside it only while every
# image it serves is one the list names (CRC-32); a rebuilt or copied image
# with an old list, or none, is not checked: a good name is never refused.
FW=$TMP/fw
mkdir -p "$FW"
cp "$ROOT/firmware/build/xcbench.elf" "$ROOT/firmware/build/xcbench.efi" "$LIST" "$FW/"
admin_daemon payload-keys-admin --firmware "$FW/xcbench.elf"
got=$(post '{"algos":"bcnt"}')
check "--firmware elsewhere, its list beside it: algos=bcnt refused (${got:0:80})" test "${got%% *}" = 400
printf 'x' >>"$FW/xcbench.efi"	# the UEFI image rebuilt, the list not
got=$(post '{"algos":"bcnt"}')
check "... the UEFI image beside it not the list's: nothing refused (${got:0:80})" test "${got%% *}" = 201
cp "$ROOT/firmware/build/xcbench.efi" "$FW/"
rm "$FW/algos.txt"
got=$(post '{"algos":"bcnt"}')
check "... no list beside it: nothing refused (${got:0:80})" test "${got%% *}" = 201
stop_daemon
check "the second daemon stops cleanly (no sanitizer report)" bash -c '! grep -E "Sanitizer|runtime error" "$1"' _ "$TMP/daemon.log"
