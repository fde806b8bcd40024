#!/bin/bash
# t-compare-unstable.sh - compare's "unstable host cases" note names the
# cases `xcbench show` and the run page call "unstable host": a repetition
# flagged (RESULT flag 4) or the repetitions' paired floors spread 2x
# (README; the API's stats.unstable_host). compare counted only the flag, so
# a case whose floor doubled between repetitions was "unstable host" in
# show and on the run page, and compare's conditions said nothing.
# Hand-made runs (UDP frames, tests/web/frames.py): three xcall cases, 5
# repetitions, each with its paired floor.
# timeout: 120
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
open_daemon_test "compare: unstable host as show says"

# send TOKEN SPREAD_MASK FLAG_MASK: a run whose case of mask SPREAD_MASK
# has its last repetition's paired floor 2.5x the others' (no flag), and
# whose case of mask FLAG_MASK has repetition 2 flagged unstable (0: none).
send() {
	frames_py "$@" <<'PY'
import struct, sys
import frames
token, spread, flagged = int(sys.argv[2], 16), int(sys.argv[3]), int(sys.argv[4])
r = frames.Run(token)
r.text(frames.HELLO, 'fw=t-compare-unstable\ncpus=4\ntsc_khz=2000000\ntransport=udp\nsuite=quick\n')
for cid, mask in enumerate((1, 2, 3), 1):
    r.text(frames.CASE, f'id={cid}\nkind=xcall\nalgo=locked\ndelivery=unicast\nwait=done\ninits=1\nmask={mask}\n'
           f'placement=first\noverlap=disjoint\nwork_us=0\niters=400\nreps=5\n')
    for rep in range(5):
        floor = 2500 if mask == spread and rep == 4 else 1000
        r.result(cid, rep, frames.ALL, 2000 + 300 * mask + 7 * rep, ipis=400 * mask, calls=400 * mask,
                 floors=(1000, floor), flags=4 if mask == flagged and rep == 2 else 0)
r.text(frames.LOG, 'done: ok (0 ERROR frames, 0 stale, 0 lost, 0 duplicated, 0 out of order)')
r.frame(frames.DONE, struct.pack('<II', len(r.frames), 0))
frames.send(sys.argv[1], r.frames, 0, len(r.frames))
PY
}
# A: mask 2's floors spread (no flag); B: mask 3 flagged; C: neither.
send 5ab101 2 0 && send 5ab102 0 3 && send 5ab103 0 0
check "three hand-made runs sent" test $? -eq 0
ids=$(curl -sf "$URL/api/v1/runs" | python3 -c 'import json,sys; print(" ".join(str(r["id"]) for r in sorted(json.load(sys.stdin)["runs"], key=lambda r: r["id"])))')
read -r A B C <<<"$ids"

"${X[@]}" show "$A" >"$T/show.txt" 2>&1
check "show: run A's mask 2 case is 'unstable host' (its paired floors spread 2.5x), no other" \
	bash -c '[ $(grep -c "unstable host$" "$1") = 1 ]' _ "$T/show.txt"
curl -s "$URL/api/v1/runs/$A" >"$T/a.json"
check "API: stats.unstable_host on that case alone" \
	python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); u=[c["mask"] for c in o["cases"] if c["stats"]["unstable_host"]]; sys.exit(u != ["2"] and u != [2])' "$T/a.json"
curl -s "$URL/api/v1/compare?a=$A&b=$C" >"$T/ac.json"
curl -s "$URL/api/v1/compare?a=$B&b=$A" >"$T/ba.json"
python3 - "$T" "$A" "$B" <<'PY'
import json, sys
from tap import ok
t, A, B = sys.argv[1], sys.argv[2], sys.argv[3]
ac, ba = json.load(open(f"{t}/ac.json")), json.load(open(f"{t}/ba.json"))
want = f"unstable host cases: 1 of A's cases (run {A}), none of B's"
ok(want in ac["mismatches"], f"compare A C: the mismatch line names A's spread case ({ac['mismatches']})")
cond = [c for c in ac["conditions"] if c["name"] == "unstable"]
ok(cond and cond[0]["a"] == [f"run {A}: 1 case"] and cond[0]["b"] == [""], f"... its condition ({cond})")
want = f"unstable host cases: 1 of A's cases (run {B}), 1 of B's (run {A})"
ok(want in ba["mismatches"], f"compare B A: the flagged case and the spread one, one each ({ba['mismatches']})")
PY
"${X[@]}" compare "$A" "$C" >"$T/ac.txt" 2>&1
check "xcbench compare: the 'mismatch: unstable host cases' line" \
	grep -q "^mismatch: unstable host cases: 1 of A's cases (run $A), none of B's" "$T/ac.txt"
check "SIGTERM: clean shutdown" stop_daemon
