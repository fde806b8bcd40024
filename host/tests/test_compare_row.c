/*
 * test_compare_row.c — compare's rows (row=): the names it takes, in one
 * order from one table (all, proto's pseudo-initiators, lock_hold), and
 * which cases and values row=lock_hold compares, on a real SQLite store
 * with the daemon's own schema: every case with a lock profile, by each
 * repetition's hold per acquisition of its lock (a sync case's per write),
 * with the bootstrap interval the other rows get; a case without a lock
 * profile left out.
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

#include "compare.h"
#include "pseudo_words.h"
#include "xcb_proto.h"

extern const char *const xcb_migrations[];
extern const int xcb_nmigrations;

static void parse_and_name(void **st)
{
	(void)st;
	unsigned row = 99;
	char names[160];

	assert_int_equal(compare_row_parse("all", &row), 0);
	assert_int_equal(row, 0);
	assert_int_equal(compare_row_parse("writer_hold", &row), 0);
	assert_int_equal(row, XCB_INIT_W_HOLD);
	assert_int_equal(compare_row_parse("reader_batch", &row), 0);
	assert_int_equal(row, XCB_INIT_R_BATCH);
	assert_int_equal(compare_row_parse(pseudo_words_lock_hold.name, &row), 0);
	assert_int_equal(row, COMPARE_ROW_LOCK_HOLD);
	assert_string_equal(compare_row_name(COMPARE_ROW_LOCK_HOLD), "lock_hold");
	assert_string_equal(compare_row_name(0), "all");
	assert_string_equal(compare_row_name(XCB_INIT_W_E2E), "writer_e2e");
	/* not rows: a CPU, proto's name of the all row's number, a typo */
	assert_int_equal(compare_row_parse("cpu0", &row), -1);
	assert_int_equal(compare_row_parse("lock_hld", &row), -1);
	assert_int_equal(compare_row_parse("", &row), -1);
	compare_row_names(names, sizeof(names));
	assert_string_equal(names, "all, writer_hold, writer_e2e, writer_effective, reader_batch, lock_hold");
	compare_row_names(names, 12);	/* cut short, terminated */
	assert_string_equal(names, "all, writer");
}

static void exec(struct dbi *db, const char *sql)
{
	if (dbi_exec(db, sql) != DBI_OK)
		fail_msg("%s: %s", sql, dbi_errmsg(db));
}

static void add_case(struct dbi *db, int id, const char *cfg)
{
	char sql[512];

	snprintf(sql, sizeof(sql), "INSERT INTO cases(run_id, case_id, config, match_key) VALUES (1, %d, '%s', '')",
		 id, cfg);
	exec(db, sql);
}

/* The all row of case id's repetition rep: count timed calls of p50 each,
 * the lock taken acq times for hold cycles in all. The columns are named:
 * a migration appends columns (015: window_calls, window_cycles), which
 * read NULL here as in a row of an older payload. */
static void add_rep(struct dbi *db, int id, int rep, int count, int p50, int acq, long long hold)
{
	char sql[512];

	snprintf(sql, sizeof(sql), "INSERT INTO results (run_id, case_id, rep, initiator, count, min, p50, p90, p99, p999, max, "
		 "mean_x1000, stddev_x1000, ipis, lock_acq, lock_contended, lock_hold_cycles, lock_wait_cycles, stale, "
		 "calls_executed, calls_expected, flags) VALUES (1, %d, %d, 65535, %d, %d, %d, %d, %d, %d, %d, "
		 "%d000, 0, 0, %d, 0, %lld, 0, 0, 0, 0, 0)",
		 id, rep, count, p50, p50, p50, p50, p50, p50, p50, acq, hold);
	exec(db, sql);
}

static json_t *case_of(json_t *o, const char *kind)
{
	size_t i;
	json_t *c;

	json_array_foreach(json_object_get(o, "cases"), i, c)
		if (!strcmp(json_string_value(json_object_get(json_object_get(c, "key"), "kind")) ?: "", kind))
			return c;
	return NULL;
}

static void lock_hold_selects_and_compares(void **st)
{
	(void)st;
	char err[256];
	struct dbi *db = dbi_open(":memory:", DBI_RW, err, sizeof(err));
	struct compare_req rq;

	assert_non_null(db);
	for (int i = 0; i < xcb_nmigrations; i++)
		assert_int_equal(dbi_exec(db, xcb_migrations[i]), DBI_OK);
	exec(db, "INSERT INTO runs(id, token, created) VALUES (1, '00000000000000aa', 0)");
	/* the shorthand thread's pair (flush lock), a lockless pair (no lock),
	 * a sync pair (its rw-lock: 200 timed reads + 10 writes a repetition) */
	add_case(db, 1, "{\"kind\":\"tlb\",\"algo\":\"vector\",\"flush\":\"vector\",\"delivery\":\"unicast\"}");
	add_case(db, 2, "{\"kind\":\"tlb\",\"algo\":\"vector\",\"flush\":\"vector\",\"delivery\":\"allbutself\"}");
	add_case(db, 3, "{\"kind\":\"xcall\",\"algo\":\"lockless\",\"delivery\":\"unicast\"}");
	add_case(db, 4, "{\"kind\":\"xcall\",\"algo\":\"lockless\",\"delivery\":\"allbutself\"}");
	add_case(db, 5, "{\"kind\":\"sync\",\"algo\":\"inside\",\"delivery\":\"unicast\"}");
	add_case(db, 6, "{\"kind\":\"sync\",\"algo\":\"inside\",\"delivery\":\"allbutself\"}");
	/* holds a shootdown: unicast 3000 + 10 r, the shorthand 2000 + 10 r;
	 * the call time (p50) moves the other way, so row=all tells them apart */
	for (int r = 0; r < 5; r++) {
		add_rep(db, 1, r, 200, 5000, 200, 200LL * (3000 + 10 * r));
		add_rep(db, 2, r, 200, 6000, 200, 200LL * (2000 + 10 * r));
		add_rep(db, 3, r, 200, 4000, 0, 0);
		add_rep(db, 4, r, 200, 4100, 0, 0);
		add_rep(db, 5, r, 200, 100, 210, 10LL * (90000 + 100 * r));
		add_rep(db, 6, r, 200, 100, 210, 10LL * (45000 + 100 * r));
	}

	memset(&rq, 0, sizeof(rq));
	rq.a.runs[0] = rq.b.runs[0] = 1;
	rq.a.nruns = rq.b.nruns = 1;
	rq.a.nwhere = rq.b.nwhere = 1;
	strcpy(rq.a.where[0].key, "delivery");
	strcpy(rq.a.where[0].value, "unicast");
	strcpy(rq.b.where[0].key, "delivery");
	strcpy(rq.b.where[0].value, "allbutself");
	rq.fdr = COMPARE_FDR;
	rq.min_effect = COMPARE_MIN_EFFECT;
	assert_int_equal(compare_row_parse("lock_hold", &rq.row), 0);

	json_t *o = compare_runs(db, &rq, NULL, NULL), *c;

	assert_non_null(o);
	assert_string_equal(json_string_value(json_object_get(o, "row")), "lock_hold");
	/* the lockless cases have no lock profile: left out */
	assert_int_equal(json_array_size(json_object_get(o, "cases")), 2);
	assert_null(case_of(o, "xcall"));
	c = case_of(o, "tlb");
	assert_non_null(c);
	/* the median of the repetitions' hold per acquisition, not the p50 */
	assert_true(json_number_value(json_object_get(c, "a_p50")) == 3020);
	assert_true(json_number_value(json_object_get(c, "b_p50")) == 2020);
	assert_string_equal(json_string_value(json_object_get(c, "method")), "bootstrap");
	assert_true(json_is_number(json_object_get(c, "ci_low")) && json_is_number(json_object_get(c, "ci_high")));
	assert_true(json_number_value(json_object_get(c, "change_pct")) < -30);
	assert_true(json_number_value(json_object_get(c, "ci_high")) < 0);
	assert_true(json_is_true(json_object_get(c, "significant")));
	/* a sync case's hold is per write: 10 of its 210 acquisitions */
	c = case_of(o, "sync");
	assert_non_null(c);
	assert_true(json_number_value(json_object_get(c, "a_p50")) == 90200);
	assert_true(json_number_value(json_object_get(c, "b_p50")) == 45200);
	json_decref(o);

	/* row=all: every case, by its call time */
	rq.row = 0;
	o = compare_runs(db, &rq, NULL, NULL);
	assert_int_equal(json_array_size(json_object_get(o, "cases")), 3);
	c = case_of(o, "tlb");
	assert_true(json_number_value(json_object_get(c, "a_p50")) == 5000);
	assert_true(json_number_value(json_object_get(c, "change_pct")) > 0);
	json_decref(o);
	dbi_close(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_and_name),
		cmocka_unit_test(lock_hold_selects_and_compares),
	};
	return cmocka_run_group_tests_name("compare_row", tests, NULL, NULL);
}
