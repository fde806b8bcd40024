#!/bin/bash
# timeout: 600
# Every bench script once, on a tiny size (issue 24): each must exit 0 and
# print a figure, through bench/run-all's own check, so that none can rot
# unnoticed between two `make bench` runs (csv-export once exported 0 rows
# for months). The sizes are each script's own knobs, made small; the
# figures themselves are not judged here (a shared machine).
. "$(dirname "$0")/lib/tap.sh"
[ -x "$XCBENCHD" ] || { notok "host built"; exit 1; }
export BENCH_SENDERS=1 BENCH_RUNS=1 BENCH_REPS=1 BENCH_TRIALS=1 BENCH_MACHINES=5 \
	BENCH_CSV_ROWS="480 4800" BENCH_API_REQUESTS=5 BENCH_API_RUNS=20 BENCH_STORE_MACHINES=5 BENCH_SMP=2 BENCH_BIG_SMP=4 \
	BENCH_BIG_SKIP_LIMIT=1 BENCH_ITERS=5 BENCH_MASKS=1 BENCH_TIMEOUT=300
for s in "$ROOT"/bench/*.sh; do
	n=$(basename "$s" .sh)
	[ "$n" = lib ] && continue
	"$ROOT/bench/run-all" "$n.sh" >"$OUTDIR/bench-$n.out" 2>&1
	rc=$?
	grep 'FAILED' "$OUTDIR/bench-$n.out" | sed 's/^/# /'
	check "bench/$n.sh on a tiny size: exit 0 with a figure" test "$rc" = 0
done
