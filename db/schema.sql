-- xcbench storage, migration 1 (PRAGMA user_version = 1).
-- xcbenchd applies this and then db/migrations/NNN_*.sql in order, each once,
-- bumping PRAGMA user_version inside the same transaction. Never edit a
-- migration that has shipped: add a new numbered file instead.
-- Times are unix seconds (INTEGER); the API renders ISO 8601.

CREATE TABLE machines (
	id         INTEGER PRIMARY KEY,
	mac        TEXT NOT NULL UNIQUE,      -- booting NIC, lower-case aa:bb:cc:dd:ee:ff
	uuid       TEXT,
	serial     TEXT,
	first_seen INTEGER NOT NULL,
	last_seen  INTEGER NOT NULL
);

CREATE TABLE jobs (                       -- queued boot requests for one MAC
	id       INTEGER PRIMARY KEY,
	mac      TEXT NOT NULL,
	suite    TEXT NOT NULL,
	params   TEXT NOT NULL DEFAULT '{}',  -- JSON object of strings
	label    TEXT,
	created  INTEGER NOT NULL,
	consumed INTEGER,                     -- when a boot took it
	run_id   INTEGER REFERENCES runs(id)
);
CREATE INDEX jobs_pending ON jobs(mac, consumed, id);

CREATE TABLE runs (
	id              INTEGER PRIMARY KEY,
	token           TEXT NOT NULL UNIQUE, -- 16 lower-case hex digits
	machine_id      INTEGER REFERENCES machines(id),
	job_id          INTEGER REFERENCES jobs(id),
	suite           TEXT,
	params          TEXT NOT NULL DEFAULT '{}',
	label           TEXT,
	notes           TEXT,
	status          TEXT NOT NULL DEFAULT 'pending', -- pending|running|complete|lost|crashed
	source          TEXT,                 -- udp|serial (from HELLO transport)
	created         INTEGER NOT NULL,
	started         INTEGER,              -- first frame
	last_frame      INTEGER,
	finished        INTEGER,              -- complete
	frames_received INTEGER NOT NULL DEFAULT 0,
	frames_expected INTEGER,              -- from DONE: its count + 1 (DONE itself)
	done_status     INTEGER,
	hello           TEXT NOT NULL DEFAULT '{}', -- JSON object of HELLO keys
	cpus            INTEGER,
	tsc_khz         INTEGER,
	error           TEXT                  -- first line of the first ERROR
);
CREATE INDEX runs_created ON runs(created DESC, id DESC);
CREATE INDEX runs_machine ON runs(machine_id, created DESC);
CREATE INDEX runs_status ON runs(status, created DESC);
CREATE INDEX runs_suite ON runs(suite, created DESC);
CREATE INDEX runs_label ON runs(label, created DESC);

-- One row per stored frame: the dedupe ledger (run, seq) and its type.
CREATE TABLE frames (
	run_id   INTEGER NOT NULL,
	seq      INTEGER NOT NULL,
	type     INTEGER NOT NULL,
	received INTEGER NOT NULL,
	PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;

CREATE TABLE cases (
	run_id    INTEGER NOT NULL,
	case_id   INTEGER NOT NULL,
	kind      TEXT, algo TEXT, delivery TEXT, wait TEXT,
	inits     INTEGER, mask INTEGER,
	placement TEXT, overlap TEXT,
	work_us   INTEGER, iters INTEGER, reps INTEGER,
	config    TEXT NOT NULL,              -- JSON object: every key as sent
	match_key TEXT NOT NULL,              -- canonical k=v&… of the matching keys
	PRIMARY KEY (run_id, case_id)
) WITHOUT ROWID;

CREATE TABLE results (
	run_id INTEGER NOT NULL, case_id INTEGER NOT NULL,
	rep INTEGER NOT NULL, initiator INTEGER NOT NULL, -- 65535 = all
	count INTEGER, min INTEGER, p50 INTEGER, p90 INTEGER, p99 INTEGER,
	p999 INTEGER, max INTEGER, mean_x1000 INTEGER, stddev_x1000 INTEGER,
	ipis INTEGER, lock_acq INTEGER, lock_contended INTEGER,
	lock_hold_cycles INTEGER, lock_wait_cycles INTEGER, stale INTEGER,
	calls_executed INTEGER, calls_expected INTEGER, flags INTEGER,
	PRIMARY KEY (run_id, case_id, rep, initiator)
) WITHOUT ROWID;

CREATE TABLE histograms (
	run_id INTEGER NOT NULL, case_id INTEGER NOT NULL,
	rep INTEGER NOT NULL, initiator INTEGER NOT NULL,
	bucket INTEGER NOT NULL, count INTEGER NOT NULL,
	PRIMARY KEY (run_id, case_id, rep, initiator, bucket)
) WITHOUT ROWID;

CREATE TABLE samples (
	run_id INTEGER NOT NULL, case_id INTEGER NOT NULL,
	rep INTEGER NOT NULL, initiator INTEGER NOT NULL,
	idx INTEGER NOT NULL, value INTEGER NOT NULL,
	PRIMARY KEY (run_id, case_id, rep, initiator, idx)
) WITHOUT ROWID;

CREATE TABLE events (                     -- LOG and ERROR frames
	run_id   INTEGER NOT NULL,
	seq      INTEGER NOT NULL,
	kind     TEXT NOT NULL,               -- log|error
	text     TEXT NOT NULL,
	received INTEGER NOT NULL,
	PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;
CREATE INDEX events_kind ON events(run_id, kind, seq);
