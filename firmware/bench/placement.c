/*
 * placement.c - initiator and target CPU selection (see placement.h).
 */
#include "bench/placement.h"

/* The i-th of n evenly spaced indexes in [0, len). */
static unsigned spread(unsigned i, unsigned n, unsigned len)
{
	return (unsigned)(((uint64_t)i * len) / n);
}

int place_case(const struct bcase *c, unsigned ncpus, const unsigned *pkg_of,
	       unsigned *icpus, struct cpumask *tm, const char **why)
{
	unsigned I = c->inits, M = c->mask;
	if (I == 0 || M == 0) {
		*why = "no initiator or empty mask";
		return -1;
	}
	if (I > RUN_MAX_INITS) {
		*why = "more initiators than the runner supports (32)";
		return -1;
	}
	if (ncpus > XCB_MAX_CPUS)
		ncpus = XCB_MAX_CPUS;
	unsigned need = c->overlap ? I + M : I * (M + 1);
	if (need > ncpus) {
		*why = "mask does not fit the CPU count";
		return -1;
	}
	struct cpumask is;
	cpumask_clear_all(&is);
	/* Packages in order of first appearance: package/cross placements deal the
	 * initiators round-robin over them, so each has a package of its own to
	 * target within (or across). */
	/* static: N-sized tables stay off the stack (the orchestrator is the one caller) */
	static unsigned pkgs[XCB_MAX_CPUS], rest[XCB_MAX_CPUS];
	static unsigned char used[XCB_MAX_CPUS];
	unsigned npkg = 0;
	for (unsigned cpu = 0; cpu < ncpus; cpu++) {
		unsigned j = 0;
		while (j < npkg && pkgs[j] != pkg_of[cpu])
			j++;
		if (j == npkg)
			pkgs[npkg++] = pkg_of[cpu];
	}
	for (unsigned k = 0; k < I; k++) {
		if (c->placement == XCB_PL_SPREAD) {
			icpus[k] = spread(k, I, ncpus);
		} else if (c->placement == XCB_PL_FIRST) {
			icpus[k] = k;
		} else {
			/* the lowest free CPU of package k mod npkg (any free one if full) */
			unsigned want = pkgs[k % npkg], pick = XCB_MAX_CPUS, any = XCB_MAX_CPUS;
			for (unsigned cpu = 0; cpu < ncpus && pick == XCB_MAX_CPUS; cpu++) {
				if (cpumask_test(&is, cpu))
					continue;
				if (any == XCB_MAX_CPUS)
					any = cpu;
				if (pkg_of[cpu] == want)
					pick = cpu;
			}
			icpus[k] = pick != XCB_MAX_CPUS ? pick : any;
		}
		cpumask_set(&is, icpus[k]);
		cpumask_clear_all(&tm[k]);
	}
	/* The rest, in CPU order: where targets come from. */
	unsigned nr = 0;
	for (unsigned cpu = 0; cpu < ncpus; cpu++)
		if (!cpumask_test(&is, cpu))
			rest[nr++] = cpu;

	if (c->placement == XCB_PL_FIRST || c->placement == XCB_PL_SPREAD) {
		for (unsigned k = 0; k < I; k++)
			for (unsigned j = 0; j < M; j++) {
				unsigned idx;
				if (c->placement == XCB_PL_FIRST)
					idx = c->overlap ? j : k * M + j;
				else /* spread: interleave the initiators' targets over the rest */
					idx = c->overlap ? spread(j, M, nr) : spread(j * I + k, M * I, nr);
				cpumask_set(&tm[k], rest[idx]);
			}
		return 0;
	}
	/* package / cross: targets in the initiator's package, or in any other. */
	for (unsigned r = 0; r < nr; r++)
		used[r] = 0;
	for (unsigned k = 0; k < I; k++) {
		unsigned got = 0;
		for (unsigned r = 0; r < nr && got < M; r++) {
			int same = pkg_of[rest[r]] == pkg_of[icpus[k]];
			if ((c->placement == XCB_PL_PACKAGE) != same || (!c->overlap && used[r]))
				continue;
			used[r] = 1;
			cpumask_set(&tm[k], rest[r]);
			got++;
		}
		if (got < M) {
			*why = c->placement == XCB_PL_PACKAGE ? "not enough CPUs in the initiator's package"
							  : "not enough CPUs in other packages";
			return -1;
		}
	}
	return 0;
}
