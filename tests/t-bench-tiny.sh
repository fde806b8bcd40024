#!/bin/bash
# timeout: 600
# Every bench script once, on a tiny size (issue 24): each must exit 0 and
# print a figure, through bench/run-all's own check, so that none can rot
# unnoticed between two `make bench` runs (csv-export once exported 0 rows
# for months). The sizes are each script's own knobs, made small; the
# figures themselves are not judged here (a shared machine). A script that
# prints a Python traceback fails too, even beside a table (floor-boots
# once printed one per boot after a helper moved). Each run writes its
# results file (BENCH_RESULTS), which must keep bench/HISTORY.md and
# bench/LIMITS.md after the table.
. "$(dirname "$0")/lib/tap.sh"
[ -x "$XCBENCHD" ] || { notok "host built"; exit 1; }
export BENCH_SENDERS=1 BENCH_RUNS=1 BENCH_REPS=1 BENCH_TRIALS=1 BENCH_MACHINES=5 \
	BENCH_CSV_ROWS="480 4800" PG_SHARED_BUFFERS=32MB BENCH_API_REQUESTS=5 BENCH_API_RUNS=20 BENCH_STORE_MACHINES=5 BENCH_SMP=2 BENCH_BIG_SMP=4 \
	BENCH_BIG_SKIP_LIMIT=1 BENCH_ITERS=5 BENCH_MASKS=1 BENCH_TIMEOUT=300
T=$(mktemp -d "$OUTDIR/t-bench-tiny.XXXXXX")
trap 'rm -rf "$T"' EXIT
cat "$ROOT/bench/HISTORY.md" "$ROOT/bench/LIMITS.md" >"$T/static.md"

# results_keep_static FILE: FILE ends with HISTORY.md and LIMITS.md byte for
# byte, and what comes before them has a table row with a number.
results_keep_static() {
	local n size
	n=$(wc -c <"$T/static.md") size=$(wc -c <"$1") || return 1
	[ "$size" -gt "$n" ] &&
		tail -c "$n" "$1" | cmp -s - "$T/static.md" &&
		head -c $((size - n)) "$1" | grep -qE '^\|[^|]*\|.*[0-9]'
}
for s in "$ROOT"/bench/*.sh; do
	n=$(basename "$s" .sh)
	[ "$n" = lib ] && continue
	# "/NAME.sh": this script alone (ingest.sh is also in store-ingest.sh)
	BENCH_RESULTS="$T/results-$n.md" "$ROOT/bench/run-all" "/$n.sh" >"$OUTDIR/bench-$n.out" 2>&1
	rc=$?
	grep 'FAILED' "$OUTDIR/bench-$n.out" | sed 's/^/# /'
	# run-all fails a script that exits non-zero, prints no table row or
	# prints a traceback; and it must have run it (its list is bench/*.sh)
	check "bench/$n.sh on a tiny size: run, exit 0, a figure, no traceback" \
		eval "[ $rc = 0 ] && grep -q '^== bench/$n.sh' '$OUTDIR/bench-$n.out' && ! grep -q '^Traceback ' '$OUTDIR/bench-$n.out'"
	# The results file: this script's table, then the static files as
	# they are (hand-measured rounds once lived in RESULTS.md alone, and
	# the next make bench dropped them).
	check "bench/$n.sh: its results file has its table, then bench/HISTORY.md and bench/LIMITS.md unchanged" \
		results_keep_static "$T/results-$n.md"
done
