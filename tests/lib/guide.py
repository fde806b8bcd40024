#!/usr/bin/env python3
"""guide.py - what a reader of docs/ADDING-AN-ALGORITHM.md would paste, read
out of the guide itself, so tests/t-add-algorithm.sh runs the guide as
written and a guide that rots fails the test (its field table once named an
enum that does not exist, and its boot command gave a run that could not be
compared: nothing ran them).

  guide.py GUIDE cmd STEP PREFIX  the first command of step STEP's sh code
                                  blocks that starts with PREFIX (continuation
                                  lines joined, a trailing comment dropped);
                                  status 1 if there is none
  guide.py GUIDE table            a C file that assigns every XCALL_* value of
                                  the field table to its field of a struct
                                  xcall_ops (one initialiser each), for the
                                  compiler to check
"""
import re
import sys


def step_text(text, step):
    m = re.search(r"^## " + re.escape(step) + r"\..*?(?=^## |\Z)", text, re.M | re.S)
    return m.group(0) if m else ""


def cmd(text, step, prefix):
    for block in re.findall(r"^```sh\n(.*?)^```", step_text(text, step), re.M | re.S):
        for line in re.sub(r"\\\n\s*", " ", block).splitlines():
            line = re.sub(r"\s+#.*$", "", line).strip()
            if line.startswith(prefix):
                return line
    return None


def table(text):
    out = ['#include "xcall/xcall.h"']
    for field, cell in re.findall(r"^\| `\.(\w+)` \|(.*)\|\s*$", text, re.M):
        # .name and .desc are strings: an XCALL_ word in their cells is a
        # limit (XCALL_DESC_MAX), not a value to assign
        if field in ("name", "desc"):
            continue
        for value in re.findall(r"`(XCALL_[^`]*)`", cell):
            out.append(f"const struct xcall_ops table_{len(out)} = {{ .{field} = {value} }};")
    return "\n".join(out)


def main():
    text = open(sys.argv[1]).read()
    if sys.argv[2] == "table":
        print(table(text))
        return 0
    found = cmd(text, sys.argv[3], sys.argv[4])
    if found is None:
        return 1
    print(found)
    return 0


if __name__ == "__main__":
    sys.exit(main())
