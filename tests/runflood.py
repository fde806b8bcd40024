#!/usr/bin/env python3
"""runflood.py — one anonymous sender filling one run past every bound
(issue 26, item 3): after a HELLO (seq 0), N frames of one kind, each new
(distinct case/rep, so insert-once refuses none of them), sent in windows of
256 and waiting at most 0.3 s a window for the daemon's ACKs, as a payload
would; frames the daemon refuses are never ACKed and are not resent.

  runflood.py HOST:PORT TOKEN KIND N [--src IP] [--first-seq S]
      KIND: histo (358 buckets a frame), samples (179 u64 values), result,
      case (a 1.3 KB config), log (a 1.4 KB line), hello (20 new facts a
      frame); histo, samples and result first send the CASE frames of the
      cases they use (64 reps a case)
  prints "sent=N acked=A bytes=B elapsed=S"
"""
import os
import socket
import struct
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'web'))
import frames  # noqa: E402

SAMPLES = 5


def payload(kind, i):
    """The frame type and payload of flood item i."""
    case, rep = 1 + i // 64, i % 64
    if kind == 'histo':
        n = 358
        return frames.HISTO, struct.pack('<IHHIHH', case, rep, frames.ALL, 0, n, 0) + \
            struct.pack(f'<{n}I', *([1 + (i % 7)] * n))
    if kind == 'samples':
        n = 179
        return SAMPLES, struct.pack('<IHHIBBH', case, rep, 0, 0, 8, 0, n) + \
            struct.pack(f'<{n}Q', *range(i, i + n))
    if kind == 'result':
        r = frames.Run(0)
        r.result(case, rep, frames.ALL, 1000 + i)
        return frames.RESULT, r.frames[0][24:]
    if kind == 'case':
        pad = 'x' * 1300
        return frames.CASE, (f'id={i + 1}\nkind=xcall\nalgo=lockless\ndelivery=unicast\nwait=done\n'
                             f'inits=1\nmask=2\nplacement=first\noverlap=disjoint\nwork_us=0\n'
                             f'iters=10\nreps=1\nx_pad={pad}\n').encode()
    if kind == 'log':
        return frames.LOG, (f'flood line {i} ' + 'y' * 1380).encode()
    if kind == 'hello':
        return frames.HELLO, ''.join(f'f{i}_{k}={"z" * 40}\n' for k in range(20)).encode()
    sys.exit('runflood.py: unknown kind ' + kind)


def main():
    a = sys.argv[1:]
    if len(a) < 4 or a[0] in ('-h', '--help'):
        print(__doc__)
        sys.exit(0 if a and a[0] in ('-h', '--help') else 2)
    host, port = a[0].rsplit(':', 1)
    token, kind, n = int(a[1], 16), a[2], int(a[3])
    first = int(a[a.index('--first-seq') + 1]) if '--first-seq' in a else 0
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 22)
    if '--src' in a:
        s.bind((a[a.index('--src') + 1], 0))
    s.connect((host, int(port)))
    run = frames.Run(token)
    run.frames = [None] * first
    if first == 0:
        run.text(frames.HELLO, 'fw=runflood.py\ncpus=4\ntsc_khz=2000000\ntransport=udp\n')
    if kind in ('histo', 'samples', 'result'):
        for c in range(1 + (n - 1) // 64):
            ftype, p = payload('case', c)
            run.frame(ftype, p)
    for i in range(n):
        ftype, p = payload(kind, i)
        run.frame(ftype, p)
    todo = run.frames[first:]
    acked = sent = nbytes = 0
    t0 = time.monotonic()
    for w in range(0, len(todo), 256):
        for f in todo[w:w + 256]:
            try:
                s.send(f)
            except OSError:
                time.sleep(0.001)
                continue
            sent += 1
            nbytes += len(f)
        want = first + w + len(todo[w:w + 256])
        end = time.monotonic() + 0.3
        while time.monotonic() < end:
            s.settimeout(max(0.001, end - time.monotonic()))
            try:
                pkt = s.recv(2048)
            except (socket.timeout, ConnectionRefusedError):
                break
            if len(pkt) >= 60:
                nxt, = struct.unpack_from('<I', pkt, 16)
                acked = max(acked, nxt - first)
                if nxt >= want:
                    break
    print(f'sent={sent} acked={acked} bytes={nbytes} elapsed={time.monotonic() - t0:.1f}')


if __name__ == '__main__':
    main()
