/*
 * stats.h - exact running statistics of latency samples, fairness across initiators.
 *
 * Integer-only on purpose: the payload is built without SSE state (no FPU context to
 * save around IPIs), and the same code is unit-tested on the host. Every value is in
 * TSC cycles; ratios are fixed point (ppm = parts per million) so they travel in
 * integer frame fields.
 *
 * Mean and variance are exact up to one final rounding: samples are kept as offsets
 * from the first sample (variance is shift-invariant, and the offsets stay small), the
 * sum of squared offsets in 128 bits, and M2 = S2 - S1^2/n is formed without ever
 * squaring S1 (S1^2/n = S1*q + S1*r/n with S1 = q*n + r). That is Welford's
 * cancellation-free result without its per-sample division.
 */
#ifndef XCB_BENCH_STATS_H
#define XCB_BENCH_STATS_H

#include <stdint.h>

typedef unsigned __int128 stats_u128;

struct stats {
	uint64_t n;        /* samples */
	uint64_t min, max; /* exact */
	uint64_t x0;       /* first sample: the shift origin of s1/s2 */
	int64_t s1;        /* sum of (x - x0) */
	stats_u128 s2;     /* sum of (x - x0)^2 */
};

void stats_init(struct stats *s);
void stats_add(struct stats *s, uint64_t x);
/* Fold `b` into `a` (e.g. per-initiator stats into the case total). */
void stats_merge(struct stats *a, const struct stats *b);
/* Mean rounded to the nearest cycle (0 when empty). */
uint64_t stats_mean(const struct stats *s);
/* Mean in thousandths of a cycle, for frames that carry more resolution. */
uint64_t stats_mean_milli(const struct stats *s);
/* Sample standard deviation (n-1), rounded down to a whole cycle; 0 when n < 2. */
uint64_t stats_stddev(const struct stats *s);
/* Standard deviation in thousandths of a cycle (RESULT's stddev_x1000). */
uint64_t stats_stddev_milli(const struct stats *s);
/* Sample variance (n-1) in cycles^2, saturated at UINT64_MAX. */
uint64_t stats_variance(const struct stats *s);

/*
 * Fairness across initiators, from one value per initiator.
 *   spread_ppm: max/min ratio in ppm (1000000 = perfectly even); 0 when a value is 0.
 *   jain_ppm:   Jain's index (sum x)^2 / (n * sum x^2) in ppm; 1/n .. 1.
 */
struct fairness {
	uint64_t min_median, max_median;
	uint64_t spread_ppm;
	uint64_t jain_ppm;
};
void fairness_compute(const uint64_t *medians, unsigned n, struct fairness *out);
/*
 * Fairness of a case over ALL its repetitions (README "Fairness"): initiator i made
 * calls[i] timed calls in cycles[i] cycles, summed over the repetitions; its
 * throughput is x_i = calls[i] / cycles[i], and
 *   jain_ppm   = (sum x_i)^2 / (n * sum x_i^2)       (1 = every initiator as fast)
 *   spread_ppm = max/min of medians[i], each initiator's median latency.
 * A latency median says how long one call takes, not how much of the machine an
 * initiator gets: two initiators with equal medians, one of which spent most of
 * the repetition waiting to start its calls, are not treated fairly.
 */
void fairness_from_runs(const uint64_t *calls, const uint64_t *cycles,
			const uint64_t *medians, unsigned n, struct fairness *out);

/*
 * The shared window of one repetition, per initiator: how many timed calls it had
 * made, in how many cycles since its timed start, when the window closed - when
 * the first initiator finished its timed calls (it closes the window itself). With
 * fixed call counts the favoured initiator finishes first and the rest then run
 * uncontended: counting their calls over their own elapsed time would make an
 * unfair split look fair. fair_win_step() after every timed call: `closed` is
 * whether the window has closed (a flag the first finisher sets).
 */
struct fair_win {
	uint64_t calls, cycles;
	int noted;
};
static inline void fair_win_step(struct fair_win *w, uint64_t calls, uint64_t cycles, int closed)
{
	if (closed && !w->noted) {
		w->calls = calls;
		w->cycles = cycles;
		w->noted = 1;
	}
}

/* Helpers exported for tests and for cycles -> ns conversion. */
/* Our own 128-bit division: the payload does not link libgcc's __udivti3. */
stats_u128 u128_div(stats_u128 num, stats_u128 den);
uint64_t isqrt_u128(stats_u128 v);
/* Sort in place, ascending (shell sort: no recursion, no allocation). */
void sort_u64(uint64_t *v, unsigned n);
/* x * mul / div without overflow of the intermediate (saturates the result). */
uint64_t muldiv_u64(uint64_t x, uint64_t mul, uint64_t div);
/* The same rounded to the nearest (half up), where muldiv_u64 truncates. */
uint64_t muldiv_round_u64(uint64_t x, uint64_t mul, uint64_t div);
/* cycles at khz (the TSC rate) in ns, rounded to the nearest as the host
 * rounds the same figure (show's 51906.90, compare's 51907): every console
 * line and LOG line of ns uses it (truncated, they read 51906). 0 when
 * khz is 0 (unknown). */
uint64_t ns_of_cycles(uint64_t cycles, uint64_t khz);

/*
 * Harness overhead: the cost of one timed empty region, i.e. the minimum and median of
 * back-to-back serialised TSC reads. Measured by the runner on real hardware; the
 * reduction (`overhead_from_deltas`) is pure and host-tested.
 */
struct overhead {
	uint64_t min, median;
};
void overhead_from_deltas(uint64_t *deltas, unsigned n, struct overhead *out);

#endif /* XCB_BENCH_STATS_H */
