#!/usr/bin/env python3
"""compress/pack.py — compress a flat binary for the images' loaders: one raw
DEFLATE stream (RFC 1951, no zlib header), which compress/inflate.c decodes at
boot. Both images use it: the BIOS image with --bcj (loader/unpack.c), the
UEFI image without (boot/efi/stub.c). Nothing but Python 3.

--bcj first applies the x86 call/jump filter (as in xz's BCJ): the rel32 after
every E8 (CALL) and E9 (JMP) byte becomes an absolute offset in the image, so
the many calls of one function read the same and DEFLATE finds them: 2,175
bytes (4 %) off the BIOS image when it was made. The filter is a bijection on
any bytes (data that merely contains E8 comes back too); compress/bcj.c has
the inverse, and firmware/tests/test_inflate.c checks both decoders against
this script's output for the payload as built.

usage: pack.py [--bcj] IN OUT"""
import sys
import zlib


def bcj(buf):
    """The E8/E9 filter over the whole buffer, rel32 -> absolute: skip the 4
    bytes after each E8/E9, as compress/bcj.c does."""
    b = bytearray(buf)
    i, n = 0, len(b)
    while i + 5 <= n:
        if b[i] & 0xfe == 0xe8:
            v = int.from_bytes(b[i + 1:i + 5], 'little')
            b[i + 1:i + 5] = ((v + i + 5) & 0xffffffff).to_bytes(4, 'little')
            i += 5
        else:
            i += 1
    return bytes(b)


def deflate(data):
    """Raw DEFLATE, best compression: wbits -15 (32 KiB window, no header),
    memLevel 9."""
    c = zlib.compressobj(9, zlib.DEFLATED, -15, 9)
    return c.compress(data) + c.flush()


def main():
    args = sys.argv[1:]
    use_bcj = args[:1] == ['--bcj']
    if use_bcj:
        args = args[1:]
    if len(args) != 2:
        sys.exit(__doc__)
    src = open(args[0], 'rb').read()
    if use_bcj:
        src = bcj(src)
    out = deflate(src)
    if zlib.decompress(out, -15) != src:
        sys.exit('pack: round trip failed (bug)')
    open(args[1], 'wb').write(out)


if __name__ == '__main__':
    main()
