#!/bin/bash
# timeout: 240
# Run lifecycle and the iPXE side: /boot.ipxe renders a per-machine script
# (queued job first, Host header for addresses, command line < 500 chars)
# and creates the run; unknown tokens are refused without --open; a silent
# run becomes lost and revives; ERROR marks it crashed; a daemon restarted
# mid-run keeps deduplicating and completes the run; the CLI and the
# remaining routes (PATCH, histogram, events, machines) answer sensibly; a
# second daemon on a UDP or HTTP port in use exits, naming the port; the
# start-up line names the HTTP and the UDP address apart.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "daemon lifecycle"

TMP=$(mktemp -d "$OUTDIR/daemon.XXXXXX")
# An ELF header's first bytes, then noise: the daemon checks no more of it
# (a non-ELF --firmware is warned about at the start, checked below).
{ printf '\177ELF'; head -c 4092 /dev/urandom; } >"$TMP/fake.elf"
# --lost-after 60 here: the iPXE checks below hold a pending run (no frames
# yet) for several seconds on a loaded host, and at 2 s it went lost under
# them. The lost-run checks run on the restarted daemon, at 2 s.
admin_daemon life-admin --firmware "$TMP/fake.elf" --lost-after 60 --suite seed
XCB_ADMIN=life-admin
X=("$XCBENCH" --server "$URL" --token-file "$TMP/token")

# --- iPXE: default suite, then a queued job for this MAC ---
# A GET is safe to repeat: it consumes nothing, the MAC keeps one pending run
# (the same token again), and the job is consumed by the payload's HELLO.
boot() { curl -s -H 'Host: 10.0.2.2:8080' "$URL/boot.ipxe?mac=$1" >"$2"; }
boot "52-54-00-AB-CD-01&uuid=u-1&serial=SN%201" "$TMP/boot1.ipxe"
check "boot script starts with #!ipxe" [ "$(head -1 "$TMP/boot1.ipxe")" = "#!ipxe" ]
check "kernel URL and server come from the Host header" \
	grep -q "^kernel http://10.0.2.2:8080/firmware/xcbench.elf run=[0-9a-f]\{16\} server=10.0.2.2:$PORT suite=seed transport=udp ip=\${netX/ip} gw=\${netX/gateway} netmask=\${netX/netmask} mac=\${netX/mac}$" "$TMP/boot1.ipxe"
boot "52:54:00:ab:cd:01&serial=EVIL" "$TMP/boot1b.ipxe"
check "a repeated GET gets the same pending run (same token)" [ "$(boot_token "$TMP/boot1.ipxe")" = "$(boot_token "$TMP/boot1b.ipxe")" ]
m=$(pyjson "$URL/api/v1/machines" '"%s %s %s" % (d["machines"][0]["mac"], d["machines"][0]["uuid"], d["machines"][0]["serial"])')
check "a GET does not write uuid/serial to the machine ($m)" [ "$m" = "52:54:00:ab:cd:01 None None" ]
check "one script for BIOS and UEFI: \${platform} picks xcbench.efi, same arguments" \
	bash -c "grep -qx 'iseq \${platform} efi && goto xcb_efi ||' '$TMP/boot1.ipxe' &&
		[ \"\$(grep '^kernel ' '$TMP/boot1.ipxe' | sed 's/xcbench\.ef\?l\?[if] / /' | sort -u | wc -l)\" = 1 ] &&
		grep -q '^kernel http://10.0.2.2:8080/firmware/xcbench.efi run=' '$TMP/boot1.ipxe'"
"${X[@]}" queue --mac 52:54:00:ab:cd:01 --suite quick --label nightly --attempts 3 --boot-timeout 77 --end leave \
	reps=3 work_us=500 >"$TMP/q.out"
check "xcbench queue" grep -q "queued job 1: suite quick for 52:54:00:ab:cd:01" "$TMP/q.out"
pol=$(pyjson "$URL/api/v1/jobs" '"%s %s %s %s" % (d["jobs"][0]["attempts"], d["jobs"][0]["timeouts"]["booting"], d["jobs"][0]["timeouts"]["running"], d["jobs"][0]["end"])')
check "queue's lifecycle options reach the job ($pol)" [ "$pol" = "3 77 None leave" ]
check "job listed as pending" [ "$(pyjson "$URL/api/v1/jobs?pending=1" 'len(d["jobs"])')" = 1 ]
boot "52:54:00:ab:cd:01&uuid=u-1&serial=SN%201" "$TMP/boot2.ipxe"
check "next boot of that MAC runs the job" grep -q "suite=quick .* reps=3 work_us=500$" "$TMP/boot2.ipxe"
check "kernel line under 500 characters" [ "$(grep -m1 '^kernel ' "$TMP/boot2.ipxe" | wc -c)" -lt 500 ]
boot "52:54:00:ab:cd:01" "$TMP/boot2b.ipxe"
check "repeated: the same job and token" cmp -s "$TMP/boot2.ipxe" "$TMP/boot2b.ipxe"
# /boot.json: the same boot as data (what `xcbench vm --boot direct` boots).
bootjson() { curl -s -o "$2" -w '%{http_code}' -H 'Host: 10.0.2.2:8080' "$URL/boot.json?mac=52:54:00:ab:cd:01$1"; }
# same_boot SCRIPT JSON FW NET: JSON's kernel URL, image, arguments and run
# are the script's FW kernel line and run, with the MAC and (NET=1) the
# guest's addresses asked for, else empty ones (DHCP), where the script has
# iPXE's settings.
same_boot() {
	python3 - "$@" "$(pyjson "$URL/api/v1/runs?machine=52:54:00:ab:cd:01&status=pending" 'd["runs"][0]["id"]')" <<'PY'
import json, sys
script, j, fw, net, run = open(sys.argv[1]).read().splitlines(), json.load(open(sys.argv[2])), sys.argv[3], sys.argv[4], int(sys.argv[5])
image = "/firmware/xcbench." + ("efi" if fw == "uefi" else "elf")
url, args = [l for l in script if l.startswith("kernel ") and image + " " in l][0][len("kernel "):].split(" ", 1)
for k, v in (("${netX/ip}", "10.0.2.15"), ("${netX/gateway}", "10.0.2.2"), ("${netX/netmask}", "255.255.255.0")):
    args = args.replace(k, v if net == "1" else "")
args = args.replace("${netX/mac}", "52:54:00:ab:cd:01")
sys.exit(0 if (j["firmware"], j["image"], j["kernel"], j["args"], j["run"]["id"]) == (fw, image, url, args, run) else 1)
PY
}
# boot_json_is FW NET QUERY: GET /boot.json with QUERY answers 200 and same_boot.
boot_json_is() {
	[ "$(bootjson "$3" "$TMP/b.json")" = 200 ] && same_boot "$TMP/boot2.ipxe" "$TMP/b.json" "$1" "$2"
}
# Its image must be there: a run made for a boot that cannot fetch its
# payload stayed pending, then lost, in the history (xcbench vm before
# make -C firmware). No xcbench.efi beside --firmware yet:
runs_before=$(pyjson "$URL/api/v1/runs" 'd["total"]')
code=$(bootjson "&firmware=uefi" "$TMP/nofw.json")
check "/boot.json?firmware=uefi with no xcbench.efi beside --firmware: 503 ($code), saying so" \
	sh -c "[ $code = 503 ] && grep -q 'no uefi payload to boot ($TMP/xcbench.efi: No such file or directory)' '$TMP/nofw.json'"
check "... and no run was made" [ "$(pyjson "$URL/api/v1/runs" 'd["total"]')" = "$runs_before" ]
printf 'MZ' >"$TMP/xcbench.efi"
check "/boot.json?firmware=uefi&ip=…: the script's UEFI kernel line and run, the guest's addresses filled in" \
	boot_json_is uefi 1 "&firmware=uefi&ip=10.0.2.15&gw=10.0.2.2&netmask=255.255.255.0"
check "/boot.json (bios by default, no addresses): the script's BIOS kernel line, empty addresses (DHCP)" \
	boot_json_is bios 0 ""
check "/boot.json?firmware=floppy: 400" [ "$(bootjson "&firmware=floppy" /dev/null)" = 400 ]
check "/boot.json?ip=10.0.2: 400" [ "$(bootjson "&ip=10.0.2" /dev/null)" = 400 ]
check "/boot.json?gw=\${netX/gateway}: 400 (only addresses reach the command line)" \
	[ "$(bootjson "&gw=%24%7BnetX%2Fgateway%7D" /dev/null)" = 400 ]
check "the GETs did not consume the job" [ "$(pyjson "$URL/api/v1/jobs?pending=1" 'len(d["jobs"])')" = 1 ]
check "one pending run for the MAC" [ "$(pyjson "$URL/api/v1/runs?machine=52:54:00:ab:cd:01&status=pending" 'd["total"]')" = 1 ]
TOK=$(boot_token "$TMP/boot2.ipxe")
check "frames with the rendered token are accepted" "$XCB_GEN" --server 127.0.0.1:$PORT --token "$TOK" --reps 3
st=$(pyjson "$URL/api/v1/runs?token=$TOK" 'd["runs"][0]["status"] + " " + str(d["runs"][0]["machine"]["mac"])')
check "that run is complete and belongs to the machine ($st)" [ "$st" = "complete 52:54:00:ab:cd:01" ]
check "its HELLO consumed the job" [ "$(pyjson "$URL/api/v1/jobs" '"%s %s" % (d["jobs"][0]["consumed"] is not None, d["jobs"][0]["run_id"])')" = "True $(pyjson "$URL/api/v1/runs?token=$TOK" 'd["runs"][0]["id"]')" ]
boot "52:54:00:ab:cd:01" "$TMP/boot3.ipxe"
check "and the boot after that is back to the default suite" grep -q "suite=seed" "$TMP/boot3.ipxe"
m=$(pyjson "$URL/api/v1/machines" '"%s %s %s %d" % (d["machines"][0]["mac"], d["machines"][0]["uuid"], d["machines"][0]["serial"], d["machines"][0]["runs"])')
check "machine keyed by MAC with uuid/serial from the HELLO'd boot ($m)" [ "$m" = "52:54:00:ab:cd:01 u-1 SN 1 3" ]
r2=$(pyjson "$URL/api/v1/runs?machine=52:54:00:ab:cd:01" '[r for r in d["runs"] if r["suite"]=="quick"][0]["label"]')
check "the job's run carries its label" [ "$r2" = nightly ]
check "firmware served byte for byte" cmp -s <(curl -s "$URL/firmware/xcbench.elf") "$TMP/fake.elf"

# --- unknown tokens are refused ---
if "$XCB_GEN" --server 127.0.0.1:$PORT --token c0ffee --reps 1 >/dev/null 2>"$TMP/refused.err"; then
	notok "unknown token refused without --open"
else
	check "unknown token refused without --open (counted)" [ "$(pyjson "$URL/api/v1/health" 'd["rejected"]["unknown_token"] > 0')" = True ]
fi

# --- a wrongly typed field is refused, not silently dropped ---
code=$(curl -s -o /dev/null -w '%{http_code}' "${ADMIN[@]}" -X POST -d '{"token":"b0b","label":1}' "$URL/api/v1/runs")
check "POST runs with a non-string label: 400 ($code)" [ "$code" = 400 ]
check "... and no run was created" [ "$(pyjson "$URL/api/v1/runs?token=b0b" 'len(d["runs"])')" = 0 ]

# --- threads: the collector does not preempt the writer (collector.c, quiet_wakeups) ---
# ps's CLS: B = SCHED_BATCH, TS = SCHED_OTHER. Only the collector is batch:
# the writer and the HTTP threads keep the normal policy.
cls=$(ps -L -o comm=,cls= -p "$DPID" | awk '{ print $1 "=" $2 }' | sort -u | paste -sd' ')
check "collector thread named and SCHED_BATCH ($cls)" grep -qw "xcbd-collector=B" <<<"$cls"
check "writer thread named, normal policy" grep -qw "xcbd-writer=TS" <<<"$cls"
check "checkpointer thread named, normal policy" grep -qw "xcbd-checkpoint=TS" <<<"$cls"
check "no other thread is batch" [ "$(grep -o '=B' <<<"$cls" | wc -l)" = 1 ]

# --- restart mid-run: half the frames, restart, then everything again ---
curl -s "${ADMIN[@]}" -X POST -d '{"token":"e000"}' "$URL/api/v1/runs" >/dev/null
"$XCB_GEN" --server 127.0.0.1:$PORT --token e000 --reps 3 --no-done >"$TMP/half.out" 2>&1
check "SIGTERM mid-run: clean shutdown" stop_daemon
start_daemon --token-file "$TMP/token" --firmware "$TMP/fake.elf" --lost-after 2 || notok "restart"
"$XCB_GEN" --server 127.0.0.1:$PORT --token e000 --reps 3 --loss 0.2 --dup 0.2 --seed 5 >"$TMP/full.out" 2>&1
n=$(sed -n 's/.*frames=\([0-9]*\).*/\1/p' "$TMP/full.out")
st=$(pyjson "$URL/api/v1/runs?token=e000" '"%s %d" % (d["runs"][0]["status"], d["runs"][0]["frames_received"])')
check "after the restart the run completes, each frame once ($st)" [ "$st" = "complete $n" ]
dup=$(pyjson "$URL/api/v1/health" 'd["frames"]["duplicate"] > 0 and d["frames"]["stored"] == 1')
check "frames stored before the restart are recognised as duplicates" [ "$dup" = True ]

# --- lost, revived, crashed (this daemon: --lost-after 2) ---
curl -s "${ADMIN[@]}" -X POST -d '{"token":"d00d","label":"silent"}' "$URL/api/v1/runs" >/dev/null
"$XCB_GEN" --server 127.0.0.1:$PORT --token d00d --reps 1 --no-done >/dev/null 2>&1
sleep 4
check "a run silent for --lost-after becomes lost" [ "$(pyjson "$URL/api/v1/runs?token=d00d" 'd["runs"][0]["status"]')" = lost ]
"$XCB_GEN" --server 127.0.0.1:$PORT --token d00d --reps 1 >/dev/null 2>&1
check "a late DONE completes it after all" [ "$(pyjson "$URL/api/v1/runs?token=d00d" 'd["runs"][0]["status"]')" = complete ]
curl -s "${ADMIN[@]}" -X POST -d '{"token":"dead"}' "$URL/api/v1/runs" >/dev/null
"$XCB_GEN" --server 127.0.0.1:$PORT --token dead --reps 1 --crash >/dev/null 2>&1
e=$(pyjson "$URL/api/v1/runs?token=dead" 'd["runs"][0]["status"] + ": " + d["runs"][0]["error"]')
check "ERROR marks the run crashed with its summary ($e)" [ "$e" = "crashed: hang: cpu 3 waits on cpu 1 (generated)" ]

# --- ACK statuses seen by a payload: CLOSED for a complete run, REFUSED for an unknown token ---
acks=$(python3 - "$PORT" <<'PY'
import socket, struct, sys, zlib
port = int(sys.argv[1])
# At least as long as the 60-byte ACK: a shorter datagram with an unknown
# token gets no REFUSED at all (no reflection amplification).
def frame(token, seq, payload=b"late log line, long enough to be answered"):
    hdr = struct.pack("<IBBHQI", 0x31424358, 1, 6, len(payload), token, seq)
    return hdr + struct.pack("<I", zlib.crc32(payload, zlib.crc32(hdr))) + payload
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.settimeout(3)
out = []
for token in (0xe000, 0xbad70c):
    s.sendto(frame(token, 0), ("127.0.0.1", port))
    a = s.recv(2048)
    magic, ver, typ, ln, tok, seq, crc = struct.unpack("<IBBHQII", a[:24])
    out.append("%x:type%d:next%d:status%d" % (tok, typ, seq, struct.unpack("<I", a[24:28])[0]))
print(" ".join(out))
PY
)
n=$(sed -n 's/.*frames=\([0-9]*\).*/\1/p' "$TMP/full.out")
check "ACKs: CLOSED (2) for a complete run, REFUSED (1) for an unknown token ($acks)" \
	[ "$acks" = "e000:type9:next$n:status2 bad70c:type9:next0:status1" ]

# --- remaining routes and the CLI ---
ID=$(pyjson "$URL/api/v1/runs?token=e000" 'd["runs"][0]["id"]')
check "PATCH label/notes" [ "$(curl -s "${ADMIN[@]}" -X PATCH -d '{"label":"a, \"quoted\" label","notes":"n"}' "$URL/api/v1/runs/$ID" | python3 -c 'import json,sys; print(json.load(sys.stdin)["run"]["label"])')" = 'a, "quoted" label' ]
# Generator: per rep 11 buckets around p50 holding 20-3|k| (k=-5..5: 130) + 5 in
# a tail bucket = 135; 3 reps = 405. Case 1's p50 is 1150 cycles; the bucket
# midpoint may differ by at most 0.4 %.
h=$(pyjson "$URL/api/v1/runs/$ID/cases/1/histogram" '"%d %s" % (d["total"], abs(d["percentiles"]["p50"] - 1150) / 1150 <= 0.004)')
check "histogram: merged over reps, p50 from buckets within 0.4% ($h)" [ "$h" = "405 True" ]
check "histogram of one rep" [ "$(pyjson "$URL/api/v1/runs/$ID/cases/1/histogram?rep=1" 'd["total"]')" = 135 ]
# Each bucket's i is proto/xcb_histo.h's index of [low, high] (computed here
# independently: 0..255 exact, then 128 sub-buckets per power of two).
hb=$(pyjson "$URL/api/v1/runs/$ID/cases/1/histogram" '"%s %s" % (all((b["low"], b["high"]) == ((b["i"], b["i"]) if b["i"] < 256 else ((((b["i"] & 127) + 128) << ((b["i"] >> 7) - 1)), (((b["i"] & 127) + 129) << ((b["i"] >> 7) - 1)) - 1)) for b in d["buckets"]), d["percentiles"]["p10"] <= d["percentiles"]["p50"])')
check "histogram buckets: i, low, high agree with xcb_histo.h; p10 <= p50 ($hb)" [ "$hb" = "True True" ]
check "histogram of a missing case: 404" [ "$(curl -s -o /dev/null -w '%{http_code}' "$URL/api/v1/runs/$ID/cases/999/histogram")" = 404 ]
check "events route lists the LOG line" [ "$(pyjson "$URL/api/v1/runs/$ID/events?kind=log" 'd["events"][0]["text"][:10]')" = "generator:" ]
show=$(pyjson "$URL/api/v1/runs/$ID" '"%d %s %s %d" % (len(d["cases"]), d["cases"][0]["stats"]["p50"], d["cases"][0]["ns"]["p50"], len(d["cases"][5]["initiators"]))')
check "run detail: 48 cases with stats, ns and initiators ($show)" [ "$show" = "48 1150 575.0 1" ]
check "xcbench runs lists it (token shown to the admin)" bash -c "'$XCBENCH' --server '$URL' --token-file '$TMP/token' runs | grep -q '000000000000e000 complete'"
check "... and not to anyone else" bash -c "! '$XCBENCH' --server '$URL' runs | grep -q '000000000000e000'"
check "xcbench show prints the cases" bash -c "'$XCBENCH' --server '$URL' show $ID | grep -c ' xcall ' | grep -qx 48"
check "xcbench compare --csv" bash -c "'$XCBENCH' --server '$URL' compare $ID $ID --csv | head -1 | grep -q '^kind,algo,delivery'"
check "xcbench compare (algorithms in one run) prints the seed table" bash -c "'$XCBENCH' --server '$URL' compare $ID $ID --algo-a locked --algo-b lockless | grep -q 'CPUs in mask'"
for c in runs show compare export queue ingest; do
	"$XCBENCH" $c --help >/dev/null 2>&1 || { notok "xcbench $c --help"; continue; }
done
ok "xcbench <each command> --help"
check "xcbenchd --help" bash -c "'$XCBENCHD' --help | grep -q -- --lost-after"
"$XCBENCH" --server "$URL" show 9999 >/dev/null 2>"$TMP/e404"; rc=$?
if [ $rc = 1 ] && grep -q "run 9999 not found" "$TMP/e404"; then
	ok "xcbench show 9999: exit 1 and the API's message"
else
	notok "xcbench show 9999: exit 1 and the API's message (exit $rc)"
fi
# --- run summary: a facts subset, the plan and progress, without a request per run ---
sm=$(pyjson "$URL/api/v1/runs?token=e000" '(lambda r: "%s %s %s" % (r["cases_planned"], r["cases_done"], json.dumps(r["facts"], sort_keys=True)))(d["runs"][0])')
check "run summary: cases_planned/cases_done (2nd HELLO) and the list's facts ($sm)" \
	[ "$sm" = '48 48 {"apic_mode": "x2apic", "brand": "Generated CPU", "cpus": "8", "hypervisor": "", "tsc_khz": "2000000", "vendor": "GenuineIntel"}' ]
curl -s "${ADMIN[@]}" -X POST -d '{"token":"f00d"}' "$URL/api/v1/runs" >/dev/null
sm=$(pyjson "$URL/api/v1/runs?token=f00d" '(lambda r: "%s %s %s" % (r["cases_planned"], r["cases_done"], r["facts"]))(d["runs"][0])')
check "run summary of a run with no frame yet: planned null, 0 done, no facts ($sm)" [ "$sm" = "None 0 {}" ]
# --- p10 (not in RESULT): from each rep's histogram, median over reps. Case 1
# rep 1 has p50 1150 = bucket 527 (1144..1151); the generator's 135 values
# put rank ⌈13.5⌉ = 14 in bucket 527 − 3 = 524 (1120..1127), midpoint 1123;
# reps 0 and 2 sit one bucket either side, so the median is 1123 (561.5 ns at
# 2 GHz). Initiator rows have no histogram of their own: p10 null.
p10=$(pyjson "$URL/api/v1/runs/$ID" '(lambda c: "%s %s %s %s" % (c["stats"]["p10"], c["ns"]["p10"], c["initiators"][0]["p10"], all(k["stats"]["min"] <= k["stats"]["p10"] <= k["stats"]["p50"] for k in d["cases"])))(d["cases"][0])')
check "STATS.p10 from the histograms, in [min, p50] for every case ($p10)" [ "$p10" = "1123 561.5 None True" ]
# --- compare with 1 rep each: b at 0.5 % of a. Below 5 repetitions per side
# there is no interval (issue 13: "too few repetitions for an interval"), only
# the change, never significant. ---
curl -s "${ADMIN[@]}" -X POST -d '{"token":"f001"}' "$URL/api/v1/runs" >/dev/null
curl -s "${ADMIN[@]}" -X POST -d '{"token":"f002"}' "$URL/api/v1/runs" >/dev/null
"$XCB_GEN" --server 127.0.0.1:$PORT --runs 2 --token f001 --factor 1.0,0.005 --reps 1 >/dev/null 2>&1
IA=$(pyjson "$URL/api/v1/runs?token=f001" 'd["runs"][0]["id"]')
IB=$(pyjson "$URL/api/v1/runs?token=f002" 'd["runs"][0]["id"]')
cmp=$(pyjson "$URL/api/v1/compare?a=$IA&b=$IB" '"%d %s %s" % (len(d["cases"]), ",".join(sorted({c["method"] for c in d["cases"]})), all(-100 <= c["change_pct"] < 0 and c["ci_low"] is None and c["ci_high"] is None and not c["significant"] for c in d["cases"]))')
check "compare with 1 rep per side: the change, no interval, not significant ($cmp)" [ "$cmp" = "48 too_few_reps True" ]
check "SIGTERM: clean shutdown" stop_daemon

# --- schema versions: a database from a newer xcbenchd is refused, not touched ---
v=$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("PRAGMA user_version").fetchone()[0])' "$DB")
check "database migrated to the newest schema (user_version $v)" [ "$v" -ge 1 ]
python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("PRAGMA user_version=999"); c.commit()' "$DB"
"$XCBENCHD" --listen 127.0.0.1:$(free_port) --udp 127.0.0.1:$(free_port) --db "$DB" >"$TMP/newer.log" 2>&1; rc=$?
if [ $rc -ne 0 ] && grep -q "schema version 999 is newer" "$TMP/newer.log"; then
	ok "newer schema: refused (exit $rc) with a clear message"
else
	notok "newer schema refused with a clear message (exit $rc)"
fi

# --ready-fd: a descriptor that is not open is refused before anything
# starts (a waiting script would otherwise hang); an open one gets the ports
# once both sockets listen (every xcbd_start above waited on it).
"$XCBENCHD" --ready-fd 97 --db "$TMP/ready.db" >"$TMP/ready.log" 2>&1 97>&-; rc=$?
check "--ready-fd 97 (not open): exit 2, named (got $rc)" \
	bash -c '[ "$1" = 2 ] && grep -q "ready-fd: .97. is not an open file descriptor" "$2" && [ ! -e "$3" ]' _ "$rc" "$TMP/ready.log" "$TMP/ready.db"
P=$(free_port)
# (also: a --firmware and a --web that are not there are said at the start,
# not refused: a payload built later is served. A typo started a daemon
# whose every machine's boot got a 404 without a word.)
xcbd_start "$TMP/ready2.log" "$P" --db "$TMP/ready2.db" --firmware "$TMP/no-such.elf" --web "$TMP/no-web"; rc=$?
RPID=$XCBD_PID
check "--ready-fd: the daemon says ready, and it answers at once" \
	bash -c '[ "$1" = 0 ] && curl -sf "http://127.0.0.1:$2/api/v1/health" -o /dev/null' _ "$rc" "$P"
check "a missing --firmware is said at the start, named" \
	grep -q "^xcbenchd: warning: --firmware '$TMP/no-such.elf': No such file or directory; machines that boot get 404" "$TMP/ready2.log"
check "a missing --web is said at the start, named" \
	grep -q "^xcbenchd: warning: --web '$TMP/no-web': No such file or directory" "$TMP/ready2.log"
cp "$TMP/fake.elf" "$TMP/no-such.elf"
check "a payload put there after the start is served" \
	cmp -s <(curl -s "http://127.0.0.1:$P/firmware/xcbench.elf") "$TMP/fake.elf"
# A --firmware that is there but no payload is said the same way: a
# directory (it passed access(2), then every boot got 404 'firmware not
# built') and a file that is not an ELF image. Each start is cut short by a
# --token-file that is not there, which check_config refuses after the
# paths (no ports, no store); the payload above (an ELF) is not warned of.
fw_warn() { "$XCBENCHD" --db "$TMP/fw.db" --firmware "$1" --token-file "$TMP/no-token" 2>&1 | grep "^xcbenchd: warning: --firmware"; }
w=$(fw_warn "$TMP")
check "a --firmware that is a directory is said at the start, named ($w)" \
	[ "$w" = "xcbenchd: warning: --firmware '$TMP': a directory, not the payload file (DIR/xcbench.elf); machines that boot get 404 until it is there (make -C firmware)" ]
head -c 64 /dev/zero >"$TMP/zero.elf"
w=$(fw_warn "$TMP/zero.elf")
check "a --firmware that is not an ELF image is said at the start, named ($w)" \
	[ "$w" = "xcbenchd: warning: --firmware '$TMP/zero.elf': not an ELF image (it does not start with 0x7f 'ELF'); machines that boot are sent it, and iPXE cannot boot it" ]
check "an ELF --firmware is not warned of (daemon log)" \
	bash -c '! grep -q "warning: --firmware" "$1"' _ "$TMP/daemon.log"
# With no --firmware and no --web, a daemon run from the build tree serves
# the tree's payload and pages: the sanitizer builds one level deeper too
# (host/build/san/), where a fixed three levels up named ROOT/host/firmware.
for d in "$XCBENCHD" "$ROOT/host/build/san/xcbenchd-asan"; do
	[ -x "$d" ] || { skip "${d#"$ROOT"/}: the default --firmware and --web" "not built (make -C host tests)"; continue; }
	w=$(ASAN_OPTIONS=detect_leaks=0 "$d" --db "$TMP/fw.db" --token-file "$TMP/no-token" 2>&1 |
		grep -E "^xcbenchd: warning: --(firmware|web)")
	check "${d#"$ROOT"/}: the default --firmware and --web are the tree's (${w:-no warning})" test -z "$w"
done
# A second daemon on the same UDP port (its own HTTP port) must fail, not
# share it: with SO_REUSEADDR both bound, and Linux gave the newer socket
# every datagram, so the first daemon's runs stalled unseen.
P2=$(free_port)
timeout 20 "$XCBENCHD" --listen "127.0.0.1:$P2" --udp "127.0.0.1:$P" --db "$TMP/ready3.db" \
	>"$TMP/ready3.log" 2>&1 </dev/null; rc=$?
check "a second daemon on a UDP port in use exits, naming it (exit $rc)" \
	bash -c '[ "$1" != 0 ] && [ "$1" != 124 ] && grep -q "cannot bind UDP port $2" "$3"' _ "$rc" "$P" "$TMP/ready3.log"
# The same for the HTTP port (its own UDP port): with SO_REUSEPORT
# (MHD_OPTION_LISTENING_ADDRESS_REUSE 1) the second daemon bound it too and
# the kernel handed it some of the first one's connections, its store's
# answers among the first's.
P3=$(free_port)
timeout 20 "$XCBENCHD" --listen "127.0.0.1:$P" --udp "127.0.0.1:$P3" --db "$TMP/ready4.db" \
	>"$TMP/ready4.log" 2>&1 </dev/null; rc=$?
check "a second daemon on an HTTP port in use exits, naming it (exit $rc: $(tail -1 "$TMP/ready4.log"))" \
	bash -c '[ "$1" = 1 ] && grep -q "cannot listen on HTTP port $2" "$3"' _ "$rc" "$P" "$TMP/ready4.log"
kill "$RPID"; wait "$RPID" 2>/dev/null
# The start-up line names each socket's own address: both came from one
# inet_ntoa buffer, so --udp on all interfaces was shown as --listen's host.
# (127.0.0.2 is loopback too: the test binds nothing outside lo; the later
# --udp wins over xcbd_start's.)
P4=$(free_port)
xcbd_start "$TMP/ready5.log" "$P4" --db "$TMP/ready5.db" --udp "127.0.0.2:$P4"
banner=$(grep -m1 '^xcbenchd [^:]*: http ' "$TMP/ready5.log")
check "the start-up line names the HTTP and the UDP address apart ($banner)" \
	grep -q "^xcbenchd [^:]*: http 127\.0\.0\.1:$P4 udp 127\.0\.0\.2:$P4 " "$TMP/ready5.log"
kill "$XCBD_PID"; wait "$XCBD_PID" 2>/dev/null
