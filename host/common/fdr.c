/* fdr.c — Welch's test on logs, Student's t, Benjamini–Hochberg (fdr.h). */
#include <math.h>
#include <stdlib.h>

#include "fdr.h"

/* Continued fraction of the regularized incomplete beta function (the
 * modified Lentz method): converges fast for x < (a+1)/(a+b+2). */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-14;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 300; m++) {
		double m2 = 2.0 * m, aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2)), del;

		d = 1 + aa * d;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

/* log |Gamma(x)|. lgamma_r, not lgamma: lgamma stores the sign in the
 * global signgam, so two HTTP threads comparing at once wrote it together
 * (a data race t-daemon-tsan found: two group compares, each a Welch
 * interval). The sign is not needed here (a, b > 0). */
static double lgam(double x)
{
	int sign;

	return lgamma_r(x, &sign);
}

/* I_x(a, b), the regularized incomplete beta function. */
static double ibeta(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgam(a + b) - lgam(a) - lgam(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double fdr_t_cdf(double t, double df)
{
	double tail;

	if (isnan(t) || isnan(df) || df <= 0)
		return NAN;
	if (isinf(t))
		return t > 0 ? 1 : 0;
	/* P(|T| > |t|) = I_{df/(df+t²)}(df/2, 1/2) */
	tail = ibeta(df / 2, 0.5, df / (df + t * t));
	return t > 0 ? 1 - tail / 2 : tail / 2;
}

double fdr_t_quantile(double q, double df)
{
	double lo = -1e6, hi = 1e6;

	if (!(q > 0 && q < 1) || !(df > 0))
		return NAN;
	for (int i = 0; i < 200 && hi - lo > 1e-12 * (1 + fabs(lo)); i++) {
		double mid = (lo + hi) / 2;

		if (fdr_t_cdf(mid, df) < q)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* Mean and sample variance of log(v[0..n)); -1 if a value is <= 0. */
static int log_moments(const double *v, size_t n, double *mean, double *var)
{
	double s = 0, ss = 0;

	for (size_t i = 0; i < n; i++) {
		if (!(v[i] > 0))
			return -1;
		s += log(v[i]);
	}
	*mean = s / n;
	for (size_t i = 0; i < n; i++) {
		double d = log(v[i]) - *mean;

		ss += d * d;
	}
	*var = ss / (n - 1);
	return 0;
}

int fdr_welch_log(const double *a, size_t na, const double *b, size_t nb, double conf,
		  struct fdr_welch *out)
{
	double ma, va, mb, vb, se2, d, t, tq;

	out->change_pct = out->lo = out->hi = out->p = out->df = NAN;
	if (na < 2 || nb < 2 || log_moments(a, na, &ma, &va) || log_moments(b, nb, &mb, &vb))
		return -1;
	d = mb - ma;
	se2 = va / na + vb / nb;
	out->change_pct = expm1(d) * 100;
	if (se2 <= 0) {
		/* Both sides constant: no spread to test against. */
		out->lo = out->hi = out->change_pct;
		out->p = d == 0 ? 1 : 0;
		out->df = (double)(na + nb - 2);
		return 0;
	}
	/* Welch–Satterthwaite degrees of freedom */
	out->df = se2 * se2 / ((va / na) * (va / na) / (na - 1) + (vb / nb) * (vb / nb) / (nb - 1));
	t = d / sqrt(se2);
	out->p = 2 * fdr_t_cdf(-fabs(t), out->df);
	tq = fdr_t_quantile(0.5 + conf / 2, out->df);
	out->lo = expm1(d - tq * sqrt(se2)) * 100;
	out->hi = expm1(d + tq * sqrt(se2)) * 100;
	return 0;
}

int fdr_paired_log(const double *a, const double *b, size_t n, double conf, struct fdr_welch *out)
{
	double s = 0, ss = 0, m, var, se, t, tq;

	out->change_pct = out->lo = out->hi = out->p = out->df = NAN;
	if (n < 2)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!(a[i] > 0) || !(b[i] > 0))
			return -1;
		s += log(b[i]) - log(a[i]);
	}
	m = s / n;
	for (size_t i = 0; i < n; i++) {
		double d = log(b[i]) - log(a[i]) - m;

		ss += d * d;
	}
	var = ss / (n - 1);
	out->change_pct = expm1(m) * 100;
	out->df = (double)(n - 1);
	if (var <= 0) {
		/* every pair moved alike: no spread to test against */
		out->lo = out->hi = out->change_pct;
		out->p = m == 0 ? 1 : 0;
		return 0;
	}
	se = sqrt(var / n);
	t = m / se;
	out->p = 2 * fdr_t_cdf(-fabs(t), out->df);
	tq = fdr_t_quantile(0.5 + conf / 2, out->df);
	out->lo = expm1(m - tq * se) * 100;
	out->hi = expm1(m + tq * se) * 100;
	return 0;
}

struct pi {
	double p;
	size_t i;
};

static int cmp_pi(const void *x, const void *y)
{
	const struct pi *a = x, *b = y;

	return a->p < b->p ? -1 : a->p > b->p ? 1 : (a->i > b->i) - (a->i < b->i);
}

int fdr_bh_adjust(const double *p, size_t n, double *q)
{
	struct pi *s = malloc((n + 1) * sizeof(*s));
	size_t m = 0;
	double run = 1;

	if (!s)
		return -1;
	for (size_t i = 0; i < n; i++) {
		q[i] = NAN;
		if (!isnan(p[i]))
			s[m++] = (struct pi){ p[i], i };
	}
	qsort(s, m, sizeof(*s), cmp_pi);
	/* From the largest p down: the running minimum of p·m/rank keeps q
	 * monotone in p. */
	for (size_t r = m; r > 0; r--) {
		double v = s[r - 1].p * (double)m / (double)r;

		if (v < run)
			run = v;
		q[s[r - 1].i] = run;
	}
	free(s);
	return 0;
}
