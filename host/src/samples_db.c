/* samples_db.c — the read-side SQL of sample_chunks (see samples_db.h). */
#include <stdio.h>

#include "chunkvals.h"
#include "samples_db.h"

/* The columns of every statement here, in this order. */
enum { SC_CASE_ID, SC_REP, SC_INIT, SC_IDX0, SC_N, SC_VALS };

/* The primary key's order, (run_id, case_id, rep, initiator, idx0): an
 * index scan with no sort on either engine. */
#define SAMPLES_ORDER " ORDER BY case_id, rep, initiator, idx0"

const char samples_export_resume[] = "(case_id, rep, initiator, idx0) > (:k1, :k2, :k3, :k4)";
const int samples_export_keycol[SAMPLES_EXPORT_NKEYS] = { SC_CASE_ID, SC_REP, SC_INIT, SC_IDX0 };

/* The statement's text up to its WHERE's filters: only those sel sets, so
 * that each engine sees plain key equalities (its index) and no
 * "? < 0 OR" to plan around. */
static void select_where(const struct samples_sel *sel, struct buf *sql)
{
	buf_addf(sql, "SELECT case_id, rep, initiator, idx0, n, vals FROM sample_chunks WHERE run_id = :run%s%s%s",
		 sel->case_id >= 0 ? " AND case_id = :case" : "", sel->rep >= 0 ? " AND rep = :rep" : "",
		 sel->init >= 0 ? " AND initiator = :init" : "");
}

void samples_export_sql(const struct samples_sel *sel, struct buf *sql)
{
	select_where(sel, sql);
	buf_addf(sql, " AND %%s" SAMPLES_ORDER " LIMIT :limit");
}

void samples_bind(struct dbi_stmt *st, const struct samples_sel *sel)
{
	dbi_bind_named_i64(st, ":run", sel->run);
	dbi_bind_named_i64(st, ":case", sel->case_id);
	dbi_bind_named_i64(st, ":rep", sel->rep);
	dbi_bind_named_i64(st, ":init", sel->init);
}

int samples_open(struct dbi *db, const struct samples_sel *sel, struct samples_cursor *c)
{
	struct buf sql = { 0 };
	int rc;

	c->st = NULL;
	select_where(sel, &sql);
	buf_addf(&sql, SAMPLES_ORDER);
	rc = sql.p && dbi_prepare(db, sql.p, &c->st) == DBI_OK ? 0 : -1;
	buf_free(&sql);
	if (rc) {
		c->st = NULL;
		return -1;
	}
	samples_bind(c->st, sel);
	return 0;
}

void samples_row_read(struct dbi_stmt *st, struct sample_chunk *k)
{
	k->case_id = dbi_column_i64(st, SC_CASE_ID);
	k->rep = dbi_column_int(st, SC_REP);
	k->init = dbi_column_int(st, SC_INIT);
	k->idx0 = dbi_column_i64(st, SC_IDX0);
	k->n = dbi_column_i64(st, SC_N);
}

int samples_next(struct samples_cursor *c, struct sample_chunk *k)
{
	int rc = dbi_step(c->st);

	if (rc == DBI_ROW) {
		samples_row_read(c->st, k);
		return 1;
	}
	return rc == DBI_DONE ? 0 : -1;
}

int samples_row_vals(struct dbi_stmt *st, int64_t *v)
{
	int n = chunk_vals_get(dbi_column_text(st, SC_VALS), v, SAMPLES_CHUNK_MAX);

	/* The store writes n values (chunkvals.h); a text holding another
	 * number of them is not what the careful path stored. */
	return n >= 0 && n == dbi_column_i64(st, SC_N) ? 0 : -1;
}

void samples_close(struct samples_cursor *c)
{
	dbi_finalize(c->st);
	c->st = NULL;
}
