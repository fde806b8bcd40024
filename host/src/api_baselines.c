/*
 * api_baselines.c — GET /api/v1/baselines (every baseline, or a machine's)
 * and POST /api/v1/baselines {"runs": [ids]} (write route): marks runs (the
 * boots of one machine + suite) as that machine + suite's baseline, the
 * side `compare?a=baseline` and `xcbench check --baseline stored` use.
 */
#include <string.h>

#include "baselines_db.h"
#include "compare.h"
#include "routes.h"
#include "util.h"
#include "writer.h"

struct bl_task {
	int64_t machine, runs[COMPARE_MAX_RUNS];
	size_t n;
	const char *suite;
	int rc;
};

static void set_fn(struct dbi *db, void *arg)
{
	struct bl_task *t = arg;

	t->rc = baseline_set(db, t->machine, t->suite, t->runs, t->n, now_s());
}

enum MHD_Result api_baselines(struct req *rq)
{
	const char *m = qarg(rq, "machine");
	int64_t mid = 0;
	struct dbi *db = rdb();
	json_t *list;

	if (m && parse_id(m, &mid))
		return reply_error(rq, 400, "machine: expected a machine id");
	if (!db)
		return reply_error(rq, 503, "database unavailable");
	list = json_array();
	return reply_list(rq, db, baselines_list(db, mid, list), "baselines", list);
}

enum MHD_Result api_baseline_set(struct req *rq)
{
	struct bl_task t = { 0 };
	enum MHD_Result res;
	char suite[128], err[128];
	json_t *body, *runs, *v, *list;
	struct dbi *db = rdb();
	size_t i;

	body = admin_body(rq, &res);
	if (!body)
		return res;
	runs = json_object_get(body, "runs");
	if (!json_is_array(runs) || !json_array_size(runs) || json_array_size(runs) > COMPARE_MAX_RUNS) {
		json_decref(body);
		return reply_error(rq, 400, "runs: expected an array of 1 to %d run ids", COMPARE_MAX_RUNS);
	}
	json_array_foreach(runs, i, v) {
		if (!json_is_integer(v) || json_integer_value(v) <= 0) {
			json_decref(body);
			return reply_error(rq, 400, "runs: expected run ids (positive integers)");
		}
		t.runs[t.n++] = json_integer_value(v);
	}
	json_decref(body);
	if (!db)
		return reply_error(rq, 503, "database unavailable");
	if (baseline_key(db, t.runs, t.n, &t.machine, suite, sizeof(suite), err))
		return reply_error(rq, 400, "%s: a baseline is runs of one machine and one suite", err);
	t.suite = suite;
	if (writer_call(set_fn, &t) || t.rc)
		return reply_error(rq, 503, "cannot store the baseline now (see /api/v1/health)");
	list = json_array();
	if (baselines_list(db, t.machine, list) != DBI_DONE) {
		/* stored, but not read back: not a "baseline": null */
		json_decref(list);
		return reply_db_failed(rq, db, NULL);
	}
	json_array_foreach(list, i, v)
		if (strcmp(json_string_value(json_object_get(v, "suite")), suite) == 0)
			break;
	v = json_incref(json_array_get(list, i));
	json_decref(list);
	return reply_json(rq, 200, json_pack("{s:o}", "baseline", v ? v : json_null()));
}
