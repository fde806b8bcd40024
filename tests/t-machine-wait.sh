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
M=52:54:00:0f:00:01 M3=52:54:00:0f:00:03 M4=52:54:00:0f:00:04
"${X[@]}" machine set $M --power ipmi --host 127.0.0.1 --port "$BMC" --user admin --password-file "$TMP/pass" >/dev/null
check "machine set: ipmi at the silent BMC 127.0.0.1:$BMC (exit $?)" test $? = 0
for m in $M3 $M4; do
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

# SIGTERM while a call waits: the daemon waits for it (its tries are
# bounded, spawn_run) and exits 0.
"${X[@]}" machine power $M status >/dev/null 2>&1 &
P1=$!
sleep 1
check "SIGTERM during a power call: clean shutdown" stop_daemon
wait $P1
kill $BPID 2>/dev/null
