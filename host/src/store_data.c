/*
 * store_data.c — on PostgreSQL, the fast path's data rows of one batch
 * (RESULT rows, histogram and sample chunks) kept in blocks
 * (store_block.h) and inserted together at the flush, instead of one
 * statement a frame: RESULT rows by one COPY (dbi_copy_in), each table's
 * chunks by one INSERT ... SELECT over unnest of the block's columns as
 * arrays (any number of rows, nine parameters).
 *
 * Why: the PostgreSQL server's per-statement work (executor start, plan
 * cache, the per-statement NOT EXISTS subplans) was most of its ~41 us of
 * CPU a frame, the ingest bound (bench/LIMITS.md). SQLite keeps a
 * statement a frame (store_results.c): store_ledger.c says why big
 * statements lost there. COPY then took the RESULT rows' speculative
 * insertion (ON CONFLICT) and parameter parsing off the server, and the
 * arrays the executor start of a 256-row VALUES list (2,304 parameter
 * expressions) a statement (bench/LIMITS.md has the figures).
 *
 * Insert-once, exactly as the careful path decides it (store_results.c):
 *   - RESULT: the fast path takes one only for a case memory knows
 *     (store_runs.c: stored, or a CASE of this batch, whose INSERT was
 *     deferred before the block), so the block needs only the primary
 *     key: a stored key, or the same key twice in the batch, fails the
 *     COPY (in its savepoint, dbi_pg_copyin.c), a wrong prediction
 *     dbi_sync reports, as a short count of ON CONFLICT DO NOTHING did.
 *   - HISTO and SAMPLES: a frame is one chunk row (migrations 011, 013),
 *     refused when a stored chunk of its stream overlaps its range (a
 *     HISTO's whole bucket range, though it stores only the part from its
 *     first to its last non-empty bucket). Each row carries that range
 *     and its overlap probe (STORE_CHUNK_OVERLAPS_OF), which a stored
 *     chunk of the same first position fails too, so a refused chunk
 *     inserts fewer rows than asked and never meets a stored key.
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
 * columns (XCB_SQL_RESULT_COLS), typed by the columns they fill (what the
 * block runs where it cannot COPY; the COPY's columns are the same). */
static void results_sql(struct buf *q, int rows)
{
	buf_addf(q, "INSERT INTO results(run_id" XCB_SQL_RESULT_COLS ") VALUES ");
	for (int i = 0; i < rows; i++)
		buf_addf(q, "%s(?" XCB_SQL_RESULT_PARAMS ")", i ? ", " : "");
	buf_addf(q, " ON CONFLICT DO NOTHING");
}

/* The INSERT of a block's chunks (any number: its nine columns come as
 * arrays) into TABLE (sample_chunks or
 * histogram_chunks, positions from its column AT0, values in VALS): each
 * row (run, case, rep, initiator, first position, count, values, then the
 * range [lo, hi] that insert-once checks: a SAMPLES frame's own, a HISTO
 * frame's whole bucket range) only where no stored chunk of its stream
 * overlaps that range (STORE_CHUNK_OVERLAPS_OF: one index probe a row,
 * whose ORDER BY ... LIMIT keeps it a probe in the generic plan, never an
 * anti-join over the table). */
static void chunks_sql(struct buf *q, int rows, const char *table, const char *at0, const char *vals,
		       const char *probe)
{
	(void)rows; /* any number: the block's rows come as arrays */
	buf_addf(q, "INSERT INTO %s(run_id, case_id, rep, initiator, %s, n, %s) "
		 "SELECT r, c, p, i, x, k, t FROM unnest(CAST(? AS int8[]), CAST(? AS int8[]), "
		 "CAST(? AS int8[]), CAST(? AS int8[]), CAST(? AS int8[]), CAST(? AS int8[]), "
		 "CAST(? AS text[]), CAST(? AS int8[]), CAST(? AS int8[])) "
		 "AS v(r, c, p, i, x, k, t, lo, hi) WHERE NOT EXISTS %s", table, at0, vals, probe);
}

/* The probe of a chunk row v's range, on TABLE with positions from AT0. */
#define CHUNK_PROBE(TABLE, AT0) STORE_CHUNK_OVERLAPS_OF(TABLE, AT0, "v.r", "v.c", "v.p", "v.i", "v.hi", "v.lo")

static void histo_sql(struct buf *q, int rows)
{
	chunks_sql(q, rows, "histogram_chunks", "bucket0", "counts", CHUNK_PROBE("histogram_chunks", "bucket0"));
}

static void samples_sql(struct buf *q, int rows)
{
	chunks_sql(q, rows, "sample_chunks", "idx0", "vals", CHUNK_PROBE("sample_chunks", "idx0"));
}

static struct store_block results = { .sql = results_sql, .copy = "results(run_id" XCB_SQL_RESULT_COLS ")" };
static struct store_block histo = { .ncols = 9, .sql = histo_sql, .arrays = 1 };
static struct store_block samples = { .ncols = 9, .sql = samples_sql, .arrays = 1 };
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

/* Keeps chunk (run id, case cid, rep, init; first position at, n
 * positions, their values as text) in block k's statement, checked
 * against [lo, hi]; the chunk's own positions noted as kept. 0 or -1. */
static int keep_chunk(struct kept *k, int64_t id, uint32_t cid, unsigned rep, unsigned init, int64_t at,
		      int64_t n, const char *text, int len, int64_t lo, int64_t hi)
{
	store_block_int(k->b, id);
	store_block_int(k->b, cid);
	store_block_int(k->b, rep);
	store_block_int(k->b, init);
	store_block_int(k->b, at);
	store_block_int(k->b, n);
	store_block_text(k->b, text, len);
	store_block_int(k->b, lo);
	store_block_int(k->b, hi);
	if (store_block_row(k->b))
		return -1;
	return kept_add(k, id, cid, rep, init, at, at + n - 1);
}

int store_data_histo(int64_t id, uint32_t cid, unsigned rep, unsigned init, int64_t at, int64_t n,
		     const char *counts, int len, int64_t lo, int64_t hi)
{
	return keep_chunk(&histo_kept, id, cid, rep, init, at, n, counts, len, lo, hi);
}

int store_data_samples(int64_t id, uint32_t cid, unsigned rep, unsigned init, int64_t first, int64_t n,
		       const char *vals, int len)
{
	return keep_chunk(&samples_kept, id, cid, rep, init, first, n, vals, len, first, first + n - 1);
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
