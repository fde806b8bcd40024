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

#endif
