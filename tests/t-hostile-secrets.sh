#!/bin/bash
# timeout: 120
# Issue 26, item 1: the run token never reaches an anonymous reader through
# the machine's own words. The payload used to put its whole command line,
# run=<token> included, into the HELLO cmdline= fact and log it on the
# console; the daemon stored both as sent, so /runs/ID and /machines showed
# the token to anyone (and the API goldens locked it in). Now the payload
# masks run= and server= (run=* server=*), and the daemon masks them again
# in every fact, LOG/ERROR line and console line before storing: this test
# sends what a payload from before the fix sent.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "secrets in facts"

admin_daemon secrets-admin
S=127.0.0.1:$PORT
MAC=52:54:00:00:26:01
curl -s "$URL/boot.json?mac=$MAC" >"$TMP/boot.json"
TOK=$(python3 -c 'import json,sys; a=json.load(open(sys.argv[1]))["args"]; print(a.split("run=")[1].split()[0])' "$TMP/boot.json")
ID=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["run"]["id"])' "$TMP/boot.json")
check "boot.json gave a token ($TOK) and run $ID" [ ${#TOK} = 16 -a -n "$ID" ]
CL="run=$TOK server=127.0.0.1:$PORT suite=quick"
"${HOSTILE[@]}" frame $S "$TOK" 0 hello "fw=old\\ncpus=4\\ncmdline=$CL\\nrun=$TOK\\n" >/dev/null
"${HOSTILE[@]}" frame $S "$TOK" 1 log "xcbench: cmdline \"$CL\"" >/dev/null
"${HOSTILE[@]}" frame $S "$TOK" 2 error "crash; cmdline=run=$TOK" >/dev/null
printf 'xcbench: cmdline "%s"\nboot ok\n' "$CL" |
	curl -s -o /dev/null "${ADMIN[@]}" -H 'Content-Type: text/plain' --data-binary @- "$URL/api/v1/runs/$ID/console"
check "the HELLO was stored (cpus=4)" [ "$(pyjson "$URL/api/v1/runs/$ID" 'd["run"]["cpus"]')" = 4 ]
check "the cmdline fact is kept, masked" \
	[ "$(pyjson "$URL/api/v1/runs/$ID" 'd["facts"]["cmdline"]')" = "run=* server=* suite=quick" ]
check "three events and the console lines stored" \
	[ "$(pyjson "$URL/api/v1/runs/$ID/events" 'len(d["events"])')" -ge 4 ]
for path in "/api/v1/runs/$ID" "/api/v1/runs/$ID/events" "/api/v1/runs/$ID/events?kind=console" \
	"/api/v1/machines" "/api/v1/runs" "/api/v1/runs.csv" "/api/v1/runs/$ID.csv" "/api/v1/jobs"; do
	body=$(curl -s "$URL$path")
	check "anonymous $path: no token" [ -n "$body" -a -z "$(grep -i "$TOK" <<<"$body")" ]
	check "anonymous $path: no server= address" [ -z "$(grep -F "server=127.0.0.1" <<<"$body")" ]
done
check "nor in the database (facts, events)" [ -z "$(dbq "$DB" "SELECT hello FROM runs UNION ALL SELECT text FROM events" | grep -i "$TOK")" ]
check "the admin still sees the run's token" grep -q "$TOK" <(curl -s "${ADMIN[@]}" "$URL/api/v1/runs/$ID")
hits=$(grep -rlE 'run=[0-9a-f]{16}' "$ROOT/tests/fixtures/api-golden" || true)
check "no API golden holds a run= token${hits:+ ($hits)}" [ -z "$hits" ]

# A power command template is an administrator's shell line, and a secret
# typed into it (a PDU's community string) was served to anyone by the
# machine's page: an admin sees it, an anonymous reader only that one is set.
PMAC=52:54:00:00:26:02
SECRET=s3cr3tcommunity
curl -s -o /dev/null -w '%{http_code}' "${ADMIN[@]}" -X PUT -H 'Content-Type: application/json' \
	-d "{\"driver\":\"command\",\"command\":\"snmp-pdu -c $SECRET {action} 3\"}" \
	"$URL/api/v1/machines/$PMAC/power" >"$TMP/put.code"
check "a command machine is set ($(cat "$TMP/put.code"))" [ "$(cat "$TMP/put.code")" = 200 ]
anon=$(curl -s "$URL/api/v1/machines/$PMAC")
check "anonymous machines/{mac}: the template is not served ($anon)" [ -n "$anon" -a -z "$(grep -F "$SECRET" <<<"$anon")" ]
check "... only that one is set (command null, command_set true)" \
	python3 -c 'import json,sys; p=json.loads(sys.argv[1])["machine"]["power"]; sys.exit(not (p["command"] is None and p["command_set"] is True))' "$anon"
check "anonymous /api/v1/machines and /api/v1/lab: nor there" \
	bash -c "! curl -s '$URL/api/v1/machines' '$URL/api/v1/lab' | grep -qF '$SECRET'"
check "the admin sees the template" grep -qF "snmp-pdu -c $SECRET {action} 3" <(curl -s "${ADMIN[@]}" "$URL/api/v1/machines/$PMAC")
# A page that never saw the template saves the other settings without it:
# the stored one is kept (as the password file is).
curl -s -o /dev/null "${ADMIN[@]}" -X PUT -H 'Content-Type: application/json' -d '{"driver":"command","host":"pdu1"}' \
	"$URL/api/v1/machines/$PMAC/power"
check "a PUT without command keeps the stored one" \
	[ "$(curl -s "${ADMIN[@]}" "$URL/api/v1/machines/$PMAC" | python3 -c 'import json,sys; p=json.load(sys.stdin)["machine"]["power"]; print(p["host"], p["command"])')" = "pdu1 snmp-pdu -c $SECRET {action} 3" ]
stop_daemon
