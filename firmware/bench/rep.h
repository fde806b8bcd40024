/*
 * rep.h - the runner's inside, shared by its files only (not for the rest of
 * bench/): where a case runs (struct case_cpus), one repetition as a struct
 * rep_ctx going through setup / start / supervise / check / emit (rep.c), the
 * initiator side started on each CPU and its start barrier (initiator.c), and the
 * frames (emit.c). runner.c owns the case around them: placement, medians,
 * fairness.
 */
#ifndef XCB_BENCH_REP_H
#define XCB_BENCH_REP_H

#include <stdint.h>
#include "bench/histo.h"
#include "bench/ledger.h"
#include "bench/runner.h"
#include "bench/stats.h"
#include "flush/flush.h"
#include "lib/cpumask.h"

#define SAMPLES_MAX 1024	/* raw samples kept per initiator per rep (samples=1) */
/* The no-flush control (per initiator per TLB rep, per sync rep): CTL_RUNS
 * shootdowns, then more while none has seen a stale read, up to CTL_MAX. A
 * primed translation can leave a TLB before the verify step reads it (a
 * target's own loop evicts it: QEMU's TCG TLB is direct-mapped with an 8-entry
 * victim buffer and seldom more than 256 entries early in a boot); one stale
 * read is what "verified" needs, and the runs it took are reported with it
 * (control_runs), so a low detection rate shows instead of reading as
 * "unverified" - or as a fixed 8. */
#define CTL_RUNS 8		/* at least this many control shootdowns */
#define CTL_MAX 64		/* at most, while none has seen a stale read */
#define PAIR_EVERY 4		/* one paired `ipi` probe after every PAIR_EVERY-th timed call */
#define PAIRS_MAX 256		/* paired probes kept per initiator per rep */

/* Where a case runs: set by placement (runner.c) or by stress (runner_run_custom),
 * read by every repetition and by the CASE frame. */
struct case_cpus {
	unsigned init_cpus[RUN_MAX_INITS];
	struct cpumask targets[RUN_MAX_INITS];	/* targets[k]: the k-th initiator's */
	struct cpumask readers;			/* sync: the lock's readers (bench/sync.c) */
	/* Per-initiator algorithm/wait overrides (stress); NULL = the case's. */
	const struct xcall_ops *const *mix_ops;
	const enum xcb_wait *mix_waits;
};

/* One initiator of a repetition: set up by CPU 0 before it starts the CPU. */
struct initiator {
	const struct bcase *c;
	const struct xcall_ops *ops;	/* the case's algorithm, or per initiator (stress) */
	enum xcb_wait wait;
	unsigned cpu, slot;
	const struct cpumask *targets;
	struct flush_cfg fcfg;
	uint64_t deadline;	/* cycles; 0 = none */
	/* results, written by the initiator's CPU, read by CPU 0 after `finished` */
	struct stats st;
	struct histo *h;
	uint64_t *samples;
	uint64_t seq;		/* calls issued, warm-up included (the last number used) */
	uint64_t done;		/* timed calls made */
	uint64_t elapsed;	/* cycles the timed calls took, all together */
	struct fair_win win;	/* calls and cycles in the shared window (stats.h) */
	/* Paired floor probes (xcall and TLB cases whose initiators' first
	 * targets differ; NULL otherwise): the `ipi` probe to the first target
	 * after every PAIR_EVERY-th timed call, and that call's cost over it
	 * x 1000. The floor from the same moment as the call. */
	uint64_t *probe, *pratio;
	unsigned npairs;
	uint64_t ipis;
	uint64_t stale;
	uint64_t ctl_runs, ctl_stale;	/* TLB no-flush control: runs, runs that saw stale */
	/* wait=done calls looked at once call() returned (initiator.c done_check),
	 * those a target's ledger did not show yet, and the first of these: its
	 * number and a target that had not run it */
	uint64_t done_checked, done_early, early_seq;
	unsigned early_cpu;
	int bad_cfg;		/* the flush layer refused the configuration */
	/* On a line of its own: CPU 0 polls it while the initiator writes its
	 * statistics above after every call (no line transfer inside a call). */
	int finished __attribute__((aligned(64)));
} __attribute__((aligned(64)));	/* each initiator writes its own: no shared line */

/* Fairness over every repetition of a case (runner.c keeps a ring of them; the
 * emit step adds each repetition's per-initiator calls, cycles and p50). */
struct fair_acc {
	uint64_t calls[RUN_MAX_INITS], cycles[RUN_MAX_INITS];
	uint64_t p50[RUN_MAX_INITS][REPS_KEPT];
	unsigned nrep, ninit;
};

/* One repetition, on CPU 0, from setup to emit. */
struct rep_ctx {
	const struct bcase *c;
	const struct case_cpus *cpus;
	unsigned rep;
	uint64_t wd_cycles;		/* the watchdog bound; 0 = none */
	uint64_t bound;			/* setup: every wait's bound (wd_cycles, or REP_BOUND_MS) */
	int emit_each;			/* histograms and samples per initiator too */
	struct case_summary *sum;
	uint64_t ipi_floor;		/* setup: this repetition's `ipi` floor */
	int floor_lost;			/* setup: a CPU that never answered the floor probe, or -1 */
	int bare;			/* setup: harness=bare, no bookkeeping */
	int self;			/* start: CPU 0's own initiator index, or -1 */
	/* check: the ledger's verdicts (judged: xcall with full bookkeeping) */
	int judged;
	uint64_t expected, executed;
	struct ledger_verdict vd[RUN_MAX_INITS];
	/* emit: the all-initiators p50 and mean of this repetition, and its paired
	 * floor and ratio (median probe, median call/probe x 1000; 0: none) */
	uint64_t p50, mean;
	uint64_t floor_paired, ratio_paired;
	int unstable;
};

/* rep.c: one repetition of a non-sync case; <0 when the watchdog fired. */
int rep_run(struct rep_ctx *x);

/* ---- initiator.c ---- */
/* Before the start barrier opens: what every callee of the repetition reads. */
void initiator_arm_callee(uint64_t work_cycles, int bare, const unsigned *init_cpus);
/* The start barrier and the abort flag: CPU 0 closes it for n initiators, the APs
 * count in, CPU 0 opens it (release: the initiators' setup and deadline go with
 * it). The same close resets the shared window and the end-of-timed-calls count
 * that the TLB control waits for. */
void initiator_barrier_close(unsigned n);
unsigned initiator_ready(void);
void initiator_go(void);
void initiator_abort(void);
/* An initiator's body (smp start function; CPU 0 calls it directly). */
void initiator_main(void *in);

/* ---- emit.c ---- */
/* The RESULT frames (per initiator, then all), histograms, and the summary. */
void rep_emit(struct rep_ctx *x, struct initiator *ini, unsigned n, struct histo *hall);

#endif
