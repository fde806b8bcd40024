/*
 * stats.h — the statistics behind run summaries and comparisons: medians,
 * pooled mean/stddev over repetitions, percentiles and distribution-free
 * median intervals from log-linear histograms, a deterministic bootstrap
 * interval of a % change of medians, and Jain's fairness index.
 */
#ifndef XCB_STATS_H
#define XCB_STATS_H

#include <stddef.h>
#include <stdint.h>

double stats_median(const double *v, size_t n);            /* NaN if n == 0 */
double stats_pct_change(double a, double b);               /* (b-a)/a*100 */
/* Pooled over groups of (n_i, mean_i, sd_i): overall mean and sample stddev. */
void stats_pool(const double *n, const double *mean, const double *sd, size_t k,
		double *mean_out, double *sd_out);
double stats_jain(const double *x, size_t n);              /* (Σx)²/(nΣx²) */

/* Histogram given as parallel arrays of bucket indexes (ascending) and counts. */
uint64_t stats_histo_total(const uint64_t *cnt, size_t n);
/* Value (bucket midpoint) at quantile q in [0,1]: the bucket holding rank ceil(q·N). */
double stats_histo_quantile(const uint32_t *idx, const uint64_t *cnt, size_t n, double q);
/* 95 % distribution-free interval of the median: order statistics at ranks
 * N/2 ∓ 0.98·√N (normal approximation of Binomial(N, ½)); lo is the low edge
 * of its bucket, hi the high edge (conservative). Returns -1 if empty. */
int stats_histo_median_ci(const uint32_t *idx, const uint64_t *cnt, size_t n,
			  double *lo, double *hi);
/* Interval of the % change from a to b given intervals [alo, ahi] of a's and
 * [blo, bhi] of b's median, conservatively: the extreme ratios the two allow,
 * lo = (blo/ahi − 1)·100, hi = (bhi/alo − 1)·100. Latencies are >= 0, so
 * lo >= −100 % always (a negative blo counts as 0). Returns -1 (lo, hi NaN)
 * when a NaN is given, an interval is inverted, or alo <= 0 (no finite hi). */
int stats_ratio_change_ci(double alo, double ahi, double blo, double bhi,
			  double *lo, double *hi);

/* The histogram bucket (xcb_histo.h) a latency read back from it lies in:
 * [lo, hi], the integer cycles that report v (v rounded, its bucket's
 * edges). A percentile the payload sends is its bucket's midpoint, so the
 * truth is anywhere in there. -1 (NaN) for v NaN, < 0 or beyond 2^63. */
int stats_histo_bucket_of(double v, double *lo, double *hi);

#define STATS_BOOT_ITERS 2000
/* 95 % bootstrap interval of stats_pct_change(median(a*), median(b*)) where
 * a*, b* resample a and b with replacement; splitmix64 from seed, so the
 * same input always gives the same interval. Returns -1 if na or nb is 0. */
int stats_bootstrap_change(const double *a, size_t na, const double *b, size_t nb,
			   uint64_t seed, int iters, double *lo, double *hi);

#endif
