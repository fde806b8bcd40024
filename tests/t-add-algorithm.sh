#!/bin/bash
# t-add-algorithm.sh — adding a cross-call algorithm the way a user would,
# following docs/ADDING-AN-ALGORITHM.md step by step: in a temporary copy of
# the tree, copy the template (xcall/lockless.c) to xcall/NAME.c, rename its
# identifiers and give it a description — touching nothing else — then
# build, and check that
#   - test_xcall (ThreadSanitizer) ran the free checks on it, every wait;
#   - the payload booted under TCG with algos=lockless,NAME lists it in
#     HELLO (algos=, algo.NAME=) and ran it;
#   - the daemon, fed that run, shows it: GET /api/v1/schema's algorithms
#     (learned from HELLO: the host has no list), the run's cases, and the
#     compare API, and in Chromium the run page's compare links and the
#     compare page itself drawing lockless -> NAME (tests/web/add-algorithm.mjs,
#     screenshot tests/out/web-add-algorithm.png).
# Lean on purpose (2 CPUs, one wait, one delivery): it runs in `make test`.
# timeout: 900
. "$(dirname "$0")/lib/tap.sh"

NAME=mine
T=$(mktemp -d "$OUTDIR/add-algorithm.XXXXXX")
cleanup() { [ -n "${DPID:-}" ] && kill "$DPID" 2>/dev/null; wait 2>/dev/null; }
trap cleanup EXIT
pyjson() { curl -s "$1" | python3 -c "import json,sys; d=json.load(sys.stdin); print($2)"; }

# A temporary copy of the tree's sources (what git tracks, plus new files).
(cd "$ROOT" && git ls-files -co --exclude-standard firmware proto) >"$T/files"
tar -C "$ROOT" -cf - -T "$T/files" | tar -C "$T" -xf -
cp -a "$T/firmware" "$T/firmware.orig"

# Guide, step 1: the template, renamed, with a description of its own.
X=$T/firmware/xcall
cp "$X/lockless.c" "$X/$NAME.c"
sed -i "s/lockless/$NAME/g" "$X/$NAME.c"
sed -i "s|\.desc = \".*\"|.desc = \"the template: lockless under another name (t-add-algorithm)\"|" "$X/$NAME.c"
changed=$(diff -rq "$T/firmware.orig" "$T/firmware" | sed "s|$T/||g")
check "one new file, nothing else touched ($changed)" \
	[ "$changed" = "Only in firmware/xcall: $NAME.c" ]

# Guide, step 2: build (the payload and the host test).
make -C "$T/firmware" -j2 build/xcbench.elf build/tests/test_xcall >"$T/build.log" 2>&1
check "it builds: payload and test_xcall (-Wall -Wextra -Werror)" [ $? -eq 0 ]
tail -n 5 "$T/build.log" | sed 's/^/# /'

# Guide, step 3: the free checks, under ThreadSanitizer.
XCB_XCALL_ONLY=$NAME XCB_XCALL_ITERS=300 timeout 600 "$T/firmware/build/tests/test_xcall" >"$T/test_xcall.log" 2>&1
rc=$?
check "test_xcall's free checks pass for $NAME (rc $rc)" [ "$rc" -eq 0 ]
for w in none ack done; do
	check "test_xcall ran $NAME wait=$w under TSan" grep -q "^# checked $NAME wait=$w:" "$T/test_xcall.log"
done

# Guide, step 4: boot it (TCG), next to the algorithm it was copied from.
XCB_ELF=$T/firmware/build/xcbench.elf XCB_QEMU_TIMEOUT=300 qemu_direct "$T/console.log" 2 \
	"suite=quick kinds=xcall algos=lockless,$NAME waits=done deliveries=unicast"
rc=$?
check "payload with algos=lockless,$NAME exits 0 (qemu status $rc)" [ "$rc" -eq 1 ]
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
rows = [r for r in run["results"] if run["cases"][str(r["case_id"])].get("algo") == name]
ok(rows and all(r["p50"] > 0 and r["calls_executed"] == r["calls_expected"] > 0 for r in rows),
   f"{name}: measured, every call ran exactly once")
PY

# Guide, step 5: the host learns it from HELLO.
if [ -x "$XCBENCH" ] && [ -x "$XCBENCHD" ]; then
	PORT=$(free_port)
	xcbd_start "$T/xcbenchd.log" "$PORT" --db "$T/xcbench.db" --open --web "$ROOT/web"
	DPID=$XCBD_PID
	URL=http://127.0.0.1:$PORT
	timeout 120 "$XCBENCH" --server "$URL" ingest "$T/console.log" --timeout 60 >"$T/ingest.out" 2>&1
	check "xcbench ingest delivers the run" [ $? -eq 0 ]
	check "GET /api/v1/schema lists $NAME with its description (learned from HELLO)" test "$(pyjson "$URL/api/v1/schema" \
		"[a['description'][:12] for a in d['algorithms'] if a['name'] == '$NAME'] == ['the template'] and '$NAME' in d['vocabularies']['algo']['values']")" = True
	ID=$(pyjson "$URL/api/v1/runs" "d['runs'][0]['id'] if isinstance(d, dict) else d[0]['id']")
	check "GET /api/v1/runs/$ID: its cases include $NAME" test "$(pyjson "$URL/api/v1/runs/$ID" \
		"any(c.get('algo') == '$NAME' for c in d['cases'])")" = True
	check "GET /api/v1/compare (the compare page's data): lockless vs $NAME in run $ID" test "$(pyjson \
		"$URL/api/v1/compare?a=$ID&b=$ID&algo_a=lockless&algo_b=$NAME" "len(d.get('rows', d.get('cases', []))) > 0")" = True
	"$XCBENCH" --server "$URL" show "$ID" >"$T/show.out" 2>&1
	check "xcbench show $ID lists $NAME with its description" grep -qE "^  $NAME +the template" "$T/show.out"
	check "xcbench show $ID: $NAME's case in the table" grep -qE "^ +[0-9]+ xcall +$NAME " "$T/show.out"
	# Guide, step 6: the compare page, as a reviewer opens it (Chromium).
	# (the last step: browser_require ends the test with a SKIP line when
	# the browser or web/'s build is missing)
	. "$ROOT/tests/lib/browser.sh"
	browser_require "the compare page in Chromium shows $NAME"
	XCB_BASE=$URL/ XCB_OUT=$OUTDIR XCB_RUN=$ID XCB_ALGO=$NAME timeout 120 node "$ROOT/tests/web/add-algorithm.mjs"
else
	skip "the daemon learns $NAME" "host/build/xcbench or xcbenchd not built"
fi
