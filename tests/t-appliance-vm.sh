#!/bin/bash
# `xcbench vm` against a real xcbenchd on loopback: several machines with
# distinct identities (direct boot, e1000), and each way it must fail loudly —
# a payload that crashes, a run whose checks failed, a timeout (QEMU stopped, its unbooted job withdrawn),
# bad options, no daemon, a daemon that refuses writes.
# timeout: 300
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/net.sh"
net_require "xcbench vm"
[ -x "$XCBENCH" ] || { skip "xcbench vm" "host/build/xcbench not built"; exit 0; }

PORT=$(free_port)
net_daemon_start d "$PORT" || { notok "xcbenchd starts"; exit 1; }
SRV=http://127.0.0.1:$PORT
SUITE=(kinds=xcall reps=2 iters=20)
vm() { "$XCBENCH" --server "$SRV" vm "$@"; }

# Two machines, direct boot, e1000: both runs complete, identities distinct.
vm --boot direct --nic e1000 --vms 2 --suite quick --label two --wait --timeout 120 \
	--dir "$NET_DIR/two" "${SUITE[@]}" >"$NET_DIR/two.out" 2>&1
rc=$?
sed 's/^/# /' "$NET_DIR/two.out"
check "two machines (direct, e1000): exit 0" test "$rc" = 0
for n in 1 2; do
	mac=52:54:00:78:63:0$n
	id=$(grep -oE "^vm$n $mac: run [0-9]+ complete" "$NET_DIR/two.out" | grep -oE 'run [0-9]+' | cut -d' ' -f2 | tail -n 1)
	check "vm$n: reported its run complete with the dashboard URL" \
		grep -q "^vm$n $mac: run ${id:-x} complete, [0-9]* frames: $SRV/run.html?id=${id:-x}\$" "$NET_DIR/two.out"
	check "vm$n: run ${id:-?} complete with every frame" run_complete_ok "$PORT" "${id:-0}"
	s=$(api "$PORT" "/api/v1/runs/${id:-0}" | json "' '.join((j['run']['suite'], j['run']['label'], j['run']['machine']['mac'], j['facts'].get('cmdline', '')))")
	check "vm$n: run has the suite, label, MAC and overrides asked for" \
		grep -qE "^quick two $mac .*iters=20" <<<"$s"
	m=$(api "$PORT" /api/v1/machines | json "[(m['serial'], m['uuid']) for m in j['machines'] if m['mac'] == '$mac']")
	check "vm$n: machine has SMBIOS serial xcbench-vm-$n and its own UUID ($m)" \
		grep -q "xcbench-vm-$n', '78636265-6e63-4800-8000-52540078600$n'" <<<"$m"
	check "vm$n: console captured" grep -q 'xcbench:' "$NET_DIR/two/vm-$n.console.log"
	# awk counts a last line without a newline too (QEMU 10 can end the capture
	# mid-line); the daemon attaches that line as well, so nothing is lost.
	lines=$(awk 'END { print NR }' "$NET_DIR/two/vm-$n.console.log")
	got=$(api "$PORT" "/api/v1/runs/${id:-0}/events?kind=console&limit=1000" | json "len(j['events'])")
	check "vm$n: console attached to run ${id:-?}'s log ($got events of $lines lines)" test "${got:-0}" -gt 0 -a "${got:-0}" = "$lines"
done

# --first: machines of their own for a second invocation; --json: the
# outcome on stdout (progress on stderr).
vm --boot direct --first 9 --suite quick --wait --timeout 60 --dir "$NET_DIR/nine" --json "${SUITE[@]}" \
	>"$NET_DIR/nine.json" 2>"$NET_DIR/nine.out"
rc=$?
m=$(api "$PORT" /api/v1/machines | json "[m['serial'] for m in j['machines'] if m['mac'] == '52:54:00:78:63:09']")
check "--first 9: exit 0, machine 52:54:00:78:63:09 is xcbench-vm-9 ($m)" test "$rc" = 0 -a "$m" = "['xcbench-vm-9']"
id=$(api "$PORT" "/api/v1/runs?machine=52:54:00:78:63:09" | json "j['runs'][0]['id']")
got=$(json "(j['ok'], len(j['machines']), j['machines'][0]['mac'], j['machines'][0]['state'], j['machines'][0]['run']['id'], j['machines'][0]['run']['url'], j['machines'][0]['run']['status'], j['machines'][0]['run']['frames'] > 0, j['machines'][0]['error'])" <"$NET_DIR/nine.json")
check "--json: ok, the machine done with its run $id (URL, complete, frames) and no error ($got)" \
	test "$got" = "(True, 1, '52:54:00:78:63:09', 'done', ${id:-0}, '$SRV/run.html?id=${id:-0}', 'complete', True, None)"
check "--json: the progress went to stderr" grep -q '^vm9 52:54:00:78:63:09: run [0-9]* complete' "$NET_DIR/nine.out"

# A payload that crashes: non-zero, the machine and the reason named.
vm --boot direct --suite quick --wait --timeout 60 --dir "$NET_DIR/crash" --json "${SUITE[@]}" crash=ud \
	>"$NET_DIR/crash.json" 2>"$NET_DIR/crash.out"
rc=$?
sed 's/^/# /' "$NET_DIR/crash.out" | head -n 6
check "crashing payload: exit 1" test "$rc" = 1
check "crashing payload: says vm1 FAILED with the payload's status" \
	grep -qE '^vm1 52:54:00:78:63:01: FAILED: .*(payload exit 3|crashed)' "$NET_DIR/crash.out"
check "crashing payload: shows the console's last lines" grep -q '| xcbench: EXCEPTION' "$NET_DIR/crash.out"
got=$(json "(j['ok'], j['machines'][0]['state'], j['machines'][0]['error'])" <"$NET_DIR/crash.json")
check "crashing payload: --json says failed, with the reason ($got)" \
	grep -qE "^\(False, 'failed', '.*(payload exit 3|crashed)" <<<"$got"
cid=$(grep -oE 'run [0-9]+ pending' "$NET_DIR/crash.out" | head -n1 | grep -oE '[0-9]+')
n=$(api "$PORT" "/api/v1/runs/${cid:-0}/events?kind=console&limit=1000" | json "sum('EXCEPTION' in e['text'] for e in j['events'])")
check "crashing payload: the exception is in run ${cid:-?}'s log (console events)" test "${n:-0}" -ge 1

# A run that completes with its checks failed (dupskip_cpu=1: one call lost,
# one run twice): every frame is stored and the run is `complete`, yet the
# payload's verdict (DONE status 2) is a failure: exit 1, the run, the
# verdict and the failed case's LOG lines named; xcbench show and ingest say
# it too. (It exited 0 with "run R complete", as a pass.)
# watchdog_ms=2000 (here and in the two boots below): the case's end waits
# for the skipped call up to the watchdog's bound before it counts it lost,
# and a hung CPU is reported at the bound; the default (10 s) only made
# each of these boots ~8 s longer, with the same lines.
WD=watchdog_ms=2000
vm --boot direct --suite quick --wait --timeout 90 --dir "$NET_DIR/checks" --json kinds=xcall algos=locked \
	waits=done deliveries=unicast inits=1 masks=1 iters=20 reps=1 dupskip_cpu=1 $WD \
	>"$NET_DIR/checks.json" 2>"$NET_DIR/checks.out"
rc=$?
sed 's/^/# /' "$NET_DIR/checks.out"
fid=$(grep -oE 'run [0-9]+ complete' "$NET_DIR/checks.out" | head -n1 | grep -oE '[0-9]+')
check "checks failed: exit 1" test "$rc" = 1
check "checks failed: vm1 FAILED naming run ${fid:-?}, the payload's verdict and xcbench show" \
	grep -qE "^vm1 52:54:00:78:63:01: FAILED: run ${fid:-x} complete, but the payload's checks FAILED \(done status 2.*: xcbench show ${fid:-x}\$" "$NET_DIR/checks.out"
check "checks failed: the failed case's LOG line names the initiator and the counts" \
	grep -q '^  | case 1 rep 0: initiator cpu0: .*1 lost, 1 duplicated' "$NET_DIR/checks.out"
got=$(json "(j['ok'], j['machines'][0]['state'], 'checks FAILED' in (j['machines'][0]['error'] or ''))" <"$NET_DIR/checks.json")
check "checks failed: --json says failed, with the verdict ($got)" test "$got" = "(False, 'failed', True)"
out=$("$XCBENCH" --server "$SRV" show "${fid:-0}")
check "checks failed: xcbench show gives the verdict" grep -q "^VERDICT: the payload's checks FAILED (done status 2" <<<"$out"
check "checks failed: ... then the failed case's LOG lines" grep -q '^  case 1 rep 0: initiator cpu0: .*1 lost, 1 duplicated' <<<"$out"
# A run its watchdog ends (hang_cpu=1: CPU 1 stops answering): crashed,
# exit 1, and the ERROR whole: the CPU waited on and what it spins on are on
# its lines after the first (the FAILED line has the first only; xcbench
# show had the rest); no "the failed cases' LOG lines:" heading over
# nothing (no case's line names a failure when the watchdog ends the run).
vm --boot direct --suite quick --wait --timeout 120 --dir "$NET_DIR/wd" kinds=xcall algos=locked waits=done \
	deliveries=unicast inits=1 masks=1 iters=20 reps=1 hang_cpu=1 $WD >"$NET_DIR/wd.out" 2>&1
rc=$?
sed 's/^/# /' "$NET_DIR/wd.out" | head -n 24
check "watchdog: exit 1, the run crashed with the watchdog's first line" \
	bash -c '[ "$1" = 1 ] && grep -qE "^vm1 52:54:00:78:63:01: FAILED: run [0-9]+ crashed: watchdog" "$2"' _ "$rc" "$NET_DIR/wd.out"
check "watchdog: the ERROR's later lines, naming the CPU waited on" grep -qE '^   +cpu1: ' "$NET_DIR/wd.out"
check "watchdog: no empty heading of the failed cases' LOG lines" \
	awk '/the failed cases. LOG lines:/ { if ((getline n) <= 0 || n !~ /^  \| /) bad = 1 } END { exit bad }' "$NET_DIR/wd.out"
# The same boot handed over as a serial capture (the guide's no-daemon way).
XCB_QEMU_TIMEOUT=90 qemu_direct "$NET_DIR/checks.serial.log" 2 "suite=quick kinds=xcall algos=locked waits=done \
deliveries=unicast inits=1 masks=1 iters=20 reps=1 dupskip_cpu=1 $WD"
out=$("$XCBENCH" --server "$SRV" ingest "$NET_DIR/checks.serial.log" 2>/dev/null)
diag "$out"
check "checks failed: xcbench ingest of its serial capture names the verdict" \
	grep -qE "^run [0-9]+ token [0-9a-f]+ status complete, the payload's checks FAILED" <<<"$out"

# Timeout: QEMU stopped, the job nobody booted withdrawn.
vm --suite quick --wait --timeout 2 --dir "$NET_DIR/slow" "${SUITE[@]}" >"$NET_DIR/slow.out" 2>&1
rc=$?
sed 's/^/# /' "$NET_DIR/slow.out" | head -n 4
qpid=$(grep -oE 'QEMU started \(pid [0-9]+' "$NET_DIR/slow.out" | grep -oE '[0-9]+$')
check "timeout: exit 1 naming it" test "$rc" = 1 -a -n "$(grep 'FAILED: timed out after 2 s' "$NET_DIR/slow.out")"
check "timeout: QEMU (pid ${qpid:-?}) is gone" test -n "$qpid" -a ! -d "/proc/${qpid:-0}"
n=$(api "$PORT" "/api/v1/jobs?pending=1&mac=52:54:00:78:63:01" | json "len(j['jobs'])")
check "timeout: no job left pending for the next boot of that MAC ($n)" test "$n" = 0

# Lost: a daemon that drops every datagram (test-only flag) never hears the
# payload, so its run goes "lost"; --wait says so and stops the machine.
PL=$(free_port)
net_daemon_start lossy "$PL" --test-drop 1 --lost-after 3 || notok "lossy xcbenchd starts"
"$XCBENCH" --server "http://127.0.0.1:$PL" vm --boot direct --suite quick --wait --timeout 90 \
	--dir "$NET_DIR/lost" "${SUITE[@]}" >"$NET_DIR/lost.out" 2>&1
rc=$?
sed 's/^/# /' "$NET_DIR/lost.out" | grep -v '^#   |' | head -n 5
qpid=$(grep -oE 'QEMU started \(pid [0-9]+' "$NET_DIR/lost.out" | grep -oE '[0-9]+$')
check "lost run: exit 1, the machine and 'lost' named" \
	test "$rc" = 1 -a -n "$(grep -E '^vm1 52:54:00:78:63:01: FAILED: run [0-9]+ lost' "$NET_DIR/lost.out")"
check "lost run: QEMU (pid ${qpid:-?}) stopped" test -n "$qpid" -a ! -d "/proc/${qpid:-0}"
net_daemon_stop lossy

# Usage errors: status 2 and the bad input named.
out=$(vm --boot floppy 2>&1); rc=$?
check "--boot floppy: status 2, named" test "$rc" = 2 -a -n "$(grep -F "'floppy'" <<<"$out")"
out=$(vm --cpus 0 2>&1); rc=$?
check "--cpus 0: status 2, named" test "$rc" = 2 -a -n "$(grep -F "'0'" <<<"$out")"
out=$(vm reps 2>&1); rc=$?
check "a bare word: status 2, 'not key=value'" test "$rc" = 2 -a -n "$(grep 'not key=value' <<<"$out")"
check "--help: status 0" sh -c '"$0" vm --help >/dev/null' "$XCBENCH"

# No daemon; a daemon that refuses writes.
out=$("$XCBENCH" --server "http://127.0.0.1:$(free_port)" vm --boot direct 2>&1); rc=$?
check "no daemon: exit 1, 'no xcbenchd answers'" test "$rc" = 1 -a -n "$(grep 'no xcbenchd answers' <<<"$out")"
P2=$(free_port)
xcbd_start "$NET_DIR/closed.log" "$P2" --db "$NET_DIR/closed.db"
NET_PIDS+=("$XCBD_PID")
out=$("$XCBENCH" --server "http://127.0.0.1:$P2" vm --boot direct --dir "$NET_DIR/closed" 2>&1); rc=$?
check "daemon without --open: exit 1, names --token-file" test "$rc" = 1 -a -n "$(grep -- '--token-file' <<<"$out")"
check "daemon without --open: no QEMU was started" test -z "$(grep 'QEMU started' <<<"$out")"
