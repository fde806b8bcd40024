/*
 * suite.h - what to run: the axes of a suite (`suite=quick|default|seed|tlb|ept|stress`,
 * each axis overridable on the command line) and the cases they expand to.
 *
 * A case = kind (xcall|tlb|raw|sync) x algorithm x delivery x wait x initiators x CPUs in
 * mask x placement x overlap x callee work (x flush path, method, batch for tlb).
 * Cases that cannot run on this machine are not lost silently: the runner skips them
 * with a LOG line saying why.
 */
#ifndef XCB_BENCH_SUITE_H
#define XCB_BENCH_SUITE_H

#include <stdint.h>
#include "xcall/xcall.h"
#include "flush/flush.h"
#include "bench/benchenv.h"

/* The case's vocabularies are proto/xcb_schema.h's enums, used as they are:
 * enum xcb_kind, xcb_delivery, xcb_wait, xcb_placement, xcb_flush, xcb_method,
 * xcb_floor (kind=raw: `ipi`, one IPI to a handler that sets a flag the caller
 * spins on, the least a wait=done call costs; `roundtrip`, the ping-pong, two
 * IPIs) and xcb_sync_mode (kind=sync, seed 002, bench/sync.c: where the writer
 * invalidates, relative to its write lock). */
#include "xcb_schema.h"

#define AX_MAX 16		/* values per numeric axis */
#define MASK_ALL 0xffffffu	/* masks= "all": every CPU left after the initiators */
#define MASK_POW2 0xfffffeu	/* masks= "pow2": 1, 2, 4, ... and "all" */
#define INITS_POW2 0xfffffeu	/* inits= "pow2": 1, 2, 4, ... up to half the CPUs */

struct suite {
	const char *name;
	unsigned kinds;			/* bit per enum xcb_kind */
	unsigned algos;			/* bit per xcall_algos[] index */
	unsigned waits;			/* bit per enum xcb_wait */
	unsigned deliveries;		/* bit per enum xcb_delivery */
	/* tlb, sync: the deliveries their shootdowns are sent under. `auto` in
	 * every preset (the quick suite's four deliveries would quadruple its
	 * shootdowns); deliveries= given on the command line sets it too, so a
	 * reviewer can put the all-but-self shorthand against unicast under the
	 * flush lock (seed 001). */
	unsigned flush_deliveries;
	unsigned placements;		/* bit per enum xcb_placement */
	unsigned overlaps;		/* bit 0 disjoint, bit 1 overlap */
	unsigned harnesses;		/* bit 0 full, bit 1 bare (harness=: overhead runs) */
	unsigned idles;			/* xcall: bit per xcb_idle (idles=: what targets do between calls) */
	unsigned groups[AX_MAX], ngroups; /* xcall, hierarchical algorithms: G (groups=; 0 = its default) */
	unsigned inits[AX_MAX], ninits;
	unsigned masks[AX_MAX], nmasks;
	unsigned work_us[AX_MAX], nwork;
	unsigned flushes;			/* tlb: bit per enum xcb_flush */
	unsigned methods;		/* tlb: bit per enum xcb_method */
	unsigned batches[AX_MAX], nbatches;
	unsigned modes, rwlocks;	/* sync: bit per enum xcb_sync_mode; bit 0 fair, 1 unfair */
	uint64_t batch_reads, entry_us;	/* sync: read acquisitions per batch; lazy entry period */
	/* sync: the writer's CPU (writer=; 0 the boot CPU) and how many readers
	 * (readers=; 0: the shootdown targets read, else that many CPUs of their
	 * own, apart from the targets) */
	unsigned writers[AX_MAX], nwriters;
	unsigned readers[AX_MAX], nreaders;
	uint64_t iters;			/* calls per initiator per rep (0: time only) */
	uint64_t warmup;		/* untimed calls per initiator before each rep's timed ones */
	uint64_t time_ms;		/* per-rep time budget (0: count only) */
	uint64_t reps;
	uint64_t samples;		/* 1: raw per-call samples too */
	uint64_t duration_s;		/* stress: how long */
	uint64_t watchdog_ms;		/* no call may take longer */
	uint64_t seed;			/* stress: random seed (0: from the TSC) */
};

struct bcase {
	uint32_t id;
	enum xcb_kind kind;
	const struct xcall_ops *algo;	/* xcall; tlb via xcall; NULL otherwise */
	enum xcb_delivery delivery;
	enum xcb_wait wait;
	unsigned inits, mask;		/* mask = target CPUs per initiator */
	enum xcb_placement placement;
	unsigned overlap;		/* 0 disjoint, 1 overlap */
	unsigned work_us;
	enum xcb_flush flush;
	enum xcb_method method;
	unsigned batch;
	enum xcb_floor floor;		/* kind=raw */
	unsigned harness;		/* xcall: 0 full bookkeeping, 1 bare (no exactly-once) */
	unsigned idle;			/* xcall: enum xcb_idle (hlt, mwait, poll) */
	unsigned group;			/* xcall: G of a hierarchical algorithm (0: its default) */
	enum xcb_sync_mode mode;		/* sync: the case's algo */
	unsigned rwlock;		/* sync: 0 fair, 1 unfair */
	unsigned batch_reads, entry_us;	/* sync */
	unsigned writer;		/* sync: the writer's CPU (0: the boot CPU, today's) */
	unsigned readers;		/* sync: 0 the targets read, else N readers apart */
	uint64_t iters, warmup, time_ms, reps;
	int samples;
};

/* Load suite `name`'s defaults, then apply command-line overrides. Returns 0, or <0
 * after printing an error that names the bad key/value. */
int suite_load(struct suite *s, const char *name);
/* The checks that need the machine: 0, or <0 after printing an error that
 * names the key (writer=N names a CPU, and a CPU this machine lacks would
 * skip every sync case and leave a run that completes with none). */
int suite_check_cpus(const struct suite *s, unsigned ncpus);
/* Expand the suite into cases for `ncpus` CPUs, calling fn for each (ids from 1).
 * Returns the number of cases. Cases whose mask sizes resolve to the same numbers
 * are emitted once. */
unsigned suite_for_each_case(const struct suite *s, unsigned ncpus,
			     void (*fn)(const struct bcase *c, void *ctx), void *ctx);
/* The cases of delivery allbutself the expansion leaves out: the all-but-self
 * shorthand exists only for one initiator whose mask is every other CPU
 * (seed 001's safety rule), so the suite's other inits and masks have none.
 * Never planned, never a case id: bench.c says how many in the log's
 * skip line (SUITE_SHORTHAND_WHY), as the runner says each case it skips. */
unsigned suite_shorthand_left(const struct suite *s, unsigned ncpus);
#define SUITE_SHORTHAND_WHY "delivery allbutself needs one initiator and a mask of every other CPU"

/* Same experiment except for the algorithm (and id): cases that are compared. */
int case_same_shape(const struct bcase *a, const struct bcase *b);
/* Same shape except (also) for the harness: cases whose repetitions are
 * interleaved, so harness=full,bare are measured in the same stretch of time. */
int case_same_group(const struct bcase *a, const struct bcase *b);

const char *case_algo_name(const struct bcase *c);

#endif
