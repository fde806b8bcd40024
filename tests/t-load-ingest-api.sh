#!/bin/bash
# timeout: 600
# Load: 32 simulated payloads (xcb-gen processes, one run each, every frame
# retransmitted until ACKed) stream into one xcbenchd while 50 HTTP clients
# read the API and download CSV in bounded loops, all on loopback → zero
# frames lost (every run complete, frames stored = frames the sender made,
# RESULT rows = RESULT frames), zero API errors, the daemon still healthy.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
need_host_build "load: 32 senders + 50 HTTP clients"
TMP=$(mktemp -d "$OUTDIR/load.XXXXXX")
GPIDS=()
cleanup() { for p in "${GPIDS[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; cleanup_daemon; }
trap cleanup EXIT

start_daemon --open || { notok "daemon starts"; exit 1; }
SENDERS=${XCB_LOAD_SENDERS:-32} CLIENTS=${XCB_LOAD_CLIENTS:-50} LOOPS=${XCB_LOAD_LOOPS:-6}

# A few finished runs first, so the clients have something to read from the start.
"$XCB_GEN" --server 127.0.0.1:$PORT --token 10ae000000000000 --runs 2 --reps 3 >"$TMP/pre.out" 2>&1

for i in $(seq 1 "$SENDERS"); do
	"$XCB_GEN" --server 127.0.0.1:$PORT --token "$(printf '10ad0000%08x' "$i")" --reps 3 --samples \
		>"$TMP/gen$i.out" 2>"$TMP/gen$i.err" &
	GPIDS+=("$!")
done
python3 "$ROOT/tests/load-clients.py" "$URL" --clients "$CLIENTS" --loops "$LOOPS" >"$TMP/clients.json" 2>"$TMP/clients.err"
crc=$?
fails=0
for p in "${GPIDS[@]}"; do wait "$p" || fails=$((fails + 1)); done
GPIDS=()
diag "clients: $(cat "$TMP/clients.json")"
check "$SENDERS concurrent senders: every frame ACKed ($fails senders failed)" [ "$fails" -eq 0 ]
check "$CLIENTS HTTP clients x $LOOPS loops: 0 API errors" [ "$crc" -eq 0 ]
nreq=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["requests"])' "$TMP/clients.json" 2>/dev/null)
check "the clients really ran (${nreq:-0} requests)" [ "${nreq:-0}" -ge $((CLIENTS * LOOPS * 3)) ]

# Zero frames lost: each run's stored frames = what its generator made.
python3 - "$URL" "$TMP" "$SENDERS" <<'PY'
from tap import ok
import json, re, sys, urllib.request
url, tmp, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
want = {}
for i in range(1, n + 1):
    m = re.search(r"token=(\w+) frames=(\d+) results=(\d+)", open("%s/gen%d.out" % (tmp, i)).read())
    want[m.group(1)] = (int(m.group(2)), int(m.group(3)))
runs = {r["token"]: r for r in json.load(urllib.request.urlopen(url + "/api/v1/runs?limit=1000"))["runs"]}
bad = []
for tok, (frames, results) in want.items():
    r = runs.get(tok)
    if not r or r["status"] != "complete" or r["frames_received"] != frames or r["frames_expected"] != frames:
        bad.append("%s: %s" % (tok, r and (r["status"], r["frames_received"], r["frames_expected"], frames)))
        continue
    rows = urllib.request.urlopen("%s/api/v1/runs/%d.csv" % (url, r["id"])).read().decode().split("\r\n")
    if len([x for x in rows[1:] if x]) != results:
        bad.append("%s: %d CSV rows, %d RESULT frames" % (tok, len(rows) - 2, results))
ok(not bad, "zero frames lost: %d runs complete, stored frames = sent frames, CSV rows = RESULT frames%s"
   % (len(want), (": " + "; ".join(bad[:5])) if bad else ""))
PY
h=$(pyjson "$URL/api/v1/health" '"%d %d %d" % (d["rejected"]["total"], d["frames"]["queued"], d["runs"]["complete"])')
check "health after the load: 0 rejected, queue drained, all runs complete ($h)" [ "$h" = "0 0 $((SENDERS + 2))" ]
check "SIGTERM: clean shutdown" stop_daemon
