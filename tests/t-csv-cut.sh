#!/bin/bash
# t-csv-cut.sh - a CSV export whose store read fails mid-way ends as a cut
# response, never as a complete one: the run CSV's blocks after the first
# are read ahead on a read connection of their own (csvahead.c), and one
# that cannot open ended the export after its first block (2048 rows) as
# if they were all, a well-formed shorter CSV that curl and pandas took
# whole. The failure is made real: the database file is moved away after
# the daemon's one HTTP thread opened its connection, so the read-ahead's
# new connection cannot open (a store that stops answering mid-export).
# xcbench export, which read an answer to the connection's end (HTTP/1.0),
# took such an export whole too: it asks in HTTP/1.1 now, and a chunked
# answer without its last chunk is an error (cli/httpbody.c).
# timeout: 120
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "a CSV export cut short"
# One HTTP thread: the request below opens its read connection, which
# keeps the moved file open; the read-ahead's is the first opened after.
start_daemon --open --threads 1 || { notok "the daemon starts"; exit 1; }
T=$TMP

# 16 repetitions: 2560 result rows, more than one block of 2048.
"$XCB_GEN" --server "127.0.0.1:$PORT" --reps 16 >"$T/gen.out" 2>&1
# (this request opens the HTTP thread's read connection; no export before
# the cut one: an ended read-ahead keeps its connection for the next)
id=$(pyjson "$URL/api/v1/runs" 'd["runs"][0]["id"]')
mv "$DB" "$DB.moved"
curl -s "$URL/api/v1/runs/$id.csv" -o "$T/cut.csv" 2>"$T/curl.err"
rc=$?
check "curl sees the export cut short (exit $rc: 18, transfer closed with data outstanding)" test "$rc" = 18
check "... after the first block's rows ($(wc -l <"$T/cut.csv") lines)" test "$(wc -l <"$T/cut.csv")" -lt 2561
check "the daemon's log says why" grep -q "a CSV export failed after 2048 rows, cut short" "$TMP/daemon.log"
"$XCBENCH" --server "$URL" export "$id" -o "$T/x.csv" 2>"$T/x.err"
rc=$?
check "xcbench export says the export was cut short (exit $rc: $(cat "$T/x.err"))" \
	bash -c '[ "$1" = 1 ] && grep -q "was cut short (the connection closed before its end)" "$2"' _ "$rc" "$T/x.err"
check "... and leaves no file that looks whole (nor its .tmp)" bash -c '[ ! -e "$1" ] && [ ! -e "$1.tmp" ]' _ "$T/x.csv"
mv "$DB.moved" "$DB"
curl -sf "$URL/api/v1/runs/$id.csv" -o "$T/whole.csv"
check "with its file back, the whole export: the header and 2560 rows ($(wc -l <"$T/whole.csv") lines)" \
	test "$(wc -l <"$T/whole.csv")" = 2561
"$XCBENCH" --server "$URL" export "$id" -o "$T/x.csv"
rc=$?
check "... and xcbench export's: exit $rc, the same bytes" bash -c '[ "$1" = 0 ] && cmp "$2" "$3"' _ "$rc" "$T/whole.csv" "$T/x.csv"
