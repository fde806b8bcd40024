# tests/lib/verdict-runs.sh — four hand-made runs of one case each (UDP
# frames, tests/web/frames.py) for the verdict tests (t-verdict,
# t-web-verdict), labelled by their payload's verdict: v-ok (DONE status 0),
# v-aborted (1), v-failed (2: its checks FAILED, 3 calls lost) and v-live (no
# DONE: running). Source after test-daemon.sh, with an --open daemon up.

# verdict_send TOKEN LABEL DONE [MAC]: a run labelled LABEL whose DONE has
# status DONE (none: no DONE), of the machine MAC where one is given.
verdict_send() {
	local mac=${4:+,\"mac\":\"$4\"}
	curl -sf -X POST -H 'Content-Type: application/json' -d "{\"token\":\"$1\",\"suite\":\"quick\",\"label\":\"$2\"$mac}" \
		"$URL/api/v1/runs" >/dev/null || return 1
	PYTHONPATH=$ROOT/tests/web:$PYTHONPATH python3 - "127.0.0.1:$PORT" "$1" "$3" <<'PY'
import struct, sys
import frames
r = frames.Run(int(sys.argv[2], 16))
r.text(frames.HELLO, 'fw=t-verdict\ncpus=2\ntsc_khz=2000000\ntransport=udp\nsuite=quick\n')
r.text(frames.CASE, 'id=1\nkind=xcall\nalgo=lockless\ndelivery=unicast\nwait=done\ninits=1\nmask=1\n'
       'placement=first\noverlap=disjoint\nwork_us=0\niters=100\nreps=1\n')
r.result(1, 0, frames.ALL, 14000)
r.histo(1, 0, 14000)  # as a payload's: the run page's histogram finds one
if sys.argv[3] != 'none':
    st = int(sys.argv[3])
    r.text(frames.LOG, 'done: %s (0 ERROR frames, 0 stale, %d lost, 0 duplicated, 0 out of order)'
           % ('FAILED' if st == 2 else 'ok', 3 if st == 2 else 0))
    r.frame(frames.DONE, struct.pack('<II', len(r.frames), st))
frames.send(sys.argv[1], r.frames, 0, len(r.frames))
PY
}

# verdict_runs [MAC_OK MAC_FAILED]: the four runs, in the order v-ok,
# v-aborted, v-failed, v-live (ids 1..4 in a fresh store); v-ok of machine
# MAC_OK and v-failed of MAC_FAILED where given (the lab page shows each
# machine's last run), the others of none. 1 if one could not be sent.
verdict_runs() {
	verdict_send 00000000000e1d00 v-ok 0 "${1-}" && verdict_send 00000000000e1d01 v-aborted 1 &&
		verdict_send 00000000000e1d02 v-failed 2 "${2-}" && verdict_send 00000000000e1d03 v-live none
}
