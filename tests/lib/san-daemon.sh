# tests/lib/san-daemon.sh — the daemon built with a sanitizer, doing at once
# what its threads share. Sourced after tap.sh (it sources the rest it
# needs: test-daemon.sh, pg.sh, net.sh, lablib.sh) by tests/t-daemon-tsan.sh
# and t-daemon-asan.sh, which set SAN_NAME, SAN_REPORT and their sanitizer's
# options, then call san_daemon_test BUILD. The collector hands frames of several senders to
# the writer while HTTP threads read the runs, pages, comparisons and CSV
# exports the writer changes (two exports of a run past two read-ahead
# blocks, so csvahead.c's threads run); the job runner powers one machine
# through the `command` driver and another through its BMC (ipmi_sim),
# whose serial-over-LAN console a thread of its own captures (sol.c), and
# times both jobs out; SQLite's checkpointer copies the WAL; a SIGTERM
# stops them all (and, under ASan, LeakSanitizer then looks for what was
# not freed). Any report, or an exit status other than 0 (each script makes
# a report one), fails it. The BMC's job also checks what no other test
# does: a machine that never asks for its boot script leaves its console's
# last 30 lines as an event of its job.
. "$ROOT/tests/lib/test-daemon.sh"
. "$ROOT/tests/lib/pg.sh"
. "$ROOT/tests/lib/net.sh"
. "$ROOT/tests/lablib.sh"
export XCBENCH_SERVER
X=$XCBENCH
# reads URL: the read side, in a loop until $TMP/stop exists (bounded: 3 min):
# every call an HTTP thread answers from what the writer is changing.
reads() {
	local i
	for ((i = 0; i < 900; i++)); do
		[ -e "$TMP/stop" ] && return 0
		for p in "runs?limit=100" runs/1 runs/2 runs/1/events runs/2/cases/1/histogram \
			runs/1.csv "compare?a=2&b=3" "compare?a=2,4&b=3,5" health lab machines jobs; do
			curl -s -o /dev/null "$1/api/v1/$p"
		done
		sleep 0.2
	done
}

# san_exercise NAME: one daemon ($XCBENCHD) on $DB through all of it; its
# TAP lines. The sanitizer's reports are the log's lines matching
# $SAN_REPORT (an extended regular expression).
san_exercise() {
	local name=$1 rc i s n pids=() reader reader2
	TMP=
	start_daemon --open --threads 4 || { notok "$name: the $SAN_NAME daemon starts"; return; }
	XCBENCH_SERVER=$URL
	# The job runner, from the start and beside all that follows (its
	# jobs create no runs, so run 1 below is still the first run): a
	# machine powered by a command that never says on, so its job powers
	# on, cycles for attempt 2, times out and powers off.
	$X machine set 52:54:00:75:a0:01 --power command \
		--command "echo {action} >>'$TMP/power.log'; echo off" >/dev/null
	$X queue --mac 52:54:00:75:a0:01 --suite quick --attempts 2 --power-timeout 4 --boot-timeout 2 >/dev/null
	# And one powered through its BMC, its console captured (san_bmc):
	# its bound is what the exercise waits longest for, so it starts
	# first and the ingest, the reads and the CLI run meanwhile. 10 s: the
	# bound runs from the power-on (job_runner.c step), after the wait for
	# the SOL session, which comes up first (san_bmc's console listens
	# before the BMC starts), and the console's 40 lines come at once; at
	# 20 s each engine's pass sat ~10 s more waiting for the same events.
	$X machine set 52:54:00:75:a0:02 --power ipmi --host 127.0.0.1 --port "$BMC_PORT" --user admin \
		--password-file "$NET_DIR/bmc.pw" --sol >/dev/null
	$X queue --mac 52:54:00:75:a0:02 --suite quick --attempts 1 --power-timeout 10 >/dev/null
	# Run 1 first and alone: a run of 30 repetitions, 4,800 RESULT rows,
	# past two 2,048-row blocks, so its export reads ahead on a thread.
	"$XCB_GEN" --server 127.0.0.1:$PORT --token 75a0000000000001 --reps 30 >/dev/null 2>"$TMP/big.err"
	check "$name: run 1 (30 repetitions) stored, every frame ACKed" grep -q 'all frames acknowledged' "$TMP/big.err"
	# Two readers, so that HTTP threads also answer the same calls at once
	# (two group compares at once found lgamma's shared signgam).
	reads "$URL" &
	reader=$!
	reads "$URL" &
	reader2=$!
	for i in 1 2 3 4; do
		"$XCB_GEN" --server 127.0.0.1:$PORT --token "75a00000000${i}0000" --runs 2 --reps 5 --samples \
			>/dev/null 2>"$TMP/send.$i.err" &
		pids+=($!)
	done
	wait "${pids[@]}"
	check "$name: 4 senders x 2 runs with raw samples, beside the reads: every frame ACKed" \
		test "$(cat "$TMP"/send.*.err | grep -c 'all frames acknowledged')" = 4
	# Runs 1-9 are stored: the CLI's commands on them, meanwhile.
	san_cli_runs
	# (The power-off comes after the stage turns timed_out: wait for both.)
	for ((i = 0; i < 240; i++)); do
		s=$(pyjson "$URL/api/v1/jobs/1" 'd["job"]["stage"]' 2>/dev/null)
		[ "$s" = timed_out ] && grep -q '^off$' "$TMP/power.log" && break
		sleep 0.5
	done
	diag "$name: power actions: $(tr '\n' ' ' <"$TMP/power.log")"
	check "$name: the job runner powered the machine on twice and off, and timed the job out ($s)" \
		eval "[ '$s' = timed_out ] && [ \$(grep -c '^on$' '$TMP/power.log') = 2 ] && grep -q '^off$' '$TMP/power.log'"
	# The BMC's machine never asks for its boot script: its job times out,
	# and the last 30 lines its console printed become an event of the job.
	for ((i = 0; i < 240; i++)); do
		pyjson "$URL/api/v1/jobs/2" 'd["job"]["ended"] or exit(1)' >/dev/null 2>&1 && break
		sleep 0.5
	done
	pyjson "$URL/api/v1/jobs/2" '"\n".join("%s: %s" % (e["stage"], e["reason"]) for e in d["job"]["events"])' \
		>"$TMP/sol.events" 2>/dev/null
	sed 's/^/#   /' "$TMP/sol.events" | grep -v '^#   Fake' | head -12
	check "$name: the IPMI machine's job: powered on by its BMC, timed out, powered off" \
		eval "grep -q '^powering_on: power on (was off): ipmi ' '$TMP/sol.events' &&
		      grep -q '^timed_out: end: powered off: ipmi ' '$TMP/sol.events'"
	check "$name: ... its console over serial-over-LAN kept as an event, its last 30 lines" \
		eval "grep -q '^timed_out: console over serial-over-LAN, no run' '$TMP/sol.events' &&
		      [ \$(grep -c '^FakeBIOS line [0-9]*$' '$TMP/sol.events') = 30 ]"
	# The CLI built with ASan/UBSan/LSan over what the daemon now holds:
	# each command's report, and the exit status it documents (the runs'
	# commands began once the senders were done: san_cli_runs).
	san_cli "$name"
	# Two exports of run 1 at once, each reading ahead, beside the reads.
	curl -s -o "$TMP/a.csv" "$URL/api/v1/runs/1.csv" &
	curl -s -o "$TMP/b.csv" "$URL/api/v1/runs/1.csv"
	wait $!
	check "$name: two exports of run 1 at once, the same 4,801 lines" \
		eval "[ \$(wc -l <'$TMP/a.csv') = 4801 ] && cmp -s '$TMP/a.csv' '$TMP/b.csv'"
	touch "$TMP/stop"
	wait "$reader" "$reader2"
	kill -TERM "$DPID"
	wait "$DPID"
	rc=$?
	DPID=
	n=$(grep -cE "$SAN_REPORT" "$TMP/daemon.log")
	[ "$n" = 0 ] || grep -E -A24 -m3 "$SAN_REPORT" "$TMP/daemon.log" | sed 's/^/# /' | head -80
	check "$name: no $SAN_NAME report ($n), and a clean stop (exit $rc)" eval "[ $n = 0 ] && [ $rc = 0 ]"
	check "$name: the stop was the daemon's own" grep -q 'stopped cleanly' "$TMP/daemon.log"
	rm -rf "$TMP"
	TMP=
}

# san_cli_part TAG: the CLI built with ASan/UBSan/LSan (host/build/san/
# xcbench-asan) against the daemon at $URL, once for each "WANT|ARGS" line
# of its input; "N BAD" into $TMP/cli.TAG.count (BAD: the commands whose
# exit status was not WANT, whose output was empty or that printed a
# report: a memory error or undefined behaviour aborts it, a leak at exit
# makes its status 1), and a diag line for each of those. Parts with
# different TAGs may run at once.
san_cli_part() {
	local c=$ROOT/host/build/san/xcbench-asan bad=0 n=0 rc want args
	while IFS='|' read -r want args; do
		# shellcheck disable=SC2086  # args is a list of words on purpose
		ASAN_OPTIONS=detect_leaks=1 "$c" --server "$URL" $args >"$TMP/cli.$1.out" 2>"$TMP/cli.$1.err"
		rc=$?
		n=$((n + 1))
		if [ "$rc" != "$want" ] || [ ! -s "$TMP/cli.$1.out" ] || grep -qE 'Sanitizer|runtime error:' "$TMP/cli.$1.err"; then
			diag "$name: xcbench $args: exit $rc (want $want); $(grep -m3 -E 'ERROR|runtime error|^[a-z]' "$TMP/cli.$1.err")"
			bad=$((bad + 1))
		fi
	done
	echo "$n $bad" >"$TMP/cli.$1.count"
}

# san_cli_runs: san_cli_part "runs" in the background (its pid in
# SAN_CLI_PID): each reading command of the runs once, runs 1-9 stored.
san_cli_runs() {
	san_cli_part runs <<CMDS &
0|runs
0|runs --status complete --since 2000-01-01
0|show 2
0|show 3 --json
0|compare 2 3
0|compare 2 3 --format text
0|compare 2 3 --format markdown
0|compare 2 3 --flat
0|compare 2,4 3,5 --csv
0|compare 2 2 --algo-a locked --algo-b lockless --html $TMP/cmp.html
0|export 1
0|samples 2
0|baseline
CMDS
	SAN_CLI_PID=$!
}

# san_cli NAME: once jobs 1-2 have ended, the CLI's commands on them, then
# san_cli_runs' end; one TAP line for all: every exit status the expected
# one, every output there, no report.
san_cli() {
	local bad=0 n=0 cn cb t
	[ -x "$ROOT/host/build/san/xcbench-asan" ] ||
		{ wait "$SAN_CLI_PID"; notok "$1: host/build/san/xcbench-asan is built (make -C host tests)"; return; }
	san_cli_part jobs <<CMDS
0|job show 1
0|job show 2
0|machine show 52:54:00:75:a0:02
CMDS
	wait "$SAN_CLI_PID"
	for t in runs jobs; do
		read -r cn cb <"$TMP/cli.$t.count" || { cn=0 cb=1; diag "$1: no count from the CLI's $t part"; }
		n=$((n + cn)) bad=$((bad + cb))
	done
	check "$1: the CLI under ASan/UBSan/LSan: $n reading commands, no report, each exit as documented ($bad off)" \
		test "$bad" = 0 -a "$n" -gt 0
}

# san_bmc: a BMC (ipmi_sim, lablib.sh's lab_bmc) on a free port, BMC_PORT,
# user admin, its password in NET_DIR/bmc.pw; its machine a stand-in that
# never boots (its power a sleep). Its serial console, which the BMC's SOL
# reaches, is there whether the machine is on or off, as a BMC's own UART
# is: a listener on the SOL port, ready before the BMC starts, that answers
# every connection of the BMC with 40 numbered console lines at once, then
# one every 20 ms for a minute (so a captured console holds 30 lines at
# once). So the job's SOL session comes up before its power-on (the runner
# waits for that event, job_runner.c sol_waiting), not while the job's
# power bound runs: a console that only listened once powered on had to be
# reached by the session's retries within that bound, and at load 15 they
# could miss it (no console event at all). Each connection its own thread:
# a session opened again (after a drop, or the PostgreSQL pass) is
# answered too.
san_bmc() {
	local sol
	sol=$(free_port)
	echo sekrit-bmc >"$NET_DIR/bmc.pw"
	chmod 600 "$NET_DIR/bmc.pw"
	cat >"$NET_DIR/console.py" <<PY
import time
from sol_console import serve_forever  # tests/lib (PYTHONPATH: tap.sh)
def serve(c):
    try:
        c.sendall(b"".join(b"FakeBIOS line %d\r\n" % i for i in range(40)))
        for i in range(40, 3000):
            time.sleep(0.02)
            c.sendall(b"FakeBIOS line %d\r\n" % i)
    except OSError:
        pass
    c.close()
serve_forever($sol, serve)
PY
	timeout -k 5 900 python3 "$NET_DIR/console.py" >"$NET_DIR/console.out" 2>&1 &
	NET_PIDS+=("$!")
	# Ready once it listens (the event, not a pause).
	local i
	for ((i = 0; i < 300; i++)); do
		grep -q '^listening' "$NET_DIR/console.out" 2>/dev/null && break
		sleep 0.1
	done
	printf '#!/bin/sh\necho $$ >"%s"\nexec sleep 120\n' "$NET_DIR/fake.pid" >"$NET_DIR/fake.vm"
	chmod +x "$NET_DIR/fake.vm"
	LAB_PIDFILES+=("$NET_DIR/fake.pid")
	lab_bmc fake BMC_PORT admin sekrit-bmc "$sol"
}

# san_daemon_test BUILD: the daemon host/build/san/xcbenchd-BUILD through
# the exercise on SQLite, then on a throwaway PostgreSQL cluster (stopped at
# exit).
san_daemon_test() {
	need_host_build "the daemon under $SAN_NAME"
	XCBENCHD=$ROOT/host/build/san/xcbenchd-$1
	[ -x "$XCBENCHD" ] || { notok "host/build/san/xcbenchd-$1 is built (make -C host tests)"; exit 1; }
	lab_require "the daemon under $SAN_NAME"
	trap 'cleanup_daemon; pg_stop; lab_cleanup' EXIT
	san_bmc || { notok "ipmi_sim answers as the BMC"; exit 1; }
	DB=
	san_exercise SQLite
	pg_available || { notok "PostgreSQL server installed (make deps)"; exit 1; }
	pg_start || { notok "a PostgreSQL cluster starts"; exit 1; }
	check "the san database is created" pg_createdb san
	DB=$(pg_url san)
	san_exercise PostgreSQL
}
