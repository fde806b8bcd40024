#!/bin/bash
# timeout: 400
# Several labs, one history (issue 24): two daemons, labs A and B, on their
# own ports, both storing into one PostgreSQL database (a throwaway cluster,
# tests/lib/pg.sh). Each boots a small QEMU machine of its own (xcbench vm,
# direct boot) and collects its run. Then every daemon's API and the CLI list
# both runs, filter them by lab, and compare A's run with B's; a machine of
# lab A is not booted by lab B's daemon, and a daemon that restarts loads its
# own lab's runs only.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/net.sh"
. "$ROOT/tests/lib/pg.sh"
net_require "two labs on one PostgreSQL"
pg_test_db labs net_cleanup
DBURL=$(pg_url labs)

# Lab daemons take no loopback boots by default; these labs' machines are
# QEMU guests on user networking, whose boot requests come from 127.0.0.1.
net_daemon a PA --lab A --db "$DBURL" --boot-from 127.0.0.1/32
net_daemon b PB --lab B --db "$DBURL" --boot-from 127.0.0.1/32
ok "two daemons (labs A and B) on one database ($(pg_psql labs 'SELECT v FROM xcb_schema_version') migrations)"

SUITE=(kinds=xcall reps=2 iters=20)
# Lab A's machine is vm1 (52:54:00:78:63:01), lab B's vm5.
"$XCBENCH" --server "http://127.0.0.1:$PA" vm --boot direct --suite quick --label labs \
	--wait --timeout 180 --dir "$NET_DIR/vma" "${SUITE[@]}" >"$NET_DIR/vma.out" 2>&1 &
VA=$!
"$XCBENCH" --server "http://127.0.0.1:$PB" vm --boot direct --first 5 --suite quick --label labs \
	--wait --timeout 180 --dir "$NET_DIR/vmb" "${SUITE[@]}" >"$NET_DIR/vmb.out" 2>&1
RB=$?
wait "$VA"
RA=$?
sed 's/^/# A: /' "$NET_DIR/vma.out" | tail -3
sed 's/^/# B: /' "$NET_DIR/vmb.out" | tail -3
check "lab A's QEMU run completes (xcbench vm exit $RA)" test "$RA" = 0
check "lab B's QEMU run completes (xcbench vm exit $RB)" test "$RB" = 0
IA=$(grep -oE 'run [0-9]+ complete' "$NET_DIR/vma.out" | tail -1 | cut -d' ' -f2)
IB=$(grep -oE 'run [0-9]+ complete' "$NET_DIR/vmb.out" | tail -1 | cut -d' ' -f2)
check "run ids are global: A's run ${IA:-?} and B's run ${IB:-?} differ" test -n "$IA" -a -n "$IB" -a "${IA:-0}" != "${IB:-0}"
check "A's run ${IA:-?}: complete with every frame (read from daemon B)" run_complete_ok "$PB" "${IA:-0}"
check "B's run ${IB:-?}: complete with every frame (read from daemon A)" run_complete_ok "$PA" "${IB:-0}"

for d in PA PB; do
	p=${!d}
	got=$(api "$p" "/api/v1/runs?label=labs" | json "sorted((r['id'], r['lab']) for r in j['runs'])")
	check "daemon ${d#P} lists both labs' runs ($got)" test "$got" = "$(python3 -c "print(sorted([($IA, 'A'), ($IB, 'B')]))")"
	got=$(api "$p" "/api/v1/runs?lab=B" | json "[r['id'] for r in j['runs']]")
	check "daemon ${d#P}: ?lab=B lists B's run only ($got)" test "$got" = "[$IB]"
done
"$XCBENCH" --server "http://127.0.0.1:$PA" runs --lab B >"$NET_DIR/cli-b.out" 2>&1
sed 's/^/# /' "$NET_DIR/cli-b.out"
check "xcbench runs --lab B (on A's daemon): B's run, lab B" grep -qE "^$IB +.* B +labs\$" "$NET_DIR/cli-b.out"
check "... and not A's" bash -c "! grep -qE '^$IA ' '$NET_DIR/cli-b.out'"
"$XCBENCH" --server "http://127.0.0.1:$PA" runs --lab C >"$NET_DIR/cli-c.out" 2>&1
check "xcbench runs --lab C: unknown, the store's labs named ($(cat "$NET_DIR/cli-c.out"))" \
	grep -qx "xcbench runs: --lab: no lab 'C' in this store (its labs: A, B)" "$NET_DIR/cli-c.out"
"$XCBENCH" --server "http://127.0.0.1:$PA" runs >"$NET_DIR/cli-all.out" 2>&1
check "xcbench runs: both labs" bash -c "grep -qE '^$IA +.* A +labs\$' '$NET_DIR/cli-all.out' && grep -qE '^$IB +.* B +labs\$' '$NET_DIR/cli-all.out'"
for d in PA PB; do
	"$XCBENCH" --server "http://127.0.0.1:${!d}" compare "$IA" "$IB" >"$NET_DIR/cmp-$d.out" 2>&1
	rc=$?
	check "xcbench compare $IA $IB on daemon ${d#P}: exit 0 with matched cases" \
		test "$rc" = 0 -a "$(grep -c . "$NET_DIR/cmp-$d.out")" -gt 3
done
check "the compare reads the same on both daemons" cmp -s "$NET_DIR/cmp-PA.out" "$NET_DIR/cmp-PB.out"
check "... its A: and B: lines name each side's lab" \
	bash -c 'grep -qE "^A: .* lab A;" "$1" && grep -qE "^B: .* lab B;" "$1"' _ "$NET_DIR/cmp-PA.out"
sed 's/^/# /' "$NET_DIR/cmp-PA.out" | head -8

m=$(api "$PB" /api/v1/machines | json "sorted((m['mac'], m['lab']) for m in j['machines'])")
check "machines carry their lab ($m)" test "$m" = "[('52:54:00:78:63:01', 'A'), ('52:54:00:78:63:05', 'B')]"
code=$(curl -s -o "$NET_DIR/boot409" -w '%{http_code}' "http://127.0.0.1:$PB/boot.ipxe?mac=52:54:00:78:63:01")
check "lab B's daemon does not boot lab A's machine (409: $(cat "$NET_DIR/boot409"))" \
	bash -c "[ '$code' = 409 ] && grep -q \"lab 'A'\" '$NET_DIR/boot409'"
n=$(pg_psql labs "SELECT count(*) FROM runs WHERE machine_id = (SELECT id FROM machines WHERE mac = '52:54:00:78:63:01')")
check "... and wrote nothing (machine 01 has $n run)" test "$n" = 1

net_daemon_stop b
net_daemon b PB --lab B --db "$DBURL"
reg=$(grep -c . "$NET_DIR/b.daemon.log")
check "daemon B restarts on the shared database" test "$reg" -gt 0
got=$(api "$PB" /api/v1/health | json "(j['status'], j['lab'], j['runs']['complete'])")
check "its health: ok, lab B, both runs counted complete ($got)" test "$got" = "('ok', 'B', 2)"

# On PostgreSQL too: lab A's machine (vm1) boots on lab B's network. Its
# queued job says B's daemon refused it (the event is written by B's
# daemon into A's job), and B's daemon takes it (--take): lab B's now.
M1=52:54:00:78:63:01
X=("$XCBENCH" --server "http://127.0.0.1:$PA")
J=$("${X[@]}" queue --mac $M1 --suite quick | grep -oE 'job [0-9]+' | cut -d' ' -f2)
curl -s -o /dev/null "http://127.0.0.1:$PB/boot.ipxe?mac=$M1"
curl -s -o /dev/null "http://127.0.0.1:$PB/boot.ipxe?mac=$M1"
"${X[@]}" job show "$J" >"$NET_DIR/j.txt" 2>&1
check "job $J of lab A's vm1: one event, lab B's daemon refused its boot" \
	test "$(grep -c "the machine asked the daemon of lab 'B' for its boot script (from 127.0.0.1), which refused it: it belongs to lab 'A'" "$NET_DIR/j.txt")" = 1
"$XCBENCH" --server "http://127.0.0.1:$PB" machine set $M1 --power manual --take >"$NET_DIR/take.out" 2>&1
check "lab B's daemon takes vm1 ($(cat "$NET_DIR/take.out"))" test "$(cat "$NET_DIR/take.out")" = "$M1: power driver manual, in lab 'B'"
m=$(api "$PA" "/api/v1/machines/$M1" | json "j['machine']['lab']")
check "... vm1 is lab B's, read from lab A's daemon ($m)" test "$m" = B
code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PB/boot.ipxe?mac=$M1")
check "... and lab B's daemon boots it ($code)" test "$code" = 200
