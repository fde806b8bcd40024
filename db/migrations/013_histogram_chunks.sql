-- 013: issue 24 (ingest at the senders' rate): histograms are stored as the
-- chunks they arrive in, one row per HISTO frame, not one row per non-empty
-- bucket (6 a frame from xcb-gen, over half of the rows a run inserted).
--  histogram_chunks: the counts of buckets bucket0 .. bucket0+n-1 of one
--               (run, case, rep, initiator) histogram, as n comma-separated
--               decimals in counts (sample_chunks' encoding, 011). A chunk
--               is stored from its first to its last non-empty bucket (zeros
--               between them kept); a HISTO frame whose buckets are all zero
--               stores nothing. runs.use_histo still counts non-empty
--               buckets.
-- Insert-once: a HISTO frame is refused when a stored chunk of its histogram
-- overlaps its bucket range [first, first+n-1]. Before, it was refused when
-- a stored non-empty bucket lay in that range: stricter only for a payload
-- that sends a chunk into the zero buckets inside another chunk's range.
-- The old rows are moved as chunks of one (same buckets, same counts), then
-- the histograms table goes.
CREATE TABLE histogram_chunks (
	run_id INTEGER NOT NULL, case_id INTEGER NOT NULL,
	rep INTEGER NOT NULL, initiator INTEGER NOT NULL,
	bucket0 INTEGER NOT NULL, n INTEGER NOT NULL,
	counts TEXT NOT NULL,
	PRIMARY KEY (run_id, case_id, rep, initiator, bucket0)
) WITHOUT ROWID;
INSERT INTO histogram_chunks(run_id, case_id, rep, initiator, bucket0, n, counts)
	SELECT run_id, case_id, rep, initiator, bucket, 1, CAST(count AS TEXT) FROM histograms
	WHERE count != 0;
DROP TABLE histograms;
