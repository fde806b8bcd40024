# Helpers shared by the network tests (tests/t-net-*.sh): a throw-away
# xcbenchd on loopback, its API, and QEMU boots whose user-mode network
# reaches that daemon at 10.0.2.2. Source after tap.sh. Not a test itself
# (tests/run-all only runs t-*.sh).

# XCB_ELF_OVERRIDE: boot another payload build (e.g. make -C firmware B=/tmp/x).
[ -n "${XCB_ELF_OVERRIDE:-}" ] && XCB_ELF=$XCB_ELF_OVERRIDE

# Python without a version-manager shim in front (pyenv's costs seconds a call
# on a loaded machine; these tests call Python often).
NET_PY=python3
for p in /usr/bin/python3 /usr/local/bin/python3; do [ -x "$p" ] && { NET_PY=$p; break; }; done

NET_PIDS=()          # every process we start, killed on exit
NET_DIR=$(mktemp -d "$OUTDIR/net.XXXXXX")

net_cleanup() {
	local p
	for p in "${NET_PIDS[@]}"; do
		# A background qemu_direct is a subshell running timeout → qemu:
		# its children first (timeout passes the signal on to QEMU).
		pkill -TERM -P "$p" 2>/dev/null
		kill "$p" 2>/dev/null
	done
	for p in "${NET_PIDS[@]}"; do
		wait "$p" 2>/dev/null
	done
	# A failed check keeps the directory (the daemon's log and database with
	# its job events, QEMU's and ipmi_sim's output): the lab's intermittent
	# failures were seen once in CI with nothing left to explain them.
	if [ -n "${TAP_FAILED:-}" ] && [ -z "${NET_KEEP:-}" ]; then
		echo "# a check failed: $NET_DIR kept"
		return
	fi
	[ -n "${NET_KEEP:-}" ] || rm -rf "$NET_DIR"
}
trap net_cleanup EXIT
trap 'exit 143' TERM INT    # so the EXIT trap runs when the runner stops us

# net_require NAME [QEMU_SECONDS]: what a test needs before it can run at
# all; prints a SKIP line and exits 0 when something is missing (so `make
# test` on a half-built tree says why).
net_require() {
	if [ ! -f "$XCB_ELF" ]; then skip "$1" "firmware/build/xcbench.elf not built"; exit 0; fi
	if [ ! -x "$XCBENCHD" ]; then skip "$1" "host/build/xcbenchd not built"; exit 0; fi
	if ! command -v qemu-system-x86_64 >/dev/null; then skip "$1" "qemu-system-x86_64 missing"; exit 0; fi
	if ! command -v curl >/dev/null; then skip "$1" "curl missing"; exit 0; fi
	# QEMU_SECONDS: each boot's bound, unless the caller set XCB_QEMU_TIMEOUT
	if [ -n "${2:-}" ]; then export XCB_QEMU_TIMEOUT=${XCB_QEMU_TIMEOUT:-$2}; fi
}

# net_daemon_start NAME PORT [xcbenchd args...]: HTTP and UDP both on
# 127.0.0.1:PORT, database NET_DIR/NAME.db, --open. Sets DPID_<NAME>.
net_daemon_start() {
	local name=$1 port=$2 rc; shift 2
	xcbd_start "$NET_DIR/$name.daemon.log" "$port" --db "$NET_DIR/$name.db" --firmware "$XCB_ELF" --open "$@"
	rc=$?
	NET_PIDS+=("$XCBD_PID")
	eval "DPID_$name=$XCBD_PID"
	[ "$rc" = 0 ] && return 0
	diag "xcbenchd $name did not come up; its log:"
	sed 's/^/#   /' "$NET_DIR/$name.daemon.log"
	return 1
}

# net_daemon NAME VAR [xcbenchd args...]: net_daemon_start on a free port,
# which VAR is set to; a daemon that does not start ends the script (a
# failure).
net_daemon() {
	local name=$1 var=$2
	shift 2
	printf -v "$var" %s "$(free_port)"
	net_daemon_start "$name" "${!var}" "$@" || { notok "xcbenchd $name starts"; exit 1; }
}

# net_daemon_stop NAME: SIGTERM and wait (the daemon commits what it has).
net_daemon_stop() {
	local pid
	eval "pid=\${DPID_$1:-}"
	[ -n "$pid" ] || return 0
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	eval "DPID_$1="
}

# api PORT PATH [curl args]: GET (or what the args say) a daemon route.
api() { local port=$1 path=$2; shift 2; curl -sf "$@" "http://127.0.0.1:$port$path"; }

# json EXPR: evaluates a Python expression over the JSON on stdin (as `j`).
json() { "$NET_PY" -c "import json,sys; j=json.load(sys.stdin); print($1)"; }

new_token() { od -An -N8 -tx8 /dev/urandom | tr -d ' \n'; }

# register PORT TOKEN SUITE: the run the payload will report into.
register() {
	api "$1" /api/v1/runs -X POST -H 'Content-Type: application/json' \
		-d "{\"token\":\"$2\",\"suite\":\"$3\"}" >/dev/null
}

# run_id PORT TOKEN: the run's id ("" when unknown).
run_id() {
	api "$1" "/api/v1/runs?limit=1000" | "$NET_PY" -c "
import json,sys
for r in json.load(sys.stdin)['runs']:
    if r['token'] == '$2': print(r['id']); break"
}

# run_summary PORT ID: "status received expected done_status" of a run.
run_summary() {
	api "$1" "/api/v1/runs/$2" | json "' '.join(str(j['run'][k]) for k in ('status','frames_received','frames_expected','done_status'))"
}

# wait_complete PORT ID SECONDS: polls until the run is complete. 0 or 1.
wait_complete() {
	local t
	for t in $(seq $(( $3 * 5 ))); do
		[ "$(run_summary "$1" "$2" 2>/dev/null | cut -d' ' -f1)" = complete ] && return 0
		sleep 0.2
	done
	return 1
}

# run_complete_ok PORT ID: complete, DONE status ok, every frame stored (the
# daemon's frames_expected is DONE's count plus DONE itself: db/schema.sql).
run_complete_ok() {
	local s
	s=$(run_summary "$1" "$2") || return 1
	diag "run $2: status received expected done_status = $s"
	set -- $s
	[ "$1" = complete ] && [ "$3" != None ] && [ "$3" -gt 0 ] && [ "$4" = 0 ] &&
		[ "$2" -eq "$3" ]
}

# results_csv PORT ID: the run's RESULT rows without the run_id column, for
# comparing two stores of the same frames.
results_csv() { api "$1" "/api/v1/runs/$2.csv" | cut -d, -f2-; }

# same_results NAME PORT ID REF_PORT REF_ID PREFIX: one TAP line NAME: run ID
# (at PORT) stored results, and the very same as run REF_ID (at REF_PORT, the
# serial copy of the same boot); the CSVs stay in PREFIXudp.csv and
# PREFIXserial.csv, their first differences become diagnostics.
same_results() {
	local name=$1 a=${6}udp.csv b=${6}serial.csv
	results_csv "$2" "$3" >"$a"
	results_csv "$4" "$5" >"$b"
	if [ -s "$a" ] && cmp -s "$a" "$b"; then
		ok "$name ($(($(wc -l <"$a") - 1)) rows)"
	else
		notok "$name"
		diff "$a" "$b" | head -5 | sed 's/^/#   /'
	fi
}

# same_as_serial NAME LOG PORT ID TOKEN: the lossless reference for a boot
# that also wrote its frames to the serial console (transport=both): LOG's
# frames ingested into a daemon of their own (PORT_REF, started on first
# use), then three TAP lines: that copy is complete, run ID (at PORT)
# stored the very same results, and as many frames.
same_as_serial() {
	local name=$1 log=$2 port=$3 id=$4 token=$5 id2 a b
	[ -n "${PORT_REF:-}" ] || net_daemon ref PORT_REF
	serial_ingest "$log" "$PORT_REF" >/dev/null
	id2=$(run_id "$PORT_REF" "$token")
	check "$name: lossless serial copy complete" run_complete_ok "$PORT_REF" "${id2:-0}"
	same_results "$name: stored results identical to the lossless copy" \
		"$port" "$id" "$PORT_REF" "${id2:-0}" "$NET_DIR/$name."
	a=$(run_summary "$port" "$id" | cut -d' ' -f2-)
	b=$(run_summary "$PORT_REF" "${id2:-0}" | cut -d' ' -f2-)
	check "$name: same frame count as the lossless copy ($a)" test "$a" = "$b"
}

# NET_CMDLINE PORT TOKEN [more]: the command line a direct boot gets; the
# addresses are QEMU user networking's (guest 10.0.2.15, host 10.0.2.2).
net_cmdline() {
	local port=$1 token=$2; shift 2
	echo "run=$token server=10.0.2.2:$port transport=udp ip=10.0.2.15 gw=10.0.2.2 netmask=255.255.255.0 $NET_SUITE $*"
}

# The smallest suite that still sends a few hundred frames (more than the
# transport's 128-frame window, so a full window is exercised).
NET_SUITE=${NET_SUITE:-"suite=quick kinds=xcall reps=2 iters=20"}

# serial_ingest LOG PORT: submits every "XCB1 <base64>" frame of a serial log
# to the daemon at PORT (`xcbench ingest`; a few lines of Python doing the
# same when the CLI is not built), so a run delivered over UDP can be compared
# with the same frames taken from the serial console.
serial_ingest() {
	if [ -x "$XCBENCH" ]; then
		"$XCBENCH" --server "http://127.0.0.1:$2" ingest "$1" 2>&1 | sed 's/^/# /'
		return "${PIPESTATUS[0]}"
	fi
	"$NET_PY" - "$1" "$2" <<'PY'
import base64, socket, struct, sys, time
log, port = sys.argv[1], int(sys.argv[2])
frames = {}
for line in open(log, 'rb').read().decode('latin-1').splitlines():
    i = line.find('XCB1 ')
    if i < 0: continue
    try: f = base64.b64decode(line[i + 5:].split()[0])
    except Exception: continue
    if len(f) < 24 or f[:4] != b'XCB1': continue
    frames[struct.unpack_from('<I', f, 16)[0]] = f
if not frames: sys.exit('no frames in ' + log)
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.settimeout(0.2)
want = max(frames) + 1; acked = 0; deadline = time.time() + 60
while acked < want and time.time() < deadline:
    for q in range(acked, min(acked + 64, want)):
        if q in frames: s.sendto(frames[q], ('127.0.0.1', port))
    try:
        while True:
            a, _ = s.recvfrom(2048)
            if len(a) >= 24 and a[5] == 9: acked = max(acked, struct.unpack_from('<I', a, 16)[0])
    except socket.timeout: pass
print(f'# serial_ingest: {len(frames)} frames, acked up to {acked} of {want}')
sys.exit(0 if acked >= want else 1)
PY
}

# net_lossy_proxy PORT TARGET_PORT: a UDP relay on 127.0.0.1:PORT to the
# daemon at TARGET_PORT that loses 20%, duplicates 5% and reorders 25% of the
# datagrams in BOTH directions (frames and ACKs), like `tc netem loss 20%
# duplicate 5% reorder 25%` (netem itself is not available in every container).
# Counts go to NET_DIR/proxy.log when it is stopped. Sets PROXY_PID.
net_lossy_proxy() {
	"$NET_PY" - "$1" "$2" >"$NET_DIR/proxy.log" 2>&1 <<'PY' &
import random, select, signal, socket, sys, time
port, target = int(sys.argv[1]), int(sys.argv[2])
rnd = random.Random(20261130)
down = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); down.bind(('127.0.0.1', port))
up = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); up.bind(('127.0.0.1', 0))
client = None
held = []            # (release_time, sock, data, addr): reordered datagrams
n = {'in': 0, 'lost': 0, 'dup': 0, 'reordered': 0}
def stop(*_):
    print('proxy:', n, flush=True); sys.exit(0)
signal.signal(signal.SIGTERM, stop)
def emit(sock, data, addr):
    n['in'] += 1
    if rnd.random() < 0.20: n['lost'] += 1; return
    copies = 2 if rnd.random() < 0.05 else 1
    n['dup'] += copies - 1
    for _ in range(copies):
        if rnd.random() < 0.25:
            n['reordered'] += 1
            held.append((time.time() + rnd.uniform(0.002, 0.02), sock, data, addr))
        else:
            sock.sendto(data, addr)
while True:
    r, _, _ = select.select([down, up], [], [], 0.002)
    for s in r:
        data, addr = s.recvfrom(65536)
        if s is down:
            client = addr; emit(up, data, ('127.0.0.1', target))
        elif client:
            emit(down, data, client)
    now = time.time()
    for h in [h for h in held if h[0] <= now]:
        held.remove(h); h[1].sendto(h[2], h[3])
PY
	PROXY_PID=$!
	NET_PIDS+=("$PROXY_PID")
	sleep 0.3
}
