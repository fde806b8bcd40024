/*
 * store_data.c — on PostgreSQL, the fast path's data rows of one batch
 * (RESULT rows, HISTO buckets, sample chunks) kept in blocks
 * (store_block.h) and inserted a few hundred a statement, instead of one
 * statement a frame.
 *
 * Why: the PostgreSQL server's per-statement work (executor start, plan
 * cache, the per-statement NOT EXISTS subplans) was most of its ~41 us of
 * CPU a frame, the ingest bound (bench/LIMITS.md). SQLite keeps a
 * statement a frame (store_results.c): store_ledger.c says why big
 * statements lost there.
 *
 * Insert-once, exactly as the careful path decides it (store_results.c):
 *   - RESULT: the fast path takes one only for a case memory knows
 *     (store_runs.c: stored, or a CASE of this batch, whose INSERT was
 *     deferred before the block), so the block needs only ON CONFLICT DO
 *     NOTHING: a stored key, or the same key twice in the batch, inserts
 *     fewer rows than asked, a wrong prediction dbi_sync reports.
 *   - HISTO: a chunk is refused when ANY stored row of its stream lies in
 *     its range [first, first+n-1], a bucket coinciding or not. Its first
 *     row carries that range and a NOT EXISTS probe of it (the rows stored
 *     before the statement); each other row probes its own key, so a
 *     refused chunk's count comes up short and none of its rows ever
 *     meets a stored key (an error, not a mismatch).
 *   - SAMPLES: each row its chunk's overlap probe (STORE_CHUNK_OVERLAPS),
 *     which a stored chunk of the same first index fails too.
 *   - Chunks of one statement cannot see one another: a chunk whose range
 *     meets a kept chunk of its stream (store_data_free says) is left to
 *     the careful path, which store.c runs after writing the blocks, so its
 *     checks see them, as they would have seen a statement a frame.
 * The blocks are written by store_flush (store_touch.c) before any task
 * and before COMMIT, after the CASEs they refer to (deferred at once).
 * Writer thread only, like every store_* call.
 */
#include <string.h>

#include "store_block.h"
#include "store_sql.h"
#include "xcb_schema.h"

/* The INSERT of rows RESULT rows: the run, then the schema's RESULT
 * columns (XCB_SQL_RESULT_COLS), typed by the columns they fill. */
static void results_sql(struct buf *q, int rows)
{
	buf_addf(q, "INSERT INTO results(run_id" XCB_SQL_RESULT_COLS ") VALUES ");
	for (int i = 0; i < rows; i++)
		buf_addf(q, "%s(?" XCB_SQL_RESULT_PARAMS ")", i ? ", " : "");
	buf_addf(q, " ON CONFLICT DO NOTHING");
}

/* The INSERT of rows HISTO buckets (run, case, rep, initiator, bucket,
 * count, then a range lo, hi: the chunk's on its first row, the row's own
 * bucket on the others, store_data_histo), each only where no stored row
 * of its stream lies in its range: a refused chunk's first row is not
 * inserted, and no row can meet a stored one's key (no ON CONFLICT: its
 * speculative insertion is a WAL record a row). The
 * "v.hi < v.lo OR" (never true: lo <= hi) keeps the probe a per-row
 * index probe (EXPLAIN of the generic plan, on an empty and on a 1M-row
 * table: a SubPlan, Index Only Scan on the primary key): a bare NOT
 * EXISTS may be pulled up into an anti-join, whose plan then rests on
 * the table's statistics. */
static void histo_sql(struct buf *q, int rows)
{
	buf_addf(q, "INSERT INTO histograms SELECT r, c, p, i, b, n FROM (VALUES ");
	for (int i = 0; i < rows; i++)
		buf_addf(q, "%s(?, ?, ?, ?, ?, ?, ?, ?)", i ? ", " : "");
	buf_addf(q, ") AS v(r, c, p, i, b, n, lo, hi) WHERE v.hi < v.lo OR NOT EXISTS "
		 STORE_HISTO_IN("v.r", "v.c", "v.p", "v.i", "v.lo", "v.hi"));
}

/* The INSERT of rows sample chunks (run, case, rep, initiator, first
 * index, count, values), each only where no stored chunk overlaps it. */
static void samples_sql(struct buf *q, int rows)
{
	buf_addf(q, "INSERT INTO sample_chunks(run_id, case_id, rep, initiator, idx0, n, vals) "
		 "SELECT r, c, p, i, x, k, t FROM (VALUES ");
	for (int i = 0; i < rows; i++)
		buf_addf(q, "%s(?, ?, ?, ?, ?, ?, ?)", i ? ", " : "");
	buf_addf(q, ") AS v(r, c, p, i, x, k, t) WHERE NOT EXISTS "
		 STORE_CHUNK_OVERLAPS_OF("v.r", "v.c", "v.p", "v.i", "v.x + v.k - 1", "v.x"));
}

static struct store_block results = { .sql = results_sql };
static struct store_block histo = { .ncols = 8, .sql = histo_sql };
static struct store_block samples = { .ncols = 7, .sql = samples_sql };
static int on; /* the writer's connection is PostgreSQL's */

/* The chunks kept in a block (not yet written): their streams and ranges,
 * valid while the block's flushes count is the one noted. */
struct kept {
	struct store_block *b;
	unsigned flushes;
	int n;
	struct {
		int64_t id, lo, hi;
		uint32_t cid;
		unsigned rep, init;
	} c[2 * STORE_BLOCK_ROWS];
};
static struct kept histo_kept = { .b = &histo }, samples_kept = { .b = &samples };

/* k's chunks, none once its block was written or discarded since. */
static struct kept *kept_now(struct kept *k)
{
	if (k->flushes != k->b->flushes) {
		k->flushes = k->b->flushes;
		k->n = 0;
	}
	return k;
}

int store_data_free(int is_samples, int64_t id, uint32_t cid, unsigned rep, unsigned init, int64_t lo,
		    int64_t hi)
{
	struct kept *k = kept_now(is_samples ? &samples_kept : &histo_kept);

	for (int i = 0; i < k->n; i++)
		if (k->c[i].id == id && k->c[i].cid == cid && k->c[i].rep == rep &&
		    k->c[i].init == init && k->c[i].lo <= hi && lo <= k->c[i].hi)
			return 0;
	return 1;
}

/* Notes a chunk now kept in k's block (after its rows: a block written
 * meanwhile forgot the chunks before, and this one is still partly
 * kept). 0 or -1. */
static int kept_add(struct kept *k, int64_t id, uint32_t cid, unsigned rep, unsigned init, int64_t lo,
		    int64_t hi)
{
	k = kept_now(k);
	/* (full: the block is written, so that no chunk is forgotten unseen) */
	if (k->n == (int)(sizeof(k->c) / sizeof(k->c[0])) && store_block_flush(k->b))
		return -1;
	k = kept_now(k);
	k->c[k->n].id = id;
	k->c[k->n].cid = cid;
	k->c[k->n].rep = rep;
	k->c[k->n].init = init;
	k->c[k->n].lo = lo;
	k->c[k->n++].hi = hi;
	return 0;
}

int store_data_on(void)
{
	return on;
}

int store_data_result(int64_t id, const int64_t *v, const unsigned char *null, int n)
{
	store_block_int(&results, id);
	for (int i = 0; i < n; i++) {
		if (null[i])
			store_block_null(&results);
		else
			store_block_int(&results, v[i]);
	}
	return store_block_row(&results);
}

int store_data_histo(int64_t id, uint32_t cid, unsigned rep, unsigned init, int64_t lo, int64_t hi,
		     const int64_t *pos, const int64_t *val, unsigned rows)
{
	for (unsigned r = 0; r < rows; r++) {
		store_block_int(&histo, id);
		store_block_int(&histo, cid);
		store_block_int(&histo, rep);
		store_block_int(&histo, init);
		store_block_int(&histo, pos[r]);
		store_block_int(&histo, val[r]);
		/* The first row probes the chunk's range, before any row of it
		 * is in; the others only their own key (a stored row there is in
		 * the range too, so the first row failed already): the rows of
		 * the chunk in this or an earlier statement are never probed. */
		store_block_int(&histo, r ? pos[r] : lo);
		store_block_int(&histo, r ? pos[r] : hi);
		if (store_block_row(&histo))
			return -1;
	}
	return kept_add(&histo_kept, id, cid, rep, init, lo, hi);
}

int store_data_samples(int64_t id, uint32_t cid, unsigned rep, unsigned init, int64_t first, int64_t n,
		       const char *vals, int len)
{
	store_block_int(&samples, id);
	store_block_int(&samples, cid);
	store_block_int(&samples, rep);
	store_block_int(&samples, init);
	store_block_int(&samples, first);
	store_block_int(&samples, n);
	store_block_text(&samples, vals, len);
	if (store_block_row(&samples))
		return -1;
	return kept_add(&samples_kept, id, cid, rep, init, first, first + n - 1);
}

int store_data_flush(void)
{
	int rc = store_block_flush(&results);

	if (rc == 0)
		rc = store_block_flush(&histo);
	if (rc == 0)
		rc = store_block_flush(&samples);
	if (rc)
		store_data_discard(); /* the batch is rolled back */
	return rc;
}

void store_data_discard(void)
{
	store_block_discard(&results);
	store_block_discard(&histo);
	store_block_discard(&samples);
}

int store_data_open(struct dbi *db)
{
	const char *q = XCB_SQL_RESULT_PARAMS;

	on = dbi_engine(db) == DBI_PG;
	if (!on)
		return 0;
	/* The run, then a parameter a RESULT column. */
	results.ncols = 1;
	while ((q = strchr(q, '?')))
		results.ncols++, q++;
	if (store_block_open(&results, db, STORE_BLOCK_ROWS) || store_block_open(&histo, db, STORE_BLOCK_ROWS) ||
	    store_block_open(&samples, db, STORE_BLOCK_ROWS))
		return -1;
	return 0;
}

void store_data_close(void)
{
	store_block_close(&results);
	store_block_close(&histo);
	store_block_close(&samples);
	on = 0;
}
