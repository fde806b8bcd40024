/*
 * api_samples.c — the routes that read a run's raw samples back (the
 * SAMPLES frames, stored as chunks: migration 011): a case's streams as
 * JSON (samples_json.c) and the run's samples as a streamed CSV, one row a
 * sample (csvstream.c). Chunks come from samples_db.c.
 */
#include <stdlib.h>
#include <string.h>

#include "api_runs.h"
#include "csv.h"
#include "csvstream.h"
#include "routes.h"
#include "runs_db.h"
#include "samples_db.h"
#include "samples_json.h"
#include "xcb_schema.h"

/* The 404 of a case the run does not have (found: case_exists's 0), or
 * the 503 of a failed look (-1). */
static enum MHD_Result reply_no_case(struct req *rq, int64_t id, int64_t cid, int found)
{
	if (found < 0)
		return reply_error(rq, 503, "database unavailable");
	return reply_error(rq, 404, "run %lld case %lld not found", (long long)id, (long long)cid);
}

/* GET /api/v1/runs/{id}/cases/{case}/samples?rep=&initiator=&limit= */
enum MHD_Result api_samples(struct req *rq, int64_t id, int64_t cid)
{
	const char *lim = qarg(rq, "limit");
	struct samples_sel sel = { .run = id, .case_id = cid };
	struct dbi *db = rdb();
	struct buf o = { 0 };
	struct run_row r;
	uint64_t limit = SAMPLES_JSON_MAX;
	enum MHD_Result res;
	int found, bad;

	if (rep_init_args(rq, &sel.rep, &sel.init, &res))
		return res;
	if (lim && (parse_u64(lim, &limit) || limit > SAMPLES_JSON_MAX))
		return reply_error(rq, 400, "limit: expected 0..%d samples, not '%s'", SAMPLES_JSON_MAX, lim);
	if (!db)
		return reply_error(rq, 503, "database unavailable");
	if ((found = run_get(db, id, &r)) != 1)
		return reply_no_run(rq, id, found);
	if ((found = case_exists(db, id, cid)) != 1) {
		run_row_free(&r);
		return reply_no_case(rq, id, cid, found);
	}
	bad = samples_json(&o, db, &sel, &r.tsc_khz, (int64_t)limit);
	run_row_free(&r);
	if (bad) {
		buf_free(&o);
		return reply_db_failed(rq, db, NULL);
	}
	return reply_buf(rq, 200, "application/json", &o);
}

/* The export's header: the row key the samples share with RESULT rows
 * (xcb_schema.h's KEY fields: case_id, rep, initiator), then the index in
 * the stream and the value. */
#define SAMPLES_KEY_IF_KEY(...) __VA_ARGS__
#define SAMPLES_KEY_IF_V1(...)
#define SAMPLES_KEY_IF_PAD(...)
#define SAMPLES_KEY_IF_APPENDED(...)
#define SAMPLES_KEY_(name, bits, part) SAMPLES_KEY_IF_##part(#name ",")
static const char samples_csv_header[] = XCB_RESULT_FIELDS(SAMPLES_KEY_) "idx,cycles\r\n";

/* Chunk rows a block of the export asks for: at most 64 x 358 samples
 * (~0.5 MiB of CSV, as a block of the run CSV), 64 x 64 from xcb-gen. */
#define SAMPLES_BLOCK_CHUNKS 64

/* What the export's rows need: the chunk's values and its rows' key cells. */
struct samples_csv_ctx {
	int64_t v[SAMPLES_CHUNK_MAX];
	struct buf key;
};

/* Frees a struct samples_csv_ctx. */
static void samples_csv_ctx_free(void *ctx)
{
	struct samples_csv_ctx *c = ctx;

	buf_free(&c->key);
	free(c);
}

/* csv_row_fn of samples.csv: one chunk, a record for each of its values
 * (key cells formatted once, the rest in place). A chunk whose text does
 * not read back gives none: its indexes are missing, as in the JSON. */
static void samples_csv_row(struct dbi_stmt *st, struct buf *o, void *vctx)
{
	struct samples_csv_ctx *c = vctx;
	struct sample_chunk k;
	const char *name;
	char *p;

	samples_row_read(st, &k);
	if (samples_row_vals(st, c->v))
		return;
	c->key.len = 0;
	csv_i64(&c->key, k.case_id);
	csv_i64(&c->key, k.rep);
	name = xcb_initiator_name((unsigned)k.init); /* as the run CSV names it */
	if (name)
		csv_str(&c->key, name);
	else
		csv_i64(&c->key, k.init);
	if (!c->key.p || !(p = buf_room(o, (size_t)k.n * (c->key.len + 2 * CSV_NUM_MAX + 1))))
		return;
	for (int64_t i = 0; i < k.n; i++) {
		p = mempcpy(p, c->key.p, c->key.len);
		p = csv_put_i64(p, k.idx0 + i);
		p = csv_put_i64(p, c->v[i]);
		p[-1] = '\r'; /* the record's last ',' (csv_end's CRLF) */
		*p++ = '\n';
	}
	buf_wrote(o, p);
}

/* Binds the export's selection (a struct samples_sel). */
static void samples_csv_bind(struct dbi_stmt *st, void *ctx)
{
	samples_bind(st, ctx);
}

/* GET /api/v1/runs/{id}/samples.csv?case=&rep=&initiator=: every sample
 * the filters select, in (case, rep, initiator, idx) order. */
enum MHD_Result api_samples_csv(struct req *rq, int64_t id)
{
	const char *cases = qarg(rq, "case");
	struct samples_sel sel = { .run = id, .case_id = -1 }, *bound;
	struct csv_query q = { .limit = -1, .resume = samples_export_resume, .nkeys = SAMPLES_EXPORT_NKEYS,
			       .bind = samples_csv_bind, .bind_free = free, .block_rows = SAMPLES_BLOCK_CHUNKS };
	struct dbi *db = rdb();
	struct samples_csv_ctx *c;
	struct MHD_Response *r;
	struct buf sql = { 0 };
	enum MHD_Result res;
	uint64_t v;
	int found;

	if (cases) {
		if (parse_u64(cases, &v) || v > UINT32_MAX)
			return reply_error(rq, 400, "case: expected a case id, not '%s'", cases);
		sel.case_id = (int64_t)v;
	}
	if (rep_init_args(rq, &sel.rep, &sel.init, &res))
		return res;
	if (!run_found(rq, db, id, &res))
		return res;
	if (cases && (found = case_exists(db, id, sel.case_id)) != 1)
		return reply_no_case(rq, id, sel.case_id, found);
	samples_export_sql(&sel, &sql);
	c = calloc(1, sizeof(*c));
	bound = malloc(sizeof(*bound));
	if (!c || !bound || !sql.p) {
		free(c);
		free(bound);
		buf_free(&sql);
		return MHD_NO;
	}
	*bound = sel;
	q.db = db;
	q.sql = sql.p;
	q.bind_ctx = bound;
	memcpy(q.keycol, samples_export_keycol, sizeof(samples_export_keycol));
	r = csv_stream(&q, samples_csv_header, samples_csv_row, c, samples_csv_ctx_free);
	buf_free(&sql); /* prepared by now */
	if (!r)
		return reply_db_failed(rq, db, NULL);
	return reply_response(rq, 200, r);
}
