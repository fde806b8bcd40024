/*
 * test_casestats.c — a case's STATS from stored RESULT rows and histograms,
 * on a real SQLite database with the daemon's own schema (the generated
 * migrations): p10, which RESULT does not carry, derived from the HISTO
 * rows per (rep, initiator), clamped to the row's min/max, with the merged
 * histogram as fallback, then the median over repetitions. And a run's
 * cases as the run page gets them: the same JSON as case by case, from a
 * number of queries that does not grow with the cases. The text is written
 * without jansson (jsonw.h), so its reals and a case's config are checked
 * against jansson's own dump of the same values.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "casestats.h"
#include "jsontext.h"
#include "jsonw.h"
#include "runs_json.h"
#include "xcb_proto.h"

extern const char *const xcb_migrations[];
extern const int xcb_nmigrations;

static struct dbi *open_db(void)
{
	char err[256];
	struct dbi *db = dbi_open(":memory:", DBI_RW, err, sizeof(err));

	assert_non_null(db);
	for (int i = 0; i < xcb_nmigrations; i++)
		assert_int_equal(dbi_exec(db, xcb_migrations[i]), DBI_OK);
	return db;
}

static void exec(struct dbi *db, const char *sql)
{
	if (dbi_exec(db, sql) != DBI_OK)
		fail_msg("%s: %s", sql, dbi_errmsg(db));
}

/* A RESULT row of run 1 case 1 with count/min/p50/max; the rest 0. */
static void result(struct dbi *db, int rep, int init, int count, int min, int p50, int max)
{
	char sql[512];

	snprintf(sql, sizeof(sql), "INSERT INTO results VALUES (1, 1, %d, %d, %d, %d, %d, %d, %d, %d, %d, "
		 "%d000, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)", rep, init, count, min, p50, p50, p50, p50, max, p50);
	exec(db, sql);
}

static void bucket(struct dbi *db, int rep, int init, int b, int count)
{
	char sql[256];

	snprintf(sql, sizeof(sql), "INSERT INTO histogram_chunks VALUES (1, 1, %d, %d, %d, 1, '%d')", rep, init, b,
		 count);
	exec(db, sql);
}

static double p10_of(json_t *o)
{
	json_t *v = json_object_get(o, "p10");

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* Each test's database (run 1 stored, no rows yet), its case's RESULT rows
 * once loaded, and the JSON it made: the teardown frees them all. */
struct fx {
	struct dbi *db;
	struct resrow *rows;
	size_t n;
	json_t *made[8];
	int nmade;
};

static int fx_setup(void **st)
{
	struct fx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->db = open_db();
	exec(f->db, "INSERT INTO runs(id, token, created) VALUES (1, '00000000000000aa', 0)");
	*st = f;
	return 0;
}

static int fx_teardown(void **st)
{
	struct fx *f = *st;

	while (f->nmade)
		json_decref(f->made[--f->nmade]);
	free(f->rows);
	dbi_close(f->db);
	free(f);
	return 0;
}

/* j, freed by the teardown. */
static json_t *made(struct fx *f, json_t *j)
{
	assert_true(f->nmade < 8);
	return f->made[f->nmade++] = j;
}

/* The JSON text a writer appended to b (then freed), parsed; freed by the
 * teardown. */
static json_t *parsed(struct fx *f, struct buf *b)
{
	json_error_t e;
	json_t *j;

	assert_non_null(b->p);
	j = json_loads(b->p, 0, &e);
	if (!j)
		fail_msg("not JSON (%s): %s", e.text, b->p);
	buf_free(b);
	return made(f, j);
}

/* STATS over rows[0..k) and (tsc_khz > 0) its ns twin, as the run page
 * writes them. */
static json_t *stats_of(struct fx *f, const struct resrow *rows, size_t k, double tsc_khz, json_t **ns)
{
	struct buf b = { 0 }, t = { 0 };
	struct agg a;

	agg_compute(rows, k, &a);
	assert_int_equal(agg_write(&b, &a), 0);
	if (ns) {
		assert_int_equal(agg_ns_write(&t, &a, tsc_khz), 0);
		*ns = parsed(f, &t);
	}
	return parsed(f, &b);
}

/* The case's "initiators" list and its "fairness", as written. */
static json_t *initiators_of(struct fx *f, json_t **fair)
{
	struct buf b = { 0 };
	json_t *o;

	assert_int_equal(jsonw_lit(&b, "{") || initiators_write(&b, f->rows, f->n) || jsonw_lit(&b, "}"), 0);
	o = parsed(f, &b);
	*fair = json_object_get(o, "fairness");
	assert_non_null(*fair);
	return json_object_get(o, "initiators");
}

/* The case's "pseudo" value, as written. */
static json_t *pseudo_of(struct fx *f)
{
	struct buf b = { 0 };

	assert_int_equal(pseudo_write(&b, f->rows, f->n), 0);
	return parsed(f, &b);
}

/* Loads run 1 case 1's rows into f, p10 attached. */
static void load_case(struct fx *f)
{
	assert_int_equal(load_results(f->db, 1, 1, &f->rows, &f->n), 0);
	attach_p10(f->db, 1, 1, f->rows, f->n);
}

static void p10_from_histograms(void **st)
{
	struct fx *f = *st;
	struct dbi *db = f->db;
	size_t k;
	json_t *stats, *ns, *inits, *fair;

	/* Values below 256 have a bucket each, so bucket = value. */
	static const struct { int rep, init, count, min, p50, max; } res[] = {
		/* 3 at 100, 17 at 200 → rank ⌈0.1·20⌉ = 2 → 100 */
		{ 0, 65535, 20, 100, 200, 200 },
		/* the same shape at 90/210, but the row's exact min is 95: the
		 * bucket value 90 is clamped up to 95, as the payload clamps p50 */
		{ 1, 65535, 20, 95, 210, 210 },
		/* no histogram of its own: the merged one (rep 65535) counts,
		 * 10 at 120, 90 at 220 → rank 10 → 120 */
		{ 2, 65535, 100, 110, 220, 230 },
		/* initiator 3, rep 0 only: 1 at 50, 9 at 60 → rank 1 → 50 */
		{ 0, 3, 10, 50, 60, 60 },
		/* initiator 4 has no histogram at all → null */
		{ 0, 4, 10, 70, 80, 80 },
	};
	static const struct { int rep, init, bucket, count; } hist[] = {
		{ 0, 65535, 100, 3 }, { 0, 65535, 200, 17 }, { 1, 65535, 90, 3 }, { 1, 65535, 210, 17 },
		{ 65535, 65535, 120, 10 }, { 65535, 65535, 220, 90 }, { 0, 3, 50, 1 }, { 0, 3, 60, 9 },
	};

	for (size_t i = 0; i < sizeof(res) / sizeof(*res); i++)
		result(db, res[i].rep, res[i].init, res[i].count, res[i].min, res[i].p50, res[i].max);
	for (size_t i = 0; i < sizeof(hist) / sizeof(*hist); i++)
		bucket(db, hist[i].rep, hist[i].init, hist[i].bucket, hist[i].count);
	assert_int_equal(load_results(db, 1, 1, &f->rows, &f->n), 0);
	assert_int_equal(f->n, 5);
	for (size_t i = 0; i < f->n; i++)
		assert_true(isnan(f->rows[i].v[RV_p10]));   /* not in RESULT */
	attach_p10(db, 1, 1, f->rows, f->n);
	for (size_t i = 0; i < f->n; i++) {
		const struct resrow *r = &f->rows[i];
		double want = r->init == 3 ? 50 : r->init == 4 ? NAN
			    : r->rep == 0 ? 100 : r->rep == 1 ? 95 : 120;

		if (isnan(want))
			assert_true(isnan(r->v[RV_p10]));
		else
			assert_true(r->v[RV_p10] == want);
	}
	inits = initiators_of(f, &fair);
	assert_int_equal(json_array_size(inits), 2);
	assert_true(p10_of(json_array_get(inits, 0)) == 50);
	assert_true(json_is_null(json_object_get(json_array_get(inits, 1), "p10")));
	k = pick_aggregate(f->rows, f->n);
	assert_int_equal(k, 3);
	/* STATS.p10: the median over repetitions of 100, 95, 120 → 100; ns
	 * at 2 000 000 kHz: 100 cycles = 50 ns. */
	stats = stats_of(f, f->rows, k, 2000000, &ns);
	assert_true(p10_of(stats) == 100);
	assert_true(fabs(p10_of(ns) - 50.0) < 1e-9);
	assert_true(p10_of(stats) <= json_number_value(json_object_get(stats, "p50")));
}

/* kind=sync's pseudo-initiators (proto XCB_INIT_W_*): named under "pseudo",
 * never in the per-initiator (fairness) list. */
static void pseudo_initiators_apart(void **st)
{
	struct fx *f = *st;
	json_t *inits, *fair, *ps;

	result(f->db, 0, 1, 10, 50, 60, 60);
	result(f->db, 0, 2, 10, 70, 80, 80);
	result(f->db, 0, 65535, 20, 50, 70, 80);
	result(f->db, 0, 0xfff0, 5, 900, 1000, 1100);
	result(f->db, 0, 0xfff3, 2, 4000, 5000, 5000);
	load_case(f);
	inits = initiators_of(f, &fair);
	assert_int_equal(json_array_size(inits), 2);
	assert_false(json_is_null(fair));
	ps = pseudo_of(f);
	assert_int_equal(json_object_size(ps), 2);
	assert_true(json_number_value(json_object_get(json_object_get(ps, "writer_hold"), "p50")) == 1000);
	assert_non_null(json_object_get(ps, "reader_batch"));
	assert_int_equal(pick_aggregate(f->rows, f->n), 1);
	assert_string_equal(xcb_initiator_name(0xfff1), "writer_e2e");
	assert_null(xcb_initiator_name(7));
}

static void p10_null_without_histograms(void **st)
{
	struct fx *f = *st;
	json_t *stats;

	result(f->db, 0, 65535, 20, 100, 200, 200);
	load_case(f);
	stats = stats_of(f, f->rows, pick_aggregate(f->rows, f->n), 0, NULL);
	assert_true(json_is_null(json_object_get(stats, "p10")));
	assert_true(json_number_value(json_object_get(stats, "p50")) == 200);
}

/* Fairness is Jain's index of the initiators' throughput in each
 * repetition's shared window (README "Fairness"), the payload's console
 * figure: two initiators of 100 timed calls each, the first done in 100
 * cycles while the second made 50 (rates 2:1 in the window: Jain 0.9); the
 * second then ran alone, done at 150. Over each one's own span (100/100,
 * 100/150) it read 0.9615 - the API's figure before RESULT carried the
 * window, where the console said 0.900 for the same case. Rows stored
 * without the window keep that figure, named apart: elapsed_throughput. */
static void fairness_of_shared_window(void **st)
{
	struct fx *f = *st;
	json_t *fair;

	for (int rep = 0; rep < 2; rep++)
		for (int init = 0; init < 2; init++)
			result(f->db, rep, init, 100, 50, 60, 70);
	exec(f->db, "UPDATE results SET elapsed_cycles = 100 + 50 * initiator, window_cycles = 100, "
		    "window_calls = 100 - 50 * initiator");
	assert_int_equal(load_results(f->db, 1, 1, &f->rows, &f->n), 0);
	initiators_of(f, &fair);
	assert_true(json_real_value(json_object_get(fair, "jain")) == 0.9);
	assert_string_equal(json_string_value(json_object_get(fair, "jain_of")), "throughput");

	/* One row without a window (an older payload's): none of it counts. */
	exec(f->db, "UPDATE results SET window_calls = NULL, window_cycles = NULL WHERE rep = 1 AND initiator = 1");
	free(f->rows);
	assert_int_equal(load_results(f->db, 1, 1, &f->rows, &f->n), 0);
	initiators_of(f, &fair);
	assert_true(json_real_value(json_object_get(fair, "jain")) == 0.962);	/* to 3 decimals, as every figure */
	assert_string_equal(json_string_value(json_object_get(fair, "jain_of")), "elapsed_throughput");
}

/* Run `run` with ncases cases, each 3 reps x (initiators 0, 1, all), each row
 * with a histogram; distinct values per case. */
static void store_run(struct dbi *db, int run, int ncases)
{
	char sql[512];

	snprintf(sql, sizeof(sql), "INSERT INTO runs(id, token, created, tsc_khz) VALUES (%d, '%016x', 0, 2000000)",
		 run, run);
	exec(db, sql);
	for (int c = 1; c <= ncases; c++) {
		snprintf(sql, sizeof(sql), "INSERT INTO cases(run_id, case_id, kind, algo, inits, mask, config, match_key) "
			 "VALUES (%d, %d, 'xcall', 'locked', 2, %d, '{\"algo\":\"locked\",\"mask\":\"%d\"}', 'm%d')",
			 run, c, c, c, c);
		exec(db, sql);
		for (int rep = 0; rep < 3; rep++)
			for (int init = 0; init < 3; init++) {
				int in = init == 2 ? 65535 : init, v = 100 * c + 10 * rep + init;

				snprintf(sql, sizeof(sql), "INSERT INTO results VALUES (%d, %d, %d, %d, 10, %d, %d, %d, %d, %d, %d, "
					 "%d000, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, %d, 0, 0, 0, 1000, NULL, NULL, NULL, NULL, NULL, NULL)",
					 run, c, rep, in, v, v + 5, v + 6, v + 7, v + 8, v + 9, v + 5, v / 2);
				exec(db, sql);
				/* buckets v and v+5, empty ones between: one chunk */
				snprintf(sql, sizeof(sql), "INSERT INTO histogram_chunks VALUES (%d, %d, %d, %d, %d, 6, "
					 "'3,0,0,0,0,7')", run, c, rep, in, v);
				exec(db, sql);
			}
	}
}

/* The same cases, one at a time (load_results and attach_p10 per case),
 * as a JSON array's text. */
static void cases_one_by_one(struct dbi *db, int64_t run, struct buf *b)
{
	struct case_cursor cc;
	struct case_row c;

	assert_int_equal(cases_open(db, run, &cc), 0);
	assert_int_equal(jsonw_lit(b, "["), 0);
	while (cases_next(&cc, &c)) {
		struct resrow *rows;
		size_t n;

		assert_int_equal(load_results(db, run, c.case_id, &rows, &n), 0);
		attach_p10(db, run, c.case_id, rows, n);
		assert_int_equal((b->p[b->len - 1] != '[' && jsonw_lit(b, ",")) || case_write(b, &c, rows, n, 2000000), 0);
		free(rows);
		case_row_free(&c);
	}
	assert_int_equal(jsonw_lit(b, "]"), 0);
	cases_close(&cc);
}

static void run_cases_constant_queries(void **st)
{
	struct dbi *db = open_db();
	int queries[2];

	(void)st;
	store_run(db, 1, 1);
	store_run(db, 2, 12);
	for (int r = 1; r <= 2; r++) {
		struct buf all = { 0 }, each = { 0 };
		json_t *arr;
		int64_t next;

		/* Statements run on db: the seam counts each execution. */
		int64_t before = dbi_executions(db);

		assert_int_equal(run_cases_write(&all, db, r, 2000000, -1, INT64_MAX, &next), 0);
		queries[r - 1] = (int)(dbi_executions(db) - before);
		assert_int_equal(next, -1);
		cases_one_by_one(db, r, &each);
		assert_string_equal(all.p, each.p);
		arr = json_loads(all.p, 0, NULL);
		assert_int_equal(json_array_size(arr), r == 1 ? 1 : 12);
		/* p10 came from the histograms: 3 at v, 7 at v+5 → rank 1 → v. */
		assert_true(json_number_value(json_object_get(json_object_get(json_array_get(arr, 0), "stats"),
							      "p10")) > 0);
		json_decref(arr);
		buf_free(&all);
		buf_free(&each);
	}
	/* cases, RESULT rows, histograms: one statement each, for 1 case or 12. */
	assert_int_equal(queries[0], 3);
	assert_int_equal(queries[1], 3);
	dbi_close(db);
}

/* jsonw_real: a real as reply_json writes it (common/jsontext.c: the
 * shortest text that reads back; its own test_jsontext goes over random
 * bit patterns), byte for byte, over reals of every shape (integral,
 * tiny, huge, negative, exponents of each width), and nothing for NaN and
 * infinity. */
static void reals_as_reply_json(void **st)
{
	static const double fixed[] = { 0, -0.0, 0.1, 0.95, 3, 520.123, 1e20, 1e-7, 1e100, 1.5e300, 123456789.125,
		5e-324, 1.7976931348623157e308, -2.5e-10, 9e15, 4503599627370496.5, 1e16, 0.001, 1.0 / 3,
		NAN, INFINITY, -INFINITY };

	(void)st;
	for (size_t i = 0; i < sizeof(fixed) / sizeof(*fixed); i++) {
		double v = fixed[i];
		json_t *j = json_real(v);
		struct buf b = { 0 }, ref = { 0 };

		if (j && json_text(&ref, j, 0) == 0) {
			if (jsonw_real(&b, v))
				fail_msg("%.17g: reply_json writes %s", v, ref.p);
			assert_string_equal(b.p, ref.p);
		} else {
			/* NaN, infinity: no value */
			assert_int_equal(jsonw_real(&b, v), -1);
			assert_int_equal(b.len, 0);
		}
		json_decref(j);
		buf_free(&ref);
		buf_free(&b);
	}
}

/* A case's "config" and "delivery_used" as jansson dumps them, whether
 * the text is the store's (flat, sorted: copied as it is) or anything else
 * (unsorted, a repeated key, escapes, UTF-8, numbers, not an object). */
static void config_as_jansson(void **st)
{
	static const char *const cfgs[] = {
		"{\"algo\":\"locked\",\"mask\":\"3\"}",
		"{\"algo\":\"locked\",\"x_delivery_used\":\"ipi\"}",
		"{\"mask\":\"3\",\"algo\":\"locked\"}",
		"{\"algo\":\"a\",\"algo\":\"b\"}",
		"{\"algo\":\"a\\\"b\",\"x\":\"/\\u00e9\"}",
		"{\"algo\":\"caf\xc3\xa9\"}",
		"{\"n\":3,\"x_delivery_used\":\"multi\"}",
		"{ \"algo\": \"spaced\" }",
		"{}",
		"[1,2]",
		"not json",
	};
	struct dbi *db = open_db();

	(void)st;
	exec(db, "INSERT INTO runs(id, token, created) VALUES (1, '00000000000000aa', 0)");
	for (size_t i = 0; i < sizeof(cfgs) / sizeof(*cfgs); i++) {
		struct case_row c = { .case_id = (int64_t)i + 1, .config = (char *)cfgs[i] };
		struct buf b = { 0 }, want = { 0 };
		json_t *cfg = json_loads(cfgs[i], 0, NULL), *used;
		char *dump;

		if (!cfg)
			cfg = json_object();
		used = json_is_object(cfg) ? json_object_get(cfg, "x_delivery_used") : NULL;
		c.delivery = (struct dbval){ .type = DBI_TEXT, .s = (char *)"asked" };
		assert_int_equal(case_write(&b, &c, NULL, 0, 0), 0);
		dump = json_dumps(cfg, JSON_COMPACT | JSON_ENCODE_ANY);
		buf_addf(&want, ",\"delivery_used\":\"%s\",\"config\":%s,\"initiators\":",
			 used ? json_string_value(used) : "asked", dump);
		if (!strstr(b.p, want.p))
			fail_msg("config %s: %s lacks %s", cfgs[i], b.p, want.p);
		free(dump);
		json_decref(cfg);
		buf_free(&b);
		buf_free(&want);
	}
	dbi_close(db);
}

/* agg_lock_write's "lock" for one aggregate: acq acquisitions of which
 * count are the case's timed calls, hold and wait cycles in all. */
static json_t *lock_of(const char *kind, const char *algo, const char *flush, const char *rwlock, double acq,
		       double count, double hold, double wait)
{
	struct agg a;
	struct buf b = { 0 };
	struct resrow r;	/* the one repetition these sums are of */
	json_error_t e;
	json_t *o;

	memset(&a, 0, sizeof(a));
	memset(&r, 0, sizeof(r));
	a.count = r.v[RV_count] = count;
	a.sum[RV_lock_acq - RV_ipis] = r.v[RV_lock_acq] = acq;
	a.sum[RV_lock_hold_cycles - RV_ipis] = r.v[RV_lock_hold_cycles] = hold;
	a.sum[RV_lock_wait_cycles - RV_ipis] = r.v[RV_lock_wait_cycles] = wait;
	assert_int_equal(jsonw_lit(&b, "{") || agg_lock_write(&b, &a, &r, 1, kind, algo, flush, rwlock) ||
			 jsonw_lit(&b, "}"), 0);
	o = json_loads(b.p, 0, &e);
	if (!o)
		fail_msg("not JSON (%s): %s", e.text, b.p);
	buf_free(&b);
	return o;
}

/* Which lock, and each figure over its own acquisitions: a sync case's
 * hold per write and wait per read (over reads + writes the hold read a
 * fraction of the writer's), null where none of its kind was taken; the
 * TLB paths' locks; no lock: null. */
static void lock_per_acquisition(void **st)
{
	(void)st;
	json_t *o = lock_of("sync", "inside", "vector", "fair", 400, 300, 100 * 2000.0, 300 * 700.0);
	json_t *l = json_object_get(o, "lock");

	assert_string_equal(json_string_value(json_object_get(l, "name")), "rw-lock (fair)");
	assert_int_equal(json_integer_value(json_object_get(l, "holds")), 100);
	assert_int_equal(json_integer_value(json_object_get(l, "waits")), 300);
	assert_int_equal(json_integer_value(json_object_get(l, "hold_cycles_per")), 2000);
	assert_int_equal(json_integer_value(json_object_get(l, "wait_cycles_per")), 700);
	json_decref(o);

	o = lock_of("sync", "inside", NULL, "writer", 300, 300, 0, 300 * 700.0); /* no write timed */
	l = json_object_get(o, "lock");
	assert_string_equal(json_string_value(json_object_get(l, "name")), "rw-lock (writer)");
	assert_true(json_is_null(json_object_get(l, "hold_cycles_per")));
	assert_int_equal(json_integer_value(json_object_get(l, "wait_cycles_per")), 700);
	json_decref(o);

	o = lock_of("tlb", "vector", "vector", NULL, 30, 10, 3000, 600);
	l = json_object_get(o, "lock");
	assert_string_equal(json_string_value(json_object_get(l, "name")), "flush lock");
	assert_int_equal(json_integer_value(json_object_get(l, "holds")), 30);
	assert_int_equal(json_integer_value(json_object_get(l, "hold_cycles_per")), 100);
	assert_int_equal(json_integer_value(json_object_get(l, "wait_cycles_per")), 20);
	json_decref(o);

	o = lock_of("tlb", "locked", "xcall", NULL, 30, 10, 3000, 600);
	assert_string_equal(json_string_value(json_object_get(json_object_get(o, "lock"), "name")), "locked's call lock");
	json_decref(o);
	o = lock_of("xcall", "locked", NULL, NULL, 8, 8, 80, 0);
	assert_string_equal(json_string_value(json_object_get(json_object_get(o, "lock"), "name")), "locked's call lock");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(o, "lock"), "wait_cycles_per")), 0);
	json_decref(o);

	o = lock_of("xcall", "lockless", NULL, NULL, 0, 8, 0, 0);
	assert_true(json_is_null(json_object_get(o, "lock")));
	json_decref(o);
}

/* compare --row lock_hold's values: each repetition's hold per acquisition
 * of the case's lock, per write for a sync case (its reads are `count`),
 * per lock_acq for any other; a repetition that held no lock is no value;
 * LOCK's hold_cycles_p50 is their median (one repetition: its
 * hold_cycles_per). */
static void lock_hold_per_repetition(void **st)
{
	(void)st;
	/* count, lock_acq, lock_hold_cycles of 4 repetitions' aggregate rows */
	static const double rep[4][3] = { { 200, 200, 200 * 900.0 }, { 200, 200, 200 * 1100.0 },
					  { 200, 0, 0 }, { 200, 200, 200 * 1000.0 } };
	struct resrow rows[4];
	double v[4];

	memset(rows, 0, sizeof(rows));
	for (int i = 0; i < 4; i++) {
		rows[i].v[RV_count] = rep[i][0];
		rows[i].v[RV_lock_acq] = rep[i][1];
		rows[i].v[RV_lock_hold_cycles] = rep[i][2];
	}
	assert_int_equal(lock_hold_reps(rows, 4, "tlb", v), 3);
	assert_true(v[0] == 900 && v[1] == 1100 && v[2] == 1000);
	/* sync: the same rows' holds are lock_acq - count = 0: no write timed */
	assert_int_equal(lock_hold_reps(rows, 4, "sync", v), 0);
	rows[0].v[RV_lock_acq] = 210;	/* 200 reads + 10 writes of 900 * 20 each */
	assert_int_equal(lock_hold_reps(rows, 4, "sync", v), 1);
	assert_true(v[0] == 200 * 900.0 / 10);
	assert_true(lock_holds("sync", 210, 200) == 10 && lock_holds("xcall", 210, 200) == 210);

	struct agg a;
	struct buf b = { 0 };
	json_t *o;

	rows[0].v[RV_lock_acq] = 200;
	agg_compute(rows, 4, &a);
	assert_int_equal(jsonw_lit(&b, "{") || agg_lock_write(&b, &a, rows, 4, "tlb", "vector", "vector", NULL) ||
			 jsonw_lit(&b, "}"), 0);
	o = json_loads(b.p, 0, NULL);
	assert_non_null(o);
	/* the median of 900, 1100, 1000; the pooled hold_cycles_per is 3e5 / 600 */
	assert_int_equal(json_integer_value(json_object_get(json_object_get(o, "lock"), "hold_cycles_p50")), 1000);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(o, "lock"), "hold_cycles_per")), 1000);
	json_decref(o);
	buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(p10_from_histograms, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(p10_null_without_histograms, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(pseudo_initiators_apart, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(fairness_of_shared_window, fx_setup, fx_teardown),
		cmocka_unit_test(run_cases_constant_queries),
		cmocka_unit_test(reals_as_reply_json),
		cmocka_unit_test(config_as_jansson),
		cmocka_unit_test(lock_per_acquisition),
		cmocka_unit_test(lock_hold_per_repetition),
	};
	return cmocka_run_group_tests_name("casestats", tests, NULL, NULL);
}
