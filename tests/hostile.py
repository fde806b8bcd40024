#!/usr/bin/env python3
"""hostile.py — what the hostile-peer tests (tests/t-hostile-*.sh) send that
host/tools/xcb-gen does not: small hand-made runs with chosen strings, forged
frames for an existing run, and floods. Frames come from tests/web/frames.py
(a second, independent implementation of the wire format).

  hostile.py run HOST:PORT TOKEN [--algo S] [--label-case S]   a 1-case run, DONE
  hostile.py frame HOST:PORT TOKEN SEQ TYPE [FIELDS]         one frame, prints the reply status
      (TYPE histo or samples: FIELDS "AT,N", a chunk of case 1 from AT)
  hostile.py flood HOST:PORT N SIZE [--token T] [--seq S] [--src IP]
      N datagrams of SIZE bytes (valid frames) with high seqs or unknown
      tokens; prints "sent=N replies=R reply_bytes=B sent_bytes=S"
"""
import os
import socket
import struct
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'web'))
import frames  # noqa: E402


def addr(s):
    h, p = s.rsplit(':', 1)
    return h, int(p)


def small_run(token, algo='lockless', p50=1200):
    r = frames.Run(token)
    r.text(frames.HELLO, 'fw=hostile.py\ncpus=4\ntsc_khz=2000000\ntransport=udp\n')
    r.text(frames.CASE, f'id=1\nkind=xcall\nalgo={algo}\ndelivery=unicast\nwait=done\ninits=1\nmask=2\n'
           'placement=first\noverlap=disjoint\nwork_us=0\niters=10\nreps=1\n')
    r.result(1, 0, frames.ALL, p50)
    r.frame(frames.DONE, struct.pack('<II', len(r.frames), 0))
    return r


def one_frame(token, seq, ftype, fields):
    """A single frame of run token at seq (as if it were part of that run)."""
    r = frames.Run(token)
    r.frames = [None] * seq
    if ftype == 'result':
        r.result(1, 0, frames.ALL, int(fields or 99999))
    elif ftype == 'case':
        r.text(frames.CASE, fields.replace('\\n', '\n'))
    elif ftype == 'error':
        r.text(frames.ERROR, fields or 'forged crash')
    elif ftype == 'log':
        r.text(frames.LOG, fields or 'forged log')
    elif ftype == 'hello':
        r.text(frames.HELLO, fields.replace('\\n', '\n'))
    elif ftype in ('histo', 'samples'):
        # case 1, rep 0, all initiators; FIELDS "AT,N": a chunk from AT of N
        # buckets (count 1 each) or samples (value 1000 each, 4 bytes)
        at, n = (int(x) for x in fields.split(','))
        if ftype == 'histo':
            r.frame(frames.HISTO, struct.pack('<IHHIHH', 1, 0, frames.ALL, at, n, 0) + struct.pack(f'<{n}I', *[1] * n))
        else:
            r.frame(frames.SAMPLES, struct.pack('<IHHIBBH', 1, 0, frames.ALL, at, 4, 0, n) +
                    struct.pack(f'<{n}I', *[1000] * n))
    else:
        sys.exit('hostile.py: unknown frame type ' + ftype)
    return r.frames[-1]


def reply_status(s, wait=1.0):
    """The status of the first ACK to come back within wait s, or 'none'."""
    s.settimeout(wait)
    try:
        pkt = s.recv(2048)
    except (socket.timeout, ConnectionRefusedError):
        return 'none'
    if len(pkt) < 60:
        return 'short'
    nxt, = struct.unpack_from('<I', pkt, 16)
    st, = struct.unpack_from('<I', pkt, 24)
    return {0: 'ok', 1: 'refused', 2: 'closed'}.get(st, str(st)) + f' next={nxt}'


def main():
    a = sys.argv[1:]
    if not a or a[0] in ('-h', '--help'):
        print(__doc__)
        return
    cmd, server = a[0], addr(a[1])
    if cmd == 'run':
        algo = a[a.index('--algo') + 1] if '--algo' in a else 'lockless'
        r = small_run(int(a[2], 16), algo)
        frames.send(f'{server[0]}:{server[1]}', r.frames, 0, len(r.frames))
        print(f'frames={len(r.frames)}')
    elif cmd == 'frame':
        token, seq, ftype = int(a[2], 16), int(a[3]), a[4]
        f = one_frame(token, seq, ftype, a[5] if len(a) > 5 else '')
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        if '--src' in a:
            s.bind((a[a.index('--src') + 1], 0))
        s.connect(server)
        s.send(f)
        print(reply_status(s))
    elif cmd == 'flood':
        n, size = int(a[2]), int(a[3])
        token = int(a[a.index('--token') + 1], 16) if '--token' in a else None
        seq = int(a[a.index('--seq') + 1]) if '--seq' in a else 0
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 22)
        if '--src' in a:
            s.bind((a[a.index('--src') + 1], 0))
        s.connect(server)
        s.setblocking(False)
        replies = rbytes = sbytes = 0
        t0 = time.monotonic()
        for i in range(n):
            r = frames.Run(token if token is not None else 0x5eed000000000000 + i)
            r.frames = [None] * (seq + i * 4096 if token is not None else 0)
            r.text(frames.LOG, 'x' * max(0, size - 24))
            try:
                s.send(r.frames[-1])
                sbytes += len(r.frames[-1])
            except BlockingIOError:
                time.sleep(0.001)
            while True:
                try:
                    rbytes += len(s.recv(2048))
                    replies += 1
                except (BlockingIOError, ConnectionRefusedError):
                    break
        elapsed = time.monotonic() - t0
        end = time.monotonic() + 0.5
        while time.monotonic() < end:
            try:
                rbytes += len(s.recv(2048))
                replies += 1
            except (BlockingIOError, ConnectionRefusedError):
                time.sleep(0.01)
        print(f'sent={n} replies={replies} reply_bytes={rbytes} sent_bytes={sbytes} elapsed={elapsed:.1f}')
    else:
        sys.exit('hostile.py: unknown command ' + cmd)


if __name__ == '__main__':
    main()
