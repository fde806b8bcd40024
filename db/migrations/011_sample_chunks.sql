-- 011: issue 24 (ingest at the senders' rate): raw samples are stored as the
-- chunks they arrive in, one row per SAMPLES frame, not one row per sample.
-- Samples were ~75 % of all rows a run inserted (64 a frame) and nothing
-- reads them one by one; a chunk is one row to insert, check and replicate.
--  sample_chunks: the values idx0 .. idx0+n-1 of one (run, case, rep,
--               initiator) stream, as n comma-separated decimals in vals
--               (text both engines write and read alike). Insert-once: no
--               stored chunk of a stream overlaps another (the store
--               refuses a SAMPLES frame that would).
-- The old rows are moved as chunks of one (same values, same counts), then
-- the samples table goes. runs.use_samples still counts samples.
CREATE TABLE sample_chunks (
	run_id INTEGER NOT NULL, case_id INTEGER NOT NULL,
	rep INTEGER NOT NULL, initiator INTEGER NOT NULL,
	idx0 INTEGER NOT NULL, n INTEGER NOT NULL,
	vals TEXT NOT NULL,
	PRIMARY KEY (run_id, case_id, rep, initiator, idx0)
) WITHOUT ROWID;
INSERT INTO sample_chunks(run_id, case_id, rep, initiator, idx0, n, vals)
	SELECT run_id, case_id, rep, initiator, idx, 1, CAST(value AS TEXT) FROM samples;
DROP TABLE samples;
