#!/bin/bash
# t-web-floor.sh — issue 21: the run page's floor over time, in headless Chromium
# against a real xcbenchd. One short TCG boot (-smp 2: raw ipi, lockless 1->1
# done, 6 repetitions) is ingested; the page's "floor" chart must draw one point
# per repetition in run order with the API's rep_floor_paired / rep_ipi_floor /
# rep_p50 converted to ns, name its axes with units, and a run without paired
# floors (the aa fixture's boot, recorded before them) draws only the floor
# before each repetition and says why. A run of floors within one decade
# (hand-made frames) has every y tick labelled, and the titles name the
# ticks' unit, not "(ns)" above µs. Screenshot: tests/out/web-floor.png.
# timeout: 240
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
. "$(dirname "$0")/lib/browser.sh"

browser_require "run page floor chart" "$XCBENCHD" "$XCBENCH"
browser_traps
need_payload

TMP=$(mktemp -d "$OUTDIR/web-floor.XXXXXX")
XCB_QEMU_TIMEOUT=120 qemu_direct "$TMP/boot.log" 2 \
	"suite=quick kinds=raw,xcall algos=lockless waits=done inits=1 masks=1 work_us=0 reps=6 iters=200 transport=serial deliveries=unicast"
admin_daemon floor-admin --web "$ROOT/web"
"$XCBENCH" --server "$URL" --token-file "$TMP/token" ingest "$TMP/boot.log" >/dev/null 2>"$TMP/ing.err" ||
	sed 's/^/# /' "$TMP/ing.err"
zcat "$ROOT/tests/fixtures/aa/boot1.serial.log.gz" >"$TMP/old.log"
"$XCBENCH" --server "$URL" --token-file "$TMP/token" ingest "$TMP/old.log" >/dev/null 2>"$TMP/ing2.err" ||
	sed 's/^/# /' "$TMP/ing2.err"
mapfile -t ID < <(pyjson "$URL/api/v1/runs" '"\n".join(str(r["id"]) for r in sorted(d["runs"], key=lambda r: r["id"]))')
check "both captures ingested (${ID[*]})" [ "${#ID[@]}" = 2 ]

# A run whose floors and calls span less than a decade (7115.5 to 7150 ns:
# one lockless case, two repetitions; UDP frames, tests/web/frames.py): on
# its log axis every tick fell between the 1-2-5 steps and had no label.
TINY_TOK=00000000000f100d
curl -sf -X POST "${ADMIN[@]}" -d "{\"token\":\"$TINY_TOK\",\"suite\":\"quick\",\"label\":\"tiny-floor\"}" \
	"$URL/api/v1/runs" >/dev/null &&
	PYTHONPATH=$ROOT/tests/web:$PYTHONPATH python3 - "127.0.0.1:$PORT" "$TINY_TOK" <<'PY'
import struct, sys
import frames
r = frames.Run(int(sys.argv[2], 16))
r.text(frames.HELLO, 'fw=t-web-floor\ncpus=2\ntsc_khz=2000000\ntransport=udp\nsuite=quick\n')
r.text(frames.CASE, 'id=1\nkind=xcall\nalgo=lockless\ndelivery=unicast\nwait=done\ninits=1\nmask=1\n'
       'placement=first\noverlap=disjoint\nwork_us=0\niters=100\nreps=2\n')
for rep, (p50, before, paired) in enumerate(((14260, 14240, 14231), (14280, 14290, 14300))):
    r.result(1, rep, frames.ALL, p50, floors=(before, paired))
    r.histo(1, rep, p50)  # as a payload's: the page's histogram finds one
r.frame(frames.DONE, struct.pack('<II', len(r.frames), 0))
frames.send(sys.argv[1], r.frames, 0, len(r.frames))
PY
TINY=$(pyjson "$URL/api/v1/runs" '",".join(str(r["id"]) for r in d["runs"] if r["label"] == "tiny-floor" and r["status"] == "complete")')
check "a run of floors within one decade is stored ($TINY)" test -n "$TINY"

export XCB_BASE=$URL/ XCB_OUT=$OUTDIR XCB_RUN=${ID[0]} XCB_OLD=${ID[1]} XCB_TINY=$TINY
run_driver floor.mjs
