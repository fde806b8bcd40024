#!/bin/bash
# timeout: 300
# A lab daemon across PostgreSQL outages of a few seconds, as an operator
# meets them (an auditor's findings, two daemons of a lab on one server):
# what /health says while the server is down, and that every answer of a
# read or a write then is a 503 naming the store, never a 404 ("no job N")
# or a 500 with libpq's text. The daemon has one HTTP thread (--threads 1:
# one reader connection, opened at the first request).
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
. "$ROOT/tests/lib/pg.sh"
need_host_build "a lab daemon across PostgreSQL outages"
trap "exit 143" TERM INT # a signal (tests/run-all timeout) still cleans up
WPID=
done_all() {
	[ -n "$WPID" ] && kill "$WPID" 2>/dev/null
	cleanup_daemon
}
pg_test_db outage done_all
DB=$(pg_url outage)
start_daemon --open --lab A --threads 1 || { notok "daemon starts"; exit 1; }

# pg_down: a clean stop (pg_ctl stop -m fast), as an operator's restart does.
pg_down() { pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null 2>&1; }
# api METHOD PATH [BODY]: prints the answer's status; its body in TMP/ans.
api() {
	curl -s -m 30 -o "$TMP/ans" -w '%{http_code}' -X "$1" -H 'Content-Type: application/json' \
		${3:+--data "$3"} "$URL$2"
}
# said TEXT: the last answer is {"error": "TEXT..."} (TEXT its start).
said() {
	python3 -c 'import json,sys; sys.exit(not json.load(open(sys.argv[1]))["error"].startswith(sys.argv[2]))' \
		"$TMP/ans" "$1"
}
ans() { head -c 300 "$TMP/ans" | tr '\n' ' '; }
health() { pyjson "$URL/api/v1/health" "$1"; }
# until_health EXPR: the python expression over /health's answer holds
# within 10 s (the idle writer looks at its connection every second).
until_health() {
	for _ in $(seq 100); do
		[ "$(health "$1" 2>/dev/null)" = True ] && return 0
		sleep 0.1
	done
	return 1
}

# 1. The daemon up, the server gone before any request: the HTTP thread has
# no connection at all (rdb() NULL). Run counts it cannot read are null.
pg_down
curl -s -m 30 "$URL/api/v1/health" >"$TMP/h1"
h1() { python3 -c 'import json,sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$TMP/h1" "$1"; }
check "no connection for the reader: /health degraded ($(h1 '(d["status"], d.get("reason"))'))" \
	test "$(h1 'd["status"]')" = degraded
check "... its run counts null, not zeros ($(h1 'd["runs"]'))" test "$(h1 'd["runs"]')" = None
check "... and its build still said" test "$(h1 '"build" in d')" = True
pg_restart || { notok "PostgreSQL restarts"; exit 1; }
check "the server back: /health ok" until_health 'd["status"] == "ok"'

code=$(api POST /api/v1/jobs '{"mac": "52:54:00:bb:00:03", "suite": "seed"}')
check "a job is queued ($code)" test "$code" = 201
J=$(pyjson "$URL/api/v1/jobs" 'd["jobs"][0]["id"]')
code=$(api GET "/api/v1/jobs/$J")
check "... and read ($code): the reader has its connection" test "$code" = 200

# 2. The server stops under the reader's connection: the FIRST read that
# finds it gone answers as every later one, 503 naming the store (it was
# 500 with libpq's text, the next requests 503).
pg_down
for r in "/api/v1/jobs/$J" /api/v1/lab /api/v1/machines /api/v1/jobs; do
	code=$(api GET "$r")
	check "server down: GET $r answers 503 'database unavailable: ...' ($code $(ans))" \
		eval 'test "$code" = 503 && said "database unavailable: "'
done
# 3. Writes while it is down: 503 naming the store, never "no job N"
# (a cancel said 404 though the job was there).
code=$(api POST "/api/v1/jobs/$J/cancel" '{}')
check "server down: job cancel answers 503 'cannot cancel the job now: the database is unavailable: ...' ($code $(ans))" \
	eval 'test "$code" = 503 && said "cannot cancel the job now: the database is unavailable: "'
code=$(api POST /api/v1/jobs '{"mac": "52:54:00:bb:00:03", "suite": "seed"}')
check "server down: a queue answers 503 naming the store ($code $(ans))" \
	eval 'test "$code" = 503 && said "cannot queue the job now: the database is unavailable: "'
code=$(api PUT /api/v1/machines/52:54:00:bb:00:03/power '{"driver": "manual"}')
check "server down: machine set answers 503 naming the store ($code $(ans))" \
	eval 'test "$code" = 503 && said "cannot store the settings now: the database is unavailable: "'
pg_restart || { notok "PostgreSQL restarts"; exit 1; }
code=$(api GET "/api/v1/jobs/$J")
check "the server back: the job is read again ($code)" test "$code" = 200
# The writer knows its connection lost (the writes above) and tries again
# with a backoff of up to 2 s; a write waiting for it tries at once.
code=$(api POST "/api/v1/jobs/$J/cancel" '{}')
check "... and the same cancel, at once, cancels it ($code $(ans))" \
	test "$code/$(pyjson "$URL/api/v1/jobs/$J" 'd["job"]["stage"]')" = 200/cancelled

# 4. The server restarts while the daemon is idle, nothing written during
# the outage: the idle writer finds its connection gone by itself, /health
# says the writes fail while the server is down (it said only the reader's
# failure, then "ok" after the restart with the writer's connection still
# dead), then ok once the writer has reconnected; the first write after
# that succeeds (it answered 503, the second identical one 201).
# First the writer's look for run pages to render, a second after its last
# commit (the cancel's), is let pass: its next one is a minute away, and
# till then only the writer's once-a-second statements use its connection,
# as in a daemon idle for a while.
sleep 2
pg_down
until_health 'd["status"] == "degraded" and d["reason"].startswith("database writes failing: ")'
rc=$?
check "server down, daemon idle: /health says the writes fail ($(health 'd.get("reason")'))" test "$rc" = 0
pg_restart || { notok "PostgreSQL restarts"; exit 1; }
check "the server back: /health ok, the writer reconnected by itself" until_health 'd["status"] == "ok"'
code=$(api POST /api/v1/jobs '{"mac": "52:54:00:bb:00:03", "suite": "seed"}')
check "... and the first queue after it succeeds ($code $(ans))" test "$code" = 201

# 5. The server drops the daemon's connections (as a restart between the
# idle writer's once-a-second looks would) and a write comes at once: its
# BEGIN finds the connection closed, nothing of it sent, so it goes again
# on a new one. Three times: the idle writer's look could come first once.
drop_conns() {
	pg_psql postgres "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE datname = 'outage' AND pid <> pg_backend_pid()" >/dev/null
}
codes=
for _ in 1 2 3; do
	drop_conns
	codes="$codes $(api POST /api/v1/jobs '{"mac": "52:54:00:bb:00:03", "suite": "seed"}')"
done
check "connections dropped under an idle daemon: the next queue succeeds at once (${codes# })" \
	test "$codes" = " 201 201 201"
check "... said in the log" grep -q 'reconnected to the database (its connection was found closed)' "$TMP/daemon.log"

# 6. `xcbench job wait` begun while the server is down: its first poll is
# the daemon's 503 (database unavailable). It waits through it, as through
# a later one, said once (it ended at once, exit 1, with the daemon's
# error), and follows the job once the server is back.
J6=$(pyjson "$URL/api/v1/jobs" 'd["jobs"][0]["id"]')
pg_down
"$XCBENCH" --server "$URL" job wait "$J6" --timeout 100 >"$TMP/w.out" 2>"$TMP/w.err" &
WPID=$!
for _ in $(seq 100); do grep -q unavailable "$TMP/w.err" && break; sleep 0.1; done
check "server down: job wait $J6's first poll, a 503, waits ($(head -1 "$TMP/w.err"))" \
	eval 'kill -0 $WPID && grep -qx "xcbench job wait: xcbenchd unavailable (xcbench: GET /api/v1/jobs/$J6: HTTP 503: database unavailable: .*); still waiting" "$TMP/w.err"'
pg_restart || { notok "PostgreSQL restarts"; exit 1; }
for _ in $(seq 200); do grep -q "^job $J6 " "$TMP/w.out" && break; sleep 0.1; done
check "the server back: job wait says xcbenchd answers again and follows job $J6 ($(head -1 "$TMP/w.out"))" \
	eval 'grep -qx "xcbench job wait: xcbenchd answers again" "$TMP/w.err" && grep -q "^job $J6 " "$TMP/w.out"'
code=$(api POST "/api/v1/jobs/$J6/cancel" '{}')
wait "$WPID"
rc=$? WPID=
check "... to its end: cancelled ($code), exit 1 ($rc: $(tail -1 "$TMP/w.out"))" \
	test "$code/$rc/$(tail -1 "$TMP/w.out")" = "200/1/job $J6: cancelled"

check "SIGTERM: clean shutdown" stop_daemon
