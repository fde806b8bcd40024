#!/bin/bash
# bench/tree-crossover.sh — where a two-level fan-out starts to pay: `tree`
# (G=8 leaders forward) against flat `lockless`, one initiator (CPU 0) ->
# 4, 8, 16, 32, 63 targets, wait=done, unicast delivery, at -smp 64 under
# TCG, both algorithms in ONE boot (their repetitions interleaved, so a
# loaded host moves both alike). Prints the median call time of each and
# tree's % change against lockless per mask, and the crossover (the first
# mask at which tree is faster). Every figure is from this one run.
#
#   BENCH_SMP=64 BENCH_ITERS=100 BENCH_REPS=3 bench/tree-crossover.sh
#
# Under TCG a vCPU is a host thread: with fewer host cores than vCPUs the
# absolute numbers are the emulator's, the ratio between the two algorithms
# in the same boot is the result.
. "$(dirname "$0")/lib.sh"
need "$XCB_ELF"
T=$(mktemp -d "$BOUT/tree-crossover.XXXXXX")
SMP=${BENCH_SMP:-64}
ITERS=${BENCH_ITERS:-100}
REPS=${BENCH_REPS:-3}
MASKS=${BENCH_MASKS:-4,8,16,32,63}
load0=$(cut -d' ' -f1-3 /proc/loadavg)
cl="suite=seed kinds=xcall algos=lockless,tree waits=done deliveries=unicast inits=1 masks=$MASKS"
cl="$cl overlap=disjoint placements=first work_us=0 iters=$ITERS reps=$REPS time_ms=0 warmup=10"
t0=$(date +%s)
timeout -k 5 "${BENCH_TIMEOUT:-1800}" qemu-system-x86_64 -accel tcg -M q35 -m 512 -smp "$SMP" -nographic \
	-no-reboot -bios /usr/share/qemu/qboot.rom -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
	-serial "file:$T/console.log" -monitor none -display none -kernel "$XCB_ELF" -append "$cl" \
	</dev/null >/dev/null 2>&1
rc=$?
secs=$(( $(date +%s) - t0 ))
python3 "$ROOT/tests/lib/engine_frames.py" "$T/console.log" --json >"$T/run.json" 2>"$T/run.err"
$PY - "$T/run.json" "$SMP" "$rc" "$secs" "$load0" "$(cut -d' ' -f1-3 /proc/loadavg)" <<'PY'
import json, statistics, sys
path, smp, rc, secs, load0, load1 = sys.argv[1:]
try:
    run = json.load(open(path))
except Exception as e:
    print(f"(no run: qemu status {rc}, {e})"); sys.exit(0)
cases = {int(k): v for k, v in run["cases"].items() if v.get("kind") == "xcall"}
p50 = {}
for r in run["results"]:
    c = cases.get(r["case_id"])
    if c and r["initiator"] == 0xffff and r["p50"] > 0:
        p50.setdefault((c["algo"], int(c["mask"])), []).append(r["p50"])
khz = int(run["hello"].get("tsc_khz", "0") or 0)
ns = lambda cyc: f"{cyc * 1e6 / khz:,.0f}" if khz else "?"
print(f"### tree vs lockless, 1 initiator, wait=done, unicast, -smp {smp} TCG "
      f"({secs} s boot, qemu status {rc}; load average {load0} at start, {load1} at end)")
print()
print("| CPUs in mask | lockless p50 ns | tree p50 ns | tree vs lockless |")
print("|---:|---:|---:|---:|")
faster = {}
for m in sorted({m for (_, m) in p50}):
    l, t = p50.get(("lockless", m)), p50.get(("tree", m))
    if not l or not t:
        print(f"| {m} | {'-' if not l else ns(statistics.median(l))} | {'-' if not t else ns(statistics.median(t))} | - |")
        continue
    lm, tm = statistics.median(l), statistics.median(t)
    pct = (tm - lm) * 100.0 / lm
    faster[m] = tm < lm
    print(f"| {m} | {ns(lm)} | {ns(tm)} | {pct:+.1f} % |")
print()
# The crossover: the smallest mask from which tree is faster at every
# larger mask measured (a lone faster mask amid slower ones is noise).
ms = sorted(faster)
cross = next((m for i, m in enumerate(ms) if all(faster[k] for k in ms[i:])), None)
wins = [m for m in ms if faster[m]]
print("Crossover: " + (f"tree is faster from {cross} target{'' if cross == 1 else 's'} on." if cross else
      "none: tree is not faster at every mask from any point on" +
      (f" (faster at {', '.join(map(str, wins))} only)." if wins else " (slower at every mask).")))
print(f"(medians over {len(next(iter(p50.values()), []))} repetitions of each case, interleaved in one boot)")
PY
