#!/bin/bash
# t-compare-flush.sh - comparing TLB shootdown paths (flush=) and cross-call
# algorithms (algo=) with compare's restrictions (a_where/b_where). A TLB
# case of a path that uses no cross-call algorithm carries algo=<the path>
# (firmware/bench/suite.c case_algo_name), so restricting flush on both sides
# left that algo in the matching key: flush=vector vs flush=concurrent matched
# nothing. And the path `concurrent` has the name of the cross-call algorithm
# `concurrent`: algo=concurrent takes both, which compare now says. A key
# restricted on one side only is still matched (it paired B's cases that
# differ only in it with A's in run order).
# Two hand-made runs (UDP frames, tests/web/frames.py) shaped as the payload
# emits them: paths vector, concurrent, early_ack and xcall through locked,
# lockless and concurrent, masks 1 and 2; and xcall cases of locked and
# concurrent. Run B is run A at 0.9x.
# timeout: 120
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "compare flush paths"
start_daemon --open || { notok "daemon starts"; exit 1; }
T=$TMP

# send TOKEN FACTOR
send() {
	frames_py "$@" <<'PY'
import struct, sys
import frames
token, factor = int(sys.argv[2], 16), float(sys.argv[3])
# (kind, flush, algo, p50): algo as the payload names it (the path's name
# for a path with no cross-call algorithm)
shapes = [('tlb', 'vector', 'vector', 10000), ('tlb', 'concurrent', 'concurrent', 8000),
          ('tlb', 'early_ack', 'early_ack', 9000), ('tlb', 'xcall', 'locked', 12000),
          ('tlb', 'xcall', 'lockless', 11000), ('tlb', 'xcall', 'concurrent', 10500),
          ('xcall', None, 'locked', 3000), ('xcall', None, 'concurrent', 2500)]
r = frames.Run(token)
r.text(frames.HELLO, 'fw=t-compare-flush\ncpus=4\ntsc_khz=2000000\ntransport=udp\nsuite=tlb\n')
cid = 0
for kind, flush, algo, base in shapes:
    for mask in (1, 2):
        cid += 1
        tlb = f'flush={flush}\nmethod=invlpg\nbatch=1\npages=1\n' if kind == 'tlb' else ''
        r.text(frames.CASE, f'id={cid}\nkind={kind}\nalgo={algo}\ndelivery=auto\nwait=done\ninits=1\n'
               f'mask={mask}\nplacement=first\noverlap=disjoint\nwork_us=0\n{tlb}iters=100\nreps=5\n')
        for rep in range(5):
            p50 = int((base + 1000 * mask + 10 * rep) * factor)
            vals = (100, p50 * 8 // 10, p50, p50 * 11 // 10, p50 * 14 // 10, p50 * 17 // 10, p50 * 2,
                    p50 * 1000, p50 * 90, 100 * mask, 0, 0, 0, 0, 0, 100, 100)
            r.frame(frames.RESULT, struct.pack('<IHH17QII9Q', cid, rep, frames.ALL, *vals, 0, 0,
                                               4000, 0, 0, 0, 600000, 0, 0, 0, 0))
r.frame(frames.DONE, struct.pack('<II', len(r.frames), 0))
frames.send(sys.argv[1], r.frames, 0, len(r.frames))
PY
}
send 0f1501 1.0 && send 0f1502 0.9
check "two hand-made runs sent" test $? -eq 0
ids=$(curl -sf "$URL/api/v1/runs" | python3 -c 'import json,sys; print(" ".join(str(r["id"]) for r in sorted(json.load(sys.stdin)["runs"], key=lambda r: r["id"])))')
read -r A B <<<"$ids"

# name QUERY: the compare answer for QUERY into $T/name.json
get() { curl -s "$URL/api/v1/compare?$2" >"$T/$1.json"; }
get vc "a=$A&b=$A&a_where=flush=vector&b_where=flush=concurrent"
get vc2 "a=$A&b=$B&a_where=flush=vector&b_where=flush=concurrent"
get ll "a=$A&b=$A&a_where=flush=xcall,algo=locked&b_where=flush=xcall,algo=lockless"
get lv "a=$A&b=$B&a_where=flush=xcall,algo=locked&b_where=flush=vector"
get xv "a=$A&b=$A&a_where=flush=xcall&b_where=flush=vector"
get onev "a=$A&b=$B&b_where=flush=vector"
get conc "a=$A&b=$A&algo_a=concurrent&algo_b=locked"
get one "a=$A&b=$B&a_where=algo=concurrent"
get concx "a=$A&b=$A&a_where=algo=concurrent,flush=xcall&b_where=algo=locked,flush=xcall"
python3 - "$T" <<'PY'
import json, sys
from tap import ok
t = sys.argv[1]
J = lambda n: json.load(open(f"{t}/{n}.json"))
def changes(o):
    return sorted(round(c["change_pct"], 1) for c in o["cases"])
def pct(a, b):
    return round((b - a) / a * 100, 1)
vc, vc2, ll, lv, xv, onev, conc, concx, one = (J(n) for n in ("vc", "vc2", "ll", "lv", "xv", "onev", "conc", "concx", "one"))
# medians of reps 0..4: base + 1000 * mask + 20
m = lambda base, mask, f=1.0: int((base + 1000 * mask + 20) * f)
want = sorted(pct(m(10000, k), m(8000, k)) for k in (1, 2))
ok(len(vc["cases"]) == 2 and vc["unmatched_a"] == 0 and vc["unmatched_b"] == 0 and changes(vc) == want,
   f"one run: flush=vector vs flush=concurrent pairs both masks ({len(vc['cases'])} cases, {changes(vc)}, want {want})")
ok(vc["cases"] and all("algo" not in c["key"] and "flush" not in c["key"] and c["key"]["method"] == "invlpg" for c in vc["cases"]),
   "... matched on every other axis (no algo, no flush in the key; method kept)")
pv = vc["pivots"]
ok(len(pv) == 1 and pv[0]["algo_a"] == "vector" and pv[0]["algo_b"] == "concurrent",
   f"... its table says vector -> concurrent ({[(p['algo_a'], p['algo_b']) for p in pv]})")
want2 = sorted(pct(m(10000, k), m(8000, k, 0.9)) for k in (1, 2))
ok(len(vc2["cases"]) == 2 and changes(vc2) == want2,
   f"two runs: flush=vector in A vs flush=concurrent in B ({changes(vc2)}, want {want2})")
want = sorted(pct(m(12000, k), m(11000, k)) for k in (1, 2))
ok(len(ll["cases"]) == 2 and changes(ll) == want and all(c["key"]["kind"] == "tlb" for c in ll["cases"]),
   f"flush=xcall algo=locked vs algo=lockless: the TLB cases ({changes(ll)}, want {want})")
ok([(p["algo_a"], p["algo_b"]) for p in ll["pivots"]] == [("locked", "lockless")],
   f"... its table says locked -> lockless ({[(p['algo_a'], p['algo_b']) for p in ll['pivots']]})")
want = sorted(pct(m(12000, k), m(10000, k, 0.9)) for k in (1, 2))
ok(len(lv["cases"]) == 2 and changes(lv) == want,
   f"flush=xcall algo=locked vs flush=vector ({changes(lv)}, want {want})")
# several algorithms on the xcall side: never paired by chance with the one path
ok(len(xv["cases"]) == 0 and any("algo=" in w and "flush=xcall" in w for w in xv["warnings"]),
   f"flush=xcall (3 algorithms) vs flush=vector: nothing paired, a warning names algo= ({xv['warnings']})")
# one side restricted: the other side's paths stay apart (their algo)
ok(len(onev["cases"]) == 2 and changes(onev) == sorted(pct(m(10000, k), m(10000, k, 0.9)) for k in (1, 2)),
   f"B flush=vector only: A's vector cases pair with B's ({changes(onev)})")
ok(all(c["key"].get("flush", "xcall") == "xcall" for c in conc["cases"]) and len(conc["cases"]) == 4,
   f"algo concurrent vs locked: the xcall and flush=xcall cases pair ({len(conc['cases'])})")
ok(any("flush=concurrent" in w and "flush=xcall" in w for w in conc["warnings"]),
   f"... and a warning says algo=concurrent also took the path concurrent's cases ({conc['warnings']})")
# A key restricted on one side only filters that side and still matches:
# B's cases that differ only in it (locked, lockless, concurrent) were
# paired with A's in run order (A's concurrent with B's locked).
ok(len(one["cases"]) == 6 and set(changes(one)) == {-10.0},
   f"A algo=concurrent only vs all of B (B = A x 0.9): 6 pairs, each -10 % ({changes(one)})")
ok(all(c["key"].get("algo") == "concurrent" for c in one["cases"]) and one["unmatched_b"] == 10,
   f"... each of B's concurrent cases, algo matched ({[c['key'].get('algo') for c in one['cases']]}, {one['unmatched_b']} unmatched in B)")
ok(len(concx["cases"]) == 2 and not any("flush=concurrent" in w for w in concx["warnings"]),
   f"algo=concurrent,flush=xcall: no such warning ({concx['warnings']})")
PY

curl -s "$URL/api/v1/compare.csv?a=$A&b=$A&a_where=flush=vector&b_where=flush=concurrent" >"$T/vc.csv"
python3 - "$T/vc.csv" <<'PY'
import csv, sys
from tap import ok
rows = list(csv.DictReader(open(sys.argv[1])))
ok(len(rows) == 2 and all(r["algo_a"] == "vector" and r["algo_b"] == "concurrent" for r in rows),
   f"compare.csv: algo_a vector, algo_b concurrent ({[(r['algo_a'], r['algo_b']) for r in rows]})")
PY

# The CLI: the seed table says which paths are compared, and no "no case matched".
"$XCBENCH" --server "$URL" compare "$A" "$A" --a-where flush=vector --b-where flush=concurrent >"$T/cli.txt" 2>&1
check "xcbench compare --a-where flush=vector --b-where flush=concurrent exits 0" test $? -eq 0
check "... its table is vector -> concurrent" grep -q "vector -> concurrent" "$T/cli.txt"
sed 's/^/# /' "$T/cli.txt" | head -12
