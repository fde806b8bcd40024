"""tests/lib/tap.py — TAP lines for the Python parts of tests/t-*.sh (the
shell side is tests/lib/tap.sh, which puts this folder on PYTHONPATH):

    from tap import ok, prefixed
    ok(cond, "what held")                # "ok - what held" / "not ok - ..."
    ok = prefixed("-smp 4: ")            # every name of this script so prefixed
"""


def ok(cond, name):
    """One TAP line: `ok - name` when cond holds, else `not ok - name`."""
    print(("ok - " if cond else "not ok - ") + name, flush=True)
    return bool(cond)


def prefixed(prefix):
    """An ok() whose names all start with prefix (one boot among several)."""
    return lambda cond, name: ok(cond, prefix + name)
