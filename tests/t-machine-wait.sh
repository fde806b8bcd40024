#!/bin/bash
# timeout: 240
# `xcbench machine power MAC ACTION` against a BMC that never answers (a
# loopback UDP port bound by a process that reads nothing): the daemon's
# ipmitool waits out its tries (~12 s) before the error, and the CLI sat
# silent that long. On a terminal (script(1) gives it one) it now says,
# after SLOW_NOTE_AFTER_S, what it waits on: the BMC's address, the
# driver, the bound. With stderr not a terminal (a script) stderr is the
# error alone, one line, as before. A BMC that answers at once (a manual
# machine, an unknown MAC) gets no note.
#
# The daemon has one HTTP worker thread (--threads 1): the driver call runs
# on a thread of its own (api_power_call.c), so three machines' calls to
# the silent BMC at once all get their answer, and /health asked meanwhile
# answers at once; when the call ran on the worker, /health waited ~12 s.
# A keep-alive connection (python3's http.client) that asks a power call of
# the silent BMC gets its answer, then its next request's, on that same
# connection (the suspended request resumed in order, the connection kept).
# SIGTERM while a call runs: the daemon abandons it (its ipmitool killed),
# answers the waiting client 503 and exits, where it used to wait the call
# out (~12 s here, up to 60 s against a BMC that drops its session).
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "machine power: a progress line while a silent BMC is waited on"
if ! command -v ipmitool >/dev/null || ! command -v script >/dev/null; then
	skip "machine power waits" "ipmitool or script(1) missing"
	exit 0
fi

admin_daemon machine-wait-admin --threads 1
X=("$XCBENCH" --server "$URL" --token-file "$TMP/token")
echo secret >"$TMP/pass"
chmod 600 "$TMP/pass"
# The silent BMC: a UDP socket bound on loopback that never answers (a port
# nothing listens on may answer ICMP "unreachable" at once).
python3 -c '
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1], flush=True)
time.sleep(600)' >"$TMP/bmc.port" &
BPID=$!
trap 'kill $BPID 2>/dev/null; cleanup_daemon' EXIT
for i in $(seq 50); do [ -s "$TMP/bmc.port" ] && break; sleep 0.1; done
BMC=$(cat "$TMP/bmc.port")
M=52:54:00:0f:00:01 M3=52:54:00:0f:00:03 M4=52:54:00:0f:00:04 M5=52:54:00:0f:00:05
"${X[@]}" machine set $M --power ipmi --host 127.0.0.1 --port "$BMC" --user admin --password-file "$TMP/pass" >/dev/null
check "machine set: ipmi at the silent BMC 127.0.0.1:$BMC (exit $?)" test $? = 0
for m in $M3 $M4 $M5; do
	"${X[@]}" machine set $m --power ipmi --host 127.0.0.1 --port "$BMC" --user admin --password-file "$TMP/pass" >/dev/null
done

# tty OUT CMD...: CMD with a terminal for its stdin, stdout and stderr (all
# three go to the one transcript, OUT); its exit status.
tty() {
	local q out=$1
	shift
	printf -v q '%q ' "$@"
	script -qefc "$q" /dev/null </dev/null >"$out" 2>&1
}
W="xcbench machine: waiting for the BMC at 127.0.0.1:$BMC (ipmi, up to 60 s)..."
# Three machines' calls to the silent BMC at once, on the one HTTP thread
# (--threads 1): on a terminal `status` and `on`, and a script's `status`.
# Each waits out the BMC (~12 s) off that thread (api_power_call.c), so a
# GET /health sent meanwhile is answered at once and every call gets its
# own answer; on the old daemon the thread sat in the first call.
WPIDS=()
# keepalive MAC OUT: on one HTTP/1.1 connection, POST MAC's power status,
# then GET /health; OUT gets a line per answer (status, whether the server
# keeps the connection, the local port it came on) and the error text.
keepalive() {
	python3 - "$PORT" "$(cat "$TMP/token")" "$1" >"$2" 2>&1 <<'PY'
import http.client, json, sys
port, tok, mac = int(sys.argv[1]), sys.argv[2], sys.argv[3]
c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
c.connect()
for method, path, body in (("POST", "/api/v1/machines/%s/power" % mac, {"action": "status"}),
                           ("GET", "/api/v1/health", None)):
    hdr = {"Authorization": "Bearer " + tok, "Content-Type": "application/json"}
    c.request(method, path, body=json.dumps(body) if body else None, headers=hdr)
    r = c.getresponse()
    d = json.loads(r.read())
    # c.sock None: the server closed it (http.client would reconnect unseen)
    print(method, r.status, "close" if r.will_close or c.sock is None else "kept",
          c.sock.getsockname()[1] if c.sock else "-", d.get("error", d.get("status", "")))
PY
}
keepalive $M5 "$TMP/ka.out" &
WPIDS+=($!)
(tty "$TMP/tty-status.raw" "${X[@]}" machine power $M status; echo $? >"$TMP/tty-status.rc") &
WPIDS+=($!)
(tty "$TMP/tty-on.raw" "${X[@]}" machine power $M4 on; echo $? >"$TMP/tty-on.rc") &
WPIDS+=($!)
("${X[@]}" machine power $M3 status >"$TMP/s.out" 2>"$TMP/s.err"; echo $? >"$TMP/s.rc") &
WPIDS+=($!)
sleep 1 # the requests sent; their BMC waits last ~12 s
curl -s -o "$TMP/health.json" -w '%{http_code}' --max-time 5 "$URL/api/v1/health" >"$TMP/health.code"
hrc=$?
running=0
for p in "${WPIDS[@]}"; do kill -0 "$p" 2>/dev/null || running=1; done
check "GET /health while three power calls wait: answered 200 (curl $hrc, $(cat "$TMP/health.code")), the calls still waiting ($running)" \
	bash -c "[ $hrc = 0 ] && [ \"\$(cat '$TMP/health.code')\" = 200 ] && [ $running = 0 ]"
wait "${WPIDS[@]}"
for a in status on; do
	rc=$(cat "$TMP/tty-$a.rc")
	tr -d '\r' <"$TMP/tty-$a.raw" >"$TMP/tty-$a.txt"
	sed 's/^/#   /' "$TMP/tty-$a.txt"
	check "on a terminal, power $a: exit 1, the waiting line first, then the BMC's error ($rc)" \
		bash -c "[ $rc = 1 ] && [ \"\$(head -1 '$TMP/tty-$a.txt')\" = '$W' ] && grep -q 'ipmi 127.0.0.1:$BMC: no answer from a BMC there' '$TMP/tty-$a.txt'"
done
sed 's/^/#   keep-alive: /' "$TMP/ka.out"
check "one keep-alive connection: the power call's 502 (the silent BMC), then /health's 200 on that same connection" \
	python3 -c '
import sys
l = [x.split(" ", 4) for x in open(sys.argv[1]).read().splitlines()]
ok = (len(l) == 2 and l[0][:3] == ["POST", "502", "kept"] and "no answer from a BMC there" in l[0][4]
      and l[1][:3] == ["GET", "200", "kept"] and l[0][3] == l[1][3])
sys.exit(0 if ok else 1)' "$TMP/ka.out"
rc=$(cat "$TMP/s.rc")
check "stderr not a terminal: exit 1, stderr the BMC's error alone, one line ($rc: $(cat "$TMP/s.err"))" \
	bash -c "[ $rc = 1 ] && [ \$(wc -l <'$TMP/s.err') = 1 ] && grep -q 'no answer from a BMC there' '$TMP/s.err' && [ ! -s '$TMP/s.out' ]"
# Quick answers say nothing more on a terminal either.
M2=52:54:00:0f:00:02
"${X[@]}" machine set $M2 --power manual >/dev/null
tty "$TMP/tty.out" "${X[@]}" machine power $M2 status
rc=$?
check "on a terminal, a manual machine's status: its answer alone ($rc: $(tr -d '\r' <"$TMP/tty.out"))" \
	bash -c "[ $rc = 0 ] && [ \"\$(tr -d '\r' <'$TMP/tty.out')\" = '$M2: status: unknown' ]"
tty "$TMP/tty.out" "${X[@]}" machine power 52:54:00:0f:00:99 status
rc=$?
check "on a terminal, an unknown MAC: the error alone, one line ($rc: $(tr -d '\r' <"$TMP/tty.out"))" \
	bash -c "[ $rc = 1 ] && [ \$(wc -l <'$TMP/tty.out') = 1 ] && grep -q 'no machine 52:54:00:0f:00:99' '$TMP/tty.out'"

# The lab's state of a machine whose last call failed says what to fix
# (power.h's faults; each was "unreachable"): the silent BMC's machine
# unreachable, a command template whose program is missing misconfigured.
M6=52:54:00:0f:00:06
"${X[@]}" machine set $M6 --power command --command 'xcb-no-such-pdu-tool {action} 3' >/dev/null
"${X[@]}" machine power $M6 status 2>"$TMP/m6.err"
diag "a missing program: $(cat "$TMP/m6.err")"
states=$(curl -s "$URL/api/v1/lab" | python3 -c "import json, sys
print(' '.join(m['state'] for m in json.load(sys.stdin)['machines'] if m['mac'] in ('$M3', '$M6')))")
check "the lab's states: the silent BMC's machine unreachable, the missing program's misconfigured ($states)" \
	test "$states" = "unreachable misconfigured"
check "... the CLI's machine list says the same" \
	bash -c "\"\$@\" machine list | grep -qE '^$M6 +- +command +misconfigured '" _ "${X[@]}"

# SIGTERM while a call waits on the silent BMC: the call is abandoned, its
# ipmitool killed, its client answered 503, and the daemon exits 0. The old
# daemon waited for the call (its client got the BMC's 502 ~12 s later).
# No wall-clock bound is asserted: the 503 says the call was cut, not
# waited out; the seconds the stop took are shown.
python3 - "$PORT" "$(cat "$TMP/token")" $M >"$TMP/term.out" 2>&1 <<'PY' &
import http.client, json, sys
c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=120)
try:
    c.request("POST", "/api/v1/machines/%s/power" % sys.argv[3], body='{"action": "status"}',
              headers={"Authorization": "Bearer " + sys.argv[2], "Content-Type": "application/json"})
    r = c.getresponse()
    print(r.status, json.loads(r.read()).get("error", ""))
except Exception as e:
    print("no answer:", type(e).__name__, e)
PY
P1=$!
# ... and a job's power-on under way on M3 (the silent BMC too), which a
# stop waits out (its event keeps a restart from powering on twice): the
# daemon now says so, where it sat silent for the call's ~12 s.
"${X[@]}" queue --mac $M3 --suite quick >/dev/null
for i in $(seq 100); do
	[ "$(curl -s "$URL/api/v1/lab" | python3 -c "import json, sys
print(' '.join(m['state'] for m in json.load(sys.stdin)['machines'] if m['mac'] == '$M3'))")" = powering_on ] && break
	sleep 0.1
done
ip=
for i in $(seq 100); do ip=$(pgrep -P "$DPID" -x ipmitool | head -1) && [ -n "$ip" ] && break; sleep 0.1; done
check "the power call runs ipmitool (pid ${ip:-none}) under the daemon" test -n "$ip"
t0=$(date +%s%N)
stop_daemon
rc=$?
t1=$(date +%s%N)
wait $P1
diag "SIGTERM to exit: $(( (t1 - t0) / 1000000 )) ms; the client: $(cat "$TMP/term.out")"
check "SIGTERM during a power call: the daemon exits 0 ($rc)" test "$rc" = 0
check "... its ipmitool ($ip) is gone, no orphan left" bash -c "[ -n '$ip' ] && ! kill -0 '$ip' 2>/dev/null"
check "... the waiting client is answered 503: the call abandoned, not waited out ($(cut -c1-60 "$TMP/term.out"))" \
	grep -q "^503 the daemon is stopping: power status of $M was abandoned" "$TMP/term.out"
check "... the stop says it waits for the job's power-on on $M3 ($(grep -m1 'waiting for' "$TMP/daemon.log" | cut -c1-110))" \
	grep -q "^xcbenchd: waiting for 1 power action under way to end ($M3; up to [0-9]* s each" "$TMP/daemon.log"
perr=$(dbq "$DB" "SELECT power_error FROM machines WHERE mac = '$M'")
check "... and nothing stored of the abandoned call: the machine's power error is still the BMC's ($perr)" \
	bash -c "grep -q 'no answer from a BMC there' <<<\"\$1\" && ! grep -q abandoned <<<\"\$1\"" _ "$perr"
kill $BPID 2>/dev/null
