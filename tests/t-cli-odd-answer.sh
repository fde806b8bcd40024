#!/bin/bash
# t-cli-odd-answer.sh - xcbench against a server that answers JSON objects
# but not xcbenchd's (tests/odd-server.py: another service on the port, or
# a daemon of another version): every command that reads an answer says
# so in one line and exits 1, printing nothing on stdout. It trusted any
# object: an absent member read as empty (runs printed an empty table,
# exit 0), a missing string as "(null)", a wrongly typed one as 0 or '-'.
# Two servers: one answering {"status": "ok", ...} to everything, one
# giving each route's members with one of the wrong type.
# timeout: 120
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "xcbench against odd JSON answers"
TMP=$(mktemp -d "$OUTDIR/odd.XXXXXX")
"$XCB_GEN" --serial "$TMP/cap.txt" --reps 1 >/dev/null 2>&1
MAC=52:54:00:0d:d0:01
# Each command that reads an answer, one a line.
CMDS=(
	"runs"
	"runs --json"
	"show 1"
	"show 1 --json"
	"compare 1 2"
	"compare 1 2 --json"
	"check --baseline 1 2"
	"calibrate 1,2,3,4"
	"baseline"
	"baseline 1,2"
	"label 1 --tag x"
	"queue --mac $MAC --suite quick"
	"machine show $MAC"
	"machine set $MAC --power manual"
	"machine power $MAC status"
	"job show 1"
	"job cancel 1"
	"ingest $TMP/cap.txt"
)
for mode in other typed; do
	rm -f "$TMP/port"
	python3 "$ROOT/tests/odd-server.py" "$TMP/port" "$mode" &
	SPID=$!
	for _ in $(seq 100); do [ -s "$TMP/port" ] && break; sleep 0.1; done
	SURL=http://127.0.0.1:$(cat "$TMP/port")
	for c in "${CMDS[@]}"; do
		# shellcheck disable=SC2086  # the command's words
		timeout 60 "$XCBENCH" --server "$SURL" $c >"$TMP/out" 2>"$TMP/err"
		rc=$?
		# (check's failures are exit 2: 1 is its verdict, a regression;
		# calibrate says what it compares first)
		want=1
		[ "${c%% *}" = check ] && want=2
		check "$mode: xcbench $c: exit $rc, one error line '$(grep -v '^xcbench calibrate: comparing' "$TMP/err" | head -c 150 | tr '\n' '|')'" \
			bash -c '[ "$1" = "$4" ] && [ "$(grep -vc "^xcbench calibrate: comparing" "$2")" = 1 ] &&
				tail -1 "$2" | grep -qE "not an xcbenchd answer: .* \(is $3 an xcbenchd\?\)$"' \
			_ "$rc" "$TMP/err" "$SURL" "$want"
		check "... nothing on stdout ($(head -c 80 "$TMP/out" | tr '\n' '|'))" test ! -s "$TMP/out"
	done
	kill "$SPID"
	wait "$SPID" 2>/dev/null
done
rm -rf "$TMP"
