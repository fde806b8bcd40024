/*
 * api_compare.c — GET /api/v1/compare and /api/v1/compare.csv: validates
 * the parameters and renders compare_runs() as JSON or CSV.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baselines_db.h"
#include "casekey.h"
#include "compare.h"
#include "compare_seed_csv.h"
#include "compare_stat.h"
#include "csv.h"
#include "csvstream.h"
#include "http_reply.h"
#include "labels_db.h"
#include "runs_db.h"
#include "runs_json.h"
#include "xcb_proto.h"
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

/* A cell: reals with `decimals` places. */
static void csv_json(struct buf *b, json_t *v, int decimals)
{
	if (json_is_string(v))
		csv_str(b, json_string_value(v));
	else if (json_is_integer(v))
		csv_i64(b, json_integer_value(v));
	else if (json_is_real(v))
		csv_f(b, json_real_value(v), decimals);
	else if (json_is_boolean(v))
		csv_str(b, json_is_true(v) ? "1" : "0");
	else
		csv_empty(b);
}

/* The compare CSV's columns after the axes and `other`: keys of each JSON
 * case, in this order, and their reals' decimals (named once, for the
 * header and the rows). p and q get 6: a q of 0.054 printed 0.05 could not
 * be checked against the FDR. */
static const struct {
	const char *key;
	int decimals;
} compare_cols[] = {
	{ "a_case", 0 }, { "b_case", 0 }, { "a_p50", 2 }, { "b_p50", 2 }, { "change_pct", 2 }, { "ci_low", 2 },
	{ "ci_high", 2 }, { "significant", 0 }, { "method", 0 }, { "p", 6 }, { "q", 6 }, { "a_boots", 0 },
	{ "b_boots", 0 },
};
#define N_COMPARE_COLS (sizeof(compare_cols) / sizeof(compare_cols[0]))
/* ... and after algo_a,algo_b,row (appended last: a script reading by
 * position keeps its columns): whether the case failed a check on each
 * side (1/0: calls lost, duplicated or out of order, a stale translation,
 * a watchdog; the JSON case's a_failed/b_failed); then whether the
 * interval is the histograms' resolution, widened to the two buckets
 * (1/0: the JSON case's ci_at_resolution, compare.c at_resolution); then
 * the case's level (between_boot, within_boot: what its interval is of). */
static const char *const compare_last_cols[] = { "a_failed", "b_failed", "ci_at_resolution", "level" };
#define N_LAST_COLS (sizeof(compare_last_cols) / sizeof(compare_last_cols[0]))
/* ... and after those (appended last too): the statistic a_p50/b_p50 are
 * of (the answer's `stat`), each side's TSC rate and a_p50/b_p50 in ns at
 * it: the cycles alone said nothing of the time a reader of the file
 * could compare with the text report's ns (which converts the same way:
 * by the side's first run's rate, cli/compare_text.c side_khz). */
#define UNIT_COLS ",stat,a_tsc_khz,b_tsc_khz,a_ns,b_ns"

/* Side s's TSC rate (kHz, its first run's, `a`/`b`), 0 when unknown. */
static double side_khz(json_t *o, const char *s)
{
	json_t *k = json_object_get(json_object_get(o, s), "tsc_khz");

	return json_is_number(k) && json_number_value(k) > 0 ? json_number_value(k) : 0;
}

/* The cell of `cycles` in ns at khz; empty without either. */
static void csv_ns(struct buf *b, json_t *cycles, double khz)
{
	if (json_is_number(cycles) && khz > 0)
		csv_f(b, json_number_value(cycles) * 1e6 / khz, 2);
	else
		csv_empty(b);
}

/* ... and last (appended after the units: by position as above) each
 * side's restrictions, the answer's a_where/b_where: a comparison within runs by
 * --a-where delivery=unicast --b-where delivery=allbutself has no
 * delivery in its key (an empty column), and nothing else in the file
 * said which side was which. */
static const char *const compare_where_cols[] = { "a_where", "b_where" };
#define N_WHERE_COLS (sizeof(compare_where_cols) / sizeof(compare_where_cols[0]))
/* ... and at the very end (after a_where,b_where, by position as above):
 * whether each side's case is of method none (1/0: the JSON case's
 * a_no_flush/b_no_flush, compare.c no_flush_fields): it invalidates
 * nothing and its stale reads are not checked, so its change against a
 * side that flushes is no speed-up; the file said nothing of it. */
static const char *const compare_no_flush_cols[] = { "a_no_flush", "b_no_flush" };
#define N_NO_FLUSH_COLS (sizeof(compare_no_flush_cols) / sizeof(compare_no_flush_cols[0]))

/* A side's restrictions as one cell, "k=v;k=v" as `other` writes a key
 * (no comma: the cell needs no quotes); empty when none. */
static void csv_where(struct buf *b, json_t *where)
{
	struct buf w = { 0 };
	const char *k;
	json_t *v;

	json_object_foreach(where, k, v)
		buf_addf(&w, "%s%s=%s", w.len ? ";" : "", k, json_string_value(v) ?: "");
	csv_str(b, w.p ? w.p : "");
	buf_free(&w);
}

static struct buf to_csv(json_t *o)
{
	struct buf b = { 0 };
	json_t *c;
	size_t i;

	for (unsigned a = 0; a < XCB_N_AXES; a++)
		if (csv_axis(&xcb_axes[a]))
			buf_addf(&b, "%s,", xcb_axes[a].key);
	buf_addf(&b, "other");
	for (size_t k = 0; k < N_COMPARE_COLS; k++)
		buf_addf(&b, ",%s", compare_cols[k].key);
	/* which algorithm each side is: the algorithms compared within runs
	 * (algo_a, algo_b; the `algo` column is then empty), else the case's
	 * own algo_a/algo_b (its key has no algo: compare.c side_algos), else
	 * its algo */
	/* and the row compared (the answer's `row`): a file away from its
	 * URL says whether a_p50/b_p50 are p50s or lock_hold's holds */
	buf_addf(&b, ",algo_a,algo_b,row");
	for (size_t k = 0; k < N_LAST_COLS; k++)
		buf_addf(&b, ",%s", compare_last_cols[k]);
	buf_addf(&b, UNIT_COLS);
	for (size_t k = 0; k < N_WHERE_COLS; k++)
		buf_addf(&b, ",%s", compare_where_cols[k]);
	for (size_t k = 0; k < N_NO_FLUSH_COLS; k++)
		buf_addf(&b, ",%s", compare_no_flush_cols[k]);
	buf_addf(&b, "\r\n");
	json_array_foreach(json_object_get(o, "cases"), i, c) {
		json_t *key = json_object_get(c, "key"), *v;
		struct buf other = { 0 };
		const char *k;

		for (unsigned a = 0; a < XCB_N_AXES; a++)
			if (csv_axis(&xcb_axes[a]))
				csv_json(&b, json_object_get(key, xcb_axes[a].key), 2);
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
		for (size_t k = 0; k < N_COMPARE_COLS; k++)
			csv_json(&b, json_object_get(c, compare_cols[k].key), compare_cols[k].decimals);
		for (int s = 0; s < 2; s++) {
			json_t *algo = json_object_get(o, s ? "algo_b" : "algo_a");

			if (!json_is_string(algo))
				algo = json_object_get(c, s ? "algo_b" : "algo_a");
			csv_json(&b, json_is_string(algo) ? algo : json_object_get(key, "algo"), 0);
		}
		csv_json(&b, json_object_get(o, "row"), 0);
		for (size_t k = 0; k < N_LAST_COLS; k++)
			csv_json(&b, json_object_get(c, compare_last_cols[k]), 0);
		csv_json(&b, json_object_get(o, "stat"), 0);
		csv_json(&b, json_object_get(json_object_get(o, "a"), "tsc_khz"), 0);
		csv_json(&b, json_object_get(json_object_get(o, "b"), "tsc_khz"), 0);
		csv_ns(&b, json_object_get(c, "a_p50"), side_khz(o, "a"));
		csv_ns(&b, json_object_get(c, "b_p50"), side_khz(o, "b"));
		for (size_t k = 0; k < N_WHERE_COLS; k++)
			csv_where(&b, json_object_get(o, compare_where_cols[k]));
		for (size_t k = 0; k < N_NO_FLUSH_COLS; k++)
			csv_json(&b, json_object_get(c, compare_no_flush_cols[k]), 0);
		csv_end(&b);
	}
	return b;
}

/* Side X's restrictions: X_where=k=v,... plus algo_X=NAME. */
static int side_where(struct req *rq, const char *algo_param, const char *where_param,
		      struct compare_side *side)
{
	const char *algo = qarg(rq, algo_param), *w = qarg(rq, where_param);

	if (compare_parse_where(w, side))
		return -1;
	if (algo) {
		if (side->nwhere == COMPARE_MAX_WHERE || strlen(algo) > 64)
			return -1;
		snprintf(side->where[side->nwhere].key, sizeof(side->where[0].key), "algo");
		snprintf(side->where[side->nwhere].value, sizeof(side->where[0].value), "%s", algo);
		side->nwhere++;
	}
	return 0;
}

/* A number parameter in [lo, hi], or def when absent; -1 when malformed. */
static int num_arg(struct req *rq, const char *name, double lo, double hi, double def, double *out)
{
	const char *s = qarg(rq, name);
	char *end;

	*out = def;
	if (!s)
		return 0;
	*out = strtod(s, &end);
	return *s && !*end && *out >= lo && *out <= hi ? 0 : -1;
}

/* The runs of one side as a JSON array of run objects, their rows kept in
 * rows[0..s->nruns) (zeroed; compare_conditions reads them, one run_get a
 * run instead of two: on PostgreSQL a round trip each); NULL (and *missing
 * set) when one does not exist. The caller frees rows (side_rows_free). */
static json_t *side_runs(struct dbi *db, const struct compare_side *s, struct run_row *rows, int64_t *missing)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < s->nruns; i++) {
		json_t *r = run_get(db, s->runs[i], &rows[i]) == 1 ? run_row_json(&rows[i]) : NULL;

		if (!r) {
			*missing = s->runs[i];
			json_decref(arr);
			return NULL;
		}
		json_array_append_new(arr, r);
	}
	return arr;
}

/* Frees side_runs' rows (n of them, calloc'd). */
static void side_rows_free(struct run_row *rows, size_t n)
{
	for (size_t i = 0; rows && i < n; i++)
		run_row_free(&rows[i]);
	free(rows);
}

static json_t *where_json(const struct compare_side *s)
{
	json_t *o = json_object();

	for (size_t i = 0; i < s->nwhere; i++)
		json_object_set_new(o, s->where[i].key, json_string(s->where[i].value));
	return o;
}

/* GET /api/v1/calibrate?runs=1,2,3,4[&fdr=&min_effect=]: A/A calibration. */
enum MHD_Result api_calibrate(struct req *rq)
{
	const char *rs = qarg(rq, "runs");
	struct dbi *db = rdb();
	struct compare_side side;
	double fdr, me;
	json_t *o, *runs;
	struct run_row *rows;
	int64_t missing = 0;

	memset(&side, 0, sizeof(side));
	if (!rs || compare_parse_runs(rs, &side) || side.nruns < 2 || side.nruns > COMPARE_MAX_CALIB)
		return reply_error(rq, 400, "runs: expected 2 to %d distinct run ids (1,2,3,4), boots of one configuration",
				   COMPARE_MAX_CALIB);
	if (num_arg(rq, "fdr", 0.0001, 0.5, COMPARE_FDR, &fdr))
		return reply_error(rq, 400, "fdr: expected a false discovery rate in 0.0001..0.5");
	if (num_arg(rq, "min_effect", 0, 1000, COMPARE_MIN_EFFECT, &me))
		return reply_error(rq, 400, "min_effect: expected a %% change in 0..1000");
	if (!db)
		return reply_error(rq, 503, "database unavailable");
	rows = calloc(side.nruns, sizeof(*rows));
	runs = rows ? side_runs(db, &side, rows, &missing) : NULL;
	side_rows_free(rows, side.nruns);
	if (!runs)
		return rows ? reply_error(rq, 404, "run %lld not found", (long long)missing)
			    : reply_error(rq, 500, "out of memory");
	o = compare_calibrate(db, side.runs, side.nruns, fdr, me);
	json_object_set_new(o, "runs", runs);
	return reply_json(rq, 200, o);
}

/* The compare steps below answer 0 to go on, or -1 after replying (*res
 * the reply's result, for api_compare to return). */

/* A side "label:X": the complete runs labelled or tagged X (labels_db.h). */
static int sides_by_label(struct req *rq, struct dbi *db, const char *as, const char *bs, struct compare_req *c,
			  enum MHD_Result *res)
{
	if (!(as && strncmp(as, "label:", 6) == 0) && !(bs && strncmp(bs, "label:", 6) == 0))
		return 0;
	if (!db) {
		*res = reply_error(rq, 503, "database unavailable");
		return -1;
	}
	for (int side = 0; side < 2; side++) {
		const char *spec = side ? bs : as;
		struct compare_side *cs = side ? &c->b : &c->a;

		if (!spec || strncmp(spec, "label:", 6))
			continue;
		long n = runs_labelled(db, spec + 6, cs->runs, COMPARE_MAX_RUNS);

		if (n < 0) {
			/* not a side of the boots read before the failure */
			*res = reply_db_failed(rq, db, NULL);
			return -1;
		}
		cs->nruns = (size_t)n;
		if (!cs->nruns) {
			*res = reply_error(rq, 404, "%s=%s: no complete run has that label or tag", side ? "b" : "a", spec);
			return -1;
		}
	}
	return 0;
}

/* The MAC of run id's machine into mac (for a person: "machine 3" was the
 * store's own id, which nothing the user sees shows); "?" if not found. */
static void run_mac(struct dbi *db, int64_t id, char *mac, size_t cap)
{
	struct run_row r;

	memset(&r, 0, sizeof(r));
	snprintf(mac, cap, "?");
	if (run_get(db, id, &r) == 1 && r.mac.s)
		snprintf(mac, cap, "%s", r.mac.s);
	run_row_free(&r);
}

/* a=baseline: the stored baseline of b's (first run's) machine + suite;
 * a=last:N: the N complete runs of that machine + suite before b's first run. */
static int side_a_relative(struct req *rq, struct dbi *db, const char *as, struct compare_req *c,
			   enum MHD_Result *res)
{
	int64_t machine;
	char suite[128], why[128], mac[32];
	uint64_t n = 0;

	if (!db) {
		*res = reply_error(rq, 503, "database unavailable");
		return -1;
	}
	if (as[0] == 'l' && (parse_u64(as + 5, &n) || n < 1 || n > COMPARE_MAX_RUNS)) {
		*res = reply_error(rq, 400, "a=last:N: N is 1..%d", COMPARE_MAX_RUNS);
		return -1;
	}
	if (baseline_key(db, c->b.runs, 1, &machine, suite, sizeof(suite), why)) {
		*res = reply_error(rq, 404, "a=%s: %s", as, why);
		return -1;
	}
	if (n) {
		c->a.nruns = runs_last_before(db, machine, suite, c->b.runs[0], (size_t)n, c->a.runs);
		if (!c->a.nruns) {
			run_mac(db, c->b.runs[0], mac, sizeof(mac));
			*res = reply_error(rq, 404, "a=%s: no complete run of machine %s and suite '%s' before run %lld",
					   as, mac, suite, (long long)c->b.runs[0]);
		}
	} else {
		c->a.nruns = baseline_get(db, machine, suite, c->a.runs, COMPARE_MAX_RUNS);
		if (!c->a.nruns) {
			run_mac(db, c->b.runs[0], mac, sizeof(mac));
			*res = reply_error(rq, 404, "a=baseline: machine %s has no baseline for suite '%s' (xcbench baseline RUNS)",
					   mac, suite);
		}
	}
	return c->a.nruns ? 0 : -1;
}

/* Both sides from a= and b= (b first: a may be relative to it). */
static int resolve_sides(struct req *rq, struct dbi *db, struct compare_req *c, enum MHD_Result *res)
{
	const char *as = qarg(rq, "a"), *bs = qarg(rq, "b");

	if (sides_by_label(rq, db, as, bs, c, res))
		return -1;
	if (!c->b.nruns && (!bs || compare_parse_runs(bs, &c->b))) {
		*res = reply_error(rq, 400, "b: expected a run id, a list of distinct run ids (1,2,3; at most %d) "
				   "or label:NAME, not '%s'", COMPARE_MAX_RUNS, bs ? bs : "");
		return -1;
	}
	if (c->a.nruns)
		return 0;	/* a=label:NAME, resolved above */
	if (as && (strcmp(as, "baseline") == 0 || strncmp(as, "last:", 5) == 0))
		return side_a_relative(rq, db, as, c, res);
	if (!as || compare_parse_runs(as, &c->a)) {
		*res = reply_error(rq, 400, "a: expected a run id, a list of distinct run ids (1,2,3; at most %d), "
				   "label:NAME, baseline or last:N, not '%s'", COMPARE_MAX_RUNS, as ? as : "");
		return -1;
	}
	return 0;
}

/* 1 if run id is one of rows[0..n). */
static int has_run(const struct run_row *rows, size_t n, int64_t id)
{
	for (size_t i = 0; i < n; i++)
		if (rows[i].id == id)
			return 1;
	return 0;
}

/* One warning for each run of the sides that is not complete (running,
 * lost, crashed, expired): its cases are what it stored, and a crashed
 * baseline or a half-done B would otherwise pass a `check` unremarked. A
 * run on both sides (two algorithms within one run) is named once. */
static void incomplete_runs(json_t *warn, const struct run_row *a, size_t na, const struct run_row *b, size_t nb)
{
	for (size_t i = 0; i < na + nb; i++) {
		const struct run_row *r = i < na ? &a[i] : &b[i - na];
		const char *st = r->status.s ? r->status.s : "unknown";
		int both = i < na && has_run(b, nb, r->id);

		if (strcmp(st, "complete") == 0 || (i >= na && has_run(a, na, r->id)))
			continue;
		json_array_append_new(warn, json_sprintf("run %lld (%s) is %s: only the cases it stored are compared",
							 (long long)r->id, both ? "A and B" : i < na ? "A" : "B", st));
	}
}

/* The comparison of c's sides (ra, rb: their runs, taken; rows_a, rows_b:
 * their rows) with the sides' conditions, as JSON (csv 0) or CSV: a row
 * per case (CSV_CASES) or per seed table row (CSV_SEED). */
enum { CSV_CASES = 1, CSV_SEED };
static enum MHD_Result compare_reply(struct req *rq, struct dbi *db, struct compare_req *c, json_t *ra, json_t *rb,
				     const struct run_row *rows_a, const struct run_row *rows_b, int csv)
{
	struct case_flags fa[COMPARE_MAX_RUNS], fb[COMPARE_MAX_RUNS];
	json_t *o = compare_runs(db, c, fa, fb), *cond;

	/* "a"/"b": the first run of each side (a pair's answer as before);
	 * "a_runs"/"b_runs": every run of the side. */
	json_object_set(o, "a", json_array_get(ra, 0));
	json_object_set(o, "b", json_array_get(rb, 0));
	json_object_set_new(o, "a_runs", ra);
	json_object_set_new(o, "b_runs", rb);
	json_object_set_new(o, "a_where", where_json(&c->a));
	json_object_set_new(o, "b_where", where_json(&c->b));
	cond = compare_conditions(db, c, rows_a, rows_b, fa, fb);
	json_object_update(o, cond);
	json_decref(cond);
	incomplete_runs(json_object_get(o, "warnings"), rows_a, c->a.nruns, rows_b, c->b.nruns);
	if (json_array_size(json_object_get(o, "mismatches"))) {
		/* "differ" only when they do: a run against itself may have
		 * unstable-host cases, the same on both sides, and flagged
		 * cases are a note, not a condition (each run has its own). A
		 * compared case that failed a check gets a warning of its own:
		 * its figures are not those of a correct algorithm. */
		int differ = 0, failed = 0;
		size_t i;
		json_t *cd;

		json_array_foreach(json_object_get(o, "conditions"), i, cd) {
			const char *name = json_string_value(json_object_get(cd, "name"));

			differ |= json_is_false(json_object_get(cd, "same")) && strcmp(name, "unstable") != 0 &&
				  strcmp(name, "failed") != 0;
			failed |= strcmp(name, "failed") == 0;
		}
		if (failed)
			json_array_append_new(json_object_get(o, "warnings"),
					      json_string("compared cases failed a check (calls lost, duplicated or out of "
							  "order, a stale translation, a watchdog; which runs: the mismatch "
							  "line): their figures are not those of a correct algorithm"));
		json_array_append_new(json_object_get(o, "warnings"),
				      json_string(differ ? "the two sides differ in conditions: see mismatches"
							 : "a condition to note: see mismatches"));
	}
	if (csv) {
		struct buf all = csv == CSV_SEED ? compare_seed_csv(o) : to_csv(o);

		json_decref(o);
		return reply_response(rq, 200, csv_buffer(&all));
	}
	return reply_json(rq, 200, o);
}

enum MHD_Result api_compare(struct req *rq, int csv)
{
	const char *fa = qarg(rq, "algo_a"), *fb = qarg(rq, "algo_b");
	struct dbi *db = rdb();
	struct compare_req c;
	int64_t missing = 0;
	enum MHD_Result res = MHD_NO; /* set by resolve_sides on its failures; -O1 cannot see that */
	struct run_row *rows_a, *rows_b;
	json_t *ra = NULL, *rb = NULL;

	memset(&c, 0, sizeof(c));
	if (resolve_sides(rq, db, &c, &res))
		return res;
	if ((fa && !fb) || (fb && !fa))
		return reply_error(rq, 400, "algo_a and algo_b go together");
	if (side_where(rq, "algo_a", "a_where", &c.a) || side_where(rq, "algo_b", "b_where", &c.b))
		return reply_error(rq, 400, "a_where/b_where: expected key=value[,key=value] (at most %d)",
				   COMPARE_MAX_WHERE);
	for (int s = 0; s < 2; s++) {
		const char *twice = compare_where_twice(s ? &c.b : &c.a);

		if (twice)
			return reply_error(rq, 400, "%s: key '%s' given more than once (a case has one value per key%s)",
					   s ? "b_where" : "a_where", twice,
					   strcmp(twice, "algo") == 0 && qarg(rq, s ? "algo_b" : "algo_a")
						   ? (s ? "; algo_b=X is b_where=algo=X" : "; algo_a=X is a_where=algo=X")
						   : "");
	}
	if (num_arg(rq, "fdr", 0.0001, 0.5, COMPARE_FDR, &c.fdr))
		return reply_error(rq, 400, "fdr: expected a false discovery rate in 0.0001..0.5");
	if (num_arg(rq, "min_effect", 0, 1000, COMPARE_MIN_EFFECT, &c.min_effect))
		return reply_error(rq, 400, "min_effect: expected a %% change in 0..1000");
	if (qarg(rq, "row") && compare_row_parse(qarg(rq, "row"), &c.row)) {
		/* the names compare's rows have, so a new row is listed */
		char names[160];
		const char *near = compare_row_near(qarg(rq, "row"));

		compare_row_names(names, sizeof(names));
		return reply_error(rq, 400, "row: expected one of %s (a sync case's writer and batch rows, "
				   "a lock profile's hold)%s%s%s", names, near ? "; did you mean '" : "", near ? near : "",
				   near ? "'?" : "");
	}
	if (qarg(rq, "stat") && compare_stat_parse(qarg(rq, "stat"), &c.stat)) {
		/* the schema's statistics of a repetition's calls, so a new one is listed */
		char names[160];

		compare_stat_names(names, sizeof(names));
		return reply_error(rq, 400, "stat: expected one of %s (the statistic of each repetition's calls "
				   "that is compared)", names);
	}
	/* lock_hold's repetitions give one figure each (their hold per
	 * acquisition: casestats.h lock_hold_reps), no statistic to choose */
	if (c.row == COMPARE_ROW_LOCK_HOLD && c.stat && compare_stat_field(c.stat) != compare_stat_field(0))
		return reply_error(rq, 400, "stat: row lock_hold has one figure a repetition (its hold per "
				   "acquisition); stat is the median's there");
	if (csv && qarg(rq, "format")) {
		if (strcmp(qarg(rq, "format"), "seed") == 0)
			csv = CSV_SEED;
		else if (strcmp(qarg(rq, "format"), "cases") != 0)
			return reply_error(rq, 400, "format: expected cases (a row per case, the default) or seed "
					   "(a row per seed table row)");
	}
	c.algo_a = fa;
	c.algo_b = fb;
	if (!db)
		return reply_error(rq, 503, "database unavailable");
	rows_a = calloc(c.a.nruns, sizeof(*rows_a));
	rows_b = calloc(c.b.nruns, sizeof(*rows_b));
	if (rows_a && rows_b) {
		ra = side_runs(db, &c.a, rows_a, &missing);
		rb = ra ? side_runs(db, &c.b, rows_b, &missing) : NULL;
	}
	if (!ra || !rb) {
		json_decref(ra);
		res = rows_a && rows_b ? reply_error(rq, 404, "run %lld not found", (long long)missing)
				       : reply_error(rq, 500, "out of memory");
	} else {
		res = compare_reply(rq, db, &c, ra, rb, rows_a, rows_b, csv);
	}
	side_rows_free(rows_a, c.a.nruns);
	side_rows_free(rows_b, c.b.nruns);
	return res;
}
