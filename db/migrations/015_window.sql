-- 015: the RESULT fields appended at offsets 224-239 (proto/README.md): each
-- initiator's calls and cycles in the repetition's shared window, which
-- Jain's index is of (README "Fairness"), so the daemon's index is the
-- console's. Older rows read NULL: their index stays over elapsed_cycles.
ALTER TABLE results ADD COLUMN window_calls INTEGER;   -- timed calls made in the shared window
ALTER TABLE results ADD COLUMN window_cycles INTEGER;  -- cycles of the shared window
