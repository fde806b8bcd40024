#!/bin/bash
# tests/fuzz/run-one.sh TARGET SECONDS — shared body of tests/t-fuzz-*.sh:
# builds the fuzzers, replays every saved crash input of TARGET
# (tests/fuzz/regress/TARGET/), then fuzzes for SECONDS from the seed corpus
# (tests/fuzz/corpus/TARGET/, copied: the repository's seeds are not
# rewritten). A new crash input is saved under regress/ so the next run
# replays it, and the test fails. TAP lines on stdout.
. "$(dirname "$0")/../lib/tap.sh"
target=$1 secs=$2
FZ=$ROOT/tests/fuzz
bin=$FZ/build/fuzz_$target

if ! command -v clang >/dev/null; then
	skip "fuzz_$target" "clang not installed (tools/deps.sh)"
	exit 0
fi
T=$(mktemp -d "$OUTDIR/fuzz-$target.XXXXXX")
trap 'rm -rf "$T"' EXIT
export TMPDIR=$T   # the harness's temporary database goes here

# A job per CPU: on a clean clone the first fuzz test compiles the daemon's
# objects (shared with the other fuzzer, tests/fuzz/Makefile), one clang
# run each, before anything runs beside them.
if ! make -s -j"$(nproc 2>/dev/null || echo 1)" -C "$FZ" "build/fuzz_$target" >"$T/build.log" 2>&1; then
	sed 's/^/# /' "$T/build.log" | tail -30
	notok "fuzz_$target builds (clang -fsanitize=fuzzer,address,undefined)"
	exit 1
fi
ok "fuzz_$target builds (clang -fsanitize=fuzzer,address,undefined)"

opts=(-timeout=10 -rss_limit_mb=2048 -max_len=4096)
[ -f "$FZ/$target.dict" ] && opts+=(-dict="$FZ/$target.dict")

# 1. Every crash ever found stays fixed.
n=0 bad=0
for f in "$FZ/regress/$target"/*; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	if ! "$bin" "${opts[@]}" "$f" >"$T/replay.log" 2>&1; then
		bad=$((bad + 1))
		diag "regression input $(basename "$f") fails again:"
		grep -E 'ERROR|SUMMARY|Assertion|#[0-4] ' "$T/replay.log" | head -8 | sed 's/^/#   /'
	fi
done
check "fuzz_$target: $n saved crash inputs replay cleanly" [ "$bad" -eq 0 ]

# 2. The seeds alone (quick, deterministic).
seeds() { "$bin" "${opts[@]}" -runs=0 "$FZ/corpus/$target" >"$T/seeds.log" 2>&1; }
check "fuzz_$target: seed corpus runs cleanly" seeds

# 3. A short fuzzing run.
mkdir -p "$T/corpus" "$T/art"
cp "$FZ/corpus/$target"/* "$T/corpus/"
"$bin" "${opts[@]}" -max_total_time="$secs" -print_final_stats=1 \
	-artifact_prefix="$T/art/" "$T/corpus" >"$T/fuzz.log" 2>&1
rc=$?
grep -E '^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)' \
	"$T/fuzz.log" | sed 's/^/# /'
found=$(ls "$T/art" 2>/dev/null | head -5)
if [ "$rc" -ne 0 ] || [ -n "$found" ]; then
	mkdir -p "$FZ/regress/$target"
	for a in "$T"/art/*; do
		[ -f "$a" ] || continue
		cp "$a" "$FZ/regress/$target/"
		diag "saved $(basename "$a") to tests/fuzz/regress/$target/ (replayed from now on)"
	done
	grep -E 'ERROR|SUMMARY|Assertion|#[0-5] ' "$T/fuzz.log" | head -12 | sed 's/^/#   /'
	notok "fuzz_$target: ${secs}s of fuzzing without a crash (libFuzzer exit $rc)"
	exit 1
fi
ok "fuzz_$target: ${secs}s of fuzzing without a crash"
