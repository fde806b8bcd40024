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


#define REPS_KEPT 16	/* per-rep values kept for the case's medians */

struct fair_acc;

/* A one-line summary of a finished case, for the console table. */
struct case_summary {
	struct bcase c;
	int ran;			/* 0: skipped */
	uint64_t p50, p99, mean_milli;	/* all initiators, median over reps */
	uint64_t count;
	uint64_t spread_ppm, jain_ppm;	/* fairness over all reps (stats.h fairness_from_runs) */
	uint64_t stale;			/* stale translations */
	/* The ledger's verdicts (bench/ledger.h), each counted on its own: a
	 * duplicate is not a lost call, and a sum printed as "lost" said so. */
	uint64_t lost, dup, ooo;
	uint64_t early;			/* wait=done calls that returned before a target ran them */
	uint64_t ipis;
	uint64_t ctl_runs, ctl_stale;	/* TLB no-flush control: shootdowns, those that saw stale */
	struct fair_acc *fair;		/* runner's per-initiator accumulation for this case */
	uint64_t floor;			/* `ipi` floor: median of the reps' (runner.c rep_floor) */
	unsigned unstable;		/* reps flagged XCB_RF_UNSTABLE */
	unsigned kept;
	uint64_t rep_p50[REPS_KEPT], rep_mean[REPS_KEPT], rep_floor[REPS_KEPT];
	/* Each rep's all-initiators p99, written at index `kept` as its RESULT
	 * goes out (emit.c, sync.c), before rep_into counts the rep in. */
	uint64_t rep_p99[REPS_KEPT];
};

/* Once, after SMP, xcall and flush init: the harness overhead (min / median of
 * back-to-back serialised TSC reads), in cycles. */
void runner_init(void);
uint64_t runner_overhead_min(void);
uint64_t runner_overhead_median(void);
/* This boot's floors CPU 0 -> CPU 1 (median cycles; 0 on one CPU): `ipi` (one IPI,
 * a handler that sets a flag) and `roundtrip` (ping-pong, two IPIs). */
uint64_t runner_floor_ipi(void);
uint64_t runner_floor_roundtrip(void);
/* The CPU that never answered a floor probe (raw.c gives up after
 * xcall_raw_bound_ms()), or -1: the floors are sound. */
int runner_floor_lost(void);
/* 1 when the ledger could not be allocated: every case then runs harness=bare
 * (callees keep no books, no exactly-once check). */
int runner_harness_bare(void);

/*
 * One case in three steps, so repetitions of related cases can be interleaved
 * (bench.c runs rep r of every algorithm before rep r+1 of any, so a slow stretch
 * of the machine - a busy host under a VM - hits them alike):
 *   begin: place it, check the machine can run it; 0 and a CASE frame, or 1 and a
 *          LOG line saying why it is skipped (i of n, for progress), or -1 and
 *          an ERROR when its CASE text does not fit a frame (the run must end);
 *   rep:   one repetition; <0 when the watchdog fired (the run must end);
 *   end:   medians over the repetitions and the console progress line.
 */
int runner_case_begin(const struct bcase *c, unsigned i, unsigned n, struct case_summary *sum);
/* Whether begin would run the case on this machine (1) or skip it (0); silent.
 * bench.c counts these to announce `cases_planned` before the first case. */
int runner_case_fits(const struct bcase *c);
int runner_case_rep(const struct bcase *c, unsigned rep, uint64_t watchdog_ms,
		    struct case_summary *sum);
void runner_case_end(const struct bcase *c, unsigned i, unsigned n, struct case_summary *sum);
/* A case's Jain's index as the console prints it (case line, table):
 * "0.838", or "-" where not measured (jain_ppm 0: sync, one initiator). */
void runner_jain_text(char *buf, unsigned n, uint64_t jain_ppm);

/* The frames a case sends (emit_case_frame, emit_fill_result, emit_logf) are
 * emit.c's: bench/emit.h. */
#include "bench/emit.h"

/* Stress: run `c` on the given initiator CPUs / target masks, optionally with a
 * different algorithm and wait per initiator (ops/waits may be NULL). CASE frame and
 * one all-initiators RESULT per rep, no histograms. 0, or <0 when the watchdog fired,
 * or RUNNER_CASE_REFUSED (nothing run) after an ERROR: its CASE text did not fit a frame. */
#define RUNNER_CASE_REFUSED (-2)
int runner_run_custom(const struct bcase *c, const unsigned *icpus, const struct cpumask *tm,
		      const struct xcall_ops *const *ops, const enum xcb_wait *waits,
		      uint64_t watchdog_ms, struct case_summary *sum);

#endif
