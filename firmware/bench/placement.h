/*
 * placement.h - which CPUs initiate and which each one targets, for a case's
 * placement (first-N, spread, same package, cross package) and overlap (disjoint or
 * shared target sets). Pure: host-tested in tests/test_stats_suite.c.
 */
#ifndef XCB_BENCH_PLACEMENT_H
#define XCB_BENCH_PLACEMENT_H

#include "bench/suite.h"
#include "lib/cpumask.h"

#define RUN_MAX_INITS 32

/*
 * Initiators never target themselves or each other (targets come from the CPUs left
 * after the initiators). pkg_of[cpu] is each CPU's package. Fills icpus[0..inits-1]
 * (ascending for first/spread; round-robin over packages for package/cross) and
 * tm[k] for each. Returns 0, or -1 with *why set
 * when the case does not fit this machine.
 */
int place_case(const struct bcase *c, unsigned ncpus, const unsigned *pkg_of,
	       unsigned *icpus, struct cpumask *tm, const char **why);

/*
 * kind=sync (seed 002): the writer on CPU c->writer (0: the boot CPU; any other
 * leaves the boot CPU out, as it supervises the run), c->mask shootdown targets
 * from the other CPUs by c->placement (package/cross: the writer's package),
 * and c->readers readers of their own after them in CPU order (0: the targets
 * are the readers). 0, or -1 with *why when it does not fit.
 */
int place_sync(const struct bcase *c, unsigned ncpus, const unsigned *pkg_of, unsigned *writer,
	       struct cpumask *targets, struct cpumask *readers, const char **why);

#endif
