#!/bin/bash
# timeout: 240
# An ACK means committed. With the database on a 600 KB tmpfs, 1500 frames
# sent used to be 1500 ACKed and 15 stored: store_frame()'s result and a
# failed COMMIT were ignored, and the registry marked the frames stored (so
# their retransmissions were dropped as duplicates). Now a failed write rolls
# back, ACKs nothing, /health says degraded with the reason, and once there
# is space again the sender's retransmissions complete every run.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
need_host_build "disk full"
SENDER=
cleanup() {
	[ -n "$SENDER" ] && kill "$SENDER" 2>/dev/null
	cleanup_daemon_keep=1
	if [ -n "${DPID:-}" ]; then kill -KILL "$DPID" 2>/dev/null; wait "$DPID" 2>/dev/null; fi
	DPID=
	mountpoint -q "$TMP/disk" 2>/dev/null && umount "$TMP/disk"
	cleanup_daemon
}
trap cleanup EXIT

TMP=$(mktemp -d "$OUTDIR/daemon.XXXXXX")
mkdir -p "$TMP/disk"
if ! mount -t tmpfs -o size=600k tmpfs "$TMP/disk" 2>/dev/null; then
	skip "disk full" "cannot mount a tmpfs here (needs root)"
	exit 0
fi
DB=$TMP/disk/xcbench.db start_daemon --open || { notok "daemon starts on a 600 KB tmpfs"; exit 1; }
sql() { dbq "$TMP/disk/xcbench.db" "$1"; }

RUNS=2 FRAMES=1500
python3 "$ROOT/tests/acklog-sender.py" --port "$PORT" --runs $RUNS --frames $FRAMES \
	--token-base d15c000000000000 --acklog "$TMP/acked" --give-up 90 >"$TMP/sender.json" 2>"$TMP/sender.err" &
SENDER=$!
st=
for _ in $(seq 300); do
	st=$(pyjson "$URL/api/v1/health" 'd["status"] + "|" + d.get("reason", "")' 2>/dev/null)
	[ "${st%%|*}" = degraded ] && break
	kill -0 $SENDER 2>/dev/null || break
	sleep 0.1
done
check "the disk fills: /health is degraded ($st)" [ "${st%%|*}" = degraded ]
check "... with the reason (disk full)" grep -qi "full" <<<"$st"
sleep 2 # the sender keeps retransmitting into the full disk
acked=$(sort -u "$TMP/acked" 2>/dev/null | wc -l)
missing=$(sort -u "$TMP/acked" | python3 -c '
import os, sqlite3, sys
c = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True, timeout=10)
have = {("%016x" % int(t, 16), s) for t, s in c.execute("SELECT r.token, f.seq FROM %s f JOIN runs r ON r.id = f.run_id" % os.environ["XCB_LEDGER"])}
print(sum(1 for l in sys.stdin if tuple((l.split()[0], int(l.split()[1]))) not in have))' "$TMP/disk/xcbench.db")
check "every ACKed frame is in the database ($acked ACKed while full, $missing missing)" [ "$missing" = 0 ]
check "not everything was ACKed while full" [ "$acked" -lt $((RUNS * FRAMES)) ]

mount -o remount,size=64m "$TMP/disk"
wait $SENDER; rc=$?; SENDER=
check "space is back: the sender completes every run (exit $rc: $(cat "$TMP/sender.json"))" [ "$rc" = 0 ]
check "/health is ok again" [ "$(pyjson "$URL/api/v1/health" 'd["status"]')" = ok ]
# Logged once per episode (a checkpoint can free room for a batch or two,
# so the disk may fill more than once), never once per failed batch.
nf=$(grep -c 'database writes failing' "$TMP/daemon.log") nr=$(grep -c 'database writes succeed again' "$TMP/daemon.log")
check "the failure and the recovery are logged once per episode ($nf, $nr)" [ "$nf" -ge 1 -a "$nf" = "$nr" -a "$nf" -le 10 ]
check "every run complete with every frame ($(sql "SELECT status, frames_received FROM runs" | tr '\n' ' '))" \
	[ "$(sql "SELECT count(*) FROM runs WHERE status = 'complete' AND frames_received = $FRAMES")" = $RUNS ]
check "every frame stored exactly once" [ "$(sql "SELECT count(*) FROM $XCB_LEDGER f")" = $((RUNS * FRAMES)) ]
