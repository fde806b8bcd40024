#!/bin/bash
# timeout: 120
# `xcbench compare` prints the seed table a reviewer reads (issue 13): for each
# group of the other axes one table, rows = CPUs in mask, columns = concurrent
# initiators, cells = % change with its 95 % interval and `*`; work_us=0 and
# work_us=500 are separate tables (the old flat list cut keys at 60 characters
# and showed them alike); below 5 repetitions per side there is no interval,
# only "too few repetitions for an interval"; --flat lists every case with its
# whole key. Runs come from the test generator (host/tools/xcb-gen): the same
# axes a `make run` database has for two algorithms (inits 1/2/4, masks
# 1/2/4/8, work 0/500), with 3 repetitions as `make run` used to and with 5.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "compare table"

start_daemon --open || { notok "daemon starts"; exit 1; }
"$XCB_GEN" --server 127.0.0.1:$PORT --runs 1 --token c003 --reps 3 >/dev/null 2>&1
"$XCB_GEN" --server 127.0.0.1:$PORT --runs 2 --token c005 --factor 1.0,0.8 --reps 5 >/dev/null 2>&1
# cycle counts of 8+ digits (a slow IPI path, a big machine): --flat's columns
"$XCB_GEN" --server 127.0.0.1:$PORT --runs 2 --token c007 --factor 20000,16000 --reps 5 >/dev/null 2>&1
R3=$(pyjson "$URL/api/v1/runs?token=c003" 'd["runs"][0]["id"]')
R5=$(pyjson "$URL/api/v1/runs?token=c005" 'd["runs"][0]["id"]')
R5B=$(pyjson "$URL/api/v1/runs?token=c006" 'd["runs"][0]["id"]')
check "three generated runs stored ($R3 $R5 $R5B)" [ -n "$R3" ] && [ -n "$R5" ] && [ -n "$R5B" ]

# Two boots that ran different algos= (a job's params, stored with the run:
# set here as a boot would have them): compared by algorithm, algos= is
# what picks each side, no condition; compared as they are, it is one.
python3 - "$DB" "$R5" "$R5B" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], timeout=10)
db.execute("UPDATE runs SET params = ? WHERE id = ?", ('{"algos":"locked,lockless","reps":"5"}', int(sys.argv[2])))
db.execute("UPDATE runs SET params = ? WHERE id = ?", ('{"algos":"lockless,queued","reps":"5"}', int(sys.argv[3])))
db.commit()
PY
m=$(pyjson "$URL/api/v1/compare?a=$R5&b=$R5B&algo_a=locked&algo_b=lockless" '" | ".join(d["mismatches"])')
check "by algorithm, algos= is no differing condition (mismatches: ${m:-none})" bash -c '! grep -q "suite parameters" <<<"$1"' _ "$m"
m=$(pyjson "$URL/api/v1/compare?a=$R5&b=$R5B" '" | ".join(d["mismatches"])')
check "... and the same runs compared case by case: their suite parameters differ ($m)" \
	grep -q 'suite parameters differ: {"algos":"locked,lockless","reps":"5"} vs {"algos":"lockless,queued","reps":"5"}' <<<"$m"

cli() { "$XCBENCH" --server "$URL" compare "$@"; }
cli "$R3" "$R3" --algo-a locked --algo-b lockless >"$TMP/t3.txt" 2>&1
cli "$R5" "$R5B" >"$TMP/t5.txt" 2>&1
cli "$R5" "$R5B" --flat >"$TMP/flat.txt" 2>&1
R7=$(pyjson "$URL/api/v1/runs?token=c007" 'd["runs"][0]["id"]')
R7B=$(pyjson "$URL/api/v1/runs?token=c008" 'd["runs"][0]["id"]')
cli "$R7" "$R7B" --flat >"$TMP/flat-wide.txt" 2>&1
sed 's/^/# /' "$TMP/t3.txt" | head -12
check "the seed table says which runs it is of (A:/B: lines first: a pasted table keeps its context)" \
	bash -c "head -1 '$TMP/t3.txt' | grep -q '^A: run $R3 (1 boot)' && head -6 '$TMP/t3.txt' | grep -q '^B: run $R3 (1 boot)'"

# The table's shape, parsed the way a reader reads it.
python3 - "$TMP/t3.txt" "$TMP/t5.txt" "$TMP/flat.txt" "$TMP/flat-wide.txt" <<'PY'
import re, sys
from tap import ok as tap
def tables(path):
    out, cur = [], None
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith("% change of the median call time"):
            cur = {"title": line, "cols": None, "rows": []}
            out.append(cur)
        elif cur is not None and cur["cols"] is None and "initiator" in line:
            cur["cols"] = [int(x) for x in re.findall(r"(\d+) initiators?", line)]
        elif cur is not None and re.match(r"\s*\d+ CPUs? +in mask", line):
            m = re.match(r"\s*(\d+) CPUs? +in mask(.*)", line)
            cells = [c.strip() for c in re.split(r"\s{2,}", m.group(2).strip())]
            cur["rows"].append((int(m.group(1)), cells))
    return out
t3, t5 = tables(sys.argv[1]), tables(sys.argv[2])
works = sorted({re.search(r"work_us=(\d+)", t["title"]).group(1) for t in t3})
tap(len(t3) == 2 and works == ["0", "500"],
    f"algo vs algo: one table per work_us ({len(t3)} tables, work_us {works})")
tap(all(t["cols"] == [1, 2, 4] for t in t3), "columns are the concurrent initiators 1, 2, 4")
tap(all([r[0] for r in t["rows"]] == [1, 2, 4, 8] for t in t3), "rows are CPUs in mask 1, 2, 4, 8")
tap(all(len(cells) == 3 for t in t3 for _, cells in t["rows"]), "one cell per initiator column")
cells3 = [c for t in t3 for _, cs in t["rows"] for c in cs]
tap(all(c.endswith("(too few reps)") and "*" not in c for c in cells3),
    "3 repetitions per side: no interval and no star in any cell")
tap("too few repetitions for an interval" in open(sys.argv[1]).read(), "and the table says why")
cells5 = [c for t in t5 for _, cs in t["rows"] for c in cs]
pat = re.compile(r"^[+-]\d+\.\d\d(\*?) \[[+-]\d+\.\d\d, [+-]\d+\.\d\d\]$")
tap(cells5 and all(pat.match(c) for c in cells5), f"5 repetitions: every cell has % change and an interval ({cells5[:2]})")
tap(all(c.startswith("-") and "*" in c for c in cells5), "run B at 0.8x: every cell shows a significant decrease")
# run vs run keeps algo as its own axis: locked and lockless tables, x 2 work_us
tap(len(t5) == 4, f"run vs run: a table per algorithm and work_us ({len(t5)})")
flat = [l for l in open(sys.argv[3]) if "kind=" in l]
tap(len(flat) == 48 and all("work_us=" in l and "placement=" in l for l in flat),
    f"--flat: one line per case, whole key ({len(flat)} lines)")
# Each column lines up with its head, however wide its numbers: the
# method's and the key's first letters under METHOD's and CASE's.
lines = open(sys.argv[4]).read().splitlines()
head, rows = lines[0], [l for l in lines[1:] if "kind=" in l]
mcol, ccol = head.find("METHOD"), head.find("CASE")
wide = max((len(re.split(r"\s+", l.strip())[0]) for l in rows), default=0)
tap(len(rows) == 48 and wide >= 8 and
    all(l[mcol - 1] == " " and l[mcol] != " " and l[ccol - 1] == " " and "=" in l[ccol:].split(" ")[0] for l in rows),
    f"--flat with {wide}-character values: METHOD and CASE line up with their heads ({rows[0] if rows else head})")
PY
check "SIGTERM: clean shutdown" stop_daemon
