/* test_csv.c — RFC 4180 quoting of the CSV exports. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "csv.h"

/* The record of text cells (n of them, NULL = no value) must be want. */
static void row_is(const char *const *cells, size_t n, const char *want)
{
	struct buf b = { 0 };

	for (size_t i = 0; i < n; i++)
		csv_str(&b, cells[i]);
	csv_end(&b);
	assert_string_equal(b.p, want);
	buf_free(&b);
}
#define ROW_IS(want, ...) row_is((const char *const[]){ __VA_ARGS__ }, \
				 sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(const char *), want)

static void plain_and_quoted(void **st)
{
	(void)st;
	ROW_IS("plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\"cr\rhere\",,,ünïcode\r\n",
	       "plain", "a,b", "say \"hi\"", "two\nlines", "cr\rhere", "", NULL, "ünïcode");
}

static void numbers(void **st)
{
	struct buf b = { 0 };

	(void)st;
	csv_i64(&b, -5);
	csv_i64(&b, INT64_MAX);
	csv_f(&b, 1.23456, 3);
	csv_f(&b, NAN, 3);
	csv_empty(&b);
	csv_f(&b, 2.0, 0);
	csv_end(&b);
	assert_string_equal(b.p, "-5,9223372036854775807,1.235,,,2\r\n");
	buf_free(&b);
}

static void only_quote(void **st)
{
	struct buf b = { 0 };

	(void)st;
	csv_str(&b, "\"");
	csv_end(&b);
	csv_str(&b, "x");
	csv_end(&b);
	assert_string_equal(b.p, "\"\"\"\"\r\nx\r\n");
	buf_free(&b);
}

/* Formula injection: every text cell a spreadsheet would evaluate is
 * prefixed with ', quoted or not; numbers written as text stay numbers. */
static void formulas_neutralised(void **st)
{
	(void)st;
	ROW_IS("\"'=HYPERLINK(\"\"http://x\"\")\",'+1+cmd|' /C calc'!A0,'-2+3,'@SUM(A1),"
	       "'\tx,\"'\r=1\",-5,+1.5e3,a=b,'-\r\n",
	       "=HYPERLINK(\"http://x\")", "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)", "\tx", "\r=1",
	       "-5", "+1.5e3", "a=b", "-");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(plain_and_quoted),
		cmocka_unit_test(numbers),
		cmocka_unit_test(only_quote),
		cmocka_unit_test(formulas_neutralised),
	};
	return cmocka_run_group_tests_name("csv", tests, NULL, NULL);
}
