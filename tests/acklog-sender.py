#!/usr/bin/env python3
"""acklog-sender.py - a simulated payload for the fault and load tests
(tests/t-crash-*.sh, tests/t-load-*.sh) and bench/: streams runs of frames to
xcbenchd over UDP the way the payload does (a window in flight, cumulative +
selective ACKs, retransmission with backoff, never giving up while the
daemon is merely down) and records every frame the daemon ACKed, so a test
can check that nothing ACKed was ever lost.

Its own encoder (struct + zlib.crc32, proto/README.md), independent of the
C one. Each run: HELLO, CASE id=1, then LOG and RESULT frames, then DONE.

Usage: acklog-sender.py --port P [--runs N] [--frames N] [--token-base HEX]
         [--acklog FILE] [--window N] [--give-up S] [--rate FPS]
Prints one JSON line at the end: frames, sent, retransmits, acked, seconds.
Exit 0 when every frame of every run is ACKed, 1 otherwise.
"""
import argparse, json, select, socket, struct, sys, time, zlib

MAGIC, VERSION = 0x31424358, 1
T_HELLO, T_CASE, T_RESULT, T_LOG, T_DONE, T_ACK = 1, 2, 3, 6, 8, 9


def frame(ftype, token, seq, payload):
    hdr = struct.pack("<IBBHQI", MAGIC, VERSION, ftype, len(payload), token, seq)
    return hdr + struct.pack("<I", zlib.crc32(payload, zlib.crc32(hdr))) + payload


def make_run(token, n):
    """n frames in all (n >= 4): seq i is frames[i]."""
    out = [frame(T_HELLO, token, 0, b"fw=acklog-sender\ncpus=2\ntsc_khz=1000000\nsuite=sim\n"),
           frame(T_CASE, token, 1, b"id=1\nkind=xcall\nalgo=locked\ndelivery=unicast\nwait=done\n"
                 b"inits=1\nmask=1\nplacement=first\noverlap=disjoint\nwork_us=0\niters=100\nreps=%d\n" % (n,))]
    for seq in range(2, n - 1):
        if seq % 2:
            out.append(frame(T_LOG, token, seq, b"sim %016x frame %d " % (token, seq) + b"." * 120))
        else:
            rep = seq // 2
            v = [100, 900, 1000, 1100, 1300, 1500, 2000, 1050000, 90000, 1, 0, 0, 0, 0, 0, 1, 1]
            out.append(frame(T_RESULT, token, seq, struct.pack("<IHH" + "Q" * 17 + "II", 1, rep & 0xffff, 0xffff, *v, 0, 0)))
    out.append(frame(T_DONE, token, n - 1, struct.pack("<II", n - 1, 0)))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--frames", type=int, default=1000)
    ap.add_argument("--token-base", default="5e0d000000000000")
    ap.add_argument("--acklog", help="append 'TOKEN SEQ' for every newly ACKed frame")
    ap.add_argument("--window", type=int, default=128)
    ap.add_argument("--give-up", type=float, default=60.0, help="seconds without any ACK progress")
    ap.add_argument("--rate", type=float, default=0, help="frames/s cap (0 = as fast as ACKs allow)")
    a = ap.parse_args()
    base = int(a.token_base, 16)
    runs = {base + i: make_run(base + i, max(4, a.frames)) for i in range(a.runs)}
    acked = {t: set() for t in runs}
    cum = {t: 0 for t in runs}
    nxt = {t: 0 for t in runs}               # next never-sent seq
    inflight = {}                             # (t, seq) -> (last send, rto)
    total = sum(len(f) for f in runs.values())
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    s.connect((a.host, a.port))
    s.setblocking(False)
    log = open(a.acklog, "a") if a.acklog else None
    sent = retrans = 0
    nacked = 0
    start = last_progress = time.monotonic()

    def send(t, seq):
        nonlocal sent
        try:
            s.send(runs[t][seq])
        except (ConnectionRefusedError, BlockingIOError, OSError):
            pass                               # daemon down or buffer full: retransmit later
        sent += 1

    while nacked < total:
        now = time.monotonic()
        if now - last_progress > a.give_up:
            break
        # New frames, within each run's window.
        budget = 64
        for t, fr in runs.items():
            while nxt[t] < len(fr) and nxt[t] - cum[t] < a.window and budget > 0:
                if a.rate and sent >= a.rate * (now - start):
                    break
                send(t, nxt[t])
                inflight[(t, nxt[t])] = (now, 0.2)
                nxt[t] += 1
                budget -= 1
        # Retransmissions with exponential backoff (capped at 1 s).
        for key, (when, rto) in list(inflight.items())[:512]:
            if now - when >= rto:
                send(*key)
                retrans += 1
                inflight[key] = (now, min(rto * 2, 1.0))
        # ACKs.
        r, _, _ = select.select([s], [], [], 0.005)
        if not r:
            continue
        newly = []
        for _ in range(256):
            try:
                d = s.recv(2048)
            except (BlockingIOError, ConnectionRefusedError):
                break
            if len(d) < 24 + 36 or struct.unpack_from("<I", d)[0] != MAGIC or d[5] != T_ACK:
                continue
            token, nexts = struct.unpack_from("<QI", d, 8)
            if token not in runs:
                continue
            status = struct.unpack_from("<I", d, 24)[0]
            if status == 1:
                print("refused: token %016x unknown (daemon not --open?)" % token, file=sys.stderr)
                return 1
            sack = d[28:60]
            got = set(range(cum[token], min(nexts, len(runs[token]))))
            for i in range(256):
                if sack[i // 8] >> (i % 8) & 1:
                    q = nexts + 1 + i
                    if q < len(runs[token]):
                        got.add(q)
            cum[token] = max(cum[token], nexts)
            for q in got - acked[token]:
                acked[token].add(q)
                inflight.pop((token, q), None)
                newly.append((token, q))
        if newly:
            nacked += len(newly)
            last_progress = time.monotonic()
            if log:
                log.write("".join("%016x %d\n" % x for x in newly))
                log.flush()
    secs = time.monotonic() - start
    print(json.dumps({"frames": total, "sent": sent, "retransmits": retrans, "acked": nacked,
                      "seconds": round(secs, 3), "frames_per_s": round(nacked / secs, 1) if secs else 0}))
    return 0 if nacked == total else 1


if __name__ == "__main__":
    sys.exit(main())
