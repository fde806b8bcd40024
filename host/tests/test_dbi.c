/*
 * test_dbi.c — the storage seam's one-statement helpers (dbi.h: dbi_query,
 * dbi_row, dbi_run, dbi_i64) against a real engine: typed arguments reach
 * the row with their types, a row / no row / a failed statement each come
 * back as documented with nothing left open, and an argument the SQL has no
 * parameter for fails the statement instead of being dropped.
 *
 * On an in-memory SQLite database; with XCB_TEST_PG set to a
 * postgresql:// URL (tests/t-pg-schema.sh) the same tests run on
 * PostgreSQL. A statement left unfinalized shows as a leak under ASan.
 * dbval_read (each engine's column_val) gives what the column calls give
 * (dbi_column_val_calls): type, integer, double and text of NULL, integers
 * (to 2^63 - 1), reals, text, a bool, a sum and a number past 2^63.
 * On PostgreSQL also a reader's shared plans (dbi_pg.c's plan_shared):
 * one text run by several statements in turn is prepared on the server
 * once, and each gets its own answer.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "dbi.h"
#include "dbi_engine.h"
#include "util.h"

/* One connection with an empty table t (id, r, s), on the engine asked
 * for: the state is the connection. */
static int setup(void **state)
{
	const char *pg = getenv("XCB_TEST_PG");
	char err[512];
	struct dbi *db = dbi_open(pg ? pg : ":memory:", DBI_RW, err, sizeof(err));

	if (!db || dbi_exec(db, "DROP TABLE IF EXISTS t") ||
	    dbi_exec(db, "CREATE TABLE t (id BIGINT PRIMARY KEY, r DOUBLE PRECISION, s TEXT)")) {
		fprintf(stderr, "%s\n", db ? dbi_errmsg(db) : err);
		dbi_close(db);
		return -1;
	}
	*state = db;
	return 0;
}

static int teardown(void **state)
{
	dbi_close(*state);
	return 0;
}

/* Every kind of argument is bound to its parameter with its type: an int
 * stays an integer, a double a float, text text, NULL text and DBI_NUL
 * are SQL NULL. */
static void arguments_keep_their_types(void **state)
{
	struct dbi *db = *state;
	struct dbi_stmt *st;
	int small = 7; /* an int, widened where DBI_I is written */

	assert_int_equal(dbi_run(db, "INSERT INTO t(id, r, s) VALUES (?, ?, ?)", DBI_I(small), DBI_D(2.5),
				 DBI_T("seven")), DBI_OK);
	assert_int_equal(dbi_run(db, "INSERT INTO t(id, r, s) VALUES (?, ?, ?)", DBI_I(INT64_MAX), DBI_NUL,
				 DBI_T(NULL)), DBI_OK);
	assert_int_equal(dbi_row(db, "SELECT id, r, s FROM t WHERE id = ?", &st, DBI_I(7)), DBI_ROW);
	assert_non_null(st);
	assert_int_equal(dbi_column_type(st, 0), DBI_INT);
	assert_int_equal(dbi_column_i64(st, 0), 7);
	assert_int_equal(dbi_column_type(st, 1), DBI_FLOAT);
	assert_true(dbi_column_double(st, 1) == 2.5);
	assert_int_equal(dbi_column_type(st, 2), DBI_TEXT);
	assert_string_equal(dbi_column_text(st, 2), "seven");
	dbi_finalize(st);
	assert_int_equal(dbi_row(db, "SELECT id, r, s FROM t WHERE id = ?", &st, DBI_I(INT64_MAX)), DBI_ROW);
	assert_int_equal(dbi_column_i64(st, 0), INT64_MAX);
	assert_int_equal(dbi_column_type(st, 1), DBI_NULL);
	assert_int_equal(dbi_column_type(st, 2), DBI_NULL);
	assert_null(dbi_column_text(st, 2));
	dbi_finalize(st);
}

/* dbi_row: DBI_ROW with the statement on the row; DBI_DONE, or the error,
 * with the statement already finalized and NULL (finalizing it again is
 * harmless). */
static void row_no_row_and_failure(void **state)
{
	struct dbi *db = *state;
	struct dbi_stmt *st = (struct dbi_stmt *)&st; /* not NULL: the call must set it */

	assert_int_equal(dbi_run(db, "INSERT INTO t(id, s) VALUES (?1, ?2)", DBI_I(1), DBI_T("one")), DBI_OK);
	assert_int_equal(dbi_row(db, "SELECT s FROM t WHERE id = ?1 OR id = ?1 + 100", &st, DBI_I(1)), DBI_ROW);
	assert_string_equal(dbi_column_text(st, 0), "one");
	dbi_finalize(st);

	st = (struct dbi_stmt *)&st;
	assert_int_equal(dbi_row(db, "SELECT s FROM t WHERE id = ?", &st, DBI_I(2)), DBI_DONE);
	assert_null(st);
	dbi_finalize(st);

	st = (struct dbi_stmt *)&st;
	assert_int_not_equal(dbi_row(db, "SELECT s FROM no_such_table WHERE id = ?", &st, DBI_I(1)), DBI_ROW);
	assert_null(st);
	dbi_finalize(st);
	/* the connection is still usable after the failure */
	assert_int_equal(dbi_i64(db, "SELECT count(*) FROM t WHERE id >= ?", -1, DBI_I(0)), 1);
}

/* An argument the SQL has no parameter for is refused on both engines: the
 * statement does not run, nothing is written, and no statement stays open. */
static void extra_argument_fails(void **state)
{
	struct dbi *db = *state;
	struct dbi_stmt *st = (struct dbi_stmt *)&st;

	assert_int_not_equal(dbi_run(db, "INSERT INTO t(id) VALUES (?)", DBI_I(5), DBI_T("extra")), DBI_OK);
	assert_int_equal(dbi_i64(db, "SELECT count(*) FROM t WHERE id = ?", -1, DBI_I(5)), 0);
	assert_int_not_equal(dbi_query(db, "SELECT id FROM t WHERE id = ?", &st, DBI_I(5), DBI_I(6)), DBI_OK);
	assert_null(st);
}

/* A statement of more than DBI_PARAMS_MAX parameters: refused at its
 * prepare on PostgreSQL (the engine's rewrite failed, and freed what it
 * had, cleanly) and run on SQLite; either way the connection goes on. */
static void too_many_parameters(void **state)
{
	struct dbi *db = *state;
	struct dbi_stmt *st = NULL;
	struct buf q = { 0 };
	int rc;

	buf_addf(&q, "SELECT count(*) FROM t WHERE id IN (?");
	for (int i = 1; i <= DBI_PARAMS_MAX; i++)
		buf_addf(&q, ", ?");
	buf_addf(&q, ")");
	rc = dbi_prepare(db, q.p, &st);
	if (dbi_engine(db) == DBI_PG) {
		assert_int_not_equal(rc, DBI_OK);
		assert_null(st);
	} else {
		assert_int_equal(rc, DBI_OK);
	}
	dbi_finalize(st);
	buf_free(&q);
	assert_int_equal(dbi_i64(db, "SELECT count(*) + ? FROM t", -1, DBI_I(7)), 7);
}

/* dbi_i64: the first column of the first row, else the default (no row, a
 * failed statement). dbi_query leaves the rows to step through, each
 * counted once as an execution. */
static void scalar_and_many_rows(void **state)
{
	struct dbi *db = *state;
	struct dbi_stmt *st;
	int64_t sum = 0, before;
	int rows = 0;

	for (int i = 1; i <= 5; i++)
		assert_int_equal(dbi_run(db, "INSERT INTO t(id, r) VALUES (?, ?)", DBI_I(i * 10), DBI_D(i)), DBI_OK);
	assert_int_equal(dbi_i64(db, "SELECT id FROM t WHERE r = ?", -1, DBI_D(3.0)), 30);
	assert_int_equal(dbi_i64(db, "SELECT id FROM t WHERE r = ?", -1, DBI_D(9.0)), -1);
	assert_int_equal(dbi_i64(db, "SELECT id FROM no_such_table WHERE r = ?", -2, DBI_D(1.0)), -2);
	before = dbi_executions(db);
	assert_int_equal(dbi_query(db, "SELECT id FROM t WHERE id > ? AND id < ? ORDER BY id", &st, DBI_I(10),
				   DBI_I(50)), DBI_OK);
	while (dbi_step(st) == DBI_ROW) {
		sum += dbi_column_i64(st, 0);
		rows++;
	}
	dbi_finalize(st);
	assert_int_equal(rows, 3);
	assert_int_equal(sum, 20 + 30 + 40);
	assert_int_equal(dbi_executions(db) - before, 1);
}

/* A reader runs one text through a new statement each time, as the
 * daemon's read paths do per request: every answer is its own, and on
 * PostgreSQL the server holds the text prepared once (the statements'
 * own second executions never came, so none was before). */
static void reader_shares_plans(void **state)
{
	struct dbi *db = *state, *ro;
	const char *pg = getenv("XCB_TEST_PG");
	char err[512];
	const char *const want[] = { "one", "two", "three" };

	if (!pg)
		skip(); /* an in-memory SQLite database has no second connection */
	for (int i = 1; i <= 3; i++)
		assert_int_equal(dbi_run(db, "INSERT INTO t(id, s) VALUES (?, ?)", DBI_I(i), DBI_T(want[i - 1])),
				 DBI_OK);
	ro = dbi_open(pg, DBI_RO, err, sizeof(err));
	assert_non_null(ro);
	for (int round = 0; round < 2; round++)
		for (int i = 1; i <= 3; i++) {
			struct dbi_stmt *st;

			assert_int_equal(dbi_row(ro, "SELECT s FROM t WHERE id = ? ", &st, DBI_I(i)), DBI_ROW);
			assert_string_equal(dbi_column_text(st, 0), want[i - 1]);
			dbi_finalize(st);
		}
	/* the same text with the id as text: other types, another plan */
	assert_int_equal(dbi_i64(ro, "SELECT length(s) FROM t WHERE id = ? ", -1, DBI_T("3")), 5);
	assert_int_equal(dbi_i64(ro, "SELECT count(*) FROM pg_prepared_statements WHERE statement = ?", -1,
				 DBI_T("SELECT s FROM t WHERE id = $1 ")), 1);
	dbi_close(ro);
}

/* dbval_read of every column of a row of values of every storage class
 * equals the column calls' reading of it, on this engine. */
static void dbval_read_is_the_column_calls(void **state)
{
	struct dbi *db = *state;
	struct dbi_stmt *st, *ref;
	/* CAST for PostgreSQL's types; on SQLite the same values */
	const char *sql = dbi_engine(db) == DBI_PG
		? "SELECT NULL, CAST(0 AS BIGINT), CAST(-42 AS INTEGER), CAST(9007199254740993 AS BIGINT), "
		  "CAST(9223372036854775807 AS BIGINT), CAST(-9223372036854775807 AS BIGINT) - 1, CAST(7 AS SMALLINT), "
		  "2.5::float8, 'text', '12abc', '', true, sum(x), 99999999999999999999::numeric, 3.25::numeric "
		  "FROM (VALUES (1), (2)) v(x)"
		: "SELECT NULL, 0, -42, 9007199254740993, 9223372036854775807, -9223372036854775807 - 1, 7, "
		  "2.5, 'text', '12abc', '', 1, sum(x), 99999999999999999999, 3.25 FROM (SELECT 1 AS x UNION ALL SELECT 2)";

	/* two statements: a value each reading converts in place (SQLite's
	 * text of an integer) is read fresh by the other */
	assert_int_equal(dbi_prepare(db, sql, &st), DBI_OK);
	assert_int_equal(dbi_prepare(db, sql, &ref), DBI_OK);
	assert_int_equal(dbi_step(st), DBI_ROW);
	assert_int_equal(dbi_step(ref), DBI_ROW);
	assert_int_equal(dbi_column_count(st), 15);
	for (int c = 0; c < dbi_column_count(st); c++) {
		struct dbval got, want;

		dbval_read(st, c, &got);
		dbi_column_val_calls(ref, c, &want);
		assert_int_equal(got.type, want.type);
		assert_true(got.i == want.i);
		assert_memory_equal(&got.d, &want.d, sizeof(got.d));
		if (want.s)
			assert_string_equal(got.s, want.s);
		else
			assert_null(got.s);
		dbval_free(&got);
		dbval_free(&want);
	}
	dbi_finalize(st);
	dbi_finalize(ref);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(arguments_keep_their_types, setup, teardown),
		cmocka_unit_test_setup_teardown(row_no_row_and_failure, setup, teardown),
		cmocka_unit_test_setup_teardown(extra_argument_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(too_many_parameters, setup, teardown),
		cmocka_unit_test_setup_teardown(scalar_and_many_rows, setup, teardown),
		cmocka_unit_test_setup_teardown(reader_shares_plans, setup, teardown),
		cmocka_unit_test_setup_teardown(dbval_read_is_the_column_calls, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
