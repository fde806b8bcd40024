/*
 * test_casestats.c — a case's STATS from stored RESULT rows and histograms,
 * on a real SQLite database with the daemon's own schema (the generated
 * migrations): p10, which RESULT does not carry, derived from the HISTO
 * rows per (rep, initiator), clamped to the row's min/max, with the merged
 * histogram as fallback, then the median over repetitions. And a run's
 * cases as the run page gets them: the same JSON as case by case, from a
 * number of queries that does not grow with the cases.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "casestats.h"
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
		 "%d000, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)", rep, init, count, min, p50, p50, p50, p50, max, p50);
	exec(db, sql);
}

static void bucket(struct dbi *db, int rep, int init, int b, int count)
{
	char sql[256];

	snprintf(sql, sizeof(sql), "INSERT INTO histograms VALUES (1, 1, %d, %d, %d, %d)", rep, init, b, count);
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
	inits = made(f, initiators_json(f->rows, f->n, &fair));
	made(f, fair);
	assert_int_equal(json_array_size(inits), 2);
	assert_true(p10_of(json_array_get(inits, 0)) == 50);
	assert_true(json_is_null(json_object_get(json_array_get(inits, 1), "p10")));
	k = pick_aggregate(f->rows, f->n);
	assert_int_equal(k, 3);
	/* STATS.p10: the median over repetitions of 100, 95, 120 → 100; ns
	 * at 2 000 000 kHz: 100 cycles = 50 ns. */
	stats = made(f, agg_json(f->rows, k, 2000000, &ns));
	made(f, ns);
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
	inits = made(f, initiators_json(f->rows, f->n, &fair));
	made(f, fair);
	assert_int_equal(json_array_size(inits), 2);
	assert_false(json_is_null(fair));
	ps = made(f, pseudo_json(f->rows, f->n));
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
	stats = made(f, agg_json(f->rows, pick_aggregate(f->rows, f->n), 0, NULL));
	assert_true(json_is_null(json_object_get(stats, "p10")));
	assert_true(json_number_value(json_object_get(stats, "p50")) == 200);
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
					 "%d000, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, %d, 0, 0, 0, 1000, NULL, NULL, NULL, NULL)",
					 run, c, rep, in, v, v + 5, v + 6, v + 7, v + 8, v + 9, v + 5, v / 2);
				exec(db, sql);
				snprintf(sql, sizeof(sql), "INSERT INTO histograms VALUES (%d, %d, %d, %d, %d, 3), "
					 "(%d, %d, %d, %d, %d, 7)", run, c, rep, in, v, run, c, rep, in, v + 5);
				exec(db, sql);
			}
	}
}

/* The same cases, one at a time (load_results and attach_p10 per case). */
static json_t *cases_one_by_one(struct dbi *db, int64_t run)
{
	struct case_cursor cc;
	struct case_row c;
	json_t *arr = json_array();

	assert_int_equal(cases_open(db, run, &cc), 0);
	while (cases_next(&cc, &c)) {
		struct resrow *rows;
		size_t n;

		assert_int_equal(load_results(db, run, c.case_id, &rows, &n), 0);
		attach_p10(db, run, c.case_id, rows, n);
		json_array_append_new(arr, case_json(&c, rows, n, 2000000));
		free(rows);
		case_row_free(&c);
	}
	cases_close(&cc);
	return arr;
}

static void run_cases_constant_queries(void **st)
{
	struct dbi *db = open_db();
	int queries[2];

	(void)st;
	store_run(db, 1, 1);
	store_run(db, 2, 12);
	for (int r = 1; r <= 2; r++) {
		json_t *all, *each;
		char *a, *b;

		/* Statements run on db: the seam counts each execution. */
		int64_t before = dbi_executions(db);

		all = run_cases_json(db, r, 2000000);
		queries[r - 1] = (int)(dbi_executions(db) - before);
		each = cases_one_by_one(db, r);
		assert_int_equal(json_array_size(all), r == 1 ? 1 : 12);
		a = json_dumps(all, JSON_COMPACT);
		b = json_dumps(each, JSON_COMPACT);
		assert_string_equal(a, b);
		/* p10 came from the histograms: 3 at v, 7 at v+5 → rank 1 → v. */
		assert_true(json_number_value(json_object_get(json_object_get(json_array_get(all, 0), "stats"),
							      "p10")) > 0);
		free(a);
		free(b);
		json_decref(all);
		json_decref(each);
	}
	/* cases, RESULT rows, histograms: one statement each, for 1 case or 12. */
	assert_int_equal(queries[0], 3);
	assert_int_equal(queries[1], 3);
	dbi_close(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(p10_from_histograms, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(p10_null_without_histograms, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(pseudo_initiators_apart, fx_setup, fx_teardown),
		cmocka_unit_test(run_cases_constant_queries),
	};
	return cmocka_run_group_tests_name("casestats", tests, NULL, NULL);
}
