/*
 * results_db.c — the read-side SQL of RESULT rows, histograms and the run's
 * CSV export rows (see results_db.h). Column positions are named here, next
 * to the SQL they index, and nowhere else.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chunkvals.h"
#include "results_db.h"
#include "xcb_proto.h"

/* ---- RESULT rows ---- */

#define RV_APPENDED_V1 0
#define RV_APPENDED_APPENDED 1
#define RV_APPENDED_(name, bits, part) RV_IF_VALUE(part)(RV_APPENDED_##part,)
const unsigned char rv_appended[RV_NCOL] = { XCB_RESULT_FIELDS(RV_APPENDED_) };
#undef RV_APPENDED_
#define RV_NAME_(name, bits, part) RV_IF_VALUE(part)(#name,)
const char *const rv_names[RV_NCOL] = { XCB_RESULT_FIELDS(RV_NAME_) };
#undef RV_NAME_
enum { RR_CASE_ID, RR_REP, RR_INIT, RR_FIRST_FIELD };
/* The rows come in the primary key's order, (run_id, case_id, rep,
 * initiator): an index scan with no sort on either engine (ordered by
 * initiator first, SQLite built a temporary B-tree and PostgreSQL an
 * incremental sort of every row). results_take puts a case's few rows in
 * initiator order itself. */
#define RESULTS_KEY_ORDER "case_id, rep, initiator"

/* The column of results_open_fields' flags (after its value fields). */
#define RR_FLAGS(c) (RR_FIRST_FIELD + (c)->nfields)

/* Steps c to its next row; on a results_open_field cursor the row's case
 * is counted when the row is flagged XCB_RF_UNSTABLE (rows come in case
 * order: a case's rows are together). */
static void step(struct result_cursor *c)
{
	int rc = dbi_step(c->st);

	c->more = rc == DBI_ROW;
	if (rc != DBI_ROW && rc != DBI_DONE) {
		c->flagged.unstable = c->flagged.failed = -1;
		c->failed = 1;
	}
}

/* Steps the histogram cursor c to its next row (a failed step: failed). */
static void histo_step(struct histo_cursor *c)
{
	int rc = dbi_step(c->st);

	c->more = rc == DBI_ROW;
	if (rc != DBI_ROW && rc != DBI_DONE)
		c->failed = 1;
}

/* Counts case id once in *n (last: the case counted last). */
static void count_case(int64_t *n, int64_t *last, int64_t id)
{
	if (*n >= 0 && (*n == 0 || id != *last))
		++*n;
	*last = id;
}

/* results_take's row about to be taken: its case counts once when a row
 * of it failed a check (a cursor that reads some fields: compare's, which
 * takes only the cases it compares). Not `unstable`: a case is unstable
 * by its rows together (casestats.h case_unstable_host), which the taker
 * counts. */
static void count_flags(struct result_cursor *c)
{
	if (!c->nfields)
		return;
	int64_t f = dbi_column_i64(c->st, RR_FLAGS(c)), id = dbi_column_i64(c->st, RR_CASE_ID);

	c->taken_flags |= (unsigned)f;

	if (f & (XCB_RF_INVARIANT | XCB_RF_WATCHDOG))
		count_case(&c->flagged.failed, &c->failed_case, id);
}

/* Prepares sql with run (and case_id >= 0) bound, and steps to its first
 * row: c's cursor, reading every value field (c->nfields 0) or only
 * c->fields. */
static int cursor_open(struct dbi *db, const char *sql, int64_t run, int64_t case_id, struct result_cursor *c)
{
	c->more = 0;
	c->failed = 0;
	c->flagged = (struct case_flags){ 0, 0 };
	c->taken_flags = 0;
	if (dbi_prepare(db, sql, &c->st)) {
		c->st = NULL;
		return -1;
	}
	dbi_bind_i64(c->st, 1, run);
	if (case_id >= 0)
		dbi_bind_i64(c->st, 2, case_id);
	step(c);
	return 0;
}

int results_open(struct dbi *db, int64_t run, int64_t case_id, struct result_cursor *c)
{
	const char *sql = case_id < 0
		? "SELECT case_id, rep, initiator" RV_SQL_COLS " FROM results "
		  "WHERE run_id = ?1 ORDER BY " RESULTS_KEY_ORDER
		: "SELECT case_id, rep, initiator" RV_SQL_COLS " FROM results "
		  "WHERE run_id = ?1 AND case_id = ?2 ORDER BY " RESULTS_KEY_ORDER;

	c->nfields = 0;
	return cursor_open(db, sql, run, case_id, c);
}

int results_open_fields(struct dbi *db, int64_t run, const int *fields, int n, struct result_cursor *c)
{
	struct buf sql = { 0 };
	int rc;

	c->st = NULL;
	c->more = 0;
	if (n < 1 || n > RESULTS_MAX_FIELDS)
		return -1;
	buf_addf(&sql, "SELECT case_id, rep, initiator");
	for (int i = 0; i < n; i++) {
		if (fields[i] < 0 || fields[i] >= RV_NCOL) {
			buf_free(&sql);
			return -1;
		}
		c->fields[i] = fields[i];
		/* a latency of a repetition with no timed call is none (rv_is_latency) */
		if (rv_is_latency(fields[i]))
			buf_addf(&sql, ", CASE WHEN count = 0 THEN NULL ELSE %s END", rv_names[fields[i]]);
		else
			buf_addf(&sql, ", %s", rv_names[fields[i]]);
	}
	c->nfields = n;
	/* flags too (RR_FLAGS): the flagged cases counted as results_take
	 * takes their rows, not by a second scan (results_flags_taken) */
	buf_addf(&sql, ", flags FROM results WHERE run_id = ?1 ORDER BY " RESULTS_KEY_ORDER);
	rc = sql.p ? cursor_open(db, sql.p, run, -1, c) : -1;
	buf_free(&sql);
	return rc;
}

int results_open_field(struct dbi *db, int64_t run, int field, struct result_cursor *c)
{
	return results_open_fields(db, run, &field, 1, c);
}

/* Field i of st's row (at column col) as resrow holds it: NaN for an
 * appended field not measured or a latency of no timed call (NULL:
 * results_open_field), mean and stddev in units. */
static double field_value(struct dbi_stmt *st, int col, int i)
{
	double v;

	if ((rv_appended[i] || rv_is_latency(i)) && dbi_column_type(st, col) == DBI_NULL)
		return NAN;
	v = (double)dbi_column_i64(st, col);
	return i == RV_mean_x1000 || i == RV_stddev_x1000 ? v / 1000.0 : v;
}

/* qsort: by initiator, then rep. */
static int by_init_rep(const void *a, const void *b)
{
	const struct resrow *x = a, *y = b;

	return x->init != y->init ? (x->init > y->init) - (x->init < y->init) : (x->rep > y->rep) - (x->rep < y->rep);
}

_Static_assert(RV_NCOL <= 64, "dbi_column_i64s reads at most 64 columns a call");

/* Row r from c's current row: every value field (one call for the row), or
 * only c->fields. */
static void row_read(struct result_cursor *c, struct resrow *r)
{
	int64_t v[RV_NCOL];
	uint64_t nulls;

	r->rep = dbi_column_int(c->st, RR_REP);
	r->init = dbi_column_int(c->st, RR_INIT);
	for (int i = 0; i < RV_N; i++)
		r->v[i] = NAN;
	if (c->nfields) {
		for (int i = 0; i < c->nfields; i++)
			r->v[c->fields[i]] = field_value(c->st, RR_FIRST_FIELD + i, c->fields[i]);
		/* ... and its flags, read beside them (RR_FLAGS) */
		r->v[RV_flags] = (double)dbi_column_i64(c->st, RR_FLAGS(c));
		return;
	}
	dbi_column_i64s(c->st, RR_FIRST_FIELD, RV_NCOL, v, &nulls);
	for (int i = 0; i < RV_NCOL; i++)
		/* as field_value: NaN for an appended field not measured, and
		 * for every latency of a repetition with no timed call; mean
		 * and stddev in units */
		r->v[i] = (rv_appended[i] && (nulls >> i & 1)) || (rv_is_latency(i) && v[RV_count] == 0) ? NAN
			: i == RV_mean_x1000 || i == RV_stddev_x1000 ? (double)v[i] / 1000.0 : (double)v[i];
}

int results_take(struct result_cursor *c, int64_t case_id, struct resrow **rows, size_t *n)
{
	size_t cap = 0;

	*rows = NULL;
	*n = 0;
	c->taken_flags = 0;
	while (c->more && dbi_column_i64(c->st, RR_CASE_ID) < case_id)
		step(c);
	for (; c->more && dbi_column_i64(c->st, RR_CASE_ID) == case_id; step(c)) {
		if (*n == cap) {
			struct resrow *p = realloc(*rows, (cap = cap ? cap * 2 : 16) * sizeof(**rows));

			if (!p)
				return -1;
			*rows = p;
		}
		count_flags(c);
		row_read(c, &(*rows)[(*n)++]);
	}
	if (*n > 1)
		qsort(*rows, *n, sizeof(**rows), by_init_rep);
	return 0;
}

int64_t results_next_case(const struct result_cursor *c)
{
	return c->more ? dbi_column_i64(c->st, RR_CASE_ID) : -1;
}

struct case_flags results_flags_taken(const struct result_cursor *c)
{
	return c->st ? c->flagged : (struct case_flags){ -1, -1 };
}

void results_close(struct result_cursor *c)
{
	dbi_finalize(c->st);
	c->st = NULL;
	c->more = 0;
}

int load_results(struct dbi *db, int64_t run, int64_t case_id, struct resrow **rows, size_t *n)
{
	struct result_cursor c;
	int rc;

	*rows = NULL;
	*n = 0;
	if (results_open(db, run, case_id, &c))
		return -1;
	rc = results_take(&c, case_id, rows, n);
	results_close(&c);
	return rc;
}

const char results_export_resume[] = "(r.case_id, r.rep, r.initiator) > (:k1, :k2, :k3)";
const int results_export_keycol[RESULTS_EXPORT_NKEYS] = { ER_CASE_ID, ER_REP, ER_INIT };

void results_export_sql(struct buf *sql)
{
	buf_addf(sql, "SELECT r.case_id, r.rep, r.initiator" RV_SQL_COLS_R " FROM results r "
		 "WHERE r.run_id = :run AND %%s ORDER BY r.case_id, r.rep, r.initiator LIMIT :limit");
}

/* delivery_used: the delivery the payload resolved (CASE key x_delivery_used,
 * never `auto`), as the API's cases name it; `delivery` is what was asked. */
#define EXPORT_DELIVERY_USED "COALESCE(json_extract(c.config, '$.x_delivery_used'), c.delivery)"

int export_cases_query(struct dbi *db, struct dbi_stmt **st, int64_t run, int64_t from, int max)
{
	if (*st)
		dbi_reset(*st);
	else {
		struct buf sql = { 0 };
		int rc;

		buf_addf(&sql, "SELECT c.case_id");
#define CASE_COLUMN(key) buf_addf(&sql, ", c." #key);
		CASE_COLUMNS
#undef CASE_COLUMN
		buf_addf(&sql, ", " EXPORT_DELIVERY_USED);
		for (unsigned a = 0; a < XCB_N_AXES; a++)
			if (results_export_jaxis(a))
				buf_addf(&sql, ", json_extract(c.config, '$.%s')", xcb_axes[a].key);
		buf_addf(&sql, " FROM cases c WHERE c.run_id = ?1 AND c.case_id >= ?2 "
			 "ORDER BY c.case_id LIMIT ?3");
		rc = sql.p ? dbi_prepare(db, sql.p, st) : DBI_ERROR;
		buf_free(&sql);
		if (rc != DBI_OK)
			return rc;
	}
	dbi_bind_i64(*st, 1, run);
	dbi_bind_i64(*st, 2, from);
	dbi_bind_i64(*st, 3, max);
	return DBI_OK;
}

int results_export_jaxis(unsigned a)
{
	return a < XCB_N_AXES && !xcb_axes[a].column && xcb_axes[a].role != XCB_ROLE_ID &&
	       xcb_axis_matches(xcb_axes[a].key, 0);
}

/* ---- histograms ---- */

/* Histograms are stored as chunks (migration 013): a row of
 * histogram_chunks holds the counts of buckets bucket0 .. bucket0+n-1,
 * zeros included, as chunkvals.h's text. Readers see the non-empty
 * buckets only, as when they were a row each. */
enum { HC_CASE_ID, HC_REP, HC_INIT, HC_BUCKET0, HC_COUNTS };

int histos_open(struct dbi *db, int64_t run, int64_t case_id, struct histo_cursor *c)
{
	memset(c, 0, sizeof(*c));
	if (dbi_prepare(db, "SELECT case_id, rep, initiator, bucket0, counts FROM histogram_chunks "
			       "WHERE run_id = ?1 AND (?2 < 0 OR case_id = ?2) "
			       "ORDER BY case_id, rep, initiator, bucket0", &c->st)) {
		c->st = NULL;
		return -1;
	}
	dbi_bind_i64(c->st, 1, run);
	dbi_bind_i64(c->st, 2, case_id);
	histo_step(c);
	return 0;
}

/* Appends the non-empty buckets of the chunk in st's row (columns at0:
 * its first bucket, text: its counts) to the arrays idx/cnt of *n
 * buckets, grown as needed (*cap): 0, or -1 out of memory or for a chunk
 * that does not read back. */
static int add_chunk(struct dbi_stmt *st, int at0, int text, uint32_t **idx, uint64_t **cnt,
		     size_t *n, size_t *cap)
{
	static __thread int64_t v[XCB_HISTO_CHUNK];
	int64_t first = dbi_column_i64(st, at0);
	int k = chunk_vals_get(dbi_column_text(st, text), v, XCB_HISTO_CHUNK);

	if (k < 0)
		return -1;
	for (int i = 0; i < k; i++) {
		if (!v[i])
			continue;
		if (*n == *cap) {
			size_t c = *cap ? *cap * 2 : 64;
			uint32_t *a = realloc(*idx, c * sizeof(*a));
			uint64_t *b;

			if (!a)
				return -1;
			*idx = a;
			b = realloc(*cnt, c * sizeof(*b));
			if (!b)
				return -1;
			*cnt = b;
			*cap = c;
		}
		(*idx)[*n] = (uint32_t)(first + i);
		(*cnt)[(*n)++] = (uint64_t)v[i];
	}
	return 0;
}

void histos_take(struct histo_cursor *c, int64_t case_id, histo_fn fn, void *ctx)
{
	while (c->more && dbi_column_i64(c->st, HC_CASE_ID) < case_id)
		histo_step(c);
	/* One group per (rep, initiator): it ends when the key or the case
	 * changes, or the rows end. Its chunks come in bucket order and
	 * never overlap, so its buckets do too. */
	while (c->more && dbi_column_i64(c->st, HC_CASE_ID) == case_id) {
		int rep = dbi_column_int(c->st, HC_REP), init = dbi_column_int(c->st, HC_INIT);
		size_t n = 0;

		for (; c->more && dbi_column_i64(c->st, HC_CASE_ID) == case_id &&
		       dbi_column_int(c->st, HC_REP) == rep && dbi_column_int(c->st, HC_INIT) == init;
		     histo_step(c))
			if (add_chunk(c->st, HC_BUCKET0, HC_COUNTS, &c->idx, &c->cnt, &n, &c->cap))
				return;
		fn(rep, init, c->idx, c->cnt, n, ctx);
	}
}

void histos_close(struct histo_cursor *c)
{
	dbi_finalize(c->st);
	free(c->idx);
	free(c->cnt);
	memset(c, 0, sizeof(*c));
}

/* A bucket while load_histogram sorts them. */
struct bucket {
	uint32_t idx;
	uint64_t cnt;
};

/* qsort's order of struct bucket: by index. */
static int bucket_cmp(const void *a, const void *b)
{
	uint32_t x = ((const struct bucket *)a)->idx, y = ((const struct bucket *)b)->idx;

	return (x > y) - (x < y);
}

/* Sorts the buckets idx/cnt (n) by index and sums those of one index
 * into one (several histograms summed): how many are left, or -1 out of
 * memory. */
static long merge_buckets(uint32_t *idx, uint64_t *cnt, size_t n)
{
	struct bucket *b = n ? malloc(n * sizeof(*b)) : NULL;
	size_t m = 0;

	if (n && !b)
		return -1;
	for (size_t i = 0; i < n; i++)
		b[i] = (struct bucket){ idx[i], cnt[i] };
	if (n)
		qsort(b, n, sizeof(*b), bucket_cmp);
	for (size_t i = 0; i < n; i++) {
		if (m && idx[m - 1] == b[i].idx) {
			cnt[m - 1] += b[i].cnt;
			continue;
		}
		idx[m] = b[i].idx;
		cnt[m++] = b[i].cnt;
	}
	free(b);
	return (long)m;
}

int load_histogram(struct dbi *db, int64_t run, int64_t cid, int rep, int init,
		   uint32_t **idx, uint64_t **cnt, size_t *n)
{
	struct dbi_stmt *st;
	size_t cap = 0;
	long m;
	int step;
	/* rep/init -1 = "all": prefer the payload's own merged chunks
	 * (65535), else sum the individual ones. (A stored chunk has a
	 * non-empty bucket, as a stored bucket row had.) */
	const char *sql =
		"WITH h AS (SELECT * FROM histogram_chunks WHERE run_id = ?1 AND case_id = ?2), "
		"r AS (SELECT * FROM h WHERE CASE WHEN ?3 >= 0 THEN rep = ?3 "
		"  WHEN EXISTS (SELECT 1 FROM h WHERE rep = 65535) THEN rep = 65535 ELSE rep != 65535 END), "
		"i AS (SELECT * FROM r WHERE CASE WHEN ?4 >= 0 THEN initiator = ?4 "
		"  WHEN EXISTS (SELECT 1 FROM r WHERE initiator = 65535) THEN initiator = 65535 "
		"  ELSE initiator != 65535 END) "
		"SELECT bucket0, counts FROM i ORDER BY rep, initiator, bucket0";

	*idx = NULL;
	*cnt = NULL;
	*n = 0;
	if (dbi_prepare(db, sql, &st))
		return -1;
	dbi_bind_i64(st, 1, run);
	dbi_bind_i64(st, 2, cid);
	dbi_bind_i64(st, 3, rep);
	dbi_bind_i64(st, 4, init);
	while ((step = dbi_step(st)) == DBI_ROW)
		if (add_chunk(st, 0, 1, idx, cnt, n, &cap))
			break;
	dbi_finalize(st);
	m = step == DBI_DONE ? merge_buckets(*idx, *cnt, *n) : -1;
	if (m < 0) {
		/* a read that failed part-way (or a chunk not read): not the
		 * buckets read so far, which look like a histogram */
		free(*idx);
		free(*cnt);
		*idx = NULL;
		*cnt = NULL;
		*n = 0;
		return -1;
	}
	*n = (size_t)m;
	return 0;
}

