/*
 * store_sql.h — the writer's prepared statements and the small binding
 * helpers shared by store.c (run state, HELLO, events, DONE) and
 * store_results.c (CASE, RESULT, HISTO, SAMPLES). Internal to the store:
 * everything here runs on the writer thread only (store.h is the API).
 */
#ifndef XCB_STORE_SQL_H
#define XCB_STORE_SQL_H

#include <jansson.h>
#include "dbi.h"
#include <stddef.h>
#include <stdint.h>

#include "store_outcome.h"

enum {
	S_FRAME, S_FIND_RUN, S_NEW_RUN, S_TOUCH, S_GET_HELLO, S_SET_HELLO, S_CASE,
	S_RESULT, S_EVENT, S_CRASH, S_DONE, S_LOST,
	S_CASE_SAME, S_HELLO_JOB, S_HELLO_MACHINE, S_HELLO_OTHERS,
	S_FRAME_DEL, S_RESULT_HAS, S_HISTO_HAS, S_SAMPLE_HAS, S_LIMITED,
	S_LIMIT_EVENT, S_OPEN_LIVE, S_EXPIRE, S_N
};

/* The error of a run that expired without a frame (S_EXPIRE, S_FRAME). */
#define STORE_EXPIRED "expired: no frame within --lost-after of its boot"

/* Prepared once by store_prepare() on the writer's connection (store_sql.c). */
extern struct dbi_stmt *store_st[S_N];
int store_prepare(struct dbi *db);
/* HISTO/SAMPLES points are inserted up to STORE_POINTS_BLOCK rows per
 * statement (one statement per chunk instead of one per point): the
 * INSERT of rows rows into table (STORE_PTS_*), prepared on first use;
 * NULL if it cannot be. 6 parameters a row, in the tables' column order. */
enum { STORE_PTS_HISTO, STORE_PTS_SAMPLES, STORE_PTS_N };
#define STORE_POINTS_BLOCK 128
struct dbi_stmt *store_points_stmt(int table, int rows);
void store_finalize(void);

/* Steps a statement to completion and resets it: 0 or -1. */
int store_step(struct dbi_stmt *s);
/* A u64 as an SQLite integer (clamped to INT64_MAX). */
int64_t store_i64(uint64_t v);
/* Binds ?1..?4, a (run, case, rep, initiator) row key, and ?5, ?6. */
void store_bind_key(struct dbi_stmt *s, int64_t id, uint32_t cid, unsigned rep, unsigned init,
		    int64_t a, int64_t b);
/* Whether rows of (run, case, rep, initiator) in [lo, hi] may be added,
 * by the S_*_HAS statement s (bound here): 0, STORE_NO_CASE (the run never
 * described the case), STORE_REFUSED (one is stored: insert-once) or -1. */
int store_may_add(struct dbi_stmt *s, int64_t id, uint32_t cid, unsigned rep, unsigned init,
		  int64_t lo, int64_t hi);
/* The first column of a one-row query as a number (-1: no row or error). */
int64_t store_query_int(struct dbi_stmt *s);
void store_bind_u64(struct dbi_stmt *s, int i, uint64_t v);
/* Binds o[k] (a decimal string in a frame's key=value JSON) as an integer
 * or as text; an absent or malformed value stays NULL. */
void store_bind_json_int(struct dbi_stmt *s, int i, json_t *o, const char *k);
void store_bind_json_text(struct dbi_stmt *s, int i, json_t *o, const char *k);

/* store_touch.c: the runs' counters of a batch, written once per run.
 * Adds a stored frame of run id (now, its peer or NULL, rows against limit
 * kind or kind -1): 0 or -1. */
int store_touch_add(int64_t id, int64_t now, const char *peer, int kind, int64_t rows);
/* Adds run id's counts not yet written to used (enum run_limit_kind). */
void store_touch_pending(int64_t id, int64_t *used);

/* store_results.c: one frame each; 0 stored, -1 error, STORE_REFUSED. */
int store_case(int64_t id, const uint8_t *p, size_t n);
int store_result(int64_t id, const uint8_t *p, size_t n);
int store_points(int64_t id, unsigned type, const uint8_t *p, size_t n); /* HISTO or SAMPLES */

/* Data rows the frame handlers have written (writer thread only): a frame's
 * rows are the difference around its handler (store_limits.c counts them). */
extern int64_t store_rows;

/* store_limits.c: the per-run limits (run_limits.h). used[k]: what the run
 * holds against limit k (S_FRAME's columns, LIM_CASES..LIM_EVENTS).
 * STORE_LIMIT with the limit in *which if the frame's rows would pass it,
 * else 0. */
int store_limit_check(const int64_t *used, unsigned type, const uint8_t *p, size_t n, int *which);
/* The limit (enum run_limit_kind) the rows a stored frame of type wrote
 * count against in S_TOUCH's ?4, or -1 for none (frames count apart). */
int store_limit_kind(unsigned type, int64_t rows);
/* Counts a frame refused by limit which (runs.limited), and says so once in
 * the run's events. 0 or -1. */
int store_limit_hit(int64_t id, int which);

#endif
