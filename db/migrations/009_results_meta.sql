-- 009: issue 25 ("results a reviewer can trust and share"): a run's labels as
-- metadata (several tags, key=value fields), settable when a job is queued
-- (copied to the run its boot creates) and afterwards; and the baseline of a
-- machine + suite (the runs a CI check compares against).
CREATE TABLE run_tags (
	run_id INTEGER NOT NULL REFERENCES runs(id),
	tag    TEXT NOT NULL,
	PRIMARY KEY (run_id, tag)
);
CREATE INDEX run_tags_tag ON run_tags(tag);
CREATE TABLE run_meta (
	run_id INTEGER NOT NULL REFERENCES runs(id),
	key    TEXT NOT NULL,                 -- e.g. kernel, series, version
	value  TEXT NOT NULL,
	PRIMARY KEY (run_id, key)
);
ALTER TABLE jobs ADD COLUMN tags TEXT NOT NULL DEFAULT '[]';  -- JSON array of strings
ALTER TABLE jobs ADD COLUMN meta TEXT NOT NULL DEFAULT '{}';  -- JSON object of strings
CREATE TABLE baselines (
	machine_id INTEGER NOT NULL REFERENCES machines(id),
	suite      TEXT NOT NULL,
	runs       TEXT NOT NULL,             -- JSON array of run ids (the boots)
	set_at     INTEGER NOT NULL,
	PRIMARY KEY (machine_id, suite)
);
