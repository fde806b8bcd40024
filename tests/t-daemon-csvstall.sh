#!/bin/bash
# timeout: 300
# A slow CSV reader. The export used to hold one read transaction for the
# whole download: with one stalled client the API served stale data (every
# other request on that HTTP thread read the old snapshot) and the WAL grew
# from 5.6 to 156 MiB (nothing could be checkpointed past the reader). Now
# each block of rows is its own short transaction, the writer checkpoints
# periodically and journal_size_limit trims the WAL.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
need_host_build "stalled CSV download"
STALL=
trap '[ -n "$STALL" ] && kill $STALL 2>/dev/null; cleanup_daemon' EXIT

# One HTTP thread: the stalled download and the API share its connection.
start_daemon --open --threads 1 || { notok "daemon starts"; exit 1; }
"$XCB_GEN" --server 127.0.0.1:$PORT --token 5a11000000000001 --reps 190 >/dev/null 2>&1
check "a run big enough to stall a download" [ "$(pyjson "$URL/api/v1/runs" 'd["runs"][0]["status"]')" = complete ]
ID=$(pyjson "$URL/api/v1/runs" 'd["runs"][0]["id"]')

python3 - "$PORT" "$ID" "$TMP/stall" <<'PY' &
import os, socket, sys, time
port, rid, flag = int(sys.argv[1]), sys.argv[2], sys.argv[3]
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
s.connect(("127.0.0.1", port))
s.sendall(("GET /api/v1/runs/%s.csv HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" % rid).encode())
got = s.recv(2048)
open(flag, "w").write("%d\n" % len(got))
for _ in range(600):          # stall (bounded): read nothing more for up to 60 s
    if not os.path.exists(flag):
        break
    time.sleep(0.1)
s.close()
PY
STALL=$!
for _ in $(seq 100); do [ -s "$TMP/stall" ] && break; sleep 0.1; done
check "download started and stalled" [ -s "$TMP/stall" ]
wal0=$(stat -c %s "$DB-wal" 2>/dev/null || echo 0)
# ~97 MiB of WAL frames (strace of its pwrites): far past the bound below,
# were the WAL pinned.
"$XCB_GEN" --server 127.0.0.1:$PORT --runs 10 --token 5a11000000000010 --reps 25 --samples >/dev/null 2>&1
check "the API is fresh during the stall (11 runs complete)" \
	[ "$(pyjson "$URL/api/v1/runs?status=complete" 'd["total"]')" = 11 ]
check "... also for a run's detail" [ "$(pyjson "$URL/api/v1/runs/$((ID + 10))" 'd["run"]["status"]')" = complete ]
sleep 6 # one periodic checkpoint
"$XCB_GEN" --server 127.0.0.1:$PORT --token 5a11000000000020 --reps 1 >/dev/null 2>&1 # a write after it: the WAL restarts
wal=$(stat -c %s "$DB-wal")
dbsz=$(stat -c %s "$DB")
diag "WAL $((wal0 / 1024)) KiB before, $((wal / 1024)) KiB after ~$((dbsz / 1048576)) MiB of writes during the stall"
# The writer lets the WAL reach LITE_CKPT_MAX pages (4500, ~18.5 MiB:
# host/src/dbi_sqlite_conn.h) before it rewinds; pinned by the reader, it
# would hold all the stall's writes.
check "WAL bounded while the download stalls ($((wal / 1048576)) MiB < 24 MiB)" [ "$wal" -lt $((24 << 20)) ]
check "the stalled download is still open" kill -0 $STALL
rm -f "$TMP/stall"
wait $STALL; STALL=
check "a whole download still has every row" [ "$(curl -s "$URL/api/v1/runs/$ID.csv" | python3 -c 'import csv,sys; print(len(list(csv.reader(sys.stdin))) - 1)')" = \
	"$(dbq "$DB" "SELECT count(*) FROM results WHERE run_id = $ID")" ]
