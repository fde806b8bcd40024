#!/bin/bash
# t-console-p99.sh - the payload's console says of each case what the store
# says: its "p99" (the case line and the table's p99cyc column) is the median
# of the repetitions' all-initiators p99, as its p50 is of their p50 and as
# xcbench show's P99_CYC is. It printed the largest rep's p99 under a struct
# that called it the median: 4243455 cycles on the console beside show's
# 273407 for a TLB case with one rep behind a descheduled vCPU. A real boot
# (xcall, tlb and sync cases, 5 reps each); the check compares with the
# RESULT frames of the same boot, so no figure or timing is assumed.
# Cases of locked at 1 and 2 initiators (wait=done): xcall, a shootdown
# through xcall/locked (flush=xcall) as a tlb case, and sync inside and
# after. The console line is printed alike for every kind and path; the
# boot once said paths=xcall, a key the payload ignores, and so ran all five
# flush paths: ten sync cases, nearly all of the test's 72 s.
# And its "jain" is the API's fairness.jain (xcbench show's, the run page's)
# for every case of 2 initiators, the boot ingested into a daemon: the
# console gave Jain's index of the throughput in the shared window and the
# daemon of each initiator's own span, 0.837 beside 0.957 under one word.
# timeout: 300
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "console figures"

T=$(mktemp -d "$OUTDIR/console-p99.XXXXXX")
need_payload

XCB_QEMU_TIMEOUT=240 qemu_direct "$T/console.log" 4 \
	"suite=quick kinds=xcall,tlb,sync algos=locked waits=done inits=1,2 deliveries=auto masks=all batches=1 methods=invlpg flush=xcall modes=inside,after writer=0 readers=0 reps=5 iters=20 warmup=2"
rc=$?
check "the boot exits 0 (qemu status $rc)" test "$rc" -eq 1
check "serial frames decode" frames_json "$T/console.log" "$T/run.json"
admin_daemon console-admin
"$XCBENCH" --server "$URL" --token-file "$TMP/token" ingest "$T/console.log" >/dev/null 2>"$T/ingest.err" ||
	sed 's/^/# /' "$T/ingest.err"
curl -s "$URL/api/v1/runs/$(pyjson "$URL/api/v1/runs" 'd["runs"][0]["id"]')" >"$T/api.json"

python3 - "$T/console.log" "$T/run.json" "$T/api.json" <<'PY'
import json, re, statistics, sys
from tap import ok
lines = open(sys.argv[1], errors="replace").read().splitlines()
run = json.load(open(sys.argv[2]))
api = {c["case_id"]: c for c in json.load(open(sys.argv[3]))["cases"]}
reps = {}
for r in run["results"]:
    if r["initiator"] == 0xffff and r["rep"] != 0xffff:
        reps.setdefault(r["case_id"], []).append(r)
def median(v):  # the payload's median_of (runner.c): the upper middle of an even count
    return sorted(v)[len(v) // 2]
said = {int(m.group(1)): (int(m.group(2)), int(m.group(3))) for m in
        (re.match(r"case (\d+)/\d+ .*: p50 (\d+) cyc .* p99 (\d+) ", l) for l in lines) if m}
table = {int(m.group(1)): int(m.group(2)) for m in
         (re.match(r"\s*(\d+) (?:xcall|tlb|sync)\s.*?\s(\d+)\s+(?:\d+\.\d+|-)\s+\d+\s+\d+\s+\d+\s+\d+", l) for l in lines) if m}
cases = {int(k): v for k, v in run["cases"].items()}
kinds = {cases[c]["kind"] for c in said if c in cases}
ok(len(said) >= 6 and {"xcall", "tlb", "sync"} <= kinds, f"case lines for every kind ({len(said)}, {sorted(kinds)})")
ok(all(len(reps.get(c, [])) == 5 for c in said), "5 repetitions' RESULT rows per case")
bad = [(c, p50, median([r["p50"] for r in reps[c]])) for c, (p50, _) in said.items()
       if p50 != median([r["p50"] for r in reps[c]])]
ok(not bad, "the case line's p50 is the median of the reps' p50 (how the check reads them)" + (f" {bad[:3]}" if bad else ""))
bad = [(c, p99, median([r["p99"] for r in reps[c]]), max(r["p99"] for r in reps[c])) for c, (_, p99) in said.items()
       if p99 != median([r["p99"] for r in reps[c]])]
ok(not bad, "the case line's p99 is the median of the reps' p99, not their largest" + (f" (case, said, median, max): {bad[:3]}" if bad else ""))
bad = [(c, v, said[c][1]) for c, v in table.items() if c in said and v != said[c][1]]
ok(table and not bad, f"the table's p99cyc says the same ({len(table)} rows)" + (f" {bad[:3]}" if bad else ""))
# Jain's index of the throughput in the shared window, summed over the
# repetitions (README "Fairness"), from this boot's RESULT frames: the
# console and the API each give it to 3 decimals (either may round the
# other way where it sits on a half, so each is held to half a unit of the
# last place, not to the other). The old pair differed by 0.120, and a
# console counting per 2^32 cycles by 0.001 under TCG.
def window_jain(c):
    acc = {}
    for r in run["results"]:
        if r["case_id"] == c and r["initiator"] < 0xff00 and r["rep"] != 0xffff:
            a = acc.setdefault(r["initiator"], [0, 0])
            a[0] += r.get("window_calls", 0)
            a[1] += r.get("window_cycles", 0)
    x = [k / n for k, n in acc.values() if n]
    return sum(x) ** 2 / (len(x) * sum(v * v for v in x)) if len(x) == len(acc) > 1 else None
jain = {int(m.group(1)): m.group(2) for m in
        (re.match(r"case (\d+)/\d+ .* jain (\S+) stale ", l) for l in lines) if m}
two = [c for c in said if api.get(c, {}).get("inits") == 2 and api[c]["kind"] != "sync"]
ok(len(two) >= 2, f"cases of 2 initiators on the console ({len(two)})")
fair = lambda c: api.get(c, {}).get("fairness") or {}
rows = [(c, jain.get(c), fair(c).get("jain"), fair(c).get("jain_of"), window_jain(c)) for c in two]
near = lambda v, x: v is not None and x is not None and abs(v - x) <= 0.000501
bad = [r for r in rows if r[1] in (None, "-") or not near(float(r[1]), r[4]) or not near(r[2], r[4])
       or r[3] != "throughput"]
ok(not bad, "the console's jain and the API's fairness.jain are one figure, Jain's index of the throughput "
   + f"in the shared window, for every 2-initiator case: (case, console, API, jain_of, from the frames) "
   + f"{bad[:3] if bad else rows[:2]}")
PY
