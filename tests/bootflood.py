#!/usr/bin/env python3
"""bootflood.py — GETs /boot.ipxe many times, as a hostile page or peer
would (tests/t-hostile-boot.sh): from several loopback source addresses,
for many MACs or one, and optionally answers each script with one far-ahead
frame for its token (the frame that used to allocate 2 x 128 KiB).

  bootflood.py PORT N [--macs one|many] [--sources K] [--first-src 10]
               [--far-frame] [--mac-base 52:54:00:f1:00]
Prints: "ok=N limited=N other=N tokens=N" (distinct tokens seen).
"""
import http.client
import os
import socket
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'web'))
import frames  # noqa: E402


def opt(name, default):
    a = sys.argv
    return a[a.index(name) + 1] if name in a else default


def main():
    if len(sys.argv) < 3 or sys.argv[1] in ('-h', '--help'):
        print(__doc__)
        return
    port, n = int(sys.argv[1]), int(sys.argv[2])
    many = opt('--macs', 'many') == 'many'
    sources = int(opt('--sources', '1'))
    first = int(opt('--first-src', '10'))
    base = opt('--mac-base', '52:54:00:f1')
    far = '--far-frame' in sys.argv
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    ok = limited = other = 0
    tokens = set()
    for i in range(n):
        src = '127.0.%d.%d' % (first + (i % sources) // 250, 1 + (i % sources) % 250)
        mac = '%s:%02x:%02x' % (base, (i >> 8) & 0xff, i & 0xff) if many else base + ':00:01'
        c = http.client.HTTPConnection('127.0.0.1', port, timeout=10, source_address=(src, 0))
        c.request('GET', '/boot.ipxe?mac=%s&serial=flood%d' % (mac, i))
        r = c.getresponse()
        body = r.read().decode(errors='replace')
        c.close()
        if r.status == 429:
            limited += 1
            continue
        if r.status != 200:
            other += 1
            continue
        ok += 1
        tok = body.split(' run=')[1].split()[0]
        tokens.add(tok)
        if far:
            run = frames.Run(int(tok, 16))
            run.frames = [None] * ((1 << 20) - 1)
            run.text(frames.LOG, 'x')
            udp.sendto(run.frames[-1], ('127.0.0.1', port))
    print('ok=%d limited=%d other=%d tokens=%d' % (ok, limited, other, len(tokens)))


if __name__ == '__main__':
    main()
