#!/bin/bash
# timeout: 240
# Raw samples read back (issue: stored SAMPLES nobody could read): an
# xcb-gen run with SAMPLES (48 cases x 3 repetitions, 64 samples a stream)
# is captured as serial text and ingested into a real daemon; the capture's
# SAMPLES frames, decoded here independently of the daemon
# (tests/lib/engine_frames.py), are what every answer must hold:
# GET /api/v1/runs/{id}/cases/{case}/samples (every case's streams in
# order, the rep/initiator filters, ?limit= and its `truncated`, 404/400),
# GET /api/v1/runs/{id}/samples.csv (header, every sample once in (case,
# rep, initiator, idx) order across its blocks of chunks, the same values
# as the JSON, filters, 404/400) and `xcbench samples` (the same bytes).
# Then streams with holes are stored beside them (chunks inserted into the
# stopped daemon's database, as a lost SAMPLES frame leaves it): `missing`
# and `holes` say where, the CSV has no row there, no value is invented.
# On PostgreSQL: tests/t-pg-samples.sh runs this script with DB= its URL.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "raw samples read back"

TMP=$(mktemp -d "$OUTDIR/daemon.XXXXXX")
TOKEN=5a3b1e0000000001
"$XCB_GEN" --token "$TOKEN" --samples --reps 3 --serial "$TMP/gen.log" >"$TMP/gen.out"
check "the capture holds 9216 samples" grep -q 'samples=9216' "$TMP/gen.out"
start_daemon --open || { notok "daemon starts"; exit 1; }
"$XCBENCH" --server "$URL" ingest "$TMP/gen.log" >"$TMP/ingest.out" 2>"$TMP/ingest.err"
check "ingest: every frame acknowledged" grep -q "frames acknowledged" "$TMP/ingest.err"
RUN=$(pyjson "$URL/api/v1/runs?token=$TOKEN" "d['runs'][0]['id']")
check "the run is stored (id $RUN)" test -n "$RUN"

# The CLI's answers, beside what curl gets from the route itself.
"$XCBENCH" --server "$URL" samples "$RUN" >"$TMP/cli-all.csv"
check "xcbench samples: exit 0" test $? = 0
"$XCBENCH" --server "$URL" samples "$RUN" --case 5 --rep 1 --initiator 0 >"$TMP/cli-filtered.csv"
check "xcbench samples --case --rep --initiator: exit 0" test $? = 0
"$XCBENCH" --server "$URL" samples "$RUN" --case 7 -o "$TMP/cli-file.csv"
check "xcbench samples -o FILE: exit 0, no FILE.tmp left" test $? = 0 -a ! -e "$TMP/cli-file.csv.tmp"
"$XCBENCH" --server "$URL" samples "$RUN" --rep x >/dev/null 2>"$TMP/cli-bad.err"
check "xcbench samples --rep x: exit 2 (a usage error) with the daemon's reason" \
	bash -c "[ $? = 2 ] && grep -q \"HTTP 400: rep: expected a repetition number, not 'x'\" '$TMP/cli-bad.err'"
"$XCBENCH" --server "$URL" samples "$RUN" --case 999 -o "$TMP/cli-none.csv" 2>"$TMP/cli-none.err"
check "xcbench samples --case 999: exit 1, 404 said, no file" \
	bash -c "[ $? = 1 ] && grep -q 'HTTP 404: run $RUN case 999 not found' '$TMP/cli-none.err' && [ ! -e '$TMP/cli-none.csv' ]"
check "xcbench samples --help names the columns" bash -c "'$XCBENCH' samples --help | grep -q 'case_id,rep,initiator,idx,cycles'"
check "xcbench --help lists samples" bash -c "'$XCBENCH' --help | grep -q '^  samples '"

# checks.py PHASE: the answers against the capture (phase "sent") or
# against the holes stored below (phase "holes").
cat >"$TMP/checks.py" <<'PY'
import csv, io, json, struct, sys, urllib.error, urllib.request
from engine_frames import T_CASE, T_SAMPLES, decode, kv
from tap import ok

phase, url, run, tmp = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]

def get(path):
    try:
        with urllib.request.urlopen(url + path) as r:
            return r.status, r.headers.get("Content-Type"), r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type"), e.read()

def js(path):
    st, ct, body = get(path)
    return st, json.loads(body)

def rows(body):
    return list(csv.reader(io.StringIO(body.decode())))

def err(path, status, msg):
    st, d = js(path)
    ok(st == status and d == {"error": msg, "status": status}, f"{path}: {status} {msg!r} (got {st} {d})")

if phase == "sent":
    frames, problems = decode(tmp + "/gen.log")
    ok(frames and not problems, f"the capture decodes cleanly ({len(frames)} frames) {problems[:3]}")
    # (case, rep, initiator) -> values, in index order (the frames' own)
    streams, cases = {}, set()
    for typ, seq, tok, p in frames:
        if typ == T_SAMPLES:
            c, rep, ini, index, width, _, n = struct.unpack_from("<IHHIBBH", p)
            vals = struct.unpack_from("<%d%s" % (n, "Q" if width == 8 else "I"), p, 16)
            have = streams.setdefault((c, rep, ini), {})
            have.update(zip(range(index, index + n), vals))
        elif typ == T_CASE:
            cases.add(int(kv(p.decode())["id"]))
    streams = {k: [v[x] for x in sorted(v)] for k, v in streams.items()}
    cases = sorted(cases)
    ok(len(cases) == 48 and sum(map(len, streams.values())) == 9216, "48 cases, 9216 samples sent")

    # Every case's answer: its streams, in (rep, initiator) order, as sent.
    bad, total = [], 0
    for c in cases:
        st, d = js(f"/api/v1/runs/{run}/cases/{c}/samples")
        want = [{"rep": r, "initiator": i, "samples": streams[(cc, r, i)], "count": len(streams[(cc, r, i)]),
                 "missing": 0, "holes": []} for (cc, r, i) in sorted(streams) if cc == c]
        n = sum(w["count"] for w in want)
        total += n
        exp = {"run": run, "case_id": c, "rep": None, "initiator": "all", "tsc_khz": 2000000, "limit": 100000,
               "streams": want, "count": n, "returned": n, "missing": 0, "truncated": False}
        if st != 200 or d != exp:
            bad.append(c)
    ok(not bad and total == 9216, f"every case's samples as sent, in order ({total} samples; cases differing: {bad[:5]})")
    ok(list(json.loads(get(f"/api/v1/runs/{run}/cases/5/samples")[2]))[:6] ==
       ["run", "case_id", "rep", "initiator", "tsc_khz", "limit"], "the filters echoed first, as the histogram route")
    st, ct, _ = get(f"/api/v1/runs/{run}/cases/5/samples")
    ok(st == 200 and ct == "application/json", f"JSON answer ({st} {ct})")

    # Filters, as the histogram route's.
    st, d = js(f"/api/v1/runs/{run}/cases/5/samples?rep=1")
    ok(d["rep"] == 1 and [(s["rep"], s["initiator"]) for s in d["streams"]] == [(1, 0)] and
       d["streams"][0]["samples"] == streams[(5, 1, 0)], "?rep=1: that repetition's stream only")
    st, d = js(f"/api/v1/runs/{run}/cases/5/samples?initiator=0")
    ok(d["initiator"] == 0 and [(s["rep"], s["initiator"]) for s in d["streams"]] == [(0, 0), (1, 0), (2, 0)],
       "?initiator=0: each repetition's stream of CPU 0")
    st, d = js(f"/api/v1/runs/{run}/cases/5/samples?initiator=1")
    ok(st == 200 and d["streams"] == [] and d["count"] == 0 and not d["truncated"],
       "?initiator=1 (no such stream): 200, no stream, count 0")
    st, d = js(f"/api/v1/runs/{run}/cases/5/samples?rep=all&initiator=all")
    st2, d2 = js(f"/api/v1/runs/{run}/cases/5/samples")
    ok(d == d2, "rep=all&initiator=all is no filter")

    # The bound: ?limit= cuts the listed samples, never the counts, and says so.
    st, d = js(f"/api/v1/runs/{run}/cases/5/samples?limit=100")
    ok(d["returned"] == 100 and d["count"] == 192 and d["truncated"] and d["limit"] == 100 and
       [len(s["samples"]) for s in d["streams"]] == [64, 36, 0] and [s["count"] for s in d["streams"]] == [64] * 3 and
       d["streams"][1]["samples"] == streams[(5, 1, 0)][:36],
       "?limit=100: the first 100 samples in stream order, counts whole, truncated")
    st, d = js(f"/api/v1/runs/{run}/cases/5/samples?limit=0")
    ok(d["returned"] == 0 and d["count"] == 192 and d["truncated"] and all(s["samples"] == [] for s in d["streams"]),
       "?limit=0: counts only")
    st, d = js(f"/api/v1/runs/{run}/cases/5/samples?limit=192")
    ok(d["returned"] == 192 and not d["truncated"], "?limit= exactly the count: not truncated")

    # Errors.
    err(f"/api/v1/runs/{run}/cases/999/samples", 404, f"run {run} case 999 not found")
    err("/api/v1/runs/99/cases/5/samples", 404, "run 99 not found")
    err(f"/api/v1/runs/{run}/cases/5/samples?rep=x", 400, "rep: expected a repetition number, not 'x'")
    err(f"/api/v1/runs/{run}/cases/5/samples?initiator=70000", 400,
        "initiator: expected a CPU number or 'all', not '70000'")
    err(f"/api/v1/runs/{run}/cases/5/samples?limit=100001", 400, "limit: expected 0..100000 samples, not '100001'")
    err(f"/api/v1/runs/{run}/cases/5/samples?limit=-1", 400, "limit: expected 0..100000 samples, not '-1'")
    err(f"/api/v1/runs/{run}/cases/abc/samples", 400, "bad case id 'abc'")
    err(f"/api/v1/runs/{run}/samples.csv?case=999", 404, f"run {run} case 999 not found")
    err(f"/api/v1/runs/{run}/samples.csv?case=x", 400, "case: expected a case id, not 'x'")
    err(f"/api/v1/runs/{run}/samples.csv?rep=-1", 400, "rep: expected a repetition number, not '-1'")
    err("/api/v1/runs/99/samples.csv", 404, "run 99 not found")

    # The CSV: every sample once, in (case, rep, initiator, idx) order
    # (144 chunks: three blocks of the export).
    st, ct, body = get(f"/api/v1/runs/{run}/samples.csv")
    r = rows(body)
    want = [[str(c), str(rp), str(i), str(x), str(v)] for (c, rp, i) in sorted(streams)
            for x, v in enumerate(streams[(c, rp, i)])]
    ok(st == 200 and ct.startswith("text/csv"), f"samples.csv: 200 text/csv ({st} {ct})")
    ok(body.startswith(b"case_id,rep,initiator,idx,cycles\r\n"), "header case_id,rep,initiator,idx,cycles (CRLF)")
    ok(len(r) == 9217 and r[1:] == want, f"one row per sample sent, in order ({len(r) - 1} rows)")
    ok(open(tmp + "/cli-all.csv", "rb").read() == body, "xcbench samples RUN prints the same bytes")
    st, ct, b5 = get(f"/api/v1/runs/{run}/samples.csv?case=5")
    st, d = js(f"/api/v1/runs/{run}/cases/5/samples")
    from_json = [["5", str(s["rep"]), str(s["initiator"]), str(x), str(v)] for s in d["streams"]
                 for x, v in enumerate(s["samples"])]
    ok(rows(b5)[1:] == from_json and len(from_json) == 192, "?case=5: the JSON's values, row for row")
    st, ct, bf = get(f"/api/v1/runs/{run}/samples.csv?case=5&rep=1&initiator=0")
    ok(rows(bf)[1:] == [x for x in from_json if x[1] == "1"], "?case=5&rep=1&initiator=0: that stream only")
    ok(open(tmp + "/cli-filtered.csv", "rb").read() == bf, "xcbench samples --case 5 --rep 1 --initiator 0: same bytes")
    st, ct, b7 = get(f"/api/v1/runs/{run}/samples.csv?case=7")
    ok(open(tmp + "/cli-file.csv", "rb").read() == b7, "xcbench samples --case 7 -o FILE: the same bytes in FILE")
    st, ct, bi = get(f"/api/v1/runs/{run}/samples.csv?initiator=1")
    ok(bi == b"case_id,rep,initiator,idx,cycles\r\n", "a filter that selects nothing: the header only")
else:
    # Stored by the shell below into case 3 (chunks as (idx0, values)):
    #   rep 0, initiator 1: [0..2] [5..6] [7]  -> indexes 3, 4 missing
    #   rep 0, initiator 2: [4..5]              -> 0..3 missing (the first chunk lost)
    #   rep 0, initiator 3: [0..1], [2..4] whose text does not read back, [5]
    #   rep 0, initiator 4: one row whose n is no count (-1) and text no values
    #   rep 0, all (65535): [0..1]
    st, d = js(f"/api/v1/runs/{run}/cases/3/samples?rep=0")
    got = {s["initiator"]: s for s in d["streams"]}
    ok(st == 200 and list(got) == [0, 1, 2, 3, 4, "all"], f"the stored streams, initiators in order ({list(got)})")
    ok(got[1]["samples"] == [10, 11, 12, 20, 21, 30] and got[1]["count"] == 6 and got[1]["missing"] == 2 and
       got[1]["holes"] == [{"idx": 3, "n": 2}], f"a lost middle chunk: missing 2, hole at 3 ({got[1]})")
    ok(got[2]["samples"] == [40, 41] and got[2]["count"] == 2 and got[2]["missing"] == 4 and
       got[2]["holes"] == [{"idx": 0, "n": 4}], f"a lost first chunk: missing 4, hole at 0 ({got[2]})")
    ok(got[3]["samples"] == [1, 2, 9] and got[3]["count"] == 3 and got[3]["missing"] == 3 and
       got[3]["holes"] == [{"idx": 2, "n": 3}], f"a chunk that does not read back is missing, not made up ({got[3]})")
    ok(got[4]["samples"] == [] and got[4]["count"] == 0 and got[4]["missing"] == 0 and got[4]["holes"] == [],
       f"a row that tells no count: no sample, no hole ({got[4]})")
    ok(got["all"]["samples"] == [7, 8] and got["all"]["missing"] == 0, "initiator 65535 is named 'all'")
    ok(d["missing"] == 9 and d["count"] == 64 + 6 + 2 + 3 + 2 and not d["truncated"],
       f"the totals: count {d['count']}, missing {d['missing']}")
    st, ct, body = get(f"/api/v1/runs/{run}/samples.csv?case=3&rep=0")
    r = [x for x in rows(body)[1:] if x[2] != "0"]
    ok(r == [["3", "0", "1", "0", "10"], ["3", "0", "1", "1", "11"], ["3", "0", "1", "2", "12"],
             ["3", "0", "1", "5", "20"], ["3", "0", "1", "6", "21"], ["3", "0", "1", "7", "30"],
             ["3", "0", "2", "4", "40"], ["3", "0", "2", "5", "41"],
             ["3", "0", "3", "0", "1"], ["3", "0", "3", "1", "2"], ["3", "0", "3", "5", "9"],
             ["3", "0", "all", "0", "7"], ["3", "0", "all", "1", "8"]],
       "the CSV: no row where a sample is missing, initiator 65535 as 'all'")
PY
python3 "$TMP/checks.py" sent "$URL" "$RUN" "$TMP"

# Holes: chunks stored as the store would have kept them had frames been
# lost, into the stopped daemon's database (SQLite file or PostgreSQL).
check "SIGTERM: clean shutdown" stop_daemon
SQL="INSERT INTO sample_chunks(run_id, case_id, rep, initiator, idx0, n, vals) VALUES
	($RUN, 3, 0, 1, 0, 3, '10,11,12'), ($RUN, 3, 0, 1, 5, 2, '20,21'), ($RUN, 3, 0, 1, 7, 1, '30'),
	($RUN, 3, 0, 2, 4, 2, '40,41'),
	($RUN, 3, 0, 3, 0, 2, '1,2'), ($RUN, 3, 0, 3, 2, 3, '5,6'), ($RUN, 3, 0, 3, 5, 1, '9'),
	($RUN, 3, 0, 4, 0, -1, 'x'),
	($RUN, 3, 0, 65535, 0, 2, '7,8')"
case $DB in
postgres*) psql -X -q -v ON_ERROR_STOP=1 "$DB" -c "$SQL" ;;
*) sqlite3 "$DB" "$SQL" ;;
esac
check "the chunks with holes are stored" test $? = 0
start_daemon --open || { notok "daemon restarts"; exit 1; }
python3 "$TMP/checks.py" holes "$URL" "$RUN" "$TMP"
check "SIGTERM: clean shutdown" stop_daemon
