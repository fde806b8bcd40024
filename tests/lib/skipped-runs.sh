# tests/lib/skipped-runs.sh — two hand-made runs (UDP frames,
# tests/web/frames.py) for the skipped-case tests (t-show-skipped,
# t-web-skipped): one of a tlb suite whose payload skipped 9 of its 12
# cases, with the skip lines as the payload writes them
# (firmware/bench/runner.c prepare(), the planner's plan: line of
# bench.c run_suite), and one that skipped nothing. Source after
# test-daemon.sh, with an --open daemon up; each is the newest run once sent.

# skipped_run_send: the run with skips: 4 left out by the plan
# (allbutself), 2 invpcid, 1 x2apic_cluster, 2 masks too large; one case
# ran. 1 if it could not be sent.
skipped_run_send() {
	PYTHONPATH=$ROOT/tests/web:$PYTHONPATH python3 - "127.0.0.1:$PORT" <<'PY'
import struct, sys
import frames
r = frames.Run(0x5c1d01)
r.text(frames.HELLO, 'fw=t-show-skipped\ncpus=4\ntsc_khz=2000000\ntransport=udp\nsuite=tlb\n')
r.text(frames.LOG, 'suite tlb: 8 cases')
r.text(frames.LOG, 'plan: 4 cases skipped: delivery allbutself needs one initiator and a mask of every other CPU '
       '(inits=1 mask=3 here: the all-but-self shorthand, seed 001)')
r.text(frames.HELLO, 'cases_planned=3\n')
r.text(frames.CASE, 'id=1\nkind=tlb\nalgo=locked\ndelivery=unicast\nwait=done\ninits=1\nmask=3\n'
       'placement=first\noverlap=disjoint\nwork_us=0\niters=100\nreps=1\nmethod=invlpg\nbatch=1\n')
r.result(1, 0, frames.ALL, 2000, ipis=300, calls=300)
r.histo(1, 0, 2000)  # as a payload's: the run page's histogram finds one
for i in (2, 3):
    r.text(frames.LOG, f'case {i}/8 skipped: invpcid not supported by this CPU')
r.text(frames.LOG, 'case 4/8 skipped: delivery x2apic_cluster not available (APIC mode)')
r.text(frames.LOG, 'case 5/8 skipped: mask does not fit the CPU count (tlb locked inits=1 mask=8 first, 4 CPUs)')
r.text(frames.LOG, 'case 6/8 skipped: mask does not fit the CPU count (tlb locked inits=2 mask=8 first, 4 CPUs)')
r.text(frames.LOG, 'case 7 rep 0: a line of another shape, never counted: skipped: no')
r.text(frames.LOG, 'done: ok (0 ERROR frames, 0 stale, 0 lost, 0 duplicated, 0 out of order)')
r.frame(frames.DONE, struct.pack('<II', len(r.frames), 0))
frames.send(sys.argv[1], r.frames, 0, len(r.frames))
PY
}

# unskipped_run_send: a run that skipped nothing (a LOG line, no DONE).
unskipped_run_send() {
	PYTHONPATH=$ROOT/tests/web:$PYTHONPATH python3 - "127.0.0.1:$PORT" <<'PY'
import sys
import frames
r = frames.Run(0x5c1d02)
r.text(frames.HELLO, 'fw=t-show-skipped\ncpus=4\ntsc_khz=2000000\ntransport=udp\nsuite=tlb\n')
r.text(frames.LOG, 'case 1 rep 0: nothing skipped here')
frames.send(sys.argv[1], r.frames, 0, len(r.frames))
PY
}

# newest_run: the id of the newest run.
newest_run() {
	curl -sf "$URL/api/v1/runs" | python3 -c "import json,sys; print(json.load(sys.stdin)['runs'][0]['id'])"
}
