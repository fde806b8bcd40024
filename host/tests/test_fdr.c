/*
 * test_fdr.c — Student's t, Welch's test on logs and Benjamini–Hochberg
 * against values computed by hand or by numerical integration of the t
 * density (the numbers in the comments).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "fdr.h"

#define near(a, b, eps) assert_true(fabs((a) - (b)) <= (eps))

static void t_distribution(void **st)
{
	(void)st;
	near(fdr_t_cdf(1, 1), 0.75, 1e-9);           /* Cauchy: 1/2 + atan(1)/pi */
	near(fdr_t_cdf(0, 7.3), 0.5, 1e-12);
	near(fdr_t_cdf(2.776445, 4), 0.975, 1e-6);   /* the textbook t(0.975, 4) */
	near(fdr_t_cdf(-2.228139, 10), 0.025, 1e-6);
	near(fdr_t_quantile(0.975, 4), 2.776445, 1e-5);
	near(fdr_t_quantile(0.975, 10), 2.228139, 1e-5);
	assert_true(isnan(fdr_t_cdf(NAN, 3)));
	assert_true(isnan(fdr_t_quantile(1.0, 3)));
}

static void welch(void **st)
{
	/* logs a = {0,1,2}, b = {1,2,3}: means 1, 2, variances 1, 1; se² = 2/3,
	 * t = 1.2247, df = (2/3)² / (2 · (1/3)² / 2) = 4, two-sided p = 0.28786
	 * (integrated); change = e − 1 = +171.83 %. */
	double a[] = { 1, M_E, M_E * M_E }, b[] = { M_E, M_E * M_E, M_E * M_E * M_E };
	double same[] = { 5, 5, 5 }, bad[] = { 1, 0 };
	struct fdr_welch w;

	(void)st;
	assert_int_equal(fdr_welch_log(a, 3, b, 3, 0.95, &w), 0);
	near(w.df, 4, 1e-9);
	near(w.p, 0.287864, 1e-5);
	near(w.change_pct, 171.828183, 1e-5);
	/* interval: exp(1 ∓ 2.776445·√(2/3)) − 1 */
	near(w.lo, expm1(1 - 2.776445 * sqrt(2.0 / 3)) * 100, 1e-3);
	near(w.hi, expm1(1 + 2.776445 * sqrt(2.0 / 3)) * 100, 1e-2);
	assert_true(w.lo < w.change_pct && w.change_pct < w.hi);
	/* no spread on either side */
	assert_int_equal(fdr_welch_log(same, 3, same, 3, 0.95, &w), 0);
	near(w.p, 1, 0);
	near(w.change_pct, 0, 0);
	/* one value a side, or a non-positive latency: no test */
	assert_int_equal(fdr_welch_log(a, 1, b, 3, 0.95, &w), -1);
	assert_true(isnan(w.p));
	assert_int_equal(fdr_welch_log(bad, 2, b, 3, 0.95, &w), -1);
}

static void paired(void **st)
{
	/* Three boots whose speeds differ 2x and 4x, each pair b = a·e^−0.6,
	 * e^−0.5, e^−0.7: log differences −0.6, −0.5, −0.7, mean −0.6, sample
	 * variance 0.01, se = 0.1/√3 = 0.057735, t = −10.3923 on 2 df,
	 * two-sided p = 0.009133 (integrated); change = e^−0.6 − 1 = −45.1188 %.
	 * Welch's test on the same values sees the boots' spread as noise. */
	double a[] = { 100, 200, 400 }, b[] = { 100 * exp(-0.6), 200 * exp(-0.5), 400 * exp(-0.7) };
	double a2[] = { 3, 3 }, b2[] = { 6, 6 }, bad[] = { 1, 0 };
	struct fdr_welch w, u;

	(void)st;
	assert_int_equal(fdr_paired_log(a, b, 3, 0.95, &w), 0);
	near(w.df, 2, 0);
	near(w.change_pct, -45.118836, 1e-5);
	near(w.p, 0.009133, 1e-5);
	/* interval: exp(−0.6 ∓ 4.302653·0.057735) − 1 */
	near(w.lo, expm1(-0.6 - 4.302653 * 0.1 / sqrt(3)) * 100, 1e-3);
	near(w.hi, expm1(-0.6 + 4.302653 * 0.1 / sqrt(3)) * 100, 1e-3);
	assert_true(w.hi < 0);
	assert_int_equal(fdr_welch_log(a, 3, b, 3, 0.95, &u), 0);
	assert_true(u.p > 0.3 && u.lo < 0 && u.hi > 0);
	/* every pair alike (+100 %): no spread, a change */
	assert_int_equal(fdr_paired_log(a2, b2, 2, 0.95, &w), 0);
	near(w.change_pct, 100, 1e-9);
	near(w.p, 0, 0);
	/* one pair, or a non-positive latency: no test */
	assert_int_equal(fdr_paired_log(a, b, 1, 0.95, &w), -1);
	assert_true(isnan(w.p));
	assert_int_equal(fdr_paired_log(bad, a2, 2, 0.95, &w), -1);
}

static void benjamini_hochberg(void **st)
{
	/* sorted .01 .03 .04 .50 → p·m/rank = .04 .06 .0533 .5; running minimum
	 * from the top: .5, .0533, .0533, .04 */
	double p[] = { 0.01, 0.04, 0.03, 0.5, NAN }, q[5];

	(void)st;
	assert_int_equal(fdr_bh_adjust(p, 5, q), 0);
	near(q[0], 0.04, 1e-12);
	near(q[1], 0.16 / 3, 1e-12);
	near(q[2], 0.16 / 3, 1e-12);
	near(q[3], 0.5, 1e-12);
	assert_true(isnan(q[4]));           /* not counted in m */
	assert_int_equal(fdr_bh_adjust(p, 0, q), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_distribution),
		cmocka_unit_test(welch),
		cmocka_unit_test(paired),
		cmocka_unit_test(benjamini_hochberg),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
