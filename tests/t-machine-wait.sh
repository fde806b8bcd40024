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
# on a thread of its own (api_power_call.c), so two machines' calls to the
# silent BMC at once both get their answer, and /health asked meanwhile
# answers; when the call ran on the worker, the second call's connection
# was closed unanswered at its request deadline and /health waited ~12 s.
# SIGTERM while a call runs: the daemon waits for it and exits cleanly.
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
M=52:54:00:0f:00:01
"${X[@]}" machine set $M --power ipmi --host 127.0.0.1 --port "$BMC" --user admin --password-file "$TMP/pass" >/dev/null
check "machine set: ipmi at the silent BMC 127.0.0.1:$BMC (exit $?)" test $? = 0

# tty CMD...: CMD with a terminal for its stdin, stdout and stderr (all
# three go to the one transcript, TMP/tty.out); its exit status.
tty() {
	local q
	printf -v q '%q ' "$@"
	script -qefc "$q" /dev/null </dev/null >"$TMP/tty.out" 2>&1
}
W="xcbench machine: waiting for the BMC at 127.0.0.1:$BMC (ipmi, up to 60 s)..."
for a in status on; do
	tty "${X[@]}" machine power $M $a
	rc=$?
	tr -d '\r' <"$TMP/tty.out" >"$TMP/tty-$a.txt"
	sed 's/^/#   /' "$TMP/tty-$a.txt"
	check "on a terminal, power $a: exit 1, the waiting line first, then the error ($rc)" \
		bash -c "[ $rc = 1 ] && [ \"\$(head -1 '$TMP/tty-$a.txt')\" = '$W' ] && grep -q 'ipmi 127.0.0.1:$BMC: no answer from a BMC there' '$TMP/tty-$a.txt'"
done
"${X[@]}" machine power $M status >"$TMP/s.out" 2>"$TMP/s.err"
rc=$?
check "stderr not a terminal: exit 1, stderr the error alone, one line ($rc: $(cat "$TMP/s.err"))" \
	bash -c "[ $rc = 1 ] && [ \$(wc -l <'$TMP/s.err') = 1 ] && ! grep -q waiting '$TMP/s.err' && [ ! -s '$TMP/s.out' ]"
# Quick answers say nothing more on a terminal either.
M2=52:54:00:0f:00:02
"${X[@]}" machine set $M2 --power manual >/dev/null
tty "${X[@]}" machine power $M2 status
rc=$?
check "on a terminal, a manual machine's status: its answer alone ($rc: $(tr -d '\r' <"$TMP/tty.out"))" \
	bash -c "[ $rc = 0 ] && [ \"\$(tr -d '\r' <'$TMP/tty.out')\" = '$M2: status: unknown' ]"
tty "${X[@]}" machine power 52:54:00:0f:00:99 status
rc=$?
check "on a terminal, an unknown MAC: the error alone, one line ($rc: $(tr -d '\r' <"$TMP/tty.out"))" \
	bash -c "[ $rc = 1 ] && [ \$(wc -l <'$TMP/tty.out') = 1 ] && grep -q 'no machine 52:54:00:0f:00:99' '$TMP/tty.out'"

# Two machines' calls to the silent BMC at once, on the one HTTP thread.
M3=52:54:00:0f:00:03
"${X[@]}" machine set $M3 --power ipmi --host 127.0.0.1 --port "$BMC" --user admin --password-file "$TMP/pass" >/dev/null
"${X[@]}" machine power $M status >"$TMP/p1.out" 2>"$TMP/p1.err" &
P1=$!
"${X[@]}" machine power $M3 status >"$TMP/p3.out" 2>"$TMP/p3.err" &
P3=$!
sleep 1 # both requests sent; their BMC waits last ~12 s
curl -s -o "$TMP/health.json" -w '%{http_code}' --max-time 5 "$URL/api/v1/health" >"$TMP/health.code"
hrc=$?
kill -0 $P1 2>/dev/null && kill -0 $P3 2>/dev/null
running=$?
check "GET /health while two power calls wait: answered 200 (curl $hrc, $(cat "$TMP/health.code")), the calls still waiting ($running)" \
	bash -c "[ $hrc = 0 ] && [ \"\$(cat '$TMP/health.code')\" = 200 ] && [ $running = 0 ]"
wait $P1
rc1=$?
wait $P3
rc3=$?
for n in 1 3; do sed "s/^/#   p$n: /" "$TMP/p$n.err"; done
check "two power calls at once: both answered, the BMC's error ($rc1, $rc3)" \
	bash -c "[ $rc1 = 1 ] && [ $rc3 = 1 ] && grep -q 'no answer from a BMC there' '$TMP/p1.err' && grep -q 'no answer from a BMC there' '$TMP/p3.err'"

# SIGTERM while a call waits: the daemon waits for it (its tries are
# bounded, spawn_run) and exits 0.
"${X[@]}" machine power $M status >/dev/null 2>&1 &
P1=$!
sleep 1
check "SIGTERM during a power call: clean shutdown" stop_daemon
wait $P1
kill $BPID 2>/dev/null
