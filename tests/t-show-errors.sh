#!/bin/bash
# t-show-errors.sh - `xcbench show` prints a run's ERROR reports whole, up to
# 40 lines, and says where the rest is only when there is a rest: a report
# of exactly 40 lines ended in "(more: GET .../events?kind=error)" as one of
# 41 did. Hand-made runs (UDP frames, tests/web/frames.py).
# timeout: 120
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "show's error reports"
start_daemon --open || { notok "the daemon starts"; exit 1; }
T=$TMP

# send TOKEN LINES: a run whose one ERROR report has LINES lines ("line 1", ...).
send() {
	python3 - "127.0.0.1:$PORT" "$1" "$2" <<'PY'
import os, sys
sys.path.insert(0, os.path.join(os.environ.get('ROOT', '.'), 'tests', 'web'))
import frames
r = frames.Run(int(sys.argv[2], 16))
r.text(frames.HELLO, 'fw=t-show-errors\ncpus=2\ntsc_khz=2000000\ntransport=udp\nsuite=quick\n')
r.text(frames.ERROR, '\n'.join(f'line {i}' for i in range(1, int(sys.argv[3]) + 1)) + '\n')
frames.send(sys.argv[1], r.frames, 0, len(r.frames))
PY
}
# show_of TOKEN: xcbench show of that token's run, into T/TOKEN.out.
show_of() {
	local id
	id=$(curl -sf "$URL/api/v1/runs" | python3 -c "import json,sys; print([r['id'] for r in json.load(sys.stdin)['runs'] if r['label'] is None][0])")
	"$XCBENCH" --server "$URL" show "$id" >"$T/$1.out" 2>&1
	curl -sf -X PATCH -H 'Content-Type: application/json' -d '{"label":"shown"}' "$URL/api/v1/runs/$id" >/dev/null
}

send e40a01 40 && show_of e40a01
check "a 40-line report: every line shown ($(grep -c '^ERROR: line 1$\|^       line [0-9]*$' "$T/e40a01.out") of 40)" \
	test "$(grep -c '^ERROR: line 1$\|^       line [0-9]*$' "$T/e40a01.out")" = 40
check "... and no '(more: ...)' (nothing is left)" bash -c '! grep -q "(more: " "$1"' _ "$T/e40a01.out"
send e41a01 41 && show_of e41a01
check "a 41-line report: 40 lines shown ($(grep -c '^ERROR: line 1$\|^       line [0-9]*$' "$T/e41a01.out"))" \
	test "$(grep -c '^ERROR: line 1$\|^       line [0-9]*$' "$T/e41a01.out")" = 40
check "... and '(more: GET .../events?kind=error)' for the rest" \
	grep -q "(more: GET /api/v1/runs/[0-9]*/events?kind=error)" "$T/e41a01.out"
