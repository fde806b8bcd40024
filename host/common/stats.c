/* stats.c — statistics for summaries and comparisons (see stats.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "xcb_histo.h"

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median_sorted(const double *v, size_t n)
{
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double stats_median(const double *v, size_t n)
{
	double *c, m;

	if (n == 0)
		return NAN;
	c = malloc(n * sizeof(*c));
	if (!c)
		return NAN;
	memcpy(c, v, n * sizeof(*c));
	qsort(c, n, sizeof(*c), cmp_d);
	m = median_sorted(c, n);
	free(c);
	return m;
}

double stats_pct_change(double a, double b)
{
	return a == 0 ? NAN : (b - a) / a * 100.0;
}

void stats_pool(const double *n, const double *mean, const double *sd, size_t k,
		double *mean_out, double *sd_out)
{
	double N = 0, sum = 0, ss = 0;

	for (size_t i = 0; i < k; i++) {
		N += n[i];
		sum += n[i] * mean[i];
	}
	if (N <= 0) {
		*mean_out = *sd_out = NAN;
		return;
	}
	*mean_out = sum / N;
	/* Within-group plus between-group sum of squares. */
	for (size_t i = 0; i < k; i++) {
		double d = mean[i] - *mean_out;

		ss += (n[i] > 1 ? (n[i] - 1) * sd[i] * sd[i] : 0) + n[i] * d * d;
	}
	*sd_out = N > 1 ? sqrt(ss / (N - 1)) : 0;
}

double stats_jain(const double *x, size_t n)
{
	double s = 0, s2 = 0;

	for (size_t i = 0; i < n; i++) {
		s += x[i];
		s2 += x[i] * x[i];
	}
	return n == 0 || s2 == 0 ? NAN : s * s / ((double)n * s2);
}

uint64_t stats_histo_total(const uint64_t *cnt, size_t n)
{
	uint64_t t = 0;

	for (size_t i = 0; i < n; i++)
		t += cnt[i];
	return t;
}

/* Index (into the arrays) of the bucket holding 1-based rank r. */
static size_t at_rank(const uint64_t *cnt, size_t n, uint64_t r)
{
	uint64_t c = 0;

	for (size_t i = 0; i < n; i++) {
		c += cnt[i];
		if (c >= r)
			return i;
	}
	return n - 1;
}

double stats_histo_quantile(const uint32_t *idx, const uint64_t *cnt, size_t n, double q)
{
	uint64_t total = stats_histo_total(cnt, n), r;

	if (total == 0)
		return NAN;
	r = (uint64_t)ceil(q * (double)total);
	if (r < 1)
		r = 1;
	return (double)xcb_histo_mid(idx[at_rank(cnt, n, r)]);
}

int stats_histo_median_ci(const uint32_t *idx, const uint64_t *cnt, size_t n,
			  double *lo, double *hi)
{
	uint64_t total = stats_histo_total(cnt, n);
	double half, w;
	int64_t rl, rh;

	if (total == 0)
		return -1;
	half = (double)total / 2;
	w = 0.98 * sqrt((double)total);
	rl = (int64_t)floor(half - w);
	rh = (int64_t)ceil(half + w) + 1;
	if (rl < 1)
		rl = 1;
	if (rh > (int64_t)total)
		rh = (int64_t)total;
	*lo = (double)xcb_histo_low(idx[at_rank(cnt, n, (uint64_t)rl)]);
	*hi = (double)xcb_histo_high(idx[at_rank(cnt, n, (uint64_t)rh)]);
	return 0;
}

int stats_ratio_change_ci(double alo, double ahi, double blo, double bhi,
			  double *lo, double *hi)
{
	*lo = *hi = NAN;
	if (isnan(alo) || isnan(ahi) || isnan(blo) || isnan(bhi) || alo > ahi || blo > bhi ||
	    alo <= 0)
		return -1;
	if (blo < 0)
		blo = 0;
	/* A ratio, not a difference over a's median: (blo − ahi)/a_p50 can
	 * fall below −100 % when a's interval is wide, which no change of a
	 * positive latency can. */
	*lo = (blo / ahi - 1.0) * 100.0;
	*hi = (bhi / alo - 1.0) * 100.0;
	return 0;
}

int stats_histo_bucket_of(double v, double *lo, double *hi)
{
	uint32_t idx;

	*lo = *hi = NAN;
	if (isnan(v) || v < 0 || v >= 9.2e18)
		return -1;
	idx = xcb_histo_bucket((uint64_t)llround(v));
	*lo = (double)xcb_histo_low(idx);
	*hi = (double)xcb_histo_high(idx);
	return 0;
}

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* One value of a sample and where it stood: sorting these gives the
 * sample's order with each draw's index still known. */
struct ranked {
	double v;
	size_t at;
};

static int cmp_ranked(const void *x, const void *y)
{
	return cmp_d(&((const struct ranked *)x)->v, &((const struct ranked *)y)->v);
}

/* The median of one resample of v (n draws with replacement, by index),
 * given v sorted once as r: the draws are counted per index and the middle
 * ranks found by walking the counts in value order (O(n); sorting every
 * resample was 70 % of a compare's time). The same draws (one splitmix64
 * per value, in order) and the same order statistics as sorting the
 * resample: the same interval to the bit (test_stats checks). The walk
 * has no branch on the data: rank lo is the number of ranks whose running
 * count is still <= lo (stopping there mispredicted a branch or two per
 * resample, half of a 5-repetition bootstrap's time). */
static inline __attribute__((always_inline)) double median_of_draws(const struct ranked *r, size_t n, size_t *cnt,
								     uint64_t *s)
{
	size_t lo = (n - 1) / 2, hi = n / 2, seen = 0, jlo = 0, jhi = 0;

	memset(cnt, 0, n * sizeof(*cnt));
	for (size_t k = 0; k < n; k++)
		cnt[splitmix64(s) % n]++;
	for (size_t j = 0; j < n; j++) {
		seen += cnt[r[j].at];
		jlo += seen <= lo;
		jhi += seen <= hi;
	}
	return lo == hi ? r[jlo].v : (r[jlo].v + r[jhi].v) / 2;
}

/* median_of_draws with n a constant for the usual sample sizes (a run's
 * repetitions): the compiler makes each draw's "% n" a multiplication and
 * the counts' memset a few stores. The 64-bit division a draw was the
 * resample's slowest step (a 48-case compare draws ~960,000 times); the
 * draws and medians are the same (test_stats: the intervals to the bit). */
static double resampled_median(const struct ranked *r, size_t n, size_t *cnt, uint64_t *s)
{
	switch (n) {
#define MEDIAN_N_(k) case k: return median_of_draws(r, k, cnt, s);
	MEDIAN_N_(1) MEDIAN_N_(2) MEDIAN_N_(3) MEDIAN_N_(4) MEDIAN_N_(5) MEDIAN_N_(6) MEDIAN_N_(7) MEDIAN_N_(8)
	MEDIAN_N_(9) MEDIAN_N_(10) MEDIAN_N_(11) MEDIAN_N_(12) MEDIAN_N_(13) MEDIAN_N_(14) MEDIAN_N_(15) MEDIAN_N_(16)
#undef MEDIAN_N_
	default: return median_of_draws(r, n, cnt, s);
	}
}

/* The k-th smallest of v[0..n) (v reordered): quickselect, where sorting
 * every case's few thousand bootstrap changes for two order statistics
 * was the next largest cost. The value is the sort's v[k], whatever the
 * pivots. */
static double nth_smallest(double *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;

	while (lo < hi) {
		double pivot = v[lo + (hi - lo) / 2];
		size_t i = lo, j = hi;

		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j) {
				double t = v[i];

				v[i] = v[j];
				v[j] = t;
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		/* now v[lo..j] <= pivot <= v[i..hi], and j < i */
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return v[k]; /* between: equal to the pivot */
	}
	return v[k];
}

/* r[i] = (v[i], i), sorted by value. */
static void rank_sample(const double *v, size_t n, struct ranked *r)
{
	for (size_t i = 0; i < n; i++) {
		r[i].v = v[i];
		r[i].at = i;
	}
	qsort(r, n, sizeof(*r), cmp_ranked);
}

int stats_bootstrap_change(const double *a, size_t na, const double *b, size_t nb,
			   uint64_t seed, int iters, double *lo, double *hi)
{
	struct ranked *sa, *sb;
	double *ch;
	size_t *ca, *cb;
	int k = 0;

	if (na == 0 || nb == 0 || iters < 1)
		return -1;
	sa = malloc(na * sizeof(*sa));
	sb = malloc(nb * sizeof(*sb));
	ca = malloc(na * sizeof(*ca));
	cb = malloc(nb * sizeof(*cb));
	ch = malloc((size_t)iters * sizeof(*ch));
	if (!sa || !sb || !ca || !cb || !ch) {
		k = -1;
		goto out;
	}
	rank_sample(a, na, sa);
	rank_sample(b, nb, sb);
	for (int i = 0; i < iters; i++) {
		double ma = resampled_median(sa, na, ca, &seed);
		double mb = resampled_median(sb, nb, cb, &seed);
		double c = stats_pct_change(ma, mb);

		if (!isnan(c))
			ch[k++] = c;
	}
	if (k == 0) {
		*lo = *hi = NAN;
	} else {
		/* Percentile method: the 2.5th and 97.5th order statistics. */
		*lo = nth_smallest(ch, (size_t)k, (size_t)floor(0.025 * (k - 1)));
		*hi = nth_smallest(ch, (size_t)k, (size_t)ceil(0.975 * (k - 1)));
	}
out:
	free(sa);
	free(sb);
	free(ca);
	free(cb);
	free(ch);
	return k > 0 ? 0 : -1;
}
