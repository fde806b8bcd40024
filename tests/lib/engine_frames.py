#!/usr/bin/env python3
"""engine_frames.py - decodes a captured payload console (serial "XCB1 <base64>"
frames, proto/README.md) and checks what the engine tests (tests/t-engine-*.sh)
assert: every frame intact (magic, version, length, CRC32), one run token, seq
contiguous from 0, HELLO first and DONE last with the right frame count, RESULT
and HISTO payloads consistent (histogram counts sum to the RESULT count).

Independent of the daemon's decoder on purpose: a second implementation of the
wire format catches encoder bugs the shared C code could not.

Usage: engine_frames.py LOG [--json]   prints a summary (or JSON) of the run;
exit status 0 when the stream is well-formed, 1 otherwise (reasons on stderr).
"""
import base64, binascii, json, re, struct, sys, zlib

T_HELLO, T_CASE, T_RESULT, T_HISTO, T_SAMPLES, T_LOG, T_ERROR, T_DONE = range(1, 9)
RESULT_FMT = "<IHH" + "Q" * 17 + "II"          # 152 bytes, proto/README.md
RESULT_FIELDS = ("case_id rep initiator count min p50 p90 p99 p999 max mean_x1000 "
                 "stddev_x1000 ipis lock_acq lock_contended lock_hold_cycles "
                 "lock_wait_cycles stale calls_executed calls_expected flags reserved").split()
assert struct.calcsize(RESULT_FMT) == 152
# Appended after the 152 v1 bytes (proto/README.md); absent fields read as 0.
RESULT_EXT_FIELDS = "ipi_floor lost dup ooo elapsed_cycles control_runs control_stale floor_paired ratio_paired_x1000 window_calls window_cycles".split()


def kv(text):
    out = {}
    for line in text.split("\n"):
        if "=" in line:
            k, v = line.split("=", 1)
            out[k] = v.rstrip("\r")
    return out


def decode(path):
    """Returns (frames, problems); a frame is (type, seq, token, payload bytes)."""
    frames, problems = [], []
    pat = re.compile(r"XCB1 ([A-Za-z0-9+/=]+)")
    with open(path, "rb") as f:
        for n, raw in enumerate(f, 1):
            line = raw.decode("latin-1")
            m = pat.search(line)
            if not m:
                continue
            try:
                b = base64.b64decode(m.group(1), validate=True)
            except (binascii.Error, ValueError):
                problems.append(f"line {n}: bad base64")
                continue
            if len(b) < 24:
                problems.append(f"line {n}: short frame")
                continue
            magic, ver, typ, length, token, seq, crc = struct.unpack_from("<IBBHQII", b)
            if magic != 0x31424358 or ver != 1:
                problems.append(f"line {n}: bad magic/version")
                continue
            if 24 + length != len(b) or len(b) > 1472:
                problems.append(f"line {n}: length {length} vs {len(b) - 24} bytes")
                continue
            if zlib.crc32(b[:20] + b[24:]) & 0xffffffff != crc:
                problems.append(f"line {n}: CRC mismatch (seq {seq})")
                continue
            frames.append((typ, seq, token, b[24:]))
    return frames, problems


def analyse(path):
    frames, problems = decode(path)
    run = {"frames": len(frames), "hello": {}, "cases": {}, "results": [], "logs": [],
           "errors": [], "done": None, "histo_sum": {}, "samples": {}, "problems": problems}
    if not frames:
        problems.append("no frames found")
        return run
    tokens = {f[2] for f in frames}
    if len(tokens) != 1:
        problems.append(f"{len(tokens)} run tokens")
    seqs = [f[1] for f in frames]
    if seqs != list(range(len(frames))):
        problems.append("seq not contiguous from 0")
    if frames[0][0] != T_HELLO:
        problems.append("first frame is not HELLO")
    if frames[-1][0] != T_DONE:
        problems.append("last frame is not DONE")
    for typ, seq, tok, p in frames:
        if typ == T_HELLO:
            run["hello"].update(kv(p.decode()))
        elif typ == T_CASE:
            # a case's x_cpus may come in pieces, x_cpus+I/N, the others
            # in CASE frames of "id" and a piece (proto/README.md): merged
            c = kv(p.decode())
            case = run["cases"].setdefault(int(c["id"]), {})
            case.update(c)
            pieces = sorted((int(k[7:].split("/")[0]), int(k.split("/")[1]), k)
                            for k in case if k.startswith("x_cpus+"))
            if pieces and len(pieces) == pieces[0][1]:
                case["x_cpus"] = "".join(case.pop(k) for _, _, k in pieces)
        elif typ == T_RESULT:
            if len(p) < 152:
                problems.append(f"seq {seq}: short RESULT")
                continue
            r = dict(zip(RESULT_FIELDS, struct.unpack_from(RESULT_FMT, p)))
            for i, k in enumerate(RESULT_EXT_FIELDS):
                off = 152 + 8 * i
                r[k] = struct.unpack_from("<Q", p, off)[0] if len(p) >= off + 8 else 0
            if r["case_id"] not in run["cases"]:
                problems.append(f"seq {seq}: RESULT for unknown case {r['case_id']}")
            run["results"].append(r)
        elif typ == T_HISTO:
            case_id, rep, ini, first, n = struct.unpack_from("<IHHIH", p)
            if 16 + 4 * n != len(p) or first + n > 7424:
                problems.append(f"seq {seq}: bad HISTO chunk")
                continue
            counts = struct.unpack_from("<%dI" % n, p, 16)
            key = f"{case_id}/{rep}/{ini}"
            run["histo_sum"][key] = run["histo_sum"].get(key, 0) + sum(counts)
        elif typ == T_SAMPLES:
            case_id, rep, ini, index, width, _, n = struct.unpack_from("<IHHIBBH", p)
            if width not in (4, 8) or 16 + width * n != len(p):
                problems.append(f"seq {seq}: bad SAMPLES chunk")
                continue
            vals = struct.unpack_from("<%d%s" % (n, "Q" if width == 8 else "I"), p, 16)
            key = f"{case_id}/{rep}/{ini}"
            have = run["samples"].setdefault(key, [])
            if index != len(have):
                problems.append(f"seq {seq}: SAMPLES {key} index {index}, expected {len(have)}")
            have.extend(vals)
        elif typ == T_LOG:
            run["logs"].append(p.decode(errors="replace"))
        elif typ == T_ERROR:
            run["errors"].append(p.decode(errors="replace"))
        elif typ == T_DONE:
            frames_before, status = struct.unpack_from("<II", p)
            run["done"] = {"frames": frames_before, "status": status}
            if frames_before != seq:
                problems.append(f"DONE says {frames_before} frames, its seq is {seq}")
    # Histograms sent for a (case, rep, initiator) must hold exactly its RESULT count.
    for r in run["results"]:
        key = f"{r['case_id']}/{r['rep']}/{r['initiator']}"
        if key in run["histo_sum"] and run["histo_sum"][key] != r["count"]:
            problems.append(f"histogram {key} holds {run['histo_sum'][key]} of {r['count']} samples")
    # Raw samples, when sent, are the first calls of that stream, within [min, max].
    for r in run["results"]:
        key = f"{r['case_id']}/{r['rep']}/{r['initiator']}"
        v = run["samples"].get(key)
        if v is None:
            continue
        if len(v) != min(r["count"], 1024) or (v and (min(v) < r["min"] or max(v) > r["max"])):
            problems.append(f"samples {key}: {len(v)} values vs count {r['count']}")
    run["samples"] = {k: len(v) for k, v in run["samples"].items()}
    return run


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(sys.argv) >= 2 else 2
    run = analyse(sys.argv[1])
    if "--json" in sys.argv[2:]:
        json.dump(run, sys.stdout, default=str)
        print()
    else:
        print(f"{run['frames']} frames, {len(run['cases'])} cases, {len(run['results'])} results, "
              f"{len(run['errors'])} errors, done={run['done']}")
    for p in run["problems"]:
        print("problem:", p, file=sys.stderr)
    return 1 if run["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
