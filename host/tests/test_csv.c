/* test_csv.c — RFC 4180 quoting of the CSV exports, and the stored chunks
 * text written with the same number cells (chunkvals.h). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "chunkvals.h"
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

/* The printf-free csv_i64 and csv_milli write what "%lld," and "%.3f," of
 * x / 1000.0 write (the run CSV's bytes must not change), at the edges and
 * over a sweep of magnitudes on both sides of zero. */
static void fast_numbers_match_printf(void **st)
{
	static const int64_t edge[] = { 0, 1, -1, 9, 10, -10, 999, 1000, -1000, 1001, -999,
					999999999999LL, -999999999999LL, 1000000000000LL,
					-1000000000000LL, INT64_MAX, INT64_MIN, INT64_MIN + 1 };
	char want[64];

	(void)st;
	for (int64_t k = 0; k < 30000; k++) {
		/* the edges, then a linear sweep, then scrambled magnitudes */
		int64_t x = k < 18 ? edge[k]
			  : k < 10000 ? k * 7919 - 70000000
			  : (int64_t)((uint64_t)k * 0x9e3779b97f4a7c15ULL) >> (k % 63);
		struct buf b = { 0 };

		csv_i64(&b, x);
		snprintf(want, sizeof(want), "%lld,", (long long)x);
		assert_string_equal(b.p, want);
		b.len = 0;
		csv_milli(&b, x);
		snprintf(want, sizeof(want), "%.3f,", x / 1000.0);
		assert_string_equal(b.p, want);
		buf_free(&b);
	}
}

/* csv_f's printf-free path writes what "%.*f," writes: halves and other
 * exact binary ties (printf breaks them on the exact value), values just
 * beside them, and a sweep of quotients like the run CSV's ns columns. */
static void fast_fixed_matches_printf(void **st)
{
	static const double edge[] = { 0, 0.05, 0.15, 0.25, 0.5, 1.5, 2.5, 0.125, 0.375, 2.675,
				       1.0005, 0.0005, 999999999.9, 1e9, 123.45, 0.95, 9.995 };
	char want[64];

	(void)st;
	for (int k = 0; k < 60000; k++) {
		double v = k < 17 ? edge[k]
			 : k < 20000 ? (k % 5000) * 1e6 / 2100001.0 + (k / 5000) * 0.25
			 : k < 40000 ? (double)(k * 7) / (double)(k % 977 + 1)
			 : nextafter(edge[k % 17] * (k % 7 + 1), k % 2 ? 0 : 1e10);

		for (int d = 0; d <= 4; d++) {
			struct buf b = { 0 };

			csv_f(&b, v, d);
			snprintf(want, sizeof(want), "%.*f,", d, v);
			assert_string_equal(b.p, want);
			buf_free(&b);
		}
	}
}

/* A stored chunk's values read back as written (the edges of int64,
 * zeros, one value, none); text that is not such a list, or holds more
 * values than asked for, is -1. */
static void chunk_values_round_trip(void **state)
{
	const int64_t v[] = { 0, 7, INT64_MAX, INT64_MIN, -1, 0, 1000000007 };
	char text[CHUNK_VALS_MAX(7)];
	int64_t back[8];
	const char *bad[] = { ",1", "1,", "1,,2", "x", "1 ,2", "-", "9223372036854775808",
			      "-9223372036854775809", "1;2" };
	const char *want = "0,7,9223372036854775807,-9223372036854775808,-1,0,1000000007";

	assert_int_equal(chunk_vals_put(text, v, 7), strlen(want));
	assert_string_equal(text, want);
	assert_int_equal(chunk_vals_get(text, back, 8), 7);
	for (int i = 0; i < 7; i++)
		assert_true(back[i] == v[i]);
	assert_int_equal(chunk_vals_get(text, back, 6), -1);
	assert_int_equal(chunk_vals_put(text, v + 1, 1), 1);
	assert_int_equal(chunk_vals_get(text, back, 1), 1);
	assert_int_equal(chunk_vals_put(text, v, 0), 0);
	assert_int_equal(chunk_vals_get(text, back, 1), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++)
		assert_int_equal(chunk_vals_get(bad[i], back, 8), -1);
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(plain_and_quoted),
		cmocka_unit_test(numbers),
		cmocka_unit_test(only_quote),
		cmocka_unit_test(formulas_neutralised),
		cmocka_unit_test(fast_numbers_match_printf),
		cmocka_unit_test(fast_fixed_matches_printf),
		cmocka_unit_test(chunk_values_round_trip),
	};
	return cmocka_run_group_tests_name("csv", tests, NULL, NULL);
}
