"""tests/lib/help_columns.py HELP-FILE...: what is wrong with the option
lists of --help texts, one line each (none: all well). An option line is
two blanks, an option (-x, --name, $VAR) with its value words, two or more
blanks, its description; the lines below it indented further continue it.
In one help text every description starts at one column, the most common
one, unless its option's name reaches past it, and every continuation line
starts there too (xcbenchd's --boot-from and --run-limit, and vm's --nic
continuation, were one column off); and each option's text closes every
parenthesis it opens (--boot-from's did not). Used by tests/t-cli-help.sh."""
import collections
import re
import sys

OPT = re.compile(r"^  ([-$]\S(?:\S| \S)*)( {2,})(\S)")


def problems(text):
    lines = text.splitlines()
    cols = collections.Counter(m.start(3) for m in map(OPT.match, lines) if m)
    if not cols:
        return []
    col = cols.most_common(1)[0][0]
    bad, block = [], None

    def close(block):
        if block and block[1].count("(") != block[1].count(")"):
            bad.append(f"line {block[0]}: unbalanced parentheses in {block[1].split()[0]}'s text")

    for i, line in enumerate(lines, 1):
        m = OPT.match(line)
        if m:
            close(block)
            block = [i, line.strip()]
            if m.end(1) + 2 <= col and m.start(3) != col:
                bad.append(f"line {i}: {m.group(1)}: its text at column {m.start(3) + 1}, not {col + 1}")
        elif block and line.startswith("   ") and line.strip():
            block[1] += " " + line.strip()
            indent = len(line) - len(line.lstrip())
            if indent != col:
                bad.append(f"line {i}: {block[1].split()[0]}: continued at column {indent + 1}, not {col + 1}")
        else:
            close(block)
            block = None
    close(block)
    return bad


for path in sys.argv[1:]:
    for p in problems(open(path).read()):
        print(f"{path}: {p}")
