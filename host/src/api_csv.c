/*
 * api_csv.c — the streamed CSV exports of runs: GET /api/v1/runs.csv (the
 * run list, same filters as /api/v1/runs) and GET /api/v1/runs/{id}.csv (one
 * row per RESULT). Queries and rows come from runs_db.c; csvstream.c pages
 * them out as the client reads.
 */
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "csvstream.h"
#include "routes.h"
#include "results_db.h"
#include "runs_db.h"
#include "runs_filter.h"
#include "xcb_proto.h"
#include "xcb_schema.h"

/* A text cell of a stored value (NULL: empty). */
static void csv_val(struct buf *o, const struct dbval *v)
{
	csv_str(o, v->s);
}

/* A number cell, empty where NULL. */
static void csv_i64_or_empty(struct buf *o, const struct dbval *v)
{
	if (v->type == DBI_NULL)
		csv_empty(o);
	else
		csv_i64(o, v->i);
}

/* A time cell (ISO), empty where NULL. */
static void csv_time(struct buf *o, const struct dbval *v)
{
	char t[32];

	csv_str(o, v->type == DBI_NULL ? NULL : iso_time(v->i, t, sizeof(t)));
}

/* csv_row_fn of runs.csv: one run (ctx: 1 if the client is an admin). */
static void runs_csv_row(struct dbi_stmt *st, struct buf *o, void *ctx)
{
	const int *admin = ctx;
	struct run_row r;
	char t[32];

	run_row_read(st, &r);
	csv_i64(o, r.id);
	csv_str(o, *admin ? r.token : NULL); /* admins only */
	csv_val(o, &r.mac);
	csv_val(o, &r.suite);
	csv_val(o, &r.label);
	csv_val(o, &r.status);
	csv_str(o, iso_time(r.created.i, t, sizeof(t)));
	csv_time(o, &r.finished);
	csv_i64(o, r.frames_received.i);
	csv_i64_or_empty(o, &r.frames_expected);
	csv_i64(o, r.cases);
	csv_end(o);
	run_row_free(&r);
}

/* The filters of a runs.csv export, owned by its stream (the request's
 * query strings are not guaranteed to outlive the handler). */
struct runs_csv_bind {
	struct run_filters f;
	char *status, *suite, *label, *q, *tag;
};

/* Binds the export's filters (struct runs_csv_bind). */
static void runs_csv_bind(struct dbi_stmt *st, void *ctx)
{
	runs_bind(st, &((struct runs_csv_bind *)ctx)->f);
}

/* Frees a struct runs_csv_bind and its strings. */
static void runs_csv_bind_free(void *ctx)
{
	struct runs_csv_bind *b = ctx;

	free(b->status);
	free(b->suite);
	free(b->label);
	free(b->q);
	free(b->tag);
	free(b);
}

/* strdup, NULL staying NULL. */
static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* GET /api/v1/runs.csv: the run list's filters, every run unless limit=. */
enum MHD_Result api_runs_csv(struct req *rq)
{
	struct dbi *db = rdb();
	struct run_filters f;
	struct buf sql = { 0 };
	const char *bad = run_filters_parse(rq, &f);
	struct csv_query q = { .db = db, .resume = runs_export_resume, .nkeys = RUNS_EXPORT_NKEYS,
			       .bind = runs_csv_bind, .bind_free = runs_csv_bind_free };
	struct runs_csv_bind *b;
	struct MHD_Response *r;
	int *admin;

	if (bad)
		return reply_error(rq, 400, "%s", bad);
	if (!db)
		return reply_error(rq, 503, "database unavailable");
	if (!qarg(rq, "limit"))
		f.limit = -1; /* CSV: everything unless asked otherwise */
	memcpy(q.keycol, runs_export_keycol, sizeof(runs_export_keycol));
	runs_export_sql(&f, &sql);
	b = calloc(1, sizeof(*b));
	admin = malloc(sizeof(*admin));
	if (!b || !admin || !sql.p)
		goto err_alloc;
	b->f = f;
	b->f.status = b->status = dup_or_null(f.status);
	b->f.suite = b->suite = dup_or_null(f.suite);
	b->f.label = b->label = dup_or_null(f.label);
	b->f.q = b->q = dup_or_null(f.q);
	b->f.tag = b->tag = dup_or_null(f.tag);
	q.sql = sql.p;
	q.bind_ctx = b;
	q.limit = f.limit;
	q.offset = f.offset;
	*admin = is_admin(rq);
	r = csv_stream(&q, "id,token,machine_mac,suite,label,status,created,finished,frames_received,"
		       "frames_expected,cases\r\n", runs_csv_row, admin, free);
	buf_free(&sql); /* prepared by now */
	if (!r)
		return reply_error(rq, 500, "query failed: %s", dbi_errmsg(db));
	return reply_response(rq, 200, r);
err_alloc:
	free(b);
	free(admin);
	buf_free(&sql);
	return MHD_NO;
}

struct run_csv_ctx {
	double tsc_khz;
};

/* The case columns of the run's CSV: the schema's matched axes that have
 * their own SQL column (kind ... work_us); other keys stay in the config. */
#define CSV_AXIS(key) xcb_axis_matches(#key, 0)

/* Stored in 1/1000 cycle, exported in cycles (3 decimals) as mean, stddev. */
static const char *csv_scaled(int i)
{
	return i == RV_mean_x1000 ? "mean" : i == RV_stddev_x1000 ? "stddev" : NULL;
}

/* The header: ids, case columns, rep, initiator, the RESULT fields (v1
 * first), the ns columns after the v1 ones, then the derived ones. */
static void run_csv_header(struct buf *h)
{
	buf_addf(h, "run_id,case_id");
#define CASE_COLUMN(key) if (CSV_AXIS(key)) buf_addf(h, "," #key);
	CASE_COLUMNS
#undef CASE_COLUMN
	buf_addf(h, ",rep,initiator");
	for (int i = 0; i < RV_NCOL; i++)
		if (!rv_appended[i])
			buf_addf(h, ",%s", csv_scaled(i) ? csv_scaled(i) : rv_names[i]);
	buf_addf(h, ",tsc_khz,p50_ns,p99_ns");
	for (int i = 0; i < RV_NCOL; i++)
		if (rv_appended[i])
			buf_addf(h, ",%s", rv_names[i]);
	buf_addf(h, ",ipi_ratio,verified,delivery_requested");
	/* then every matched axis kept only in the case's config (issue 25:
	 * every axis the schema matches on is a column) */
	for (unsigned a = 0; a < XCB_N_AXES; a++)
		if (results_export_jaxis(a))
			buf_addf(h, ",%s", xcb_axes[a].key);
	buf_addf(h, "\r\n");
}

/* csv_row_fn of /runs/{id}.csv: one RESULT with its case's columns. */
static void run_csv_row(struct dbi_stmt *st, struct buf *o, void *vctx)
{
	struct run_csv_ctx *c = vctx;
	struct export_row r;
	const struct dbval *v = r.v;
	const char *init;

	export_row_read(st, &r);
	csv_i64(o, r.run_id);
	csv_i64(o, r.case_id);
#define CASE_COLUMN(key) if (CSV_AXIS(key)) csv_val(o, &r.key);
	CASE_COLUMNS
#undef CASE_COLUMN
	csv_i64(o, r.rep);
	/* all (65535), a pseudo-initiator by its proto name, or a CPU */
	init = xcb_initiator_name((unsigned)r.initiator);
	if (init)
		csv_str(o, init);
	else
		csv_i64(o, r.initiator);
	for (int i = 0; i < RV_NCOL; i++) {
		if (rv_appended[i])
			continue;
		if (csv_scaled(i))
			csv_f(o, v[i].i / 1000.0, 3);
		else
			csv_i64(o, v[i].i);
	}
	if (c->tsc_khz > 0) {
		csv_f(o, c->tsc_khz, 0);
		csv_f(o, v[RV_p50].i * 1e6 / c->tsc_khz, 1);
		csv_f(o, v[RV_p99].i * 1e6 / c->tsc_khz, 1);
	} else {
		csv_empty(o);
		csv_empty(o);
		csv_empty(o);
	}
	/* the appended fields (migration 003): empty when not reported */
	for (int i = 0; i < RV_NCOL; i++)
		if (rv_appended[i])
			csv_i64_or_empty(o, &v[i]);
	if (v[RV_ipi_floor].i > 0) /* ipi_ratio = p50 / ipi_floor */
		csv_f(o, (double)v[RV_p50].i / (double)v[RV_ipi_floor].i, 3);
	else
		csv_empty(o);
	/* verified: TLB cases whose no-flush control saw nothing are "unverified" */
	if (v[RV_control_runs].type == DBI_NULL || v[RV_control_runs].i == 0)
		csv_empty(o);
	else
		csv_str(o, v[RV_control_stale].i > 0 ? "verified" : "unverified");
	csv_val(o, &r.delivery_requested);
	for (unsigned a = 0; a < XCB_N_AXES; a++)
		if (results_export_jaxis(a))
			csv_val(o, &r.jaxis[a]);
	csv_end(o);
	export_row_free(&r);
}

/* Binds :run (ctx: the run id). */
static void run_csv_bind(struct dbi_stmt *st, void *ctx)
{
	dbi_bind_i64(st, dbi_param_index(st, ":run"), *(int64_t *)ctx);
}

/* GET /api/v1/runs/{id}.csv: one row per RESULT (host/API.md "CSV"). */
enum MHD_Result api_run_csv(struct req *rq, int64_t id)
{
	struct dbi *db = rdb();
	struct run_csv_ctx *c;
	struct MHD_Response *r;
	struct run_row run;
	struct buf sql = { 0 }, header = { 0 };
	int64_t *bound;
	struct csv_query q = {
		.db = db, .limit = -1, .bind = run_csv_bind, .bind_free = free,
		.resume = results_export_resume, .nkeys = RESULTS_EXPORT_NKEYS,
	};

	if (!db)
		return reply_error(rq, 503, "database unavailable");
	if (run_get(db, id, &run) != 1)
		return reply_error(rq, 404, "run %lld not found", (long long)id);
	memcpy(q.keycol, results_export_keycol, sizeof(results_export_keycol));
	results_export_sql(&sql);
	c = calloc(1, sizeof(*c));
	bound = malloc(sizeof(*bound));
	if (!c || !bound || !sql.p)
		goto err_alloc;
	*bound = id;
	q.bind_ctx = bound;
	q.sql = sql.p;
	c->tsc_khz = run.tsc_khz.d;
	run_row_free(&run);
	run_csv_header(&header);
	r = csv_stream(&q, header.p ? header.p : "",
		run_csv_row, c, free);
	buf_free(&sql); /* prepared by now */
	buf_free(&header);
	if (!r)
		return reply_error(rq, 500, "query failed: %s", dbi_errmsg(db));
	return reply_response(rq, 200, r);
err_alloc:
	run_row_free(&run);
	free(c);
	free(bound);
	buf_free(&sql);
	return MHD_NO;
}
