#!/bin/bash
# t-web-history.sh — issue 25's pages in headless Chromium against a real
# xcbenchd: the machine page (facts over time, runs, the trend chart of a
# case's p50 across the machine's runs, labels on the points, no two of
# its texts overlapping at 1366 and 640 px) and the
# compare page's honesty (a single pair shows the within-boot warning; a
# group does not, names both groups and calibrates on a button). The runs
# are the six real boots of tests/fixtures/aa, ingested as captures of one
# machine (xcbench ingest --mac) and labelled through PATCH. Every check
# compares what the page drew with the API. Screenshots:
# tests/out/web-machine.png, web-compare-pair.png, web-compare-groups.png,
# web-compare-export.png (the self-contained HTML export, opened from disk).
# timeout: 240
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
. "$(dirname "$0")/lib/browser.sh"
browser_require "machine page browser tests" "$XCBENCHD" "$XCBENCH"

browser_traps

admin_daemon history-admin --web "$ROOT/web"
MAC=52:54:00:25:00:01
for i in 1 2 3 4 5 6; do
	zcat "$ROOT/tests/fixtures/aa/boot$i.serial.log.gz" >"$TMP/boot$i.log"
	"$XCBENCH" --server "$URL" --token-file "$TMP/token" ingest --mac $MAC "$TMP/boot$i.log" >/dev/null 2>"$TMP/ing.err" ||
		sed 's/^/# /' "$TMP/ing.err"
done
MID=$(pyjson "$URL/api/v1/machines" '[m["id"] for m in d["machines"] if m["mac"] == "'$MAC'"][0]')
n=$(pyjson "$URL/api/v1/runs?machine=$MID" 'len(d["runs"])')
check "ingest --mac: the six boots are runs of machine $MAC ($n)" [ "$n" = 6 ]
mapfile -t ID < <(pyjson "$URL/api/v1/runs?machine=$MID" '"\n".join(str(r["id"]) for r in sorted(d["runs"], key=lambda r: r["id"]))')
for k in 0 1 2 3 4 5; do
	curl -sf -X PATCH "${ADMIN[@]}" -d "{\"label\":\"boot $((k + 1))\"}" "$URL/api/v1/runs/${ID[$k]}" >/dev/null
done

# Baselines: the first three boots become the machine + suite's baseline.
X=("$XCBENCH" --server "$URL" --token-file "$TMP/token")
"${X[@]}" baseline "${ID[0]},${ID[1]},${ID[2]}" >"$TMP/bl.txt" 2>&1
check "xcbench baseline marks three boots ($(head -1 "$TMP/bl.txt"))" grep -q "suite seed: runs ${ID[0]},${ID[1]},${ID[2]}" "$TMP/bl.txt"
"${X[@]}" check --baseline stored "${ID[3]},${ID[4]},${ID[5]}" >"$TMP/chk.txt" 2>&1
rc=$?
check "check --baseline stored: the other three boots against it, exit 0 ($rc)" [ "$rc" = 0 ]
"${X[@]}" compare --baseline stored "${ID[3]}" --format text >"$TMP/cmp.txt" 2>&1
check "compare --baseline stored names the stored runs as A" grep -q "^A: runs ${ID[0]}, ${ID[1]}, ${ID[2]} (3 boots)" "$TMP/cmp.txt"
"${X[@]}" check --baseline last:3 "${ID[3]},${ID[4]},${ID[5]}" --format text >"$TMP/last.txt" 2>&1
rc=$?
check "check --baseline last:3: the three boots before B of its machine + suite, exit 0 ($rc)" \
	bash -c "[ $rc = 0 ] && grep -q '^summary: 0 of 24 matched cases changed' '$TMP/last.txt'"
"${X[@]}" compare --baseline last:3 "${ID[3]}" --format text >"$TMP/last2.txt" 2>&1
check "compare --baseline last:3 names them as A" grep -q "^A: runs ${ID[0]}, ${ID[1]}, ${ID[2]} (3 boots)" "$TMP/last2.txt"
# A side by label or tag: the first three boots tagged "base", the others "patch".
for k in 0 1 2; do "${X[@]}" label "${ID[$k]}" --tag base >/dev/null; done
for k in 3 4 5; do "${X[@]}" label "${ID[$k]}" --tag patch >/dev/null; done
"${X[@]}" compare label:base label:patch --format text >"$TMP/lab.txt" 2>&1
check "compare label:base label:patch: the tagged groups, 3 boots a side" \
	bash -c "grep -q '^A: runs ${ID[0]}, ${ID[1]}, ${ID[2]} (3 boots)' '$TMP/lab.txt' && grep -q '^B: runs ${ID[3]}, ${ID[4]}, ${ID[5]} (3 boots)' '$TMP/lab.txt'"
c=$(curl -s -o /dev/null -w '%{http_code}' "$URL/api/v1/compare?a=label:nosuch&b=${ID[0]}")
check "a label no run has: 404 ($c)" [ "$c" = 404 ]
"${X[@]}" baseline "${ID[0]},999" >/dev/null 2>"$TMP/bl2.err"
check "a baseline of a missing run is refused, naming it" grep -q "run 999 not found" "$TMP/bl2.err"
c=$(curl -s -o /dev/null -w '%{http_code}' "$URL/api/v1/compare?a=baseline&b=999")
check "compare?a=baseline of an unknown run: 404 ($c)" [ "$c" = 404 ]

# The self-contained HTML export of the planted comparison.
"${X[@]}" compare --baseline "${ID[0]},${ID[1]},${ID[2]}" "${ID[0]},${ID[1]},${ID[2]}" --a-where work_us=0 --b-where work_us=5 \
	--html "$OUTDIR/compare-export.html" >/dev/null 2>&1
check "compare --html writes one file" [ -s "$OUTDIR/compare-export.html" ]
check "... that needs no other file (no src=, no link, no script)" \
	bash -c "! grep -qiE '<script|<link|src=|url\\(' '$OUTDIR/compare-export.html'"

export XCB_HTML=$OUTDIR/compare-export.html
export XCB_TOKEN=history-admin XCB_BASE=$URL/ XCB_OUT=$OUTDIR XCB_MACHINE=$MID XCB_RUNS="${ID[*]}"
run_driver history.mjs
