# tests/lib/ledger.sh — the frame ledger (what xcbenchd stored, a row a
# (run, seq)) in SQL both engines run, for the suites and benches that
# count or list stored frames. Spelled here once because it is two tables
# (migration 017): frames, a row a frame of the careful path, and
# frame_spans, a row a span [lo, hi] of consecutive seqs of the fast path
# (host/src/store_ledger.c); a (run, seq) is in one of them once.
#
# XCB_LEDGER: a relation of (run_id, seq), the spans expanded: use it
# where a query reads "FROM frames" ("SELECT count(*) FROM $XCB_LEDGER f").
# XCB_LEDGER_COUNT: a query of their number, without the expansion (for
# the benches' millions of frames). Exported: Python checks read them.
export XCB_LEDGER="(WITH RECURSIVE s(run_id, seq, hi) AS (SELECT run_id, lo, hi FROM frame_spans UNION ALL SELECT run_id, seq + 1, hi FROM s WHERE seq < hi) SELECT run_id, seq FROM s UNION ALL SELECT run_id, seq FROM frames)"
export XCB_LEDGER_COUNT="SELECT (SELECT count(*) FROM frames) + (SELECT COALESCE(sum(hi - lo + 1), 0) FROM frame_spans)"
