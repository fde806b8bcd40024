-- 008: issue 24 ("several labs, one history"): each daemon serves one lab
-- (xcbenchd --lab NAME) and many daemons may share one database
-- (PostgreSQL). Runs and machines carry the lab that created them; NULL is a
-- daemon without --lab (one daemon, one database, as before). Run ids and
-- tokens stay global: runs.token is UNIQUE across labs.
ALTER TABLE runs ADD COLUMN lab TEXT;
ALTER TABLE machines ADD COLUMN lab TEXT;   -- whose daemon boots it and serves its jobs
CREATE INDEX runs_lab ON runs(lab, created DESC);
