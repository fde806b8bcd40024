#!/bin/bash
# bench/csv-export.sh — GET /api/v1/runs/{id}.csv on runs of 100,000 and
# 1,000,000 RESULT rows: rows/s as the client reads, and the daemon's peak
# RSS (VmHWM) above its idle peak, each export in a fresh daemon so the
# high-water marks are its own. The export is streamed (csvstream.c), so the
# peak must not grow with the row count: the ratio row says so.
# The big runs are made in SQL from one generated run (cases and rows like
# the real ones); ingesting a million rows over UDP would measure ingest.
. "$(dirname "$0")/lib/tap.sh"
need "$XCBENCHD" "$XCB_GEN"
T=$(mktemp -d "$BOUT/csv.XXXXXX")
DB=$T/xcbench.db

daemon "$DB" --open || exit 1
"$XCB_GEN" --server 127.0.0.1:$PORT --token c5f0000000000001 --reps 1 >/dev/null 2>&1 || { echo "seed run failed"; exit 1; }
stop_daemon
# Runs 2 and 3: run 1's 48 cases, results rep 0..N-1 (all-initiator rows).
$PY - "$DB" <<'PY'
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1])
for rid, token, rows in ((2, "c5f0000000000002", 100000), (3, "c5f0000000000003", 1000000)):
    reps = -(-rows // 48)
    c.execute("INSERT INTO runs(id, token, suite, status, created, hello, cpus, tsc_khz, frames_received) "
              "SELECT ?, ?, 'bench', 'complete', created, hello, cpus, tsc_khz, 0 FROM runs WHERE id = 1", (rid, token))
    c.execute("INSERT INTO cases SELECT ?, case_id, kind, algo, delivery, wait, inits, mask, placement, overlap, "
              "work_us, iters, reps, config, match_key FROM cases WHERE run_id = 1", (rid,))
    c.execute("""WITH RECURSIVE r(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM r WHERE n + 1 < ?)
        INSERT INTO results SELECT ?, x.case_id, r.n, 65535, x.count, x.min, x.p50 + r.n % 97, x.p90, x.p99, x.p999,
        x.max, x.mean_x1000, x.stddev_x1000, x.ipis, x.lock_acq, x.lock_contended, x.lock_hold_cycles,
        x.lock_wait_cycles, x.stale, x.calls_executed, x.calls_expected, x.flags
        FROM r, (SELECT * FROM results WHERE run_id = 1 AND rep = 0 AND initiator = 65535) x
        WHERE r.n * 48 + x.case_id <= ?""", (reps, rid, rows))
c.commit()
PY

hwm() { awk '/VmHWM/ { print $2 }' "/proc/$1/status"; }
# export ID: prints "rows seconds idle_hwm_kB peak_hwm_kB"
export_run() {
	local id=$1 h0 t0 t1 rows
	daemon "$DB" --open || exit 1
	curl -sf "$URL/api/v1/runs/1.csv" -o /dev/null   # warm: first request, connections open
	h0=$(hwm "$DPID")
	t0=$(now)
	rows=$(curl -sf "$URL/api/v1/runs/$id.csv" | tail -n +2 | wc -l)
	t1=$(now)
	echo "$rows $(echo "$t1 - $t0" | bc) $h0 $(hwm "$DPID")"
	stop_daemon
}
read -r r1 s1 i1 p1 < <(export_run 2)
read -r r2 s2 i2 p2 < <(export_run 3)
$PY - "$r1" "$s1" "$i1" "$p1" "$r2" "$s2" "$i2" "$p2" <<'PY'
import sys
r1, s1, i1, p1, r2, s2, i2, p2 = (float(x) for x in sys.argv[1:])
print("### CSV export: GET /api/v1/runs/{id}.csv, streamed")
print()
print("| rows | seconds | rows/s | MB/s | daemon peak RSS over idle |")
print("|---:|---:|---:|---:|---:|")
for r, s, i, p in ((r1, s1, i1, p1), (r2, s2, i2, p2)):
    print("| %d | %.2f | %.0f | %.1f | %+.1f MiB (idle peak %.1f MiB) |" % (r, s, r / s, r * 240 / s / 1e6, (p - i) / 1024, i / 1024))
print("| ratio 1M / 100k | %.1fx | %.2f | | peak growth %+.1f MiB for 10x the rows |" % (s2 / s1, (r2 / s2) / (r1 / s1), (p2 - i2 - (p1 - i1)) / 1024))
print()
print("MB/s assumes ~240 bytes per CSV row (34 columns).")
PY
rm -rf "$T"
