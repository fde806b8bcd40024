#!/bin/bash
# timeout: 120
# Issue 26, item 4: the smaller probes, each answered as documented.
#  - /index.html%00.js and /%00 served index.html (API.md promises 404);
#  - Host: [::1]:1 rendered server=[::1]:1:PORT, Host: 127.0.0.1:1] passed
#    the Host guard;
#  - `xcbench ingest -` kept a whole line in memory (50 MB line: 50 MB RSS);
#  - job param keys took upper case (SERVER=);
#  - POST /runs took any suite;
#  - no nosniff, Content-Security-Policy, frame-ancestors.
# (RESULT/HISTO for a case never described and a lying DONE: t-hostile-limits.)
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "small probes"

admin_daemon probes-admin
code() { curl -s -o "$TMP/body" -w '%{http_code}' "$@"; }

# --- NUL in the path ---
check "/index.html: 200" [ "$(code "$URL/index.html")" = 200 ]
for p in "/index.html%00.js" "/%00" "/index.html%00" "/api/v1/health%00"; do
	c=$(code "$URL$p")
	check "$p: 404 ($c)" [ "$c" = 404 ] && ! grep -qi "<html" "$TMP/body"
done
check "an ordinary escape still decodes (/index%2Ehtml: 200)" [ "$(code "$URL/index%2Ehtml")" = 200 ]

# --- Host headers ---
c=$(code -H 'Host: [::1]:1' "$URL/boot.ipxe?mac=52:54:00:26:44:01")
check "Host: [::1]:1 on /boot.ipxe: 400, no script ($c)" [ "$c" = 400 ] && ! grep -q "server=" "$TMP/body"
c=$(code -H 'Host: [::1]:1' "$URL/boot.json?mac=52:54:00:26:44:01")
check "... and on /boot.json: 400 ($c)" [ "$c" = 400 ]
for h in '127.0.0.1:1]' '127.0.0.1:x' '127.0.0.1:123456' '127.0.0.1:'; do
	c=$(code -H "Host: $h" "$URL/api/v1/health")
	check "Host: $h refused by the Host guard (421: $c)" [ "$c" = 421 ]
done
check "Host: 127.0.0.1:$PORT still answers" [ "$(code -H "Host: 127.0.0.1:$PORT" "$URL/api/v1/health")" = 200 ]
c=$(code -H "Host: 10.0.2.2:8080" "$URL/boot.ipxe?mac=52:54:00:26:44:02")
check "Host: 10.0.2.2:8080 renders server=10.0.2.2:<udp>" [ "$c" = 200 ] && grep -q "server=10.0.2.2:$PORT " "$TMP/body"

# --- job params and suites ---
J='{"mac":"52:54:00:26:44:03","suite":"quick","params":{"SERVER":"10.9.9.9:1"}}'
check "job param key SERVER: 400" [ "$(code "${ADMIN[@]}" -X POST -d "$J" "$URL/api/v1/jobs")" = 400 ]
J='{"mac":"52:54:00:26:44:03","suite":"quick","params":{"Reps":"3"}}'
check "job param key Reps: 400" [ "$(code "${ADMIN[@]}" -X POST -d "$J" "$URL/api/v1/jobs")" = 400 ]
# A value past the 64 characters a value has said as such: it read as one
# with a space or a quote in it (a list of algorithms with long names).
J='{"mac":"52:54:00:26:44:03","suite":"quick","params":{"algos":"locked,lockless,revlock_sends_its_ipis_one_by_one_highestcpufirst"}}'
check "job param value of 65 characters: 400, its length said" \
	bash -c '[ "$1" = 400 ] && grep -qF "params.algos: 65 characters; a value has at most 64" "$2/body"' \
	_ "$(code "${ADMIN[@]}" -X POST -d "$J" "$URL/api/v1/jobs")" "$TMP"
J='{"mac":"52:54:00:26:44:03","suite":"quick","params":{"reps":"3"}}'
check "job param key reps: 201" [ "$(code "${ADMIN[@]}" -X POST -d "$J" "$URL/api/v1/jobs")" = 201 ]
for s in '"a b"' '"<img>"' '""' '"x\ny"'; do
	check "POST /runs suite $s: 400" [ "$(code "${ADMIN[@]}" -X POST -d "{\"suite\":$s}" "$URL/api/v1/runs")" = 400 ]
done
check "POST /runs suite quick-2.x: 201" [ "$(code "${ADMIN[@]}" -X POST -d '{"suite":"quick-2.x"}' "$URL/api/v1/runs")" = 201 ]

# --- security headers on every kind of answer ---
for p in / /run.html /js/runs.js /api/v1/health /api/v1/runs /api/v1/runs.csv "/boot.ipxe?mac=52:54:00:26:44:04" /nope; do
	curl -s -D "$TMP/h" -o /dev/null "$URL$p"
	check "$p: X-Content-Type-Options: nosniff" grep -qi '^x-content-type-options: nosniff' "$TMP/h"
	check "$p: CSP with frame-ancestors 'none'" grep -qi "^content-security-policy:.*frame-ancestors 'none'" "$TMP/h"
	check "$p: CSP default-src 'self'" grep -qi "^content-security-policy: default-src 'self'" "$TMP/h"
done

# --- xcbench ingest - with an endless line ---
out=$(python3 - "$XCBENCH" "$URL" <<'PY'
import resource, subprocess, sys
p = subprocess.Popen([sys.argv[1], "--server", sys.argv[2], "ingest", "-", "--timeout", "5"],
                     stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
chunk = b"z" * (1 << 20)
for _ in range(50):
    p.stdin.write(chunk)
p.stdin.close()
p.wait()
print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)
PY
)
read -r rc mib <<<"$out"
diag "xcbench ingest - fed a 50 MiB line without a newline: exit $rc, max RSS $mib MiB"
check "... its memory stays bounded (max RSS $mib MiB < 16)" [ "$mib" -lt 16 ]
check "... and it ends saying no frames were found (exit 1)" [ "$rc" = 1 ]
stop_daemon
