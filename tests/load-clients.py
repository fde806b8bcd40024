#!/usr/bin/env python3
"""load-clients.py - N concurrent HTTP clients reading xcbenchd the way the
dashboard does (runs list, a run page's calls, CSV downloads), each a bounded
loop, for tests/t-load-*.sh and bench/. Every reply is checked: status 200,
JSON parses, CSV rows have the header's column count.

Usage: load-clients.py URL [--clients 50] [--loops 10] [--latency FILE]
Prints one JSON line: requests, errors (with the first few reasons), p50/p99 ms.
Exit status 0 when there were no errors."""
import argparse, csv, http.client, io, json, random, sys, threading, time, urllib.parse


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("url")
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--loops", type=int, default=10)
    ap.add_argument("--latency", help="write 'route ms' lines here")
    a = ap.parse_args()
    u = urllib.parse.urlparse(a.url)
    lock = threading.Lock()
    stats = {"requests": 0, "errors": 0, "reasons": [], "bytes": 0}
    lat = []

    def get(conn, path):
        t0 = time.monotonic()
        conn.request("GET", path)
        r = conn.getresponse()
        body = r.read()
        ms = (time.monotonic() - t0) * 1000
        return r.status, body, ms

    def check(path, st, body):
        if st != 200:
            return "%s: status %d %s" % (path, st, body[:100])
        if ".csv" in path:
            rows = list(csv.reader(io.StringIO(body.decode("utf-8"), newline="")))
            if not rows or any(len(x) != len(rows[0]) for x in rows[1:]):
                return "%s: ragged CSV" % path
        else:
            json.loads(body)
        return None

    def client(i):
        rnd = random.Random(i)
        conn = http.client.HTTPConnection(u.hostname, u.port, timeout=60)
        for _ in range(a.loops):
            paths = ["/api/v1/runs?limit=50", "/api/v1/health", "/api/v1/machines"]
            try:
                st, body, ms = get(conn, paths[0])
                runs = json.loads(body)["runs"] if st == 200 else []
                if runs:
                    r = rnd.choice(runs)["id"]
                    o = rnd.choice(runs)["id"]
                    paths += ["/api/v1/runs/%d" % r, "/api/v1/runs/%d/events?limit=20" % r,
                              "/api/v1/runs/%d.csv" % r, "/api/v1/compare?a=%d&b=%d" % (r, o),
                              "/api/v1/runs.csv?limit=100"]
                results = [(paths[0], st, body, ms)]
                for p in paths[1:]:
                    results.append((p,) + get(conn, p))
            except Exception as e:  # connection reset, timeout, bad JSON...
                with lock:
                    stats["errors"] += 1
                    stats["reasons"].append("client %d: %r" % (i, e))
                conn.close()
                conn = http.client.HTTPConnection(u.hostname, u.port, timeout=60)
                continue
            with lock:
                for p, st, body, ms in results:
                    stats["requests"] += 1
                    stats["bytes"] += len(body)
                    lat.append((p.split("?")[0], ms))
                    try:
                        why = check(p, st, body)
                    except Exception as e:
                        why = "%s: %r" % (p, e)
                    if why:
                        stats["errors"] += 1
                        if len(stats["reasons"]) < 10:
                            stats["reasons"].append(why)
        conn.close()

    t0 = time.monotonic()
    th = [threading.Thread(target=client, args=(i,)) for i in range(a.clients)]
    for t in th:
        t.start()
    for t in th:
        t.join()
    secs = time.monotonic() - t0
    ms = sorted(x[1] for x in lat)
    pick = lambda q: round(ms[min(len(ms) - 1, int(q * len(ms)))], 2) if ms else None
    if a.latency:
        with open(a.latency, "w") as f:
            f.write("".join("%s %.3f\n" % x for x in lat))
    stats.update(seconds=round(secs, 2), req_per_s=round(stats["requests"] / secs, 1), p50_ms=pick(0.5), p99_ms=pick(0.99))
    stats["reasons"] = stats["reasons"][:10]
    print(json.dumps(stats))
    return 1 if stats["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
