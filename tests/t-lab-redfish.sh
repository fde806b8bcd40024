#!/bin/bash
# The lab drives itself through a Redfish BMC, as README's lab guide has it:
# its redfish-power script and `--command` template, taken from README.md as
# written, under the `command` power driver; Debian's redfishtool as the
# client; tests/lib/redfish_bmc.py as the BMC (HTTPS with a self-signed
# certificate, Basic authentication, one ComputerSystem), whose power starts
# and stops a QEMU machine that PXE-boots to the daemon (-smp 2).
#   - status, on, pxe, off through the CLI: each a call the BMC logged
#   - a job: status, next boot PXE, power on, booting, running, complete,
#     powered off, and the run complete
#   - the wrong password: the CLI and the job say the BMC refused it (401)
#   - a BMC that is not there: the CLI says so, and the lab says unreachable
#   - README's script's exit 77 and 69 (sysexits.h): auth_refused, unreachable
#   - no password in the daemon's log or its API answers
# timeout: 420
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/net.sh"
. "$(dirname "$0")/lablib.sh"
net_require "lab power through a Redfish BMC"
command -v redfishtool >/dev/null || { skip "lab power through a Redfish BMC" "redfishtool missing (make deps)"; exit 0; }
command -v openssl >/dev/null || { skip "lab power through a Redfish BMC" "openssl missing"; exit 0; }

R=52:54:00:24:00:0a
PASS="pw-R-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
printf '%s\n' "$PASS" >"$NET_DIR/pass.R"
printf 'pw-wrong\n' >"$NET_DIR/pass.BAD"
chmod 600 "$NET_DIR/pass.R" "$NET_DIR/pass.BAD"

# README's script and template, as written (the lab guide's Redfish lines):
# the script between its heredoc's lines, the template from the
# `xcbench machine set` line after it, its path made this test's.
"$NET_PY" - "$(dirname "$0")/../README.md" "$NET_DIR" <<'PY'
import re, sys
t, d = open(sys.argv[1]).read(), sys.argv[2]
m = re.search(r"\n    cat >(/etc/xcbench/redfish-power) <<'SH'\n(.*?)\n    SH\n(.*?)--command '([^']*)'", t, re.S)
if not m:
    sys.exit("README.md: no Redfish script and --command template found")
open(d + "/redfish-power", "w").write("\n".join(l[4:] for l in m.group(2).split("\n")) + "\n")
open(d + "/redfish.template", "w").write(m.group(4).replace(m.group(1), d + "/redfish-power"))
PY
check "README's Redfish script and template found" test -s "$NET_DIR/redfish-power" -a -s "$NET_DIR/redfish.template"
chmod 700 "$NET_DIR/redfish-power"
TEMPLATE=$(cat "$NET_DIR/redfish.template")
diag "template: $TEMPLATE"

net_daemon lab PORT
export XCBENCH_SERVER=http://127.0.0.1:$PORT
X=$XCBENCH
TFTP=$NET_DIR/tftp
mkdir -p "$TFTP"
printf '#!ipxe\nchain http://10.0.2.2:%s/boot.ipxe?mac=${mac:hexhyp}\n' "$PORT" >"$TFTP/boot.ipxe"
lab_vm_script R "$R" - -netdev "user,id=n0,tftp=$TFTP,bootfile=boot.ipxe" \
	-device "virtio-net-pci,netdev=n0,mac=$R" -boot n

# The BMC: its certificate made here, as a BMC makes its own.
openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=bmc -days 2 -keyout "$NET_DIR/bmc.key" \
	-out "$NET_DIR/bmc.crt" >/dev/null 2>&1
BMC=$(free_port)
"$NET_PY" "$(dirname "$0")/lib/redfish_bmc.py" --port "$BMC" --cert "$NET_DIR/bmc.crt" --key "$NET_DIR/bmc.key" \
	--user root --password-file "$NET_DIR/pass.R" --start "$NET_DIR/R.vm" --log "$NET_DIR/bmc.log" \
	--ready "$NET_DIR/bmc.ready" 2>"$NET_DIR/bmc.err" &
NET_PIDS+=("$!")
for i in $(seq 50); do
	curl -sk -o /dev/null "https://127.0.0.1:$BMC/redfish/v1/" && break
	sleep 0.2
done
check "the Redfish BMC answers on https://127.0.0.1:$BMC" curl -sfk -o /dev/null "https://127.0.0.1:$BMC/redfish/v1/"

check "machine set R: command, README's template, the BMC's address as host" \
	$X machine set $R --power command --host "127.0.0.1:$BMC" --user root \
	--password-file "$NET_DIR/pass.R" --command "$TEMPLATE"

# calls: the BMC's log lines (one a request) after line $1 that match $2.
calls() { tail -n +"$(( $1 + 1 ))" "$NET_DIR/bmc.log" | grep -cE "$2"; }
logged() { wc -l <"$NET_DIR/bmc.log" 2>/dev/null || echo 0; }

check "power status of R through the CLI: off" test "$($X machine power $R status)" = "$R: status: off"
n=$(logged)
check "xcbench machine power R pxe" sh -c "$X machine power $R pxe >/dev/null"
check "... the BMC was asked for a one-time PXE boot" \
	test "$(calls "$n" '^PATCH /redfish/v1/Systems/1 \{"Boot":\{"BootSourceOverrideEnabled":"Once","BootSourceOverrideTarget":"Pxe"\}\}$')" = 1
rm -f "$NET_DIR/R.pid"
n=$(logged)
check "xcbench machine power R on" sh -c "$X machine power $R on >/dev/null"
check "... the BMC was asked to reset On" \
	test "$(calls "$n" '^POST /redfish/v1/Systems/1/Actions/ComputerSystem.Reset \{"ResetType":"On"\}$')" = 1
check "... and its machine runs (QEMU)" sh -c "for i in \$(seq 40); do [ -s '$NET_DIR/R.pid' ] && exit 0; sleep 0.25; done; exit 1"
check "power status of R: on" test "$($X machine power $R status)" = "$R: status: on"
n=$(logged)
check "xcbench machine power R off" sh -c "$X machine power $R off >/dev/null"
check "... the BMC was asked to reset ForceOff" \
	test "$(calls "$n" '^POST /redfish/v1/Systems/1/Actions/ComputerSystem.Reset \{"ResetType":"ForceOff"\}$')" = 1
vm_pid=$(cat "$NET_DIR/R.pid" 2>/dev/null)
check "... and its machine's QEMU is gone (pid ${vm_pid:-none})" \
	sh -c "[ -n '$vm_pid' ] && for i in \$(seq 40); do [ -d /proc/$vm_pid ] || exit 0; sleep 0.25; done; exit 1"
check "power status of R: off again" test "$($X machine power $R status)" = "$R: status: off"

# A job, as a lab runs one: the driver's status, the next boot, power on.
n=$(logged)
J=$($X queue --mac $R --suite quick --label lab-redfish --power-timeout 60 --boot-timeout 240 --run-timeout 300 \
	kinds=xcall reps=2 iters=20 | grep -oE 'job [0-9]+' | cut -d' ' -f2)
check "a job queued for R ($J)" test -n "$J"
s=$(lab_job_wait "$PORT" "$J" complete failed timed_out)
lab_events "$PORT" "$J" >"$NET_DIR/j.events"
sed 's/^/#   R: /' "$NET_DIR/j.events"
check "job $J through the Redfish BMC: complete ($s)" test "$s" = complete
[ "$s" = complete ] || tail -n 5 "$NET_DIR/R.qemu.out" 2>/dev/null | sed 's/^/#   R qemu: /'
for st in "powering_on: next boot PXE: set" "powering_on: power on \\(was off\\)" "booting: boot script requested" \
	"running: payload running \\(HELLO\\)" "complete: run [0-9]+ complete" "complete: end: powered off"; do
	check "... event '$st'" grep -qE "^1 $st" "$NET_DIR/j.events"
done
check "... the BMC was asked for PXE, On, then ForceOff, in that order" \
	test "$(tail -n +"$((n + 1))" "$NET_DIR/bmc.log" | grep -oE '"(BootSourceOverrideTarget":"Pxe|ResetType":"[A-Za-z]+)' | tr '\n' ' ')" \
	= '"BootSourceOverrideTarget":"Pxe "ResetType":"On "ResetType":"ForceOff '
RR=$(api "$PORT" "/api/v1/jobs/$J" | json "j['job']['run_id']")
check "run $RR of job $J: complete, every frame stored" run_complete_ok "$PORT" "$RR"
check "machine R is off (CLI)" test "$($X machine power $R status)" = "$R: status: off"

# The wrong password: redfishtool's 401, named in the CLI and the job.
$X machine set $R --power command --host "127.0.0.1:$BMC" --user root \
	--password-file "$NET_DIR/pass.BAD" --command "$TEMPLATE"
$X machine power $R status >/dev/null 2>"$NET_DIR/bad.err"
rc=$?
diag "CLI: $(cat "$NET_DIR/bad.err")"
check "CLI power status with the wrong password fails (exit $rc)" test "$rc" = 1
check "... and says the BMC answered 401 Unauthorized" grep -q "401 -- Unauthorized" "$NET_DIR/bad.err"
n=$(logged)
JB=$($X queue --mac $R --suite quick | grep -oE 'job [0-9]+' | cut -d' ' -f2)
s=$(lab_job_wait "$PORT" "$JB" failed)
lab_events "$PORT" "$JB" >"$NET_DIR/jb.events"
check "job $JB with the wrong password: failed ($s)" test "$s" = failed
check "... its event names the 401" grep -q "^1 failed: power status: .*401 -- Unauthorized" "$NET_DIR/jb.events"
check "... and nothing reached the BMC's power (no PATCH, no reset; $(calls "$n" .) reads)" \
	test "$(calls "$n" '^(PATCH|POST) ')" = 0 -a "$(calls "$n" .)" -gt 0
# README's script says 401 as exit 77 (EX_NOPERM): the lab names the fault
# to fix, where any exit was power_failed.
st=$(api "$PORT" /api/v1/lab | json "' '.join(m['state'] for m in j['machines'] if m['mac'] == '$R')")
check "the lab's state of R: auth_refused ($st)" test "$st" = auth_refused
check "... and the job's event says the device refused the credentials" \
	grep -q "command status: exit 77 (the device refused the credentials): .*401" "$NET_DIR/jb.events"

# No BMC there: the address answers nothing.
NOBMC=$(free_port)
$X machine set $R --power command --host "127.0.0.1:$NOBMC" --user root \
	--password-file "$NET_DIR/pass.R" --command "$TEMPLATE"
$X machine power $R status >/dev/null 2>"$NET_DIR/none.err"
rc=$?
diag "CLI: $(cat "$NET_DIR/none.err")"
check "CLI power status of a BMC that is not there fails (exit $rc) with redfishtool's words" \
	sh -c "test $rc = 1 && grep -q 'command status: exit 69 (no answer from the device): .*service root' '$NET_DIR/none.err'"
JN=$($X queue --mac $R --suite quick | grep -oE 'job [0-9]+' | cut -d' ' -f2)
s=$(lab_job_wait "$PORT" "$JN" failed)
st=$(api "$PORT" /api/v1/lab | json "' '.join(m['state'] for m in j['machines'] if m['mac'] == '$R')")
check "a job with no BMC there: failed ($s), the lab's state of R unreachable ($st)" \
	test "$s" = failed -a "$st" = unreachable

for p in /api/v1/lab /api/v1/machines "/api/v1/machines/$R" "/api/v1/jobs/$J" "/api/v1/jobs/$JB"; do
	api "$PORT" "$p" >>"$NET_DIR/answers.json"
	echo >>"$NET_DIR/answers.json"
done
check "the password in no API answer" sh -c "! grep -qF '$PASS' '$NET_DIR/answers.json'"
check "the password in no daemon log line" sh -c "! grep -qF '$PASS' '$NET_DIR/lab.daemon.log'"
