-- 016: a job's stage bounds are those of the power driver its machine had
-- when the job started (left queued), not of whatever driver the machine
-- has now: an operator who edits a machine's power settings mid-job does
-- not change the limits the running job is held to (README "Power
-- control"). A queued job takes the machine's driver when it starts.
ALTER TABLE jobs ADD COLUMN power_driver TEXT;  -- ipmi|command|manual at the job's start; NULL: not started
