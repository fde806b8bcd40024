/*
 * store.c — applies one validated frame to the database, on the writer
 * thread, with statements prepared once. The frames table is the dedupe
 * ledger: a (run, seq) already there changes nothing, so replaying a frame
 * (retransmission, daemon restart, `xcbench ingest` twice) is harmless.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casekey.h"
#include "util.h"
#include "xcbd.h"
#include "xcb_histo.h"

enum {
	S_FRAME, S_FIND_RUN, S_NEW_RUN, S_TOUCH, S_GET_HELLO, S_SET_HELLO, S_CASE,
	S_RESULT, S_HISTO, S_SAMPLE, S_EVENT, S_CRASH, S_DONE, S_COMPLETE, S_LOST, S_N
};

static const char *const sql[S_N] = {
	[S_FRAME] = "INSERT OR IGNORE INTO frames(run_id, seq, type, received) VALUES (?, ?, ?, ?)",
	[S_FIND_RUN] = "SELECT id FROM runs WHERE token = ?",
	[S_NEW_RUN] = "INSERT INTO runs(token, machine_id, job_id, suite, params, label, created) "
		      "VALUES (?, ?, ?, ?, COALESCE(?, '{}'), ?, ?)",
	[S_TOUCH] = "UPDATE runs SET frames_received = frames_received + 1, last_frame = ?1, "
		    "started = COALESCE(started, ?1), status = CASE WHEN status IN ('pending', 'lost') "
		    "THEN 'running' ELSE status END WHERE id = ?2",
	[S_GET_HELLO] = "SELECT hello FROM runs WHERE id = ?",
	[S_SET_HELLO] = "UPDATE runs SET hello = ?, cpus = COALESCE(?, cpus), tsc_khz = COALESCE(?, tsc_khz), "
			"source = COALESCE(?, source), suite = COALESCE(suite, ?) WHERE id = ?",
	[S_CASE] = "INSERT OR REPLACE INTO cases(run_id, case_id, kind, algo, delivery, wait, inits, mask, "
		   "placement, overlap, work_us, iters, reps, config, match_key) "
		   "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[S_RESULT] = "INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
		     "?, ?, ?, ?, ?, ?, ?, ?, "
		     "?, ?, ?, ?, ?, ?, ?)",	/* + db/migrations/002_trust.sql */
	[S_HISTO] = "INSERT OR REPLACE INTO histograms VALUES (?, ?, ?, ?, ?, ?)",
	[S_SAMPLE] = "INSERT OR REPLACE INTO samples VALUES (?, ?, ?, ?, ?, ?)",
	[S_EVENT] = "INSERT OR IGNORE INTO events(run_id, seq, kind, text, received) VALUES (?, ?, ?, ?, ?)",
	[S_CRASH] = "UPDATE runs SET status = 'crashed', error = COALESCE(error, ?) WHERE id = ?",
	[S_DONE] = "UPDATE runs SET frames_expected = ?, done_status = ? WHERE id = ?",
	[S_COMPLETE] = "UPDATE runs SET status = CASE WHEN status = 'crashed' THEN status ELSE 'complete' END, "
		       "finished = COALESCE(finished, ?) WHERE id = ? AND frames_expected IS NOT NULL "
		       "AND frames_received >= frames_expected",
	[S_LOST] = "UPDATE runs SET status = 'lost' WHERE status IN ('pending', 'running') "
		   "AND COALESCE(last_frame, created) < ?",
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

/* Steps a statement to completion and resets it; logs failures. */
static int run(sqlite3_stmt *s)
{
	int rc = sqlite3_step(s);

	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		fprintf(stderr, "xcbenchd: %s: %s\n", sqlite3_sql(s),
			sqlite3_errmsg(sqlite3_db_handle(s)));
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : -1;
}

static void bind_u64(sqlite3_stmt *s, int i, uint64_t v)
{
	/* SQLite integers are signed 64-bit; latencies never reach 2^63. */
	sqlite3_bind_int64(s, i, (sqlite3_int64)(v > INT64_MAX ? INT64_MAX : v));
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

static void store_hello(int64_t id, const uint8_t *p, size_t n)
{
	sqlite3_stmt *s = st[S_GET_HELLO];
	json_t *obj = NULL;
	char *dump;

	sqlite3_bind_int64(s, 1, id);
	if (sqlite3_step(s) == SQLITE_ROW)
		obj = json_loads((const char *)sqlite3_column_text(s, 0), 0, NULL);
	sqlite3_reset(s);
	if (!json_is_object(obj)) {
		json_decref(obj);
		obj = json_object();
	}
	kv_to_json((const char *)p, n, obj);
	dump = json_dumps(obj, JSON_COMPACT | JSON_SORT_KEYS);
	s = st[S_SET_HELLO];
	sqlite3_bind_text(s, 1, dump ? dump : "{}", -1, SQLITE_TRANSIENT);
	bind_json_int(s, 2, obj, "cpus");
	bind_json_int(s, 3, obj, "tsc_khz");
	bind_json_text(s, 4, obj, "transport");
	bind_json_text(s, 5, obj, "suite");
	sqlite3_bind_int64(s, 6, id);
	run(s);
	free(dump);
	json_decref(obj);
}

static void store_case(int64_t id, const uint8_t *p, size_t n)
{
	static const char *const cols[] = { "kind", "algo", "delivery", "wait", "inits", "mask",
		"placement", "overlap", "work_us", "iters", "reps" };
	static const int numeric[] = { 0, 0, 0, 0, 1, 1, 0, 0, 1, 1, 1 };
	sqlite3_stmt *s = st[S_CASE];
	json_t *cfg_obj = kv_to_json((const char *)p, n, NULL);
	struct buf key = { 0 };
	char *dump;

	if (!cfg_obj)
		return;
	case_match_key(cfg_obj, 0, &key);
	dump = json_dumps(cfg_obj, JSON_COMPACT | JSON_SORT_KEYS);
	sqlite3_bind_int64(s, 1, id);
	bind_json_int(s, 2, cfg_obj, "id");
	for (int i = 0; i < 11; i++) {
		if (numeric[i])
			bind_json_int(s, 3 + i, cfg_obj, cols[i]);
		else
			bind_json_text(s, 3 + i, cfg_obj, cols[i]);
	}
	sqlite3_bind_text(s, 14, dump ? dump : "{}", -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 15, key.p, -1, SQLITE_TRANSIENT);
	run(s);
	free(dump);
	buf_free(&key);
	json_decref(cfg_obj);
}

static void store_result(int64_t id, const uint8_t *p, size_t n)
{
	sqlite3_stmt *s = st[S_RESULT];
	struct xcb_result r;
	const uint64_t *v[] = { &r.count, &r.min, &r.p50, &r.p90, &r.p99, &r.p999, &r.max,
		&r.mean_x1000, &r.stddev_x1000, &r.ipis, &r.lock_acq, &r.lock_contended,
		&r.lock_hold_cycles, &r.lock_wait_cycles, &r.stale, &r.calls_executed,
		&r.calls_expected };

	if (xcb_dec_result(p, n, &r))
		return;
	sqlite3_bind_int64(s, 1, id);
	sqlite3_bind_int64(s, 2, r.case_id);
	sqlite3_bind_int64(s, 3, r.rep);
	sqlite3_bind_int64(s, 4, r.initiator);
	for (int i = 0; i < 17; i++)
		bind_u64(s, 5 + i, *v[i]);
	sqlite3_bind_int64(s, 22, r.flags);
	/* Appended by migration 002 (proto: offsets 152-207; 0 from a 152-byte
	 * RESULT, stored as NULL = not measured where 0 cannot be a value). */
	const uint64_t w[] = { r.ipi_floor, r.lost, r.dup, r.ooo, r.elapsed_cycles,
		r.control_runs, r.control_stale };
	int wide = n >= XCB_RESULT_LEN_FULL;
	for (int i = 0; i < 7; i++) {
		if (wide)
			bind_u64(s, 23 + i, w[i]);
		else
			sqlite3_bind_null(s, 23 + i);
	}
	run(s);
}

static void store_histo(int64_t id, const uint8_t *p, size_t n)
{
	sqlite3_stmt *s = st[S_HISTO];
	struct xcb_histo x;

	if (xcb_dec_histo(p, n, &x))
		return;
	for (unsigned i = 0; i < x.n; i++) {
		uint32_t c = xcb_histo_count(&x, i);

		if (!c)
			continue; /* only non-empty buckets are stored */
		sqlite3_bind_int64(s, 1, id);
		sqlite3_bind_int64(s, 2, x.case_id);
		sqlite3_bind_int64(s, 3, x.rep);
		sqlite3_bind_int64(s, 4, x.initiator);
		sqlite3_bind_int64(s, 5, x.first + i);
		sqlite3_bind_int64(s, 6, c);
		run(s);
	}
}

static void store_samples(int64_t id, const uint8_t *p, size_t n)
{
	sqlite3_stmt *s = st[S_SAMPLE];
	struct xcb_samples x;

	if (xcb_dec_samples(p, n, &x))
		return;
	for (unsigned i = 0; i < x.n; i++) {
		sqlite3_bind_int64(s, 1, id);
		sqlite3_bind_int64(s, 2, x.case_id);
		sqlite3_bind_int64(s, 3, x.rep);
		sqlite3_bind_int64(s, 4, x.initiator);
		sqlite3_bind_int64(s, 5, (sqlite3_int64)x.index + i);
		bind_u64(s, 6, xcb_sample(&x, i));
		run(s);
	}
}

static void store_event(int64_t id, uint32_t seq, int error, const uint8_t *p, size_t n)
{
	sqlite3_stmt *s = st[S_EVENT];
	char *text = sanitize_text((const char *)p, n);

	if (!text)
		return;
	sqlite3_bind_int64(s, 1, id);
	sqlite3_bind_int64(s, 2, seq);
	sqlite3_bind_text(s, 3, error ? "error" : "log", -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 4, text, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 5, now_s());
	run(s);
	if (error) {
		char *nl = strchr(text, '\n');

		if (nl)
			*nl = 0;
		s = st[S_CRASH];
		sqlite3_bind_text(s, 1, text, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(s, 2, id);
		run(s);
	}
	free(text);
}

int store_frame(sqlite3 *db, int64_t *run_id, uint64_t token, const struct xcb_hdr *h,
		const uint8_t *p)
{
	sqlite3_stmt *s;
	int64_t now = now_s();

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

	switch (h->type) {
	case XCB_T_HELLO: store_hello(*run_id, p, h->length); break;
	case XCB_T_CASE: store_case(*run_id, p, h->length); break;
	case XCB_T_RESULT: store_result(*run_id, p, h->length); break;
	case XCB_T_HISTO: store_histo(*run_id, p, h->length); break;
	case XCB_T_SAMPLES: store_samples(*run_id, p, h->length); break;
	case XCB_T_LOG: store_event(*run_id, h->seq, 0, p, h->length); break;
	case XCB_T_ERROR: store_event(*run_id, h->seq, 1, p, h->length); break;
	case XCB_T_DONE: {
		struct xcb_done d;

		if (xcb_dec_done(p, h->length, &d) == 0) {
			s = st[S_DONE];
			/* Stored as the run's total: DONE's count plus DONE itself. */
			sqlite3_bind_int64(s, 1, (sqlite3_int64)d.frames + 1);
			sqlite3_bind_int64(s, 2, d.status);
			sqlite3_bind_int64(s, 3, *run_id);
			run(s);
		}
		break;
	}
	}
	s = st[S_TOUCH];
	sqlite3_bind_int64(s, 1, now);
	sqlite3_bind_int64(s, 2, *run_id);
	run(s);
	s = st[S_COMPLETE];
	sqlite3_bind_int64(s, 1, now);
	sqlite3_bind_int64(s, 2, *run_id);
	run(s);
	return 1;
}

void store_mark_lost(sqlite3 *db, int lost_after)
{
	sqlite3_stmt *s = st[S_LOST];

	(void)db;
	sqlite3_bind_int64(s, 1, now_s() - lost_after);
	run(s);
}
