/*
 * api_csv.c — the streamed CSV exports of runs: GET /api/v1/runs.csv (the
 * run list, same filters as /api/v1/runs) and GET /api/v1/runs/{id}.csv (one
 * row per RESULT). Queries and rows come from runs_db.c; csvstream.c pages
 * them out as the client reads.
 */
#include <stdlib.h>
#include <string.h>

#include "api_runs.h"
#include "csv.h"
#include "csvstream.h"
#include "routes.h"
#include "results_db.h"
#include "runs_db.h"
#include "runs_filter.h"
#include "runs_json.h"
#include "sqljson.h"
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
	json_t *hello;
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
	/* what the run list shows of it: its lab and its HELLO's facts */
	csv_val(o, &r.lab);
	hello = json_text_or_empty(r.hello);
	for (int i = 0; i < RUN_SUMMARY_NFACTS; i++)
		csv_str(o, json_string_value(json_object_get(hello, run_summary_facts[i])));
	json_decref(hello);
	csv_end(o);
	run_row_free(&r);
}

/* runs.csv's header: the run's columns, its lab, the summary facts. */
static void runs_csv_header(struct buf *h)
{
	buf_addf(h, "id,token,machine_mac,suite,label,status,created,finished,frames_received,frames_expected,"
		 "cases,lab");
	for (int i = 0; i < RUN_SUMMARY_NFACTS; i++)
		buf_addf(h, ",%s", run_summary_facts[i]);
	buf_addf(h, "\r\n");
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
	struct buf sql = { 0 }, header = { 0 };
	const char *bad = run_filters_parse(rq, &f);
	enum MHD_Result res;
	struct csv_query q = { .db = db, .resume = runs_export_resume, .nkeys = RUNS_EXPORT_NKEYS,
			       .bind = runs_csv_bind, .bind_free = runs_csv_bind_free };
	struct runs_csv_bind *b;
	struct MHD_Response *r;
	int *admin;

	if (bad)
		return reply_error(rq, 400, "%s", bad);
	if (!db)
		return reply_error(rq, 503, "database unavailable");
	if (run_filters_refused(rq, db, &f, &res))
		return res;
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
	runs_csv_header(&header);
	r = header.p ? csv_stream(&q, header.p, runs_csv_row, admin, free) : NULL;
	buf_free(&header);
	buf_free(&sql); /* prepared by now */
	if (!r)
		return reply_db_failed(rq, db, NULL);
	return reply_response(rq, 200, r);
err_alloc:
	free(b);
	free(admin);
	buf_free(&sql);
	return MHD_NO;
}

/* The case columns of the run's CSV: the schema's matched axes that have
 * their own SQL column (kind ... work_us); other keys stay in the config. */
#define CSV_AXIS(key) xcb_axis_matches(#key, 0)

/* Stored in 1/1000 cycle, exported in cycles (3 decimals) as mean, stddev. */
static const char *csv_scaled(int i)
{
	return i == RV_mean_x1000 ? "mean" : i == RV_stddev_x1000 ? "stddev" : NULL;
}

/* Cases whose cells one query loads (the cache follows the export's
 * case_id order, so memory is this many cases whatever the run's size). */
#define CASES_BLOCK 256

/* One case's preformatted cells: the case columns (between case_id and
 * rep) and the trailing ones (delivery_used, the config-only axes), as
 * offsets into run_csv_ctx.cells. */
struct case_cells {
	int64_t id;
	size_t mid, midlen, tail, taillen;
	int raw;        /* kind=raw: a floor itself, no ipi_ratio */
};

/* The per-column plan of one run's export, fixed before the first row:
 * what is the same on every row is formatted once. */
struct run_csv_ctx {
	struct dbi *db;           /* the stream's connection: the cases' query */
	int64_t run;
	double tsc_khz;
	struct buf lead;          /* "run_id," */
	struct buf tsc;           /* the tsc_khz cell */
	struct buf nomid, notail; /* the cells of a result whose case is missing */
	struct dbi_stmt *cases;   /* export_cases_query's statement */
	struct case_cells c[CASES_BLOCK];
	int n;                    /* cases loaded in c[] */
	int64_t lo, hi;           /* case ids c[] answers for (absent: no case) */
	const struct case_cells *cur;
	struct buf cells;
};

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
	buf_addf(h, ",ipi_ratio,verified,delivery_used");
	/* then every matched axis kept only in the case's config (issue 25:
	 * every axis the schema matches on is a column) */
	for (unsigned a = 0; a < XCB_N_AXES; a++)
		if (results_export_jaxis(a))
			buf_addf(h, ",%s", xcb_axes[a].key);
	buf_addf(h, "\r\n");
}

/* Loads the cells of up to CASES_BLOCK cases from case `from` on. On a
 * query error none is loaded: the rows of that case get empty case cells
 * (as a result without its case would). */
static void cases_load(struct run_csv_ctx *c, struct dbi *db, int64_t from)
{
	c->n = 0;
	c->cells.len = 0;
	c->lo = c->hi = from;
	if (export_cases_query(db, &c->cases, c->run, from, CASES_BLOCK) != DBI_OK)
		return;
	while (c->n < CASES_BLOCK && dbi_step(c->cases) == DBI_ROW) {
		struct case_cells *k = &c->c[c->n++];
		int col = EC_FIRST_AXIS;

		k->id = dbi_column_i64(c->cases, EC_CASE_ID);
		k->mid = c->cells.len;
		k->raw = 0;
#define CASE_COLUMN(key) {                                                                   \
		const char *t_ = dbi_column_text(c->cases, col);                             \
		if (CSV_AXIS(key))                                                           \
			csv_str(&c->cells, t_);                                              \
		if (strcmp(#key, "kind") == 0)                                               \
			k->raw = t_ && strcmp(t_, XCB_NAME(kind, XCB_KIND_RAW)) == 0;        \
	}                                                                                    \
	col++;
		CASE_COLUMNS
#undef CASE_COLUMN
		k->midlen = c->cells.len - k->mid;
		k->tail = c->cells.len;
		csv_str(&c->cells, dbi_column_text(c->cases, EC_DELIVERY_USED));
		col = EC_FIRST_JAXIS;
		for (unsigned a = 0; a < XCB_N_AXES; a++)
			if (results_export_jaxis(a))
				csv_str(&c->cells, dbi_column_text(c->cases, col++));
		k->taillen = c->cells.len - k->tail;
	}
	c->hi = c->n == CASES_BLOCK ? c->c[c->n - 1].id : INT64_MAX;
	dbi_reset(c->cases); /* ends its read */
}

/* The cells of case id, NULL if the run has no such case. */
static const struct case_cells *case_find(struct run_csv_ctx *c, struct dbi *db, int64_t id)
{
	int lo = 0, hi;

	if (c->cur && c->cur->id == id)
		return c->cur;
	if (id < c->lo || id > c->hi)
		cases_load(c, db, id);
	for (hi = c->n; lo < hi;) { /* c[] is ordered by id */
		int m = (lo + hi) / 2;

		if (c->c[m].id < id)
			lo = m + 1;
		else
			hi = m;
	}
	c->cur = lo < c->n && c->c[lo].id == id ? &c->c[lo] : NULL;
	return c->cur;
}

/* The plan's constant cells (ctx's run and tsc_khz set). */
static int run_csv_plan(struct run_csv_ctx *c)
{
	csv_i64(&c->lead, c->run);
	if (c->tsc_khz > 0)
		csv_f(&c->tsc, c->tsc_khz, 0);
	else
		csv_empty(&c->tsc);
#define CASE_COLUMN(key) if (CSV_AXIS(key)) csv_empty(&c->nomid);
	CASE_COLUMNS
#undef CASE_COLUMN
	csv_empty(&c->notail);
	for (unsigned a = 0; a < XCB_N_AXES; a++)
		if (results_export_jaxis(a))
			csv_empty(&c->notail);
	c->lo = 1;
	c->hi = 0; /* nothing loaded */
	return c->lead.p && c->tsc.p && c->notail.p ? 0 : -1;
}

/* Frees a struct run_csv_ctx. */
static void run_csv_ctx_free(void *ctx)
{
	struct run_csv_ctx *c = ctx;

	dbi_finalize(c->cases);
	buf_free(&c->lead);
	buf_free(&c->tsc);
	buf_free(&c->nomid);
	buf_free(&c->notail);
	buf_free(&c->cells);
	free(c);
}

/* The columns of the export's rows, all numbers: the key, then the
 * RESULT fields (csv_stream_ints reads at most 64). */
#define ROW_NUMS (ER_FIRST_FIELD + RV_NCOL)
_Static_assert(ROW_NUMS <= 64, "csv_stream_ints reads at most 64 columns");

/* The RESULT fields whose 0 proto defines as "not measured": the floors
 * (ipi_floor, floor_paired, ratio_paired_x1000), null in the run's JSON
 * (STATS, rep_ipi_floor, rep_floor_paired). */
static int zero_is_none(int i)
{
	return i == RV_ipi_floor || i == RV_floor_paired || i == RV_ratio_paired_x1000;
}

/* csv_ints_fn of /runs/{id}.csv: one RESULT (r: its ROW_NUMS numbers)
 * with its case's cells, written in place (buf_room once per stretch of
 * cells, csv_put_*: no printf, no per-cell copy). */
static void run_csv_row(const int64_t *r, uint64_t nulls, struct buf *o, void *vctx)
{
	struct run_csv_ctx *c = vctx;
	const int64_t *v = r + ER_FIRST_FIELD;
	const struct case_cells *k;
	const char *name;
	char *p;

	k = case_find(c, c->db, r[ER_CASE_ID]);
	/* run_id, case_id, the case's cells, rep */
	p = buf_room(o, c->lead.len + 2 * CSV_NUM_MAX + (k ? k->midlen : c->nomid.len));
	if (!p)
		return;
	p = mempcpy(p, c->lead.p, c->lead.len);
	p = csv_put_i64(p, r[ER_CASE_ID]);
	p = k ? mempcpy(p, c->cells.p + k->mid, k->midlen) : mempcpy(p, c->nomid.p, c->nomid.len);
	buf_wrote(o, csv_put_i64(p, r[ER_REP]));
	/* all (65535), a pseudo-initiator by its proto name, or a CPU */
	name = xcb_initiator_name((unsigned)r[ER_INIT]);
	if (name)
		csv_str(o, name);
	else
		csv_i64(o, r[ER_INIT]);
	/* the v1 fields (a NULL reads 0, as it always has; the latencies of a
	 * repetition with no timed call are empty: rv_is_latency), tsc_khz */
	p = buf_room(o, RV_NCOL * CSV_NUM_MAX + c->tsc.len);
	if (!p)
		return;
	for (int i = 0; i < RV_NCOL; i++)
		if (!rv_appended[i]) {
			if (v[RV_count] == 0 && rv_is_latency(i))
				*p++ = ',';
			else
				p = csv_scaled(i) ? csv_put_milli(p, v[i]) : csv_put_i64(p, v[i]);
		}
	buf_wrote(o, mempcpy(p, c->tsc.p, c->tsc.len));
	if (c->tsc_khz > 0 && v[RV_count] > 0) {
		csv_f(o, v[RV_p50] * 1e6 / c->tsc_khz, 1);
		csv_f(o, v[RV_p99] * 1e6 / c->tsc_khz, 1);
	} else {
		csv_empty(o);
		csv_empty(o);
	}
	/* the appended fields (migration 003): empty when not reported, and
	 * a floor of 0, which proto says is "not measured" (the JSON's null,
	 * as the empty tsc_khz cell is): a 0 read as a floor divides by it */
	p = buf_room(o, RV_NCOL * CSV_NUM_MAX);
	if (!p)
		return;
	for (int i = 0; i < RV_NCOL; i++)
		if (rv_appended[i]) {
			if ((nulls >> (ER_FIRST_FIELD + i) & 1) || (v[i] == 0 && zero_is_none(i)))
				*p++ = ',';
			else
				p = csv_put_i64(p, v[i]);
		}
	buf_wrote(o, p);
	/* ipi_ratio = p50 / ipi_floor; none for a floor case itself (kind=raw:
	 * its RESULT carries the boot's HELLO floor, another moment's) */
	if (v[RV_ipi_floor] > 0 && v[RV_count] > 0 && !(k && k->raw))
		csv_f(o, (double)v[RV_p50] / (double)v[RV_ipi_floor], 3);
	else
		csv_empty(o);
	/* verified: TLB cases whose no-flush control saw nothing are
	 * "unverified" (a NULL control_runs reads as 0: no control) */
	if (v[RV_control_runs] == 0)
		csv_empty(o);
	else
		csv_str(o, v[RV_control_stale] > 0 ? "verified" : "unverified");
	if (k)
		buf_add(o, c->cells.p + k->tail, k->taillen);
	else
		buf_add(o, c->notail.p, c->notail.len);
	csv_end(o);
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
	int found;
	struct csv_query q = {
		.db = db, .limit = -1, .bind = run_csv_bind, .bind_free = free,
		.resume = results_export_resume, .nkeys = RESULTS_EXPORT_NKEYS,
	};

	if (!db)
		return reply_error(rq, 503, "database unavailable");
	if ((found = run_get(db, id, &run)) != 1)
		return reply_no_run(rq, id, found);
	memcpy(q.keycol, results_export_keycol, sizeof(results_export_keycol));
	results_export_sql(&sql);
	c = calloc(1, sizeof(*c));
	bound = malloc(sizeof(*bound));
	if (!c || !bound || !sql.p)
		goto err_alloc;
	*bound = id;
	q.bind_ctx = bound;
	q.sql = sql.p;
	c->db = db;
	c->run = id;
	c->tsc_khz = run.tsc_khz.d;
	run_row_free(&run);
	if (run_csv_plan(c)) {
		run_csv_ctx_free(c);
		free(bound);
		buf_free(&sql);
		return MHD_NO;
	}
	run_csv_header(&header);
	r = csv_stream_ints(&q, ROW_NUMS, header.p ? header.p : "", run_csv_row, c, run_csv_ctx_free);
	buf_free(&sql); /* prepared by now */
	buf_free(&header);
	if (!r)
		return reply_db_failed(rq, db, NULL);
	return reply_response(rq, 200, r);
err_alloc:
	run_row_free(&run);
	free(c);
	free(bound);
	buf_free(&sql);
	return MHD_NO;
}
