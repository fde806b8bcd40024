#!/usr/bin/env python3
"""loader/lz4pack.py — compress a flat binary into one LZ4 *block* (no frame)
for loader/loader.S to inflate at boot. Optimal parsing over a short hash
chain (compress()); nothing but Python 3.

Before compressing, the x86 call/jump filter (bcj(), as in xz's BCJ): the
rel32 after every E8 (CALL) and E9 (JMP) byte becomes an absolute offset in
the image, so the many calls of one function read the same and LZ4 finds
them: about 4 % off the image, which the 64 KiB limit needs. The filter is a
bijection on any bytes (data that merely contains E8 comes back too); the
loader undoes it after inflating.

usage: lz4pack.py IN OUT   (also checks the result by decompressing it)"""
import sys

MINMATCH = 4
MAXOFF = 65535
CHAIN = 32


def ext(x):
    """Extension bytes of an LZ4 length field holding x (15 in the nibble)."""
    return 0 if x < 15 else 1 + (x - 15) // 255


def compress(src):
    """Optimal parse (for a byte-cost model that ignores the rare literal-run
    extension bytes): first the longest match at every position (hash chain),
    then, from the end backwards, the cheapest encoding of each suffix: a
    literal (1 byte) or a match of any length up to the longest there
    (token + offset + extension bytes). About 2 % smaller than greedy
    matching, which the 64 KiB limit needs; the decoder is unchanged."""
    n = len(src)
    # The format wants the last 5 bytes as literals and no match starting in
    # the last 12; our decoder does not care, but stay compatible with lz4.
    limit = n - 12
    heads = {}
    mlen, moff = [0] * n, [0] * n
    for i in range(max(limit, 0)):
        cands = heads.setdefault(src[i:i + 4], [])
        best_len, best_pos = 0, -1
        for c in reversed(cands[-CHAIN:]):
            if i - c > MAXOFF:
                break
            # only a longer match is of use: test the byte that makes it so
            if best_len and (i + best_len >= n - 5 or src[c + best_len] != src[i + best_len]):
                continue
            m = 0
            while i + m < n - 5 and src[c + m] == src[i + m]:
                m += 1
            if m > best_len:
                best_len, best_pos = m, c
        cands.append(i)
        if best_len >= MINMATCH:
            mlen[i], moff[i] = best_len, i - best_pos
    cost, choice = [0] * (n + 1), [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        best, pick, longest = 1 + cost[i + 1], 0, mlen[i]
        # every length up to 40, and the longest (long runs need no more)
        lens = list(range(MINMATCH, min(longest, 40) + 1)) + ([longest] if longest > 40 else [])
        for ln in lens:
            c = 3 + ext(ln - MINMATCH) + cost[i + ln]
            if c < best:
                best, pick = c, ln
        cost[i], choice[i] = best, pick

    out = bytearray()

    def length(r):
        while r >= 255:
            out.append(255)
            r -= 255
        out.append(r)

    anchor = i = 0
    while i < n:
        ln = choice[i]
        if not ln:
            i += 1
            continue
        ll, ml = i - anchor, ln - MINMATCH
        out.append((min(ll, 15) << 4) | min(ml, 15))
        if ll >= 15:
            length(ll - 15)
        out.extend(src[anchor:i])
        out.extend((moff[i] & 0xff, moff[i] >> 8))
        if ml >= 15:
            length(ml - 15)
        i += ln
        anchor = i
    ll = n - anchor
    out.append(min(ll, 15) << 4)
    if ll >= 15:
        length(ll - 15)
    out.extend(src[anchor:])
    return bytes(out)


def bcj(buf, forward):
    """The E8/E9 filter over the whole buffer: rel32 -> absolute (forward) or
    back. Both directions scan alike (skip the 4 bytes after each E8/E9), so
    they meet the same opcodes. loader/loader.S has the inverse."""
    b = bytearray(buf)
    i, n = 0, len(b)
    while i + 5 <= n:
        if b[i] & 0xfe == 0xe8:
            v = int.from_bytes(b[i + 1:i + 5], 'little')
            v = (v + i + 5 if forward else v - (i + 5)) & 0xffffffff
            b[i + 1:i + 5] = v.to_bytes(4, 'little')
            i += 5
        else:
            i += 1
    return bytes(b)


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
    blk = compress(bcj(src, True))
    if bcj(decompress(blk), False) != src:
        sys.exit('lz4pack: round trip failed (bug)')
    open(sys.argv[2], 'wb').write(blk)


if __name__ == '__main__':
    main()
