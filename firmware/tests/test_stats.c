/*
 * test_stats.c - host unit tests (cmocka) of bench/stats.c and bench/histo.c:
 * exact running statistics, fairness, harness-overhead reduction, histogram
 * filling and percentiles, each against values worked out by hand.
 */
#include "tests/xcb_test.h"

#include "bench/stats.h"
#include "bench/histo.h"

static void feed(struct stats *s, const uint64_t *v, unsigned n)
{
	stats_init(s);
	for (unsigned i = 0; i < n; i++)
		stats_add(s, v[i]);
}

static void test_empty(void **state)
{
	(void)state;
	struct stats s;
	stats_init(&s);
	assert_int_equal(s.n, 0);
	assert_int_equal(stats_mean(&s), 0);
	assert_int_equal(stats_stddev(&s), 0);
	assert_int_equal(stats_mean_milli(&s), 0);
}

/* 2 4 4 4 5 5 7 9: mean 5, sum of squared deviations 32, sample variance 32/7,
 * sample stddev sqrt(4.571428..) = 2.13808993... */
static void test_textbook(void **state)
{
	(void)state;
	static const uint64_t v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct stats s;
	feed(&s, v, 8);
	assert_int_equal(s.n, 8);
	assert_int_equal(s.min, 2);
	assert_int_equal(s.max, 9);
	assert_int_equal(stats_mean(&s), 5);
	assert_int_equal(stats_mean_milli(&s), 5000);
	assert_int_equal(stats_variance(&s), 4);	/* floor(32/7) */
	assert_int_equal(stats_stddev(&s), 2);
	assert_int_equal(stats_stddev_milli(&s), 2138);	/* floor(sqrt(32e6/7)) */
}

/* Large values with a small spread: a naive sum of squares would lose it entirely.
 * 10^12 + {0, 1, 2}: mean 10^12 + 1, variance 1, stddev 1. */
static void test_large_offset(void **state)
{
	(void)state;
	const uint64_t b = 1000000000000ull;
	const uint64_t v[] = { b + 2, b, b + 1 };
	struct stats s;
	feed(&s, v, 3);
	assert_true(stats_mean(&s) == b + 1);
	assert_true(stats_mean_milli(&s) == (b + 1) * 1000);
	assert_int_equal(stats_variance(&s), 1);
	assert_int_equal(stats_stddev_milli(&s), 1000);
}

/* Samples below the first one (negative offsets) and a non-integer mean:
 * 10 1 1 1 -> mean 3.25, M2 = 6.75^2 + 3*2.25^2 = 45.5625 + 15.1875 = 60.75,
 * var = 20.25, stddev = 4.5 exactly. */
static void test_negative_offsets(void **state)
{
	(void)state;
	static const uint64_t v[] = { 10, 1, 1, 1 };
	struct stats s;
	feed(&s, v, 4);
	assert_int_equal(stats_mean(&s), 3);
	assert_int_equal(stats_mean_milli(&s), 3250);
	assert_int_equal(stats_variance(&s), 20);
	assert_int_equal(stats_stddev_milli(&s), 4500);
}

static void test_single(void **state)
{
	(void)state;
	struct stats s;
	stats_init(&s);
	stats_add(&s, 77);
	assert_int_equal(stats_mean(&s), 77);
	assert_int_equal(stats_stddev(&s), 0);
	assert_int_equal(s.min, 77);
	assert_int_equal(s.max, 77);
}

/* Merging two halves gives exactly what feeding all gives. */
static void test_merge(void **state)
{
	(void)state;
	static const uint64_t a[] = { 100, 120, 90 };
	static const uint64_t b[] = { 5000, 5, 7, 4000 };
	uint64_t all[7];
	for (unsigned i = 0; i < 3; i++)
		all[i] = a[i];
	for (unsigned i = 0; i < 4; i++)
		all[3 + i] = b[i];
	struct stats sa, sb, st, empty;
	feed(&sa, a, 3);
	feed(&sb, b, 4);
	feed(&st, all, 7);
	stats_init(&empty);
	stats_merge(&sa, &empty);
	stats_merge(&sa, &sb);
	assert_int_equal(sa.n, 7);
	assert_int_equal(sa.min, 5);
	assert_int_equal(sa.max, 5000);
	assert_int_equal(stats_mean_milli(&sa), stats_mean_milli(&st));
	assert_int_equal(stats_stddev_milli(&sa), stats_stddev_milli(&st));
	/* sum 9322 / 7 = 1331.714..; by hand */
	assert_int_equal(stats_mean_milli(&st), 1331714);
	/* merging into an empty one copies */
	stats_init(&empty);
	stats_merge(&empty, &sb);
	assert_int_equal(stats_mean_milli(&empty), stats_mean_milli(&sb));
}

static void test_helpers(void **state)
{
	(void)state;
	stats_u128 big = ((stats_u128)1 << 100) + 12345;
	assert_true(u128_div(big, (stats_u128)1 << 50) == ((stats_u128)1 << 50));
	assert_true(u128_div(big * 3, 3) == big);
	assert_true(u128_div(7, 2) == 3);
	assert_int_equal(isqrt_u128(0), 0);
	assert_int_equal(isqrt_u128(15), 3);
	assert_int_equal(isqrt_u128(16), 4);
	assert_true(isqrt_u128((stats_u128)UINT64_MAX * UINT64_MAX) == UINT64_MAX);
	/* 3 GHz: 4.5e9 cycles -> ns at tsc_khz 3000000 = 1.5e9 ns, no overflow */
	assert_true(muldiv_u64(4500000000ull, 1000000, 3000000) == 1500000000ull);
	assert_true(muldiv_u64(UINT64_MAX, 2, 1) == UINT64_MAX); /* saturates */
	/* ns rounded to the nearest, as the host rounds the figure: 108798
	 * cycles at 2096028 kHz are 51906.75 ns; the console printed such a
	 * figure 51906 (truncated) beside show's 51906.90 and compare's 51907 */
	assert_int_equal(ns_of_cycles(108798, 2096028), 51907);
	assert_int_equal(ns_of_cycles(3, 2000000), 2);	/* 1.5: half up */
	assert_int_equal(ns_of_cycles(2, 3000000), 1);	/* 0.67 */
	assert_int_equal(ns_of_cycles(4, 3000000), 1);	/* 1.33 */
	assert_int_equal(ns_of_cycles(1000, 0), 0);	/* no TSC rate: unknown */
	assert_true(ns_of_cycles(UINT64_MAX, 1000) == UINT64_MAX);	/* saturates, never wraps */
	assert_int_equal(muldiv_round_u64(5, 1, 2), 3);
	uint64_t v[] = { 5, 3, 9, 1, 1, 8 };
	sort_u64(v, 6);
	for (unsigned i = 1; i < 6; i++)
		assert_true(v[i - 1] <= v[i]);
	assert_int_equal(v[0], 1);
	assert_int_equal(v[5], 9);
}

/* medians 100 100 100 100: even -> spread 1.0, Jain 1.0.
 * medians 100 300: spread 3.0; Jain = 400^2 / (2 * (100^2+300^2)) = 160000/200000 = 0.8.
 * medians 1 0 0 0: Jain = 1/4 (one initiator gets everything). */
static void test_fairness(void **state)
{
	(void)state;
	struct fairness f;
	const uint64_t even[] = { 100, 100, 100, 100 };
	fairness_compute(even, 4, &f);
	assert_int_equal(f.spread_ppm, 1000000);
	assert_int_equal(f.jain_ppm, 1000000);
	const uint64_t two[] = { 100, 300 };
	fairness_compute(two, 2, &f);
	assert_int_equal(f.min_median, 100);
	assert_int_equal(f.max_median, 300);
	assert_int_equal(f.spread_ppm, 3000000);
	assert_int_equal(f.jain_ppm, 800000);
	const uint64_t one[] = { 1000, 0, 0, 0 };
	fairness_compute(one, 4, &f);
	assert_int_equal(f.jain_ppm, 250000);
	assert_int_equal(f.spread_ppm, 0);	/* undefined with a zero median */
	/* huge values are scaled, not overflowed: same ratio as 1:3 */
	const uint64_t hugev[] = { 1ull << 50, 3ull << 50 };
	fairness_compute(hugev, 2, &f);
	assert_int_equal(f.jain_ppm, 800000);
	assert_int_equal(f.spread_ppm, 3000000);
	fairness_compute(NULL, 0, &f);
	assert_int_equal(f.jain_ppm, 0);
}

static void test_overhead(void **state)
{
	(void)state;
	uint64_t d[] = { 40, 38, 90, 38, 41 };
	struct overhead o;
	overhead_from_deltas(d, 5, &o);
	assert_int_equal(o.min, 38);
	assert_int_equal(o.median, 40);
}

static struct histo H, H2;	/* 17 KiB each: keep them off the stack */

/* Values below 256 have one bucket each, so percentiles are exact:
 * 1..100 -> p50 = rank 50 = 50, p90 = 90, p99 = 99, p99.9 = rank ceil(99.9) = 100. */
static void test_histo_exact(void **state)
{
	(void)state;
	histo_init(&H);
	assert_int_equal(histo_percentile(&H, 500000, 0, 0), 0);
	for (uint64_t v = 100; v >= 1; v--)
		histo_add(&H, v);
	assert_int_equal(H.total, 100);
	assert_int_equal(histo_percentile(&H, 500000, 1, 100), 50);
	assert_int_equal(histo_percentile(&H, 900000, 1, 100), 90);
	assert_int_equal(histo_percentile(&H, 990000, 1, 100), 99);
	assert_int_equal(histo_percentile(&H, 999000, 1, 100), 100);
	assert_int_equal(histo_percentile(&H, 0, 1, 100), 1);
	assert_int_equal(histo_percentile(&H, 1000000, 1, 100), 100);
}

/* Above 256 a bucket is [low, high] of width 2^shift. 1000 has msb 9, shift 2:
 * bucket = (2 << 7) + (1000 >> 2) = 256 + 250 = 506, covering 1000..1003, mid 1001.
 * 100000: msb 16, shift 9: 9*128 + 195 = 1347, covering 99840..100351, mid 100095. */
static void test_histo_buckets(void **state)
{
	(void)state;
	histo_init(&H);
	for (int i = 0; i < 9; i++)
		histo_add(&H, 1000);
	histo_add(&H, 100000);
	assert_int_equal(H.lo, 506);
	assert_int_equal(H.hi, 1347);
	assert_int_equal(H.counts[506], 9);
	/* p50: rank 5 -> bucket 506 -> mid 1001, but clamped into [min, max] */
	assert_int_equal(histo_percentile(&H, 500000, 1000, 100000), 1001);
	/* p90 = rank 9 still in the first bucket; p99 = rank 10 is the outlier */
	assert_int_equal(histo_percentile(&H, 900000, 1000, 100000), 1001);
	assert_int_equal(histo_percentile(&H, 990000, 1000, 100000), 100000); /* 100095 clamped */
	assert_int_equal(histo_percentile(&H, 990000, 1000, 200000), 100095);
	/* a huge value is clamped into the last bucket, not lost */
	histo_add(&H, 1ull << 50);
	assert_int_equal(H.hi, HISTO_NB - 1);
	assert_int_equal(H.total, 11);
}

/* Bucket error: every value read back as its bucket midpoint is within 0.4%. */
static void test_histo_error(void **state)
{
	(void)state;
	for (uint64_t v = 1; v < (1ull << 39); v = v * 3 + 7) {
		uint32_t b = xcb_histo_bucket(v);
		uint64_t m = xcb_histo_mid(b);
		uint64_t d = m > v ? m - v : v - m;
		assert_true(d * 1000 <= v * 4);
	}
}

static void test_histo_merge_chunks(void **state)
{
	(void)state;
	histo_init(&H);
	histo_init(&H2);
	histo_add(&H, 10);
	histo_add(&H, 12);
	histo_add(&H2, 11);
	histo_add(&H2, 200);
	histo_merge(&H, &H2);
	assert_int_equal(H.total, 4);
	assert_int_equal(H.lo, 10);
	assert_int_equal(H.hi, 200);
	assert_int_equal(histo_percentile(&H, 500000, 10, 200), 11);
	/* gap 4: buckets 10..12 form one chunk, 200 another */
	uint32_t pos = 0, first;
	unsigned n;
	assert_int_equal(histo_next_chunk(&H, &pos, 4, 358, &first, &n), 1);
	assert_int_equal(first, 10);
	assert_int_equal(n, 3);
	assert_int_equal(histo_next_chunk(&H, &pos, 4, 358, &first, &n), 1);
	assert_int_equal(first, 200);
	assert_int_equal(n, 1);
	assert_int_equal(histo_next_chunk(&H, &pos, 4, 358, &first, &n), 0);
	/* max_n 2 splits the first run; nothing is lost: counts sum to the total */
	pos = 0;
	uint64_t sum = 0;
	unsigned chunks = 0;
	while (histo_next_chunk(&H, &pos, 1000, 2, &first, &n)) {
		assert_true(n <= 2);
		for (unsigned i = 0; i < n; i++)
			sum += H.counts[first + i];
		chunks++;
	}
	assert_int_equal(sum, 4);
	assert_int_equal(chunks, 3);	/* [10,11] [12] [200]: trailing zeros trimmed */
	/* an empty histogram has no chunks */
	histo_init(&H2);
	pos = 0;
	assert_int_equal(histo_next_chunk(&H2, &pos, 4, 358, &first, &n), 0);
}

XCB_TEST_MAIN(
	cmocka_unit_test(test_empty),
	cmocka_unit_test(test_textbook),
	cmocka_unit_test(test_large_offset),
	cmocka_unit_test(test_negative_offsets),
	cmocka_unit_test(test_single),
	cmocka_unit_test(test_merge),
	cmocka_unit_test(test_helpers),
	cmocka_unit_test(test_fairness),
	cmocka_unit_test(test_overhead),
	cmocka_unit_test(test_histo_exact),
	cmocka_unit_test(test_histo_buckets),
	cmocka_unit_test(test_histo_error),
	cmocka_unit_test(test_histo_merge_chunks))
