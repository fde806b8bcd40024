#!/bin/bash
# t-show-skipped.sh - the cases a payload skipped are counted per reason in
# the run's JSON (`skipped`, from its LOG lines "case I/N skipped: WHY") and
# said by `xcbench show`: a tlb run that skipped 10 of its 16 cases (invpcid,
# x2apic_cluster) read "6 of 6 cases done" in vm and showed 6 cases in show,
# with nothing of the 10 outside the log. The allbutself cases the plan
# leaves out (one line, "plan: K cases skipped: WHY") count too. A hand-made run (UDP frames,
# tests/lib/skipped-runs.sh) with the payload's skip lines as it writes them
# (firmware/bench/runner.c prepare()).
# timeout: 120
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/test-daemon.sh"
. "$(dirname "$0")/lib/skipped-runs.sh"
daemon_test "show: skipped cases"
start_daemon --open || { notok "the daemon starts"; exit 1; }
T=$TMP

skipped_run_send
check "the hand-made run is sent" test $? -eq 0
id=$(newest_run)
curl -sf "$URL/api/v1/runs/$id" >"$T/run.json"
check "the run's skipped: 9 of 12 (4 left out by the plan), per reason without the parenthesis, in the order logged" python3 - "$T/run.json" <<'PY'
import json, sys
sk = json.load(open(sys.argv[1]))['skipped']
want = {'cases': 9, 'suite_cases': 12, 'reasons': [
    {'reason': 'delivery allbutself needs one initiator and a mask of every other CPU', 'cases': 4},
    {'reason': 'invpcid not supported by this CPU', 'cases': 2},
    {'reason': 'delivery x2apic_cluster not available', 'cases': 1},
    {'reason': 'mask does not fit the CPU count', 'cases': 2}]}
sys.exit(0 if sk == want else print('# got', sk) or 1)
PY
"$XCBENCH" --server "$URL" show "$id" >"$T/show.out" 2>&1
check "show says how many of the suite's cases were skipped, and why" grep -qx \
	"9 of the suite's 12 cases skipped: 4 delivery allbutself needs one initiator and a mask of every other CPU, 2 invpcid not supported by this CPU, 1 delivery x2apic_cluster not available, 2 mask does not fit the CPU count" \
	"$T/show.out"

# A run that skipped nothing: an empty count, and show says nothing of it.
unskipped_run_send
id2=$(newest_run)
check "a run that skipped nothing: skipped is 0 with no reason" test \
	"$(curl -sf "$URL/api/v1/runs/$id2" | python3 -c "import json,sys; print(json.load(sys.stdin)['skipped'])")" = \
	"{'cases': 0, 'suite_cases': None, 'reasons': []}"
"$XCBENCH" --server "$URL" show "$id2" >"$T/show2.out" 2>&1
grep -q 'cases skipped' "$T/show2.out" && sed 's/^/# /' "$T/show2.out" | head -5
check "... and show says nothing of skips" bash -c '! grep -q 'cases skipped' "$1"' _ "$T/show2.out"

