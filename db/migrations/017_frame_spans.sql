-- 017: the fast path's frame ledger as spans of consecutive seqs, one row a
-- span, not a row a frame. A run was ~2.0 rows a frame, the ledger's
-- (frames) half of them, and that row was the PostgreSQL server's biggest
-- cost left (a build without it: 11.6 -> 6.9 us of its CPU a frame,
-- bench/LIMITS.md). A (run, seq) is stored when a frames row has it or a
-- span covers it (lo <= seq <= hi): the two never overlap, and spans of a
-- run never overlap one another (the fast path's insert probes both,
-- host/src/store_ledger.c; the careful path's S_FRAME probes the spans).
-- frames stays for the careful path's frames and for existing rows.
CREATE TABLE frame_spans (
	run_id   INTEGER NOT NULL,
	lo       INTEGER NOT NULL,   -- first seq of the span
	hi       INTEGER NOT NULL,   -- last seq (>= lo)
	received INTEGER NOT NULL,   -- its batch's time
	PRIMARY KEY (run_id, lo)
) WITHOUT ROWID;
