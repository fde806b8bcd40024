#!/bin/bash
# timeout: 300
# Read-ahead is capped (host/src/csvahead.c, AHEAD_MAX): each export that
# reads ahead holds a thread and a read connection for its duration, so
# many slow clients must not hold as many. Six downloads stall at once (more
# than the cap); a seventh taken meanwhile, and then each stalled one read
# to its end, must still be the whole run's CSV, byte for byte: an export
# past the cap is read inline on its HTTP thread, never refused.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
need_host_build "capped CSV read-ahead"
STALLERS=()
trap 'for p in "${STALLERS[@]}"; do kill "$p" 2>/dev/null; done; cleanup_daemon' EXIT

start_daemon --open --threads 2 || { notok "daemon starts"; exit 1; }
"$XCB_GEN" --server 127.0.0.1:$PORT --token 5a12000000000001 --reps 190 >/dev/null 2>&1
ID=$(pyjson "$URL/api/v1/runs" 'd["runs"][0]["id"]')
curl -sf "$URL/api/v1/runs/$ID.csv" >"$TMP/ref.csv"
ROWS=$(dbq "$DB" "SELECT count(*) FROM results WHERE run_id = $ID")
check "the run spans several read-ahead blocks ($ROWS rows > 3 x 2048)" [ "$ROWS" -gt 6144 ]
check "the reference export has every row" [ "$(($(wc -l <"$TMP/ref.csv") - 1))" = "$ROWS" ]

# (190 reps: ~6 MiB of CSV, more than the kernel lets a stalled socket
# buffer, so each stalled export really waits in the daemon.)
# stall N: reads the response head, waits for $TMP/go, then reads the rest
# into $TMP/stall.N (the body, after the header block).
stall() {
	python3 - "$PORT" "$ID" "$TMP" "$1" <<'PY'
import os, socket, sys, time
port, rid, tmp, n = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
s.connect(("127.0.0.1", port))
s.sendall(("GET /api/v1/runs/%s.csv HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n" % rid).encode())
got = s.recv(2048)
open(os.path.join(tmp, "started." + n), "w").write("%d\n" % len(got))
for _ in range(600):          # bounded: 60 s
    if os.path.exists(os.path.join(tmp, "go")):
        break
    time.sleep(0.1)
s.settimeout(60)
# Appended and cut in place, by offsets: copying the rest of ~6 MiB at each
# chunk cost minutes of CPU for six readers at once (bytes are immutable).
got = bytearray(got)
while True:
    b = s.recv(65536)
    if not b:
        break
    got += b
end = got.find(b"\r\n\r\n")
head, body = (got[:end], got[end + 4:]) if end >= 0 else (got, bytearray())
if b"chunked" in head.lower():  # undo HTTP/1.1 chunking
    out, at = bytearray(), 0
    while at < len(body):
        eol = body.find(b"\r\n", at)
        k = int(bytes(body[at:eol]).split(b";")[0], 16)
        if k == 0:
            break
        out += body[eol + 2:eol + 2 + k]
        at = eol + 2 + k + 2
    body = out
open(os.path.join(tmp, "stall." + n), "wb").write(body)
PY
}
threads0=$(ls /proc/$DPID/task | wc -l)
for i in 1 2 3 4 5 6; do stall "$i" & STALLERS+=($!); done
for _ in $(seq 200); do [ "$(ls "$TMP"/started.* 2>/dev/null | wc -l)" = 6 ] && break; sleep 0.1; done
check "six downloads started and stalled" [ "$(ls "$TMP"/started.* | wc -l)" = 6 ]
sleep 1 # each stalled export has read its first blocks (and started its read-ahead, if any)
threads=$(ls /proc/$DPID/task | wc -l)
diag "daemon threads: $threads0 idle, $threads with six exports stalled"
check "at most 4 read-ahead threads for six stalled exports" [ "$threads" -le $((threads0 + 4)) ]
check "... and read-ahead did start" [ "$threads" -gt "$threads0" ]
curl -sf --max-time 60 "$URL/api/v1/runs/$ID.csv" >"$TMP/during.csv"
check "an export while six stall is the whole CSV" cmp -s "$TMP/ref.csv" "$TMP/during.csv"
touch "$TMP/go"
for p in "${STALLERS[@]}"; do wait "$p"; done
STALLERS=()
for i in 1 2 3 4 5 6; do
	check "stalled download $i, read to its end, is the whole CSV" cmp -s "$TMP/ref.csv" "$TMP/stall.$i"
done
check "the daemon still answers" curl -sf "$URL/api/v1/health" -o /dev/null
