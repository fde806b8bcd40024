#!/usr/bin/env python3
"""docs.py - what the front-door documents (README.md, firmware/README.md,
firmware/bench/README.md, host/API.md, docs/*.md) name, read out of them, so
tests/t-docs.sh can hold it against the product: docs rot quietly (an API
example kept a RESULT length and /health keys of an older daemon; nothing
compared them).

  docs.py paths DOC...      repository paths named in `backticks` that exist
                            nowhere (relative to the root, the document's
                            folder, or the source folders bare file names
                            name), one "DOC:LINE: PATH" a line
  docs.py flags DOC...      "CMD --flag" for every option an xcbench or
                            xcbenchd command line of the documents gives
                            (indented code lines, `inline` commands); CMD is
                            the xcbench subcommand, "-" for xcbench's own
                            options, "xcbenchd" for the daemon
  docs.py cmd DOC PREFIX    the first indented code line starting with
                            PREFIX, continuation lines joined, a trailing
                            comment dropped; status 1 if there is none
  docs.py cmds DOC PREFIX   every such line, one a line (status 1: none)
  docs.py json DOC START    the first ``` block that parses as JSON after
                            the first line starting with START (or "### "
                            START), re-printed (status 1: none)
  docs.py keys EXAMPLE REAL the keys (nested objects, as a.b) one JSON file
                            has and the other lacks: "missing K" (in the
                            real answer, not the example), "extra K"
"""
import json
import os
import re
import sys

# Where a bare file name (`ledger.h`) may live: the folders the docs discuss.
SRC_DIRS = ["firmware", "firmware/arch", "firmware/lib", "firmware/xcall", "firmware/flush",
            "firmware/bench", "firmware/net", "host", "host/src", "host/cli", "host/common",
            "host/tools", "host/tests", "proto", "tests", "tools", "db", "lab", "web",
            "web/pages"]
# Named in the docs, but made at run time, examples of a name or MIME types
# (`text/html`): not in a tree. (A one-folder path is a path: it is checked.)
NOT_IN_TREE = re.compile(r"^(var/|tests/out/|EFI/|\./var/)|NAME|^(text|application|image)/")


def code_lines(text):
    """Indented code lines with their continuations joined."""
    joined = re.sub(r"\\\n\s*", " ", text)
    for line in joined.splitlines():
        if line.startswith("    "):
            yield re.sub(r"\s+", " ", re.sub(r"\s+#.*$", "", line.strip()))


def paths(docs):
    bad = []
    for doc in docs:
        text = open(doc).read()
        for m in re.finditer(r"`([A-Za-z0-9_.+/-]+)`", text):
            t = m.group(1)
            if "/" not in t and not re.search(r"\.(c|h|S|sh|py|md|yml|conf|html|js)$", t):
                continue
            if t.startswith(("-", "/")) or NOT_IN_TREE.search(t):
                continue
            where = [t, os.path.join(os.path.dirname(doc), t)] + [os.path.join(d, t) for d in SRC_DIRS]
            # a module (`arch/apic`: apic.c and apic.h) is named by its stem
            if not any(os.path.exists(w + ext) for w in where for ext in ("", ".c", ".h")):
                bad.append(f"{doc}:{text[:m.start()].count(chr(10)) + 1}: {t}")
    return bad


def command_flags(words):
    """(CMD, --flag) for the xcbench/xcbenchd invocations in words."""
    for i, w in enumerate(words):
        if re.search(r"(^|/)xcbenchd$", w):
            for y in words[i + 1:]:
                if y.startswith("--"):
                    yield "xcbenchd", y.split("=")[0]
        elif re.search(r"(^|/)xcbench$", w):
            j = i + 1
            while j < len(words) and words[j].startswith("--"):
                yield "-", words[j].split("=")[0]
                j += 2
            for y in words[j + 1:]:
                if y == "--":  # what follows goes to another command (calibrate --boot)
                    break
                if y.startswith("--") and j < len(words):
                    yield words[j], y.split("=")[0]


def flags(docs):
    found = set()
    for doc in docs:
        text = open(doc).read()
        spans = list(code_lines(text))
        spans += re.findall(r"`((?:host/build/)?xcbenchd? [^`]*)`", re.sub(r"\s*\n\s*", " ", text))
        for span in spans:
            for part in re.split(r"[|;]|&&", span):  # a synopsis' [--opt] too
                found.update(command_flags(re.sub(r"[][]", " ", part).split()))
    found = {(c, f) for c, f in found if re.match(r"^([a-z]+|-)$", c)}
    return sorted(found)


def cmd(text, prefix):
    for line in code_lines(text):
        if line.startswith(prefix):
            return line
    return None


def cmds(text, prefix):
    """Every code line starting with prefix, in the document's order."""
    return [line for line in code_lines(text) if line.startswith(prefix)]


def json_after(text, heading):
    m = re.search(r"^(### )?" + re.escape(heading), text, re.M)
    if not m:
        return None
    for block in re.findall(r"^```[a-z]*\n(.*?)^```", text[m.end():], re.M | re.S):
        try:
            return json.loads(block)
        except ValueError:
            continue
    return None


def key_paths(obj, pre=""):
    if not isinstance(obj, dict):
        return set()
    out = set()
    for k, v in obj.items():
        if k == "…":
            continue
        out.add(pre + k)
        out |= key_paths(v, pre + k + ".")
    return out


def main():
    what, args = sys.argv[1], sys.argv[2:]
    if what == "paths":
        print("\n".join(paths(args)))
    elif what == "flags":
        print("\n".join(f"{c} {f}" for c, f in flags(args)))
    elif what == "cmd":
        found = cmd(open(args[0]).read(), args[1])
        if found is None:
            return 1
        print(found)
    elif what == "cmds":
        found = cmds(open(args[0]).read(), args[1])
        if not found:
            return 1
        print("\n".join(found))
    elif what == "json":
        found = json_after(open(args[0]).read(), args[1])
        if found is None:
            return 1
        print(json.dumps(found))
    elif what == "keys":
        ex, real = (key_paths(json.load(open(f))) for f in args)
        for k in sorted(real - ex):
            print("missing", k)
        for k in sorted(ex - real):
            print("extra", k)
    return 0


if __name__ == "__main__":
    sys.exit(main())
