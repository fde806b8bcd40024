/*
 * runner.h - runs one case: picks initiator and target CPUs for its placement,
 * starts the initiators together, times every call, checks the invariants, and
 * emits CASE / RESULT / HISTO (/ SAMPLES) frames.
 */
#ifndef XCB_BENCH_RUNNER_H
#define XCB_BENCH_RUNNER_H

#include <stdint.h>
#include "bench/suite.h"
#include "lib/cpumask.h"
#include "bench/placement.h"


/* A one-line summary of a finished case, for the console table. */
struct case_summary {
	struct bcase c;
	int ran;			/* 0: skipped */
	uint64_t p50, p99, mean_milli;	/* all initiators, median over reps */
	uint64_t count;
	uint64_t spread_ppm, jain_ppm;	/* fairness, last rep */
	uint64_t stale, lost;		/* stale translations; calls not run exactly once */
	uint64_t ipis;
};

/* Once, after SMP, xcall and flush init: the harness overhead (min / median of
 * back-to-back serialised TSC reads), in cycles. */
void runner_init(void);
uint64_t runner_overhead_min(void);
uint64_t runner_overhead_median(void);

/* Run case `c` (i of n, for progress) and fill *sum. Returns 0 ran, 1 skipped,
 * <0 aborted (watchdog fired: the run must end). */
int runner_run_case(const struct bcase *c, unsigned i, unsigned n, uint64_t watchdog_ms,
		    struct case_summary *sum);

/* Emit the CASE frame of `c` (for the CPUs last placed). */
void runner_case_frame(const struct bcase *c);

/* Stress: run `c` on the given initiator CPUs / target masks, optionally with a
 * different algorithm and wait per initiator (ops/waits may be NULL). CASE frame and
 * one all-initiators RESULT per rep, no histograms. Same return as runner_run_case. */
int runner_run_custom(const struct bcase *c, const unsigned *icpus, const struct cpumask *tm,
		      const struct xcall_ops *const *ops, const enum xcall_wait *waits,
		      uint64_t watchdog_ms, struct case_summary *sum);

#endif
