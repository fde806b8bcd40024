# tests/lib/daemon.sh — the one way scripts start an xcbenchd and pick its
# port: the test helpers (tap.sh, test-daemon.sh, net.sh) and
# tools/run-appliance.sh source it. Defines functions only (no TAP, no
# traps, no set -u), so a tool may source it as well as a test.
#
# Needs $XCBENCHD (the daemon binary).

# free_port: an unused TCP+UDP port on loopback (xcbenchd takes both).
free_port() {
	python3 -c 'import socket
while True:
    t=socket.socket(); t.bind(("127.0.0.1",0)); p=t.getsockname()[1]
    u=socket.socket(socket.AF_INET,socket.SOCK_DGRAM)
    try: u.bind(("127.0.0.1",p)); print(p); break
    except OSError: pass'
}

# xcbd_start LOG PORT [xcbenchd options...]: starts xcbenchd in the
# background with HTTP and UDP on 127.0.0.1:PORT, stdout and stderr appended
# to LOG, and waits until it listens: it says so on --ready-fd (a FIFO next
# to LOG), or closes that FIFO unsaid when it exits first. Sets XCBD_PID
# (also when it fails: the caller reaps it). 0 when ready, else 1.
# XCBD_WRAP: words put before the daemon (e.g. "ip netns exec NS"), with
# XCBD_LISTEN naming another host than 127.0.0.1 for both sockets.
xcbd_start() {
	local log=$1 port=$2 fifo line host=${XCBD_LISTEN:-127.0.0.1}
	shift 2
	fifo=$(mktemp -u "$log.ready.XXXXXX")
	mkfifo "$fifo" || return 1
	# shellcheck disable=SC2086  # XCBD_WRAP is a list of words on purpose
	${XCBD_WRAP:-} "$XCBENCHD" --listen "$host:$port" --udp "$host:$port" "$@" --ready-fd 3 \
		3>"$fifo" >>"$log" 2>&1 </dev/null &
	XCBD_PID=$!
	# The open blocks until the daemon's side has it open too (at once);
	# the read ends with its line, or at EOF if it exited without one.
	read -r -t "${XCBD_READY_TIMEOUT:-60}" line <"$fifo"
	rm -f "$fifo"
	[ "${line%% *}" = ready ]
}

# xcbd_rendered LOG FROM [SECONDS]: waits until the daemon logging to LOG
# (its lines after the first FROM) has stored the pages of all finished
# runs: host/src/runrender.c logs "stored run pages: 0 pending" when none
# is left. Its idle writer renders them on its own, so a test that compares
# the database or the daemon's memory before and after something waits
# for this first. 0 when done; 2 when the daemon says nothing of stored
# pages in 5 s (a build from before them); 1 when not done in SECONDS
# (default 600).
xcbd_rendered() {
	local log=$1 from=$2 i
	for ((i = 0; i < ${3:-600} * 10; i++)); do
		tail -n +"$((from + 1))" "$log" | grep -q 'stored run pages: 0 pending' && return 0
		[ "$i" = 50 ] && ! tail -n +"$((from + 1))" "$log" | grep -q 'stored run pages:' && return 2
		sleep 0.1
	done
	return 1
}
