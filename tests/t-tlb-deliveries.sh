#!/bin/bash
# t-tlb-deliveries.sh - seed 001's question on a booted payload: the flush
# lock's hold time with the all-but-self shorthand against one IPI per
# target. deliveries= given on the command line sets the delivery of the TLB
# shootdowns too (before, every TLB case ran at auto whatever it said), each
# case names the delivery it used, and every case's lock profile is the lock
# its shootdown took: the vector path's flush lock, or on the xcall path the
# algorithm's own (locked's call lock, which the flush lock's empty profile
# hid). Then `xcbench show` of the stored run prints each case's profile
# with its hold an acquisition (the thread's "average lock time"), counted
# over the timed shootdowns only (a repetition's acquisitions are its timed
# calls: not its 10 warm-up and 8+ no-flush control shootdowns), and
# `xcbench compare --row lock_hold` compares that figure, unicast against
# the shorthand, with a bootstrap interval over the 5 repetitions; each
# side's figure is the one show prints (the repetitions' median).
# timeout: 300
. "$(dirname "$0")/lib/tap.sh"

T=$(mktemp -d "$OUTDIR/tlb-deliveries.XXXXXX")
cleanup() { [ -n "${DPID:-}" ] && kill "$DPID" 2>/dev/null; wait 2>/dev/null; }
trap cleanup EXIT

need_payload

XCB_QEMU_TIMEOUT=240 qemu_direct "$T/boot.log" 4 \
	"suite=tlb kinds=tlb flush=vector,xcall algos=locked methods=invlpg batches=1 inits=1 masks=all deliveries=unicast,allbutself iters=30 reps=5"
rc=$?
check "the TLB run at -smp 4 exits 0 (qemu $rc)" test "$rc" -eq 1
frames_json "$T/boot.log" "$T/boot.json"
check "its frames decode" test $? -eq 0

# One line per case: path, algo, delivery, delivery used, the all-initiators
# row's lock acquisitions and hold cycles summed over the repetitions, and
# the repetitions whose acquisitions are not their timed calls (count).
python3 - "$T/boot.json" >"$T/cases.txt" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
acq, hold, off = {}, {}, {}
for x in r["results"]:
    if x["initiator"] == 0xffff:
        acq[x["case_id"]] = acq.get(x["case_id"], 0) + x["lock_acq"]
        hold[x["case_id"]] = hold.get(x["case_id"], 0) + x["lock_hold_cycles"]
        off.setdefault(x["case_id"], [])
        if x["lock_acq"] != x["count"]:
            off[x["case_id"]].append(f'rep{x["rep"]}:{x["lock_acq"]}/{x["count"]}')
for cid, c in sorted(r["cases"].items(), key=lambda kv: int(kv[0])):
    print(c["kind"], c["flush"], c["algo"], c["delivery"], c["x_delivery_used"],
          acq.get(int(cid), 0), hold.get(int(cid), 0), ",".join(off.get(int(cid), [])) or "-")
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
check "each repetition's acquisitions are its timed shootdowns (lock_acq = count: no warm-up, no control)" \
	test "$(awk '$8 != "-"' "$T/cases.txt" | wc -l)" -eq 0

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

# The thread's figure compared (README's line): each path's flush or call
# lock, its hold per acquisition, unicast -> the shorthand, with an interval.
"$XCBENCH" --server "$URL" compare "$ID" "$ID" --a-where delivery=unicast --b-where delivery=allbutself \
	--row lock_hold --json >"$T/lock.json" 2>"$T/lock.err"
check "compare --row lock_hold exits 0" test $? -eq 0
"$XCBENCH" --server "$URL" compare "$ID" "$ID" --a-where delivery=unicast --b-where delivery=allbutself \
	--row lock_hold >"$T/lock.out" 2>&1
sed -n '/% change of/,/CPUs in mask/p' "$T/lock.out" | sed 's/^/# /'
check "its tables are titled with the lock's hold, not the call time" \
	bash -c 'grep -q "% change of the median lock hold per acquisition (hold)" "$1" && ! grep -q "median call time" "$1"' \
	_ "$T/lock.out"
curl -sf "$URL/api/v1/compare.csv?a=$ID&b=$ID&a_where=delivery%3Dunicast&b_where=delivery%3Dallbutself&row=lock_hold" \
	>"$T/lock.csv"
check "compare.csv answers row=lock_hold" test $? -eq 0
# show's "lock hold per acquisition   the repetitions' median: X" per case
# (its own line under the lock profile)
awk '/^ +[0-9]+ /{ id = $1 } /lock hold per acquisition/ && match($0, /the repetitions. median: [0-9.]+/) {
	v = substr($0, RSTART, RLENGTH); sub(/.*: /, "", v); print id, v }' "$T/show.out" >"$T/show-hold.txt"
diag "show's hold per acquisition (case, median): $(paste -sd' ' "$T/show-hold.txt")"
python3 - "$T/lock.json" "$T/show-hold.txt" "$T/lock.csv" "$T/boot.json" <<'PY'
import csv, json, sys, statistics
from tap import ok
try:
    o = json.load(open(sys.argv[1]))
except ValueError:  # no answer (an old daemon's 400): every check below fails
    o = {}
show = {int(a): float(b) for a, b in (l.split() for l in open(sys.argv[2]) if l.strip())}
rows = list(csv.DictReader(open(sys.argv[3], newline="")))
boot = json.load(open(sys.argv[4]))
cs = o.get("cases", [])
ok(o.get("row") == "lock_hold", f"the answer names the row compared ({o.get('row')!r})")
ok(len(cs) == 2 and {c["key"].get("flush") for c in cs} == {"vector", "xcall"},
   f"both paths' cases are compared, unicast -> allbutself ({[c['key'].get('flush') for c in cs]})")
bad = [(c["a_case"], c["a_p50"], show.get(c["a_case"]), c["b_case"], c["b_p50"], show.get(c["b_case"])) for c in cs
       if show.get(c["a_case"]) != c["a_p50"] or show.get(c["b_case"]) != c["b_p50"]]
ok(cs and not bad, "each side's compared hold is the one show prints for its case" + (f" ({bad})" if bad else ""))
def med(case):  # the repetitions' hold per acquisition from the frames themselves
    v = [x["lock_hold_cycles"] / x["lock_acq"] for x in boot["results"]
         if x["case_id"] == case and x["initiator"] == 0xffff and x["lock_acq"]]
    return round(statistics.median(v), 1) if v else None
bad = [(c["a_case"], c["a_p50"], med(c["a_case"])) for c in cs if med(c["a_case"]) != c["a_p50"] or med(c["b_case"]) != c["b_p50"]]
ok(cs and not bad, "... the median of its repetitions' lock_hold_cycles / lock_acq" + (f" ({bad})" if bad else ""))
bad = [(c["a_case"], c["method"], c["ci_low"], c["ci_high"], c["a_reps"], c["b_reps"]) for c in cs
       if c["method"] != "bootstrap" or c["ci_low"] is None or c["ci_high"] is None or not c["ci_low"] <= c["change_pct"] <= c["ci_high"]]
ok(cs and not bad, "each carries a bootstrap interval around its change, over 5 repetitions a side" + (f" ({bad})" if bad else ""))
ok(cs and all(isinstance(c.get("significant"), bool) for c in cs), "each is marked (significant or not) as any row's case")
for c in cs:
    print(f"# {c['key'].get('flush')}: {c['a_p50']} -> {c['b_p50']} cycles, {c['change_pct']:+.2f} % "
          f"[{c['ci_low']:+.2f}, {c['ci_high']:+.2f}]{' *' if c['significant'] else ''}")
ok(len(rows) == 2 and sorted(float(r["a_p50"]) for r in rows) == sorted(c["a_p50"] for c in cs),
   f"compare.csv has the same 2 cases and figures ({[r.get('a_p50') for r in rows]})")
PY
