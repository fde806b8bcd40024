/*
 * api_runs.c — the run read routes: the list, one run with its cases and
 * stats, its events, a case's histogram. Rows come from runs_db.c, JSON from
 * runs_json.c; CSV is api_csv.c, raw samples api_samples.c, writes
 * api_run_write.c.
 */
#include <stdlib.h>
#include <string.h>

#include "api_runs.h"
#include "casecache.h"
#include "jsonw.h"
#include "labels_db.h"
#include "routes.h"
#include "runs_db.h"
#include "runlist_json.h"
#include "runrender.h"
#include "runs_filter.h"
#include "runs_json.h"
#include "skips.h"
#include "sqljson.h"

/* The token goes to admins only (the token file, or --open on loopback):
 * whoever knows it can send frames for the run. */
static json_t *with_token(struct req *rq, json_t *o, const char *token)
{
	if (o && token && is_admin(rq))
		json_object_set_new(o, "token", json_string(token));
	return o;
}

json_t *run_json_for(struct req *rq, struct dbi *db, int64_t id)
{
	struct run_row r;
	json_t *o;

	if (run_get(db, id, &r) != 1)
		return NULL;
	o = with_token(rq, run_row_json(&r), r.token);
	run_row_free(&r);
	{
		json_t *one = json_pack("[O]", o);

		/* a run whose labels could not be read is no answer (NULL):
		 * not the run without them */
		if (labels_attach(db, one)) {
			json_decref(o);
			o = NULL;
		}
		json_decref(one);
	}
	return o;
}

enum MHD_Result reply_no_run(struct req *rq, int64_t id, int found)
{
	if (found < 0)
		return reply_error(rq, 503, "database unavailable");
	return reply_error(rq, 404, "run %lld not found", (long long)id);
}

int run_found(struct req *rq, struct dbi *db, int64_t id, enum MHD_Result *res)
{
	int found = db ? run_exists(db, id) : -1;

	if (found != 1)
		*res = reply_no_run(rq, id, found);
	return found == 1;
}

/* GET /api/v1/runs: the filtered page of runs, and how many match
 * (runlist_json.c writes it without a jansson tree). */
enum MHD_Result api_runs(struct req *rq)
{
	struct dbi *db = rdb();
	struct run_filters f;
	const char *bad = run_filters_parse(rq, &f);
	enum MHD_Result res;
	struct buf o = { 0 };

	if (bad)
		return reply_error(rq, 400, "%s", bad);
	if (!db)
		return reply_error(rq, 503, "database unavailable");
	if (run_filters_refused(rq, db, &f, &res))
		return res;
	if (runlist_json(db, &f, is_admin(rq), &o)) {
		buf_free(&o);
		return reply_db_failed(rq, db, NULL);
	}
	return reply_buf(rq, 200, "application/json", &o);
}

/* event_fn: one ERROR event of a run (no kind: they all are). */
static void error_one(const struct event_row *e, void *arr)
{
	json_array_append_new(arr, event_json(e, 0));
}

/* Appends the member "key": v (jsonw.h: reply_json's bytes) and frees v.
 * 0 or -1. */
static int add_member(struct buf *b, const char *key, json_t *v)
{
	int rc = jsonw_key(b, key) || jsonw_val(b, v) ? -1 : 0;

	json_decref(v);
	return rc;
}

/* The run's cases as JSON text (*len bytes, malloc'd). The default page of
 * a run that stores no frame comes from the cached rendering (casecache.h),
 * else from the store's (runrender.h: a finished run's, rendered by the
 * writer), else it is written (run_cases_text); a default page that holds
 * the whole run is kept in the cache. *next as run_cases_write's. */
static char *cases_text(struct dbi *db, const struct run_row *r, int64_t after, int64_t limit, int paged,
			int64_t *next, size_t *len)
{
	struct casecache_key k;
	char *s;

	runrender_key(r, &k);
	*next = -1;
	if (!paged && (s = casecache_get(&k, len)))
		return s;
	if (!paged && (s = runrender_stored(db, r, len))) {
		casecache_put(&k, s, *len);
		return s;
	}
	s = run_cases_text(db, r, after, limit, next, len);
	if (s && !paged && *next < 0)
		casecache_put(&k, s, *len);
	return s;
}

/* GET /api/v1/runs/{id}: the run, its facts, cases with stats, errors, and
 * how many log lines, the cases skipped (skips.h): 5 queries while the cases' rendering is cached
 * (casecache.h), one more when the store holds it (a finished run), else
 * those of the build, 7 whatever the number of cases (and the look in the
 * store before it, for the default page). The answer is reply_json's
 * bytes of {run, facts, cases, errors, logs, skipped[, cases_next]}, written member
 * by member so the rendered cases text goes in as it is. */
enum MHD_Result api_run(struct req *rq, int64_t id)
{
	const char *after_s = qarg(rq, "cases_after"), *limit_s = qarg(rq, "cases_limit");
	uint64_t after = 0, limit = RUN_CASES_PAGE;
	struct dbi *db = rdb();
	struct run_row r;
	struct buf o = { 0 };
	json_t *run, *errors, *skipped;
	int64_t next;
	size_t ncases = 0;
	char *cases;
	enum MHD_Result res;
	int found, bad;

	if (!db)
		return reply_error(rq, 503, "database unavailable");
	if (after_s && (parse_u64(after_s, &after) || after > INT64_MAX / 2))
		return reply_error(rq, 400, "cases_after: '%s' is not a case id", after_s);
	if (limit_s && (parse_u64(limit_s, &limit) || limit < 1 || limit > RUN_CASES_PAGE))
		return reply_error(rq, 400, "cases_limit: '%s' is not 1..%d", limit_s, RUN_CASES_PAGE);
	found = run_get(db, id, &r);
	if (found != 1)
		return reply_no_run(rq, id, found);
	run = with_token(rq, run_row_json(&r), r.token);
	{
		json_t *one = json_pack("[O]", run);

		bad = labels_attach(db, one);
		json_decref(one);
	}
	if (bad) {
		/* not the run page without its tags and meta */
		json_decref(run);
		run_row_free(&r);
		return reply_db_failed(rq, db, NULL);
	}
	errors = json_array();
	if (events_list(db, id, "error", -1, 100, error_one, errors)) {
		/* the store's read failed: not a run page without its errors */
		json_decref(errors);
		json_decref(run);
		run_row_free(&r);
		return reply_db_failed(rq, db, NULL);
	}
	/* the cases the payload skipped: only its LOG lines say which */
	skipped = skips_json(db, id, json_is_integer(json_object_get(run, "cases_planned"))
					     ? (int64_t)json_integer_value(json_object_get(run, "cases_planned")) : -1);
	if (!skipped) {
		json_decref(errors);
		json_decref(run);
		run_row_free(&r);
		return reply_db_failed(rq, db, NULL);
	}
	cases = cases_text(db, &r, after_s ? (int64_t)after : -1, (int64_t)limit, after_s || limit_s, &next, &ncases);
	if (!cases) {
		/* (its statements are finalized by now: no message left) */
		json_decref(skipped);
		json_decref(errors);
		json_decref(run);
		run_row_free(&r);
		return dbi_conn_lost(db) ? reply_db_failed(rq, db, NULL)
					  : reply_error(rq, 500, "query failed: the run's cases could not be read from the store");
	}
	bad = jsonw_lit(&o, "{") || add_member(&o, "run", run) ||
	      add_member(&o, "facts", json_text_or_empty(r.hello)) || !cases ||
	      jsonw_lit(&o, ",\"cases\":") || buf_add(&o, cases, ncases) || add_member(&o, "errors", errors) ||
	      buf_addf(&o, ",\"logs\":%lld", (long long)events_count(db, id, "log")) ||
	      add_member(&o, "skipped", skipped);
	/* Paginated: said when asked for, or when the run has more cases than
	 * one page (a run's answer is built in memory: a page bounds it). */
	if (!bad && (after_s || limit_s || next >= 0))
		bad = add_member(&o, "cases_next", next >= 0 ? json_integer((json_int_t)next) : json_null());
	bad = bad || jsonw_lit(&o, "}");
	res = bad ? reply_text(rq, 500, "application/json", "{\"error\":\"cannot encode JSON\",\"status\":500}")
		  : reply_text(rq, 200, "application/json", o.p);
	free(cases);
	buf_free(&o);
	run_row_free(&r);
	return res;
}

/* event_fn: one event of the events route. */
static void event_one(const struct event_row *e, void *arr)
{
	json_array_append_new(arr, event_json(e, 1));
}

/* GET /api/v1/runs/{id}/events?kind=&after=&limit= */
enum MHD_Result api_run_events(struct req *rq, int64_t id)
{
	const char *kind = qarg(rq, "kind"), *after = qarg(rq, "after"), *lim = qarg(rq, "limit");
	struct dbi *db = rdb();
	uint64_t a = 0, l = 1000;
	enum MHD_Result res;
	json_t *arr;

	if (kind && strcmp(kind, "log") && strcmp(kind, "error") && strcmp(kind, "console"))
		return reply_error(rq, 400, "kind: expected log, error or console, not '%s'", kind);
	/* past INT64_MAX the cast below wraps negative, which reads as no
	 * after at all: a tail would be sent the whole log again */
	if (after && (parse_u64(after, &a) || a > INT64_MAX))
		return reply_error(rq, 400, "after: expected a sequence number, not '%s'", after);
	if (lim && (parse_u64(lim, &l) || l < 1 || l > 10000))
		return reply_error(rq, 400, "limit: expected 1..10000");
	if (!run_found(rq, db, id, &res))
		return res;
	arr = json_array();
	if (events_list(db, id, kind, after ? (int64_t)a : -1, (int64_t)l, event_one, arr)) {
		json_decref(arr);
		return reply_db_failed(rq, db, NULL);
	}
	return reply_json(rq, 200, json_pack("{s:o}", "events", arr));
}

int rep_init_args(struct req *rq, int *rep, int *init, enum MHD_Result *res)
{
	const char *reps = qarg(rq, "rep"), *inits = qarg(rq, "initiator");
	uint64_t v;

	*rep = *init = -1;
	if (reps && strcmp(reps, "all")) {
		if (parse_u64(reps, &v) || v > 65535) {
			*res = reply_error(rq, 400, "rep: expected a repetition number, not '%s'", reps);
			return -1;
		}
		*rep = (int)v;
	}
	if (inits && strcmp(inits, "all")) {
		if (parse_u64(inits, &v) || v > 65535) {
			*res = reply_error(rq, 400, "initiator: expected a CPU number or 'all', not '%s'", inits);
			return -1;
		}
		*init = (int)v;
	}
	return 0;
}

/* GET /api/v1/runs/{id}/cases/{case}/histogram?rep=&initiator= */
enum MHD_Result api_histogram(struct req *rq, int64_t id, int64_t cid)
{
	struct dbi *db = rdb();
	uint64_t *cnt;
	uint32_t *idx;
	int rep, init, found;
	size_t n;
	struct run_row r;
	json_t *tsc, *o;
	enum MHD_Result res;

	if (rep_init_args(rq, &rep, &init, &res))
		return res;
	if (!db)
		return reply_error(rq, 503, "database unavailable");
	if ((found = run_get(db, id, &r)) != 1)
		return reply_no_run(rq, id, found);
	tsc = dbval_json(&r.tsc_khz);
	run_row_free(&r);
	if (load_histogram(db, id, cid, rep, init, &idx, &cnt, &n)) {
		/* not 404 (it may be stored) nor the buckets read before */
		json_decref(tsc);
		return reply_db_failed(rq, db, "the histogram could not be read from the store");
	}
	o = n ? histogram_json(id, cid, rep, init, tsc, idx, cnt, n) : NULL;
	json_decref(tsc);
	free(idx);
	free(cnt);
	if (n == 0)
		return reply_error(rq, 404, "run %lld case %lld has no histogram%s", (long long)id,
				   (long long)cid, rep >= 0 || init >= 0 ? " for that rep/initiator" : "");
	return reply_json(rq, 200, o);
}
