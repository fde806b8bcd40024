/*
 * fdr.h — the two-level comparison statistics (issue 25): a Welch t-test on
 * log-scale values (between boots, or within one boot), its interval of the
 * % change of the geometric mean, the Student t distribution it needs, and
 * the Benjamini–Hochberg adjustment that controls the false discovery rate
 * across a whole comparison table. Pure functions, no allocation but in
 * fdr_bh_adjust.
 */
#ifndef XCB_FDR_H
#define XCB_FDR_H

#include <stddef.h>

/* P(T <= t) for Student's t with df > 0 degrees of freedom (df may be
 * fractional: the Welch–Satterthwaite df). NaN for NaN input. */
double fdr_t_cdf(double t, double df);
/* The q-quantile of Student's t (0 < q < 1), by bisection on fdr_t_cdf. */
double fdr_t_quantile(double q, double df);

/* Welch's test of the log values of a[0..na) against b[0..nb) (all > 0,
 * na, nb >= 2): the % change of the geometric mean (exp(mean log b − mean
 * log a) − 1)·100, its two-sided `conf` interval on the same scale, and the
 * two-sided p-value of "no change". Identical samples with zero variance on
 * both sides give p = 1 if equal, 0 otherwise, and a zero-width interval.
 * Returns -1 (everything NaN) when a side has fewer than 2 values or a
 * value <= 0. */
struct fdr_welch {
	double change_pct, lo, hi, p, df;
};
int fdr_welch_log(const double *a, size_t na, const double *b, size_t nb, double conf,
		  struct fdr_welch *out);

/* The paired test of the same: a[i] and b[i] measured in the same boot
 * (n >= 2 pairs, all > 0), a one-sample t on d[i] = log b[i] − log a[i]
 * with n − 1 df. What differs between boots (a host's speed that day)
 * moves both of a pair alike and cancels, where Welch's test counts it as
 * noise: three boots that each show −45 % are a change here. Same outputs
 * and edge cases as fdr_welch_log. */
int fdr_paired_log(const double *a, const double *b, size_t n, double conf, struct fdr_welch *out);

/* Benjamini–Hochberg: q[i] = min over j with p[j] >= p[i] of p[j]·m/rank(j),
 * capped at 1, where m is the number of non-NaN p (NaN p: q NaN, not
 * counted). Rejecting every q <= alpha controls the expected share of false
 * discoveries among the rejections at alpha (for independent or positively
 * dependent tests). Returns -1 on allocation failure. */
int fdr_bh_adjust(const double *p, size_t n, double *q);

#endif
