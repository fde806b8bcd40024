#!/usr/bin/env python3
"""make-seeds.py - (re)writes the seed corpora in tests/fuzz/corpus/ from a
generated run (host/build/xcb-gen --serial) and a list of representative
requests. Run once by hand; the seeds are kept in the repository so every
fuzz run starts from the same coverage.  Usage: tests/fuzz/make-seeds.py"""
import base64, os, re, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))


def write(d, name, data):
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


# Frames: one of each type from a generated run, raw (mode 0) and "repair"
# mode (1), plus console lines as the text decoder sees them.
cap = subprocess.run([os.path.join(root, "host/build/xcb-gen"), "--serial", "-", "--reps", "1",
                      "--samples", "--crash", "--token", "f02200000000000"],
                     check=True, capture_output=True).stdout.decode("latin-1")
fd = os.path.join(here, "corpus/frame")
seen = set()
for line in cap.splitlines():
    m = re.search(r"XCB1 ([A-Za-z0-9+/=]+)", line)
    if not m:
        continue
    fr = base64.b64decode(m.group(1))
    t = fr[5]
    if t in seen and t != 2:
        continue
    seen.add(t)
    write(fd, "type%d-%d-raw" % (t, len(seen)), b"\0" + fr)
    write(fd, "type%d-%d-repair" % (t, len(seen)), b"\1" + fr)
    write(fd, "type%d-%d-line" % (t, len(seen)), b"\0" + ("noise " + line).encode())
    if len([x for x in os.listdir(fd) if x.startswith("type2-")]) > 6:
        seen.add(2)
write(fd, "empty-line", b"\0XCB1 \r\n")

# CASE frames the daemon merges or rewrites (proto/README.md "CASE pieces",
# xcb_cpulist.h): CPU lists in the short form, and x_cpus in pieces, the
# head and a continuation (repair mode: one pinned token, so they meet).
def frame(t, seq, payload):
    import struct, zlib
    h = struct.pack("<IBBHQI", 0x31424358, 1, t, len(payload), 0x0f02200000000000, seq)
    return h + struct.pack("<I", zlib.crc32(payload, zlib.crc32(h))) + payload


write(fd, "case-short-lists", b"\1" + frame(2, 90, b"id=90\nkind=sync\nx_readers=1-1023:1/2\n"
                                             b"x_cpus=0:1-1023:1/2;2:=;4:0-9:2/4,100\n"))
write(fd, "case-pieces-head", b"\1" + frame(2, 91, b"id=91\nkind=xcall\nx_cpus+1/2=0:1-3,5,7;1:\n"))
write(fd, "case-pieces-cont", b"\1" + frame(2, 92, b"id=91\nx_cpus+2/2==\n"))
write(fd, "short", b"\1XCB1")

# HTTP requests (tests/fuzz/fuzz_http.c input form).
A = "Authorization: Bearer fuzz-admin-token\n"
reqs = [
    "GET /api/v1/health\n",
    "GET /api/v1/machines\n",
    "GET /api/v1/runs?status=complete&limit=5&offset=0&since=2026-01-01\n",
    "GET /api/v1/runs?machine=52:54:00:12:34:56&suite=default&label=x&token=00c0ffee00000001\n",
    "GET /api/v1/runs.csv?status=crashed\n",
    "GET /api/v1/runs/1\n",
    "GET /api/v1/runs/2/events?kind=error&after=0&limit=10\n",
    "GET /api/v1/runs/1/cases/1/histogram?rep=0&initiator=all\n",
    "GET /api/v1/runs/1.csv\n",
    "GET /api/v1/compare?a=1&b=2\n",
    "GET /api/v1/compare.csv?a=1&b=1&algo_a=locked&algo_b=lockless\n",
    "GET /api/v1/jobs?mac=52-54-00-12-34-56&pending=1\n",
    "GET /boot.ipxe?mac=52:54:00:12:34:56&uuid=u-1&serial=S%201\nHost: 10.0.2.2:8080\n",
    "GET /firmware/xcbench.elf\n",
    "GET /\n",
    "GET /js/app.js\n",
    "GET /%2e%2e/secret.txt\n",
    "GET /link.txt\n",
    "POST /api/v1/jobs\n" + A + "\n" + '{"mac":"52:54:00:12:34:56","suite":"quick","params":{"reps":"3"},"label":"l"}',
    "POST /api/v1/jobs\n\n" + '{"mac":"52:54:00:12:34:56","suite":"quick"}',
    "DELETE /api/v1/jobs/1\n" + A,
    "PATCH /api/v1/runs/1\n" + A + "\n" + '{"label":"base","notes":null}',
    "PATCH /api/v1/runs/1\n\n" + '{"label":"x"}',
    "POST /api/v1/runs\n" + A + "\n" + '{"token":"00000000deadbeef","suite":"s","label":"l"}',
    "PUT /api/v1/runs\n",
    "POST /api/v1/runs/1/console?line=3\n" + A + "\n" + "SeaBIOS\r\nxcbench: booting\nXCB1 AAAA\n",
    "POST /api/v1/runs/2/console\n\nline without token\n",
    "GET /api/v1/runs/1/cases/1/samples?rep=0&initiator=all&limit=10\n",
    "GET /api/v1/runs/1/samples.csv?case=1&rep=0\n",
]
hd = os.path.join(here, "corpus/http")
for i, r in enumerate(reqs):
    write(hd, "req%02d" % i, r.encode())
print("seeds written to", fd, "and", hd)
