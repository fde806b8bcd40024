#!/bin/bash
# bench/csv-export.sh — GET /api/v1/runs/{id}.csv on runs of 100,000 and
# 1,000,000 RESULT rows, on SQLite and on PostgreSQL (a throwaway cluster,
# tests/lib/pg.sh, when its binaries are here): rows/s as the client reads,
# and the daemon's peak RSS (VmHWM) above its idle peak, each export in a
# fresh daemon so the high-water marks are its own. The export is streamed (csvstream.c), so the
# peak must not grow with the row count: the ratio row says so.
# The big runs are made in SQL from one generated run (cases and rows like
# the real ones); ingesting a million rows over UDP would measure ingest.
. "$(dirname "$0")/lib.sh"
need "$XCBENCHD" "$XCB_GEN"
T=$(mktemp -d "$BOUT/csv.XXXXXX")
DB=$T/xcbench.db

daemon "$DB" --open || exit 1
"$XCB_GEN" --server 127.0.0.1:$PORT --token c5f0000000000001 --reps 1 >/dev/null 2>&1 || { echo "seed run failed"; exit 1; }
stop_daemon
cp "$DB" "$T/seed.db" # run 1 alone, for the PostgreSQL side (grown there in SQL)
# Runs 2 and 3: run 1's 48 cases, results rep 0..N-1 (all-initiator rows).
# The column lists are the migrated database's own (PRAGMA table_info: the
# schema as xcbenchd made it from db/, which test_schema checks against
# proto/xcb_schema.h), never a list written here: one written by hand
# exported 0 rows once the RESULT fields grew.
# BENCH_CSV_ROWS: the two sizes (default 100000 1000000).
read -r ROWS1 ROWS2 <<<"${BENCH_CSV_ROWS:-100000 1000000}"
$PY - "$DB" "$ROWS1" "$ROWS2" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
cols = lambda t: [r[1] for r in c.execute("PRAGMA table_info(%s)" % t)]
res, cas = cols("results"), cols("cases")
# run_id, rep and initiator are this row's; p50 varies with the rep; the
# rest is the seed row's, whatever the schema holds.
sel = {"run_id": "?", "rep": "r.n", "initiator": "65535", "p50": "x.p50 + r.n % 97"}
res_sel = ", ".join(sel.get(k, "x." + k) for k in res)
cas_sel = ", ".join("?" if k == "run_id" else k for k in cas)
for rid, token, rows in ((2, "c5f0000000000002", int(sys.argv[2])), (3, "c5f0000000000003", int(sys.argv[3]))):
    reps = -(-rows // 48)
    c.execute("INSERT INTO runs(id, token, suite, status, created, hello, cpus, tsc_khz, frames_received) "
              "SELECT ?, ?, 'bench', 'complete', created, hello, cpus, tsc_khz, 0 FROM runs WHERE id = 1", (rid, token))
    c.execute("INSERT INTO cases(%s) SELECT %s FROM cases WHERE run_id = 1" % (", ".join(cas), cas_sel), (rid,))
    c.execute("""WITH RECURSIVE r(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM r WHERE n + 1 < ?)
        INSERT INTO results(%s) SELECT %s
        FROM r, (SELECT * FROM results WHERE run_id = 1 AND rep = 0 AND initiator = 65535) x
        WHERE r.n * 48 + x.case_id <= ?""" % (", ".join(res), res_sel), (reps, rid, rows))
    got = c.execute("SELECT count(*) FROM results WHERE run_id = ?", (rid,)).fetchone()[0]
    if got < rows * 0.9:
        sys.exit("csv-export: made %d RESULT rows for run %d, wanted %d" % (got, rid, rows))
c.commit()
PY
[ $? = 0 ] || exit 1

hwm() { awk '/VmHWM/ { print $2 }' "/proc/$1/status"; }
# server_cpu_s: the PostgreSQL server's CPU seconds so far (0 on SQLite,
# whose reads are the daemon's own).
server_cpu_s() {
	local pm
	pm=$(head -1 "${PG_DIR:-/nonexistent}/data/postmaster.pid" 2>/dev/null)
	if [ -n "$pm" ]; then tree_cpu_s "$pm"; else echo 0; fi
}
# export_run DB ID: prints "rows seconds idle_hwm_kB peak_hwm_kB
# daemon_cpu_s server_cpu_s client_cpu_s" (the CPU the export took: on two
# cores the three share them, so their sum bounds the rate).
export_run() {
	local db=$1 id=$2 h0 t0 t1 rows d0 s0 c0
	daemon_rendered "$db" --open || exit 1 # its idle writer done first (runrender.c)
	curl -sf "$URL/api/v1/runs/1.csv" -o /dev/null   # warm: first request, connections open
	h0=$(hwm "$DPID")
	d0=$(cpu_s "$DPID") s0=$(server_cpu_s) c0=$(children_cpu_s)
	t0=$(now)
	# Every byte read over HTTP and every line counted, less the header.
	# Not `tail -n +2 | wc -l`: tail's copy through a second pipe cost
	# ~0.8 s of CPU per million rows, more than the daemon's formatting,
	# on the two cores the export shares with its client.
	rows=$(curl -sf "$URL/api/v1/runs/$id.csv" | wc -l)
	t1=$(now)
	echo "$((rows - 1)) $(echo "$t1 - $t0" | bc) $h0 $(hwm "$DPID")" \
		"$(echo "$(cpu_s "$DPID") - $d0" | bc) $(echo "$(server_cpu_s) - $s0" | bc) $(echo "$(children_cpu_s) - $c0" | bc)"
	stop_daemon
}
{ export_run "$DB" 2; export_run "$DB" 3; } >"$T/sqlite.res"

# The same two runs on PostgreSQL: the seed run copied with xcb-copy, runs
# 2 and 3 made from it in SQL as above (the column lists the server's own),
# then vacuumed, as api-latency.sh's are: with ANALYZE alone the exports
# were the rows' first read (each tuple's hint bits set, each page dirtied)
# and raced the autovacuum the 1.1M-row insert sets off within a minute,
# on one of the two cores: a one-time cost of the store and a race, not
# the export's (bench/LIMITS.md, CSV export).
: >"$T/pg.res"
if pg_seed "$T/seed.db"; then
	rc=$(pg_cols runs "'id', 'token'") cc=$(pg_cols cases "'run_id'")
	res=$(pg_cols results "''")
	sel=$(echo "$res" | sed -E 's/([a-z_0-9]+)/x.\1/g; s/x\.run_id/g.rid/; s/x\.rep/n/; s/x\.initiator/65535/; s/x\.p50([,]|$)/x.p50 + n % 97\1/')
	{
		for g in "2 c5f0000000000002 $ROWS1" "3 c5f0000000000003 $ROWS2"; do
			read -r rid tok rows <<<"$g"
			echo "INSERT INTO runs(id, token, $rc) SELECT $rid, '$tok', $rc FROM runs WHERE id = 1;"
			echo "INSERT INTO cases(run_id, $cc) SELECT $rid, $cc FROM cases WHERE run_id = 1;"
			echo "INSERT INTO results($res) SELECT $sel FROM (SELECT $rid AS rid) g, generate_series(0, ($rows + 47) / 48 - 1) n,"\
			     "(SELECT * FROM results WHERE run_id = 1 AND rep = 0 AND initiator = 65535) x WHERE n * 48 + x.case_id <= $rows;"
		done
		echo "SELECT setval(pg_get_serial_sequence('runs', 'id'), 3);"
		echo "VACUUM ANALYZE;"
	} >"$T/grow.sql"
	"$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 "$PGDB" -f "$T/grow.sql" >/dev/null || exit 1
	{ export_run "$PGDB" 2; export_run "$PGDB" 3; } >"$T/pg.res"
	# The larger run once more on the server's defaults (shared_buffers
	# 128MB, no huge pages: tests/lib/pg_store.sh's PG_STORE_DEFAULTS):
	# what a central store's settings are worth.
	if [ "${PG_STORE:-}" = central ]; then
		pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null 2>&1
		PG_STORE_OPTS=$PG_STORE_DEFAULTS pg_restart && export_run "$PGDB" 3 >"$T/pgdef.res"
	fi
	pg_stop
fi
: >>"$T/pgdef.res"
$PY - "$T/sqlite.res" "$T/pg.res" "$T/pgdef.res" <<'PY' || exit 1
import os, sys
def load(f):
    return [tuple(float(x) for x in l.split()) for l in open(f) if l.strip()]
lite, pg, pgdef = load(sys.argv[1]), load(sys.argv[2]), load(sys.argv[3])
for name, res in (("SQLite", lite), ("PostgreSQL", pg), ("PostgreSQL (server defaults)", pgdef)):
    if res and not all(x[0] > 0 and x[1] > 0 for x in res):
        sys.exit("csv-export: a %s export returned no rows (%s)" % (name, res))
def cpu(x):  # CPU seconds a million rows: daemon + server + client
    r, d, sv, c = x[0] / 1e6, x[4], x[5], x[6]
    return ("%.2f + %.2f + %.2f" % (d / r, sv / r, c / r)) if sv else ("%.2f + %.2f" % (d / r, c / r))
print("### CSV export: GET /api/v1/runs/{id}.csv, streamed, SQLite and PostgreSQL side by side")
print()
print("| engine | rows | seconds | rows/s | MB/s | daemon peak RSS over idle | rows/s / SQLite's | CPU s a million rows: daemon + server + client |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
def row(name, x, base):
    r, s, i, p = x[:4]
    print("| %s | %d | %.2f | %.0f | %.1f | %+.1f MiB (idle peak %.1f MiB) | %.2f | %s |" % (name, r, s, r / s, r * 240 / s / 1e6,
          (p - i) / 1024, i / 1024, (r / s) / (base[0] / base[1]), cpu(x)))
for name, res in (("SQLite", lite), ("PostgreSQL", pg)):
    for k, x in enumerate(res):
        row(name, x, lite[k])
    if len(res) == 2:
        (r1, s1, i1, p1), (r2, s2, i2, p2) = res[0][:4], res[1][:4]
        print("| %s: larger / smaller | %.0fx rows | %.1fx | %.2f | | peak growth %+.1f MiB | | |" % (name, r2 / r1, s2 / s1, (r2 / s2) / (r1 / s1), (p2 - i2 - (p1 - i1)) / 1024))
for x in pgdef:
    row("PostgreSQL, server defaults", x, lite[-1])
print()
print("MB/s assumes ~240 bytes per CSV row (34 columns). CPU: the daemon's and the PostgreSQL server's from /proc, the client's (curl | wc -l) from its exit; on %d cores the three share them, so their sum bounds the rate.%s" %
      (os.cpu_count(), "" if pg else " (No PostgreSQL row: no server binaries or no xcb-copy here.)"))
if pg:
    print()
    print("PostgreSQL's server: %s; fsync on.%s" % (os.environ.get("PG_STORE_SAYS", "?"),
          " The server-defaults row: the larger run again, the server restarted with shared_buffers 128MB and no huge pages." if pgdef else ""))
PY
rm -rf "$T"
