#!/bin/bash
# timeout: 120
# Labels as metadata (issue 25): several tags and key=value fields per run,
# set after the run (`xcbench label`, PATCH) and at queue time (`queue --tag
# --meta`, copied to the run its boot creates); the run list filters them on
# the server (substring: `runs --label patch` finds "patch v3"; exact tag),
# pages with a correct total, and its CSV takes the same filters.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
daemon_test "labels"

admin_daemon labels-admin
X=("$XCBENCH" --server "$URL" --token-file "$TMP/token")
for t in 1a001 1a002 1a003; do
	curl -sf -X POST "${ADMIN[@]}" -d "{\"token\":\"$t\",\"suite\":\"gen\"}" "$URL/api/v1/runs" >/dev/null
done
"$XCB_GEN" --server 127.0.0.1:$PORT --runs 3 --token 1a001 --reps 2 >/dev/null 2>&1
mapfile -t ID < <(pyjson "$URL/api/v1/runs" '"\n".join(str(r["id"]) for r in sorted(d["runs"], key=lambda r: r["id"]))')
check "three runs stored (${ID[*]})" [ "${#ID[@]}" = 3 ]

"${X[@]}" label "${ID[0]}" --label "patch v3" --tag lockless --tag v3 series=lockless-ipi version=3 kernel=6.12 >"$TMP/l1" 2>&1
check "xcbench label sets label, tags and fields ($(cat "$TMP/l1"))" \
	grep -q "label patch v3; tags lockless v3; kernel=6.12 series=lockless-ipi version=3" "$TMP/l1"
"${X[@]}" label "${ID[1]}" --tag baseline --tag v3 kernel=6.11 >/dev/null 2>&1
"${X[@]}" label "${ID[1]}" --untag v3 kernel= >"$TMP/l2" 2>&1
check "--untag and KEY= remove ($(cat "$TMP/l2"))" grep -qx "run ${ID[1]}: label -; tags baseline;" "$TMP/l2"
"${X[@]}" runs --label patch >"$TMP/r1" 2>&1
check "runs --label patch finds \"patch v3\" (substring, server-side)" \
	bash -c "grep -q '^${ID[0]} ' '$TMP/r1' && ! grep -q '^${ID[1]} ' '$TMP/r1' && grep -q '(runs 1-1 of 1)' '$TMP/r1'"
check "the list shows tags and fields" grep -q "patch v3 #lockless #v3 kernel=6.12" "$TMP/r1"
n=$(pyjson "$URL/api/v1/runs?q=KERNEL%3D6.12" 'len(d["runs"])')
check "q matches a key=value field, any case ($n)" [ "$n" = 1 ]
n=$(pyjson "$URL/api/v1/runs?tag=baseline" '[r["id"] for r in d["runs"]]')
check "tag= is exact ($n)" [ "$n" = "[${ID[1]}]" ]
n=$(pyjson "$URL/api/v1/runs?tag=v" 'len(d["runs"])')
check "tag=v matches no tag v3 ($n)" [ "$n" = 0 ]
n=$(pyjson "$URL/api/v1/runs?q=50%25" 'len(d["runs"])')
check "q's % is literal, not a wildcard ($n)" [ "$n" = 0 ]
p=$(pyjson "$URL/api/v1/runs?limit=1&offset=1" '(len(d["runs"]), d["total"], d["runs"][0]["id"])')
check "paging: limit=1 offset=1 gives the second of 3 ($p)" [ "$p" = "(1, 3, ${ID[1]})" ]
"${X[@]}" runs --limit 1 --offset 1 >"$TMP/r2" 2>&1
check "runs --limit/--offset says which of how many" grep -q "(runs 2-2 of 3; --offset for more)" "$TMP/r2"
curl -s "$URL/api/v1/runs.csv?q=lockless" >"$TMP/csv"
check "runs.csv takes the same filter (header + 1 row)" [ "$(wc -l <"$TMP/csv")" = 2 ] && grep -q "^${ID[0]}," "$TMP/csv"
# a label and a field of several lines (PATCH takes any text): still one
# line per run in the table (its rows split in two, a script reading it
# by lines saw a run "line two")
"${X[@]}" label "${ID[2]}" --label $'line one\nline two' $'note=a\tb\nc' >/dev/null 2>&1
"${X[@]}" runs >"$TMP/r3" 2>&1
check "runs: one line per run with a label of two lines ($(wc -l <"$TMP/r3") lines: header, 3 runs, the count)" \
	test "$(wc -l <"$TMP/r3")" = 5
check "... the lines joined by spaces" grep -q "^${ID[2]} .*line one line two note=a b c$" "$TMP/r3"
c=$(curl -s -o "$TMP/bad" -w '%{http_code}' -X PATCH "${ADMIN[@]}" -d '{"tags":["has space"]}' "$URL/api/v1/runs/${ID[2]}")
check "a bad tag is refused with a reason ($c)" [ "$c" = 400 ] && grep -q "tags: each" "$TMP/bad"

# queue time: the job's tags and fields go to the run its boot creates
MAC=52:54:00:25:1a:01
"${X[@]}" queue --mac $MAC --suite quick --tag nightly --meta series=s1 --meta version=2 >"$TMP/q" 2>&1
check "queue --tag --meta ($(head -1 "$TMP/q"))" grep -q "queued job" "$TMP/q"
run=$(pyjson "$URL/boot.json?mac=$MAC&firmware=bios" 'd["run"]["id"]')
t=$(pyjson "$URL/api/v1/runs/$run" '(d["run"]["tags"], d["run"]["meta"])')
check "the booted run carries the job's tags and fields ($t)" [ "$t" = "(['nightly'], {'series': 's1', 'version': '2'})" ]
"${X[@]}" queue --mac $MAC --suite nosuch >/dev/null 2>"$TMP/q2"
rc=$?
check "queue --suite nosuch is refused ($rc: $(cat "$TMP/q2"))" [ "$rc" = 2 ] && grep -q "unknown suite" "$TMP/q2"
check "SIGTERM: clean shutdown" stop_daemon
