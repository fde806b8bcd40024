#!/bin/bash
# timeout: 240
# Datagram floods. A frame with seq = next + 2^20 - 1 used to allocate two
# 128 KiB bitmaps: 400 datagrams of 24 bytes took an --open daemon from 14 to
# 114 MiB (and kept it across a restart). A 24-byte frame with an unknown
# token got a 60-byte REFUSED back to its (spoofable) source, unthrottled.
# Now a run's receive state is bounded by its window, unknown tokens
# allocate nothing, and REFUSED is rate-limited and never larger than the
# datagram that caused it.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "datagram floods"
rss() { awk '/^VmRSS/ {print int($2 / 1024)}' /proc/$DPID/status; }

start_daemon --open || { notok "daemon starts"; exit 1; }
S=127.0.0.1:$PORT
# 400 runs, started as a payload starts one (HELLO, seq 0) ...
for i in $(seq 0 399); do printf '%s\n' "$i"; done | python3 -c '
import os, socket, struct, sys, time
sys.path.insert(0, sys.argv[2])
import frames
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for line in sys.stdin:
    r = frames.Run(0xf100d00000000000 + int(line))
    r.text(frames.HELLO, "cpus=2\n")
    s.sendto(r.frames[0], ("127.0.0.1", int(sys.argv[1])))
    time.sleep(0.001)
' "$PORT" "$ROOT/tests/web"
for _ in $(seq 100); do [ "$(pyjson "$URL/api/v1/health" 'd["frames"]["stored"]')" = 400 ] && break; sleep 0.1; done
check "400 runs started" [ "$(pyjson "$URL/api/v1/health" 'd["frames"]["stored"]')" = 400 ]
before=$(rss)
# ... then one 24-byte frame each, far ahead of its edge.
for i in $(seq 0 399); do printf '%s\n' "$i"; done | python3 -c '
import socket, struct, sys, zlib
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for line in sys.stdin:
    tok, seq = 0xf100d00000000000 + int(line), (1 << 20) - 1
    hdr = struct.pack("<IBBHQI", 0x31424358, 1, 6, 0, tok, seq)
    s.sendto(hdr + struct.pack("<I", zlib.crc32(b"", zlib.crc32(hdr))), ("127.0.0.1", int(sys.argv[1])))
' "$PORT"
sleep 1
after=$(rss)
check "far-ahead frames refused (seq_window = 400)" [ "$(pyjson "$URL/api/v1/health" 'd["rejected"]["seq_window"]')" = 400 ]
check "RSS bounded: $before -> $after MiB (< 8 MiB growth)" [ $((after - before)) -lt 8 ]
runs0=$(pyjson "$URL/api/v1/runs?limit=1" 'd["total"]')
out=$("${HOSTILE[@]}" flood $S 3000 24)
sleep 0.5
diag "3000 frames with unknown tokens (LOG, seq 0): $out; RSS $(rss) MiB"
check "unknown tokens create no run" [ "$(pyjson "$URL/api/v1/runs?limit=1" 'd["total"]')" = "$runs0" ]
check "... allocate nothing (RSS $(rss) MiB, < $((before + 8)))" [ "$(rss)" -lt $((before + 8)) ]
check "... and get no reply in --open" grep -q " replies=0 " <<<"$out"
stop_daemon
DB=$DB start_daemon --open || { notok "daemon restarts"; exit 1; }
check "after a restart the 400 open runs cost little (RSS $(rss) MiB < 40)" [ "$(rss)" -lt 40 ]
stop_daemon

# --- reflection, token mode ---
echo flood-admin >"$TMP/token"
DB=$TMP/b.db start_daemon --token-file "$TMP/token" || { notok "daemon starts (token mode)"; exit 1; }
S=127.0.0.1:$PORT
out=$("${HOSTILE[@]}" flood $S 2000 24)
diag "2000 unknown-token frames of 24 bytes: $out"
check "smaller than a REFUSED: no reply at all" grep -q " replies=0 " <<<"$out"
out=$("${HOSTILE[@]}" flood $S 2000 100)
diag "2000 unknown-token frames of 100 bytes: $out"
set -- $(sed 's/[a-z_]*=//g' <<<"$out")
check "REFUSED rate-limited: $2 replies for 2000 frames in $5 s (<= 10 + 2/s)" \
	python3 -c "import sys; sys.exit(not (1 <= $2 <= 10 + 2 * $5 + 2))"
check "never more bytes back than sent ($3 <= $4)" [ "$3" -le "$4" ]
check "refusals counted (unknown_token = 4000)" [ "$(pyjson "$URL/api/v1/health" 'd["rejected"]["unknown_token"]')" = 4000 ]
