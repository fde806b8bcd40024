#!/bin/bash
# timeout: 120
# The lab guide (README "Queue a suite for a machine", "Power control") as
# an operator follows it, on the mistakes a person makes, with the `command`
# power driver (no BMC, no QEMU: tests/t-lab-ipmi.sh has the real ones):
#   - `job show` prints each stage's time limit, the daemon's default where
#     the job set none, marked "(default)" (the API's null printed nothing);
#     a started job keeps the limits of the driver it started under when
#     its machine's power settings change (they followed the driver now).
#   - a power driver that fails says why in full: on the job's event, on
#     the machine, in the lab overview (the status answer was cut at 63
#     characters: "… (wrong address o").
#   - a password on the command line (--password SECRET, which getopt took
#     as --password-file, --passwd=SECRET) is refused by name, exit 2, and
#     the secret is printed nowhere, stored nowhere; nor a password given
#     as --password-file's value (the daemon's refusal quoted it).
#   - a setting the daemon refuses is named by its option: ipmi without
#     --password-file says "--password-file: the ipmi driver needs the
#     BMC's password ..." (it said "password_file: needed by this driver",
#     the API's field, and no driver), --power bogus "--power: ..."; the
#     API's message names its field, and what to give.
#   - `machine show` of an ipmi machine set without --port names IPMI's
#     port, 623 (it said "admin@127.0.0.1:0").
#   - `machine show` of a MAC that only queued jobs name (never booted, no
#     power set) shows them and says it has not booted yet (it was "HTTP
#     404: no machine", while `machine list` showed it).
#   - queueing twice for one machine says, on stderr, that the second job
#     waits for the first and then runs again (a repeat by mistake would
#     run the suite twice unnoticed); stdout's line is the same.
#   - a power action for a MAC the daemon does not know (a typo) is an
#     error naming it, exit 1 (it answered "manual: someone must power …
#     on", exit 0, as if for a manual machine).
#   - `machine set` and `power` name the MAC as stored (52:54:00:…, where
#     52-54-00-… was typed), and take --json as `show` does (it was
#     ignored).
#   - a machine of another lab (README "Several labs, one history"): lab
#     B's daemon, on the database lab A's daemon booted M3 in, refuses its
#     power settings, power actions and jobs (409, naming lab A; they were
#     taken, and every lab's job runner powered every job's machine), and
#     does not run a job of lab A's machine it finds in the database; lab
#     A's daemon, back, runs it (not lost).
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "lab: an operator's mistakes"

admin_daemon lab-operator-admin
X=("$XCBENCH" --server "$URL" --token-file "$TMP/token")
# field PATH EXPR: EXPR of the JSON answer j of GET PATH.
field() { curl -s "$URL$1" | python3 -c "import json,sys; j=json.load(sys.stdin); print($2)"; }
echo secret >"$TMP/pass"
chmod 600 "$TMP/pass"

# A BMC that cannot be reached: every action fails with a long message
# whose end matters (what to do about it).
LONG="no answer from the BMC at 10.0.9.21 (wrong address or port, or the BMC or its network down?) END-OF-MESSAGE"
cat >"$TMP/dead.sh" <<SH
#!/bin/sh
echo "$LONG"
exit 1
SH
chmod +x "$TMP/dead.sh"
M1=52:54:00:0e:00:01
"${X[@]}" machine set $M1 --power command --command "$TMP/dead.sh {action}" --password-file "$TMP/pass" >/dev/null
check "machine set M1: a command driver that always fails (exit $?)" test $? = 0
J1=$("${X[@]}" queue --mac $M1 --suite quick | grep -oE 'job [0-9]+' | cut -d' ' -f2)
for i in $(seq 120); do
	[ "$(field "/api/v1/jobs/$J1" "j['job']['stage']")" = failed ] && break
	sleep 0.25
done
"${X[@]}" job show "$J1" >"$TMP/j1.txt"
sed 's/^/#   /' "$TMP/j1.txt"
check "job $J1 failed on its power status, the message whole" grep -q "failed .*power status: .*END-OF-MESSAGE" "$TMP/j1.txt"
# The stages' time limits: the API's `timeouts` are null for "the default",
# which `job show` did not print at all; it prints what the runner applies,
# the daemon's defaults for a powered machine marked as such.
check "job show $J1: each stage's limit, the defaults marked ($(grep limits "$TMP/j1.txt"))" \
	grep -qx "  limits: powering_on 120 s (default), booting 600 s (default), running 3600 s (default)" "$TMP/j1.txt"
M11=52:54:00:0e:00:11
J11=$("${X[@]}" queue --mac $M11 --suite quick --boot-timeout 45 | grep -oE 'job [0-9]+' | cut -d' ' -f2)
"${X[@]}" job show "$J11" >"$TMP/j11.txt"
check "... a manual machine's job: the limit it set, none by default ($(grep limits "$TMP/j11.txt"))" \
	grep -qx "  limits: powering_on none (default, manual power), booting 45 s, running none (default, manual power)" "$TMP/j11.txt"
check "... the API's timeouts_effective beside timeouts" test "$(field "/api/v1/jobs/$J11" "[j['job']['timeouts'], j['job']['timeouts_effective']]")" = \
	"[{'powering_on': None, 'booting': 45, 'running': None}, {'powering_on': None, 'booting': 45, 'running': None}]"
check "... and a powered machine's ($J1)" test "$(field "/api/v1/jobs/$J1" "j['job']['timeouts_effective']")" = \
	"{'powering_on': 120, 'booting': 600, 'running': 3600}"
"${X[@]}" job cancel "$J11" >/dev/null
e=$(field "/api/v1/machines/$M1" "j['machine']['power']['error']")
check "... the machine's power error is whole ($e)" grep -q "END-OF-MESSAGE" <<<"$e"
e=$(field /api/v1/lab "j['machines'][0]['power_error']")
check "... and the lab overview's" grep -q "END-OF-MESSAGE" <<<"$e"
# job wait: an operator follows a job to its end (there was only `job show`
# in a loop); exit 1 for a job that failed, its events as they came.
"${X[@]}" job wait "$J1" >"$TMP/w1.out" 2>&1
rc=$?
check "job wait $J1 (failed): exit 1, its events, then 'job $J1: failed' (exit $rc: $(tail -1 "$TMP/w1.out"))" \
	sh -c "test $rc = 1 && grep -q 'failed .*power status: .*END-OF-MESSAGE' '$TMP/w1.out' && test \"\$(tail -1 '$TMP/w1.out')\" = 'job $J1: failed' && test \$(grep -c 'power status' '$TMP/w1.out') = 1"

SECRET="pw-cli-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
M2=52:54:00:0e:00:02
for a in "--password $SECRET" "--password=$SECRET" "--pass $SECRET" "--passwd=$SECRET"; do
	"${X[@]}" machine set $M2 --power ipmi --host 127.0.0.1 --user admin $a >"$TMP/pw.out" 2>"$TMP/pw.err"
	rc=$?
	check "machine set ${a%%[ =]*}: refused (exit $rc: $(cut -c1-80 "$TMP/pw.err"))" \
		sh -c "test $rc = 2 && grep -q 'a password is never given on the command line' '$TMP/pw.err'"
	check "... the password printed nowhere" sh -c "! grep -qF '$SECRET' '$TMP/pw.out' '$TMP/pw.err'"
done
"${X[@]}" machine set $M2 --power ipmi --host 127.0.0.1 --user admin --password-file "$SECRET" 2>"$TMP/pw.err"
rc=$?
check "--password-file SECRET (the password, not a file): refused (exit $rc: $(cut -c1-80 "$TMP/pw.err"))" \
	sh -c "test $rc = 2 && grep -q 'not an absolute path' '$TMP/pw.err'"
check "... the password printed nowhere" sh -c "! grep -qF '$SECRET' '$TMP/pw.err'"
check "... and M2 has no power settings" sh -c "! curl -sf '$URL/api/v1/machines/$M2' | grep -q ipmi"

"${X[@]}" machine set $M2 --power ipmi --host 127.0.0.1 --user admin >"$TMP/pf.out" 2>"$TMP/pf.err"
rc=$?
check "ipmi without --password-file: exit 2 (a usage error), the option named ($rc: $(cat "$TMP/pf.err"))" \
	sh -c "test $rc = 2 && test ! -s '$TMP/pf.out' && grep -qx \"xcbench machine: --password-file: the ipmi driver needs the BMC's password: the absolute path of a file on the daemon's machine holding it (mode 600)\" '$TMP/pf.err'"
c=$(curl -s -o "$TMP/pf.api" -w '%{http_code}' -X PUT "${ADMIN[@]}" -d '{"driver":"ipmi","host":"127.0.0.1","user":"admin"}' "$URL/api/v1/machines/$M2/power")
check "... the API's 400 names its field, password_file, and what to give ($c: $(cat "$TMP/pf.api"))" \
	sh -c "test $c = 400 && grep -q '\"password_file: the ipmi driver needs the BMC.s password: the absolute path' '$TMP/pf.api'"
"${X[@]}" machine set $M2 --power bogus 2>"$TMP/pf.err"
check "--power bogus: the option named ($(cat "$TMP/pf.err"))" \
	grep -qx "xcbench machine: --power: 'bogus' is not ipmi, command or manual" "$TMP/pf.err"

M4=52:54:00:0e:00:04
"${X[@]}" machine set $M4 --power ipmi --host 127.0.0.1 --user admin --password-file "$TMP/pass" >/dev/null
"${X[@]}" machine show $M4 >"$TMP/m4.show"
check "machine show of an ipmi machine without --port: $(sed -n 2p "$TMP/m4.show")" \
	grep -q "power: ipmi admin@127.0.0.1:623, password set" "$TMP/m4.show"

M5=52:54:00:0e:00:05
"${X[@]}" queue --mac $M5 --suite quick >"$TMP/q1.out" 2>"$TMP/q1.err"
"${X[@]}" queue --mac $M5 --suite quick >"$TMP/q2.out" 2>"$TMP/q2.err"
Q1=$(grep -oE 'job [0-9]+' "$TMP/q1.out" | cut -d' ' -f2) Q2=$(grep -oE 'job [0-9]+' "$TMP/q2.out" | cut -d' ' -f2)
check "the first queue for M5 says nothing more ($(cat "$TMP/q1.err"))" test ! -s "$TMP/q1.err"
"${X[@]}" job wait "$Q1" --timeout 1 >"$TMP/wq.out" 2>"$TMP/wq.err"
rc=$?
check "job wait --timeout 1 on a manual machine's queued job: exit 1, still queued ($rc: $(cat "$TMP/wq.err"))" \
	sh -c "test $rc = 1 && grep -qx 'xcbench job wait: job $Q1 still queued after 1 s' '$TMP/wq.err'"
check "the second says it waits for job $Q1 ($(cat "$TMP/q2.err"))" \
	grep -q "^xcbench queue: job $Q1 (.*) holds $M5: job $Q2 runs after it ends" "$TMP/q2.err"
check "... its stdout is the usual one line" test "$(cat "$TMP/q2.out")" = "queued job $Q2: suite quick for $M5 (next boot of that machine)"
# M5 has queued jobs and never booted: `machine list` shows it, and
# `machine show` (where `job --help` sends the user) said "HTTP 404: no
# machine". It shows the jobs, and that the machine has not booted yet.
"${X[@]}" machine show $M5 >"$TMP/m5.show" 2>"$TMP/m5.err"
rc=$?
check "machine show of a MAC with queued jobs, never booted: exit 0 ($rc: $(cat "$TMP/m5.err"))" test $rc = 0
check "... it has not booted yet, its power manual ($(sed -n 2,3p "$TMP/m5.show" | tr '\n' ' '))" \
	sh -c "grep -qx '  not booted yet, no power settings: its jobs wait for its first boot' '$TMP/m5.show' &&
		grep -q '^  power: manual,' '$TMP/m5.show'"
check "... and both its jobs, $Q1 and $Q2" \
	sh -c "grep -q '^  job $Q1  queued ' '$TMP/m5.show' && grep -q '^  job $Q2  queued ' '$TMP/m5.show'"
check "GET /api/v1/machines/M5: no record (id null), its jobs ($(field /api/v1/machines/$M5 'j["machine"]["id"], len(j["machine"]["jobs"])'))" \
	test "$(field /api/v1/machines/$M5 'j["machine"]["id"], len(j["machine"]["jobs"]), j["machine"]["power"]["driver"]')" = "None 2 manual"
c=$(curl -s -o /dev/null -w '%{http_code}' "$URL/api/v1/machines/52:54:00:0e:00:99")
check "GET /api/v1/machines/MAC of neither a machine nor a job: still 404 ($c)" test "$c" = 404

# A machine the daemon powers: queue says the daemon boots it (it said
# "next boot of that machine", as for a manual one, which waits for a person).
M6=52:54:00:0e:00:06
"${X[@]}" machine set $M6 --power command --command "/bin/true {action}" >/dev/null
"${X[@]}" queue --mac $M6 --suite quick >"$TMP/q6.out" 2>&1
Q6=$(grep -oE 'job [0-9]+' "$TMP/q6.out" | cut -d' ' -f2)
check "queue for a powered machine: the daemon powers it on and boots it ($(cat "$TMP/q6.out"))" \
	grep -q "^queued job $Q6: suite quick for $M6 (the daemon powers that machine on and boots it)$" "$TMP/q6.out"
"${X[@]}" job cancel "$Q6" >/dev/null 2>&1

# A job's limits are those of the driver its machine had when it started:
# an operator who sets the machine's power to manual mid-job does not take
# the job's bounds away (they followed the machine's driver now: null, no
# bound, for a job already powered on under 120 s); a job still queued
# behind it starts under the new driver.
M12=52:54:00:0e:00:12
cat >"$TMP/m12.sh" <<SH
#!/bin/sh
[ "\$1" = status ] && echo off
exit 0
SH
chmod +x "$TMP/m12.sh"
"${X[@]}" machine set $M12 --power command --command "$TMP/m12.sh {action}" >/dev/null
J12=$("${X[@]}" queue --mac $M12 --suite quick --boot-timeout 45 | grep -oE 'job [0-9]+' | cut -d' ' -f2)
for i in $(seq 80); do
	[ "$(field "/api/v1/jobs/$J12" "j['job']['stage']")" = powering_on ] && break
	sleep 0.25
done
"${X[@]}" machine set $M12 --power manual >/dev/null
J12B=$("${X[@]}" queue --mac $M12 --suite quick 2>/dev/null | grep -oE 'job [0-9]+' | cut -d' ' -f2)
check "job $J12, started under the command driver, keeps its limits after machine set --power manual" \
	test "$(field "/api/v1/jobs/$J12" "[j['job']['stage'], j['job']['timeouts_effective']]")" = \
	"['powering_on', {'powering_on': 120, 'booting': 45, 'running': 3600}]"
"${X[@]}" job show "$J12" >"$TMP/j12.txt"
check "... and job show says so ($(grep limits "$TMP/j12.txt"))" \
	grep -qx "  limits: powering_on 120 s (default), booting 45 s, running 3600 s (default)" "$TMP/j12.txt"
check "job $J12B, queued behind it, takes the manual driver's (none)" \
	test "$(field "/api/v1/jobs/$J12B" "[j['job']['stage'], j['job']['timeouts_effective']]")" = \
	"['queued', {'powering_on': None, 'booting': None, 'running': None}]"
check "the machine's own limits for a new job follow its driver now (manual: none)" \
	test "$(field "/api/v1/machines/$M12" "j['machine']['timeouts_default']")" = \
	"{'powering_on': None, 'booting': None, 'running': None}"
"${X[@]}" job cancel "$J12" >/dev/null
"${X[@]}" job cancel "$J12B" >/dev/null

M9=52:54:00:0e:00:99
for a in on status; do
	"${X[@]}" machine power $M9 $a >"$TMP/m9.out" 2>"$TMP/m9.err"
	rc=$?
	check "machine power of an unknown MAC, $a: refused (exit $rc: $(head -c 150 "$TMP/m9.err"))" \
		sh -c "test $rc = 1 && test \$(wc -l <'$TMP/m9.err') = 1 && grep -q 'no machine $M9' '$TMP/m9.err' && test ! -s '$TMP/m9.out'"
done
check "... and it is not created" sh -c "! curl -sf '$URL/api/v1/machines/$M9' >/dev/null"
# The MAC as the daemon stores it, whatever was typed; --json on every verb
M6T=52-54-00-0E-00-06
"${X[@]}" machine set $M6T --power manual >"$TMP/m6.out" 2>&1
check "machine set with a MAC typed 52-54-00-0E-00-06 says the one stored ($(cat "$TMP/m6.out"))" \
	test "$(cat "$TMP/m6.out")" = "52:54:00:0e:00:06: power driver manual"
"${X[@]}" machine power $M6T status --json >"$TMP/m6.json" 2>&1
check "machine power --json prints the answer as JSON ($(tr -d '\n ' <"$TMP/m6.json" | cut -c1-80))" \
	python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); sys.exit(not (o["mac"] == "52:54:00:0e:00:06" and o["action"] == "status"))' "$TMP/m6.json"
"${X[@]}" machine set $M6T --power manual --json >"$TMP/m6s.json" 2>&1
check "machine set --json prints the machine as JSON" \
	python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); sys.exit(o["machine"]["power"]["driver"] != "manual")' "$TMP/m6s.json"
# manual power with settings no person uses: refused naming the field (it
# was stored and shown as "manual -@x", as if the host mattered); usage
# error, exit 2, and the machine keeps its manual settings
for f in "--host x:host" "--port 623:port" "--user u:user" "--command c:command"; do
	"${X[@]}" machine set $M6T --power manual ${f%:*} >"$TMP/m6m.out" 2>"$TMP/m6m.err"
	rc=$?
	check "machine set --power manual ${f%:*}: refused naming ${f#*:} (exit $rc: $(cat "$TMP/m6m.err"))" \
		bash -c '[ "$1" = 2 ] && [ ! -s "$2" ] && grep -qx "xcbench machine: --$3: the manual driver uses no host, port, user, password_file or command (a person powers the machine)" "$4"' \
		_ "$rc" "$TMP/m6m.out" "${f#*:}" "$TMP/m6m.err"
done
check "... and its power is still manual with no host" \
	test "$(field "/api/v1/machines/52:54:00:0e:00:06" 'j["machine"]["power"]["driver"], j["machine"]["power"]["host"]')" = "manual None"
check "SIGTERM: clean shutdown" stop_daemon
check "no password in the daemon's log or database" \
	sh -c "! grep -qF '$SECRET' '$TMP/daemon.log' && ! grep -qaF '$SECRET' '$TMP'/xcbench.db*"

# Another lab's machine. Lab A's daemon sees M3 boot (it takes loopback
# boots by --boot-from) and gets its power settings: a script that notes
# each action it is asked for.
M3=52:54:00:0e:00:03
cat >"$TMP/note.sh" <<SH
#!/bin/sh
echo "\$1" >>"$TMP/m3.actions"
[ "\$1" = status ] && echo off
exit 0
SH
chmod +x "$TMP/note.sh"
admin_daemon lab-operator-admin --lab A --boot-from 127.0.0.1/32
check "lab A's daemon: M3 boots from it" curl -sf -o /dev/null "$URL/boot.ipxe?mac=$M3"
XA=("$XCBENCH" --server "$URL" --token-file "$TMP/token")
"${XA[@]}" machine set $M3 --power command --command "$TMP/note.sh {action}" >/dev/null
check "lab A's daemon: M3's power settings taken (exit $?)" test $? = 0
check "... M3 is lab A's" test "$(field "/api/v1/machines" "[m['lab'] for m in j['machines'] if m['mac'] == '$M3'][0]")" = A
stop_daemon
# A job of M3's in the database (queued on lab A's daemon while it was
# down, say): lab B's runner must leave it alone.
python3 - "$DB" "$M3" <<'PY'
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1])
db.execute("INSERT INTO jobs(mac, suite, params, created) VALUES (?, 'quick', '{}', ?)", (sys.argv[2], int(time.time())))
db.commit()
PY
J3=$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT max(id) FROM jobs").fetchone()[0])' "$DB")
rm -f "$TMP/m3.actions"
admin_daemon lab-operator-admin --lab B
XB=("$XCBENCH" --server "$URL" --token-file "$TMP/token")
# lab_refused NAME CMD...: CMD exits 1 with one line naming lab A.
lab_refused() {
	local name=$1 rc
	shift
	"$@" >"$TMP/lab.out" 2>"$TMP/lab.err"
	rc=$?
	check "lab B's daemon: $name is refused (exit $rc: $(head -c 150 "$TMP/lab.err"))" \
		sh -c "test $rc = 1 && test \$(wc -l <'$TMP/lab.err') = 1 && grep -q \"belongs to lab 'A'\" '$TMP/lab.err'"
}
lab_refused "machine set M3" "${XB[@]}" machine set $M3 --power manual
lab_refused "machine power M3 status" "${XB[@]}" machine power $M3 status
lab_refused "queue --mac M3" "${XB[@]}" queue --mac $M3 --suite quick
check "... M3 still has lab A's power settings" \
	test "$(field "/api/v1/machines/$M3" "j['machine']['power']['driver']")" = command
sleep 3 # six passes of lab B's job runner
check "lab B's runner left job $J3 of lab A's M3 queued" \
	test "$(field "/api/v1/jobs/$J3" "j['job']['stage'] + ' %d' % len(j['job']['events'])")" = "queued 0"
check "... and asked M3's power for nothing ($(cat "$TMP/m3.actions" 2>/dev/null | tr '\n' ' '))" \
	test ! -e "$TMP/m3.actions"
stop_daemon
rm -f "$TMP/m3.actions"
admin_daemon lab-operator-admin --lab A --boot-from 127.0.0.1/32
for i in $(seq 40); do grep -q '^on$' "$TMP/m3.actions" 2>/dev/null && break; sleep 0.25; done
check "lab A's daemon, back, powers M3 on for job $J3 ($(cat "$TMP/m3.actions" 2>/dev/null | tr '\n' ' '))" \
	grep -q '^on$' "$TMP/m3.actions"
"$XCBENCH" --server "$URL" --token-file "$TMP/token" job cancel "$J3" >/dev/null
check "SIGTERM: clean shutdown (lab A)" stop_daemon

# A machine set up on the wrong lab's daemon: M7 is on lab B's network, but
# its power was set on lab A's daemon, so it is lab A's. Lab A's runner
# powers it on for a job; it boots on B's network and asks B's daemon, which
# refuses it (409). The job said nothing of that: it timed out "in
# powering_on", "the machine has not asked for /boot.ipxe". And nothing
# could move the machine to lab B: every lab but A's refused it for good.
M7=52:54:00:0e:00:07
cat >"$TMP/m7.sh" <<SH
#!/bin/sh
echo "\$1" >>"$TMP/m7.actions"
[ "\$1" = status ] && echo off
exit 0
SH
chmod +x "$TMP/m7.sh"
admin_daemon lab-operator-admin --lab A
URL_A=$URL
XA=("$XCBENCH" --server "$URL_A" --token-file "$TMP/token")
"${XA[@]}" machine set $M7 --power command --command "$TMP/m7.sh {action}" >/dev/null
"${XA[@]}" machine show $M7 >"$TMP/m7.show" 2>&1
check "machine show names the machine's lab ($(head -1 "$TMP/m7.show"))" \
	test "$(head -1 "$TMP/m7.show")" = "machine $M7  lab A"
check "... and so does the API's machine" test "$(field "/api/v1/machines/$M7" "j['machine']['lab']")" = A
check "... and the lab overview" test "$(field /api/v1/lab "[m['lab'] for m in j['machines'] if m['mac'] == '$M7'][0]")" = A
J7=$("${XA[@]}" queue --mac $M7 --suite quick --power-timeout 600 | grep -oE 'job [0-9]+' | cut -d' ' -f2)
for i in $(seq 80); do grep -q '^on$' "$TMP/m7.actions" 2>/dev/null && break; sleep 0.25; done
check "lab A's runner powers M7 on for job $J7 ($(tr '\n' ' ' <"$TMP/m7.actions" 2>/dev/null))" grep -q '^on$' "$TMP/m7.actions"
# A boot from an address outside --boot-from (lab A's daemon takes no
# loopback boots) got the default suite and the job waited, saying nothing:
# a lab network other than the daemon host's subnets, or a NAT in between,
# looked like a machine that never booted.
M10=52:54:00:0e:00:10
J10=$("${XA[@]}" queue --mac $M10 --suite quick | grep -oE 'job [0-9]+' | cut -d' ' -f2)
curl -s -o "$TMP/b10" "$URL_A/boot.ipxe?mac=$M10"
curl -s -o /dev/null "$URL_A/boot.ipxe?mac=$M10"
check "a boot of M10 from 127.0.0.1 (not --boot-from) gets the default suite, not job $J10" 	sh -c "grep -q 'suite=default' '$TMP/b10' && test \"\$(curl -s '$URL_A/api/v1/jobs/$J10' | python3 -c 'import json,sys; print(json.load(sys.stdin)[\"job\"][\"consumed\"])')\" = None"
"${XA[@]}" job show "$J10" >"$TMP/j10.txt"
sed 's/^/#   /' "$TMP/j10.txt"
check "... and job $J10 says so once, naming the address and --boot-from" \
	test "$(grep -c "a boot request for this MAC came from 127.0.0.1, outside the networks whose boots may take a job (.*): it got the default suite, not this job; .*--boot-from" "$TMP/j10.txt")" = 1
"${XA[@]}" job cancel "$J10" >/dev/null
# Lab B's daemon, on the same store, where M7 boots.
PB=$(free_port)
xcbd_start "$TMP/daemon-b.log" "$PB" --db "$DB" --token-file "$TMP/token" --lab B || notok "lab B's daemon starts"
DPID_B=$XCBD_PID
XB=("$XCBENCH" --server "http://127.0.0.1:$PB" --token-file "$TMP/token")
for n in 1 2; do
	c=$(curl -s -o "$TMP/b409" -w '%{http_code}' "http://127.0.0.1:$PB/boot.ipxe?mac=$M7")
done
check "lab B's daemon refuses M7's boot (409: $(cat "$TMP/b409"))" test "$c" = 409
"${XA[@]}" job show "$J7" >"$TMP/j7.txt"
sed 's/^/#   /' "$TMP/j7.txt"
check "job $J7 says M7 asked lab B's daemon, which refused it, and how to move it" \
	grep -q "the machine asked the daemon of lab 'B' for its boot script (from 127.0.0.1), which refused it: it belongs to lab 'A' .*xcbench machine set $M7 --take" "$TMP/j7.txt"
check "... once, for two requests" test "$(grep -c "asked the daemon of lab 'B'" "$TMP/j7.txt")" = 1
"${XB[@]}" machine set $M7 --power manual >"$TMP/m7b.out" 2>"$TMP/m7b.err"
check "lab B: machine set M7 is refused, naming --take ($(cat "$TMP/m7b.err"))" \
	grep -q "belongs to lab 'A': set its power on that lab's daemon, or take it into lab 'B' .*xcbench machine set --take" "$TMP/m7b.err"
"${XB[@]}" machine set $M7 --power manual --take >"$TMP/m7b.out" 2>"$TMP/m7b.err"
rc=$?
check "lab B: --take while lab A works on job $J7 is refused, naming it (exit $rc: $(cat "$TMP/m7b.err"))" \
	sh -c "test $rc = 1 && grep -q \"lab 'A' is running its job $J7 (powering_on): cancel it there\" '$TMP/m7b.err'"
check "... M7 is still lab A's" test "$(field "/api/v1/machines/$M7" "j['machine']['lab']")" = A
"${XA[@]}" job cancel "$J7" >/dev/null
for i in $(seq 80); do
	[ "$(field "/api/v1/jobs/$J7" "j['job']['ended'] is not None")" = True ] && break
	sleep 0.25
done
"${XB[@]}" machine set $M7 --power command --command "$TMP/m7.sh {action}" --take >"$TMP/m7b.out" 2>"$TMP/m7b.err"
rc=$?
check "lab B: machine set M7 --take, A's jobs ended: taken (exit $rc: $(cat "$TMP/m7b.out" "$TMP/m7b.err"))" \
	test "$rc" = 0 -a "$(cat "$TMP/m7b.out")" = "$M7: power driver command, in lab 'B'"
check "... M7 is lab B's now" test "$(field "/api/v1/machines/$M7" "j['machine']['lab']")" = B
"${XA[@]}" machine list >"$TMP/list.out" 2>&1
sed 's/^/#   /' "$TMP/list.out"
check "machine list on lab A's daemon: every lab's machines, M7 in lab B, M3 in lab A" \
	sh -c "grep -qE '^$M7 +B +command ' '$TMP/list.out' && grep -qE '^$M3 +A +command ' '$TMP/list.out' && head -1 '$TMP/list.out' | grep -q '^MAC  *LAB  *DRIVER'"
# The last column: a machine with no job under way names the last that
# ended (it said "-" when that job made no run, as a cancelled one).
check "... M7's last job, $J7, cancelled, in its last column ($(grep "^$M7 " "$TMP/list.out" | tr -s ' '))" \
	grep -qE "^$M7 .* last: job $J7 cancelled(,|\$)" "$TMP/list.out"
"${XA[@]}" machine power $M7 status >/dev/null 2>"$TMP/m7a.err"
check "... and lab A's daemon refuses its power ($(cat "$TMP/m7a.err"))" grep -q "belongs to lab 'B'" "$TMP/m7a.err"
c=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PB/boot.ipxe?mac=$M7")
check "... while lab B's daemon boots it ($c)" test "$c" = 200
kill "$DPID_B"
wait "$DPID_B"
check "SIGTERM: clean shutdown (lab B beside A)" test $? = 0
check "SIGTERM: clean shutdown (lab A beside B)" stop_daemon
