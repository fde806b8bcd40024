#!/bin/bash
# t-api-params.sh - query arguments at the edges of their range, as a
# script pulling runs with curl and jq sends them: each gives the
# documented JSON error naming the bad input, never a different answer.
# events?after= past 2^63-1 wrapped to a negative sequence number, read as
# no after at all: a live tail asking for what follows such a number got
# the whole log again; an argument given twice had its second value
# dropped. Hand-made runs (xcb-gen).
# timeout: 120
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "API query arguments at their edges"
start_daemon --open || { notok "the daemon starts"; exit 1; }
T=$TMP
"$XCB_GEN" --server "127.0.0.1:$PORT" --crash >"$T/gen.out" 2>&1
id=$(pyjson "$URL/api/v1/runs" 'd["runs"][0]["id"]')

# answer PATH: "STATUS BODY" of GET /api/v1/PATH.
answer() {
	curl -s -o "$T/body" -w '%{http_code}' "$URL/api/v1/$1"
	printf ' %s' "$(cat "$T/body")"
}
# seqs AFTER: the seqs of the run's events after AFTER, one line.
seqs() {
	pyjson "$URL/api/v1/runs/$id/events?after=$1" '" ".join(str(e["seq"]) for e in d["events"])'
}

all=$(seqs 0)
last=${all##* }
check "the run has log and error events ($all)" test "$(echo "$all" | wc -w)" -ge 2
check "after=its last seq: none ($(seqs "$last"))" test -z "$(seqs "$last")"
check "after=2^63-1: none ($(seqs 9223372036854775807))" test -z "$(seqs 9223372036854775807)"
for a in 9223372036854775808 18446744073709551615; do
	got=$(answer "runs/$id/events?after=$a")
	check "after=$a: 400 naming it, not the whole log again ($got)" \
		test "$got" = "400 {\"error\":\"after: expected a sequence number, not '$a'\",\"status\":400}"
done

# offset past its range: the error says the range (it said "expected a
# non-negative number" of 2147483648, which is one)
for o in -1 2147483648; do
	got=$(answer "runs?offset=$o")
	check "runs?offset=$o: 400 with offset's range ($got)" \
		test "$got" = '400 {"error":"offset: expected 0..2147483647","status":400}'
done
check "runs?offset=2147483647: an empty page ($(answer "runs?offset=2147483647" | cut -c1-80))" \
	bash -c '[ "$(curl -s "$1")" = "{\"runs\":[],\"total\":1,\"limit\":100,\"offset\":2147483647}" ]' _ "$URL/api/v1/runs?offset=2147483647"

# a list with a trailing comma is a list cut short, 400, not the list
# before it: compare?a=1,&b=1 compared run 1 with itself, where a script
# had meant a=1,$NEXT
for q in "compare?a=$id,&b=$id:a" "compare?a=$id&b=$id,:b" "compare?a=$id&b=$id&a_where=algo=locked,:a_where"; do
	got=$(answer "${q%:*}")
	check "${q%:*}: 400 naming ${q##*:} ($got)" \
		bash -c '[[ "$1" == "400 {\"error\":\"$2"[:/]* ]]' _ "$got" "${q##*:}"
done

# an argument given twice: 400 naming it (the first was taken, the second
# dropped without a word: status=complete&status=crashed listed the
# complete runs only, as if they were every run asked for)
for q in "runs?status=complete&status=crashed" "runs.csv?tag=a&tag=b" "runs/$id/events?kind=log&kind=error"; do
	name=${q#*\?}
	name=${name%%=*}
	got=$(answer "$q")
	check "$q: 400 naming $name ($got)" \
		test "$got" = "400 {\"error\":\"$name: given more than once (each query argument once)\",\"status\":400}"
done
"$XCBENCH" --server "$URL" runs --status complete --status crashed >"$T/runs.out" 2>"$T/runs.err"
rc=$?
# (refused by xcbench itself now, as any of its options that takes one
# value: common/cmdopt.c; exit 2, a usage error, before a request)
check "xcbench runs --status twice: exit $rc, refused naming both ($(cat "$T/runs.err"))" \
	bash -c '[ "$1" = 2 ] && [ ! -s "$2" ] && grep -qx "xcbench runs: --status: given more than once ('"'complete', then 'crashed'"'); it takes one value" "$3"' \
	_ "$rc" "$T/runs.out" "$T/runs.err"
# a where-list key given twice: 400 naming it (mask=1,mask=2 kept mask=2
# alone, without a word; algo_a=X is a_where=algo=X, so the two together
# give algo twice), and xcbench's exit 2 for it
for q in "compare?a=$id&b=$id&a_where=mask=1,mask=2:a_where:mask:" \
	 "compare?a=$id&b=$id&algo_a=x&algo_b=y&b_where=algo=z:b_where:algo:; algo_b=X is b_where=algo=X"; do
	IFS=: read -r path name key extra <<<"$q"
	got=$(answer "$path")
	check "$path: 400 naming $name's $key ($got)" \
		test "$got" = "400 {\"error\":\"$name: key '$key' given more than once (a case has one value per key$extra)\",\"status\":400}"
done
"$XCBENCH" --server "$URL" compare "$id" "$id" --a-where mask=1,mask=2 >"$T/cw.out" 2>"$T/cw.err"
rc=$?
check "xcbench compare --a-where mask=1,mask=2: exit $rc, refused naming mask ($(cat "$T/cw.err"))" \
	bash -c '[ "$1" = 2 ] && grep -q "a_where: key '"'mask'"' given more than once" "$2"' _ "$rc" "$T/cw.err"
check "distinct arguments are taken as before" \
	test "$(pyjson "$URL/api/v1/runs?status=crashed&limit=5&offset=0" 'd["total"]')" = 1

# paging past the default page: 101 more runs (pending, by POST). The list
# pages 100 at a time, every run once over its pages; runs.csv has them
# all without limit (API.md), and pages as the list with it.
python3 - "$URL" <<'PY'
import json, sys, urllib.request
for i in range(101):
    req = urllib.request.Request(sys.argv[1] + '/api/v1/runs', method='POST',
                                 data=json.dumps({'token': '%016x' % (0x9a6e0000 + i)}).encode(),
                                 headers={'Content-Type': 'application/json'})
    urllib.request.urlopen(req).read()
PY
pages=$(python3 - "$URL" <<'PY'
import json, sys, urllib.request
ids, total, off = [], None, 0
while total is None or off < total:
    d = json.load(urllib.request.urlopen('%s/api/v1/runs?limit=7&offset=%d' % (sys.argv[1], off)))
    total = d['total']
    ids += [r['id'] for r in d['runs']]
    off += 7
print(total, len(ids), len(set(ids)), ids == sorted(ids, reverse=True))
PY
)
check "the list's pages of 7: every one of 102 runs once, newest first ($pages)" test "$pages" = "102 102 102 True"
check "the list's default page: 100 of 102" \
	test "$(pyjson "$URL/api/v1/runs" '(len(d["runs"]), d["total"], d["limit"])')" = "(100, 102, 100)"
check "runs.csv without limit: all 102 runs and the header ($(curl -s "$URL/api/v1/runs.csv" | wc -l) lines)" \
	test "$(curl -s "$URL/api/v1/runs.csv" | wc -l)" = 103
last2=$(curl -s "$URL/api/v1/runs.csv?limit=100&offset=100" | tail -n +2 | cut -d, -f1 | tr -d '\r' | tr '\n' ' ')
check "runs.csv?limit=100&offset=100: the 2 oldest runs, the generated one last ($last2)" test "$last2" = "2 $id "

# HEAD: a GET route's status and headers without the body, as the boot
# routes and static files answer it (an API route answered 405, so curl -I
# of a run could not tell whether it was there)
head_of() { curl -s -I "$URL/api/v1/$1" | tr -d '\r' | grep -i '^HTTP/\|^content-type:' | tr '\n' ' '; }
for p in "runs/$id" "runs/$id.csv" "runs.csv?status=crashed"; do
	get=$(curl -s -D - -o /dev/null "$URL/api/v1/$p" | tr -d '\r' | grep -i '^HTTP/\|^content-type:' | tr '\n' ' ')
	check "HEAD $p: as GET's ($(head_of "$p"))" test "$(head_of "$p")" = "$get"
done
check "HEAD runs/999999: 404 ($(head_of runs/999999))" bash -c '[[ "$1" == "HTTP/1.1 404 "* ]]' _ "$(head_of runs/999999)"
check "HEAD of a route with no GET (jobs/1/cancel): still 405 ($(head_of jobs/1/cancel))" \
	bash -c '[[ "$1" == "HTTP/1.1 405 "* ]]' _ "$(head_of jobs/1/cancel)"

# a 405 says what the path takes (Allow, RFC 9110 15.5.6): it had no Allow
allow_of() { curl -s -D - -o /dev/null -X "$1" -H 'Content-Type: application/json' "$URL$2" | tr -d '\r' | sed -n 's/^[Aa]llow: //p'; }
check "DELETE /api/v1/runs/$id: Allow: GET, HEAD, PATCH ($(allow_of DELETE "/api/v1/runs/$id"))" \
	test "$(allow_of DELETE "/api/v1/runs/$id")" = "GET, HEAD, PATCH"
check "PUT /api/v1/runs: Allow: GET, HEAD, POST ($(allow_of PUT /api/v1/runs))" test "$(allow_of PUT /api/v1/runs)" = "GET, HEAD, POST"
check "GET /api/v1/jobs/1/cancel: Allow: POST ($(allow_of GET /api/v1/jobs/1/cancel))" \
	test "$(allow_of GET /api/v1/jobs/1/cancel)" = "POST"
check "POST /boot.ipxe: Allow: GET, HEAD ($(allow_of POST /boot.ipxe))" test "$(allow_of POST /boot.ipxe)" = "GET, HEAD"
check "no Allow on other answers ($(allow_of GET "/api/v1/runs/$id"))" test -z "$(allow_of GET "/api/v1/runs/$id")"
