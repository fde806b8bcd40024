#!/bin/bash
# The lab drives itself, through a real BMC: OpenIPMI's ipmi_sim per machine,
# ipmitool as the daemon's client, and each BMC's chassis power starting and
# stopping a QEMU machine (-smp 2).
#   A  PXE-boots through QEMU's iPXE ROM to the daemon; its serial port is
#      the BMC's serial-over-LAN. Job: powered on -> booting -> running ->
#      complete -> powered off, every stage an event; the run carries the
#      console from the firmware (SeaBIOS) on.
#   B  has no NIC (it never boots): timed out after 2 attempts, each with its
#      power cycle; A's job beside it is unaffected. Then a job cancelled
#      while powering on, and a daemon restarted mid-job: the job resumes
#      from its stored stage, with no second power-on.
#   C  is B's BMC with a wrong password: a clear error in the job, on the
#      machine and in the CLI.
#   D  has a BMC that never answers (nothing listens on its port): its job,
#      queued first, fails after its calls time out, and holds only itself
#      (each machine's power actions run on a worker of their own).
# No password shows in any API answer, the daemon's log or the process list
# (sampled all along).
# timeout: 600
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/net.sh"
. "$(dirname "$0")/lablib.sh"
net_require "lab power through ipmi_sim"
lab_require "lab power through ipmi_sim"

A=52:54:00:23:00:0a B=52:54:00:23:00:0b C=52:54:00:23:00:0c D=52:54:00:23:00:0d
PASS_A="pw-A-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
PASS_B="pw-B-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
PASS_BAD="pw-wrong-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
for f in A B BAD; do
	v=PASS_$f
	printf '%s\n' "${!v}" >"$NET_DIR/pass.$f"
	chmod 600 "$NET_DIR/pass.$f"
done

net_daemon lab PORT
export XCBENCH_SERVER=http://127.0.0.1:$PORT
TFTP=$NET_DIR/tftp
mkdir -p "$TFTP"
printf '#!ipxe\nchain http://10.0.2.2:%s/boot.ipxe?mac=${mac:hexhyp}\n' "$PORT" >"$TFTP/boot.ipxe"

SOL_A=$(free_port)
lab_vm_script A "$A" "$SOL_A" -netdev "user,id=n0,tftp=$TFTP,bootfile=boot.ipxe" \
	-device "virtio-net-pci,netdev=n0,mac=$A" -boot n
lab_vm_script B "$B" - -nic none -boot n
lab_bmc A BMC_A admin "$PASS_A" "$SOL_A" || { notok "ipmi_sim for A answers"; exit 1; }
lab_bmc B BMC_B admin "$PASS_B" || { notok "ipmi_sim for B answers"; exit 1; }
ok "two ipmi_sim BMCs answer on 127.0.0.1:$BMC_A and :$BMC_B"

# The process list, sampled while the test runs: no password may be in it.
# It stops at a file, between two samples: killed, a `ps` it had started
# still wrote its sample after the kill, which could hold the checks' own
# greps below (seen: PASS_A "in" `sh -c ! grep -qF PASS_A …`).
( while [ ! -e "$NET_DIR/ps.stop" ]; do ps -eo args >>"$NET_DIR/ps.log"; sleep 0.2; done ) &
SAMPLER=$!
NET_PIDS+=("$SAMPLER")

X=$XCBENCH
# off_soon MAC: the BMC says off within 20 s (ipmi_sim ends the start
# command with SIGTERM after a power off: QEMU takes a moment to go).
off_soon() {
	local i
	for i in $(seq 80); do
		[ "$($X machine power "$1" status 2>/dev/null)" = "$1: status: off" ] && return 0
		sleep 0.25
	done
	# Not off: what the BMC said and the machines' processes, kept in NET_DIR
	# (the CI run of 2026-12-02 had B on 20 s after its power-off, unexplained).
	diag "$1 still: $($X machine power "$1" status 2>&1)"
	ps -eo pid,ppid,stat,etime,wchan:24,args | grep -E '[q]emu-system|[i]pmi_sim|[t]imeout -k' >"$NET_DIR/not-off.$1.ps"
	return 1
}
check "machine set A: ipmi with SOL" $X machine set $A --power ipmi --host 127.0.0.1 --port "$BMC_A" \
	--user admin --password-file "$NET_DIR/pass.A" --sol
check "machine set B: ipmi" $X machine set $B --power ipmi --host 127.0.0.1 --port "$BMC_B" \
	--user admin --password-file "$NET_DIR/pass.B"
check "machine set C: ipmi (B's BMC, wrong password)" $X machine set $C --power ipmi --host 127.0.0.1 \
	--port "$BMC_B" --user admin --password-file "$NET_DIR/pass.BAD"
chmod 644 "$NET_DIR/pass.BAD"
$X machine set $C --power ipmi --host 127.0.0.1 --port "$BMC_B" --user admin \
	--password-file "$NET_DIR/pass.BAD" 2>"$NET_DIR/mode.err"
check "a password file others can read is refused ($(cut -c1-90 "$NET_DIR/mode.err"))" \
	grep -q "readable by others" "$NET_DIR/mode.err"
chmod 600 "$NET_DIR/pass.BAD"
BMC_D=$(free_port) # nothing listens there
check "machine set D: ipmi (a BMC that never answers)" $X machine set $D --power ipmi --host 127.0.0.1 \
	--port "$BMC_D" --user admin --password-file "$NET_DIR/pass.B"
check "power status of A through the CLI: off" test "$($X machine power $A status)" = "$A: status: off"

# C: the wrong password, in the CLI and on the machine.
$X machine power $C status >"$NET_DIR/c.out" 2>"$NET_DIR/c.err"
rc=$?
diag "CLI: $(cat "$NET_DIR/c.err")"
check "CLI power status with the wrong password fails (exit $rc)" test "$rc" = 1
check "... and says the BMC refused admin's password" \
	grep -q "ipmi 127.0.0.1:$BMC_B: the BMC refused the password for user 'admin' (wrong password?)" "$NET_DIR/c.err"
check "the machine page's power error says so too" \
	sh -c "curl -sf $XCBENCH_SERVER/api/v1/machines/$C | grep -q 'refused the password for user'"
# ipmitool words a wrong password, an unknown user and a silent BMC alike;
# the driver asks again, verbose, to tell them apart (power_ipmi.c).
$X machine set $C --power ipmi --host 127.0.0.1 --port "$BMC_B" --user nobody --password-file "$NET_DIR/pass.BAD"
$X machine power $C status 2>"$NET_DIR/c-user.err"
check "an unknown user is named as such ($(cat "$NET_DIR/c-user.err"))" \
	grep -q "the BMC knows no user 'nobody' (wrong user?)" "$NET_DIR/c-user.err"
$X machine set $C --power ipmi --host 127.0.0.1 --port "$BMC_B" --user admin --password-file "$NET_DIR/pass.BAD"
$X machine power $D status 2>"$NET_DIR/d.err"
check "a BMC that never answers is named as such ($(cat "$NET_DIR/d.err"))" \
	grep -q "ipmi 127.0.0.1:$BMC_D: no answer from a BMC there" "$NET_DIR/d.err"

# The jobs: A boots a short suite; B never boots (2 attempts, 6 s to boot);
# C cannot be powered; D's BMC never answers. D's job is the oldest, so the
# runner's pass meets it first: its calls (two, of two 2-s tries each) run
# on D's worker while the pass goes on to the others.
JD=$($X queue --mac $D --suite quick | grep -oE 'job [0-9]+' | cut -d' ' -f2)
JA=$($X queue --mac $A --suite quick --label lab-a --power-timeout 60 --boot-timeout 240 --run-timeout 300 \
	kinds=xcall reps=2 iters=20 | grep -oE 'job [0-9]+' | cut -d' ' -f2)
JB=$($X queue --mac $B --suite quick --attempts 2 --power-timeout 6 --boot-timeout 6 | grep -oE 'job [0-9]+' | cut -d' ' -f2)
JC=$($X queue --mac $C --suite quick | grep -oE 'job [0-9]+' | cut -d' ' -f2)
check "four jobs queued ($JD $JA $JB $JC)" test -n "$JD" -a -n "$JA" -a -n "$JB" -a -n "$JC"

s=$(lab_job_wait "$PORT" "$JC" failed)
check "job $JC (wrong password): failed ($s)" test "$s" = failed
lab_events "$PORT" "$JC" >"$NET_DIR/c.events"
check "... its event names the refused password" grep -q "refused the password for user 'admin'" "$NET_DIR/c.events"

s=$(lab_job_wait "$PORT" "$JD" failed)
lab_events "$PORT" "$JD" >"$NET_DIR/d.events"
sed 's/^/#   D: /' "$NET_DIR/d.events"
check "job $JD (a BMC that never answers): failed ($s)" test "$s" = failed
check "... its event says no BMC answered" grep -q "^1 failed: power status: ipmi 127.0.0.1:$BMC_D: no answer from a BMC there" "$NET_DIR/d.events"
# The pass did not wait for D's calls: C, queued after D, failed first
# (C's BMC refuses at once; the old runner made its calls after D's ~8 s).
event_t() { # JOB REGEX: the time (s) of the job's first event whose reason matches
	api "$PORT" "/api/v1/jobs/$1" | "$NET_PY" -c '
import json, re, sys
print(next((e["t"] for e in json.load(sys.stdin)["job"]["events"] if re.search(sys.argv[1], e["reason"])), ""))' "$2"
}
tc=$(event_t "$JC" "refused the password") td=$(event_t "$JD" "^power status: ")
check "D's dead BMC did not hold C's job (C failed at $tc, D at $td)" \
	test -n "$tc" -a -n "$td" -a "${tc:-0}" -lt "${td:-0}"

s=$(lab_job_wait "$PORT" "$JB" timed_out)
lab_events "$PORT" "$JB" >"$NET_DIR/b.events"
sed 's/^/#   B: /' "$NET_DIR/b.events"
check "job $JB (no NIC): timed out ($s)" test "$s" = timed_out
check "... a power-on for each of its 2 attempts" \
	test "$(grep -cE '^[12] powering_on: power (on|cycle) \(was ' "$NET_DIR/b.events")" = 2
check "... attempt 2 began with a power cycle" grep -q "power cycle for attempt 2 of 2" "$NET_DIR/b.events"
check "... then timed out after attempt 2 of 2" grep -q "attempt 2 of 2: timed out" "$NET_DIR/b.events"
check "... and was powered off" grep -q "^2 timed_out: end: powered off" "$NET_DIR/b.events"

s=$(lab_job_wait "$PORT" "$JA" complete failed timed_out)
$X job wait "$JA" --timeout 60 >"$NET_DIR/a.wait" 2>&1
rc=$?
check "xcbench job wait $JA: exit 0, 'job $JA: complete' after its power-off (exit $rc)" \
	sh -c "test $rc = 0 && test \"\$(tail -1 '$NET_DIR/a.wait')\" = 'job $JA: complete' && grep -q 'end: powered off' '$NET_DIR/a.wait'"
lab_events "$PORT" "$JA" >"$NET_DIR/a.events"
sed 's/^/#   A: /' "$NET_DIR/a.events"
check "job $JA (PXE machine beside B): complete ($s)" test "$s" = complete
if [ "$s" != complete ]; then
	# What A's QEMU and its BMC said (CI, 2026-12-02: A powered on and never
	# asked for its boot script, with nothing kept to say why).
	tail -n 5 "$NET_DIR/A.qemu.out" 2>/dev/null | sed 's/^/#   A qemu: /'
	tail -n 5 "$NET_DIR/A.bmc/sim.log" 2>/dev/null | sed 's/^/#   A ipmi_sim: /'
fi
for st in "powering_on: power on \\(was off\\)" "booting: boot script requested" "running: payload running \\(HELLO\\)" \
	"complete: run [0-9]+ complete" "complete: end: powered off"; do
	check "... event '$st'" grep -qE "^1 $st" "$NET_DIR/a.events"
done
# A's SOL session cannot open before its QEMU runs (ipmi_sim's console is
# the machine's serial socket), so A waits for it before powering on. That
# wait is asked once a runner pass, never waited out inside one: the pass
# serves B and C meanwhile, so C's refused power-on is on record before A's
# power-on (it used to wait 5 s inside the pass, holding B and C behind it).
if grep -q "no session within" "$NET_DIR/a.events"; then
	tc=$(event_t "$JC" "refused the password") ta=$(event_t "$JA" "^power on \\(was")
	check "A waited for its SOL session without holding C's job (C failed at $tc, A powered on at $ta)" \
		test -n "$tc" -a -n "$ta" -a "${tc:-0}" -lt "${ta:-0}"
	check "... and says its session is tried again" grep -q "no session within 15 s; powering on, its session tried again every second" "$NET_DIR/a.events"
else
	skip "A waited for its SOL session" "its session opened before the power-on"
fi
check "machine A is off again (CLI)" off_soon $A
RA=$(api "$PORT" "/api/v1/jobs/$JA" | json "j['job']['run_id']")
check "run $RA of job $JA: complete, every frame stored" run_complete_ok "$PORT" "$RA"
api "$PORT" "/api/v1/runs/$RA/events" | "$NET_PY" -c '
import json, sys
for e in json.load(sys.stdin)["events"]:
    if e["kind"] == "console": print(e["text"])' >"$NET_DIR/a.console"
diag "SOL console of run $RA: $(wc -l <"$NET_DIR/a.console") lines; first: $(grep -m1 . "$NET_DIR/a.console")"
check "the run's console starts with the firmware (SeaBIOS), over SOL" grep -m1 . "$NET_DIR/a.console" | grep -q SeaBIOS
check "... has iPXE's lines" grep -q "iPXE initialising devices" "$NET_DIR/a.console"
check "... and the payload's" grep -q "^xcbench" "$NET_DIR/a.console"

# Cancel: a job on B with room to wait, cancelled once it is powered on.
# B's pid file goes before the job is queued: the job runner may power B on
# (and the start command write the file) before queue's answer is read.
rm -f "$NET_DIR/B.pid"
J4=$($X queue --mac $B --suite quick --power-timeout 300 | grep -oE 'job [0-9]+' | cut -d' ' -f2)
for i in $(seq 240); do [ -s "$NET_DIR/B.pid" ] && lab_events "$PORT" "$J4" | grep -q "power on (was" && break; sleep 0.25; done
check "job $J4 on B: powered on (its start command ran)" test -s "$NET_DIR/B.pid"
code=$(curl -s -o /dev/null -w '%{http_code}' -X DELETE "$XCBENCH_SERVER/api/v1/jobs/$J4")
check "DELETE of job $J4 while it powers B on is refused ($code; cancel instead)" test "$code" = 409
check "xcbench job cancel $J4" sh -c "$X job cancel $J4 >/dev/null"
s=$(lab_job_wait "$PORT" "$J4" cancelled)
lab_events "$PORT" "$J4" >"$NET_DIR/j4.events"
check "job $J4: cancelled, then powered off ($s)" grep -q "^1 cancelled: end: powered off" "$NET_DIR/j4.events"
check "machine B is off (CLI)" off_soon $B

# A daemon restart mid-job: the job stays in its stored stage, its machine is
# not powered on a second time (the same QEMU process runs on).
# The pid file goes first, as for job 4 (removed after the queue, a quick
# power-on's file could be lost); a missing one fails the check by name, not
# with cat's and kill's errors (CI, 2026-12-02, B still on from job 4).
rm -f "$NET_DIR/B.pid"
J5=$($X queue --mac $B --suite quick --power-timeout 300 --attempts 2 | grep -oE 'job [0-9]+' | cut -d' ' -f2)
for i in $(seq 240); do [ -s "$NET_DIR/B.pid" ] && lab_events "$PORT" "$J5" | grep -q "power on (was" && break; sleep 0.25; done
vm_pid=$(cat "$NET_DIR/B.pid" 2>/dev/null)
check "job $J5 on B: powered on (QEMU ${vm_pid:-without a pid file})" test -n "$vm_pid" -a -d "/proc/${vm_pid:-0}"
net_daemon_stop lab
net_daemon_start lab "$PORT" || { notok "daemon restarts"; exit 1; }
sleep 3   # six passes of the job runner
lab_events "$PORT" "$J5" >"$NET_DIR/j5.events"
sed 's/^/#   J5: /' "$NET_DIR/j5.events"
check "after the restart job $J5 is still powering_on" test "$(api "$PORT" "/api/v1/jobs/$J5" | json "j['job']['stage']")" = powering_on
check "... with one power-on event" test "$(grep -cE 'power (on|cycle) \(was' "$NET_DIR/j5.events")" = 1
check "... and the same QEMU running (no second power-on)" \
	test -n "$vm_pid" -a -d "/proc/${vm_pid:-0}" -a "$(cat "$NET_DIR/B.pid" 2>/dev/null)" = "$vm_pid"
$X job cancel "$J5" >/dev/null
s=$(lab_job_wait "$PORT" "$J5" cancelled)
check "job $J5 cancelled after the restart, powered off" grep -q "end: powered off" <(lab_events "$PORT" "$J5")

# The overview and the machine pages, for the leak check below.
for p in /api/v1/lab /api/v1/machines /api/v1/jobs "/api/v1/machines/$A" "/api/v1/machines/$B" "/api/v1/machines/$C" \
	"/api/v1/jobs/$JA" "/api/v1/jobs/$JB" "/api/v1/jobs/$JC" "/api/v1/runs?limit=100"; do
	api "$PORT" "$p" >>"$NET_DIR/answers.json"
	echo >>"$NET_DIR/answers.json"
done
check "the lab overview lists A, B, C and D" test "$(api "$PORT" /api/v1/lab | json "len(j['machines'])")" = 4
# Its states say what to fix (power.h's faults): C's BMC refused the
# password, D's never answered; both were "unreachable" before.
lab_states=$(api "$PORT" /api/v1/lab | json "' '.join(m['state'] for m in j['machines'] if m['mac'] in ('$C', '$D'))")
check "the lab's states: C auth_refused, D unreachable ($lab_states)" test "$lab_states" = "auth_refused unreachable"
# The sampler stops before the checks below: each names the password it looks
# for on its own command line (sh -c "grep PASS"), and a sample taken then
# would be the test's own leak, not the daemon's (seen once: 47/48).
touch "$NET_DIR/ps.stop"
wait "$SAMPLER" 2>/dev/null
for v in PASS_A PASS_B PASS_BAD; do
	check "$v in no API answer" sh -c "! grep -qF '${!v}' '$NET_DIR/answers.json'"
	check "$v in no daemon log line" sh -c "! grep -qF '${!v}' '$NET_DIR/lab.daemon.log'"
	check "$v in no process's command line ($(wc -l <"$NET_DIR/ps.log") sampled)" sh -c "! grep -qF '${!v}' '$NET_DIR/ps.log'"
done
check "ipmitool ran with the password by file (-f), as ps showed" grep -q "ipmitool .*-f $NET_DIR/pass" "$NET_DIR/ps.log"
