#!/bin/bash
# t-tlb-deliveries.sh - seed 001's question on a booted payload: the flush
# lock's hold time with the all-but-self shorthand against one IPI per
# target. deliveries= given on the command line sets the delivery of the TLB
# shootdowns too (before, every TLB case ran at auto whatever it said), each
# case names the delivery it used, and every case's lock profile is the lock
# its shootdown took: the vector path's flush lock, or on the xcall path the
# algorithm's own (locked's call lock, which the flush lock's empty profile
# hid). Then `xcbench show` of the stored run prints each case's profile
# with its hold an acquisition (the thread's "average lock time").
# timeout: 300
. "$(dirname "$0")/lib/tap.sh"

T=$(mktemp -d "$OUTDIR/tlb-deliveries.XXXXXX")
cleanup() { [ -n "${DPID:-}" ] && kill "$DPID" 2>/dev/null; wait 2>/dev/null; }
trap cleanup EXIT

need_payload

XCB_QEMU_TIMEOUT=240 qemu_direct "$T/boot.log" 4 \
	"suite=tlb kinds=tlb flush=vector,xcall algos=locked methods=invlpg batches=1 inits=1 masks=all deliveries=unicast,allbutself iters=30 reps=2"
rc=$?
check "the TLB run at -smp 4 exits 0 (qemu $rc)" test "$rc" -eq 1
frames_json "$T/boot.log" "$T/boot.json"
check "its frames decode" test $? -eq 0

# One line per case: path, algo, delivery, delivery used, the all-initiators
# row's lock acquisitions and hold cycles summed over the repetitions.
python3 - "$T/boot.json" >"$T/cases.txt" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
acq, hold = {}, {}
for x in r["results"]:
    if x["initiator"] == 0xffff:
        acq[x["case_id"]] = acq.get(x["case_id"], 0) + x["lock_acq"]
        hold[x["case_id"]] = hold.get(x["case_id"], 0) + x["lock_hold_cycles"]
for cid, c in sorted(r["cases"].items(), key=lambda kv: int(kv[0])):
    print(c["kind"], c["flush"], c["algo"], c["delivery"], c["x_delivery_used"],
          acq.get(int(cid), 0), hold.get(int(cid), 0))
PY
diag "$(cat "$T/cases.txt")"
check "four TLB cases: two paths x two deliveries" test "$(wc -l <"$T/cases.txt")" -eq 4
check "the deliveries are the ones asked for, not auto" \
	test "$(awk '{ print $4 }' "$T/cases.txt" | sort -u | paste -sd,)" = "allbutself,unicast"
check "each case used the delivery it names (the shorthand: every other CPU)" \
	test "$(awk '$4 != $5' "$T/cases.txt" | wc -l)" -eq 0
check "the vector path's cases profile the flush lock" \
	test "$(awk '$2 == "vector" && $6 > 0 && $7 > 0' "$T/cases.txt" | wc -l)" -eq 2
check "the xcall path's cases profile locked's call lock" \
	test "$(awk '$2 == "xcall" && $3 == "locked" && $6 > 0 && $7 > 0' "$T/cases.txt" | wc -l)" -eq 2

# The reviewer's view of the same run.
PORT=$(free_port)
URL="http://127.0.0.1:$PORT"
xcbd_start "$T/xcbenchd.log" "$PORT" --db "$T/x.db" --open
DPID=$XCBD_PID
timeout 60 "$XCBENCH" --server "$URL" ingest "$T/boot.log" --timeout 30 >"$T/ingest.out" 2>&1
check "xcbench ingest stores the run" test $? -eq 0
ID=$(curl -sf "$URL/api/v1/runs" | python3 -c 'import json,sys; print(json.load(sys.stdin)["runs"][0]["id"])')
"$XCBENCH" --server "$URL" show "$ID" >"$T/show.out" 2>&1
check "xcbench show answers" test $? -eq 0
check "show prints a lock profile under each of the four cases" \
	test "$(grep -c 'lock profile' "$T/show.out")" -eq 4
check "show gives the hold an acquisition (the thread's average lock time)" \
	test "$(grep -cE 'lock profile .*an acquisition: hold [1-9][0-9]*, wait' "$T/show.out")" -eq 4
check "show names both deliveries" \
	bash -c 'grep -q " unicast " "$1" && grep -q " allbutself " "$1"' _ "$T/show.out"
"$XCBENCH" --server "$URL" compare "$ID" "$ID" --a-where delivery=unicast --b-where delivery=allbutself \
	>"$T/compare.out" 2>&1
check "compare pairs each path's unicast case with its shorthand one (README's line)" \
	grep -q ' of 2 matched cases' "$T/compare.out"
