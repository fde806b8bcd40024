/*
 * store_sql.c — the writer's SQL: every statement the store runs, prepared
 * once, and the binding helpers its frame handlers share (store_sql.h).
 */
#include <stdio.h>
#include <stdlib.h>

#include "store.h"
#include "store_sql.h"
#include "util.h"
#include "xcb_schema.h"

/* The run reaches DONE's count with the batch's frames (S_TOUCH; the row
 * as it was before them). */
#define STORE_NOW_DONE "frames_expected IS NOT NULL AND frames_received + ?4 >= frames_expected"

/* ", CAST(? AS BIGINT)" for each RESULT field with a column (S_RESULT). */
#define STORE__RESULT_VALUE(name, bits, part) XCB_IF_STORED(part)(", CAST(? AS BIGINT)")
#define STORE_RESULT_VALUES XCB_RESULT_FIELDS(STORE__RESULT_VALUE)

/* The run (?1) described case ?2 (S_*_HAS). */
#define STORE_CASE_KNOWN "EXISTS (SELECT 1 FROM cases WHERE run_id = ?1 AND case_id = ?2)"

/* A column of the frame's run, in S_FRAME's RETURNING. */
#define STORE_RUN_COL(c) "(SELECT " c " FROM runs WHERE id = ?1)"

/* A run that expired without a frame takes none (S_FRAME, S_RUN_STATE). */
#define STORE_IS_EXPIRED "(status = 'lost' AND frames_received = 0 AND error = '" STORE_EXPIRED "')"

/* What a run holds against each limit, in enum run_limit_kind order
 * (LIM_CASES..LIM_EVENTS), each column through COL (S_FRAME, S_RUN_STATE). */
#define STORE_USE_COLS(COL) COL("use_cases") ", " COL("frames_received") ", " COL("use_histo") ", " \
	COL("use_samples") ", " COL("use_events")
#define STORE_PLAIN(c) c

static const char *const sql[S_N] = {
	/* The frames ledger (?1 run, ?2 seq, ?3 type, ?4 now): a row comes back
	 * only for a new (run, seq) (no frames row, and no span of the fast
	 * path's covers it: store_ledger.c), with the run's state for it: closed for
	 * new frames (complete, past DONE's count, or a second DONE: a run has
	 * one), then what the run holds against each limit, in enum
	 * run_limit_kind order (store_limits.c). One statement (one round trip
	 * on PostgreSQL) where a frame took two. */
	[S_FRAME] = "INSERT INTO frames(run_id, seq, type, received) SELECT CAST(?1 AS BIGINT), CAST(?2 AS BIGINT), "
		    "CAST(?3 AS BIGINT), CAST(?4 AS BIGINT) WHERE NOT EXISTS " STORE_SPAN_MEETS("?1", "?2", "?2")
		    " ON CONFLICT DO NOTHING "
		    "RETURNING (SELECT status = 'complete' OR (frames_expected IS NOT NULL AND "
		    "(?2 >= frames_expected OR ?3 = 8)) OR " STORE_IS_EXPIRED " FROM runs WHERE id = ?1), "
		    STORE_USE_COLS(STORE_RUN_COL),
	/* What store_runs.c keeps of a run: S_FRAME's "closed" as columns
	 * (complete, crashed, expired, frames_expected), then its use. */
	[S_RUN_STATE] = "SELECT status = 'complete', status = 'crashed', " STORE_IS_EXPIRED ", frames_expected, "
			STORE_USE_COLS(STORE_PLAIN) " FROM runs WHERE id = ?",
	[S_RUN_CASES] = "SELECT case_id FROM cases WHERE run_id = ?",
	/* A token is global: its run may be another lab's (?2: ours). */
	[S_FIND_RUN] = "SELECT id, lab IS NOT DISTINCT FROM CAST(?2 AS TEXT) FROM runs WHERE token = ?1",
	[S_NEW_RUN] = "INSERT INTO runs(token, machine_id, job_id, suite, params, label, created, lab) "
		      "VALUES (?, ?, ?, ?, COALESCE(?, '{}'), ?, ?, ?)",
	/* Everything a batch's stored frames change in their run, in ONE
	 * statement per run and batch (store_touch.c says why): ?4 frames
	 * counted (?1 the last one's time, ?9 the first's, ?3 its peer), ?5..?8
	 * the rows they added against the cases/histo/samples/events limits,
	 * and the run complete once frames_received reaches DONE's count.
	 * Every right-hand side reads the row as it was, hence "+ ?4". */
	[S_TOUCH] = "UPDATE runs SET frames_received = frames_received + ?4, last_frame = ?1, "
		    "started = COALESCE(started, ?9), use_cases = use_cases + ?5, use_histo = use_histo + ?6, "
		    "use_samples = use_samples + ?7, use_events = use_events + ?8, "
		    "status = CASE WHEN " STORE_NOW_DONE " THEN CASE WHEN status = 'crashed' THEN status "
		    "ELSE 'complete' END WHEN status IN ('pending', 'lost') THEN 'running' ELSE status END, "
		    "finished = CASE WHEN " STORE_NOW_DONE " THEN COALESCE(finished, ?1) ELSE finished END, "
		    "peer = COALESCE(peer, CAST(?3 AS TEXT)) WHERE id = ?2",
	[S_GET_HELLO] = "SELECT hello FROM runs WHERE id = ?",
	[S_SET_HELLO] = "UPDATE runs SET hello = ?, cpus = COALESCE(?, cpus), tsc_khz = COALESCE(?, tsc_khz), "
			"source = COALESCE(?, source), suite = COALESCE(suite, ?) WHERE id = ?",
	/* The column lists are the schema's (xcb_schema.h): its COL axes, its
	 * RESULT fields (db/schema.sql + migrations hold the columns; test_schema
	 * checks they agree). */
	[S_CASE] = "INSERT INTO cases(run_id, " XCB_SQL_CASE_ID XCB_SQL_CASE_COLS ", config, match_key) "
		   "VALUES (?, ?" XCB_SQL_CASE_PARAMS ", ?, ?) ON CONFLICT DO NOTHING",
	/* Inserted only where S_RESULT_HAS would allow it (the case known, no
	 * row for its key): the check and the insert in one statement, and
	 * S_RESULT_HAS only asked why when nothing was inserted. ?1 the run,
	 * ?2..?4 the key (the first RESULT fields); each value CAST, as a
	 * SELECT list gives a NULL no type on PostgreSQL. "No row for its key"
	 * is the primary key's ON CONFLICT, not a NOT EXISTS on results: an
	 * INSERT whose SELECT reads its own table is run by SQLite through a
	 * temporary table (the SELECT's rows gathered first, then inserted;
	 * EXPLAIN: OpenEphemeral), which was ~half the statement's cost
	 * (bench/LIMITS.md, Ingest). */
	[S_RESULT] = "INSERT INTO results(run_id" XCB_SQL_RESULT_COLS ") SELECT ?" STORE_RESULT_VALUES
		     " WHERE EXISTS (SELECT 1 FROM cases WHERE run_id = ?1 AND case_id = ?2) ON CONFLICT DO NOTHING",
	/* The fast path's RESULT on SQLite (its case known from memory): the
	 * row alone, insert-once by its primary key (a stored key inserts
	 * nothing: a wrong prediction, the batch goes the careful way). */
	[S_RESULT_ROW] = "INSERT INTO results(run_id" XCB_SQL_RESULT_COLS ") VALUES (?" XCB_SQL_RESULT_PARAMS
			 ") ON CONFLICT DO NOTHING",
	[S_EVENT] = "INSERT INTO events(run_id, seq, kind, text, received) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
	[S_CRASH] = "UPDATE runs SET status = 'crashed', error = COALESCE(error, ?) WHERE id = ?",
	[S_DONE] = "UPDATE runs SET frames_expected = ?, done_status = ? WHERE id = ? AND frames_expected IS NULL",
	/* Only this lab's runs: another lab's daemon keeps its own. */
	[S_LOST] = "UPDATE runs SET status = 'lost' WHERE status IN ('pending', 'running') "
		   "AND COALESCE(last_frame, created) < ?1 AND lab IS NOT DISTINCT FROM CAST(?2 AS TEXT)",
	/* A run that never sent a frame (a boot whose payload never said HELLO,
	 * or one replaced by another address's GET) expires after
	 * --lost-after: its token takes nothing any more (issue 26). */
	[S_EXPIRE] = "UPDATE runs SET status = 'lost', error = '" STORE_EXPIRED "' WHERE status IN "
		     "('pending', 'lost') AND frames_received = 0 AND error IS NULL AND created < ?1 "
		     "AND lab IS NOT DISTINCT FROM CAST(?2 AS TEXT)",
	[S_CASE_SAME] = "SELECT config = ?3 FROM cases WHERE run_id = ?1 AND case_id = ?2",
	/* A case whose x_cpus comes in pieces: its config read, and written
	 * again with a piece merged (store_results.c case_pieces). */
	[S_CASE_CONFIG] = "SELECT config FROM cases WHERE run_id = ?1 AND case_id = ?2",
	[S_CASE_SET] = "UPDATE cases SET config = ?3 WHERE run_id = ?1 AND case_id = ?2",
	/* The run's first HELLO: the payload it was rendered for has booted. */
	/* (boot.c rendered the job only to the machine's known address or an
	 * allowed network; the job records the address that asked: issue 26.) */
	[S_HELLO_JOB] = "UPDATE jobs SET consumed = ?2, run_id = ?1, "
			"consumed_by = (SELECT boot_peer FROM runs WHERE id = ?1) WHERE consumed IS NULL AND "
			"id = (SELECT job_id FROM runs WHERE id = ?1)",
	/* uuid/serial fill in what the record lacks, from a boot request of an
	 * allowed network only: once known, no GET rewrites them (an admin
	 * write can). The known boot address: the first allowed boot whose
	 * HELLO (?3, its source) came from the address that asked. */
	[S_HELLO_MACHINE] = "UPDATE machines SET "
			    "uuid = COALESCE(uuid, CASE WHEN r.boot_trusted = 1 THEN r.boot_uuid END), "
			    "serial = COALESCE(serial, CASE WHEN r.boot_trusted = 1 THEN r.boot_serial END), "
			    "boot_addr = COALESCE(boot_addr, CASE WHEN r.boot_trusted = 1 AND r.boot_peer = CAST(?3 AS TEXT) "
			    "THEN r.boot_peer END), last_seen = ?2 "
			    "FROM (SELECT machine_id, boot_uuid, boot_serial, boot_peer, boot_trusted FROM runs "
			    "WHERE id = ?1) AS r WHERE machines.id = r.machine_id",
	[S_HELLO_OTHERS] = "UPDATE runs SET status = 'lost' WHERE status = 'pending' AND id != ?1 AND "
			   "machine_id = (SELECT machine_id FROM runs WHERE id = ?1)",
	[S_FRAME_DEL] = "DELETE FROM frames WHERE run_id = ? AND seq = ?",
	/* RESULT/HISTO/SAMPLES only for a case the run described (CASE first),
	 * and never over a stored row (insert-once): whether the case is known
	 * and whether a row of the frame's range exists, in one statement. */
	[S_RESULT_HAS] = "SELECT " STORE_CASE_KNOWN ", EXISTS (SELECT 1 FROM results WHERE run_id = ?1 AND "
			 "case_id = ?2 AND rep = ?3 AND initiator = ?4)",
	/* A HISTO chunk of buckets [?5, ?6] may go in when no stored chunk
	 * of its histogram overlaps it (as S_SAMPLE_HAS). */
	[S_HISTO_HAS] = "SELECT " STORE_CASE_KNOWN ", EXISTS "
			STORE_CHUNK_OVERLAPS("histogram_chunks", "bucket0", "?6", "?5"),
	/* A chunk of samples [?5, ?6] may go in when no stored chunk of its
	 * stream overlaps it: STORE_CHUNK_OVERLAPS, with ?6 the last index. */
	[S_SAMPLE_HAS] = "SELECT " STORE_CASE_KNOWN ", EXISTS " STORE_CHUNK_OVERLAPS("sample_chunks", "idx0", "?6", "?5"),
	/* A SAMPLES frame: one row (?5 its first index, ?6 its count, ?7 the
	 * values), inserted only where S_SAMPLE_HAS would allow it (the
	 * insert-once check in the statement, so the fast path defers it
	 * asking for its one row: an overlap is a wrong prediction). The
	 * parameters CAST: a SELECT list gives them no type on PostgreSQL. */
	[S_SAMPLES] = "INSERT INTO sample_chunks(run_id, case_id, rep, initiator, idx0, n, vals) "
		      "SELECT CAST(?1 AS BIGINT), CAST(?2 AS BIGINT), CAST(?3 AS BIGINT), CAST(?4 AS BIGINT), "
		      "CAST(?5 AS BIGINT), CAST(?6 AS BIGINT), CAST(?7 AS TEXT) WHERE NOT EXISTS "
		      STORE_CHUNK_OVERLAPS("sample_chunks", "idx0", "?5 + ?6 - 1", "?5"),
	/* A HISTO frame: one row (?5 its first non-empty bucket, ?6 the
	 * count of buckets to its last non-empty one, ?7 their counts),
	 * inserted only where S_HISTO_HAS would allow the frame's whole
	 * range [?8, ?9] (as S_SAMPLES: the fast path defers it asking for
	 * its one row). */
	[S_HISTOS] = "INSERT INTO histogram_chunks(run_id, case_id, rep, initiator, bucket0, n, counts) "
		     "SELECT CAST(?1 AS BIGINT), CAST(?2 AS BIGINT), CAST(?3 AS BIGINT), CAST(?4 AS BIGINT), "
		     "CAST(?5 AS BIGINT), CAST(?6 AS BIGINT), CAST(?7 AS TEXT) WHERE NOT EXISTS "
		     STORE_CHUNK_OVERLAPS("histogram_chunks", "bucket0", "?9", "?8"),
	/* The fast path's chunks on SQLite: the row alone, after S_SAMPLE_FREE
	 * or S_HISTO_FREE said it may go in (store_results.c). S_SAMPLES and
	 * S_HISTOS, whose NOT EXISTS reads the table they insert into, are
	 * run by SQLite through a temporary table (see S_RESULT): the probe
	 * and the row as two statements cost less. */
	/* S_HISTO_HAS and S_SAMPLE_HAS for the fast path on SQLite, whose
	 * memory knows the case (store_runs.c): column 0 is always 1, the
	 * cases probe left out (~10 % of the probe's instructions). */
	[S_HISTO_FREE] = "SELECT 1, EXISTS " STORE_CHUNK_OVERLAPS("histogram_chunks", "bucket0", "?6", "?5"),
	[S_SAMPLE_FREE] = "SELECT 1, EXISTS " STORE_CHUNK_OVERLAPS("sample_chunks", "idx0", "?6", "?5"),
	[S_SAMPLES_ROW] = "INSERT INTO sample_chunks(run_id, case_id, rep, initiator, idx0, n, vals) "
			  "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
	[S_HISTOS_ROW] = "INSERT INTO histogram_chunks(run_id, case_id, rep, initiator, bucket0, n, counts) "
			 "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
	[S_LIMITED] = "UPDATE runs SET limited = limited + 1 WHERE id = ?",
	[S_LIMIT_EVENT] = "INSERT INTO events(run_id, seq, kind, text, received) VALUES (?, ?, 'log', ?, ?) "
			  "ON CONFLICT DO NOTHING",
	/* --open: live runs a source started by HELLO alone (no job, no boot). */
	[S_OPEN_LIVE] = "SELECT count(*) FROM runs WHERE peer = ? AND job_id IS NULL AND boot_peer IS NULL "
			"AND status IN ('pending', 'running')",
};

struct dbi_stmt *store_st[S_N];
int64_t store_rows;

int store_prepare(struct dbi *db)
{
	for (int i = 0; i < S_N; i++) {
		if (dbi_prepare(db, sql[i], &store_st[i])) {
			fprintf(stderr, "xcbenchd: prepare: %s\n", dbi_errmsg(db));
			return -1;
		}
	}
	return 0;
}

void store_finalize(void)
{
	for (int i = 0; i < S_N; i++) {
		dbi_finalize(store_st[i]);
		store_st[i] = NULL;
	}
}

/* Steps a statement to completion and resets it: 0 or -1. A full disk or
 * an I/O error is not logged here: the writer logs the state change once.
 * (A constraint here would be a frame the checks let through: -1, and the
 * writer rolls the batch back rather than keep half a frame.) */
int store_step(struct dbi_stmt *s)
{
	int rc = dbi_step(s);

	if (rc != DBI_DONE && rc != DBI_ROW && rc != DBI_IOERR)
		fprintf(stderr, "xcbenchd: %s: %s\n", dbi_sql(s),
			dbi_errmsg(dbi_db(s)));
	dbi_reset(s);
	dbi_clear(s);
	return rc == DBI_DONE || rc == DBI_ROW ? 0 : -1;
}

int store_write(struct dbi_stmt *s, int fast, int64_t rows)
{
	int rc;

	if (!fast)
		return store_step(s);
	rc = dbi_defer(s, rows);
	if (rc != DBI_OK && rc != DBI_IOERR)
		fprintf(stderr, "xcbenchd: %s: %s\n", dbi_sql(s), dbi_errmsg(dbi_db(s)));
	return rc == DBI_OK ? 0 : -1;
}

/* A u64 as an SQLite integer (signed 64-bit; latencies never reach 2^63). */
int64_t store_i64(uint64_t v)
{
	return (int64_t)(v > INT64_MAX ? INT64_MAX : v);
}

/* Binds ?1..?4, a (run, case, rep, initiator) row key, and ?5, ?6: lo/hi
 * for the S_*_HAS checks, first index/count for S_SAMPLES and S_HISTOS. */
void store_bind_key(struct dbi_stmt *s, int64_t id, uint32_t cid, unsigned rep, unsigned init,
		     int64_t a, int64_t b)
{
	dbi_bind_i64(s, 1, id);
	dbi_bind_i64(s, 2, cid);
	dbi_bind_i64(s, 3, rep);
	dbi_bind_i64(s, 4, init);
	dbi_bind_i64(s, 5, a);
	dbi_bind_i64(s, 6, b);
}

int store_may_add(struct dbi_stmt *s, int64_t id, uint32_t cid, unsigned rep, unsigned init,
		  int64_t lo, int64_t hi)
{
	int rc = -1;

	store_bind_key(s, id, cid, rep, init, lo, hi);
	if (dbi_step(s) == DBI_ROW)
		rc = !dbi_column_int(s, 0) ? STORE_NO_CASE : dbi_column_int(s, 1) ? STORE_REFUSED : 0;
	dbi_reset(s);
	dbi_clear(s);
	return rc;
}

/* The first column of a one-row query as a number (-1: no row or error). */
int64_t store_query_int(struct dbi_stmt *s)
{
	int64_t v = dbi_step(s) == DBI_ROW ? dbi_column_i64(s, 0) : -1;

	dbi_reset(s);
	dbi_clear(s);
	return v;
}

void store_bind_u64(struct dbi_stmt *s, int i, uint64_t v)
{
	dbi_bind_i64(s, i, store_i64(v));
}


void store_bind_json_int(struct dbi_stmt *s, int i, json_t *o, const char *k)
{
	uint64_t v;
	const char *str = json_string_value(json_object_get(o, k));

	if (str && parse_u64(str, &v) == 0)
		store_bind_u64(s, i, v);
}

void store_bind_json_text(struct dbi_stmt *s, int i, json_t *o, const char *k)
{
	const char *str = json_string_value(json_object_get(o, k));

	if (str)
		dbi_bind_text(s, i, str, -1);
}
