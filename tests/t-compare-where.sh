#!/bin/bash
# t-compare-where.sh - a comparison within one run by its sides' conditions
# (seed 001: --a-where delivery=unicast --b-where delivery=allbutself, by
# lock_hold) in every form: the matched key has no delivery, so whatever
# says which side is which must come from the sides' restrictions.
#  - compare.csv (and xcbench compare --csv): a_where,b_where columns, last
#    (positional readers keep theirs; only a_no_flush,b_no_flush appended
#    after them), "delivery=unicast" / "delivery=allbutself".
#  - the star's rule (the answer's star_text, one line) in the seed form, as
#    in the text form and --html: within one boot p is Welch's t over the
#    repetitions, apart from the bootstrap interval.
# A hand-made run (UDP frames, tests/web/frames.py) shaped as the tlb suite's
# vector-path cases with a flush-lock profile, at both deliveries.
# timeout: 120
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
open_daemon_test "compare: sides by conditions"

# One run: flush=vector, algo locked, masks 1-3, 5 repetitions, at unicast
# and at allbutself (0.95x the time, the lock held 0.9x as long).
PYTHONPATH=$ROOT/tests/web:$PYTHONPATH python3 - "127.0.0.1:$PORT" <<'PY'
import struct, sys
import frames
r = frames.Run(0xc0e5e1)
r.text(frames.HELLO, 'fw=t-compare-where\ncpus=4\ntsc_khz=2000000\ntransport=udp\nsuite=tlb\n')
cid = 0
for delivery, f in (('unicast', 1.0), ('allbutself', 0.9)):
    for mask in (1, 2, 3):
        cid += 1
        r.text(frames.CASE, f'id={cid}\nkind=tlb\nalgo=vector\ndelivery={delivery}\nwait=done\ninits=1\nmask={mask}\n'
               'placement=first\noverlap=disjoint\nwork_us=0\nflush=vector\nmethod=invlpg\nbatch=1\npages=1\n'
               'iters=30\nreps=5\n')
        for rep in range(5):
            hold = int((90000 + 3000 * mask + 2500 * (rep % 3)) * f)
            r.result(cid, rep, frames.ALL, int((20000 + 3000 * mask + 40 * rep) * (0.5 + f / 2)),
                     ipis=30 * mask, calls=30 * mask, lock=(30, 0, 30 * hold, 0))
r.frame(frames.DONE, struct.pack('<II', len(r.frames), 0))
frames.send(sys.argv[1], r.frames, 0, len(r.frames))
PY
check "a hand-made run sent" test $? -eq 0
ID=$(curl -sf "$URL/api/v1/runs" | python3 -c 'import json,sys; print(json.load(sys.stdin)["runs"][0]["id"])')
W=(--a-where delivery=unicast --b-where delivery=allbutself --row lock_hold)

"${X[@]}" compare "$ID" "$ID" "${W[@]}" --csv >"$T/cli.csv" 2>"$T/cli.err"
check "compare --csv by --a-where/--b-where exits 0" test $? -eq 0
curl -sf "$URL/api/v1/compare.csv?a=$ID&b=$ID&a_where=delivery=unicast&b_where=delivery=allbutself&row=lock_hold" >"$T/api.csv"
python3 - "$T" <<'PY'
import csv, sys
from tap import ok
t = sys.argv[1]
for name in ("cli.csv", "api.csv"):
    head = open(f"{t}/{name}").readline().rstrip("\r\n")
    rows = list(csv.DictReader(open(f"{t}/{name}", newline="")))
    ok(head.endswith(",a_where,b_where,a_no_flush,b_no_flush") and len(rows) == 3
       and all(r["a_where"] == "delivery=unicast" and r["b_where"] == "delivery=allbutself" and r["delivery"] == ""
               for r in rows),
       f"{name}: a_where,b_where last but a_no_flush,b_no_flush (appended after), each row A delivery=unicast, B delivery=allbutself "
       f"({[(r.get('a_where'), r.get('b_where')) for r in rows]})")
PY
curl -sf "$URL/api/v1/compare.csv?a=$ID&b=$ID&row=lock_hold" >"$T/plain.csv"
n=$(python3 -c 'import csv,sys; r=list(csv.DictReader(open(sys.argv[1]))); print(len(r) if all(x["a_where"] == x["b_where"] == "" for x in r) else -1)' "$T/plain.csv")
check "compare.csv without restrictions: a_where and b_where empty ($n rows)" test "$n" -gt 0

# The star's rule, the daemon's one line (star_text), in the seed form as in
# the text form: within one boot p is Welch's t over the repetitions, not
# the bootstrap interval, so an interval that excludes 0 may have no '*'
# (seed 001's -5.62 [-22.20, -2.89], q 0.126); the seed form did not say so.
STAR=$(curl -sf "$URL/api/v1/compare?a=$ID&b=$ID&a_where=delivery=unicast&b_where=delivery=allbutself&row=lock_hold" |
	python3 -c 'import json,sys; print(json.load(sys.stdin).get("star_text") or "")')
check "the answer's star_text names Welch's t over repetitions and the interval ($STAR)" \
	bash -c 'grep -q "interval excludes 0" <<<"$1" && grep -q "Welch.s t over repetitions" <<<"$1"' _ "$STAR"
words() { tr '\n' ' ' <"$1" | tr -s ' '; }
"${X[@]}" compare "$ID" "$ID" "${W[@]}" >"$T/seed.txt" 2>&1
has() { [ -n "$1" ] && grep -qF -- "$1" <<<"$2"; }
check "compare (seed form) prints the star's rule, the daemon's line" has "$STAR" "$(words "$T/seed.txt")"
check "... its lines within 80 columns" bash -c '! grep -A3 "^.\*. (marked)" "$1" | awk "length > 80" | grep -q .' _ "$T/seed.txt"
"${X[@]}" compare "$ID" "$ID" "${W[@]}" --format text >"$T/text.txt" 2>&1
check "compare --format text prints the same line" has "$STAR" "$(words "$T/text.txt")"
"${X[@]}" compare "$ID" "$ID" "${W[@]}" --html "$T/c.html" >/dev/null 2>&1
check "compare --html too" has "$(sed 's/>/\&gt;/g; s/</\&lt;/g' <<<"$STAR")" "$(cat "$T/c.html")"

check "SIGTERM: clean shutdown" stop_daemon
