#!/bin/bash
# timeout: 120
# A job cancelled while its machine is being switched on: the power-on runs
# on the machine's worker (host/src/power_worker.c) and its driver call may
# take seconds (a PDU, a slow BMC), so the cancel can land inside it. The
# machine is then on whatever the job's stage says, and the end action must
# switch it off, not find it "never powered on" and leave it running.
#   M1: the `command` driver's `on` is held (the script below); the job
#       is cancelled once `on` has started: its events say the power-on went
#       out and the end powered it off, and the script's state is off.
#   M2: cancelled while its worker sets the boot device (`pxe` held):
#       nothing is switched on for a cancelled job.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "lab cancel during a power-on"

admin_daemon lab-cancel-admin
X=("$XCBENCH" --server "$URL" --token-file "$TMP/token")
echo secret >"$TMP/pass"
chmod 600 "$TMP/pass"
# power.sh ACTION MAC: a machine per MAC, its state in a file; the slow
# action of each machine (M1: on, M2: pxe) writes a mark, then waits for the
# test to release it (at most 30 s): the cancel lands inside the call
# however slow this host is.
cat >"$TMP/power.sh" <<SH
#!/bin/sh
d="$TMP/m-\$(echo "\$2" | tr -d :)"
mkdir -p "\$d"
echo "\$1" >>"\$d/actions"
held() { i=0; while [ ! -e "\$d/release" ] && [ \$i -lt 300 ]; do sleep 0.1; i=\$((i + 1)); done; }
case "\$1" in
on|cycle) [ -e "\$d/slow-on" ] && { : >"\$d/started-on"; held; }; echo on >"\$d/state" ;;
off) echo off >"\$d/state" ;;
pxe) [ -e "\$d/slow-pxe" ] && { : >"\$d/started-pxe"; held; }; : ;;
status) cat "\$d/state" 2>/dev/null || echo off ;;
esac
SH
chmod +x "$TMP/power.sh"
M1=52:54:00:ca:00:01 M2=52:54:00:ca:00:02
for m in $M1 $M2; do
	"${X[@]}" machine set $m --power command --command "$TMP/power.sh {action} {mac}" \
		--password-file "$TMP/pass" >/dev/null
	mkdir -p "$TMP/m-$(echo $m | tr -d :)"
done
D1=$TMP/m-$(echo $M1 | tr -d :) D2=$TMP/m-$(echo $M2 | tr -d :)
: >"$D1/slow-on"
: >"$D2/slow-pxe"

# wait_file FILE: up to 20 s for it to exist.
wait_file() {
	local i
	for i in $(seq 80); do [ -e "$1" ] && return 0; sleep 0.25; done
	return 1
}
# job_end JOB: up to 30 s for its end action (an "end: " event); its events.
job_end() {
	local i
	for i in $(seq 120); do
		curl -s "$URL/api/v1/jobs/$1" >"$TMP/job.json"
		grep -q '"end: ' "$TMP/job.json" && break
		sleep 0.25
	done
	python3 -c 'import json,sys
for e in json.load(open(sys.argv[1]))["job"]["events"]: print(e["stage"], e["reason"])' "$TMP/job.json"
}

J1=$("${X[@]}" queue --mac $M1 --suite quick | grep -oE 'job [0-9]+' | cut -d' ' -f2)
check "M1: its power-on started (job $J1)" wait_file "$D1/started-on"
check "M1: cancelled during the power-on" sh -c "'$XCBENCH' --server '$URL' --token-file '$TMP/token' job cancel $J1 >/dev/null"
: >"$D1/release"
job_end "$J1" >"$TMP/j1.events"
sed 's/^/#   M1: /' "$TMP/j1.events"
check "M1: the power-on that went out is on record" grep -q "^cancelled power on (was off)" "$TMP/j1.events"
check "M1: the end action powered it off" grep -q "^cancelled end: powered off" "$TMP/j1.events"
check "M1: the machine is off ($(cat "$D1/state" 2>/dev/null))" test "$(cat "$D1/state" 2>/dev/null)" = off

J2=$("${X[@]}" queue --mac $M2 --suite quick | grep -oE 'job [0-9]+' | cut -d' ' -f2)
check "M2: its boot device being set (job $J2)" wait_file "$D2/started-pxe"
"${X[@]}" job cancel "$J2" >/dev/null
: >"$D2/release"
job_end "$J2" >"$TMP/j2.events"
sed 's/^/#   M2: /' "$TMP/j2.events"
check "M2: nothing switched on for the cancelled job ($(tr '\n' ' ' <"$D2/actions"))" \
	bash -c "! grep -qE '^(on|cycle)$' '$D2/actions'"
check "M2: its end says it was never powered on" grep -q "^cancelled end: never powered on" "$TMP/j2.events"
check "SIGTERM: clean shutdown" stop_daemon
