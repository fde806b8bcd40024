#!/bin/bash
# timeout: 180
# HTTP exhaustion: 512 connections in all, no per-address limit, and an idle
# timeout that one byte resets, so 520 trickling requests locked everyone out
# for 80 s. Now each address has a connection cap (--per-ip-connections) and
# each request a whole deadline (--request-timeout) that a trickle cannot
# extend.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "trickling connections"

start_daemon --open --request-timeout 3 || { notok "daemon starts"; exit 1; }
if ! python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.2", 0))' 2>/dev/null; then
	skip "trickling connections" "cannot bind 127.0.0.2"
	exit 0
fi
python3 - "$PORT" <<'PY'
import socket, subprocess, sys, time
port = int(sys.argv[1])
url = "http://127.0.0.1:%d/api/v1/health" % port
from tap import ok as tap

# 520 connections from 127.0.0.2, each sending a request one byte at a time.
conns, refused = [], 0
for i in range(520):
    s = socket.socket()
    s.bind(("127.0.0.2", 0))
    s.settimeout(2)
    try:
        s.connect(("127.0.0.1", port))
        s.send(b"G")
        conns.append(s)
    except OSError:
        refused += 1
time.sleep(0.5)
# Which of them did the daemon already close (the per-address cap)?
alive = []
for s in conns:
    s.setblocking(False)
    try:
        gone = s.recv(1) == b""
    except BlockingIOError:
        gone = False
    except OSError:
        gone = True
    (s.close() if gone else alive.append(s))
print("# 520 trickling connections from 127.0.0.2: %d kept open by the daemon" % len(alive))
tap(len(alive) <= 64, "at most 64 connections per address, the default (%d)" % len(alive))

# Everyone else is served at once, while the trickle goes on.
def others_served():
    r = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "5", url],
                       capture_output=True, text=True)
    return r.stdout == "200"
tap(others_served(), "another client is served while they trickle")

# Trickle a byte every 0.5 s: the deadline (3 s) cuts them all the same.
req = b"ET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: " + b"a" * 200
closed_at = {}
for step in range(60):   # at most 30 s of trickling
    for i, s in enumerate(alive):
        if i in closed_at:
            continue
        try:
            s.send(req[step:step + 1])
            s.setblocking(False)
            if s.recv(1) == b"":
                closed_at[i] = step
        except BlockingIOError:
            pass
        except OSError:
            closed_at[i] = step
    if len(closed_at) == len(alive):
        break
    time.sleep(0.5)
tap(len(closed_at) == len(alive), "every trickling request is cut by its deadline (%d of %d, none finished its headers)" % (len(closed_at), len(alive)))
tap(others_served(), "and the daemon still serves")
PY
check "the daemon is alive" kill -0 "$DPID"
