/*
 * store_limits.c — the per-run limits applied to frames (run_limits.h), on the
 * writer thread. Before a frame writes, its rows are bounded from the frame
 * itself (a CASE, RESULT, LOG or ERROR is one row, a HISTO or SAMPLES chunk
 * at most n) and checked against what the run holds (runs.use_*); after it
 * wrote, the rows it really changed are added. A frame past a limit is
 * refused like an insert-once conflict (nothing written, not ACKed), and
 * counted: runs.limited, and once per limit an event saying so.
 */
#include <stdio.h>

#include "casekey.h"
#include "casepieces.h"
#include "run_limits.h"
#include "store.h"
#include "store_sql.h"
#include "util.h"
#include "xcb_histo.h"

/* Limit events live beside the frames' and console lines' events, in a
 * sequence range of their own: frame seqs are 32-bit, console lines start
 * at 2^40 (api_console.c). */
#define LIMIT_SEQ0 (INT64_C(1) << 41)

/* The limit a frame type counts against besides frames, or -1 (HELLO:
 * facts, checked in store_hello; DONE: one a run). */
static int kind_of(unsigned type)
{
	switch (type) {
	case XCB_T_CASE: return LIM_CASES;
	case XCB_T_RESULT: return LIM_FRAMES;
	case XCB_T_HISTO: return LIM_HISTO;
	case XCB_T_SAMPLES: return LIM_SAMPLES;
	case XCB_T_LOG:
	case XCB_T_ERROR: return LIM_EVENTS;
	default: return -1;
	}
}

/* The most rows the frame can write. A CASE that only continues its case
 * (its id and a piece of x_cpus: casepieces.h) adds none: it completes a
 * case already counted, so a run at its cases limit still gets its last
 * case's pieces (and can complete). */
static int64_t rows_max(unsigned type, const uint8_t *p, size_t n)
{
	struct xcb_histo x;
	struct xcb_samples y;

	if (type == XCB_T_CASE) {
		json_t *cfg = kv_to_json((const char *)p, n, NULL);
		int more = !cfg || !case_is_continuation(cfg);

		json_decref(cfg);
		return more;
	}
	if (type == XCB_T_HISTO)
		return xcb_dec_histo(p, n, &x) ? 0 : x.n;
	if (type == XCB_T_SAMPLES)
		return xcb_dec_samples(p, n, &y) ? 0 : y.n;
	return 1;
}

int store_limit_check(const int64_t *used, unsigned type, const uint8_t *p, size_t n, int *which)
{
	int k = kind_of(type);

	if (k < 0)
		k = LIM_FRAMES;
	if (used[k] + rows_max(type, p, n) <= run_limits[k].max) {
		/* ... and the frame itself under the frames limit. */
		if (k == LIM_FRAMES || used[LIM_FRAMES] + 1 <= run_limits[LIM_FRAMES].max)
			return 0;
		k = LIM_FRAMES;
	}
	*which = k;
	return STORE_LIMIT;
}

int store_limit_kind(unsigned type, int64_t rows)
{
	int k = kind_of(type);

	/* frames: S_TOUCH counts them (frames_received) */
	return k < 0 || k == LIM_FRAMES || rows <= 0 ? -1 : k;
}

int store_limit_hit(int64_t id, int which)
{
	struct dbi_stmt *s = store_st[S_LIMITED];
	char text[200];

	dbi_bind_i64(s, 1, id);
	if (store_step(s))
		return -1;
	snprintf(text, sizeof(text), "limit: %lld %s per run reached (--run-limit %s=N): "
		 "further ones are refused", (long long)run_limits[which].max, run_limits[which].what,
		 run_limits[which].name);
	s = store_st[S_LIMIT_EVENT];
	dbi_bind_i64(s, 1, id);
	dbi_bind_i64(s, 2, LIMIT_SEQ0 + which);
	dbi_bind_text(s, 3, text, -1);
	dbi_bind_i64(s, 4, now_s());
	return store_step(s);
}

int store_note_limit(struct dbi *db, int64_t id, int which)
{
	(void)db; /* the statements are prepared on the writer's connection */
	return store_limit_hit(id, which);
}
