#!/bin/bash
# bench/api-latency.sh — latency of the run page's calls (web/js: the run,
# its events, one case's histogram; the runs list the index page loads) on a
# database of 1,000 runs (one generated run of 48 cases x 5 reps with
# histograms, copied 999 times in SQL), from one client on loopback, sequential
# requests on a kept-alive connection: p50 / p99 per call, against the
# cheapest route (/api/v1/health) as the HTTP floor. runs/{id} is asked of
# N different runs, each one's first request (cold), then of the same runs
# again (warm: the daemon keeps a run's rendered cases, casecache.c). The
# daemon is measured once it has stored every finished run's page
# (runrender.c, daemon_rendered): "first request" is a run's first request
# to this daemon, answered from the store's row, not from its memory.
# BENCH_XCBENCHD: another daemon binary to measure (a "before" build).
. "$(dirname "$0")/lib.sh"
XCBENCHD=${BENCH_XCBENCHD:-$XCBENCHD}
need "$XCBENCHD" "$XCB_GEN"
T=$(mktemp -d "$BOUT/api.XXXXXX")
DB=$T/xcbench.db
N=${BENCH_API_REQUESTS:-200}
RUNS=${BENCH_API_RUNS:-1000}

daemon "$DB" --open || exit 1
"$XCB_GEN" --server 127.0.0.1:$PORT --token a910000000000001 --reps 5 >/dev/null 2>&1 || { echo "seed run failed"; exit 1; }
stop_daemon
# The seed run alone, for the PostgreSQL side (grown there with SQL).
cp "$DB" "$T/seed.db"
# Run 1 copied to runs 2..RUNS; the tables keyed by run come from the
# migrated schema (tests/lib/grow_runs.py), for the PostgreSQL side too.
$PY "$ROOT/tests/lib/grow_runs.py" "$DB" "$RUNS" 000a91 >"$DB.tables" || { echo "growing the store failed"; exit 1; }
$PY - "$DB" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
open(sys.argv[1] + ".sizes", "w").write("%d runs, %d cases, %d result rows, %d histogram chunk rows" % tuple(
    c.execute("SELECT (SELECT count(*) FROM runs), (SELECT count(*) FROM cases), (SELECT count(*) FROM results), (SELECT count(*) FROM histogram_chunks)").fetchone()))
PY
# measure PORT OUT: one line per call into OUT: name, p50, p99, bytes.
measure() {
	$PY - "$1" "$N" "$RUNS" >"$2" <<'PY'
import http.client, json, sys, time
port, n, nruns = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
def t(path):
    ms = []
    for i in range(n):
        p = path.replace("{id}", str(1 + (i * 37) % nruns))
        t0 = time.perf_counter()
        c.request("GET", p)
        r = c.getresponse()
        b = r.read()
        ms.append((time.perf_counter() - t0) * 1000)
        assert r.status == 200, (p, r.status, b[:200])
    ms.sort()
    return ms[len(ms) // 2], ms[min(len(ms) - 1, int(len(ms) * 0.99))], len(b)
rows = [("health (HTTP floor)", "/api/v1/health"),
        ("run page: GET runs/{id} (first request: cold)", "/api/v1/runs/{id}"),
        ("run page: GET runs/{id} again (warm)", "/api/v1/runs/{id}"),
        ("run page: GET runs/{id}/events?limit=1000", "/api/v1/runs/{id}/events?limit=1000"),
        ("run page: GET runs/{id}/cases/7/histogram", "/api/v1/runs/{id}/cases/7/histogram"),
        ("index: GET runs?limit=100", "/api/v1/runs?limit=100"),
        ("index: GET runs?limit=1000", "/api/v1/runs?limit=1000"),
        ("run page CSV: runs/{id}.csv", "/api/v1/runs/{id}.csv"),
        ("compare a=b (48 cases, bootstrap)", "/api/v1/compare?a={id}&b=1")]
for name, path in rows:
    print(json.dumps((name,) + t(path)))
PY
}
daemon_rendered "$DB" --open || exit 1
measure "$PORT" "$T/sqlite.res" || exit 1
stop_daemon

# The same database on PostgreSQL (a throwaway cluster, tests/lib/pg.sh):
# the seed run copied with xcb-copy, then grown to RUNS runs in SQL.
: >"$T/pg.res"
if pg_seed "$T/seed.db"; then
	rc=$(pg_cols runs "'id', 'token'")
	{
		echo "INSERT INTO runs(id, token, $rc) SELECT g, lpad(to_hex((2705::bigint << 40) | g), 16, '0'), $rc FROM runs, generate_series(2, $RUNS) g WHERE id = 1;"
		echo "SELECT setval(pg_get_serial_sequence('runs', 'id'), $RUNS);"
		for t in $(cat "$DB.tables"); do
			cc=$(pg_cols "$t" "'run_id'")
			echo "INSERT INTO $t(run_id, $cc) SELECT g, $cc FROM $t, generate_series(2, $RUNS) g WHERE run_id = 1;"
		done
		echo "VACUUM ANALYZE;"
	} >"$T/grow.sql"
	"$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 "$PGDB" -f "$T/grow.sql" >/dev/null || exit 1
	daemon_rendered "$PGDB" --open || exit 1
	measure "$PORT" "$T/pg.res" || exit 1
	stop_daemon
	pg_stop
fi
$PY - "$T/sqlite.res" "$T/pg.res" "$N" "$(cat "$DB.sizes")" <<'PY'
import json, os, sys
lite = [json.loads(l) for l in open(sys.argv[1])]
pg = {r[0]: r for r in (json.loads(l) for l in open(sys.argv[2]))}
n, sizes = int(sys.argv[3]), sys.argv[4]
floor = lite[0][1]
print("### API latency: %d sequential requests per call, one kept-alive client; database: %s" % (n, sizes))
print()
print("| call | SQLite p50 ms | SQLite p99 ms | p50 / health p50 | reply bytes | PostgreSQL p50 ms | PostgreSQL p99 ms | PostgreSQL / SQLite p50 |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for name, p50, p99, size in lite:
    g = pg.get(name)
    print("| %s | %.2f | %.2f | %.1f | %d | %s | %s | %s |" % (name, p50, p99, p50 / floor, size,
          "%.2f" % g[1] if g else "-", "%.2f" % g[2] if g else "-", "%.2fx" % (g[1] / p50) if g else "-"))
print()
if not pg:
    print("(PostgreSQL column empty: no PostgreSQL server binaries or no xcb-copy here)")
else:
    print("PostgreSQL's server: %s; fsync on." % os.environ.get("PG_STORE_SAYS", "?"))
PY
stop_daemon
rm -rf "$T"
