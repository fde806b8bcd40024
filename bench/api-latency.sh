#!/bin/bash
# bench/api-latency.sh — latency of the run page's calls (web/js: the run,
# its events, one case's histogram; the runs list the index page loads) on a
# database of 1,000 runs (one generated run of 48 cases x 5 reps with
# histograms, copied 999 times in SQL), from one client on loopback, sequential
# requests on a kept-alive connection: p50 / p99 per call, against the
# cheapest route (/api/v1/health) as the HTTP floor.
. "$(dirname "$0")/lib/tap.sh"
need "$XCBENCHD" "$XCB_GEN"
T=$(mktemp -d "$BOUT/api.XXXXXX")
DB=$T/xcbench.db
N=${BENCH_API_REQUESTS:-200}

daemon "$DB" --open || exit 1
"$XCB_GEN" --server 127.0.0.1:$PORT --token a910000000000001 --reps 5 >/dev/null 2>&1 || { echo "seed run failed"; exit 1; }
stop_daemon
$PY - "$DB" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
cols = lambda t: [r[1] for r in c.execute("PRAGMA table_info(%s)" % t)]
rc = [x for x in cols("runs") if x not in ("id", "token")]
for i in range(2, 1001):
    c.execute("INSERT INTO runs(id, token, %s) SELECT ?, printf('%%016x', ?), %s FROM runs WHERE id = 1"
              % (", ".join(rc), ", ".join(rc)), (i, 0xa91 << 40 | i))
    for t in ("frames", "cases", "results", "histograms", "samples", "events"):
        cc = [x for x in cols(t) if x != "run_id"]
        c.execute("INSERT INTO %s(run_id, %s) SELECT ?, %s FROM %s WHERE run_id = 1" % (t, ", ".join(cc), ", ".join(cc), t), (i,))
c.commit()
open(sys.argv[1] + ".sizes", "w").write("%d runs, %d cases, %d result rows, %d histogram rows" % tuple(
    c.execute("SELECT (SELECT count(*) FROM runs), (SELECT count(*) FROM cases), (SELECT count(*) FROM results), (SELECT count(*) FROM histograms)").fetchone()))
PY
daemon "$DB" --open || exit 1
$PY - "$PORT" "$N" "$(cat "$DB.sizes")" <<'PY'
import http.client, json, sys, time
port, n, sizes = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
def t(path):
    ms = []
    for i in range(n):
        p = path.replace("{id}", str(1 + (i * 37) % 1000))
        t0 = time.perf_counter()
        c.request("GET", p)
        r = c.getresponse()
        b = r.read()
        ms.append((time.perf_counter() - t0) * 1000)
        assert r.status == 200, (p, r.status, b[:200])
    ms.sort()
    return ms[len(ms) // 2], ms[min(len(ms) - 1, int(len(ms) * 0.99))], len(b)
rows = [("health (HTTP floor)", "/api/v1/health"),
        ("run page: GET runs/{id}", "/api/v1/runs/{id}"),
        ("run page: GET runs/{id}/events?limit=1000", "/api/v1/runs/{id}/events?limit=1000"),
        ("run page: GET runs/{id}/cases/7/histogram", "/api/v1/runs/{id}/cases/7/histogram"),
        ("index: GET runs?limit=100", "/api/v1/runs?limit=100"),
        ("index: GET runs?limit=1000", "/api/v1/runs?limit=1000"),
        ("run page CSV: runs/{id}.csv", "/api/v1/runs/{id}.csv"),
        ("compare a=b (48 cases, bootstrap)", "/api/v1/compare?a={id}&b=1")]
res = [(name, path) + t(path) for name, path in rows]
floor = res[0][2]
print("### API latency: %d sequential requests per call, one kept-alive client; database: %s" % (n, sizes))
print()
print("| call | p50 ms | p99 ms | p50 / health p50 | reply bytes |")
print("|---|---:|---:|---:|---:|")
for name, path, p50, p99, size in res:
    print("| %s | %.2f | %.2f | %.1f | %d |" % (name, p50, p99, p50 / floor, size))
PY
stop_daemon
rm -rf "$T"
