-- Migration 2: what the hardening of issue 14 needs on runs.
--  peer:        the IPv4 address of the run's first valid frame; frames from
--               anywhere else are refused (kept across a daemon restart).
--  boot_uuid,
--  boot_serial: what the boot request said about the machine. A GET of
--               /boot.ipxe is anyone's to send, so they are copied to the
--               machine only when the run's HELLO arrives.
--  boot_peer:   the address of that request: a repeated GET from it gets the
--               same pending run (and token); one from elsewhere never does.
ALTER TABLE runs ADD COLUMN peer TEXT;
ALTER TABLE runs ADD COLUMN boot_uuid TEXT;
ALTER TABLE runs ADD COLUMN boot_serial TEXT;
ALTER TABLE runs ADD COLUMN boot_peer TEXT;   -- the address the boot request came from
-- /boot.ipxe reuses the pending run of a MAC: find it without a scan.
CREATE INDEX runs_pending_machine ON runs(machine_id, status, id);
