#!/bin/bash
# timeout: 120
# Browser-origin attacks on an --open daemon, and spreadsheet formulas in CSV:
# a cross-origin text/plain POST used to queue a job (201), job params could
# set server= (the payload takes the last one), a DNS-rebound Host answered
# 200, --open took a 0.0.0.0 listen address, and CSV cells starting with
# = + - @ went out as formulas.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "origin safety"

start_daemon --open --host-name xcb.lab.example || { notok "daemon starts"; exit 1; }
code() { curl -s -o /dev/null -w '%{http_code}' "$@"; }
JOB='{"mac":"52:54:00:0e:0e:01","suite":"quick"}'
J=(-H 'Content-Type: application/json')

# --- writes: JSON only, and no foreign Origin ---
check "cross-origin text/plain POST refused (415)" \
	[ "$(code -X POST -H 'Content-Type: text/plain' -H 'Origin: http://evil.example' -d "$JOB" "$URL/api/v1/jobs")" = 415 ]
check "form POST refused (415)" [ "$(code -X POST -d "$JOB" "$URL/api/v1/jobs")" = 415 ]
check "JSON POST from a foreign Origin refused (403)" \
	[ "$(code -X POST "${J[@]}" -H 'Origin: http://evil.example' -d "$JOB" "$URL/api/v1/jobs")" = 403 ]
check "Origin: null refused (403)" [ "$(code -X POST "${J[@]}" -H 'Origin: null' -d "$JOB" "$URL/api/v1/jobs")" = 403 ]
check "no job was queued by any of them" [ "$(pyjson "$URL/api/v1/jobs" 'len(d["jobs"])')" = 0 ]
check "same-origin JSON POST accepted (201)" \
	[ "$(code -X POST "${J[@]}" -H "Origin: http://127.0.0.1:$PORT" -d "$JOB" "$URL/api/v1/jobs")" = 201 ]
check "JSON POST without Origin (CLI, curl) accepted (201)" [ "$(code -X POST "${J[@]}" -d "$JOB" "$URL/api/v1/jobs")" = 201 ]
for k in server run ip mac gw netmask transport; do
	check "job params cannot set $k= (400)" \
		[ "$(code -X POST "${J[@]}" -d "{\"mac\":\"52:54:00:0e:0e:02\",\"suite\":\"q\",\"params\":{\"$k\":\"10.6.6.6\"}}" "$URL/api/v1/jobs")" = 400 ]
done
check "transport=both is allowed (results still come here)" \
	[ "$(code -X POST "${J[@]}" -d '{"mac":"52:54:00:0e:0e:02","suite":"quick","params":{"transport":"both"}}' "$URL/api/v1/jobs")" = 201 ]
check "transport=serial is not" \
	[ "$(code -X POST "${J[@]}" -d '{"mac":"52:54:00:0e:0e:02","suite":"quick","params":{"transport":"serial"}}' "$URL/api/v1/jobs")" = 400 ]

# --- Host must name the daemon ---
check "Host: rebind.evil.example refused (421)" [ "$(code -H 'Host: rebind.evil.example' "$URL/api/v1/runs")" = 421 ]
check "foreign Host refused on the boot script too" [ "$(code -H 'Host: rebind.evil.example:8080' "$URL/boot.ipxe?mac=52:54:00:0e:0e:03")" = 421 ]
check "Host: localhost accepted in --open" [ "$(code -H "Host: localhost:$PORT" "$URL/api/v1/runs")" = 200 ]
check "Host: a --host-name accepted" [ "$(code -H "Host: xcb.lab.example:$PORT" "$URL/api/v1/runs")" = 200 ]
check "Host: an IP literal accepted (QEMU's 10.0.2.2)" [ "$(code -H 'Host: 10.0.2.2:8080' "$URL/api/v1/health")" = 200 ]

# --- --open only on loopback ---
P2=$(free_port)
out=$("$XCBENCHD" --listen 0.0.0.0:$P2 --udp 127.0.0.1:$P2 --db "$TMP/other.db" --open 2>&1 </dev/null); rc=$?
check "--open refuses a 0.0.0.0 listen address (exit $rc)" [ "$rc" = 2 ]
check "and says why" grep -q "loopback" <<<"$out"
check "... and no database was created" [ ! -e "$TMP/other.db" ]

# --- CSV: formulas neutralised in every export ---
TOK=f0f0000000000001
# (POST /runs takes a suite name only since issue 26: the formula comes in
# the payload's HELLO, as any machine could send it.)
curl -s -o /dev/null -X POST "${J[@]}" -d "{\"token\":\"$TOK\",\"label\":\"=HYPERLINK(\\\"http://x\\\")\"}" "$URL/api/v1/runs"
python3 "$ROOT/tests/hostile.py" frame 127.0.0.1:$PORT $TOK 0 hello 'suite=@SUM(A1)\n' >/dev/null
python3 "$ROOT/tests/hostile.py" run 127.0.0.1:$PORT $TOK --algo '+1+cmd|calc' >/dev/null
ID=$(pyjson "$URL/api/v1/runs?token=$TOK" 'd["runs"][0]["id"]')
curl -s "$URL/api/v1/runs.csv" >"$TMP/runs.csv"
curl -s "$URL/api/v1/runs/$ID.csv" >"$TMP/run.csv"
curl -s "$URL/api/v1/compare.csv?a=$ID&b=$ID" >"$TMP/cmp.csv"
check "runs.csv: label starts with ' (spreadsheet text)" grep -qF "\"'=HYPERLINK(\"\"http://x\"\")\"" "$TMP/runs.csv"
check "runs.csv: suite starts with '" grep -qF ",'@SUM(A1)," "$TMP/runs.csv"
check "run CSV: wire string (algo) starts with '" grep -qF ",'+1+cmd|calc," "$TMP/run.csv"
check "compare CSV: wire string starts with '" grep -qF "'+1+cmd|calc" "$TMP/cmp.csv"
check "no cell starts with = + - @ unguarded" python3 - "$TMP/runs.csv" "$TMP/run.csv" "$TMP/cmp.csv" <<'PY'
import csv, re, sys
num = re.compile(r'^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$')
for f in sys.argv[1:]:
    for row in csv.reader(open(f, newline='')):
        for c in row:
            if c and c[0] in '=+-@\t\r' and not num.match(c):
                sys.exit(f'{f}: {c!r}')
PY
check "numbers stay numbers (p50 column)" grep -q ",1200," "$TMP/run.csv"
