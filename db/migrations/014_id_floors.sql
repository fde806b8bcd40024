-- 014: a job's id is never given twice. SQLite gives a new row the highest
-- id in the table plus one, so deleting the newest pending job (DELETE
-- /api/v1/jobs/{id}, or `xcbench vm` cleaning up the job it queued) handed
-- its id to the next job: a script or a log line that named the deleted job
-- then named another. PostgreSQL's identity columns never go back, so there
-- this table only records what SQLite needs.
--  id_floors: per table (name), the highest id deleted there (floor); a new
--             row whose id is at or below it moves above it
--             (host/src/jobs_db.c, jobs_db_new_id).
CREATE TABLE id_floors (
	name  TEXT NOT NULL PRIMARY KEY,
	floor INTEGER NOT NULL
);
