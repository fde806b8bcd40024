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

#include "run_limits.h"
#include "store_outcome.h"
#include "xcb_proto.h"

enum {
	S_FRAME, S_FIND_RUN, S_NEW_RUN, S_TOUCH, S_GET_HELLO, S_SET_HELLO, S_CASE,
	S_RESULT, S_EVENT, S_CRASH, S_DONE, S_LOST,
	S_CASE_SAME, S_HELLO_JOB, S_HELLO_MACHINE, S_HELLO_OTHERS,
	S_FRAME_DEL, S_RESULT_HAS, S_HISTO_HAS, S_SAMPLE_HAS, S_LIMITED,
	S_LIMIT_EVENT, S_OPEN_LIVE, S_EXPIRE, S_RUN_STATE, S_RUN_CASES, S_SAMPLES, S_HISTOS,
	S_CASE_CONFIG, S_CASE_SET, S_RESULT_ROW, S_SAMPLES_ROW, S_HISTOS_ROW, S_HISTO_FREE, S_SAMPLE_FREE,
	S_N
};

/* The error of a run that expired without a frame (S_EXPIRE, S_FRAME). */
#define STORE_EXPIRED "expired: no frame within --lost-after of its boot"

/* What store.c's fast_frame answers, and a fast frame handler, for a
 * frame it leaves to the careful path (having written nothing). */
#define STORE_SLOW (-100)

/* The stored chunk (of TABLE, positions from its column AT0:
 * sample_chunks idx0, histogram_chunks bucket0) of stream R, C, P, I (SQL
 * expressions: run, case, rep, initiator) that starts last at or before
 * position LAST, if it ends after FIRST: then [FIRST, LAST] overlaps a
 * stored chunk. Stored chunks never overlap one another, so the one that
 * starts last is the only one that can reach FIRST: one index probe (the
 * primary key, backwards), however many chunks the stream has.
 * STORE_CHUNK_OVERLAPS: the stream ?1..?4. */
#define STORE_CHUNK_OVERLAPS_OF(TABLE, AT0, R, C, P, I, LAST, FIRST) "(SELECT 1 FROM (SELECT " AT0 \
	" + n AS e FROM " TABLE " WHERE run_id = " R " AND case_id = " C " AND rep = " P " AND initiator = " I \
	" AND " AT0 " <= " LAST " ORDER BY " AT0 " DESC LIMIT 1) AS last WHERE last.e > " FIRST ")"
#define STORE_CHUNK_OVERLAPS(TABLE, AT0, LAST, FIRST) \
	STORE_CHUNK_OVERLAPS_OF(TABLE, AT0, "?1", "?2", "?3", "?4", LAST, FIRST)

/* A stored (run, seq) is a frames row or in a frame_spans span, never
 * both (store_ledger.c). STORE_SPAN_MEETS: a stored span of run R meets
 * [LO, HI] (the last one starting at or before HI reaches LO: spans of a
 * run never overlap, so no earlier one can without it; one index probe);
 * STORE_FRAME_IN: a frames row of R lies in [LO, HI]. */
#define STORE_SPAN_MEETS(R, LO, HI) "(SELECT 1 FROM (SELECT hi FROM frame_spans WHERE run_id = " R \
	" AND lo <= " HI " ORDER BY lo DESC LIMIT 1) AS last WHERE last.hi >= " LO ")"
#define STORE_FRAME_IN(R, LO, HI) "(SELECT 1 FROM frames WHERE run_id = " R " AND seq BETWEEN " LO " AND " HI ")"

/* Prepared once by store_prepare() on the writer's connection (store_sql.c). */
extern struct dbi_stmt *store_st[S_N];
int store_prepare(struct dbi *db);
void store_finalize(void);

/* Steps a statement to completion and resets it: 0 or -1. */
int store_step(struct dbi_stmt *s);
/* A u64 as an SQLite integer (clamped to INT64_MAX). */
int64_t store_i64(uint64_t v);
/* Binds ?1..?4, a (run, case, rep, initiator) row key, and ?5, ?6 (the
 * S_*_HAS range lo, hi; S_SAMPLES's and S_HISTOS's first position and
 * count). */
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

/* store_ledger.c: the fast path's frame ledger, a batch's consecutive
 * seqs of a run kept as one span (one frame_spans row, written at the
 * flush; its insert deferred asking for all its rows: a span meeting a
 * stored seq is a wrong prediction). store_ledger_kept: 1 if seq of run id
 * is in a kept span already (the careful path must see it: store.c);
 * store_ledger_add keeps frame seq of run id (received now): 0 or -1;
 * store_ledger_flush writes the spans (store_flush calls it): 0 or -1;
 * store_ledger_discard forgets them (a rolled-back batch). open/close: the
 * writer's connection and the statements prepared on it (open: 0, or -1
 * out of memory). */
int store_ledger_kept(int64_t id, uint32_t seq);
int store_ledger_add(int64_t id, uint32_t seq, int64_t now);
int store_ledger_flush(void);
void store_ledger_discard(void);
int store_ledger_open(struct dbi *db);
void store_ledger_close(void);

/* store_data.c: on PostgreSQL, the fast path's RESULT, HISTO and SAMPLES
 * rows, many a statement (store_block.h), each statement's own checks
 * making a refusal a wrong prediction. store_data_on: 1 when the writer's
 * connection is PostgreSQL's (open was told), else the fast path writes a
 * statement a frame. store_data_result keeps a RESULT row of run id (v:
 * its n RESULT columns, in XCB_SQL_RESULT_COLS order, null[i] a NULL);
 * store_data_histo a histogram chunk (n counts from bucket at, as
 * chunkvals.h's text) checked against the frame's range [lo, hi];
 * store_data_samples a chunk of samples (its values as text):
 * 0 or -1. store_data_free: 1 when no chunk of stream (id, cid, rep,
 * init) kept unwritten in the HISTO (is_samples 0) or SAMPLES block meets
 * [lo, hi], else 0 (the careful path must store it: the statement could
 * not see the other). flush writes every kept row (store_flush calls it:
 * 0 or -1), discard forgets them (a rolled-back batch). */
int store_data_open(struct dbi *db);
void store_data_close(void);
int store_data_on(void);
int store_data_result(int64_t id, const int64_t *v, const unsigned char *null, int n);
int store_data_histo(int64_t id, uint32_t cid, unsigned rep, unsigned init, int64_t at, int64_t n,
		     const char *counts, int len, int64_t lo, int64_t hi);
int store_data_samples(int64_t id, uint32_t cid, unsigned rep, unsigned init, int64_t first, int64_t n,
		       const char *vals, int len);
int store_data_free(int is_samples, int64_t id, uint32_t cid, unsigned rep, unsigned init, int64_t lo,
		    int64_t hi);
int store_data_flush(void);
void store_data_discard(void);

/* store_results.c: one frame each; 0 stored, -1 error, STORE_REFUSED.
 * fast: the frame's checks were made from store_runs.c's memory, so the
 * write is deferred (dbi_defer) with the rows it must change, or kept in
 * a block (store_data.c), and nothing is asked first; a fast HISTO or
 * SAMPLES may answer STORE_SLOW (nothing written: the careful path must
 * store it); else (careful) each check is a query before the write. */
int store_case(int64_t id, const uint8_t *p, size_t n, int fast);
int store_result(int64_t id, const uint8_t *p, size_t n, int fast);
int store_points(int64_t id, unsigned type, const uint8_t *p, size_t n, int fast); /* HISTO or SAMPLES */
/* A RESULT, HISTO or SAMPLES payload decoded (store_frame_case), for the
 * handlers below: the fast path decodes a frame once, not twice (a
 * RESULT's decoding was ~1.5 % of the writer's CPU each time). */
union store_dec {
	struct xcb_result r;
	struct xcb_histo x;
	struct xcb_samples y;
};
/* The case a CASE, RESULT, HISTO or SAMPLES frame is about, or -1 (another
 * type, or a payload that does not decode: a CASE without a u32 id); a
 * RESULT, HISTO or SAMPLES decoded into *d. */
int64_t store_frame_case(unsigned type, const uint8_t *p, size_t n, union store_dec *d);
/* store_result and store_points of a payload store_frame_case decoded (n:
 * a RESULT's length, which says which appended fields it has). */
int store_result_dec(int64_t id, const struct xcb_result *r, size_t n, int fast);
int store_points_dec(int64_t id, unsigned type, const union store_dec *d, int fast);
/* Steps s, or defers it with the rows it must change when fast: 0 or -1. */
int store_write(struct dbi_stmt *s, int fast, int64_t rows);

/* store_runs.c: what the writer knows of a run between frames (its fast
 * path's checks), read from the run's row and cases on first use. */
struct store_run {
	int64_t id;
	int complete, crashed, expired;     /* S_FRAME's "closed", as columns */
	int64_t expected;                   /* frames_expected (0: no DONE yet) */
	int64_t used[LIM_EVENTS + 1];         /* the row's use_* (enum run_limit_kind) */
	uint32_t *cases;                    /* the case ids it described, sorted */
	unsigned ncases, cap;
};
/* Run id's entry, read if new; NULL if the run or the database is not there. */
struct store_run *store_run_get(int64_t id);
/* 1 if the run takes no new frame seq of type (S_FRAME's rule). */
int store_run_closed(const struct store_run *r, uint32_t seq, unsigned type);
int store_run_has_case(const struct store_run *r, uint32_t cid);
/* Adds a case id: 0, or -1 out of memory. */
int store_run_add_case(struct store_run *r, uint32_t cid);
/* S_TOUCH added frames and use[] to run id's row: the entry follows. */
void store_run_touched(int64_t id, int64_t frames, const int64_t *use);
/* Something else changed run id: read again at next use (all of them:
 * store_runs_forget_all, store.h). */
void store_run_forget(int64_t id);

/* Data rows the frame handlers have written (writer thread only): a frame's
 * rows are the difference around its handler (store_limits.c counts them). */
extern int64_t store_rows;
/* store_fast's switch (store.c): the fast path is on for this batch, so
 * the run counters' UPDATEs are deferred too (store_touch.c). */
extern int store_fast_mode;

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
