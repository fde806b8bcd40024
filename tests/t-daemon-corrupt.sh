#!/bin/bash
# timeout: 120
# A corrupt database is refused at start, never served as healthy: a damaged
# runs leaf page used to give /health "ok" while a valid registered run's
# frames were answered REFUSED. Now xcbenchd runs PRAGMA quick_check first and
# exits with a message naming the file and how to recover it.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "corrupt database"

start_daemon --open || { notok "daemon starts"; exit 1; }
for i in $(seq 1 40); do
	curl -s -o /dev/null -X POST -H 'Content-Type: application/json' \
		-d "{\"token\":\"c0220000000000$(printf %02x "$i")\",\"label\":\"run $i with some text to fill the page\"}" "$URL/api/v1/runs"
done
check "runs registered" [ "$(pyjson "$URL/api/v1/runs?limit=1" 'd["total"]')" = 40 ]
check "daemon stops cleanly (WAL checkpointed)" stop_daemon
check "intact database passes quick_check" [ "$(sqlite3 "$DB" 'PRAGMA quick_check')" = ok ]

# Damage the runs table's root (here: its only leaf) page: a bad page type.
python3 - "$DB" <<'PY'
import sqlite3, sys
db = sys.argv[1]
c = sqlite3.connect(db)
root = c.execute("SELECT rootpage FROM sqlite_master WHERE name='runs'").fetchone()[0]
psize = c.execute("PRAGMA page_size").fetchone()[0]
c.close()
with open(db, "r+b") as f:
    f.seek((root - 1) * psize)
    f.write(b"\x07" + b"\xff" * 7)
PY
"$XCBENCHD" --listen 127.0.0.1:$PORT --udp 127.0.0.1:$PORT --db "$DB" --open >"$TMP/start2.log" 2>&1 &
DPID=$!
rc=0
for _ in $(seq 100); do kill -0 $DPID 2>/dev/null || break; sleep 0.1; done
if kill -0 $DPID 2>/dev/null; then
	notok "corrupt database refused at start (daemon is running; health: $(curl -s "$URL/api/v1/health" | head -c 80))"
else
	wait $DPID; rc=$?; DPID=
	check "corrupt database refused at start (exit status $rc)" [ "$rc" -ne 0 ]
fi
diag "$(cat "$TMP/start2.log")"
check "the message names the file" grep -qF "database '$DB' is corrupt" "$TMP/start2.log"
check "the message gives a recovery hint" grep -q "\.recover" "$TMP/start2.log"
