#!/bin/bash
# timeout: 180
# Hostile input: 10,000 random datagrams plus crafted bad frames (bad CRC,
# version, type, truncated, oversize, unknown token) → the daemon keeps
# answering, and every one is counted as rejected under the right reason.
# Malformed HTTP requests get JSON errors with the right status; no path
# escapes web/.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "daemon hostile input"

TMP=$(mktemp -d "$OUTDIR/daemon.XXXXXX")
mkdir -p "$TMP/web" && echo '<h1>dash</h1>' >"$TMP/web/index.html"
echo 'private' >"$TMP/private.txt"
admin_daemon s3cret-token --web "$TMP/web"

python3 - "$PORT" <<'PY' >"$TMP/sent.txt"
import random, socket, struct, sys, time, zlib
port = int(sys.argv[1])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
rnd = random.Random(1234)
sent = 0
# 10,000 random datagrams of 0..1500 bytes, paced so loopback never drops.
for i in range(10000):
    n = rnd.randint(0, 1500)
    s.sendto(bytes(rnd.getrandbits(8) for _ in range(n)), ("127.0.0.1", port))
    sent += 1
    if i % 50 == 49:
        time.sleep(0.005)
def frame(version=1, ftype=6, token=0x77, seq=0, payload=b"hello", crc=None, length=None):
    hdr = struct.pack("<IBBHQI", 0x31424358, version, ftype, len(payload) if length is None else length, token, seq)
    c = zlib.crc32(payload, zlib.crc32(hdr)) if crc is None else crc
    return hdr + struct.pack("<I", c) + payload
bad = {
    "crc": [frame(crc=0xdeadbeef)] * 7,
    "version": [frame(version=2)] * 5,
    "type": [frame(ftype=99), frame(ftype=9)] ,          # unknown; ACK is daemon->payload only
    "length": [frame()[:-1], frame() + b"x", frame(length=3)],
    "oversize": [frame(payload=b"a" * 1449), b"XCB1" + b"\0" * 2000],
    "short": [b"", b"XCB1", frame()[:23]],
    "payload": [frame(ftype=3, payload=b"\0" * 100), frame(ftype=2, payload=b"algo=x\n")],
    "unknown_token": [frame(token=0x1234567, seq=k) for k in range(4)],
}
for reason, frames in bad.items():
    for f in frames:
        s.sendto(f, ("127.0.0.1", port))
    time.sleep(0.01)
print(" ".join("%s=%d" % (k, len(v)) for k, v in bad.items()))
PY
diag "crafted: $(cat "$TMP/sent.txt")"
SENT=$((10000 $(sed 's/[a-z_]*=/+ /g' "$TMP/sent.txt")))

# Wait until the collector has seen everything (bounded), then check.
for _ in $(seq 30); do
	n=$(curl -s --max-time 5 "$URL/api/v1/health" | grep -o '"received":[0-9]*' | cut -d: -f2)
	[ "${n:-0}" -ge "$SENT" ] && break
	sleep 0.2
done
check "daemon still answers after 10,000 random datagrams" curl -sf "$URL/api/v1/health" -o /dev/null
got=$(pyjson "$URL/api/v1/health" '"%d %d %d" % (d["frames"]["received"], d["rejected"]["total"], d["frames"]["stored"])')
check "all $SENT datagrams received and rejected, none stored ($got)" [ "$got" = "$SENT $SENT 0" ]
per=$(pyjson "$URL/api/v1/health" '" ".join("%s=%d" % (k, d["rejected"][k]) for k in ["short","magic","crc","version","type","length","oversize","payload","unknown_token"])')
diag "rejected by reason: $per"
exp=$(python3 -c 'import sys
got = dict(x.split("=") for x in sys.argv[1].split())
# the random datagrams all fail magic/short; the crafted ones hit their own reason exactly
want = {"short": 175 + 3, "magic": 9825, "crc": 7, "version": 5, "type": 2, "length": 3, "oversize": 2, "payload": 2, "unknown_token": 4}
print("ok" if all(int(got[k]) == v for k, v in want.items()) else "mismatch")' "$per")
check "crafted bad frames counted under their own reasons" [ "$exp" = ok ]

# HTTP: bad input gets JSON errors with the right status.
code() { curl -s --max-time 10 -o "$TMP/body" -w '%{http_code}' "$@"; }
check "unknown API route: 404 JSON" [ "$(code "$URL/api/v1/nope")" = 404 ]
check "error body is JSON with the status" python3 -c 'import json; d=json.load(open("'"$TMP/body"'")); assert d["status"]==404 and d["error"]'
check "bad run id: 400" [ "$(code "$URL/api/v1/runs/abc")" = 400 ]
check "missing run: 404" [ "$(code "$URL/api/v1/runs/999")" = 404 ]
check "bad filter: 400" [ "$(code "$URL/api/v1/runs?status=bogus")" = 400 ]
check "compare without b: 400" [ "$(code "$URL/api/v1/compare?a=1")" = 400 ]
check "write without token: 401" [ "$(code -H 'Content-Type: application/json' -X POST -d '{"mac":"52:54:00:00:00:01","suite":"quick"}' "$URL/api/v1/jobs")" = 401 ]
check "write with a wrong token: 401" [ "$(code -H 'Authorization: Bearer nope' -H 'Content-Type: application/json' -X POST -d '{}' "$URL/api/v1/runs")" = 401 ]
check "bad JSON body: 400" [ "$(code "${ADMIN[@]}" -X POST -d '{not json' "$URL/api/v1/jobs")" = 400 ]
check "bad MAC: 400" [ "$(code "${ADMIN[@]}" -X POST -d '{"mac":"zz","suite":"quick"}' "$URL/api/v1/jobs")" = 400 ]
check "params too long for the command line: 400" [ "$(code "${ADMIN[@]}" -X POST -d "{\"mac\":\"52:54:00:00:00:01\",\"suite\":\"quick\",\"params\":{\"a\":\"$(printf 'x%.0s' $(seq 60))\",\"b\":\"$(printf 'y%.0s' $(seq 60))\",\"c\":\"$(printf 'z%.0s' $(seq 60))\"}}" "$URL/api/v1/jobs")" = 400 ]
# A suite the payload lacks is refused when queued, not at the machine's
# boot ("unknown suite" on its console, after a power-on and a PXE boot).
curl -s "${ADMIN[@]}" -X POST -d '{"mac":"52:54:00:00:00:01","suite":"bogus"}' "$URL/api/v1/jobs" >"$TMP/bogus.json"
check "unknown suite: 400 naming the suites ($(cat "$TMP/bogus.json"))" \
	grep -q '"suite: expected one of quick, default, seed, tlb, ept, stress"' "$TMP/bogus.json"
check "body over 64 KiB: 413" [ "$(head -c 70000 /dev/zero | tr '\0' a | code "${ADMIN[@]}" -X POST --data-binary @- "$URL/api/v1/jobs")" = 413 ]
check "wrong method: 405" [ "$(code -X DELETE "$URL/api/v1/runs")" = 405 ]
check "valid job with the token: 201" [ "$(code "${ADMIN[@]}" -X POST -d '{"mac":"52-54-00-00-00-01","suite":"quick","params":{"reps":"3"}}' "$URL/api/v1/jobs")" = 201 ]
check "static index served" [ "$(code "$URL/")" = 200 ]
check "path escape refused (..)" [ "$(code --path-as-is "$URL/../private.txt")" = 404 ]
check "path escape refused (%2e%2e)" [ "$(code --path-as-is "$URL/%2e%2e/private.txt")" = 404 ]
ln -s "$TMP/private.txt" "$TMP/web/link.txt"
check "symlink out of web/ refused" [ "$(code "$URL/link.txt")" = 404 ]
# A page that is not there, asked by a browser (Accept: text/html): an HTML
# page that says so and links the dashboard (it showed the JSON error raw),
# the path escaped; anything else still gets the JSON error.
curl -s -D "$TMP/nf.h" -H 'Accept: text/html,application/xhtml+xml,*/*;q=0.8' \
	"$URL/nosuch<script>alert(1)</script>.html" -o "$TMP/nf.html"
check "a missing page to a browser: 404 as an HTML page linking the runs list" \
	bash -c "grep -q '^HTTP/1.1 404' '$TMP/nf.h' && grep -qi '^content-type: text/html' '$TMP/nf.h' && grep -q '<a href=\"/\">the runs list</a>' '$TMP/nf.html'"
check "... the path in it escaped (no markup of the requester's)" \
	bash -c "grep -qF '&lt;script&gt;alert(1)&lt;/script&gt;' '$TMP/nf.html' && ! grep -qF '<script>' '$TMP/nf.html'"
check "... and to a client that asks no HTML, the JSON error as before" \
	bash -c "curl -s '$URL/nosuch.html' | grep -qF '\"error\":\"not found: /nosuch.html\"'"
check "daemon still healthy after it all" curl -sf "$URL/api/v1/health" -o /dev/null
check "SIGTERM: clean shutdown" stop_daemon
