/*
 * runs_db.c — the read-side SQL of runs, cases and events (see runs_db.h).
 * Column positions are named here, next to the SQL they index, and nowhere
 * else.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "runcounts.h"
#include "runs_db.h"
#include "xcb_schema.h"

/* A copy of column col's text, or NULL. */
static char *text_dup(struct dbi_stmt *st, int col)
{
	const char *s = dbi_column_text(st, col);

	return s ? strdup(s) : NULL;
}

/* ---- runs ---- */

/* The columns of a run row, in the order of RUN_COLS. */
enum { RC_ID, RC_TOKEN, RC_MACHINE, RC_MAC, RC_SUITE, RC_PARAMS, RC_LABEL, RC_NOTES, RC_STATUS,
       RC_SOURCE, RC_CREATED, RC_STARTED, RC_LAST_FRAME, RC_FINISHED, RC_FRAMES_RECEIVED,
       RC_FRAMES_EXPECTED, RC_DONE_STATUS, RC_CPUS, RC_TSC_KHZ, RC_ERROR, RC_HELLO, RC_LAB };
/* A tsc_khz of 0 is the payload's "no TSC rate found" (its HELLO sends
 * tsc_khz=0): read as NULL, so the run's JSON says null where its CSV
 * cell is empty and its ns figures are null (it said 0 beside them). */
#define RUN_COLS \
	"r.id, r.token, r.machine_id, m.mac, r.suite, r.params, r.label, r.notes, r.status, " \
	"r.source, r.created, r.started, r.last_frame, r.finished, r.frames_received, " \
	"r.frames_expected, r.done_status, r.cpus, NULLIF(r.tsc_khz, 0), r.error, r.hello, r.lab "
#define RUN_FROM " FROM runs r LEFT JOIN machines m ON m.id = r.machine_id "

/* The run row's stored values: column and field, for reading and freeing. */
#define RV_(col, field) { col, offsetof(struct run_row, field) }
static const struct {
	int col;
	size_t off;
} run_vals[] = {
	RV_(RC_MACHINE, machine_id), RV_(RC_MAC, mac), RV_(RC_SUITE, suite), RV_(RC_LABEL, label),
	RV_(RC_NOTES, notes), RV_(RC_STATUS, status), RV_(RC_SOURCE, source),
	RV_(RC_CREATED, created), RV_(RC_STARTED, started), RV_(RC_LAST_FRAME, last_frame),
	RV_(RC_FINISHED, finished), RV_(RC_FRAMES_RECEIVED, frames_received),
	RV_(RC_FRAMES_EXPECTED, frames_expected), RV_(RC_DONE_STATUS, done_status),
	RV_(RC_CPUS, cpus), RV_(RC_TSC_KHZ, tsc_khz), RV_(RC_ERROR, error), RV_(RC_LAB, lab),
};
#undef RV_
#define RUN_VAL(r, i) ((struct dbval *)((char *)(r) + run_vals[i].off))
#define NRUN_VALS (sizeof(run_vals) / sizeof(*run_vals))

/* r's stored columns from st's row, without its case counts
 * (runcounts_fill: a page counts its runs in one statement). */
static void run_row_fields(struct dbi_stmt *st, struct run_row *r)
{
	r->id = dbi_column_i64(st, RC_ID);
	r->token = text_dup(st, RC_TOKEN);
	r->params = text_dup(st, RC_PARAMS);
	r->hello = text_dup(st, RC_HELLO);
	for (size_t i = 0; i < NRUN_VALS; i++)
		dbval_read(st, run_vals[i].col, RUN_VAL(r, i));
}

void run_row_read(struct dbi_stmt *st, struct run_row *r)
{
	run_row_fields(st, r);
	/* on st's connection: a PostgreSQL result is already fetched whole,
	 * a SQLite statement may stay open beside another */
	runcounts_fill(dbi_db(st), r, 1);
}

void run_row_free(struct run_row *r)
{
	for (size_t i = 0; i < NRUN_VALS; i++)
		dbval_free(RUN_VAL(r, i));
	free(r->token);
	free(r->params);
	free(r->hello);
	memset(r, 0, sizeof(*r));
}

/* The first step of a one-row lookup: 1 a row, 0 none, -1 the query
 * failed. A failure is not "no such run": with the database down (a
 * PostgreSQL server restarting) a route must answer 503, not 404
 * (tests/t-pg-reader-restart.sh). */
static int step_found(struct dbi_stmt *st)
{
	int rc = dbi_step(st);

	return rc == DBI_ROW ? 1 : rc == DBI_DONE ? 0 : -1;
}

int run_get(struct dbi *db, int64_t id, struct run_row *r)
{
	struct dbi_stmt *st;
	int found;

	if (dbi_prepare(db, "SELECT " RUN_COLS RUN_FROM "WHERE r.id = ?", &st))
		return -1;
	dbi_bind_i64(st, 1, id);
	found = step_found(st);
	if (found == 1)
		run_row_read(st, r);
	dbi_finalize(st);
	return found;
}

int run_exists(struct dbi *db, int64_t id)
{
	struct dbi_stmt *st;
	int found;

	if (dbi_prepare(db, "SELECT 1 FROM runs WHERE id = ?", &st))
		return -1;
	dbi_bind_i64(st, 1, id);
	found = step_found(st);
	dbi_finalize(st);
	return found;
}

int case_exists(struct dbi *db, int64_t run, int64_t case_id)
{
	struct dbi_stmt *st;
	int found;

	if (dbi_prepare(db, "SELECT 1 FROM cases WHERE run_id = ?1 AND case_id = ?2", &st))
		return -1;
	dbi_bind_i64(st, 1, run);
	dbi_bind_i64(st, 2, case_id);
	found = step_found(st);
	dbi_finalize(st);
	return found;
}

/* 1 if needle is inside hay, ASCII letters in either case. */
static int icontains(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++)
		if (strncasecmp(hay, needle, n) == 0)
			return 1;
	return n == 0;
}

/* The WHERE clause of f; runs_bind binds it. One row a filter: whether f
 * sets it, and its condition. */
static void where(const struct run_filters *f, struct buf *b)
{
	const struct {
		int on;
		const char *sql;
	} conds[] = {
		{ f->machine != 0, " AND r.machine_id = :machine" },
		{ f->mac[0] != 0, " AND m.mac = :mac" },
		{ f->status != NULL, " AND r.status = :status" },
		{ f->verdict != 0, " AND r.done_status = :done_status" },
		{ f->suite != NULL, " AND r.suite = :suite" },
		{ f->label != NULL, " AND r.label = :label" },
		{ f->tag != NULL, " AND EXISTS (SELECT 1 FROM run_tags tt WHERE tt.run_id = r.id AND tt.tag = :tag)" },
		{ f->since != 0, " AND r.created >= :since" },
		{ f->token[0] != 0, " AND r.token = :token" },
		{ f->lab != NULL, " AND r.lab = :lab" },
	};

	buf_addf(b, " WHERE TRUE");
	for (size_t i = 0; i < sizeof(conds) / sizeof(conds[0]); i++)
		if (conds[i].on)
			buf_addf(b, "%s", conds[i].sql);
	if (!f->q)
		return;
	/* issue 25: labels as metadata (run_tags, run_meta: labels_db.h) */
	buf_addf(b, " AND (lower(COALESCE(r.label, '')) LIKE :q ESCAPE '\\' OR lower(COALESCE(r.notes, '')) LIKE :q ESCAPE '\\'"
		    " OR lower(COALESCE(r.suite, '')) LIKE :q ESCAPE '\\' OR lower(COALESCE(m.mac, '')) LIKE :q ESCAPE '\\'"
		    " OR lower(r.hello) LIKE :q ESCAPE '\\'"
		    " OR EXISTS (SELECT 1 FROM run_tags qt WHERE qt.run_id = r.id AND lower(qt.tag) LIKE :q ESCAPE '\\')"
		    " OR EXISTS (SELECT 1 FROM run_meta qm WHERE qm.run_id = r.id AND"
		    " lower(qm.key || '=' || qm.value) LIKE :q ESCAPE '\\')");
	/* A hypervisor is shown by its name (XCB_HYPERVISORS), stored by its
	 * signature: a q inside a name also finds that signature (runs_bind
	 * binds :qhvN, N the entry; :qhvbare for bare metal). */
	for (unsigned i = 0; i <= xcb_n_hypervisors; i++)
		if (icontains(i < xcb_n_hypervisors ? xcb_hypervisors[i].name : XCB_HV_BARE_METAL, f->q)) {
			if (i < xcb_n_hypervisors)
				buf_addf(b, " OR lower(r.hello) LIKE :qhv%u", i);
			else
				buf_addf(b, " OR r.hello LIKE :qhvbare");
		}
	buf_addf(b, ")");
}

/* Binds v to the named parameter if the statement has it. */
static void bind_text(struct dbi_stmt *st, const char *name, const char *v)
{
	int i = dbi_param_index(st, name);

	if (i)
		dbi_bind_text(st, i, v, -1);
}

void runs_bind(struct dbi_stmt *st, const struct run_filters *f)
{
	dbi_bind_named_i64(st, ":machine", f->machine);
	bind_text(st, ":mac", f->mac);
	bind_text(st, ":status", f->status);
	dbi_bind_named_i64(st, ":done_status", f->verdict - 1);
	bind_text(st, ":suite", f->suite);
	bind_text(st, ":label", f->label);
	bind_text(st, ":tag", f->tag);
	if (f->q) {
		/* "%q%" in lower case, LIKE's own % _ and the escape escaped */
		struct buf pat = { 0 };

		buf_addf(&pat, "%%");
		for (const char *c = f->q; *c; c++) {
			if (*c == '%' || *c == '_' || *c == '\\')
				buf_addf(&pat, "\\");
			buf_addf(&pat, "%c", *c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
		}
		buf_addf(&pat, "%%");
		bind_text(st, ":q", pat.p);
		buf_free(&pat);
		/* where()'s hypervisor terms: the HELLO's compact JSON (store.c) */
		for (unsigned i = 0; i < xcb_n_hypervisors; i++) {
			char name[16];
			struct buf sig = { 0 };

			snprintf(name, sizeof(name), ":qhv%u", i);
			buf_addf(&sig, "%%\"hypervisor\":\"%%");
			for (const char *c = xcb_hypervisors[i].signature; *c; c++)
				buf_addf(&sig, "%c", *c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
			buf_addf(&sig, "%%");
			bind_text(st, name, sig.p);
			buf_free(&sig);
		}
		bind_text(st, ":qhvbare", "%\"hypervisor\":\"\"%");
	}
	dbi_bind_named_i64(st, ":since", f->since);
	bind_text(st, ":token", f->token);
	bind_text(st, ":lab", f->lab);
	dbi_bind_named_i64(st, ":limit", f->limit);
	dbi_bind_named_i64(st, ":offset", f->offset);
}

#define RUNS_ORDER_BY " ORDER BY r.created DESC, r.id DESC"
#define RUNS_ORDER RUNS_ORDER_BY " LIMIT :limit OFFSET :offset"

int runs_list(struct dbi *db, const struct run_filters *f, run_fn fn, void *ctx, int64_t *total)
{
	struct buf q = { 0 }, c = { 0 };
	struct dbi_stmt *st = NULL, *cnt = NULL;
	struct run_row *rows = NULL;
	size_t n = 0, cap = 0;
	int rc = -1, step;

	*total = 0;
	buf_addf(&q, "SELECT " RUN_COLS RUN_FROM);
	where(f, &q);
	/* The page's limit (1..1000, runs_filter.c) written into the text: a
	 * PostgreSQL reader runs the text as a prepared statement, whose
	 * generic plan for LIMIT $1 (a limit it cannot see) was a nested loop
	 * rescanning machines once a run (an lseek each: ~40 % of the
	 * server's time for 1000 runs) instead of the hash join and sort it
	 * plans for a known limit. A few texts (the usual page sizes). */
	if (f->limit >= 0)
		buf_addf(&q, RUNS_ORDER_BY " LIMIT %lld OFFSET :offset", (long long)f->limit);
	else
		buf_addf(&q, RUNS_ORDER);
	buf_addf(&c, "SELECT count(*)" RUN_FROM);
	where(f, &c);
	if (!q.p || !c.p || dbi_prepare(db, q.p, &st) ||
	    dbi_prepare(db, c.p, &cnt))
		goto err_prepare;
	runs_bind(st, f);
	runs_bind(cnt, f);
	/* A read that fails (the store's error, mid-way) fails the list: it
	 * answered 200 with the runs read before it, a shorter list. */
	if (dbi_step(cnt) != DBI_ROW)
		goto err_prepare;
	*total = dbi_column_i64(cnt, 0);
	/* The whole page first, so that its case counts take one statement */
	while ((step = dbi_step(st)) == DBI_ROW) {
		if (n == cap) {
			/* sized once from the limit: doubling a 1000-run page
			 * copied ~0.6 MB per request (a third of its CPU) */
			size_t want = !cap && f->limit > 0 && f->limit <= 4096 ? (size_t)f->limit : 2 * cap + 64;
			struct run_row *p = realloc(rows, (cap = want) * sizeof(*rows));

			if (!p)
				goto err_rows;
			rows = p;
		}
		run_row_fields(st, &rows[n++]);
	}
	if (step != DBI_DONE)
		goto err_rows;
	runcounts_fill(db, rows, n);
	for (size_t i = 0; i < n; i++)
		fn(&rows[i], ctx);
	rc = 0;
err_rows:
	for (size_t i = 0; i < n; i++)
		run_row_free(&rows[i]);
	free(rows);
err_prepare:
	dbi_finalize(cnt);
	dbi_finalize(st);
	buf_free(&q);
	buf_free(&c);
	return rc;
}

const char runs_export_resume[] = "(r.created, r.id) < (:k1, :k2)";
const int runs_export_keycol[RUNS_EXPORT_NKEYS] = { RC_CREATED, RC_ID };

void runs_export_sql(const struct run_filters *f, struct buf *sql)
{
	buf_addf(sql, "SELECT " RUN_COLS RUN_FROM);
	where(f, sql);
	buf_addf(sql, " AND %%s" RUNS_ORDER);
}

/* ---- cases ---- */

enum { CC_CASE_ID, CC_FIRST_COLUMN };

int cases_open(struct dbi *db, int64_t run, struct case_cursor *c)
{
#define CASE_COLUMN(key) #key ", "
	if (dbi_prepare(db, "SELECT " XCB_SQL_CASE_ID ", " CASE_COLUMNS "config FROM cases "
			       "WHERE run_id = ? ORDER BY case_id", &c->st))
		return -1;
#undef CASE_COLUMN
	c->failed = 0;
	dbi_bind_i64(c->st, 1, run);
	return 0;
}

int cases_next(struct case_cursor *c, struct case_row *row)
{
	int col = CC_FIRST_COLUMN, rc;

	if (!c->st)
		return 0;
	if ((rc = dbi_step(c->st)) != DBI_ROW) {
		c->failed = rc != DBI_DONE;
		return 0;
	}
	row->case_id = dbi_column_i64(c->st, CC_CASE_ID);
#define CASE_COLUMN(key) dbval_read(c->st, col++, &row->key);
	CASE_COLUMNS
#undef CASE_COLUMN
	row->config = text_dup(c->st, col);
	return 1;
}

void case_row_free(struct case_row *c)
{
#define CASE_COLUMN(key) dbval_free(&c->key);
	CASE_COLUMNS
#undef CASE_COLUMN
	free(c->config);
	c->config = NULL;
}

void cases_close(struct case_cursor *c)
{
	dbi_finalize(c->st);
	c->st = NULL;
}

/* ---- events ---- */

enum { EC_SEQ, EC_KIND, EC_TEXT, EC_RECEIVED };

int events_list(struct dbi *db, int64_t run, const char *kind, int64_t after, int64_t limit,
		event_fn fn, void *ctx)
{
	struct dbi_stmt *st;
	int step;

	if (dbi_prepare(db, "SELECT seq, kind, text, received FROM events WHERE run_id = ?1 "
			       "AND (CAST(?2 AS TEXT) IS NULL OR kind = ?2) AND (CAST(?3 AS BIGINT) IS NULL OR seq > ?3) "
			       "ORDER BY seq LIMIT ?4", &st))
		return -1;
	dbi_bind_i64(st, 1, run);
	if (kind)
		dbi_bind_text(st, 2, kind, -1);
	if (after >= 0)
		dbi_bind_i64(st, 3, after);
	dbi_bind_i64(st, 4, limit);
	/* a read that fails mid-way fails the list (not a shorter one) */
	while ((step = dbi_step(st)) == DBI_ROW) {
		struct event_row e;

		dbval_read(st, EC_SEQ, &e.seq);
		dbval_read(st, EC_KIND, &e.kind);
		dbval_read(st, EC_TEXT, &e.text);
		dbval_read(st, EC_RECEIVED, &e.received);
		fn(&e, ctx);
		dbval_free(&e.seq);
		dbval_free(&e.kind);
		dbval_free(&e.text);
		dbval_free(&e.received);
	}
	dbi_finalize(st);
	return step == DBI_DONE ? 0 : -1;
}

int64_t events_count(struct dbi *db, int64_t run, const char *kind)
{
	struct dbi_stmt *st;
	int64_t n = 0;

	if (dbi_prepare(db, "SELECT count(*) FROM events WHERE run_id = ? AND kind = ?", &st))
		return 0;
	dbi_bind_i64(st, 1, run);
	dbi_bind_text(st, 2, kind, -1);
	if (dbi_step(st) == DBI_ROW)
		n = dbi_column_i64(st, 0);
	dbi_finalize(st);
	return n;
}
