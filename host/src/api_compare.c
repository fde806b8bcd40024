/*
 * api_compare.c — GET /api/v1/compare and /api/v1/compare.csv: validates
 * the parameters and renders compare_runs() as JSON or CSV.
 */
#include <string.h>

#include "casekey.h"
#include "compare.h"
#include "csv.h"
#include "csvstream.h"
#include "http.h"
#include "runs_json.h"
#include "xcb_schema.h"

/* The CSV's own columns: the schema's matched axes with an SQL column
 * (kind ... work_us); every other matched key goes in `other`. */
static int csv_axis(const struct xcb_axis *a)
{
	return a->column && xcb_axis_matches(a->key, 0);
}

/* 1 if key is one of the CSV's axis columns. */
static int csv_axis_key(const char *k)
{
	const struct xcb_axis *a = xcb_axis_find(k, strlen(k));

	return a && csv_axis(a);
}

static void csv_json(struct buf *b, json_t *v)
{
	if (json_is_string(v))
		csv_str(b, json_string_value(v));
	else if (json_is_integer(v))
		csv_i64(b, json_integer_value(v));
	else if (json_is_real(v))
		csv_f(b, json_real_value(v), 2);
	else if (json_is_boolean(v))
		csv_str(b, json_is_true(v) ? "1" : "0");
	else
		csv_empty(b);
}

static struct buf to_csv(json_t *o)
{
	struct buf b = { 0 };
	json_t *c;
	size_t i;

	for (unsigned a = 0; a < XCB_N_AXES; a++)
		if (csv_axis(&xcb_axes[a]))
			buf_addf(&b, "%s,", xcb_axes[a].key);
	buf_addf(&b, "other,a_case,b_case,a_p50,b_p50,change_pct,ci_low,ci_high,significant,method\r\n");
	json_array_foreach(json_object_get(o, "cases"), i, c) {
		json_t *key = json_object_get(c, "key"), *v;
		struct buf other = { 0 };
		const char *k;

		for (unsigned a = 0; a < XCB_N_AXES; a++)
			if (csv_axis(&xcb_axes[a]))
				csv_json(&b, json_object_get(key, xcb_axes[a].key));
		json_object_foreach(key, k, v) {
			if (csv_axis_key(k))
				continue;
			if (json_is_string(v))
				buf_addf(&other, "%s%s=%s", other.len ? ";" : "", k, json_string_value(v));
			else
				buf_addf(&other, "%s%s=%lld", other.len ? ";" : "", k, (long long)json_integer_value(v));
		}
		csv_str(&b, other.p ? other.p : "");
		buf_free(&other);
		csv_json(&b, json_object_get(c, "a_case"));
		csv_json(&b, json_object_get(c, "b_case"));
		csv_json(&b, json_object_get(c, "a_p50"));
		csv_json(&b, json_object_get(c, "b_p50"));
		csv_json(&b, json_object_get(c, "change_pct"));
		csv_json(&b, json_object_get(c, "ci_low"));
		csv_json(&b, json_object_get(c, "ci_high"));
		csv_json(&b, json_object_get(c, "significant"));
		csv_json(&b, json_object_get(c, "method"));
		csv_end(&b);
	}
	return b;
}

enum MHD_Result api_compare(struct req *rq, int csv)
{
	const char *as = qarg(rq, "a"), *bs = qarg(rq, "b"), *fa = qarg(rq, "algo_a"), *fb = qarg(rq, "algo_b");
	struct dbi *db = rdb();
	int64_t a, b;
	json_t *ra, *rb, *o;

	if (!as || parse_id(as, &a))
		return reply_error(rq, 400, "a: expected a run id, not '%s'", as ? as : "");
	if (!bs || parse_id(bs, &b))
		return reply_error(rq, 400, "b: expected a run id, not '%s'", bs ? bs : "");
	if ((fa && !fb) || (fb && !fa))
		return reply_error(rq, 400, "algo_a and algo_b go together");
	if (!db)
		return reply_error(rq, 503, "database unavailable");
	ra = run_json(db, a);
	rb = run_json(db, b);
	if (!ra || !rb) {
		json_decref(ra);
		json_decref(rb);
		return reply_error(rq, 404, "run %lld not found", (long long)(ra ? b : a));
	}
	o = compare_runs(db, a, b, fa, fb);
	json_object_set_new(o, "a", ra);
	json_object_set_new(o, "b", rb);
	if (csv) {
		struct buf all = to_csv(o);

		json_decref(o);
		return reply_response(rq, 200, csv_buffer(&all));
	}
	return reply_json(rq, 200, o);
}
