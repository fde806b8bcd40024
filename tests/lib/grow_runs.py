#!/usr/bin/env python3
"""tests/lib/grow_runs.py — grows a SQLite store by copying its run 1 to runs
2..N (tokens PREFIX followed by the run id in hex, 16 digits in all), one
INSERT ... SELECT per table, for the tests and benches that need many runs
fast (bench/api-latency.sh, tests/t-run-render-ingest.sh).

The tables copied are those keyed by run (their primary key starts with
run_id), read from the migrated schema itself, so a table a migration adds
or renames is copied too; their names are printed, space-separated, for a
caller that grows a PostgreSQL copy the same way.

usage: grow_runs.py DB N PREFIX
"""
import sqlite3
import sys


def run_tables(c):
    """The tables keyed by run, by name."""
    return [r[0] for r in c.execute(
        "SELECT m.name FROM sqlite_master m, pragma_table_info(m.name) p "
        "WHERE m.type = 'table' AND p.name = 'run_id' AND p.pk = 1 ORDER BY m.name")]


def grow(db, n, prefix):
    """Copies run 1 to runs 2..n; returns the tables copied besides runs."""
    c = sqlite3.connect(db, timeout=30)
    cols = lambda t, drop: [r[1] for r in c.execute("PRAGMA table_info(%s)" % t) if r[1] not in drop]
    ids = "WITH RECURSIVE g(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM g WHERE i < %d) SELECT i FROM g" % n
    token = "printf('%s%%0%dx', g.i)" % (prefix, 16 - len(prefix))
    rc = cols("runs", ("id", "token"))
    c.execute("INSERT INTO runs(id, token, %s) SELECT g.i, %s, %s FROM runs, (%s) g WHERE id = 1"
              % (", ".join(rc), token, ", ".join(rc), ids))
    kids = run_tables(c)
    for t in kids:
        cc = cols(t, ("run_id",))
        c.execute("INSERT INTO %s(run_id, %s) SELECT g.i, %s FROM %s, (%s) g WHERE run_id = 1"
                  % (t, ", ".join(cc), ", ".join(cc), t, ids))
    c.commit()
    return kids


if __name__ == "__main__":
    if len(sys.argv) != 4 or not sys.argv[2].isdigit() or len(sys.argv[3]) > 12:
        sys.exit(__doc__.strip().splitlines()[-1])
    print(" ".join(grow(sys.argv[1], int(sys.argv[2]), sys.argv[3])))
