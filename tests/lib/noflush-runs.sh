# tests/lib/noflush-runs.sh — hand-made runs (UDP frames, tests/web/frames.py)
# shaped as the tlb suite's early_ack cases (unicast, masks 1-3, 5
# repetitions), each at method invlpg and at method none (0.78x the time: no
# invalidation), for the compare tests of a case of method none
# (t-compare-noflush, t-web-compare-noflush). Source after test-daemon.sh,
# with an --open daemon up (it takes a run's frames by their token alone).

# noflush_send TOKEN: one such run.
noflush_send() {
	PYTHONPATH=$ROOT/tests/web:$PYTHONPATH python3 - "127.0.0.1:$PORT" "$1" <<'PY'
import struct, sys
import frames
r = frames.Run(int(sys.argv[2], 16))
r.text(frames.HELLO, 'fw=t-compare-noflush\ncpus=4\ntsc_khz=2000000\ntransport=udp\nsuite=tlb\n')
cid = 0
for method, f in (('invlpg', 1.0), ('none', 0.78)):
    for mask in (1, 2, 3):
        cid += 1
        r.text(frames.CASE, f'id={cid}\nkind=tlb\nalgo=early_ack\ndelivery=unicast\nwait=done\ninits=1\nmask={mask}\n'
               f'placement=first\noverlap=disjoint\nwork_us=0\nflush=early_ack\nmethod={method}\nbatch=1\npages=1\n'
               'iters=30\nreps=5\n')
        for rep in range(5):
            r.result(cid, rep, frames.ALL, int((20000 + 3000 * mask + 40 * rep) * f), ipis=30 * mask, calls=30 * mask)
r.text(frames.LOG, 'done: ok (0 ERROR frames, 0 stale, 0 lost, 0 duplicated, 0 out of order)')
r.frame(frames.DONE, struct.pack('<II', len(r.frames), 0))
frames.send(sys.argv[1], r.frames, 0, len(r.frames))
PY
}
