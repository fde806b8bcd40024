-- 007: issue 23 ("the lab drives itself"): power settings per machine, a
-- stored lifecycle per job, and its events. host/src/jobs_db.c is the only
-- code that reads or writes these columns.

-- How the daemon switches a machine on and off (power.h). A NULL driver is
-- 'manual': a person presses the button. The password itself is never
-- stored: only the path of a file the daemon reads (and passes to the IPMI
-- tool by name, so it is on no command line).
ALTER TABLE machines ADD COLUMN power_driver TEXT;         -- ipmi|command|manual
ALTER TABLE machines ADD COLUMN power_host TEXT;           -- ipmi: the BMC's address
ALTER TABLE machines ADD COLUMN power_port INTEGER;        -- ipmi: UDP port (623)
ALTER TABLE machines ADD COLUMN power_user TEXT;           -- ipmi: user name
ALTER TABLE machines ADD COLUMN power_password_file TEXT;  -- ipmi/command: file with the password
ALTER TABLE machines ADD COLUMN power_command TEXT;        -- command: template ({action}, {mac}, ...)
ALTER TABLE machines ADD COLUMN power_sol INTEGER NOT NULL DEFAULT 0; -- capture serial-over-LAN
ALTER TABLE machines ADD COLUMN power_error TEXT;          -- the last driver error, or NULL
ALTER TABLE machines ADD COLUMN power_state TEXT;          -- last known: on|off (NULL: unknown)
ALTER TABLE machines ADD COLUMN power_checked INTEGER;     -- when power_state/power_error were set

-- The lifecycle: queued -> powering_on -> booting -> running ->
-- complete | failed | timed_out | cancelled (job_runner.c).
ALTER TABLE jobs ADD COLUMN stage TEXT NOT NULL DEFAULT 'queued';
ALTER TABLE jobs ADD COLUMN stage_since INTEGER;           -- when the job entered its stage
ALTER TABLE jobs ADD COLUMN attempt INTEGER NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN attempts INTEGER NOT NULL DEFAULT 1;  -- the retry policy: boots at most
ALTER TABLE jobs ADD COLUMN bound_power INTEGER;           -- seconds in powering_on (NULL: no bound)
ALTER TABLE jobs ADD COLUMN bound_boot INTEGER;            -- ... in booting
ALTER TABLE jobs ADD COLUMN bound_run INTEGER;             -- ... in running
ALTER TABLE jobs ADD COLUMN end_action TEXT NOT NULL DEFAULT 'off'; -- off|leave
ALTER TABLE jobs ADD COLUMN powered INTEGER;               -- this attempt's power-on went out
ALTER TABLE jobs ADD COLUMN booted INTEGER;                -- this attempt's /boot.ipxe
ALTER TABLE jobs ADD COLUMN ended INTEGER;                 -- the end action ran
ALTER TABLE jobs ADD COLUMN reason TEXT;                   -- why it is in its stage
-- Jobs a boot took before this migration ran their course by hand.
UPDATE jobs SET stage = 'running', stage_since = consumed, attempt = 1 WHERE consumed IS NOT NULL;
CREATE INDEX jobs_stage ON jobs(stage, mac, id);

CREATE TABLE job_events (
	id      INTEGER PRIMARY KEY,
	job_id  INTEGER NOT NULL REFERENCES jobs(id),
	at      INTEGER NOT NULL,     -- unix seconds
	stage   TEXT NOT NULL,        -- the stage entered, or the stage it happened in
	attempt INTEGER NOT NULL,
	reason  TEXT NOT NULL
);
CREATE INDEX job_events_job ON job_events(job_id, id);
