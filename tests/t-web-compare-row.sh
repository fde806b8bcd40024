#!/bin/bash
# t-web-compare-row.sh — the dashboard's compare page compares seed 002's
# figures, not only the readers' wait per read: compare.html?...&row=NAME
# asks the API for that row (GET /api/v1/compare's row=), offers a chooser
# of the rows (sync cases) and a row field in the picker (before any run
# is chosen; the schema's rows, a row it adds too), names the measure in the table's title with the
# CLI's words (served once: GET /api/v1/schema's pseudo_rows), keeps the row
# in its swap and CSV links, and shows the API's 400 for an unknown row. The
# run is the stored real -smp 4 suite=ept boot (tests/fixtures, as
# t-compare-sync-row), compared inside -> after; every figure the page shows
# is checked against the API's and every title against `xcbench compare
# --row`'s; the run page's sync table heads its figures with the same
# served words. The chooser offers lock_hold too (the schema's lock_row:
# seed 001's lock hold per acquisition, which a sync case's rw-lock has),
# and then the table of every matched case heads its figures "a hold",
# "b hold" (the schema's figure, compare's "A hold ns"), not "a p50".
# Its summary says what marks a case: the answer's star_text, the line
# compare's seed and text forms print (Welch's t over repetitions for p).
# The chooser shows for cross-call and TLB cases as well (they may hold a
# lock), not for raw floors alone. And two runs of other TLB shootdown
# paths (hand-made frames; Q's mine_path is the path the guide adds,
# t-add-flush-path) compared path against path: the head, the table title
# and every matched case name the paths (the case table named none, and
# headed two columns "method"), nothing reads undefined or NaN, and the CSV
# link downloads the API's CSV with the paths as algo_a/algo_b; the row
# chooser's all row reads the schema's call_row (call time) for those TLB
# cases, the sync rows' readers' wait per read for the ept boot's; where no
# case is known yet (no run chosen, nothing matched, another run picked in
# the picker) it is neutral: each case's own figure, every kind's named.
# Those TLB runs by row=writer_hold match nothing: the page says the row is
# of sync cases only, which they lack (not "compare runs of the same
# suite"), and links the comparison by all.
# A run that is not stored (a=999999): the picker shows it as missing, not
# the first run listed, and Compare refuses until a real run is picked.
# Screenshots: tests/out/web-compare-row.png, web-compare-paths.png.
# timeout: 180
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
. "$(dirname "$0")/lib/browser.sh"
browser_require "compare page row= browser tests" "$XCBENCHD" "$XCBENCH"
browser_traps

admin_daemon webrow-admin --web "$ROOT/web"
gzip -dc "$ROOT/tests/fixtures/sync-ept-smp4.serial.log.gz" >"$TMP/ept.log"
MAC=52:54:00:0e:02:01 # its machine page shows its trend
timeout 60 "$XCBENCH" --server "$URL" --token-file "$TMP/token" ingest "$TMP/ept.log" --mac "$MAC" --timeout 30 >"$TMP/ingest.out" 2>&1
check "the stored suite=ept boot is ingested" test $? -eq 0
ID=$(pyjson "$URL/api/v1/runs" '[r["id"] for r in d["runs"] if r["suite"] == "ept"][0]')

# Two runs of other TLB shootdown paths (UDP frames, tests/web/frames.py,
# shaped as the payload emits them: a path's algo is its name), compared
# path against path: P of vector and early_ack_reader, Q (0.8x) of
# consolidated and mine_path, the path docs/ADDING-AN-ALGORITHM.md step 6
# adds (t-add-flush-path; the daemon stores a path by its name).
paths_run() { # TOKEN LABEL FACTOR PATH,PATH
	curl -sf -X POST "${ADMIN[@]}" -d "{\"token\":\"$1\",\"suite\":\"tlb\",\"label\":\"$2\"}" \
		"$URL/api/v1/runs" >/dev/null &&
	PYTHONPATH=$ROOT/tests/web:$PYTHONPATH python3 - "127.0.0.1:$PORT" "$1" "$3" "$4" <<'PY'
import struct, sys
import frames
token, factor, paths = int(sys.argv[2], 16), float(sys.argv[3]), sys.argv[4].split(',')
r = frames.Run(token)
r.text(frames.HELLO, 'fw=t-web-compare-row\ncpus=4\ntsc_khz=2000000\ntransport=udp\nsuite=tlb\n')
cid = 0
for flush in paths:
    for mask in (1, 2):
        for inits in (1, 2):
            cid += 1
            r.text(frames.CASE, f'id={cid}\nkind=tlb\nalgo={flush}\ndelivery=auto\nwait=done\ninits={inits}\n'
                   f'mask={mask}\nplacement=first\noverlap=disjoint\nwork_us=0\nflush={flush}\nmethod=invlpg\n'
                   'batch=1\npages=1\niters=100\nreps=5\n')
            for rep in range(5):
                r.result(cid, rep, frames.ALL, int((10000 + 1000 * mask + 500 * inits + 10 * rep) * factor))
r.frame(frames.DONE, struct.pack('<II', len(r.frames), 0))
frames.send(sys.argv[1], r.frames, 0, len(r.frames))
PY
}
paths_run 00000000000f1a51 paths-p 1.0 vector,early_ack_reader && paths_run 00000000000f1a52 paths-q 0.8 consolidated,mine_path
check "two runs of other shootdown paths are sent" test $? -eq 0
PATHS=$(pyjson "$URL/api/v1/runs" '",".join(str(r["id"]) for l in ("paths-p", "paths-q") for r in d["runs"] if r["label"] == l and r["status"] == "complete")')
check "... and complete ($PATHS)" test "$(tr , '\n' <<<"$PATHS" | wc -l)" = 2

# The CLI's title measure for a row: what "% change of MEASURE (p50), ..." names.
cli_measure() {
	"$XCBENCH" --server "$URL" compare "$ID" "$ID" --algo-a inside --algo-b after "$@" 2>&1 |
		sed -n 's/^% change of \(.*\) (p50), .*/\1/p' | head -1
}
HOLD=$(cli_measure --row writer_hold)
ALL=$(cli_measure)
check "the CLI names both measures ('$HOLD'; '$ALL')" test -n "$HOLD" -a -n "$ALL"

export XCB_BASE=$URL/ XCB_OUT=$OUTDIR XCB_RUN=$ID XCB_MAC=$MAC XCB_CLI_HOLD=$HOLD XCB_CLI_ALL=$ALL XCB_PATHS=$PATHS
run_driver compare-row.mjs
