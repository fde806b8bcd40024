/*
 * store_touch.c — what the stored frames of one batch change in their
 * runs' rows (frames_received, last_frame, the limits' use_*, the status
 * once complete), added up in memory and written with ONE UPDATE per run
 * when the batch ends (store_flush), instead of one per frame.
 *
 * Why: a run's row updated once per frame inside a transaction is the
 * ingest bound on PostgreSQL. Every UPDATE leaves a new row version that
 * stays until the COMMIT, so the next frame's lookup of the run walks a
 * chain of all the batch's versions (quadratic in the batch), and a
 * version that leaves its page adds entries to each of runs' indexes. On
 * SQLite it is one statement per frame less.
 *
 * Readers within the batch see the sum: store.c adds store_touch_pending
 * to what S_FRAME read, so limits and "closed" are decided as before. The
 * writer flushes before every task (an HTTP write may read or change the
 * run) and before COMMIT, so what is committed, and ACKed after it, is the
 * same as with per-frame updates; a rolled-back batch discards its sums.
 * Writer thread only, like every store_* call.
 */
#include <stdio.h>
#include <string.h>

#include "run_limits.h"
#include "store.h"
#include "store_sql.h"

/* Open addressing on the run id: a batch touches at most BATCH_MAX (4096)
 * runs, so the table never fills past half. */
#define TOUCH_SLOTS 8192

struct touch {
	int64_t id;                    /* 0: a free slot */
	int64_t frames;                /* frames stored in this batch */
	int64_t use[LIM_EVENTS + 1];   /* rows against each limit (LIM_FRAMES: unused) */
	int64_t first, last;           /* now_s() of its first and last frame */
	char peer[48];                 /* the first frame's source ("" none) */
};

static struct touch slots[TOUCH_SLOTS];
static int used_slot[TOUCH_SLOTS]; /* the slots taken, in order, for the flush */
static int nused;

static struct touch *find(int64_t id, int add)
{
	unsigned h = (unsigned)((uint64_t)id * 0x9e3779b97f4a7c15ull >> 51) & (TOUCH_SLOTS - 1);

	for (;; h = (h + 1) & (TOUCH_SLOTS - 1)) {
		if (slots[h].id == id)
			return &slots[h];
		if (slots[h].id == 0) {
			if (!add || nused >= TOUCH_SLOTS / 2)
				return NULL;
			memset(&slots[h], 0, sizeof(slots[h]));
			slots[h].id = id;
			used_slot[nused++] = (int)h;
			return &slots[h];
		}
	}
}

int store_touch_add(int64_t id, int64_t now, const char *peer, int kind, int64_t rows)
{
	struct touch *t = find(id, 1);

	if (!t && (store_flush() || !(t = find(id, 1))))
		return -1; /* full: written now, the batch goes on */
	if (!t->frames) {
		t->first = now;
		snprintf(t->peer, sizeof(t->peer), "%s", peer ? peer : "");
	}
	t->frames++;
	t->last = now;
	if (kind >= 0)
		t->use[kind] += rows;
	return 0;
}

void store_touch_pending(int64_t id, int64_t *used)
{
	struct touch *t = find(id, 0);

	if (!t)
		return;
	for (int k = 0; k <= LIM_EVENTS; k++)
		used[k] += k == LIM_FRAMES ? t->frames : t->use[k];
}

void store_touch_discard(void)
{
	store_ledger_discard(); /* the batch's ledger and data rows go with its sums */
	store_data_discard();
	for (int i = 0; i < nused; i++)
		slots[used_slot[i]].id = 0;
	nused = 0;
}

int store_flush(void)
{
	struct dbi_stmt *s = store_st[S_TOUCH];
	/* The frames' ledger and data rows first: they are what the counters
	 * count. */
	int rc = store_ledger_flush();

	if (rc == 0)
		rc = store_data_flush();

	for (int i = 0; i < nused && rc == 0; i++) {
		struct touch *t = &slots[used_slot[i]];

		dbi_bind_i64(s, 1, t->last);
		dbi_bind_i64(s, 2, t->id);
		if (t->peer[0])
			dbi_bind_text(s, 3, t->peer, -1);
		dbi_bind_i64(s, 4, t->frames);
		dbi_bind_i64(s, 5, t->use[LIM_CASES]);
		dbi_bind_i64(s, 6, t->use[LIM_HISTO]);
		dbi_bind_i64(s, 7, t->use[LIM_SAMPLES]);
		dbi_bind_i64(s, 8, t->use[LIM_EVENTS]);
		dbi_bind_i64(s, 9, t->first);
		/* Deferred with the frames (one row: the run's) on the fast path. */
		rc = store_write(s, store_fast_mode, 1);
		if (rc == 0)
			store_run_touched(t->id, t->frames, t->use);
	}
	/* Written, or failed: then the writer rolls the batch back, sums and
	 * all. */
	store_touch_discard();
	return rc;
}
