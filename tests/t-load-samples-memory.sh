#!/bin/bash
# timeout: 300
# The samples CSV (GET /api/v1/runs/{id}/samples.csv) is streamed like the
# run CSV: its memory does not grow with the samples exported. A run of
# 1,000,252 samples (2,794 full chunks of 358, the most a SAMPLES frame
# holds, made in SQL beside one generated run) is exported whole: every
# sample once, in (case, rep, initiator, idx) order across the blocks, and
# the daemon's peak RSS rises by less than 8 MiB over its idle peak. A
# block of the export is 64 chunks (csv_query.block_rows): at the run
# CSV's 2,048 rows a block it would be ~15 MiB of CSV.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "samples CSV memory"
start_daemon --open || { notok "daemon starts"; exit 1; }
"$XCB_GEN" --server 127.0.0.1:$PORT --token 5a3e000000000001 --reps 1 --samples >/dev/null 2>&1
check "seed run ingested" [ "$(pyjson "$URL/api/v1/runs" 'd["total"]')" = 1 ]
stop_daemon
python3 - "$DB" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
# Streams (case 1, rep 1..6, initiator 0..3) of ~117 chunks each, every
# value its own index (idx + 1000 * rep): the order shows in the values.
rows = []
for k in range(2794):
    rep, ini, ch = 1 + k // 468, k // 117 % 4, k % 117
    idx0 = ch * 358
    rows.append((rep, ini, idx0, ",".join(str(1000000 * rep + idx0 + i) for i in range(358))))
c.executemany("INSERT INTO sample_chunks(run_id, case_id, rep, initiator, idx0, n, vals) "
              "VALUES (1, 1, ?, ?, ?, 358, ?)", rows)
c.commit()
PY
DB=$DB start_daemon --open || { notok "daemon restarts"; exit 1; }
wait_rendered "the run's page stored before measuring"
curl -sf "$URL/api/v1/runs/1/samples.csv?case=2" -o /dev/null
h0=$(awk '/VmHWM/ { print $2 }' "/proc/$DPID/status")
# rows of case 1's added streams, and rows out of order: (rep, initiator,
# idx) must rise row after row, the value following its index.
read -r rows unordered wrong < <(curl -sf "$URL/api/v1/runs/1/samples.csv?case=1" | tail -n +2 |
	awk -F, '$2 > 0 { k = ($2 * 4 + $3) * 1000000 + $4; if (k <= last) bad++; last = k;
		if ($5 + 0 != 1000000 * $2 + $4) wrong++; n++ } END { print n, bad + 0, wrong + 0 }')
h1=$(awk '/VmHWM/ { print $2 }' "/proc/$DPID/status")
check "all 1,000,252 added samples exported ($rows)" [ "$rows" -eq 1000252 ]
check "each row after the one before, across every block ($unordered out of order)" [ "$unordered" -eq 0 ]
check "each sample its stored value ($wrong differ)" [ "$wrong" -eq 0 ]
check "daemon peak RSS grew by $(( (h1 - h0) / 1024 )) MiB (< 8 MiB) for a 1M-sample export" [ $((h1 - h0)) -lt 8192 ]
check "SIGTERM: clean shutdown" stop_daemon
