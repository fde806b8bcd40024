/*
 * store.c — applies one validated frame to the database, on the writer
 * thread, with statements prepared once. The frames table is the dedupe
 * ledger: a (run, seq) already there changes nothing, so replaying a frame
 * (retransmission, daemon restart, `xcbench ingest` twice) is harmless.
 *
 * Results are insert-once: a frame with a new seq that would change a row
 * already stored (a second RESULT for the same case/rep/initiator, a CASE
 * with another config, a HELLO changing a fact, a second DONE) is refused
 * (STORE_REFUSED); so is anything for a complete run or past its DONE
 * count. Nothing is ever REPLACEd. Each frame is checked before it writes
 * a row (cheap primary-key lookups), so a refused frame leaves nothing but
 * its ledger row, which is deleted again: no savepoint per frame needed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casekey.h"
#include "util.h"
#include "xcbd.h"
#include "xcb_histo.h"
#include "xcb_schema.h"

enum {
	S_FRAME, S_FIND_RUN, S_NEW_RUN, S_TOUCH, S_GET_HELLO, S_SET_HELLO, S_CASE,
	S_RESULT, S_HISTO, S_SAMPLE, S_EVENT, S_CRASH, S_DONE, S_COMPLETE, S_LOST,
	S_STATE, S_CASE_SAME, S_HELLO_JOB, S_HELLO_MACHINE, S_HELLO_OTHERS,
	S_FRAME_DEL, S_RESULT_HAS, S_HISTO_HAS, S_SAMPLE_HAS, S_N
};

static const char *const sql[S_N] = {
	[S_FRAME] = "INSERT OR IGNORE INTO frames(run_id, seq, type, received) VALUES (?, ?, ?, ?)",
	[S_FIND_RUN] = "SELECT id FROM runs WHERE token = ?",
	[S_NEW_RUN] = "INSERT INTO runs(token, machine_id, job_id, suite, params, label, created) "
		      "VALUES (?, ?, ?, ?, COALESCE(?, '{}'), ?, ?)",
	[S_TOUCH] = "UPDATE runs SET frames_received = frames_received + 1, last_frame = ?1, "
		    "started = COALESCE(started, ?1), status = CASE WHEN status IN ('pending', 'lost') "
		    "THEN 'running' ELSE status END, peer = COALESCE(peer, ?3) WHERE id = ?2",
	[S_GET_HELLO] = "SELECT hello FROM runs WHERE id = ?",
	[S_SET_HELLO] = "UPDATE runs SET hello = ?, cpus = COALESCE(?, cpus), tsc_khz = COALESCE(?, tsc_khz), "
			"source = COALESCE(?, source), suite = COALESCE(suite, ?) WHERE id = ?",
	/* The column lists are the schema's (xcb_schema.h): its COL axes, its
	 * RESULT fields (db/schema.sql + migrations hold the columns; test_schema
	 * checks they agree). */
	[S_CASE] = "INSERT INTO cases(run_id, " XCB_SQL_CASE_ID XCB_SQL_CASE_COLS ", config, match_key) "
		   "VALUES (?, ?" XCB_SQL_CASE_PARAMS ", ?, ?) ON CONFLICT DO NOTHING",
	[S_RESULT] = "INSERT INTO results(run_id" XCB_SQL_RESULT_COLS ") VALUES (?" XCB_SQL_RESULT_PARAMS ")",
	[S_HISTO] = "INSERT INTO histograms VALUES (?, ?, ?, ?, ?, ?)",
	[S_SAMPLE] = "INSERT INTO samples VALUES (?, ?, ?, ?, ?, ?)",
	[S_EVENT] = "INSERT OR IGNORE INTO events(run_id, seq, kind, text, received) VALUES (?, ?, ?, ?, ?)",
	[S_CRASH] = "UPDATE runs SET status = 'crashed', error = COALESCE(error, ?) WHERE id = ?",
	[S_DONE] = "UPDATE runs SET frames_expected = ?, done_status = ? WHERE id = ? AND frames_expected IS NULL",
	[S_COMPLETE] = "UPDATE runs SET status = CASE WHEN status = 'crashed' THEN status ELSE 'complete' END, "
		       "finished = COALESCE(finished, ?) WHERE id = ? AND frames_expected IS NOT NULL "
		       "AND frames_received >= frames_expected",
	[S_LOST] = "UPDATE runs SET status = 'lost' WHERE status IN ('pending', 'running') "
		   "AND COALESCE(last_frame, created) < ?",
	/* Closed for new frames: complete, past DONE's count, or a second DONE
	 * (?3 = the frame's type; a run has one DONE). */
	[S_STATE] = "SELECT status = 'complete' OR (frames_expected IS NOT NULL AND "
		    "(?2 >= frames_expected OR ?3 = 8)) FROM runs WHERE id = ?1",
	[S_CASE_SAME] = "SELECT config = ?3 FROM cases WHERE run_id = ?1 AND case_id = ?2",
	/* The run's first HELLO: the payload it was rendered for has booted. */
	[S_HELLO_JOB] = "UPDATE jobs SET consumed = ?2, run_id = ?1 WHERE consumed IS NULL AND "
			"id = (SELECT job_id FROM runs WHERE id = ?1)",
	[S_HELLO_MACHINE] = "UPDATE machines SET uuid = COALESCE(r.boot_uuid, uuid), "
			    "serial = COALESCE(r.boot_serial, serial), last_seen = ?2 "
			    "FROM (SELECT machine_id, boot_uuid, boot_serial FROM runs WHERE id = ?1) AS r "
			    "WHERE machines.id = r.machine_id",
	[S_HELLO_OTHERS] = "UPDATE runs SET status = 'lost' WHERE status = 'pending' AND id != ?1 AND "
			   "machine_id = (SELECT machine_id FROM runs WHERE id = ?1)",
	[S_FRAME_DEL] = "DELETE FROM frames WHERE run_id = ? AND seq = ?",
	[S_RESULT_HAS] = "SELECT 1 FROM results WHERE run_id = ? AND case_id = ? AND rep = ? AND initiator = ?",
	[S_HISTO_HAS] = "SELECT 1 FROM histograms WHERE run_id = ? AND case_id = ? AND rep = ? AND initiator = ? "
			"AND bucket BETWEEN ? AND ? LIMIT 1",
	[S_SAMPLE_HAS] = "SELECT 1 FROM samples WHERE run_id = ? AND case_id = ? AND rep = ? AND initiator = ? "
			 "AND idx BETWEEN ? AND ? LIMIT 1",
};

static sqlite3_stmt *st[S_N];

int store_prepare(sqlite3 *db)
{
	for (int i = 0; i < S_N; i++) {
		if (sqlite3_prepare_v3(db, sql[i], -1, SQLITE_PREPARE_PERSISTENT, &st[i], NULL)) {
			fprintf(stderr, "xcbenchd: prepare: %s\n", sqlite3_errmsg(db));
			return -1;
		}
	}
	return 0;
}

void store_finalize(void)
{
	for (int i = 0; i < S_N; i++) {
		sqlite3_finalize(st[i]);
		st[i] = NULL;
	}
}

/* Steps a statement to completion and resets it: 0 or -1. A full disk or
 * an I/O error is not logged here: the writer logs the state change once.
 * (A constraint here would be a frame the checks let through: -1, and the
 * writer rolls the batch back rather than keep half a frame.) */
static int run(sqlite3_stmt *s)
{
	int rc = sqlite3_step(s), e = rc & 0xff;

	if (rc != SQLITE_DONE && rc != SQLITE_ROW && e != SQLITE_FULL && e != SQLITE_IOERR)
		fprintf(stderr, "xcbenchd: %s: %s\n", sqlite3_sql(s),
			sqlite3_errmsg(sqlite3_db_handle(s)));
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : -1;
}

/* A u64 as an SQLite integer (signed 64-bit; latencies never reach 2^63). */
static int64_t sql_i64(uint64_t v)
{
	return (int64_t)(v > INT64_MAX ? INT64_MAX : v);
}

/* Binds ?1..?4, a (run, case, rep, initiator) row key, and ?5, ?6: lo/hi
 * for has_rows, position/value for put_point. */
static void bind_key(sqlite3_stmt *s, int64_t id, uint32_t cid, unsigned rep, unsigned init,
		     int64_t a, int64_t b)
{
	sqlite3_bind_int64(s, 1, id);
	sqlite3_bind_int64(s, 2, cid);
	sqlite3_bind_int64(s, 3, rep);
	sqlite3_bind_int64(s, 4, init);
	sqlite3_bind_int64(s, 5, a);
	sqlite3_bind_int64(s, 6, b);
}

/* 1 if a row exists in [lo, hi] of the 4-key statement s (bound here). */
static int has_rows(sqlite3_stmt *s, int64_t id, uint32_t cid, unsigned rep, unsigned init,
		    int64_t lo, int64_t hi)
{
	int found;

	bind_key(s, id, cid, rep, init, lo, hi);
	found = sqlite3_step(s) == SQLITE_ROW;
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	return found;
}

/* The first column of a one-row query as a number (-1: no row or error). */
static int64_t query_int(sqlite3_stmt *s)
{
	int64_t v = sqlite3_step(s) == SQLITE_ROW ? sqlite3_column_int64(s, 0) : -1;

	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	return v;
}

static void bind_u64(sqlite3_stmt *s, int i, uint64_t v)
{
	sqlite3_bind_int64(s, i, sql_i64(v));
}

int64_t store_create_run(sqlite3 *db, uint64_t token, int64_t machine_id, int64_t job_id,
			 const char *suite, const char *params, const char *label)
{
	sqlite3_stmt *s = st[S_NEW_RUN];
	char hex[17];

	snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)token);
	sqlite3_bind_text(s, 1, hex, -1, SQLITE_TRANSIENT);
	if (machine_id)
		sqlite3_bind_int64(s, 2, machine_id);
	if (job_id)
		sqlite3_bind_int64(s, 3, job_id);
	if (suite)
		sqlite3_bind_text(s, 4, suite, -1, SQLITE_TRANSIENT);
	if (params)
		sqlite3_bind_text(s, 5, params, -1, SQLITE_TRANSIENT);
	if (label)
		sqlite3_bind_text(s, 6, label, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 7, now_s());
	if (run(s))
		return 0;
	return sqlite3_last_insert_rowid(db);
}

static int64_t find_or_create(sqlite3 *db, uint64_t token)
{
	sqlite3_stmt *s = st[S_FIND_RUN];
	char hex[17];
	int64_t id = 0;

	snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)token);
	sqlite3_bind_text(s, 1, hex, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(s) == SQLITE_ROW)
		id = sqlite3_column_int64(s, 0);
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	return id ? id : store_create_run(db, token, 0, 0, NULL, NULL, NULL);
}

static void bind_json_int(sqlite3_stmt *s, int i, json_t *o, const char *k)
{
	uint64_t v;
	const char *str = json_string_value(json_object_get(o, k));

	if (str && parse_u64(str, &v) == 0)
		bind_u64(s, i, v);
}

static void bind_json_text(sqlite3_stmt *s, int i, json_t *o, const char *k)
{
	const char *str = json_string_value(json_object_get(o, k));

	if (str)
		sqlite3_bind_text(s, i, str, -1, SQLITE_TRANSIENT);
}

/* 1 if a key of add is in have with another value (HELLO facts are
 * insert-once too: a later HELLO may add keys, never change one). */
static int facts_conflict(json_t *have, json_t *add)
{
	const char *k;
	json_t *v;

	json_object_foreach(add, k, v) {
		json_t *old = json_object_get(have, k);

		if (old && !json_equal(old, v))
			return 1;
	}
	return 0;
}

/* The first HELLO of a run boot.c rendered: its job is consumed now (not at
 * the GET), the boot request's uuid/serial reach the machine, and the
 * MAC's other pending runs expire. */
static int hello_booted(int64_t id)
{
	for (int i = S_HELLO_JOB; i <= S_HELLO_OTHERS; i++) {
		sqlite3_bind_int64(st[i], 1, id);
		sqlite3_bind_int64(st[i], 2, now_s());
		if (run(st[i]))
			return -1;
	}
	return 0;
}

static int store_hello(int64_t id, const uint8_t *p, size_t n)
{
	sqlite3_stmt *s = st[S_GET_HELLO];
	json_t *obj = NULL, *add;
	char *dump;
	int rc;

	sqlite3_bind_int64(s, 1, id);
	if (sqlite3_step(s) == SQLITE_ROW)
		obj = json_loads((const char *)sqlite3_column_text(s, 0), 0, NULL);
	sqlite3_reset(s);
	if (!json_is_object(obj)) {
		json_decref(obj);
		obj = json_object();
	}
	add = kv_to_json((const char *)p, n, NULL);
	if (!add || facts_conflict(obj, add)) {
		json_decref(add);
		json_decref(obj);
		return add ? STORE_REFUSED : -1;
	}
	if (json_object_size(obj) == 0 && hello_booted(id)) {
		json_decref(add);
		json_decref(obj);
		return -1;
	}
	json_object_update(obj, add);
	json_decref(add);
	dump = json_dumps(obj, JSON_COMPACT | JSON_SORT_KEYS);
	s = st[S_SET_HELLO];
	sqlite3_bind_text(s, 1, dump ? dump : "{}", -1, SQLITE_TRANSIENT);
	bind_json_int(s, 2, obj, "cpus");
	bind_json_int(s, 3, obj, "tsc_khz");
	bind_json_text(s, 4, obj, "transport");
	bind_json_text(s, 5, obj, "suite");
	sqlite3_bind_int64(s, 6, id);
	rc = run(s);
	free(dump);
	json_decref(obj);
	return rc;
}

static int store_case(int64_t id, const uint8_t *p, size_t n)
{
	sqlite3_stmt *s = st[S_CASE];
	json_t *cfg_obj = kv_to_json((const char *)p, n, NULL);
	struct buf key = { 0 };
	char *dump;
	int rc;

	const char *cid = cfg_obj ? json_string_value(json_object_get(cfg_obj, "id")) : NULL;
	uint64_t cid_v;

	/* A CASE must name its case (a number that fits RESULT's u32 case_id):
	 * refused, not written, so a malformed frame with a valid CRC can never
	 * make the whole batch fail a constraint (found by fuzz_frame). */
	if (!cid || parse_u64(cid, &cid_v) || cid_v > UINT32_MAX) {
		json_decref(cfg_obj);
		return STORE_REFUSED;
	}
	dump = json_dumps(cfg_obj, JSON_COMPACT | JSON_SORT_KEYS);
	/* Stored already? The same config is a harmless repeat (nothing to
	 * write); another one would rewrite what results refer to. */
	s = st[S_CASE_SAME];
	sqlite3_bind_int64(s, 1, id);
	bind_json_int(s, 2, cfg_obj, "id");
	sqlite3_bind_text(s, 3, dump ? dump : "{}", -1, SQLITE_TRANSIENT);
	rc = (int)query_int(s);
	if (rc != -1) {
		free(dump);
		json_decref(cfg_obj);
		return rc == 1 ? 0 : STORE_REFUSED;
	}
	s = st[S_CASE];
	case_match_key(cfg_obj, 0, &key);
	sqlite3_bind_int64(s, 1, id);
	bind_json_int(s, 2, cfg_obj, "id");
	int at = 3; /* the schema's COL axes, in XCB_SQL_CASE_COLS order */
	for (unsigned i = 0; i < XCB_N_AXES; i++) {
		const struct xcb_axis *a = &xcb_axes[i];

		if (!a->column)
			continue;
		if (a->type == XCB_TY_INT)
			bind_json_int(s, at++, cfg_obj, a->key);
		else
			bind_json_text(s, at++, cfg_obj, a->key);
	}
	sqlite3_bind_text(s, at++, dump ? dump : "{}", -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, at, key.p, -1, SQLITE_TRANSIENT);
	rc = run(s);
	free(dump);
	buf_free(&key);
	json_decref(cfg_obj);
	return rc;
}

static int store_result(int64_t id, const uint8_t *p, size_t n)
{
	sqlite3_stmt *s = st[S_RESULT];
	struct xcb_result r;
	int at = 2, wide = n >= XCB_RESULT_LEN_FULL;

	if (xcb_dec_result(p, n, &r))
		return STORE_REFUSED; /* malformed: nothing written (the collector checks first) */
	if (has_rows(st[S_RESULT_HAS], id, r.case_id, r.rep, r.initiator, 0, 0))
		return STORE_REFUSED;
	sqlite3_bind_int64(s, 1, id);
	/* Every field with a column, in XCB_SQL_RESULT_COLS order. The appended
	 * ones decode as 0 from a v1 RESULT and are stored as NULL (not
	 * measured), where 0 could not be told from a value. */
	for (unsigned i = 0; i < XCB_N_RESULT_FIELDS; i++) {
		enum xcb_part part = xcb_result_fields[i].part;

		if (part == XCB_PART_PAD)
			continue;
		if (part == XCB_PART_EXT && !wide)
			sqlite3_bind_null(s, at++);
		else
			bind_u64(s, at++, xcb_result_get(&r, i));
	}
	return run(s);
}

/* A HISTO or SAMPLES chunk: n points at positions at.. under one row key,
 * refused when any of them is stored already (insert-once); value(chunk, i)
 * reads point i. Histograms keep only non-empty buckets (skip_zero). */
struct chunk {
	uint32_t case_id;
	unsigned rep, initiator, n;
	int64_t at;
	uint64_t (*value)(const void *chunk, unsigned i);
	const void *raw;
	int skip_zero;
};

static int store_chunk(int64_t id, sqlite3_stmt *s, sqlite3_stmt *has, const struct chunk *c)
{
	int rc = 0;

	if (has_rows(has, id, c->case_id, c->rep, c->initiator, c->at, c->at + c->n - 1))
		return STORE_REFUSED;
	for (unsigned i = 0; i < c->n && rc == 0; i++) {
		uint64_t v = c->value(c->raw, i);

		if (v || !c->skip_zero) {
			bind_key(s, id, c->case_id, c->rep, c->initiator, c->at + i, sql_i64(v));
			rc = run(s);
		}
	}
	return rc;
}

static uint64_t histo_value(const void *x, unsigned i) { return xcb_histo_count(x, i); }
static uint64_t sample_value(const void *x, unsigned i) { return xcb_sample(x, i); }

/* HISTO or SAMPLES (type): decoded into a chunk and stored by store_chunk. */
static int store_points(int64_t id, unsigned type, const uint8_t *p, size_t n)
{
	struct xcb_histo x;
	struct xcb_samples y;
	struct chunk c;

	/* malformed: nothing written (the collector checks first) */
	if (type == XCB_T_HISTO) {
		if (xcb_dec_histo(p, n, &x))
			return STORE_REFUSED;
		c = (struct chunk){ x.case_id, x.rep, x.initiator, x.n, x.first, histo_value, &x, 1 };
		return store_chunk(id, st[S_HISTO], st[S_HISTO_HAS], &c);
	}
	if (xcb_dec_samples(p, n, &y))
		return STORE_REFUSED;
	c = (struct chunk){ y.case_id, y.rep, y.initiator, y.n, y.index, sample_value, &y, 0 };
	return store_chunk(id, st[S_SAMPLE], st[S_SAMPLE_HAS], &c);
}

static int store_event(int64_t id, uint32_t seq, int error, const uint8_t *p, size_t n)
{
	sqlite3_stmt *s = st[S_EVENT];
	char *text = sanitize_text((const char *)p, n);
	int rc;

	if (!text)
		return -1;
	sqlite3_bind_int64(s, 1, id);
	sqlite3_bind_int64(s, 2, seq);
	sqlite3_bind_text(s, 3, error ? "error" : "log", -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 4, text, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 5, now_s());
	rc = run(s);
	if (error && rc == 0) {
		char *nl = strchr(text, '\n');

		if (nl)
			*nl = 0;
		s = st[S_CRASH];
		sqlite3_bind_text(s, 1, text, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(s, 2, id);
		rc = run(s);
	}
	free(text);
	return rc;
}

static int store_done(int64_t id, const uint8_t *p, size_t n)
{
	sqlite3_stmt *s = st[S_DONE];
	struct xcb_done d;
	int rc;

	if (xcb_dec_done(p, n, &d))
		return STORE_REFUSED; /* malformed: nothing written (the collector checks first) */
	/* Stored as the run's total: DONE's count plus DONE itself. */
	sqlite3_bind_int64(s, 1, (sqlite3_int64)d.frames + 1);
	sqlite3_bind_int64(s, 2, d.status);
	sqlite3_bind_int64(s, 3, id);
	rc = run(s);
	return rc;
}

/* Takes back the ledger row of a refused frame (nothing else was written). */
static int unledger(int64_t id, uint32_t seq)
{
	sqlite3_bind_int64(st[S_FRAME_DEL], 1, id);
	sqlite3_bind_int64(st[S_FRAME_DEL], 2, seq);
	return run(st[S_FRAME_DEL]) ? -1 : STORE_REFUSED;
}

int store_frame(sqlite3 *db, int64_t *run_id, uint64_t token, const struct xcb_hdr *h,
		const uint8_t *p, const char *peer)
{
	sqlite3_stmt *s;
	int64_t now = now_s();
	int rc = 0;

	if (!*run_id)
		*run_id = find_or_create(db, token);
	if (!*run_id)
		return -1;
	s = st[S_FRAME];
	sqlite3_bind_int64(s, 1, *run_id);
	sqlite3_bind_int64(s, 2, h->seq);
	sqlite3_bind_int64(s, 3, h->type);
	sqlite3_bind_int64(s, 4, now);
	if (run(s))
		return -1;
	if (sqlite3_changes(db) == 0)
		return 0; /* already stored: a duplicate changes nothing */
	s = st[S_STATE];
	sqlite3_bind_int64(s, 1, *run_id);
	sqlite3_bind_int64(s, 2, h->seq);
	sqlite3_bind_int64(s, 3, h->type);
	if (query_int(s) == 1)
		return unledger(*run_id, h->seq); /* complete, past its DONE, or a second DONE */

	/* Each refuses (STORE_REFUSED) before it writes a row. */
	switch (h->type) {
	case XCB_T_HELLO: rc = store_hello(*run_id, p, h->length); break;
	case XCB_T_CASE: rc = store_case(*run_id, p, h->length); break;
	case XCB_T_RESULT: rc = store_result(*run_id, p, h->length); break;
	case XCB_T_HISTO:
	case XCB_T_SAMPLES: rc = store_points(*run_id, h->type, p, h->length); break;
	case XCB_T_LOG: rc = store_event(*run_id, h->seq, 0, p, h->length); break;
	case XCB_T_ERROR: rc = store_event(*run_id, h->seq, 1, p, h->length); break;
	case XCB_T_DONE: rc = store_done(*run_id, p, h->length); break;
	}
	if (rc == STORE_REFUSED)
		return unledger(*run_id, h->seq);
	if (rc)
		return rc;
	s = st[S_TOUCH];
	sqlite3_bind_int64(s, 1, now);
	sqlite3_bind_int64(s, 2, *run_id);
	if (peer)
		sqlite3_bind_text(s, 3, peer, -1, SQLITE_TRANSIENT);
	if (run(s))
		return -1;
	s = st[S_COMPLETE];
	sqlite3_bind_int64(s, 1, now);
	sqlite3_bind_int64(s, 2, *run_id);
	return run(s) ? -1 : 1;
}

void store_mark_lost(sqlite3 *db, int lost_after)
{
	sqlite3_stmt *s = st[S_LOST];

	(void)db;
	sqlite3_bind_int64(s, 1, now_s() - lost_after);
	run(s);
}
