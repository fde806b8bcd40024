#!/bin/bash
# A new operator's day by the README's lab guide alone, through a real BMC
# (OpenIPMI's ipmi_sim; the machine a stand-in that never boots): two
# machines on one BMC, G with its password and P with a wrong one; a job on
# G, a second one queued behind it and cancelled, a job on P that fails on
# the BMC's refusal, and the events read back. What confused, each checked:
#   - P's job said "next boot PXE: not set (the BMC refused the password
#     …); booting anyway" before it failed on the same error: the power
#     status comes first now, and the job fails on one event naming why.
#   - a job cancelled while queued read "attempt 0 of 1" (as if one ran):
#     "no attempt begun (of 1)"; `machine show` printed "attempt 0".
#   - `machine show` gave no limits: it prints those a job that sets none
#     runs under (the daemon's, by the machine's driver).
#   - a cancel's event said "cancelled through the API" to an operator who
#     typed `xcbench job cancel`: "cancelled on request (xcbench job
#     cancel, the machine page's Cancel, or the API)".
#   - `machine list` said P was "unreachable" and not why (the BMC
#     answered, and refused the password): the error under its row, and
#     its state auth_refused (power.h's faults).
#   - `job --help` named no way to find a job's ID, nor what a limit
#     bounds; `queue --help` said only "each stage bounded (seconds)".
# timeout: 240
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/net.sh"
. "$(dirname "$0")/lablib.sh"
net_require "an operator's lab day through ipmi_sim"
lab_require "an operator's lab day through ipmi_sim"

G=52:54:00:23:d0:01 P=52:54:00:23:d0:02
PASS_G="pw-G-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
printf '%s\n' "$PASS_G" >"$NET_DIR/pass.G"
printf 'not-%s\n' "$PASS_G" >"$NET_DIR/pass.P"
chmod 600 "$NET_DIR/pass.G" "$NET_DIR/pass.P"
net_daemon lab PORT
export XCBENCH_SERVER=http://127.0.0.1:$PORT
X=$XCBENCH
printf '#!/bin/sh\necho $$ >"%s"\nexec sleep 300\n' "$NET_DIR/G.pid" >"$NET_DIR/G.vm"
chmod +x "$NET_DIR/G.vm"
LAB_PIDFILES+=("$NET_DIR/G.pid")
lab_bmc G BMC admin "$PASS_G" || { notok "ipmi_sim answers"; exit 1; }
ok "ipmi_sim answers on 127.0.0.1:$BMC"

# --help first, as a new operator reads it.
$X job --help >"$NET_DIR/job.help" 2>&1
check "job --help says where a machine's jobs and their IDs are (job list --mac, machine show)" \
	bash -c 'grep -q "^usage: xcbench job list \[--mac MAC\]" "$1" && grep -q "A machine.s jobs: xcbench machine show MAC" "$1"' _ "$NET_DIR/job.help"
check "... and what each limit bounds" grep -q "powering_on runs from the power-on to the machine's boot script" "$NET_DIR/job.help"
$X queue --help >"$NET_DIR/queue.help" 2>&1
check "queue --help says what --power-timeout bounds" \
	sh -c "tr '\n' ' ' <'$NET_DIR/queue.help' | grep -q -- '--power-timeout: from the power-on to the machine.s boot script request'"

check "machine set G: ipmi" $X machine set $G --power ipmi --host 127.0.0.1 --port "$BMC" --user admin \
	--password-file "$NET_DIR/pass.G"
check "machine set P: ipmi, the wrong password" $X machine set $P --power ipmi --host 127.0.0.1 --port "$BMC" \
	--user admin --password-file "$NET_DIR/pass.P"
$X machine show $G >"$NET_DIR/g.show"
sed 's/^/#   /' "$NET_DIR/g.show"
check "machine show G: the limits of a job that sets none" \
	grep -qx "  limits of a job that sets none: powering_on 120 s, booting 600 s, running 3600 s" "$NET_DIR/g.show"

J1=$($X queue --mac $G --suite quick --power-timeout 300 | grep -oE 'job [0-9]+' | cut -d' ' -f2)
J2=$($X queue --mac $G --suite quick 2>/dev/null | grep -oE 'job [0-9]+' | cut -d' ' -f2)
JP=$($X queue --mac $P --suite quick | grep -oE 'job [0-9]+' | cut -d' ' -f2)
check "three jobs queued ($J1 $J2 $JP)" test -n "$J1" -a -n "$J2" -a -n "$JP"
$X job cancel "$J2" >"$NET_DIR/j2.cancel" 2>&1
sed 's/^/#   /' "$NET_DIR/j2.cancel"
check "job cancel $J2 (queued): 'no attempt begun (of 1)', not 'attempt 0 of 1'" \
	grep -q "^cancelled: job $J2  quick on $G  stage cancelled  no attempt begun (of 1)$" "$NET_DIR/j2.cancel"

check "... its event says it was cancelled on request, naming job cancel" \
	grep -q "cancelled   cancelled on request (xcbench job cancel, " "$NET_DIR/j2.cancel"

$X job wait "$JP" --timeout 60 >"$NET_DIR/jp.wait" 2>&1
rc=$?
sed 's/^/#   /' "$NET_DIR/jp.wait"
check "job wait $JP (P, wrong password): exit 1, 'job $JP: failed' ($rc)" \
	sh -c "test $rc = 1 && test \"\$(tail -1 '$NET_DIR/jp.wait')\" = 'job $JP: failed'"
check "... failed on its power status, the refused password named" \
	grep -q "failed      power status: ipmi 127.0.0.1:$BMC: the BMC refused the password for user 'admin' (wrong password?)" "$NET_DIR/jp.wait"
check "... and that error only once, no 'booting anyway' before it" \
	sh -c "test \$(grep -c 'refused the password' '$NET_DIR/jp.wait') = 1 && ! grep -q 'anyway' '$NET_DIR/jp.wait'"

$X machine list >"$NET_DIR/list.out" 2>&1
sed 's/^/#   /' "$NET_DIR/list.out"
check "machine list: P auth_refused (not 'unreachable': its BMC answered, and refused), the BMC's words under it" \
	sh -c "grep -A1 -E '^$P +- +ipmi +auth_refused ' '$NET_DIR/list.out' | grep -q \"^    power error: ipmi 127.0.0.1:$BMC: the BMC refused the password for user 'admin'\""

for i in $(seq 120); do lab_events "$PORT" "$J1" | grep -q "power on (was" && break; sleep 0.25; done
$X machine show $G >"$NET_DIR/g.show2"
sed 's/^/#   /' "$NET_DIR/g.show2"
check "machine show G: job $J2 (cancelled while queued) with attempt '-'" \
	grep -qE "^  job $J2  cancelled +attempt -  " "$NET_DIR/g.show2"
check "... job $J1 powering on, attempt 1" grep -qE "^  job $J1  powering_on +attempt 1  " "$NET_DIR/g.show2"
$X job cancel "$J1" >/dev/null
$X job wait "$J1" --timeout 60 >"$NET_DIR/j1.wait" 2>&1
check "job $J1 cancelled and G powered off ($(tail -1 "$NET_DIR/j1.wait"))" \
	sh -c "grep -q 'end: powered off' '$NET_DIR/j1.wait' && test \"\$(tail -1 '$NET_DIR/j1.wait')\" = 'job $J1: cancelled'"
