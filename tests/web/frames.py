#!/usr/bin/env python3
"""frames.py — sends one payload-like xcbench run to xcbenchd over UDP, for the
dashboard tests: what host/tools/xcb-gen does not generate (raw-IPI floor
cases, TLB shootdown cases, HELLO cases_planned, per-initiator unfairness,
and a run delivered in two halves so the dashboard can be watched going live).

It speaks the wire protocol of proto/README.md independently of proto/*.c (a
second implementation is a cross-check of the spec): header, CRC-32 (zlib's),
HELLO/CASE/LOG text, RESULT, HISTO (xcb_histo.h buckets), DONE; it resends
every frame until the daemon's cumulative ACK (+ selective bitmap) covers it.

  frames.py --server 127.0.0.1:PORT --token HEX [--part all|first|rest] [--cut N]
            [--plan hello|log]

--part first sends frames 0..N-1 (HELLO, the first cases); rest sends the
others and DONE. The frames are the same every time (deterministic), so a
run sent in two parts is the run sent whole. Prints the frame count.
"""
import argparse
import select
import socket
import struct
import sys
import time
import zlib

MAGIC, VERSION = 0x31424358, 1
HELLO, CASE, RESULT, HISTO, SAMPLES, LOG, ERROR, DONE, ACK = 1, 2, 3, 4, 5, 6, 7, 8, 9
ALL = 0xFFFF
TSC_KHZ = 2_500_000
REPS = 3


def bucket(v):
    """xcb_histo_bucket(): exact below 256, then 128 sub-buckets per power of two."""
    if v < 256:
        return v
    msb = v.bit_length() - 1
    shift = msb - 7
    return (shift << 7) + (v >> shift)


class Run:
    def __init__(self, token):
        self.token = token
        self.frames = []

    def frame(self, ftype, payload):
        seq = len(self.frames)
        head = struct.pack('<IBBHQI', MAGIC, VERSION, ftype, len(payload), self.token, seq)
        crc = zlib.crc32(payload, zlib.crc32(head)) & 0xFFFFFFFF
        self.frames.append(head + struct.pack('<I', crc) + payload)

    def text(self, ftype, s):
        self.frame(ftype, s.encode())

    def result(self, case, rep, init, p50, ipis=0, lock=None, stale=0, calls=0, floors=None, flags=0):
        # flags: XCB_RF_* (1 watchdog, 2 invariant failed, 4 unstable host)
        acq, cont, hold, wait = lock or (0, 0, 0, 0)
        payload = struct.pack('<IHH17QII', case, rep, init,
                              400, p50 * 8 // 10, p50, p50 * 11 // 10, p50 * 14 // 10,
                              p50 * 17 // 10, p50 * 2, p50 * 1030, p50 * 90,
                              ipis, acq, cont, hold, wait, stale, calls, calls, flags, 0)
        if floors:  # (ipi_floor, floor_paired): the fields appended at 152..239, the rest 0
            before, paired = floors
            payload += struct.pack('<11Q', before, 0, 0, 0, 0, 0, 0, paired, 0, 0, 0)
        self.frame(RESULT, payload)

    def histo(self, case, rep, p50):
        # A bell around p50 over 40 buckets, and a tail at 2x: p10 < p50 < p99.
        first = bucket(p50) - 20
        counts = [max(1, 30 - abs(k - 20)) for k in range(41)]
        self.frame(HISTO, struct.pack('<IHHIHH', case, rep, ALL, first, len(counts), 0) +
                   struct.pack(f'<{len(counts)}I', *counts))
        self.frame(HISTO, struct.pack('<IHHIHH', case, rep, ALL, bucket(p50 * 2), 1, 0) + struct.pack('<I', 4))


def build(token, plan='hello'):
    """The run's frames. plan: where the number of planned cases goes — a HELLO
    key (cases_planned) or, as firmware/bench/bench.c does, a LOG line."""
    r = Run(token)
    cases = []
    # raw IPI ping-pong floor (one CPU pair), then cross-calls, then TLB shootdowns.
    cases.append(dict(kind='raw', algo='raw', delivery='unicast', inits=1, mask=1, placement='first'))
    for algo in ('locked', 'lockless', 'queued'):
        for inits in (1, 2, 3):
            for mask in (1, 2, 4, 7):
                cases.append(dict(kind='xcall', algo=algo, delivery='unicast', wait='done', inits=inits,
                                  mask=mask, placement='first', overlap='disjoint', work_us=0))
    # A TLB case's algo, as the payload's CASE frame gives it (firmware/bench/
    # suite.c case_algo_name): on the xcall path its cross-call algorithm, on
    # a path that uses none (vector) the path's name.
    for flush in ('vector', 'xcall'):
        for mask in (1, 2, 4, 7):
            cases.append(dict(kind='tlb', algo='lockless' if flush == 'xcall' else flush, delivery='unicast',
                              wait='done', inits=1, mask=mask,
                              placement='first', overlap='disjoint', work_us=0, flush=flush, method='invlpg',
                              batch=1, pages=1))
    # and one that flushes nothing (method none, as the default suite has):
    # a cost figure, its stale reads never checked
    cases.append(dict(kind='tlb', algo='vector', delivery='unicast', wait='done', inits=1, mask=7,
                      placement='first', overlap='disjoint', work_us=0, flush='vector', method='none',
                      batch=1, pages=1))
    r.text(HELLO, '\n'.join([
        'fw=frames.py', 'suite=web-test', 'cpus=8', 'apic_ids=0,2,4,6,1,3,5,7', 'topology=pkgs=1,cores=4,threads=2',
        'vendor=AuthenticAMD', 'family=25', 'model=1', 'stepping=1', 'brand=Test CPU 8-Core (frames.py)',
        'apic_mode=x2apic', 'hypervisor=KVMKVMKVM', f'tsc_khz={TSC_KHZ}', 'tsc_source=cpuid15', 'pcid=1',
        'invpcid=0', 'nic=virtio-net', 'transport=udp'] + ([f'cases_planned={len(cases)}'] if plan == 'hello' else [])) + '\n')
    r.text(LOG, 'frames.py: cpus up: 8, tsc 2500000 kHz')
    if plan == 'log':
        r.text(LOG, f'suite web-test: {len(cases)} cases')
    for cid, c in enumerate(cases, 1):
        r.text(CASE, ''.join(f'{k}={v}\n' for k, v in dict(id=cid, **c, iters=400, reps=REPS).items()))
        inits, mask = c['inits'], c['mask']
        base = {'raw': 700, 'xcall': 1500 + 180 * mask, 'tlb': 2600 + 260 * mask}[c['kind']]
        locked = c['algo'] == 'locked'
        if c['kind'] == 'xcall':
            base += (420 if locked else 70 if c['algo'] == 'lockless' else 110) * (inits - 1)
        for rep in range(REPS):
            p50 = base + 7 * rep
            for i in range(inits if inits > 1 else 0):
                # The locked algorithm starves its last initiator: visibly unfair.
                mine = p50 * (1 + (0.45 if locked and i == inits - 1 else 0.02 * i))
                r.result(cid, rep, 2 * i, int(mine), ipis=400 * mask)
            lock = (400 * inits, 60 * (inits - 1), p50 * 300, p50 * 90 * (inits - 1)) if locked else None
            if c['kind'] == 'tlb' and c['flush'] == 'vector':	# the global flush lock, as the payload's
                lock = (410, 0, p50 * 410, 0)
            r.result(cid, rep, ALL, p50, ipis=400 * mask * inits, lock=lock, calls=400 * mask * inits)
            r.histo(cid, rep, p50)
        if c['kind'] == 'tlb' and mask == 7:
            r.text(LOG, f'tlb: case {cid}: all targets verified the old mapping gone')
    r.frame(DONE, struct.pack('<II', len(r.frames), 0))
    return r


def send(server, frames, first, last, timeout=30.0):
    """Sends frames[first:last] until each is acknowledged (cumulative ACK or SACK bit)."""
    host, port = server.rsplit(':', 1)
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.connect((host, int(port)))
    stored = set()
    pending = list(range(first, last))
    deadline = time.monotonic() + timeout
    while pending:
        if time.monotonic() > deadline:
            sys.exit(f'frames.py: {len(pending)} frames never acknowledged (first: seq {pending[0]})')
        for seq in pending[:128]:
            s.send(frames[seq])
        t_end = time.monotonic() + 0.2
        while time.monotonic() < t_end:
            ready, _, _ = select.select([s], [], [], max(0.0, t_end - time.monotonic()))
            if not ready:
                break
            try:
                pkt = s.recv(2048)
            except ConnectionRefusedError:
                continue  # the daemon is not up yet: keep retrying until the deadline
            if len(pkt) < 24 + 36 or pkt[5] != ACK:
                continue
            nxt, = struct.unpack_from('<I', pkt, 16)
            status, = struct.unpack_from('<I', pkt, 24)
            if status == 1:
                sys.exit('frames.py: the daemon refused the run token (register it, or run xcbenchd --open)')
            stored.update(range(min(nxt, last)))
            sack = pkt[28:60]
            for i in range(256):
                if sack[i // 8] >> (i % 8) & 1:
                    stored.add(nxt + 1 + i)
            pending = [q for q in pending if q not in stored]
            if not pending:
                break
    return last - first


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--server', required=True, help='xcbenchd UDP address HOST:PORT')
    ap.add_argument('--token', required=True, help='run token, 16 hex digits')
    ap.add_argument('--part', choices=('all', 'first', 'rest'), default='all')
    ap.add_argument('--cut', type=int, default=0, help='frames in the first part (default: about 40 %%)')
    ap.add_argument('--plan', choices=('hello', 'log'), default='hello', help='announce the planned cases in HELLO or a LOG line')
    a = ap.parse_args()
    run = build(int(a.token, 16), a.plan)
    n = len(run.frames)
    cut = a.cut or n * 2 // 5
    lo, hi = {'all': (0, n), 'first': (0, cut), 'rest': (cut, n)}[a.part]
    send(a.server, run.frames, lo, hi)
    print(f'token={a.token} frames={n} sent={hi - lo}')


if __name__ == '__main__':
    main()
