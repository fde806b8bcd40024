-- 010: issue 26 (hardening 3): jobs go only to their machine, every run bounded.
--  machines.boot_addr: the machine's known boot address: the source of the
--               first boot from an allowed network (--boot-from) whose HELLO
--               came from that address too. Once known, only a boot request
--               from it is handed the machine's queued job.
--  jobs.consumed_by: the address of the boot request whose run consumed it.
--  jobs.bound_until: set by the power driver's hook (boot_bind_job): the job
--               is rendered only to a boot request before this time (the boot
--               the driver started); NULL: any allowed boot.
--  runs.boot_trusted: the boot request came from an allowed network.
--  runs.use_*:  what the run has stored, checked against the per-run limits
--               (--run-limit) before each frame writes.
--  runs.limited: frames refused because a per-run limit was reached.
ALTER TABLE machines ADD COLUMN boot_addr TEXT;
ALTER TABLE jobs ADD COLUMN consumed_by TEXT;
ALTER TABLE jobs ADD COLUMN bound_until INTEGER;
ALTER TABLE runs ADD COLUMN boot_trusted INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN use_cases INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN use_histo INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN use_samples INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN use_events INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN limited INTEGER NOT NULL DEFAULT 0;
-- Job-less pending runs per boot address (the per-address limit).
CREATE INDEX runs_boot_peer ON runs(boot_peer, status) WHERE job_id IS NULL;
