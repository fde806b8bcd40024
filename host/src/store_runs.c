/*
 * store_runs.c — what the writer knows about its runs between frames, so
 * that store.c can decide a CASE, RESULT, HISTO or SAMPLES frame without
 * asking the database first (its fast path): whether the run is closed,
 * what it holds against each per-run limit, which cases it described.
 *
 * Why it may: a run is bound to one daemon (its lab's collector), and only
 * this thread writes its rows, so what was read once stays true while the
 * writer keeps it up to date. The database stays the truth: an entry is
 * read from it on first use, and forgotten whenever something else may
 * have changed the run (a frame taken the careful way, an HTTP task, a
 * rolled-back batch, the lost-run sweep), so after a restart or a failure
 * it is simply read again. And a prediction is checked: each statement of
 * the fast path says the rows it must change (dbi_defer), a wrong one makes
 * the writer redo the batch the careful way.
 * Writer thread only, like every store_* call.
 */
#include <stdlib.h>
#include <string.h>

#include "run_limits.h"
#include "store.h"
#include "store_sql.h"
#include "xcb_proto.h"

/* Open addressing on the run id; past half full every entry is dropped
 * (re-read on use), which bounds the memory to what recent batches touch. */
#define RUN_SLOTS 4096

static struct store_run *slots[RUN_SLOTS];
static int nruns;

/* Where run id's entry is first looked for (a multiplicative hash). */
static unsigned slot_of(int64_t id)
{
	return (unsigned)((uint64_t)id * 0x9e3779b97f4a7c15ull >> 52) & (RUN_SLOTS - 1);
}

/* Frees an entry (NULL: nothing). */
static void drop(struct store_run *r)
{
	if (r) {
		free(r->cases);
		free(r);
	}
}

void store_runs_forget_all(void)
{
	for (int i = 0; i < RUN_SLOTS && nruns; i++)
		if (slots[i]) {
			drop(slots[i]);
			slots[i] = NULL;
			nruns--;
		}
	nruns = 0;
}

/* The slot of id, or of the free place where it would go. */
static unsigned find(int64_t id)
{
	unsigned h = slot_of(id);

	while (slots[h] && slots[h]->id != id)
		h = (h + 1) & (RUN_SLOTS - 1);
	return h;
}

void store_run_forget(int64_t id)
{
	unsigned h = find(id);

	if (!slots[h])
		return;
	/* Open addressing: the entries after it are put back where a lookup
	 * finds them, by dropping them too (simplest; they are read again). */
	drop(slots[h]);
	slots[h] = NULL;
	nruns--;
	for (h = (h + 1) & (RUN_SLOTS - 1); slots[h]; h = (h + 1) & (RUN_SLOTS - 1)) {
		drop(slots[h]);
		slots[h] = NULL;
		nruns--;
	}
}

/* Reads run id's row (S_RUN_STATE) and its cases' ids (S_RUN_CASES) into
 * r: 0, or -1 (no such run, or the database failed). */
static int load(struct store_run *r)
{
	struct dbi_stmt *s = store_st[S_RUN_STATE];
	int rc = -1;

	dbi_bind_i64(s, 1, r->id);
	if (dbi_step(s) == DBI_ROW) {
		r->complete = dbi_column_int(s, 0);
		r->crashed = dbi_column_int(s, 1);
		r->expired = dbi_column_int(s, 2);
		r->expected = dbi_column_i64(s, 3);
		for (int k = 0; k <= LIM_EVENTS; k++)
			r->used[k] = dbi_column_i64(s, 4 + k);
		rc = 0;
	}
	dbi_reset(s);
	dbi_clear(s);
	s = store_st[S_RUN_CASES];
	dbi_bind_i64(s, 1, r->id);
	while (rc == 0) {
		int st = dbi_step(s);

		if (st == DBI_DONE)
			break;
		if (st != DBI_ROW || store_run_add_case(r, (uint32_t)dbi_column_i64(s, 0)))
			rc = -1;
	}
	dbi_reset(s);
	dbi_clear(s);
	return rc;
}

struct store_run *store_run_get(int64_t id)
{
	unsigned h = find(id);
	struct store_run *r;

	if (slots[h])
		return slots[h];
	if (nruns >= RUN_SLOTS / 2) {
		store_runs_forget_all();
		h = find(id);
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->id = id;
	if (load(r)) {
		drop(r);
		return NULL;
	}
	slots[h] = r;
	nruns++;
	return r;
}

int store_run_closed(const struct store_run *r, uint32_t seq, unsigned type)
{
	/* S_FRAME's "closed", from the same columns (store_sql.c). */
	return r->complete || r->expired ||
	       (r->expected && ((int64_t)seq >= r->expected || type == XCB_T_DONE));
}

/* The index where cid is or would go in r's sorted case ids. */
static unsigned case_pos(const struct store_run *r, uint32_t cid)
{
	unsigned lo = 0, hi = r->ncases;

	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;

		if (r->cases[mid] < cid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int store_run_has_case(const struct store_run *r, uint32_t cid)
{
	unsigned i = case_pos(r, cid);

	return i < r->ncases && r->cases[i] == cid;
}

int store_run_add_case(struct store_run *r, uint32_t cid)
{
	unsigned i = case_pos(r, cid);

	if (i < r->ncases && r->cases[i] == cid)
		return 0;
	if (r->ncases == r->cap) {
		unsigned cap = r->cap ? r->cap * 2 : 64;
		uint32_t *n = realloc(r->cases, cap * sizeof(*n));

		if (!n)
			return -1;
		r->cases = n;
		r->cap = cap;
	}
	memmove(r->cases + i + 1, r->cases + i, (r->ncases - i) * sizeof(*r->cases));
	r->cases[i] = cid;
	r->ncases++;
	return 0;
}

void store_run_touched(int64_t id, int64_t frames, const int64_t *use)
{
	unsigned h = find(id);
	struct store_run *r = slots[h];

	if (!r)
		return;
	/* What S_TOUCH just added to the row, and its status rule. */
	r->used[LIM_FRAMES] += frames;
	for (int k = 0; k <= LIM_EVENTS; k++)
		if (k != LIM_FRAMES)
			r->used[k] += use[k];
	if (r->expected && r->used[LIM_FRAMES] >= r->expected && !r->crashed)
		r->complete = 1;
}
