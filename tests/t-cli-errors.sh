#!/bin/bash
# timeout: 180
# xcbench's failures are said and end with a non-zero status, on one daemon
# and a mute server (tests/mute-server.py):
#  - output that cannot be written (stdout on /dev/full) is an error, 1,
#    for every command that prints; a closed pipe (`| head`) stays silent;
#  - a server that accepts and never answers, or stops in the middle of an
#    export, ends the call after $XCBENCH_TIMEOUT s naming it; a server
#    whose accept queue is full, after the 10 s connect timeout;
#  - a server that answers 200 with JSON that is no object (not xcbenchd)
#    is refused, naming it (show printed dashes, queue 'queued job 0');
#  - an argument that is not UTF-8 is refused up front (2) and nothing is
#    sent (it used to be dropped from the request without a word);
#  - export -o onto a directory leaves no FILE.tmp; -o "" is refused;
#  - --server without a value frees what it took (the ASan build exits 2);
#  - ids past 2^63-1, negative or with junk are refused, not clamped;
#    `show 1 2` counts the arguments; calibrate RUNS --boot N is refused
#    (the list went to xcbench vm, which named itself);
#  - a --token-file that cannot be read, is a directory or is empty is an
#    error (xcbenchd's empty one is said to be empty); a 401 answer says
#    to pass --token-file, or (a token sent) that the daemon refused the
#    one in --token-file FILE or $XCBENCH_TOKEN;
#  - `vm --suite` is checked before anything boots; the API refuses query
#    arguments that are not UTF-8 (400, not a 500);
#  - ingest --mac of a run stored before says it is not applied; a --mac
#    that is no MAC is named before the capture is read;
#  - a label's control characters reach no terminal: the text forms show
#    them as '?', --json keeps them (escaped by JSON);
#  - runs --machine "" (an unset variable) or any empty filter is refused:
#    the daemon reads an empty argument as none and listed every run; so
#    is every empty text option but a label (compare --algo-a '' compared
#    every algorithm);
#  - runs --lab NAME that is none of the store's labs says so, names the
#    labs there are, and exits 1 (it listed "no run matches", exit 0); a
#    known lab with nothing to list, or a lab daemon's own, is no error.
#  - xcbenchd --db "" or :memory: and xcb-copy --db "": refused (SQLite's
#    temporary and in-memory databases are gone at exit; the daemon ran
#    on one, the copy copied into one and exited 0);
#  - xcbenchd --listen "" or --udp "": refused (they listened on
#    0.0.0.0:8080), and an address error names its option;
#  - an unknown option or one without its value is named under the
#    command's name (getopt named argv[0]: 'runs:', the binary's path);
#  - a real-number option (ingest --timeout, xcbenchd --test-drop, xcb-gen
#    --loss, xcb-load --give-up) takes a finite number in its range: nan,
#    inf, 1e999 and out-of-range values were taken (a --timeout of nan
#    never timed out, a --loss of 5 was a loss of 1).
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "cli errors"

admin_daemon cli-errors-admin
X=("$XCBENCH" --server "$URL" --token-file "$TMP/token")
curl -sf -X POST "${ADMIN[@]}" -d '{"token":"ce001","suite":"gen"}' "$URL/api/v1/runs" >/dev/null
"$XCB_GEN" --server 127.0.0.1:$PORT --runs 1 --token ce001 --reps 2 >/dev/null 2>&1
ID=$(pyjson "$URL/api/v1/runs" 'd["runs"][0]["id"]')
check "one run stored ($ID)" [ -n "$ID" ]

# expect_fail NAME STATUS PATTERN CMD...: one TAP line: CMD exits with
# STATUS and its stderr matches PATTERN (grep -E); its stderr in TMP/err.
expect_fail() {
	local name=$1 want=$2 pat=$3 rc
	shift 3
	"$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	check "$name ($rc: $(head -c 300 "$TMP/err" | tr '\n' ' '))" \
		bash -c "[ $rc = $want ] && grep -qE -- \"\$1\" '$TMP/err'" _ "$pat"
}

# 1. standard output that cannot be written
for args in "export $ID" "samples $ID" "compare $ID $ID --csv" "runs" "show $ID" "--help"; do
	# shellcheck disable=SC2086 # args: words
	"${X[@]}" $args >/dev/full 2>"$TMP/err"
	rc=$?
	check "$args >/dev/full: status 1, says why ($rc: $(tr '\n' ' ' <"$TMP/err"))" \
		bash -c "[ $rc = 1 ] && grep -qx 'xcbench: writing the output failed: No space left on device' '$TMP/err'"
done
"${X[@]}" runs 2>"$TMP/err" | head -c 1 >/dev/null
check "runs | head -c 1: nothing on stderr ($(head -c 200 "$TMP/err"))" [ ! -s "$TMP/err" ]
# A pipe already closed before xcbench writes: killed by SIGPIPE, silent.
python3 - "${X[@]}" export "$ID" >"$TMP/pipe" 2>&1 <<'EOF'
import os, subprocess, sys
r, w = os.pipe()
os.close(r)
p = subprocess.run(sys.argv[1:], stdout=w, stderr=subprocess.PIPE)   # SIGPIPE default in the child
print(p.returncode, repr(p.stderr.decode()))
EOF
check "export into a closed pipe: SIGPIPE, nothing said ($(cat "$TMP/pipe"))" grep -qx "\-13 ''" "$TMP/pipe"

# 2. a server that never answers; one that stops in the middle; one that
# never accepts
# mute MODE: starts tests/mute-server.py MODE; sets MPID and MURL.
mute() {
	rm -f "$TMP/mport"
	python3 "$ROOT/tests/mute-server.py" "$TMP/mport" "$1" &
	MPID=$!
	for _ in $(seq 100); do [ -s "$TMP/mport" ] && break; sleep 0.1; done
	MURL=http://127.0.0.1:$(cat "$TMP/mport")
}
mute silent
expect_fail "a server that never answers: named, status 1" 1 "^xcbench: $MURL answered nothing in 2 s$" \
	timeout 30 env XCBENCH_TIMEOUT=2 "$XCBENCH" --server "$MURL" runs
kill "$MPID"; wait "$MPID" 2>/dev/null
mute stall
expect_fail "a server that stops in the middle of an export: status 1" 1 "^xcbench: $MURL sent no more of its answer in 2 s$" \
	timeout 30 env XCBENCH_TIMEOUT=2 "$XCBENCH" --server "$MURL" export 1 -o "$TMP/cut.csv"
check "... and leaves no file (the export is not complete)" bash -c "[ ! -e '$TMP/cut.csv' ] && [ ! -e '$TMP/cut.csv.tmp' ]"
kill "$MPID"; wait "$MPID" 2>/dev/null
mute full
expect_fail "a server that never accepts: the 10 s connect timeout" 1 "^xcbench: cannot connect to $MURL: no answer in 10 s" \
	timeout 30 "$XCBENCH" --server "$MURL" runs
kill "$MPID"; wait "$MPID" 2>/dev/null
# A server that answers, but not as xcbenchd (a JSON list): refused, where
# show printed a run of dashes and queue 'queued job 0', exit 0.
rm -f "$TMP/wport"
python3 "$ROOT/tests/wrong-server.py" "$TMP/wport" &
WPID=$!
for _ in $(seq 100); do [ -s "$TMP/wport" ] && break; sleep 0.1; done
WURL=http://127.0.0.1:$(cat "$TMP/wport")
expect_fail "show against a server that is not xcbenchd: refused" 1 \
	"^xcbench: GET /api/v1/runs/1: answer is not a JSON object \(is $WURL an xcbenchd\?\)$" \
	"$XCBENCH" --server "$WURL" show 1
check "... and nothing on stdout ($(head -c 100 "$TMP/out"))" [ ! -s "$TMP/out" ]
expect_fail "queue against it: no job claimed" 1 "answer is not a JSON object" \
	"$XCBENCH" --server "$WURL" queue --mac 52:54:00:ce:00:02 --suite quick
check "... and no 'queued' line ($(head -c 100 "$TMP/out"))" [ ! -s "$TMP/out" ]
kill "$WPID"; wait "$WPID" 2>/dev/null
# A web server's 404 page: export and samples (streamed answers) said
# "HTTP 404: " and the whole HTML page; every command says what show says
rm -f "$TMP/wport"
python3 "$ROOT/tests/wrong-server.py" "$TMP/wport" html404 &
WPID=$!
for _ in $(seq 100); do [ -s "$TMP/wport" ] && break; sleep 0.1; done
WURL=http://127.0.0.1:$(cat "$TMP/wport")
for c in "export 1" "samples 1" "show 1"; do
	# shellcheck disable=SC2086  # the command's words
	expect_fail "$c against a web server's 404 page: one line, not its HTML" 1 \
		"HTTP 404: not an xcbenchd answer \(is $WURL an xcbenchd\?\)$" "$XCBENCH" --server "$WURL" $c
	check "... one line on stderr, nothing on stdout" bash -c '[ "$(wc -l <"$1")" = 1 ] && [ ! -s "$2" ]' _ "$TMP/err" "$TMP/out"
done
kill "$WPID"; wait "$WPID" 2>/dev/null
expect_fail "XCBENCH_TIMEOUT must be whole seconds" 2 "XCBENCH_TIMEOUT='2s': expected whole seconds" \
	env XCBENCH_TIMEOUT=2s "$XCBENCH" --server "$URL" runs

# 3. arguments that are not UTF-8 (argv[8] is --notes' value here)
expect_fail "label --notes \\xff\\xfe: refused, status 2" 2 "^xcbench: argument 8 is not valid UTF-8$" \
	"${X[@]}" label "$ID" --notes $'\xff\xfe' --label ok
l=$(pyjson "$URL/api/v1/runs/$ID" '(d["run"]["label"], d["run"].get("notes"))')
check "... and the run is unchanged ($l)" [ "$l" = "(None, None)" ]
"${X[@]}" label "$ID" --notes "café ☕" --label ok >/dev/null 2>"$TMP/err"
l=$(pyjson "$URL/api/v1/runs/$ID" '(d["run"]["label"], d["run"].get("notes"))')
check "UTF-8 beyond ASCII is taken ($l)" [ "$l" = "('ok', 'café ☕')" ]
expect_fail "label RUN base: a bare word is refused, and the hint names --label" 2 \
	"^xcbench label: 'base' is not KEY=VALUE \\(or KEY= to remove\\); to set the label: --label 'base'$" \
	"${X[@]}" label "$ID" base
expect_fail "queue --tag \\xff: refused" 2 "^xcbench: argument 11 is not valid UTF-8$" \
	"${X[@]}" queue --mac 52:54:00:ce:00:01 --suite quick --tag $'\xff'
n=$(curl -s "${ADMIN[@]}" "$URL/api/v1/jobs?pending=1" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["jobs"]))')
check "... and nothing is queued ($n)" [ "$n" = 0 ]
expect_fail "machine set --power \\xff: refused as not UTF-8" 2 "^xcbench: argument 9 is not valid UTF-8$" \
	"${X[@]}" machine set 52:54:00:ce:00:01 --power $'\xff'

# 4. export -o onto a directory, and -o ""
mkdir -p "$TMP/somedir" "$TMP/cwd"
expect_fail "export -o DIR: cannot rename" 1 "cannot rename to '$TMP/somedir': Is a directory" \
	"${X[@]}" export "$ID" -o "$TMP/somedir"
check "... and leaves no DIR.tmp" bash -c "[ ! -e '$TMP/somedir.tmp' ] && [ -d '$TMP/somedir' ]"
(cd "$TMP/cwd" && "${X[@]}" export "$ID" -o "" >"$TMP/out" 2>"$TMP/err")
rc=$?
check "export -o '': a usage error ($rc: $(cat "$TMP/err"))" \
	bash -c "[ $rc = 2 ] && grep -q -- \"--output needs a value, not ''\" '$TMP/err'"
check "... and leaves no .tmp ($(ls -A "$TMP/cwd"))" [ -z "$(ls -A "$TMP/cwd")" ]
"${X[@]}" export "$ID" -o "$TMP/good.csv" 2>"$TMP/err"
check "export -o FILE still writes FILE, no FILE.tmp" \
	bash -c "[ \$(wc -l <'$TMP/good.csv') -gt 1 ] && [ ! -e '$TMP/good.csv.tmp' ]"

# 5. --server / --token-file without a value, under ASan (LeakSanitizer)
ASAN=$ROOT/host/build/san/xcbench-asan
if [ -x "$ASAN" ]; then
	for opt in --server --token-file; do
		expect_fail "$opt without a value: status 2 under ASan, no leak" 2 "^xcbench: $opt needs a value$" "$ASAN" "$opt"
		check "... LeakSanitizer is quiet" bash -c "! grep -q LeakSanitizer '$TMP/err'"
	done
else
	skip "--server without a value under ASan" "host/build/san/xcbench-asan not built (make -C host tests)"
fi

# 5a. a gzip-compressed capture is said to be one, with what to run (it
# said "N lines: 0 frames ... no XCB1 frames found", no more)
printf 'boot\nXCB1 AAAA\n' | gzip >"$TMP/cap.log.gz"
expect_fail "ingest FILE.gz: said gzip-compressed, with the zcat to run" 1 \
	"^xcbench ingest: '$TMP/cap.log.gz' is gzip-compressed: zcat $TMP/cap.log.gz \| xcbench ingest -$" \
	"${X[@]}" ingest "$TMP/cap.log.gz"
# 5a. ingest of a directory names it (it said 'read: Is a directory')
expect_fail "ingest DIR: the directory named" 1 "^xcbench ingest: cannot read '$TMP/somedir': Is a directory$" \
	"${X[@]}" ingest "$TMP/somedir"

# 5b. real numbers: refused before anything is read, sent or started (the
# old code ran these; timeout bounds them)
for v in nan inf 1e999 -1 0 " 5" 5x; do
	expect_fail "ingest --timeout '$v': refused, named" 2 "^xcbench ingest: --timeout: '$v' is not a number in 1\.\.604800$" \
		"${X[@]}" ingest --timeout "$v" /dev/null
done
for v in nan 5 -0.5 1e999; do
	expect_fail "xcb-gen --loss '$v': refused" 2 "^xcb-gen: --loss: '$v' is not a number in 0\.\.1$" \
		"$XCB_GEN" --loss "$v" --serial /dev/null
	expect_fail "xcbenchd --test-drop '$v': refused" 2 "^xcbenchd: --test-drop: '$v' is not a number in 0\.\.1$" \
		timeout 20 "$XCBENCHD" --test-drop "$v" --db "$TMP/never.db" --listen 127.0.0.1:1 --udp 127.0.0.1:1
done
check "... and xcbenchd made no database" [ ! -e "$TMP/never.db" ]
# xcb-gen's list and its capture: atof took 'abc' as 0 and '1,,2' as
# 1, 0, 2; a capture that could not be written ended 0; an operand was
# ignored
for v in abc "1,,2" "1,-1"; do
	expect_fail "xcb-gen --factor '$v': refused" 2 "^xcb-gen: --factor: '[^']*' is not a number in 1e-06\.\.1e\+06$" \
		"$XCB_GEN" --factor "$v" --serial /dev/null
done
"$XCB_GEN" --runs 2 --factor 1.0,0.5 --token 5e1 --serial "$TMP/f.cap" >/dev/null 2>&1
check "xcb-gen --factor 1.0,0.5 still writes both runs" test "$(grep -c '^XCB1 ' "$TMP/f.cap")" -gt 2
expect_fail "xcb-gen --serial /dev/full: an error" 1 "^/dev/full: No space left on device$" "$XCB_GEN" --serial /dev/full
expect_fail "xcb-gen with an operand: refused" 2 "^xcb-gen: unexpected argument 'extra'" "$XCB_GEN" --serial /dev/null extra
expect_fail "xcb-load --give-up nan: refused" 2 "^xcb-load: --give-up: 'nan' is not a number in 1\.\.604800$" \
	timeout 20 "$ROOT/host/build/xcb-load" --give-up nan --machines 1 --server 127.0.0.1:1

# 5c. a store that SQLite would keep nowhere
# ('' is refused as every empty text option is, before the store sees it)
expect_fail "xcbenchd --db '': refused, named" 2 "^xcbenchd: --db needs a value, not ''$" \
	timeout 20 "$XCBENCHD" --db "" --listen 127.0.0.1:1 --udp 127.0.0.1:1
expect_fail "xcbenchd --db ':memory:': refused, named" 1 "^xcbenchd: cannot open database ':memory:': .*gone at exit" \
	timeout 20 "$XCBENCHD" --db ":memory:" --listen 127.0.0.1:1 --udp 127.0.0.1:1
expect_fail "xcb-copy --db '': refused, nothing copied" 2 "^xcb-copy: --db needs a value, not ''$" \
	timeout 60 "$ROOT/host/build/xcb-copy" --from "$DB" --db "" --lab A --quiet
check "... and no summary on stdout ($(head -c 100 "$TMP/out"))" [ ! -s "$TMP/out" ]
# An empty address was the default one (0.0.0.0:8080, every interface);
# a bad one is named by its option.
for opt in --listen --udp; do
	expect_fail "xcbenchd $opt '': refused, named" 2 "^xcbenchd: $opt needs a value, not ''$" \
		timeout 20 "$XCBENCHD" --listen 127.0.0.1:1 --udp 127.0.0.1:1 "$opt" "" --db "$TMP/never.db"
done
# A default suite the payload lacks (every machine without a job would
# boot into 'unknown suite'): refused as POST /api/v1/jobs refuses it.
expect_fail "xcbenchd --suite smoke: not a suite" 2 "^xcbenchd: --suite: 'smoke' is not quick, default, seed, tlb, ept or stress$" \
	timeout 20 "$XCBENCHD" --suite smoke --listen 127.0.0.1:1 --udp 127.0.0.1:1 --db "$TMP/never.db"
expect_fail "xcbenchd --udp 127.0.0.1:99999: named" 2 "^xcbenchd: --udp: bad port in '127.0.0.1:99999'$" \
	"$XCBENCHD" --udp 127.0.0.1:99999 --db "$TMP/never.db"
check "... and xcbenchd made no database" [ ! -e "$TMP/never.db" ]

# 5d. getopt's refusals, said under the command's name (they named argv[0]:
# 'runs: unrecognized option', or the daemon binary's path)
expect_fail "runs --bogus: the command and the option named" 2 "^xcbench runs: unknown option '--bogus'$" "${X[@]}" runs --bogus
expect_fail "runs --limit (no value): named" 2 "^xcbench runs: --limit needs a value$" "${X[@]}" runs --limit
expect_fail "runs --json=1: takes no value" 2 "^xcbench runs: --json takes no value$" "${X[@]}" runs --json=1
expect_fail "export RUN -x: a short option named" 2 "^xcbench export: unknown option '-x'$" "${X[@]}" export "$ID" -x
expect_fail "export RUN -o (no value): named" 2 "^xcbench export: -o needs a value$" "${X[@]}" export "$ID" -o
expect_fail "xcbenchd --bogus: named as xcbenchd" 2 "^xcbenchd: unknown option '--bogus'$" "$XCBENCHD" --bogus
expect_fail "xcb-copy --from (no value): named" 2 "^xcb-copy: --from needs a value$" "$ROOT/host/build/xcb-copy" --from

# 6. ids
expect_fail "baseline 2^64-1: not a run id" 2 "not a list of run ids \(1,2,3\): '18446744073709551615'" \
	"${X[@]}" baseline 18446744073709551615
expect_fail "baseline 1,9223372036854775808: past 2^63-1" 2 "not a list of run ids" \
	"${X[@]}" baseline "$ID,9223372036854775808"
expect_fail "job show 1 extra: the extra argument named" 2 "^xcbench job show: unexpected argument 'extra' \(one job id\)$" \
	"${X[@]}" job show 1 extra
expect_fail "job show 99999999999999999999999: not a job id" 2 "^xcbench job: not a job id: '99999999999999999999999'$" \
	"${X[@]}" job show 99999999999999999999999
expect_fail "job cancel -1: not a job id" 2 "not a job id: '-1'" "${X[@]}" job cancel -- -1
for bad in 18446744073709551615 9223372036854775808 "${ID}x" " $ID" "" 0; do
	expect_fail "show '$bad': not a run id" 2 "^xcbench show: not a run id: '$bad'$" "${X[@]}" show "$bad"
done
expect_fail "calibrate RUNS --boot 4: the two ways at once are refused" 2 \
	"^xcbench calibrate: a list of run ids \\($ID,$ID,$ID,$ID\\) or --boot N, not both$" \
	"${X[@]}" calibrate "$ID,$ID,$ID,$ID" --boot 4
check "... before any boot ($(head -c 200 "$TMP/err" | tr '\n' ' '))" bash -c "! grep -q 'boot 1 of' '$TMP/err'"
expect_fail "show 1 2: counts the arguments" 2 "^xcbench show: expected one run id, got 2$" "${X[@]}" show 1 2
expect_fail "show: counts none" 2 "^xcbench show: expected one run id, got 0$" "${X[@]}" show
"${X[@]}" show 9223372036854775807 >/dev/null 2>"$TMP/err"
rc=$?
check "show 2^63-1 is an id, asked of the daemon ($rc: $(cat "$TMP/err"))" \
	bash -c "[ $rc = 1 ] && grep -q 'HTTP 404' '$TMP/err'"

# 7. --token-file that cannot serve; a 401 answer
: >"$TMP/empty-token"
expect_fail "--token-file missing: an error" 1 "^xcbench: --token-file '$TMP/nonexistent': No such file or directory$" \
	"$XCBENCH" --server "$URL" --token-file "$TMP/nonexistent" runs
expect_fail "--token-file a directory: an error" 1 "^xcbench: --token-file '$TMP/somedir': Is a directory$" \
	"$XCBENCH" --server "$URL" --token-file "$TMP/somedir" runs
expect_fail "--token-file empty: an error" 1 "^xcbench: --token-file '$TMP/empty-token': empty" \
	"$XCBENCH" --server "$URL" --token-file "$TMP/empty-token" runs
# xcbenchd's own: an empty file was "No such file or directory" (a stale errno)
expect_fail "xcbenchd --token-file empty: said to be empty" 2 \
	"^xcbenchd: --token-file '$TMP/empty-token': cannot read a token: empty \(its first line must be the admin token\)$" \
	timeout 20 "$XCBENCHD" --token-file "$TMP/empty-token" --db "$TMP/never.db" --listen 127.0.0.1:1 --udp 127.0.0.1:1
check "... and xcbenchd made no database" [ ! -e "$TMP/never.db" ]
expect_fail "a 401 says to pass --token-file" 1 "HTTP 401: .*\(pass --token-file with the daemon's admin token\)$" \
	env -u XCBENCH_TOKEN "$XCBENCH" --server "$URL" label "$ID" --label nope
# A token sent and refused is not "pass --token-file" (the user had): the
# hint names where the refused token came from.
echo not-the-token >"$TMP/wrong-token"
expect_fail "a 401 to a --token-file names it" 1 \
	"HTTP 401: .*\(the daemon refused the admin token in --token-file '$TMP/wrong-token'\)$" \
	"$XCBENCH" --server "$URL" --token-file "$TMP/wrong-token" label "$ID" --label nope
expect_fail "a 401 to \$XCBENCH_TOKEN names it" 1 \
	"HTTP 401: .*\(the daemon refused the admin token in \\\$XCBENCH_TOKEN\)$" \
	env XCBENCH_TOKEN=not-the-token "$XCBENCH" --server "$URL" label "$ID" --label nope
"${X[@]}" runs >"$TMP/out" 2>"$TMP/err"
check "with a good --token-file all is well ($(cat "$TMP/err"))" bash -c "grep -q '^$ID ' '$TMP/out' && [ ! -s '$TMP/err' ]"

# 8. what the daemon would only learn at the machine's boot, or not at all
expect_fail "vm --suite bogus: refused before anything boots" 2 "^xcbench vm: unknown suite 'bogus' \(one of: quick default seed tlb ept stress\)$" \
	"${X[@]}" vm --suite bogus
c=$(curl -s -o "$TMP/q8" -w '%{http_code}' "$URL/api/v1/compare?a=$ID&b=$ID&algo_a=%FF&algo_b=locked")
check "a query argument that is not UTF-8: 400 ($c: $(cat "$TMP/q8"))" \
	bash -c "[ $c = 400 ] && grep -q 'query arguments must be UTF-8 text' '$TMP/q8'"

# A capture ingested again adds nothing; a --mac given then cannot move its
# run to another machine, and says so (it was taken without a word).
zcat "$ROOT/tests/fixtures/qemu-smp4.serial.log.gz" >"$TMP/cap.log"
"${X[@]}" ingest "$TMP/cap.log" >/dev/null 2>&1
"${X[@]}" ingest --mac 52:54:00:aa:00:09 "$TMP/cap.log" >/dev/null 2>"$TMP/ing2.err"
rc=$?
check "ingest again with --mac: exit 0, the --mac not applied said ($rc: $(head -1 "$TMP/ing2.err"))" \
	bash -c "[ $rc = 0 ] && grep -q 'was stored before: --mac 52:54:00:aa:00:09 not applied' '$TMP/ing2.err'"

expect_fail "ingest --mac zz: named before the capture is read" 2 \
	"^xcbench ingest: --mac: 'zz' is not a MAC address like 52:54:00:12:34:56$" \
	"${X[@]}" ingest --mac zz "$TMP/cap.log"
check "... without a registration's raw JSON" bash -c "! grep -q 'cannot register' '$TMP/err'"

# check --baseline last:N / stored of a machine's first run: the machine
# named by its MAC (it said "machine 3", the store's own id)
"$XCB_GEN" --serial "$TMP/capm.txt" --reps 1 >/dev/null 2>&1
MR=$("${X[@]}" ingest --mac 52:54:00:aa:00:0c "$TMP/capm.txt" 2>/dev/null | sed -n 's/^run \([0-9]*\) .*/\1/p')
expect_fail "check --baseline last:1 of a machine's first run: the machine's MAC named" 2 \
	"HTTP 404: a=last:1: no complete run of machine 52:54:00:aa:00:0c and suite 'gen' before run $MR$" \
	"${X[@]}" check --baseline last:1 "$MR"
expect_fail "check --baseline stored without one: the MAC named" 2 \
	"HTTP 404: a=baseline: machine 52:54:00:aa:00:0c has no baseline for suite 'gen'" \
	"${X[@]}" check --baseline stored "$MR"

expect_fail "machine power without an action names the actions" 2 \
	"^xcbench machine power 52:54:00:aa:00:09: expected an action: on, off, cycle, status or pxe$" \
	"${X[@]}" machine power 52:54:00:aa:00:09
expect_fail "machine with an unknown verb names the verbs" 2 "^xcbench machine: 'frob': expected set, power, show or list$" \
	"${X[@]}" machine frob 52:54:00:aa:00:09

# --server and $XCBENCH_SERVER: parsed strictly, named by where they came from
expect_fail "--server with junk after the port: refused" 1 "^xcbench: --server 'http://127.0.0.1:${PORT}abc': bad host or port$" \
	"$XCBENCH" --server "http://127.0.0.1:${PORT}abc" runs
expect_fail "--server with a path: refused (it was dropped)" 1 "without a path$" \
	"$XCBENCH" --server "$URL/prefix" runs
expect_fail "a bad \$XCBENCH_SERVER is named as such" 1 "^xcbench: XCBENCH_SERVER 'ftp://x': expected http://HOST\[:PORT\]$" \
	env XCBENCH_SERVER=ftp://x "$XCBENCH" runs
expect_fail "runs with a bad filter: the server's reason, as the option's error, a usage error" 2 \
	"^xcbench runs: --since: expected an ISO time" \
	"${X[@]}" runs --status complete --since yesterday
# Values only the daemon checks (its 400) are usage errors too (2), so a
# script tells a typo from a daemon that is down or failing (1); compare and
# samples said 1 for them, check (whose 1 is a regression) said 2.
expect_fail "compare --fdr abc: the daemon's reason, a usage error" 2 "HTTP 400: fdr: expected a false discovery rate" \
	"${X[@]}" compare "$ID" "$ID" --fdr abc
expect_fail "compare --a-where bogus: a usage error" 2 "HTTP 400: a_where/b_where: expected key=value" \
	"${X[@]}" compare "$ID" "$ID" --a-where bogus
expect_fail "samples --case abc (a streamed answer): a usage error" 2 "HTTP 400: case: expected a case id" \
	"${X[@]}" samples "$ID" --case abc
expect_fail "check --a-where bogus: a usage error, never a regression's 1" 2 "HTTP 400: a_where/b_where" \
	"${X[@]}" check --baseline "$ID" "$ID" --a-where bogus
# --format beside another output was taken and ignored (--format text --csv
# printed the case CSV; --format seed --csv is the seed table's CSV:
# t-compare-stat).
expect_fail "compare --format text --csv: refused, one output" 2 \
	"xcbench compare: --format text and --csv: one output" "${X[@]}" compare "$ID" "$ID" --format text --csv
expect_fail "compare --stat p95: a usage error naming the statistics" 2 "HTTP 400: stat: expected one of median" \
	"${X[@]}" compare "$ID" "$ID" --stat p95
expect_fail "compare --format text --flat: refused, one output" 2 \
	"xcbench compare: --format text and --flat: one output" "${X[@]}" compare "$ID" "$ID" --format text --flat
expect_fail "compare with a run that is not there: 1, the daemon's answer (404), not a usage error" 1 \
	"HTTP 404: run 999999 not found" "${X[@]}" compare "$ID" 999999
for opt in --machine --limit --status; do
	expect_fail "runs $opt '': refused (the daemon took it as no filter)" 2 "^xcbench runs: $opt needs a value, not ''$" \
		"${X[@]}" runs "$opt" ""
	check "... and no table on stdout" [ ! -s "$TMP/out" ]
done
# Every empty text option alike (cmdopt's CMDOPT_STR): compare --algo-a ''
# reached the daemon as no filter, and compared every algorithm with B's.
for opt in --algo-a --a-where --row; do
	expect_fail "compare $opt '': refused" 2 "^xcbench compare: $opt needs a value, not ''$" \
		"${X[@]}" compare "$opt" "" --algo-b locked "$ID" "$ID"
	check "... and no table on stdout" [ ! -s "$TMP/out" ]
done
"${X[@]}" runs --offset 100 >"$TMP/off" 2>&1
check "runs past the end says the offset ($(cat "$TMP/off"))" grep -qE '^\(no run at offset 100: [0-9]+ match(es)?\)$' "$TMP/off"

# 9. a label made to drive a terminal (ESC [ 31m, C1's CSI, BEL) is shown as
# text in the text forms; --json escapes it as JSON does
curl -sf -X PATCH "${ADMIN[@]}" -d '{"label":"evil\u001b[31mRED\u009b2J\u0007!"}' "$URL/api/v1/runs/$ID" >/dev/null
"${X[@]}" runs >"$TMP/runs9" 2>&1
check "runs prints the label without its control characters ($(grep "^$ID " "$TMP/runs9" | cut -c1-80))" \
	bash -c "grep -q 'evil?\[31mRED?2J?!' '$TMP/runs9' && ! LC_ALL=C grep -q \$'[\x1b\x07]' '$TMP/runs9' && ! grep -q \$'\xc2\x9b' '$TMP/runs9'"
"${X[@]}" show "$ID" >"$TMP/show9" 2>&1
check "... and so does show" bash -c "grep -q 'evil?\[31mRED' '$TMP/show9' && ! LC_ALL=C grep -q \$'\x1b' '$TMP/show9'"
"${X[@]}" runs --json >"$TMP/runs9.json" 2>&1
check "... while --json keeps them, escaped" grep -qiF 'evil\u001b[31mRED' "$TMP/runs9.json"
# a label's tab and newline: one line still (show's header and compare's
# "A: run N; label ..." broke in two at the newline)
"${X[@]}" label "$ID" --label $'x\ty\nz' >"$TMP/label9" 2>&1
"${X[@]}" show "$ID" >"$TMP/show9" 2>&1
"${X[@]}" compare "$ID" "$ID" >"$TMP/cmp9" 2>&1
check "label, show and compare print a label's tab and newline as spaces, on one line ($(head -1 "$TMP/show9"))" \
	bash -c "grep -q '^run $ID: label x y z;' '$TMP/label9' && head -1 '$TMP/show9' | grep -q ' label x y z\$' &&
		 grep -q '^A: run $ID .*label \"x y z\"' '$TMP/cmp9' && ! grep -q \$'\t' '$TMP/show9' '$TMP/cmp9' '$TMP/label9'"

check "SIGTERM: clean shutdown" stop_daemon

# 10. --lab: a store without labs, then one a daemon of lab east stored a
# run into and a daemon of lab west (up now, nothing stored) serves
start_daemon --open || { notok "daemon starts again"; exit 1; }
expect_fail "runs --lab C, no lab in the store: unknown, and why there is none (a usage error)" 2 \
	"^xcbench runs: --lab: no lab 'C' in this store \(it has no labs: its runs come from daemons without --lab\)$" \
	"$XCBENCH" --server "$URL" runs --lab C
check "... and no table on stdout ($(head -c 100 "$TMP/out"))" [ ! -s "$TMP/out" ]
# The daemon decides it (GET /api/v1/runs?lab=C: 400), so --json, runs.csv
# and the dashboard are told too; --json listed an empty page, exit 0.
expect_fail "runs --lab C --json: the same error, exit 2" 2 "^xcbench runs: --lab: no lab 'C' in this store" \
	"$XCBENCH" --server "$URL" runs --lab C --json
check "... and no JSON on stdout ($(head -c 100 "$TMP/out"))" [ ! -s "$TMP/out" ]
code=$(curl -s -o "$TMP/csv" -w '%{http_code}' "$URL/api/v1/runs.csv?lab=C")
check "GET runs.csv?lab=C: 400 with the reason ($code: $(head -c 120 "$TMP/csv"))" \
	bash -c "[ $code = 400 ] && grep -qF \"no lab 'C' in this store\" '$TMP/csv'"
stop_daemon
start_daemon --open --lab east || { notok "daemon of lab east starts"; exit 1; }
"$XCB_GEN" --server 127.0.0.1:$PORT --runs 1 --token ce0e1 --reps 2 >/dev/null 2>&1
stop_daemon
start_daemon --open --lab west || { notok "daemon of lab west starts"; exit 1; }
expect_fail "runs --lab C: unknown, naming the store's labs" 2 \
	"^xcbench runs: --lab: no lab 'C' in this store \(its labs: east, west\)$" "$XCBENCH" --server "$URL" runs --lab C
"$XCBENCH" --server "$URL" runs --lab west >"$TMP/out" 2>"$TMP/err"
rc=$?
check "runs --lab west (this daemon's, no run yet): 'no run matches', exit 0 ($rc: $(cat "$TMP/err"))" \
	bash -c "[ $rc = 0 ] && [ ! -s '$TMP/err' ] && grep -qx '(no run matches)' '$TMP/out'"
"$XCBENCH" --server "$URL" runs --lab east --status crashed >"$TMP/out" 2>"$TMP/err"
rc=$?
check "runs --lab east --status crashed (none): 'no run matches', exit 0 ($rc: $(cat "$TMP/err"))" \
	bash -c "[ $rc = 0 ] && [ ! -s '$TMP/err' ] && grep -qx '(no run matches)' '$TMP/out'"
"$XCBENCH" --server "$URL" runs --lab east >"$TMP/out" 2>&1
check "runs --lab east lists its run" grep -qE '^[0-9]+ .* east +$' "$TMP/out"
stop_daemon
