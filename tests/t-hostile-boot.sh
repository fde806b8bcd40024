#!/bin/bash
# timeout: 240
# /boot.ipxe is anyone's to GET (a plain <img> tag can): an anonymous GET used
# to take a MAC's queued job, 50 GETs made 50 runs, serial=/uuid= overwrote
# the machine record, a job whose boot line was too long was consumed before
# the length check failed, and 300 GETs + one far-ahead frame each took the
# daemon from 7 to 85 MiB. Now a GET consumes nothing and writes nothing of
# the machine, repeats get the same pending run, sources are rate-limited,
# every check precedes the first write, and memory stays bounded.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "boot request replay"

admin_daemon boot-admin
XCB_ADMIN=boot-admin
MAC=52:54:00:b0:07:01
rss() { awk '/^VmRSS/ {print int($2 / 1024)}' /proc/$DPID/status; }
get() { curl -s -o "$2" -w '%{http_code}' ${3:+--interface $3} -H "Host: 10.0.2.2:8080" "$URL/boot.ipxe?mac=$1"; }

curl -s -o /dev/null "${ADMIN[@]}" -X POST -d "{\"mac\":\"$MAC\",\"suite\":\"quick\",\"label\":\"the job\"}" "$URL/api/v1/jobs"
get $MAC "$TMP/first.ipxe" >/dev/null
answered=0
for i in $(seq 50); do
	[ "$(get "$MAC&serial=EVIL$i&uuid=evil" "$TMP/this.ipxe")" = 200 ] && answered=$((answered + 1)) && cp "$TMP/this.ipxe" "$TMP/again.ipxe"
done
check "50 more GETs ($answered answered, the rest rate-limited): still one pending run for the MAC" \
	[ "$answered" -ge 20 -a "$(pyjson "$URL/api/v1/runs?machine=$MAC" 'd["total"]')" = 1 ]
check "... with the same token each time" [ "$(boot_token "$TMP/first.ipxe")" = "$(boot_token "$TMP/again.ipxe")" ]
check "... and the job is still queued" [ "$(pyjson "$URL/api/v1/jobs?pending=1" 'len(d["jobs"])')" = 1 ]
check "... and the machine record has no serial/uuid from them" \
	[ "$(pyjson "$URL/api/v1/machines" '"%s %s" % (d["machines"][0]["serial"], d["machines"][0]["uuid"])')" = "None None" ]
if get $MAC "$TMP/other.ipxe" 127.0.0.2 >/dev/null && [ -s "$TMP/other.ipxe" ]; then
	check "a GET from another address never gets that token" [ "$(boot_token "$TMP/other.ipxe")" != "$(boot_token "$TMP/first.ipxe")" ]
	check "... and still one pending run per MAC (it replaced the first)" \
		[ "$(pyjson "$URL/api/v1/runs?machine=$MAC&status=pending" 'd["total"]')" = 1 ]
else
	skip "GET from 127.0.0.2" "cannot bind 127.0.0.2"
fi
# The payload's HELLO (from the machine) is what consumes the job.
"$XCB_GEN" --server 127.0.0.1:$PORT --token "$(boot_token "$TMP/first.ipxe")" --reps 1 >/dev/null 2>&1
check "the HELLO consumed the job" [ "$(pyjson "$URL/api/v1/jobs?pending=1" 'len(d["jobs"])')" = 0 ]
check "... for the booted run" [ "$(pyjson "$URL/api/v1/jobs" 'd["jobs"][0]["run_id"]')" = \
	"$(pyjson "$URL/api/v1/runs?token=$(boot_token "$TMP/first.ipxe")" 'd["runs"][0]["id"]')" ]

# --- a too-long boot line: refused before anything is written ---
LMAC=52:54:00:b0:07:02
dbq "$DB" "SELECT 1" >/dev/null
python3 - "$DB" "$LMAC" <<'PY'
import json, sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], timeout=10)
params = {"k%d" % i: "v" * 40 for i in range(10)}  # queued by an older daemon: too long
c.execute("INSERT INTO jobs(mac, suite, params, created) VALUES (?, 'quick', ?, ?)", (sys.argv[2], json.dumps(params), int(time.time())))
c.commit()
PY
code=$(get $LMAC "$TMP/long.ipxe")
check "over-long boot line: 500 with the reason ($code)" [ "$code" = 500 ] && grep -q "too long" "$TMP/long.ipxe"
check "... the job is not consumed" [ "$(pyjson "$URL/api/v1/jobs?mac=$LMAC&pending=1" 'len(d["jobs"])')" = 1 ]
check "... no run and no machine were created" [ "$(dbq "$DB" "SELECT (SELECT count(*) FROM machines WHERE mac = '$LMAC') + (SELECT count(*) FROM runs r JOIN machines m ON m.id = r.machine_id WHERE m.mac = '$LMAC')")" = 0 ]

# --- per-source rate limit ---
out=$(python3 "$ROOT/tests/bootflood.py" $PORT 80 --sources 1 --first-src 9 --mac-base 52:54:00:f2)
diag "80 GETs from one address: $out"
lim=$(sed 's/.*limited=\([0-9]*\).*/\1/' <<<"$out")
check "one source is rate-limited (429)" [ "$lim" -gt 0 ]
check "... and what it was refused wrote nothing (runs = GETs answered)" \
	[ "$(dbq "$DB" "SELECT count(*) FROM runs r JOIN machines m ON m.id = r.machine_id WHERE m.mac LIKE '52:54:00:f2:%'")" = "$(sed 's/^ok=\([0-9]*\).*/\1/' <<<"$out")" ]
check "the machine at another address still boots (200)" [ "$(get 52:54:00:b0:07:09 "$TMP/x.ipxe")" = 200 ]

# --- memory: 300 GETs, each answered with one far-ahead frame ---
before=$(rss)
out=$(python3 "$ROOT/tests/bootflood.py" $PORT 300 --sources 30 --first-src 20 --far-frame)
sleep 1
after=$(rss)
diag "300 GETs + a frame at seq 2^20-1 each: $out; RSS $before -> $after MiB"
check "all 300 answered from 30 addresses" grep -q "^ok=300 " <<<"$out"
check "far-ahead frames refused (seq_window)" [ "$(pyjson "$URL/api/v1/health" 'd["rejected"]["seq_window"]')" = 300 ]
check "RSS grew by less than 8 MiB ($before -> $after MiB)" [ $((after - before)) -lt 8 ]
stop_daemon
DB=$DB start_daemon --token-file "$TMP/token" || { notok "daemon restarts"; exit 1; }
check "after a restart too: RSS $(rss) MiB < 40 MiB" [ "$(rss)" -lt 40 ]
