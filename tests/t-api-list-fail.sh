#!/bin/bash
# t-api-list-fail.sh - a JSON list whose store read fails answers 500 with
# the error body, never 200 with the rows read before the failure (as
# t-csv-cut.sh for the CSV exports). The failures are real ones:
#  - SQLite, mid-way: a leaf page in the middle of the events table's
#    b-tree is damaged after the daemon's start-up check passed, so the
#    events list reads its first ~1500 lines and then SQLITE_CORRUPT; it
#    answered 200 with those lines; the same for the results table, and a
#    run's page of cases (built from the store: cases_limit) answered 200
#    with the cases after the damage without their results;
#  - PostgreSQL (t-pg-list-fail.sh sets DB): the events and results
#    tables renamed away, so the read fails at its first row (a reader fetches its rows
#    whole, so no later one); it answered 200 with no event;
#  - both: the machines and jobs tables renamed away (the run list and
#    the baselines join machines); 200 with [] (and xcbench runs printed
#    an empty table);
#  - a case's histogram (SQLite: its table damaged as events; PostgreSQL:
#    renamed away): 200 with the buckets read so far, or 404 as if none
#    were stored; the run_tags table renamed away: a run page, the runs
#    list and a PATCH's answer were 200 with runs that look unlabelled,
#    compare a=label:NAME 404; the runs table renamed away: health's run
#    counts were all 0 with status "ok";
#  - a PATCH whose tags' insert a trigger refuses: 200, the tags deleted;
#  - the lab overview with machines renamed away: 200 with [];
#  - the jobs table renamed away: a machine's page 200 with no job, a
#    job's page 404, the job runner silent (its pass read no job); the
#    runs table renamed away: the schema's algorithms [];
#  - a machines column the power settings read renamed away (the jobs
#    still read): the job runner's pass stopped at that job, leaving it
#    and every later one without a word.
# timeout: 180
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "a JSON list whose store read fails"
case "${DB:-}" in
postgresql://*) . "$ROOT/tests/lib/pg.sh"; sql() { pg_psql "$PG_DBNAME" "$1"; } ;;
*) sql() { python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1], timeout=30); c.execute(sys.argv[2]); c.commit()' "$DB" "$1"; } ;;
esac
start_daemon --open || { notok "the daemon starts"; exit 1; }

# 3000 console lines of run 1 (events), a machine (a boot) and a job.
curl -s -o /dev/null -H 'Content-Type: application/json' -d '{"token":"00000000000ab001","label":"events"}' "$URL/api/v1/runs"
for part in 0 1 2 3 4 5; do
	python3 -c 'import sys; n=int(sys.argv[1]); print("\n".join("console line %d of the run, padded to fill the pages: %s" % (n + i, "x" * 40) for i in range(500)))' \
		$((part * 500)) >"$TMP/lines"
	curl -s -o /dev/null -H 'Content-Type: application/json' --data-binary @"$TMP/lines" \
		"$URL/api/v1/runs/1/console?line=$((part * 500))"
done
curl -s -o /dev/null "$URL/boot.ipxe?mac=52-54-00-00-0a-01"
curl -s -o /dev/null -H 'Content-Type: application/json' -d '{"mac":"52:54:00:00:0a:02","suite":"quick"}' "$URL/api/v1/jobs"
# A run of 16 repetitions (2560 result rows: many pages).
"$XCB_GEN" --server "127.0.0.1:$PORT" --reps 16 --token 00000000000ab0ff >"$TMP/gen.out" 2>&1
gid=$(pyjson "$URL/api/v1/runs?limit=1" 'd["runs"][0]["id"]')
# A run with tags and a field only (no event, no result: its page reads
# nothing the damage below reaches but its labels).
lid=$(curl -s -H 'Content-Type: application/json' -d '{"token":"00000000000ab00f","label":"labelled"}' "$URL/api/v1/runs" |
	python3 -c 'import json,sys; print(json.load(sys.stdin)["run"]["id"])')
curl -s -o /dev/null -X PATCH -H 'Content-Type: application/json' -d '{"tags":["v1","v2"],"meta":{"kernel":"abc"}}' \
	"$URL/api/v1/runs/$lid"
check "3000 events, a machine, a job stored" test "$(pyjson "$URL/api/v1/runs/1/events?limit=10000" 'len(d["events"])') $(pyjson "$URL/api/v1/machines" 'len(d["machines"])') $(pyjson "$URL/api/v1/jobs" 'len(d["jobs"])')" = "3000 1 1"

# answer NAME PATH: "STATUS BODY-STATUS EVENTS" of a GET into $TMP/NAME.
answer() {
	curl -s -o "$TMP/$1" -w '%{http_code}' "$URL$2" >"$TMP/$1.code"
	python3 - "$TMP/$1" "$(cat "$TMP/$1.code")" <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except ValueError:
    d = {}
n = [len(v) for v in d.values() if isinstance(v, list)]
print(sys.argv[2], d.get("status"), n[0] if n else '-', (d.get("error") or '')[:60])
PY
}

# damage TABLE: a leaf in the middle of TABLE's b-tree (WITHOUT ROWID: an
# index b-tree) gets a page type no b-tree has (SQLite file format).
damage() {
	python3 - "$DB" "$1" <<'PY'
import sqlite3, struct, sys
db = sys.argv[1]
c = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
root = c.execute("SELECT rootpage FROM sqlite_master WHERE name=?", (sys.argv[2],)).fetchone()[0]
psize = c.execute("PRAGMA page_size").fetchone()[0]
c.close()
f = open(db, "r+b")
def page(n):
    f.seek((n - 1) * psize)
    return f.read(psize)
n = root
while True:
    p = page(n)
    h = 100 if n == 1 else 0
    if p[h] not in (2, 5):          # a leaf
        break
    cells = struct.unpack(">H", p[h + 3:h + 5])[0]
    ptr = struct.unpack(">H", p[h + 12 + 2 * (cells // 2):h + 14 + 2 * (cells // 2)])[0]
    n = struct.unpack(">I", p[ptr:ptr + 4])[0]   # the middle cell's child
assert n != root, "the b-tree has one page"
f.seek((n - 1) * psize)
f.write(b"\x07" + b"\xff" * 7)
f.close()
PY
}

got=$(curl -s "$URL/api/v1/runs/$lid" | python3 -c 'import json,sys; r=json.load(sys.stdin)["run"]; print(r["tags"], r["meta"])')
check "the labelled run's page has its tags and field ($got)" test "$got" = "['v1', 'v2'] {'kernel': 'abc'}"
# A PATCH whose write fails (a trigger refuses the tags' insert): 500 and
# nothing of it stored, in a savepoint; it was 200 with the run's tags
# deleted (and on PostgreSQL the writer's whole batch aborted).
if [ -n "${PG_DBNAME:-}" ]; then
	sql "CREATE FUNCTION refuse() RETURNS trigger AS \$\$ BEGIN RAISE EXCEPTION 'refused by the test'; END \$\$ LANGUAGE plpgsql; CREATE TRIGGER refuse BEFORE INSERT ON run_tags FOR EACH ROW EXECUTE FUNCTION refuse()"
else
	sql "CREATE TRIGGER refuse BEFORE INSERT ON run_tags BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"
fi
code=$(curl -s -o "$TMP/patch-refused.out" -w '%{http_code}' -X PATCH -H 'Content-Type: application/json' \
	-d '{"tags":["v3"],"label":"changed"}' "$URL/api/v1/runs/$lid")
check "a PATCH whose write fails: 500 with the error ($code $(head -c 100 "$TMP/patch-refused.out"))" \
	bash -c '[ "$1" = 500 ] && grep -q "refused by the test" "$2"' _ "$code" "$TMP/patch-refused.out"
[ -n "${PG_DBNAME:-}" ] && sql "DROP TRIGGER refuse ON run_tags; DROP FUNCTION refuse()" || sql "DROP TRIGGER refuse"
got=$(curl -s "$URL/api/v1/runs/$lid" | python3 -c 'import json,sys; r=json.load(sys.stdin)["run"]; print(r["label"], r["tags"])')
check "... and nothing of it is stored: label and tags as before ($got)" test "$got" = "labelled ['v1', 'v2']"
code=$(curl -s -o /dev/null -w '%{http_code}' -X PATCH -H 'Content-Type: application/json' -d '{"notes":"after"}' "$URL/api/v1/runs/$lid")
check "the writer goes on: the next PATCH is stored ($code)" \
	bash -c '[ "$1" = 200 ] && [ "$(curl -s "$2" | python3 -c "import json,sys; print(json.load(sys.stdin)[\"run\"][\"notes\"])")" = after ]' _ "$code" "$URL/api/v1/runs/$lid"
# The labels' table gone: every answer that carries labels is 500 (it was
# 200 with runs that look unlabelled), and a compare side by label is
# 500 (it was 404 "no complete run has that label").
sql "ALTER TABLE run_tags RENAME TO run_tags_away"
got=$(answer labelled "/api/v1/runs/$lid")
check "a run page whose labels cannot be read: 500, not the run without them ($got)" bash -c '[[ "$1" == "500 500 - "* ]]' _ "$got"
got=$(answer runs-labels /api/v1/runs)
check "runs list whose labels cannot be read: 500, not runs without them ($got)" bash -c '[[ "$1" == "500 500 - "* ]]' _ "$got"
code=$(curl -s -o "$TMP/patch.out" -w '%{http_code}' -X PATCH -H 'Content-Type: application/json' -d '{"notes":"n"}' "$URL/api/v1/runs/$lid")
check "a PATCH answered with the run read back without its labels: 500 ($code $(head -c 80 "$TMP/patch.out"))" test "$code" = 500
got=$(answer cmp-label "/api/v1/compare?a=label:v1&b=$gid")
check "compare a=label:NAME whose read fails: 500, not 404 no such run ($got)" bash -c '[[ "$1" == "500 500 "* ]]' _ "$got"
sql "ALTER TABLE run_tags_away RENAME TO run_tags"
if [ -n "${PG_DBNAME:-}" ]; then
	sql "ALTER TABLE results RENAME TO results_away"
else
	# Once the daemon's start-up quick_check has passed (and its writer
	# has rendered the finished run's page: the default page is that).
	stop_daemon
	start_daemon --open || { notok "the daemon starts again"; exit 1; }
	damage events
	damage results
	damage histogram_chunks
fi
got=$(answer run "/api/v1/runs/$gid?cases_limit=48")
check "a run's cases read from the store: 500 with the error body, not cases without their results ($got)" \
	bash -c '[[ "$1" == "500 500 - "* ]]' _ "$got"
[ -n "${PG_DBNAME:-}" ] && sql "ALTER TABLE events RENAME TO events_away"
got=$(answer events "/api/v1/runs/1/events?limit=10000")
check "events list: 500 with the error body, not a shorter list ($got)" bash -c '[[ "$1" == "500 500 - "* ]]' _ "$got"
# A case's histogram: SQLite's damage is in some cases' chunks (each
# reads its own), PostgreSQL's table is gone for all; either is 500 with
# the error body, not 404 "no histogram" (it is stored) nor the buckets
# read before the damage (200). Every case of the run has one.
[ -n "${PG_DBNAME:-}" ] && sql "ALTER TABLE histogram_chunks RENAME TO histogram_chunks_away"
codes=$(for c in $(seq 1 48); do
	curl -s -o /dev/null -w '%{http_code}\n' "$URL/api/v1/runs/$gid/cases/$c/histogram"
done | sort | uniq -c | tr -s ' \n' '  ')
check "histograms whose read fails: 500, never 404 nor a 200 of part of them (${codes})" \
	bash -c '[[ "$1" == *" 500"* && "$1" != *" 404"* ]] && { [ -z "${PG_DBNAME:-}" ] || [[ "$1" != *" 200"* ]]; }' _ "$codes"
# The jobs table renamed away while the machines stay: a machine's page
# was 200 with "jobs": [], a job's page 404; the job runner's pass read
# no job and said nothing (a store that fails reads as a lab with no job).
sql "ALTER TABLE jobs RENAME TO jobs_away"
got=$(answer machine /api/v1/machines/52:54:00:00:0a:01)
check "a machine page whose jobs cannot be read: 500 with the error body, not the machine without jobs ($got)" \
	bash -c '[[ "$1" == "500 500 - "* ]]' _ "$got"
got=$(answer job /api/v1/jobs/1)
check "a job page whose read fails: 500, not 404 no such job ($got)" bash -c '[[ "$1" == "500 500 - "* ]]' _ "$got"
# runner_lines: how many of this daemon's log lines say the runner's read failed / read again
runner_lines() { tail -n +"$((DLOG_AT + 1))" "$TMP/daemon.log" | grep -c "job runner: $1"; }
for _ in $(seq 1 300); do [ "$(runner_lines 'cannot read the jobs')" -ge 1 ] && break; sleep 0.1; done
sleep 2	# passes enough to have said it again were it said every pass
check "the job runner's failed read is logged, once for passes in a row ($(runner_lines 'cannot read the jobs'))" \
	test "$(runner_lines 'cannot read the jobs')" = 1
sql "ALTER TABLE jobs_away RENAME TO jobs"
for _ in $(seq 1 300); do [ "$(runner_lines 'reads the jobs again')" -ge 1 ] && break; sleep 0.1; done
check "... and once when it reads them again ($(runner_lines 'reads the jobs again'))" test "$(runner_lines 'reads the jobs again')" = 1
got=$(answer machine-back /api/v1/machines/52:54:00:00:0a:01)
check "the machine page again, its jobs read ($got)" bash -c '[[ "$1" == "200 None "* ]]' _ "$got"
# The jobs read, but not job 1's machine's power settings (one column
# renamed away): that is no manual machine; the runner says so once.
sql "ALTER TABLE machines RENAME COLUMN power_sol TO power_sol_away"
for _ in $(seq 1 300); do [ "$(runner_lines 'cannot read the power settings')" -ge 1 ] && break; sleep 0.1; done
sleep 2	# passes enough to have said it again were it said every pass
line=$(tail -n +"$((DLOG_AT + 1))" "$TMP/daemon.log" | grep -m1 'job runner: cannot read the power settings')
diag "$line"
check "a machine's power settings whose read fails: logged, once for passes in a row ($(runner_lines 'cannot read the power settings'))" \
	test "$(runner_lines 'cannot read the power settings')" = 1
check "... naming the machine and its waiting job" grep -q 'of machine 52:54:00:00:0a:02 (.*); job 1 and any other job of it wait' <<<"$line"
sql "ALTER TABLE machines RENAME COLUMN power_sol_away TO power_sol"
for _ in $(seq 1 300); do [ "$(runner_lines "reads the machines' power settings again")" -ge 1 ] && break; sleep 0.1; done
check "... and once when it reads them again ($(runner_lines "reads the machines' power settings again"))" \
	test "$(runner_lines "reads the machines' power settings again")" = 1
sql "ALTER TABLE machines RENAME TO machines_away"
got=$(answer machines /api/v1/machines)
check "machines list: 500 with the error body, not [] ($got)" bash -c '[[ "$1" == "500 500 - "* ]]' _ "$got"
got=$(answer runs /api/v1/runs)
check "runs list (which joins machines): 500 with the error body, not [] ($got)" bash -c '[[ "$1" == "500 500 - "* ]]' _ "$got"
"$XCBENCH" --server "$URL" runs >"$TMP/cli.out" 2>"$TMP/cli.err"
rc=$?
check "xcbench runs: exit $rc, the daemon's error, no table ($(head -c 80 "$TMP/cli.err"))" \
	bash -c '[ "$1" = 1 ] && grep -q "HTTP 500" "$2" && [ ! -s "$3" ]' _ "$rc" "$TMP/cli.err" "$TMP/cli.out"
got=$(answer baselines /api/v1/baselines)
check "baselines list (which joins machines): 500 with the error body, not [] ($got)" bash -c '[[ "$1" == "500 500 - "* ]]' _ "$got"
got=$(answer lab /api/v1/lab)
check "lab overview (machines and jobs): 500 with the error body, not [] ($got)" bash -c '[[ "$1" == "500 500 - "* ]]' _ "$got"
sql "ALTER TABLE jobs RENAME TO jobs_away"
got=$(answer jobs /api/v1/jobs)
check "jobs list: 500 with the error body, not [] ($got)" bash -c '[[ "$1" == "500 500 - "* ]]' _ "$got"
check "the daemon still answers (health)" bash -c 'curl -sf "$1/api/v1/health" >/dev/null' _ "$URL"
# Health's run counts whose read fails: null and degraded with the reason
# (health answers 200 whatever it finds); they were all 0 and "ok".
sql "ALTER TABLE runs RENAME TO runs_away"
got=$(curl -s -w ' %{http_code}' "$URL/api/v1/health" | python3 -c 'import json,sys; t=sys.stdin.read(); b,c=t.rsplit(" ",1); d=json.loads(b)
print(c, d["status"], d["runs"], (d.get("reason") or "")[:40])')
check "health whose run counts cannot be read: runs null, degraded, the reason ($got)" \
	bash -c '[[ "$1" == "200 degraded None run counts: query failed"* ]]' _ "$got"
# The schema's algorithms are learned from the stored runs: a failed read
# was 200 with "algorithms": [] (and no algo words).
got=$(answer schema /api/v1/schema)
check "schema whose learned algorithms cannot be read: 500 with the error body, not none learned ($got)" \
	bash -c '[[ "$1" == "500 500 - "* ]]' _ "$got"
