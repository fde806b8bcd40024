/*
 * placement.c - initiator and target CPU selection (see placement.h).
 */
#include "bench/placement.h"

/* The i-th of n evenly spaced indexes in [0, len). */
static unsigned spread(unsigned i, unsigned n, unsigned len)
{
	return (unsigned)(((uint64_t)i * len) / n);
}

/* 0, or -1 with *why when c's initiators and masks cannot fit ncpus. */
static int check_fit(const struct bcase *c, unsigned ncpus, const char **why)
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
	if ((c->overlap ? I + M : I * (M + 1)) > ncpus) {
		*why = "mask does not fit the CPU count";
		return -1;
	}
	return 0;
}

/* The initiators' CPUs into icpus (and the set is): first, spread, or
 * dealt round-robin over the packages in order of first appearance, so each
 * has a package of its own to target within (or across). */
static void place_initiators(const struct bcase *c, unsigned ncpus, const unsigned *pkg_of,
			     unsigned *icpus, struct cpumask *is)
{
	/* static: N-sized tables stay off the stack (the orchestrator is the one caller) */
	static unsigned pkgs[XCB_MAX_CPUS];
	unsigned npkg = 0, I = c->inits;

	cpumask_clear_all(is);
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
				if (cpumask_test(is, cpu))
					continue;
				if (any == XCB_MAX_CPUS)
					any = cpu;
				if (pkg_of[cpu] == want)
					pick = cpu;
			}
			icpus[k] = pick != XCB_MAX_CPUS ? pick : any;
		}
		cpumask_set(is, icpus[k]);
	}
}

/* package / cross: each initiator's M targets among rest[0..nr) in its own
 * package, or in any other. 0, or -1 with *why. */
static int place_by_package(const struct bcase *c, const unsigned *pkg_of, const unsigned *icpus,
			    const unsigned *rest, unsigned nr, struct cpumask *tm, const char **why)
{
	static unsigned char used[XCB_MAX_CPUS];

	for (unsigned r = 0; r < nr; r++)
		used[r] = 0;
	for (unsigned k = 0; k < c->inits; k++) {
		unsigned got = 0;
		for (unsigned r = 0; r < nr && got < c->mask; r++) {
			int same = pkg_of[rest[r]] == pkg_of[icpus[k]];
			if ((c->placement == XCB_PL_PACKAGE) != same || (!c->overlap && used[r]))
				continue;
			used[r] = 1;
			cpumask_set(&tm[k], rest[r]);
			got++;
		}
		if (got < c->mask) {
			*why = c->placement == XCB_PL_PACKAGE ? "not enough CPUs in the initiator's package"
							  : "not enough CPUs in other packages";
			return -1;
		}
	}
	return 0;
}

int place_case(const struct bcase *c, unsigned ncpus, const unsigned *pkg_of,
	       unsigned *icpus, struct cpumask *tm, const char **why)
{
	static unsigned rest[XCB_MAX_CPUS]; /* N-sized: off the stack */
	unsigned I = c->inits, M = c->mask, nr = 0;
	struct cpumask is;

	if (ncpus > XCB_MAX_CPUS)
		ncpus = XCB_MAX_CPUS;
	if (check_fit(c, ncpus, why))
		return -1;
	place_initiators(c, ncpus, pkg_of, icpus, &is);
	for (unsigned k = 0; k < I; k++)
		cpumask_clear_all(&tm[k]);
	/* The rest, in CPU order: where targets come from. */
	for (unsigned cpu = 0; cpu < ncpus; cpu++)
		if (!cpumask_test(&is, cpu))
			rest[nr++] = cpu;
	if (c->placement != XCB_PL_FIRST && c->placement != XCB_PL_SPREAD)
		return place_by_package(c, pkg_of, icpus, rest, nr, tm, why);
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

int place_sync(const struct bcase *c, unsigned ncpus, const unsigned *pkg_of, unsigned *writer,
	       struct cpumask *targets, struct cpumask *readers, const char **why)
{
	static unsigned pool[XCB_MAX_CPUS]; /* N-sized: off the stack */
	unsigned W = c->writer, M = c->mask, nr = 0, got = 0;

	if (ncpus > XCB_MAX_CPUS)
		ncpus = XCB_MAX_CPUS;
	if (W >= ncpus) {
		*why = "the writer's CPU is not on this machine";
		return -1;
	}
	if (M == 0) {
		*why = "empty mask";
		return -1;
	}
	*writer = W;
	cpumask_clear_all(targets);
	cpumask_clear_all(readers);
	for (unsigned cpu = 0; cpu < ncpus; cpu++)
		if (cpu != W && (W == 0 || cpu != 0))
			pool[nr++] = cpu;
	if (M + c->readers > nr) {
		*why = c->readers ? "mask and readers do not fit the CPU count" : "mask does not fit the CPU count";
		return -1;
	}
	if (c->placement == XCB_PL_PACKAGE || c->placement == XCB_PL_CROSS) {
		struct bcase one = *c;
		one.inits = 1;
		one.overlap = 0;
		if (place_by_package(&one, pkg_of, writer, pool, nr, targets, why) < 0)
			return -1;
	} else {
		for (unsigned j = 0; j < M; j++)
			cpumask_set(targets, pool[c->placement == XCB_PL_SPREAD ? spread(j, M, nr) : j]);
	}
	if (!c->readers) {
		*readers = *targets;
		return 0;
	}
	for (unsigned r = 0; r < nr && got < c->readers; r++)
		if (!cpumask_test(targets, pool[r])) {
			cpumask_set(readers, pool[r]);
			got++;
		}
	return 0;
}
