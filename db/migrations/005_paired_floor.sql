-- 005: issue 21 ("every floor from the same moment as its call"): the RESULT
-- fields appended at offsets 208-223 (proto/README.md). Older rows read NULL
-- (not measured); so do rows of a case that does not probe (0 on the wire).
ALTER TABLE results ADD COLUMN floor_paired INTEGER;        -- median `ipi` probe between the calls, cycles
ALTER TABLE results ADD COLUMN ratio_paired_x1000 INTEGER;  -- median of call/probe pairs x 1000
