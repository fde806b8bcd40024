#!/bin/bash
# timeout: 240
# API responses unchanged (issue 15): two stored runs are re-created in a
# fresh daemon from committed serial captures (tests/fixtures/: a real QEMU
# boot at -smp 4 with xcall, tlb, sync and raw cases, 5 repetitions; and an
# xcb-gen run with SAMPLES and a crash), plus a few deterministic writes (a
# label, console lines, a pending run, a job). Then every read route of the
# daemon — and the error answers of the route table — is fetched and
# compared byte for byte (status, Content-Type, body) with the goldens in
# tests/fixtures/api-golden/. Only what varies between two daemons is
# normalised: ISO times (ingest time), the uptime, the UDP port, the database
# path and /health's frame counters (retransmissions depend on timing).
#
# XCB_GOLDEN_UPDATE=1 tests/t-api-golden.sh rewrites the goldens (only when a
# response is meant to change: the API only grows).
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "API golden responses"

FIX=$ROOT/tests/fixtures
GOLD=$FIX/api-golden
TMP=$(mktemp -d "$OUTDIR/daemon.XXXXXX")
echo "golden-admin" >"$TMP/token"
start_daemon --token-file "$TMP/token" || { notok "daemon starts"; exit 1; }
ADMIN=(-H "Authorization: Bearer golden-admin")
JSONCT=(-H 'Content-Type: application/json')

# The stored runs: run 1 from QEMU, run 2 from xcb-gen (ids follow ingest order).
for f in qemu-smp4 xcbgen-crash; do
	gzip -dc "$FIX/$f.serial.log.gz" >"$TMP/$f.log"
	"$XCBENCH" --server "$URL" --token-file "$TMP/token" ingest "$TMP/$f.log" >"$TMP/$f.out" 2>"$TMP/$f.err"
	check "ingest $f: every frame acknowledged" grep -q "frames acknowledged" "$TMP/$f.err"
done

# fetch NAME METHOD WHO PATH [curl args]: one response as "STATUS CTYPE\n" +
# body into $TMP/got/NAME (WHO: anon or admin).
mkdir -p "$TMP/got"
fetch() {
	local name=$1 method=$2 who=$3 path=$4 auth=()
	shift 4
	[ "$who" = admin ] && auth=("${ADMIN[@]}")
	curl -s -X "$method" "${auth[@]}" "$@" -o "$TMP/got/$name.body" \
		-w '%{http_code} %{content_type}\n' "$URL$path" >"$TMP/got/$name" 2>/dev/null
	cat "$TMP/got/$name.body" >>"$TMP/got/$name"
	rm -f "$TMP/got/$name.body"
}

# Deterministic writes (their answers are goldens too).
fetch w-patch-run1 PATCH admin /api/v1/runs/1 "${JSONCT[@]}" \
	-d '{"label": "golden", "notes": "QEMU -smp 4, TCG, stored from the serial capture"}'
grep -v '^XCB1 ' "$TMP/qemu-smp4.log" | head -20 >"$TMP/console.txt"
fetch w-console-run1 POST admin '/api/v1/runs/1/console?line=0' "${JSONCT[@]}" --data-binary @"$TMP/console.txt"
fetch w-create-run3 POST admin /api/v1/runs "${JSONCT[@]}" \
	-d '{"token": "00000000000fe003", "suite": "golden", "label": "pending-run"}'
fetch w-job POST admin /api/v1/jobs "${JSONCT[@]}" \
	-d '{"mac": "52:54:00:00:00:01", "suite": "quick", "params": {"reps": "3"}, "label": "golden-job"}'

# The reads: NAME METHOD WHO PATH, one a line.
while read -r name method who path; do
	[ -n "$name" ] && [ "${name#\#}" = "$name" ] && fetch "$name" "$method" "$who" "$path"
done <<'REQ'
health                  GET    anon   /api/v1/health
machines                GET    anon   /api/v1/machines
labs                    GET    anon   /api/v1/labs
runs                    GET    anon   /api/v1/runs
runs-admin              GET    admin  /api/v1/runs
runs-crashed            GET    anon   /api/v1/runs?status=crashed
runs-label              GET    anon   /api/v1/runs?label=golden
runs-suite              GET    anon   /api/v1/runs?suite=golden
runs-page               GET    anon   /api/v1/runs?limit=1&offset=1
runs-since              GET    anon   /api/v1/runs?since=2000-01-01T00:00:00Z
runs-future             GET    anon   /api/v1/runs?since=4000000000
runs-mac                GET    anon   /api/v1/runs?machine=52:54:00:00:00:01
runs-machine-id         GET    anon   /api/v1/runs?machine=7
runs-token-admin        GET    admin  /api/v1/runs?token=fe002
runs-token-anon         GET    anon   /api/v1/runs?token=fe002
runs-bad-status         GET    anon   /api/v1/runs?status=bogus
runs-bad-limit          GET    anon   /api/v1/runs?limit=0
runs-bad-offset         GET    anon   /api/v1/runs?offset=-1
runs-bad-since          GET    anon   /api/v1/runs?since=yesterday
runs-bad-machine        GET    anon   /api/v1/runs?machine=zz
runs-bad-token          GET    admin  /api/v1/runs?token=xyz
runs-csv                GET    anon   /api/v1/runs.csv
runs-csv-admin          GET    admin  /api/v1/runs.csv
runs-csv-page           GET    anon   /api/v1/runs.csv?limit=1&offset=1
runs-csv-crashed        GET    anon   /api/v1/runs.csv?status=crashed
runs-csv-bad            GET    anon   /api/v1/runs.csv?limit=5000
run1                    GET    anon   /api/v1/runs/1
run1-admin              GET    admin  /api/v1/runs/1
run2                    GET    anon   /api/v1/runs/2
run3                    GET    anon   /api/v1/runs/3
run-missing             GET    anon   /api/v1/runs/99
run-zero                GET    anon   /api/v1/runs/0
run-bad-id              GET    anon   /api/v1/runs/abc
run1-csv                GET    anon   /api/v1/runs/1.csv
run2-csv                GET    anon   /api/v1/runs/2.csv
run3-csv                GET    anon   /api/v1/runs/3.csv
run-missing-csv         GET    anon   /api/v1/runs/99.csv
run-bad-csv             GET    anon   /api/v1/runs/x.csv
events1                 GET    anon   /api/v1/runs/1/events
events1-log             GET    anon   /api/v1/runs/1/events?kind=log
events1-console         GET    anon   /api/v1/runs/1/events?kind=console
events1-after           GET    anon   /api/v1/runs/1/events?after=5&limit=3
events2-error           GET    anon   /api/v1/runs/2/events?kind=error
events2                 GET    anon   /api/v1/runs/2/events
events-bad-kind         GET    anon   /api/v1/runs/1/events?kind=bogus
events-bad-after        GET    anon   /api/v1/runs/1/events?after=x
events-bad-limit        GET    anon   /api/v1/runs/1/events?limit=0
events-missing          GET    anon   /api/v1/runs/99/events
histo1-1                GET    anon   /api/v1/runs/1/cases/1/histogram
histo1-2                GET    anon   /api/v1/runs/1/cases/2/histogram
histo1-3                GET    anon   /api/v1/runs/1/cases/3/histogram
histo1-6                GET    anon   /api/v1/runs/1/cases/6/histogram
histo1-8                GET    anon   /api/v1/runs/1/cases/8/histogram
histo1-11               GET    anon   /api/v1/runs/1/cases/11/histogram
histo1-13               GET    anon   /api/v1/runs/1/cases/13/histogram
histo1-16               GET    anon   /api/v1/runs/1/cases/16/histogram
histo1-17               GET    anon   /api/v1/runs/1/cases/17/histogram
histo1-18               GET    anon   /api/v1/runs/1/cases/18/histogram
histo1-3-rep0           GET    anon   /api/v1/runs/1/cases/3/histogram?rep=0
histo1-3-init0          GET    anon   /api/v1/runs/1/cases/3/histogram?initiator=0
histo1-3-rep2-init0     GET    anon   /api/v1/runs/1/cases/3/histogram?rep=2&initiator=0
histo1-3-all            GET    anon   /api/v1/runs/1/cases/3/histogram?rep=all&initiator=all
histo1-3-rep99          GET    anon   /api/v1/runs/1/cases/3/histogram?rep=99
histo1-13-pseudo        GET    anon   /api/v1/runs/1/cases/13/histogram?initiator=65520
histo1-0                GET    anon   /api/v1/runs/1/cases/0/histogram
histo1-none             GET    anon   /api/v1/runs/1/cases/999/histogram
histo2-5                GET    anon   /api/v1/runs/2/cases/5/histogram
histo2-5-init3          GET    anon   /api/v1/runs/2/cases/5/histogram?initiator=3
histo-bad-rep           GET    anon   /api/v1/runs/1/cases/3/histogram?rep=x
histo-bad-init          GET    anon   /api/v1/runs/1/cases/3/histogram?initiator=70000
histo-bad-case          GET    anon   /api/v1/runs/1/cases/abc/histogram
histo-missing-run       GET    anon   /api/v1/runs/99/cases/1/histogram
samples2-5              GET    anon   /api/v1/runs/2/cases/5/samples
samples2-5-rep1-init0   GET    anon   /api/v1/runs/2/cases/5/samples?rep=1&initiator=0
samples2-5-limit        GET    anon   /api/v1/runs/2/cases/5/samples?limit=70
samples1-1              GET    anon   /api/v1/runs/1/cases/1/samples
samples-none            GET    anon   /api/v1/runs/2/cases/999/samples
samples-missing-run     GET    anon   /api/v1/runs/99/cases/1/samples
samples-bad-rep         GET    anon   /api/v1/runs/2/cases/5/samples?rep=x
samples-bad-limit       GET    anon   /api/v1/runs/2/cases/5/samples?limit=100001
samples2-csv-5          GET    anon   /api/v1/runs/2/samples.csv?case=5
samples2-csv-filter     GET    anon   /api/v1/runs/2/samples.csv?case=5&rep=2&initiator=0
samples1-csv            GET    anon   /api/v1/runs/1/samples.csv
samples-csv-none        GET    anon   /api/v1/runs/2/samples.csv?case=999
samples-csv-missing     GET    anon   /api/v1/runs/99/samples.csv
samples-csv-bad-case    GET    anon   /api/v1/runs/2/samples.csv?case=x
compare-11              GET    anon   /api/v1/compare?a=1&b=1
compare-12              GET    anon   /api/v1/compare?a=1&b=2
compare-21              GET    anon   /api/v1/compare?a=2&b=1
compare-algo            GET    anon   /api/v1/compare?a=1&b=1&algo_a=locked&algo_b=lockless
compare-algo2           GET    anon   /api/v1/compare?a=2&b=2&algo_a=locked&algo_b=queued
compare-csv-11          GET    anon   /api/v1/compare.csv?a=1&b=1
compare-csv-12          GET    anon   /api/v1/compare.csv?a=1&b=2
compare-csv-algo        GET    anon   /api/v1/compare.csv?a=1&b=1&algo_a=locked&algo_b=lockless
compare-no-b            GET    anon   /api/v1/compare?a=1
compare-bad-a           GET    anon   /api/v1/compare?a=x&b=1
compare-missing         GET    anon   /api/v1/compare?a=1&b=99
compare-one-algo        GET    anon   /api/v1/compare?a=1&b=1&algo_a=locked
jobs                    GET    anon   /api/v1/jobs
jobs-mac                GET    anon   /api/v1/jobs?mac=52:54:00:00:00:01
jobs-pending            GET    anon   /api/v1/jobs?pending=1
jobs-other-mac          GET    anon   /api/v1/jobs?mac=52:54:00:00:00:02
m405-health             POST   anon   /api/v1/health
m405-machines           DELETE anon   /api/v1/machines
m405-runs               DELETE anon   /api/v1/runs
m405-runs-csv           POST   anon   /api/v1/runs.csv
m405-run                PUT    anon   /api/v1/runs/1
m405-run-csv            POST   anon   /api/v1/runs/1.csv
m405-events             POST   anon   /api/v1/runs/1/events
m405-console            GET    anon   /api/v1/runs/1/console
m405-histo              POST   anon   /api/v1/runs/1/cases/3/histogram
m405-samples            POST   anon   /api/v1/runs/1/cases/3/samples
m405-samples-csv        POST   anon   /api/v1/runs/1/samples.csv
m405-compare            POST   anon   /api/v1/compare?a=1&b=1
m405-compare-csv        DELETE anon   /api/v1/compare.csv
m405-jobs               PUT    anon   /api/v1/jobs
m405-job                GET    anon   /api/v1/jobs/1
m405-boot               POST   anon   /boot.ipxe
m405-firmware           POST   anon   /firmware/xcbench.elf
m405-firmware-efi       PUT    anon   /firmware/xcbench.efi
m405-static             POST   anon   /index.html
auth-patch              PATCH  anon   /api/v1/runs/1
auth-create             POST   anon   /api/v1/runs
auth-console            POST   anon   /api/v1/runs/1/console
auth-job                POST   anon   /api/v1/jobs
auth-job-delete         DELETE anon   /api/v1/jobs/1
bad-job-id              DELETE admin  /api/v1/jobs/abc
nf-api                  GET    anon   /api/v1/nope
nf-api-root             GET    anon   /api/v1/
nf-api-deep             GET    anon   /api/v1/runs/1/nope
nf-api-case             GET    anon   /api/v1/runs/1/cases/1
nf-api-case-x           GET    anon   /api/v1/runs/1/cases/1/nope
nf-api-runs-csv2        GET    anon   /api/v1/runs.csv/1
nf-api-jobs-deep        GET    anon   /api/v1/jobs/1/x
nf-api-v2               GET    anon   /api/v2/runs
nf-api-bare             GET    anon   /api
nf-static               GET    anon   /no-such-page.html
rt-bad-id-deep          GET    anon   /api/v1/runs/abc/nope
rt-bad-id-4             GET    anon   /api/v1/runs/abc/x/y
rt-bad-id-csv-deep      GET    anon   /api/v1/runs/abc.csv/events
rt-csv-id-deep          GET    anon   /api/v1/runs/1.csv/events
rt-dot-csv              GET    anon   /api/v1/runs/.csv
rt-bad-case-short       GET    anon   /api/v1/runs/1/cases/abc
rt-bad-case-other       GET    anon   /api/v1/runs/1/cases/abc/x
rt-big-case             GET    anon   /api/v1/runs/1/cases/4294967296/histogram
rt-bad-job-deep         GET    anon   /api/v1/jobs/abc/x
rt-job-zero             DELETE anon   /api/v1/jobs/0
rt-double-slash         GET    anon   /api/v1//runs//3
rt-trailing-slash       GET    anon   /api/v1/runs/3/
rt-compare-deep         GET    anon   /api/v1/compare/x
rt-health-deep          GET    anon   /api/v1/health/x
rt-runs-csv-405         PATCH  anon   /api/v1/runs.csv
rt-events-405-bad-id    POST   anon   /api/v1/runs/abc/events
rt-console-bad-id       POST   anon   /api/v1/runs/abc/console
rt-histo-405-bad-case   POST   anon   /api/v1/runs/1/cases/abc/histogram
rt-firmware-other       GET    anon   /firmware/other.elf
rt-api-prefix           GET    anon   /api/runs
rt-api-v1-bare          GET    anon   /api/v1
REQ
# A path longer than the router's copy of it (512 bytes).
fetch nf-long GET anon "/api/v1/runs/1/$(printf 'x%.0s' $(seq 600))"

# Every real in its shortest form (0.95, not 0.94999999999999996), in the
# API's answers and in the CLI's --json of them: a number's text has no
# more significant digits than Python's repr, the shortest text that reads
# back as the same double.
"$XCBENCH" --server "$URL" show 1 --json >"$TMP/cli-show.json" 2>&1
"$XCBENCH" --server "$URL" compare 1 1 --json >"$TMP/cli-compare.json" 2>&1
long=$(python3 - "$TMP"/got/* "$TMP/cli-show.json" "$TMP/cli-compare.json" <<'PY'
import json, re, sys
def digits(t):
    m = t.lstrip('-').split('e')[0].split('E')[0].replace('.', '').lstrip('0')
    return len(m.rstrip('0')) if '.' in t or 'e' in t.lower() else len(m)
bad = []
for f in sys.argv[1:]:
    txt = open(f, encoding='utf-8', errors='replace').read()
    body = txt.split('\n', 1)[1] if '/got/' in f else txt
    if not body.lstrip().startswith(('{', '[')):
        continue
    def walk(v):
        if isinstance(v, float) and digits(v.text) > digits(repr(v.val)):
            bad.append('%s: %s (%s)' % (f.rsplit('/', 1)[1], v.text, repr(v.val)))
        elif isinstance(v, dict):
            [walk(x) for x in v.values()]
        elif isinstance(v, list):
            [walk(x) for x in v]
    class Num(float):
        pass
    def num(t):
        n = Num(t); n.text = t; n.val = float(t); return n
    try:
        walk(json.loads(body, parse_float=num))
    except ValueError:
        pass
print(len(bad), *bad[:3])
PY
)
check "every JSON real in its shortest form, API and CLI --json (too long: $long)" test "${long%% *}" = 0
check "... the CLI's --json read (show: $(wc -c <"$TMP/cli-show.json") bytes, compare: $(wc -c <"$TMP/cli-compare.json"))" \
	bash -c 'python3 -c "import json,sys; [json.load(open(f)) for f in sys.argv[1:]]" "$@"' _ "$TMP/cli-show.json" "$TMP/cli-compare.json"

# The build /health names is the daemon's own (--version: both read
# host/build/gen/build_rev.c), before it is masked below.
hb=$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).read().split("\n", 1)[1])["build"])' "$TMP/got/health" 2>&1 | tail -1)
check "health's build is xcbenchd --version's ($hb; $("$XCBENCHD" --version))" \
	test -n "$hb" -a "$("$XCBENCHD" --version)" = "xcbenchd 0.1.0 (build $hb)"

# Normalise what varies between two daemons, nothing else.
python3 - "$TMP/got" <<'PY'
import os, re, sys
d = sys.argv[1]
subs = [
    (rb'\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z', rb'<time>'),
    (rb'"uptime_s":\d+', rb'"uptime_s":"<n>"'),
    (rb'"udp_port":\d+', rb'"udp_port":"<port>"'),
    (rb'"db":"[^"]*"', rb'"db":"<path>"'),
    (rb'"frames":\{[^}]*\}', rb'"frames":"<counters>"'),
    (rb'"build":"[^"]*"', rb'"build":"<build>"'),
]
for n in os.listdir(d):
    p = os.path.join(d, n)
    b = open(p, 'rb').read()
    for pat, rep in subs:
        b = re.sub(pat, rep, b)
    open(p, 'wb').write(b)
PY

if [ -n "${XCB_GOLDEN_UPDATE:-}" ]; then
	rm -rf "$GOLD" && mkdir -p "$GOLD" && cp "$TMP"/got/* "$GOLD"/
	ok "goldens rewritten: $(ls "$GOLD" | wc -l) responses in $GOLD"
	exit 0
fi

n=0 bad=0
for g in "$GOLD"/*; do
	name=$(basename "$g")
	n=$((n + 1))
	if ! cmp -s "$g" "$TMP/got/$name"; then
		bad=$((bad + 1))
		notok "response $name unchanged ($(head -1 "$g" | tr -d '\n') → $(head -1 "$TMP/got/$name" 2>/dev/null | tr -d '\n'))"
		diff <(tr ',' '\n' <"$g") <(tr ',' '\n' <"$TMP/got/$name" 2>/dev/null) | head -8 | sed 's/^/#   /'
	fi
done
extra=$(cd "$TMP/got" && for f in *; do [ -e "$GOLD/$f" ] || echo "$f"; done)
check "every request has a golden${extra:+ (missing: $extra)}" [ -z "$extra" ]
check "$n responses byte for byte as the goldens ($bad differ)" test "$n" -gt 100 -a "$bad" -eq 0
check "SIGTERM: clean shutdown" stop_daemon
