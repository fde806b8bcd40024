#!/bin/bash
# timeout: 300
# The API's readers outlive a PostgreSQL restart (issue 24): a daemon with
# one HTTP worker (so one reader connection, the one every request uses)
# answers each read route twice, so the reader holds server-side prepared
# statements (host/src/dbi_pg.c plan_shared: a text is prepared on the
# server at its second sending); the server is killed with SIGKILL and
# restarted; then the FIRST request of each route must answer 200 with the
# same bytes as before, on a new connection whose statements are prepared
# again (the connection's generation), and the writer must store a second
# run. Then the same with a clean restart (pg_ctl restart -m fast), and with
# a request while the server is down: 503 or 500 with a JSON error, never a
# hang or a crash, and the next request after the restart answers again.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
. "$ROOT/tests/lib/pg.sh"
need_host_build "API reads across a PostgreSQL restart"
trap "exit 143" TERM INT # a signal (tests/run-all timeout) still cleans up
pg_test_db restart cleanup_daemon
DB=$(pg_url restart)
start_daemon --open --threads 1 || { notok "daemon starts"; exit 1; }

# send_run TOKEN: one run of 2 repetitions (raw samples too) from xcb-gen, every frame ACKed
# (so stored: an ACK only after the COMMIT).
send_run() {
	"$XCB_GEN" --server "127.0.0.1:$PORT" --runs 1 --reps 2 --samples --token "$1" >"$TMP/gen.$1.out" 2>"$TMP/gen.$1.err" &&
		grep -q 'all frames acknowledged' "$TMP/gen.$1.err"
}
check "a run is stored on PostgreSQL" send_run 00000a0000000001
ID=$(pyjson "$URL/api/v1/runs" 'd["runs"][0]["id"]')
CASE=$(pyjson "$URL/api/v1/runs/$ID" 'd["cases"][0]["case_id"]')
wait_rendered "its page stored by the idle writer"
# Every read route with its own statements: the run list (and a filtered
# one), a run's first page and a paged one (built, not the stored page),
# its events, a histogram, raw samples, a compare, the CSV exports, machines, schema.
ROUTES=(
	"/api/v1/runs"
	"/api/v1/runs?status=complete&limit=5"
	"/api/v1/runs/$ID"
	"/api/v1/runs/$ID?limit=3"
	"/api/v1/runs/$ID/events"
	"/api/v1/runs/$ID/cases/$CASE/histogram"
	"/api/v1/runs/$ID/cases/$CASE/samples"
	"/api/v1/compare?a=$ID&b=$ID"
	"/api/v1/runs/$ID.csv"
	"/api/v1/runs/$ID/samples.csv"
	"/api/v1/runs.csv"
	"/api/v1/machines"
)
# fetch TAG: every route once into TMP/TAG.N (body) and TMP/TAG.N.code.
fetch() {
	local i=0 r
	for r in "${ROUTES[@]}"; do
		curl -s -m 30 -o "$TMP/$1.$i" -w '%{http_code}' "$URL$r" >"$TMP/$1.$i.code"
		i=$((i + 1))
	done
}
# same A B: TAG B answered 200 on every route with TAG A's bytes; says
# which route did not.
same() {
	local i r bad=
	for i in "${!ROUTES[@]}"; do
		r=${ROUTES[$i]}
		if [ "$(cat "$TMP/$2.$i.code")" != 200 ] || ! cmp -s "$TMP/$1.$i" "$TMP/$2.$i"; then
			bad="$bad $r($(cat "$TMP/$2.$i.code"))"
		fi
	done
	[ -z "$bad" ] || diag "differs or failed:$bad"
	[ -z "$bad" ] || { for i in "${!ROUTES[@]}"; do diag "${ROUTES[$i]}: $(cat "$TMP/$2.$i.code") $(head -c 300 "$TMP/$2.$i" | tr '\n' ' ')"; done; tail -5 "$TMP/daemon.log" | sed 's/^/# /'; }
	[ -z "$bad" ]
}
fetch before
fetch twice # the second sending: now prepared on the server
check "every read route answers 200 twice, the same bytes" same before twice

pg_kill9
pg_restart || { notok "PostgreSQL restarts after kill -9"; exit 1; }
fetch kill9
check "after kill -9 and a restart, the first request of every route answers 200 with the same bytes" \
	same before kill9
check "... and the writer stores a new run" send_run 00000a0000000002
check "... which the run list shows" \
	test "$(pyjson "$URL/api/v1/runs" 'len(d["runs"])')" = 2
ROUTES[0]="/api/v1/schema" # statements the old connection never had
fetch newtext
check "a statement new to the new connection answers too" test "$(cat "$TMP/newtext.0.code")" = 200

# A request while the server is down: an error answer, not a hang.
pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null 2>&1
code=$(curl -s -m 30 -o "$TMP/down" -w '%{http_code}' "$URL/api/v1/runs/$ID?limit=3")
check "server down: the run page answers 503 ($code), in JSON, not 404" \
	python3 -c 'import json,sys; sys.exit(not (sys.argv[1] == "503" and "error" in json.load(open(sys.argv[2]))))' "$code" "$TMP/down"
check "server down: the daemon is still running" kill -0 "$DPID"
pg_restart || { notok "PostgreSQL restarts"; exit 1; }
ROUTES[0]="/api/v1/runs"
fetch clean
codes=
for i in "${!ROUTES[@]}"; do
	[ "$(cat "$TMP/clean.$i.code")" = 200 ] ||
		codes="$codes $(cat "$TMP/clean.$i.code") ${ROUTES[$i]}: $(head -c 300 "$TMP/clean.$i" | tr '\n' ' ')"
done
check "after a clean restart the first request of every route answers 200 again${codes:+ (not: $codes)}" \
	test -z "$codes"
check "SIGTERM: clean shutdown" stop_daemon
