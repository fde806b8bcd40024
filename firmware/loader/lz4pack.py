#!/usr/bin/env python3
"""loader/lz4pack.py — compress a flat binary into one LZ4 *block* (no frame)
for loader/loader.S to inflate at boot. Greedy matching over a short hash
chain; plenty for a ~100 KiB image and needs nothing but Python 3.

usage: lz4pack.py IN OUT   (also checks the result by decompressing it)"""
import sys

MINMATCH = 4
MAXOFF = 65535
CHAIN = 32


def compress(src):
    n = len(src)
    out = bytearray()
    heads = {}
    anchor = i = 0

    def emit(lit, off=None, mlen=0):
        ll = len(lit)
        ml = mlen - MINMATCH if off is not None else 0
        out.append((min(ll, 15) << 4) | min(ml, 15))
        if ll >= 15:
            r = ll - 15
            while r >= 255:
                out.append(255)
                r -= 255
            out.append(r)
        out.extend(lit)
        if off is None:
            return
        out.extend((off & 0xff, off >> 8))
        if ml >= 15:
            r = ml - 15
            while r >= 255:
                out.append(255)
                r -= 255
            out.append(r)

    # The format wants the last 5 bytes as literals and no match starting in
    # the last 12; our decoder does not care, but stay compatible with lz4.
    limit = n - 12
    while i < limit:
        key = src[i:i + 4]
        cands = heads.setdefault(key, [])
        best_len, best_pos = 0, -1
        for c in reversed(cands[-CHAIN:]):
            if i - c > MAXOFF:
                break
            m = 0
            while i + m < n - 5 and src[c + m] == src[i + m]:
                m += 1
            if m > best_len:
                best_len, best_pos = m, c
        cands.append(i)
        if best_len >= MINMATCH:
            emit(src[anchor:i], i - best_pos, best_len)
            for j in range(i + 1, min(i + best_len, limit)):
                heads.setdefault(src[j:j + 4], []).append(j)
            i += best_len
            anchor = i
        else:
            i += 1
    emit(src[anchor:])
    return bytes(out)


def decompress(blk):
    out = bytearray()
    i = 0
    while i < len(blk):
        tok = blk[i]
        i += 1
        ll = tok >> 4
        if ll == 15:
            while True:
                b = blk[i]
                i += 1
                ll += b
                if b != 255:
                    break
        out.extend(blk[i:i + ll])
        i += ll
        if i >= len(blk):
            break
        off = blk[i] | blk[i + 1] << 8
        i += 2
        ml = tok & 15
        if ml == 15:
            while True:
                b = blk[i]
                i += 1
                ml += b
                if b != 255:
                    break
        ml += MINMATCH
        for _ in range(ml):
            out.append(out[-off])
    return bytes(out)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    src = open(sys.argv[1], 'rb').read()
    blk = compress(src)
    if decompress(blk) != src:
        sys.exit('lz4pack: round trip failed (bug)')
    open(sys.argv[2], 'wb').write(blk)


if __name__ == '__main__':
    main()
