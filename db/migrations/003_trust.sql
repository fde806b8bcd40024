-- 002: issue 13 ("numbers you can trust"): the RESULT fields appended to the wire
-- format (proto/README.md, offsets 152-207). Columns are appended, so older rows
-- read NULL (a run stored before this migration: not measured).
ALTER TABLE results ADD COLUMN ipi_floor INTEGER;       -- the repetition's `ipi` floor, cycles
ALTER TABLE results ADD COLUMN lost INTEGER;            -- exactly-once by per-(initiator, target) seq
ALTER TABLE results ADD COLUMN dup INTEGER;
ALTER TABLE results ADD COLUMN ooo INTEGER;             -- run after a later call (queued FIFO)
ALTER TABLE results ADD COLUMN elapsed_cycles INTEGER;  -- wall time of the timed calls
ALTER TABLE results ADD COLUMN control_runs INTEGER;    -- TLB no-flush control shootdowns
ALTER TABLE results ADD COLUMN control_stale INTEGER;   -- ... that saw a stale translation
