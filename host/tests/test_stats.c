/*
 * test_stats.c — the statistics of summaries and comparisons against values
 * computed by hand (the numbers in the comments are the hand calculations).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "stats.h"
#include "xcb_histo.h"

#define near(a, b, eps) assert_true(fabs((a) - (b)) <= (eps))

static void medians(void **st)
{
	double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 };

	(void)st;
	near(stats_median(odd, 3), 3, 0);
	near(stats_median(even, 4), 2.5, 0);   /* (2 + 3) / 2 */
	assert_true(isnan(stats_median(odd, 0)));
	near(odd[0], 5, 0);                     /* input untouched */
}

static void pct_change(void **st)
{
	(void)st;
	near(stats_pct_change(1250, 810), -35.2, 1e-12);   /* (810-1250)/1250 = -0.352 */
	near(stats_pct_change(100, 100.02), 0.02, 1e-9);
	assert_true(isnan(stats_pct_change(0, 5)));
}

static void pooled(void **st)
{
	/* Groups {1,2,3} (n 3, mean 2, sd 1) and {4,6} (n 2, mean 5, sd √2).
	 * All five values: mean 16/5 = 3.2; Σ(x-3.2)² = 4.84+1.44+0.04+0.64+7.84
	 * = 14.8; sample sd = √(14.8/4) = √3.7 = 1.923538… */
	double n[] = { 3, 2 }, m[] = { 2, 5 }, s[] = { 1, sqrt(2) }, mean, sd;

	(void)st;
	stats_pool(n, m, s, 2, &mean, &sd);
	near(mean, 3.2, 1e-12);
	near(sd, sqrt(3.7), 1e-12);
}

static void jain(void **st)
{
	double eq[] = { 7, 7, 7, 7 }, skew[] = { 1, 3 };

	(void)st;
	near(stats_jain(eq, 4), 1.0, 1e-12);
	near(stats_jain(skew, 2), 0.8, 1e-12);   /* 16 / (2·10) */
}

static void histo_quantiles(void **st)
{
	/* Bucket 100 holds exactly 100; bucket 300: shift 1, mantissa 172 →
	 * [344, 345], midpoint 344. Counts 3 and 1, N = 4. */
	uint32_t idx[] = { 100, 300 };
	uint64_t cnt[] = { 3, 1 };

	(void)st;
	assert_int_equal(xcb_histo_low(300), 344);
	assert_int_equal(xcb_histo_high(300), 345);
	near(stats_histo_quantile(idx, cnt, 2, 0.5), 100, 0);   /* rank 2 */
	near(stats_histo_quantile(idx, cnt, 2, 0.75), 100, 0);  /* rank 3 */
	near(stats_histo_quantile(idx, cnt, 2, 0.9), 344, 0);   /* rank ⌈3.6⌉ = 4 */
	near(stats_histo_quantile(idx, cnt, 2, 0.0), 100, 0);
	assert_int_equal(stats_histo_total(cnt, 2), 4);
}

static void histo_median_interval(void **st)
{
	/* N = 100 split 50/50 between values 10 and 20: ranks 50 ∓ 0.98·√100 =
	 * 40.2 and 59.8 → ranks 40 (value 10) and 61 (value 20). */
	uint32_t idx[] = { 10, 20 };
	uint64_t cnt[] = { 50, 50 }, one[] = { 100, 0 };
	double lo, hi;

	(void)st;
	assert_int_equal(stats_histo_median_ci(idx, cnt, 2, &lo, &hi), 0);
	near(lo, 10, 0);
	near(hi, 20, 0);
	/* All in one bucket: the interval is that bucket. */
	assert_int_equal(stats_histo_median_ci(idx, one, 2, &lo, &hi), 0);
	near(lo, 10, 0);
	near(hi, 10, 0);
	cnt[0] = cnt[1] = 0;
	assert_int_equal(stats_histo_median_ci(idx, cnt, 2, &lo, &hi), -1);
}

static void ratio_change_interval(void **st)
{
	double lo, hi;

	(void)st;
	/* a's median in [900, 1100] (point 1000), b's in [10, 950]. The old
	 * difference form gave (10 − 1100)/1000 = −109 %; as ratios:
	 * 10/1100 − 1 = −99.0909 % and 950/900 − 1 = +5.5556 %. */
	assert_int_equal(stats_ratio_change_ci(900, 1100, 10, 950, &lo, &hi), 0);
	near(lo, -99.0909, 1e-4);
	near(hi, 5.5556, 1e-4);
	/* Never below −100 %, whatever the widths: b's low edge 0 is −100 %
	 * exactly, and a negative one counts as 0. */
	assert_int_equal(stats_ratio_change_ci(1, 1e12, 0, 5, &lo, &hi), 0);
	near(lo, -100, 0);
	near(hi, 400, 1e-9);                       /* 5/1 − 1 */
	assert_int_equal(stats_ratio_change_ci(100, 200, -50, 80, &lo, &hi), 0);
	near(lo, -100, 0);
	/* Identical point intervals: exactly the point change, −20 %. */
	assert_int_equal(stats_ratio_change_ci(1250, 1250, 1000, 1000, &lo, &hi), 0);
	near(lo, -20, 1e-12);
	near(hi, -20, 1e-12);
	/* The interval holds the point change whenever each side's interval
	 * holds its median: a 1000 ∈ [990, 1012], b 810 ∈ [800, 820]. */
	assert_int_equal(stats_ratio_change_ci(990, 1012, 800, 820, &lo, &hi), 0);
	assert_true(lo <= stats_pct_change(1000, 810) && hi >= stats_pct_change(1000, 810));
	/* No finite upper bound when a's interval reaches 0; inverted or NaN input. */
	assert_int_equal(stats_ratio_change_ci(0, 10, 5, 6, &lo, &hi), -1);
	assert_true(isnan(lo) && isnan(hi));
	assert_int_equal(stats_ratio_change_ci(20, 10, 5, 6, &lo, &hi), -1);
	assert_int_equal(stats_ratio_change_ci(10, 20, NAN, 6, &lo, &hi), -1);
}

static void bootstrap(void **st)
{
	double a[] = { 100, 100, 100, 100, 100 }, b[] = { 80, 80, 80, 80, 80 };
	double a2[] = { 98, 99, 100, 101, 102 }, b2[] = { 78.4, 79.2, 80, 80.8, 81.6 };
	double lo, hi, lo2, hi2;

	(void)st;
	/* Constant repetitions: every resample gives exactly -20 %. */
	assert_int_equal(stats_bootstrap_change(a, 5, b, 5, 1, 500, &lo, &hi), 0);
	near(lo, -20, 1e-9);
	near(hi, -20, 1e-9);
	/* Spread repetitions: the interval must contain the point estimate
	 * (-20 %) and lie within the extreme ratios any resample can produce:
	 * 78.4/102 - 1 = -23.14 % and 81.6/98 - 1 = -16.73 %. */
	assert_int_equal(stats_bootstrap_change(a2, 5, b2, 5, 42, STATS_BOOT_ITERS, &lo, &hi), 0);
	assert_true(lo < -20 && hi > -20);
	assert_true(lo >= -23.15 && hi <= -16.72);
	/* Deterministic: same seed, same interval. */
	assert_int_equal(stats_bootstrap_change(a2, 5, b2, 5, 42, STATS_BOOT_ITERS, &lo2, &hi2), 0);
	near(lo, lo2, 0);
	near(hi, hi2, 0);
	assert_int_equal(stats_bootstrap_change(a2, 0, b2, 5, 42, 10, &lo, &hi), -1);
}

/* The bootstrap counts its draws instead of sorting each resample: the
 * intervals must be, to the bit, those the sorting version gave (recorded
 * from it), with ties, unsorted input and even and odd sizes. */
static void bootstrap_same_as_sorting(void **st)
{
	static const double a[16] = { 105, 98, 101, 99, 99, 120, 97, 100, 103, 98, 99, 250, 101, 100, 96, 99 };
	static const double b[7] = { 81, 79, 80, 80, 95, 78, 82 };
	static const struct {
		size_t na, nb;
		double lo, hi;
	} want[] = {
		{ 16, 7, -21.608040201005025, -17.171717171717169 },
		{ 5, 5, -23.809523809523807, -4.0404040404040407 },
		{ 6, 4, -28.888888888888886, -18.274111675126903 },
		{ 1, 2, -24.761904761904763, -22.857142857142858 },
	};
	double lo, hi;

	(void)st;
	for (int k = 0; k < 4; k++) {
		assert_int_equal(stats_bootstrap_change(a, want[k].na, b, want[k].nb, 7 + k, 2000, &lo, &hi), 0);
		assert_true(lo == want[k].lo && hi == want[k].hi);
	}
}

/* A latency's bucket: the integer cycles that report it. Below 256 a
 * value is its own bucket; 2003 is the midpoint of [2000, 2007]; a value
 * between midpoints (a geometric mean) rounds into its bucket. */
static void histo_bucket_of(void **state)
{
	double lo, hi;

	(void)state;
	assert_int_equal(stats_histo_bucket_of(200, &lo, &hi), 0);
	near(lo, 200, 0);
	near(hi, 200, 0);
	assert_int_equal(stats_histo_bucket_of(2003, &lo, &hi), 0);
	near(lo, 2000, 0);
	near(hi, 2007, 0);
	assert_int_equal(stats_histo_bucket_of(2007.6, &lo, &hi), 0);
	near(lo, 2008, 0);
	near(hi, 2015, 0);
	assert_int_equal(stats_histo_bucket_of(NAN, &lo, &hi), -1);
	assert_true(isnan(lo) && isnan(hi));
	assert_int_equal(stats_histo_bucket_of(-1, &lo, &hi), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(medians),
		cmocka_unit_test(pct_change),
		cmocka_unit_test(pooled),
		cmocka_unit_test(jain),
		cmocka_unit_test(histo_quantiles),
		cmocka_unit_test(histo_median_interval),
		cmocka_unit_test(ratio_change_interval),
		cmocka_unit_test(bootstrap),
		cmocka_unit_test(bootstrap_same_as_sorting),
		cmocka_unit_test(histo_bucket_of),
	};
	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
