#!/bin/bash
# t-verdict.sh — a run whose payload checks FAILED (DONE status 2: calls
# lost) is `complete` and read as a pass in `xcbench runs`, where only its
# status showed, and no filter found it. Four hand-made runs
# (tests/lib/verdict-runs.sh): DONE ok, DONE aborted, DONE FAILED, and one
# still running. `xcbench runs` names each one's verdict in its VERDICT column in
# the words of GET /api/v1/schema `verdicts` (host/common/verdict_words.c,
# which `xcbench show` says too), and `?verdict=` / `--verdict` / runs.csv
# list the runs of one verdict.
# timeout: 120
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
. "$(dirname "$0")/lib/verdict-runs.sh"
daemon_test "run verdicts"
start_daemon --open || { notok "the daemon starts"; exit 1; }
T=$TMP
X=("$XCBENCH" --server "$URL")

verdict_runs
ids=$(pyjson "$URL/api/v1/runs" '" ".join("%s=%s/%s" % (r["label"], r["status"], r["done_status"]) for r in sorted(d["runs"], key=lambda r: r["id"]))')
check "four runs stored ($ids)" \
	test "$ids" = "v-ok=complete/0 v-aborted=complete/1 v-failed=complete/2 v-live=running/None"
id_of() { pyjson "$URL/api/v1/runs?label=$1" 'd["runs"][0]["id"]'; }
FAILED_ID=$(id_of v-failed)

# The words: the schema's, one per DONE status.
words=$(pyjson "$URL/api/v1/schema" '" ".join("%d=%s" % (v["done_status"], v["name"]) for v in d["verdicts"])')
check "GET /api/v1/schema verdicts: the DONE statuses' names ($words)" test "$words" = "0=ok 1=aborted 2=FAILED"
says=$(pyjson "$URL/api/v1/schema" 'd["verdicts"][2]["says"]')

# The API's filter, any case, with status; and runs.csv's.
for v in failed FAILED; do
	got=$(pyjson "$URL/api/v1/runs?verdict=$v" '" ".join(r["label"] for r in d["runs"]) + " total %d" % d["total"]')
	check "GET runs?verdict=$v: the failed run only ($got)" test "$got" = "v-failed total 1"
done
got=$(pyjson "$URL/api/v1/runs?status=complete&verdict=ok" '" ".join(r["label"] for r in d["runs"])')
check "GET runs?status=complete&verdict=ok: the run that passed ($got)" test "$got" = "v-ok"
got=$(pyjson "$URL/api/v1/runs?verdict=aborted" '" ".join(r["label"] for r in d["runs"])')
check "GET runs?verdict=aborted: the aborted run ($got)" test "$got" = "v-aborted"
code=$(curl -s -o "$T/bad.json" -w '%{http_code}' "$URL/api/v1/runs?verdict=passed")
check "GET runs?verdict=passed: 400 naming the verdicts ($code $(cat "$T/bad.json"))" bash -c \
	'[ "$1" = 400 ] && grep -q "verdict: expected ok, aborted or FAILED (any case)" "$2"' _ "$code" "$T/bad.json"
curl -sf "$URL/api/v1/runs.csv?verdict=FAILED" >"$T/runs.csv"
check "runs.csv?verdict=FAILED: a header and the failed run's row ($(($(wc -l <"$T/runs.csv") - 1)) rows)" \
	bash -c '[ "$(wc -l <"$1")" = 2 ] && grep -q ",v-failed," "$1"' _ "$T/runs.csv"

# xcbench runs: the VERDICT column beside STATUS, the schema's words (an
# --open daemon answers as to an admin: the TOKEN column before them).
"${X[@]}" runs >"$T/runs.out" 2>&1
check "xcbench runs: a VERDICT column after STATUS" grep -qE '^ID +(TOKEN +)?STATUS +VERDICT +SUITE' "$T/runs.out"
for w in "v-ok complete ok" "v-aborted complete aborted" "v-failed complete FAILED" "v-live running -"; do
	set -- $w
	check "xcbench runs: $1 reads '$2 $3'" grep -qE "^[0-9]+ +([0-9a-f]{16} +)?$2 +$3 +quick .* $1\$" "$T/runs.out"
done
"${X[@]}" runs --verdict failed >"$T/runs-f.out" 2>&1
check "xcbench runs --verdict failed: the failed run only ($(grep -c ' v-' "$T/runs-f.out") rows)" \
	bash -c '[ "$(grep -c " v-" "$1")" = 1 ] && grep -qE "^$2 +([0-9a-f]{16} +)?complete +FAILED .* v-failed$" "$1"' _ "$T/runs-f.out" "$FAILED_ID"
"${X[@]}" runs --verdict passed >"$T/runs-b.out" 2>&1
rc=$?
check "xcbench runs --verdict passed: exit $rc, the daemon's words ($(cat "$T/runs-b.out"))" bash -c \
	'[ "$1" != 0 ] && grep -q "^xcbench runs: --verdict: expected ok, aborted or FAILED (any case)$" "$2"' _ "$rc" "$T/runs-b.out"
# show's VERDICT line: the schema's sentence (one table for both).
"${X[@]}" show "$FAILED_ID" >"$T/show.out" 2>&1
check "xcbench show: 'VERDICT: ' and the schema's words for it" grep -qxF "VERDICT: $says" "$T/show.out"
check "SIGTERM: clean shutdown" stop_daemon
