#!/bin/bash
# t-add-algorithm.sh — adding a cross-call algorithm the way a user would,
# following docs/ADDING-AN-ALGORITHM.md step by step (the step numbers below
# are the guide's; its commands are read out of the guide by
# tests/lib/guide.py and run as written), in a temporary copy of the tree:
#   1. copy the template (xcall/lockless.c) to xcall/NAME.c, rename its
#      identifiers and give it a description — touching nothing else; every
#      XCALL_* value of the guide's field table (`.waits = ...`) compiles;
#   3. build (the guide's make line); test_xcall (ThreadSanitizer) runs the
#      free checks on it, every wait;
#   4. boot it: the guide's QEMU line, then `xcbench ingest` of its console,
#      and the guide's `xcbench vm` line (against a daemon of the test's own,
#      XCBENCH_SERVER, serving the copy's payload); the payload lists NAME in
#      HELLO (algos=, algo.NAME=) and runs it with the 5 repetitions a
#      comparison needs;
#   5. the guide's `xcbench show` and `xcbench compare` lines: NAME listed,
#      lockless -> NAME compared with intervals (never "too few reps"); the
#      daemon learned NAME from HELLO (GET /api/v1/schema: the host has no
#      list), the run's cases, the compare API; in Chromium the run page's
#      compare links and the compare page drawing lockless -> NAME
#      (tests/web/add-algorithm.mjs, screenshot tests/out/web-add-algorithm.png);
#   and the file deleted again: the payload and test_xcall are out of date.
# Lean on purpose (the guide's narrowed quick suite: 6 cases, seconds under
# TCG): it runs in `make test`.
# timeout: 900
. "$(dirname "$0")/lib/tap.sh"

NAME=mine
GUIDE=$ROOT/docs/ADDING-AN-ALGORITHM.md
T=$(mktemp -d "$OUTDIR/add-algorithm.XXXXXX")
cleanup() { [ -n "${DPID:-}" ] && kill "$DPID" 2>/dev/null; wait 2>/dev/null; }
trap cleanup EXIT
pyjson() { curl -s "$1" | python3 -c "import json,sys; d=json.load(sys.stdin); print($2)"; }
# guide STEP PREFIX: the guide's command, the algorithm it names being ours;
# run_guide STEP PREFIX [REPLACE]: that command, run in the copy
# (tests/lib/guide_cmd.sh).
. "$ROOT/tests/lib/guide_cmd.sh"

# A temporary copy of the tree's sources (what git tracks, plus new files)
# and the firmware's build (tests/lib/tree_copy.sh).
. "$ROOT/tests/lib/tree_copy.sh"
tree_copy "$T" firmware proto
cp -a "$T/firmware" "$T/firmware.orig"

# Guide, step 1: the template, renamed, with a description of its own.
X=$T/firmware/xcall
cp "$X/lockless.c" "$X/$NAME.c"
sed -i "s/lockless/$NAME/g" "$X/$NAME.c"
sed -i "s|\.desc = \".*\"|.desc = \"the template: lockless under another name (t-add-algorithm)\"|" "$X/$NAME.c"
changed=$(diff -rq "$T/firmware.orig" "$T/firmware" | sed "s|$T/||g")
check "one new file, nothing else touched ($changed)" \
	[ "$changed" = "Only in firmware/xcall: $NAME.c" ]
# Step 1's field table: each value it shows, assigned to its field, compiles
# with the payload's warnings (its .waits example once named XCALL_WAIT_DONE).
python3 "$ROOT/tests/lib/guide.py" "$GUIDE" table >"$T/table.c"
${CC:-cc} -fsyntax-only -std=gnu11 -Wall -Wextra -Werror -DXCB_HOST=1 -I"$T/firmware" -I"$T/proto" \
	"$T/table.c" >"$T/table.log" 2>&1
rc=$?
sed 's/^/# /' "$T/table.log" | head -n 5
check "the guide's field table: its $(grep -c ' = ' "$T/table.c") values compile (rc $rc), .waits' among them" \
	[ "$rc" -eq 0 ] && [ "$(grep -c '\.waits = ' "$T/table.c")" -ge 2 ]

# Guide, step 3: build (the payload and the host test) ...
MAKEFLAGS=-j2 run_guide 3 "make -C firmware"
check "it builds: payload and test_xcall (-Wall -Wextra -Werror)" [ $? -eq 0 ]
tail -n 5 "$T/guide.out" | sed 's/^/# /'
check "the build's list of the payload's algorithms (build/algos.txt, which the host checks algos= by) has $NAME" \
	grep -qx "algo $NAME" "$T/firmware/build/algos.txt"

# ... and the free checks, under ThreadSanitizer.
XCB_XCALL_ONLY=$NAME XCB_XCALL_ITERS=300 timeout 600 "$T/firmware/build/tests/test_xcall" >"$T/test_xcall.log" 2>&1
rc=$?
check "test_xcall's free checks pass for $NAME (rc $rc)" [ "$rc" -eq 0 ]
for w in none ack done; do
	check "test_xcall ran $NAME wait=$w under TSan" grep -q "^# checked $NAME wait=$w:" "$T/test_xcall.log"
done

# Guide, step 4: boot it (TCG), next to the algorithm it was copied from:
# QEMU by hand, the console captured.
run_guide 4 "qemu-system-x86_64"
rc=$?
check "the guide's QEMU line: payload with algos=lockless,$NAME exits 0 (qemu status $rc)" [ "$rc" -eq 1 ]
check "serial frames decode" frames_json "$T/console.log" "$T/run.json"
python3 - "$T/run.json" "$NAME" <<'PY'
import json, sys
run, name = json.load(open(sys.argv[1])), sys.argv[2]
from tap import ok
h = run["hello"]
ok(name in h.get("algos", "").split(","), f"HELLO algos= lists {name} ({h.get('algos')})")
ok(h.get("algo." + name, "").startswith("the template"), f"HELLO algo.{name}= is its description")
mine = [c for c in run["cases"].values() if c.get("algo") == name and c["kind"] == "xcall"]
ok(mine, f"{len(mine)} {name} case(s) ran")
ok(mine and all(int(c["reps"]) >= 5 for c in mine),
   f"{name}: the 5 repetitions a comparison needs ({sorted({c['reps'] for c in mine})})")
rows = [r for r in run["results"] if run["cases"][str(r["case_id"])].get("algo") == name]
ok(rows and all(r["p50"] > 0 and r["calls_executed"] == r["calls_expected"] > 0 for r in rows),
   f"{name}: measured, every call ran exactly once")
PY

if [ ! -x "$XCBENCH" ] || [ ! -x "$XCBENCHD" ]; then
	skip "the daemon learns $NAME (steps 4 and 5)" "host/build/xcbench or xcbenchd not built"
	exit 0
fi
# The guide's host/build/ in the copy: the tree's CLI (it has no algorithm
# list); the daemon is the test's own, on a free port, serving the copy's
# payload (the guide's daemon line serves its own tree's the same way).
mkdir -p "$T/host"
ln -s "$(dirname "$XCBENCH")" "$T/host/build"
PORT=$(free_port)
xcbd_start "$T/xcbenchd.log" "$PORT" --db "$T/xcbench.db" --open --web "$ROOT/web" \
	--firmware "$T/firmware/build/xcbench.elf"
DPID=$XCBD_PID
URL=http://127.0.0.1:$PORT
export XCBENCH_SERVER=$URL
# algos= is checked against the payload the daemon serves: a typo of the
# new name is refused before a boot, with the name meant.
curl -s -o "$T/typo.json" -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
	-d "{\"mac\":\"52:54:00:78:63:7f\",\"suite\":\"quick\",\"params\":{\"algos\":\"lockless,mime\"}}" \
	"$URL/api/v1/jobs" >"$T/typo.code"
check "algos=lockless,mime: refused before a boot, did you mean '$NAME' ($(cat "$T/typo.code") $(head -c 200 "$T/typo.json"))" \
	bash -c '[ "$(cat "$1")" = 400 ] && grep -qF "did you mean '"'"'$2'"'"'?" "$3"' _ "$T/typo.code" "$NAME" "$T/typo.json"
check "the guide's daemon line names the flags the test starts it with" \
	grep -q -- "--open --listen 127.0.0.1:8080 --udp 127.0.0.1:8080 --db" <<<"$(guide 4 host/build/xcbenchd)"

# Step 4, the console handed over afterwards.
run_guide 4 "host/build/xcbench ingest"
check "the guide's ingest line delivers the run" [ $? -eq 0 ]
ING=$(grep -oE '^run [0-9]+ ' "$T/guide.out" | grep -oE '[0-9]+' | head -1)
# Step 4, the daemon's way: xcbench vm boots the payload it serves.
run_guide 4 "host/build/xcbench vm" "s|\$| --dir $T/vm|"
rc=$?
tail -n 3 "$T/guide.out" | sed 's/^/# /'
ID=$(grep -oE 'run [0-9]+ complete' "$T/guide.out" | grep -oE '[0-9]+' | head -1)
check "the guide's xcbench vm line: exit 0, run ${ID:-?} complete (rc $rc)" [ "$rc" -eq 0 ] && [ -n "$ID" ]
ID=${ID:-$ING}

# Guide, step 5: the host learns it from HELLO.
check "GET /api/v1/schema lists $NAME with its description (learned from HELLO)" test "$(pyjson "$URL/api/v1/schema" \
	"[a['description'][:12] for a in d['algorithms'] if a['name'] == '$NAME'] == ['the template'] and '$NAME' in d['vocabularies']['algo']['values']")" = True
check "GET /api/v1/runs/$ID: its cases include $NAME" test "$(pyjson "$URL/api/v1/runs/$ID" \
	"any(c.get('algo') == '$NAME' for c in d['cases'])")" = True
check "GET /api/v1/compare (the compare page's data): lockless vs $NAME in run $ID" test "$(pyjson \
	"$URL/api/v1/compare?a=$ID&b=$ID&algo_a=lockless&algo_b=$NAME" "len(d.get('rows', d.get('cases', []))) > 0")" = True
run_guide 5 "host/build/xcbench show" "s/\bR\b/$ID/g"
cp "$T/guide.out" "$T/show.out"
check "the guide's show line: $NAME listed with its description" grep -qE "^  $NAME +the template" "$T/show.out"
check "the guide's show line: $NAME's case in the table" grep -qE "^ +[0-9]+ xcall +$NAME " "$T/show.out"
run_guide 5 "host/build/xcbench compare" "s/\bR\b/$ID/g"
rc=$?
cp "$T/guide.out" "$T/compare.out"
sed 's/^/# /' "$T/compare.out" | head -n 6
check "the guide's compare line: lockless -> $NAME, exit 0 (rc $rc)" \
	[ "$rc" -eq 0 ] && grep -q "lockless -> $NAME" "$T/compare.out"
check "the guide's compare line: every cell has an interval (reps=5), none 'too few reps'" \
	[ "$(grep -cE '[-+][0-9.]+ \[[-+][0-9.]+, [-+][0-9.]+\]' "$T/compare.out")" -gt 0 ] && \
	! grep -q "too few reps" "$T/compare.out"
# Taking the algorithm out again (the file deleted): the payload and
# test_xcall must be out of date. The sources are globbed, so a deleted one
# left nothing newer and make said "up to date" (payload) or stopped at
# "No rule to make target 'xcall/$NAME.c'" (test_xcall): both kept $NAME.
# make -q builds nothing: 1 = would rebuild.
mv "$X/$NAME.c" "$T/$NAME.c.out"
make -q -C "$T/firmware" build/xcbench64.elf >/dev/null 2>&1
rc=$?
check "$NAME.c deleted: the payload is out of date, so it relinks without $NAME (make -q: $rc)" [ "$rc" -eq 1 ]
make -q -C "$T/firmware" build/tests/test_xcall >"$T/make-q.log" 2>&1
rc=$?
sed 's/^/# /' "$T/make-q.log" | grep -v "^# make\[" | head -n 3
check "$NAME.c deleted: test_xcall is out of date, no make error (make -q: $rc)" [ "$rc" -eq 1 ]
mv "$T/$NAME.c.out" "$X/$NAME.c"

# Guide, step 5: the compare page, as a reviewer opens it (Chromium).
# (the last check: browser_require ends the test with a SKIP line when
# the browser or web/'s build is missing)
. "$ROOT/tests/lib/browser.sh"
browser_require "the compare page in Chromium shows $NAME"
XCB_BASE=$URL/ XCB_OUT=$OUTDIR XCB_RUN=$ID XCB_ALGO=$NAME timeout 120 node "$ROOT/tests/web/add-algorithm.mjs"
