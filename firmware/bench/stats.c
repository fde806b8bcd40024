/*
 * stats.c - exact running statistics, fairness and harness-overhead reduction.
 * Pure integer code shared by the payload and the host unit tests (see stats.h for
 * why the mean/variance are formed the way they are).
 */
#include "bench/stats.h"

typedef __int128 stats_s128;

stats_u128 u128_div(stats_u128 num, stats_u128 den)
{
	if (den == 0)
		return ~(stats_u128)0;
	/* The common case stays a single hardware divide. */
	if ((num >> 64) == 0 && (den >> 64) == 0)
		return (uint64_t)num / (uint64_t)den;
	/* Restoring long division, one quotient bit per step; only used off the hot
	 * path (finalising a case), so 128 iterations are fine. */
	stats_u128 q = 0, r = 0;
	for (int i = 127; i >= 0; i--) {
		r = (r << 1) | ((num >> i) & 1);
		if (r >= den) {
			r -= den;
			q |= (stats_u128)1 << i;
		}
	}
	return q;
}

uint64_t isqrt_u128(stats_u128 v)
{
	/* Digit-by-digit square root: exact floor(sqrt(v)). */
	stats_u128 res = 0, bit = (stats_u128)1 << 126;
	while (bit > v)
		bit >>= 2;
	while (bit) {
		if (v >= res + bit) {
			v -= res + bit;
			res = (res >> 1) + bit;
		} else {
			res >>= 1;
		}
		bit >>= 2;
	}
	return (uint64_t)res;
}

uint64_t muldiv_u64(uint64_t x, uint64_t mul, uint64_t div)
{
	stats_u128 q = u128_div((stats_u128)x * mul, div);
	return (q >> 64) ? UINT64_MAX : (uint64_t)q;
}

uint64_t muldiv_round_u64(uint64_t x, uint64_t mul, uint64_t div)
{
	uint64_t twice = muldiv_u64(x, 2 * mul, div);

	return twice == UINT64_MAX ? muldiv_u64(x, mul, div) : (twice + 1) / 2;
}

uint64_t ns_of_cycles(uint64_t cycles, uint64_t khz)
{
	return khz ? muldiv_round_u64(cycles, 1000000, khz) : 0;
}

void sort_u64(uint64_t *v, unsigned n)
{
	static const unsigned gaps[] = { 701, 301, 132, 57, 23, 10, 4, 1 };
	for (unsigned g = 0; g < sizeof(gaps) / sizeof(gaps[0]); g++) {
		unsigned gap = gaps[g];
		for (unsigned i = gap; i < n; i++) {
			uint64_t t = v[i];
			unsigned j = i;
			for (; j >= gap && v[j - gap] > t; j -= gap)
				v[j] = v[j - gap];
			v[j] = t;
		}
	}
}

void stats_init(struct stats *s)
{
	s->n = 0;
	s->min = UINT64_MAX;
	s->max = 0;
	s->x0 = 0;
	s->s1 = 0;
	s->s2 = 0;
}

void stats_add(struct stats *s, uint64_t x)
{
	if (s->n == 0)
		s->x0 = x;
	int64_t d = (int64_t)(x - s->x0);
	uint64_t m = d < 0 ? (uint64_t)-d : (uint64_t)d;
	s->n++;
	s->s1 += d;
	s->s2 += (stats_u128)m * m;
	if (x < s->min)
		s->min = x;
	if (x > s->max)
		s->max = x;
}

void stats_merge(struct stats *a, const struct stats *b)
{
	if (b->n == 0)
		return;
	if (a->n == 0) {
		*a = *b;
		return;
	}
	/* Re-origin b's sums on a->x0: with c = b.x0 - a.x0 each offset becomes d + c, so
	 * S1' = S1 + n c and S2' = S2 + 2 c S1 + n c^2 (exact, signed 128-bit). */
	stats_s128 c = (stats_s128)b->x0 - (stats_s128)a->x0;
	stats_s128 s1 = (stats_s128)b->s1 + (stats_s128)b->n * c;
	stats_s128 s2 = (stats_s128)b->s2 + 2 * c * b->s1 + (stats_s128)b->n * c * c;
	a->n += b->n;
	a->s1 += (int64_t)s1;
	a->s2 += (stats_u128)s2;
	if (b->min < a->min)
		a->min = b->min;
	if (b->max > a->max)
		a->max = b->max;
}

/* |S1|, split as q*n + r so that S1^2/n never needs S1^2. */
static uint64_t abs_s1(const struct stats *s)
{
	return s->s1 < 0 ? (uint64_t)-s->s1 : (uint64_t)s->s1;
}

uint64_t stats_mean(const struct stats *s)
{
	if (s->n == 0)
		return 0;
	uint64_t a = abs_s1(s);
	uint64_t m = (uint64_t)u128_div((stats_u128)a + s->n / 2, s->n);
	return s->s1 < 0 ? s->x0 - m : s->x0 + m;
}

uint64_t stats_mean_milli(const struct stats *s)
{
	if (s->n == 0)
		return 0;
	uint64_t a = abs_s1(s);
	stats_u128 m = u128_div((stats_u128)a * 1000 + s->n / 2, s->n);
	stats_u128 base = (stats_u128)s->x0 * 1000;
	stats_u128 r = s->s1 < 0 ? base - m : base + m;
	return (r >> 64) ? UINT64_MAX : (uint64_t)r;
}

/*
 * Sample variance (n-1), scaled by `scale` (1 or 10^6), in 128 bits.
 * n*M2 = n*S2 - S1^2 = (S2 - a q) n - a r  with a = |S1| = q n + r: exact, and no term
 * is ever as large as S1^2. Only when n*M2*scale could overflow (a spread beyond
 * ~2^40 cycles) does it fall back to M2 = S2 - a q - floor(a r / n), off by < 1.
 */
static stats_u128 variance_scaled(const struct stats *s, uint64_t scale)
{
	if (s->n < 2)
		return 0;
	uint64_t a = abs_s1(s);
	uint64_t q = a / s->n, r = a % s->n;
	stats_u128 aq = (stats_u128)a * q;
	stats_u128 base = s->s2 > aq ? s->s2 - aq : 0;
	stats_u128 nn1 = (stats_u128)s->n * (s->n - 1);
	if ((base >> 70) == 0 && (s->n >> 32) == 0) {
		stats_u128 ar = (stats_u128)a * r;
		stats_u128 m2n = base * s->n;
		m2n = m2n > ar ? m2n - ar : 0;
		return u128_div(m2n * scale, nn1);
	}
	stats_u128 corr = u128_div((stats_u128)a * r, s->n);
	stats_u128 m2 = base > corr ? base - corr : 0;
	return u128_div(m2, s->n - 1) * scale;
}

static stats_u128 variance128(const struct stats *s)
{
	return variance_scaled(s, 1);
}

uint64_t stats_variance(const struct stats *s)
{
	stats_u128 v = variance128(s);
	return (v >> 64) ? UINT64_MAX : (uint64_t)v;
}

uint64_t stats_stddev(const struct stats *s)
{
	return isqrt_u128(variance128(s));
}

uint64_t stats_stddev_milli(const struct stats *s)
{
	/* 1000 * sqrt(var) = sqrt(var * 10^6): scale before dividing so a sub-cycle
	 * variance is not truncated to 0. */
	return isqrt_u128(variance_scaled(s, 1000000));
}

void fairness_compute(const uint64_t *medians, unsigned n, struct fairness *out)
{
	out->min_median = out->max_median = 0;
	out->spread_ppm = out->jain_ppm = 0;
	if (n == 0)
		return;
	uint64_t lo = UINT64_MAX, hi = 0;
	for (unsigned i = 0; i < n; i++) {
		if (medians[i] < lo)
			lo = medians[i];
		if (medians[i] > hi)
			hi = medians[i];
	}
	out->min_median = lo;
	out->max_median = hi;
	out->spread_ppm = lo ? muldiv_u64(hi, 1000000, lo) : 0;
	if (hi == 0) {
		out->jain_ppm = 1000000; /* all zero: trivially even */
		return;
	}
	/* Jain = (sum x)^2 / (n sum x^2) is scale-free, so shift every value down until
	 * the largest fits 24 bits: then for n < 2^16, sum^2 * 1e6 < 2^100 and nothing
	 * overflows 128 bits. The relative error of the shift is below 2^-23. */
	unsigned sh = 0;
	while ((hi >> sh) >= (1u << 24))
		sh++;
	stats_u128 sum = 0, sumsq = 0;
	for (unsigned i = 0; i < n; i++) {
		uint64_t x = medians[i] >> sh;
		sum += x;
		sumsq += (stats_u128)x * x;
	}
	out->jain_ppm = (uint64_t)u128_div(sum * sum * 1000000, sumsq * n);
}

void fairness_from_runs(const uint64_t *calls, const uint64_t *cycles,
			const uint64_t *medians, unsigned n, struct fairness *out)
{
	uint64_t x[64];
	struct fairness t;

	fairness_compute(medians, n, out);
	if (n == 0)
		return;
	if (n > 64)
		n = 64;
	/* Throughput in calls per 2^48 cycles: scale-free for Jain, so only the
	 * resolution matters. A call takes at least a cycle, so x <= 2^48 fits;
	 * per 2^32 it did not resolve slow calls: 100 calls in 2.3e9 cycles
	 * (QEMU TCG) is 186, and the index read 0.932 where it is 0.933. */
	for (unsigned i = 0; i < n; i++)
		x[i] = cycles[i] ? (uint64_t)u128_div((stats_u128)calls[i] << 48, cycles[i]) : 0;
	fairness_compute(x, n, &t);
	out->jain_ppm = t.jain_ppm;
}

void overhead_from_deltas(uint64_t *deltas, unsigned n, struct overhead *out)
{
	out->min = out->median = 0;
	if (n == 0)
		return;
	sort_u64(deltas, n);
	out->min = deltas[0];
	out->median = deltas[n / 2];
}
