#!/bin/bash
# A slow BMC's serial-over-LAN, through a real BMC (OpenIPMI's ipmi_sim,
# ipmitool as the daemon's client): the machine's console answers the
# BMC's session only 8 s after the job starts (a BMC that takes seconds to
# open one). The machine is a stand-in whose power-on prints numbered
# console lines, line i 0.2 s after the power-on, to whoever listens then
# (a UART: a line printed while no session listens is lost), and asks the
# daemon for its boot script 3 s after the power-on; it never runs a payload.
#   - The job waits for the session (up to 15 s, its own bound) before the
#     power-on: the console starts with line 0. It waited 5 s, powered on
#     without the session, and lost the first ~20 lines.
#   - --power-timeout 6 runs from the power-on: the boot script request 3 s
#     after it is in time. The bound ran from the job's start, so the wait
#     for the session ate it (timed out in powering_on before the request).
# timeout: 300
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/net.sh"
. "$(dirname "$0")/lablib.sh"
net_require "slow serial-over-LAN through ipmi_sim"
lab_require "slow serial-over-LAN through ipmi_sim"

M=52:54:00:23:50:01
PASS="pw-S-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
printf '%s\n' "$PASS" >"$NET_DIR/pass"
chmod 600 "$NET_DIR/pass"
net_daemon lab PORT
export XCBENCH_SERVER=http://127.0.0.1:$PORT
X=$XCBENCH
SOL=$(free_port)

# The machine: its power-on stamps the time, then asks for its boot script.
cat >"$NET_DIR/S.vm" <<VM
#!/bin/sh
echo \$\$ >"$NET_DIR/S.pid"
date +%s.%N >"$NET_DIR/on.stamp"
sleep 3
curl -sf 'http://127.0.0.1:$PORT/boot.ipxe?mac=$M' >"$NET_DIR/boot.out"
exec sleep 300
VM
chmod +x "$NET_DIR/S.vm"
LAB_PIDFILES+=("$NET_DIR/S.pid")
# Its console: listens only once GO exists plus 8 s; on each connection it
# sends, from the power-on on, line i at on + 0.2 s * i, skipping the lines
# that fell due before the connection (printed to nobody).
cat >"$NET_DIR/console.py" <<PY
import os, time
from sol_console import serve_forever  # tests/lib (PYTHONPATH: tap.sh)
d = "$NET_DIR"
while not os.path.exists(d + "/go"):
    time.sleep(0.05)
time.sleep(8)
def serve(c):
    t_conn = time.time()
    try:
        while not os.path.exists(d + "/on.stamp"):
            time.sleep(0.05)
        time.sleep(0.1)
        t_on = float(open(d + "/on.stamp").read())
        for i in range(600):
            due = t_on + 0.2 * i
            if due < t_conn:
                continue
            time.sleep(max(0.0, due - time.time()))
            c.sendall(b"FakeBIOS line %d\r\n" % i)
    except OSError:
        pass
    c.close()
serve_forever($SOL, serve)
PY
timeout -k 5 280 "$NET_PY" "$NET_DIR/console.py" >"$NET_DIR/console.out" 2>&1 &
NET_PIDS+=("$!")
lab_bmc S BMC_S admin "$PASS" "$SOL" || { notok "ipmi_sim for S answers"; exit 1; }
ok "ipmi_sim for S answers on 127.0.0.1:$BMC_S"
check "machine set S: ipmi with SOL" $X machine set $M --power ipmi --host 127.0.0.1 --port "$BMC_S" \
	--user admin --password-file "$NET_DIR/pass" --sol
check "the machine says how long a job waits for its session (15 s)" \
	test "$(api "$PORT" "/api/v1/machines/$M" | json "j['machine']['sol_wait']")" = 15

touch "$NET_DIR/go"
J=$($X queue --mac $M --suite quick --power-timeout 6 --boot-timeout 300 | grep -oE 'job [0-9]+' | cut -d' ' -f2)
check "job queued ($J)" test -n "$J"
s=$(LAB_WAIT=90 lab_job_wait "$PORT" "$J" booting timed_out-ending timed_out failed-ending failed)
lab_events "$PORT" "$J" >"$NET_DIR/j.events"
sed 's/^/#   /' "$NET_DIR/j.events"
check "job $J reached booting on its first attempt ($s)" test "$s" = booting
check "... its session came up before its power-on (no 'no session within')" \
	sh -c "! grep -q 'no session within' '$NET_DIR/j.events' && grep -q '^1 powering_on: power on (was off)' '$NET_DIR/j.events'"
check "... and its power-on bound ran from the power-on (not timed out)" \
	sh -c "! grep -q 'timed out\|power cycle' '$NET_DIR/j.events'"
# The console: stored as the run's (the boot script request made the run).
RUN=""
for i in $(seq 120); do
	RUN=$(api "$PORT" "/api/v1/runs" | json "j['runs'][0]['id'] if j['runs'] else ''" 2>/dev/null)
	[ -n "$RUN" ] && api "$PORT" "/api/v1/runs/$RUN/events" | grep -q 'FakeBIOS line' && break
	sleep 0.25
done
api "$PORT" "/api/v1/runs/$RUN/events" 2>/dev/null | "$NET_PY" -c '
import json, sys
for e in json.load(sys.stdin)["events"]:
    if e["kind"] == "console": print(e["text"])' >"$NET_DIR/console.txt" 2>/dev/null
diag "run ${RUN:-none}: $(wc -l <"$NET_DIR/console.txt") console lines; first: $(head -1 "$NET_DIR/console.txt")"
check "the run's console starts with the machine's first line (FakeBIOS line 0)" \
	test "$(grep -m1 . "$NET_DIR/console.txt")" = "FakeBIOS line 0"
$X job cancel "$J" >/dev/null 2>&1
s=$(lab_job_wait "$PORT" "$J" cancelled)
check "job $J cancelled, powered off" grep -q "end: powered off" <(lab_events "$PORT" "$J")
check "the password in no daemon log line" sh -c "! grep -qF '$PASS' '$NET_DIR/lab.daemon.log'"
