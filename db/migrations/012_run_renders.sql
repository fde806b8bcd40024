-- 012: issue 24 (the run page's first request): finished runs' pages kept
-- in the store, so a run's first GET /api/v1/runs/{id} reads one row instead
-- of every RESULT and histogram row of the run. A derived table: the daemon's
-- writer fills it in its idle time (host/src/runrender.c) and any row may be
-- deleted at any time (it is rendered again).
--  run_renders.format: the rendering's format version (RUN_CASES_FORMAT in
--               host/src/runs_json.h): a daemon whose JSON differs ignores it.
--  token, frames_received, last_frame: the run as it was when rendered (the
--               key host/src/casecache.h keeps renderings by): a run that
--               stores another frame changes them, and is rendered again.
--  cases:       the JSON array GET /api/v1/runs/{id} answers as "cases" (its
--               default page); NULL when the run has more cases than a page.
CREATE TABLE run_renders (
	run_id          INTEGER NOT NULL PRIMARY KEY,
	format          INTEGER NOT NULL,
	token           TEXT NOT NULL,
	frames_received INTEGER NOT NULL,
	last_frame      INTEGER,
	cases           TEXT
);
