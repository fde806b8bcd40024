/*
 * stress.c - `suite=stress duration=S`: random algorithms (mixed between concurrent
 * initiators), waits, initiators, masks (targets may include other initiators and
 * CPU 0) and TLB shootdowns, for S seconds. Every round checks that each target ran
 * each call exactly once and that no stale translation was seen; the watchdog bounds
 * every call. CPU 0 never initiates here: it is the watchdog, and a target.
 */
#include "bench/stress.h"
#include "bench/benchenv.h"
#include "bench/report.h"
#include "bench/runner.h"
#include "bench/watchdog.h"
#include "lib/printf.h"
#include "lib/string.h"

static uint64_t rng;

static uint64_t rnd(void)
{
	/* xorshift64*: reproducible from seed= */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dull;
}

static unsigned below(unsigned n)
{
	return n ? (unsigned)(rnd() % n) : 0;
}

int stress_run(const struct suite *s, uint32_t first_id, struct stress_result *out)
{
	unsigned n = plat_num_cpus();
	static char line[256];
	memset(out, 0, sizeof(*out));
	if (n < 2) {
		report_log("stress: needs at least 2 CPUs; nothing to do");
		return 0;
	}
	rng = s->seed ? s->seed : (plat_cycles() | 1);
	uint64_t seed = rng;
	unsigned nalg = 0;
	while (xcall_algos[nalg])
		nalg++;
	enum flush_method methods[FLUSH_METHOD_NR];
	unsigned nmeth = 0;
	for (unsigned m = 0; m < FLUSH_METHOD_NR; m++)
		if (m != FLUSH_NONE && (s->methods & (1u << m)) && flush_method_supported((enum flush_method)m))
			methods[nmeth++] = (enum flush_method)m;

	ksnprintf(line, sizeof(line), "stress: %llu s on %u CPUs, seed %llu, watchdog %llu ms",
		  (unsigned long long)s->duration_s, n, (unsigned long long)seed,
		  (unsigned long long)s->watchdog_ms);
	report_log(line);

	uint64_t khz = plat_tsc_khz();
	uint64_t end = plat_cycles() + khz * 1000 * s->duration_s;
	unsigned icpus[RUN_MAX_INITS];
	struct cpumask tm[RUN_MAX_INITS];
	const struct xcall_ops *ops[RUN_MAX_INITS];
	enum xcall_wait waits[RUN_MAX_INITS];
	uint32_t id = first_id;

	while (plat_cycles() < end) {
		struct bcase c = { 0 };
		struct case_summary sum;
		c.id = id++;
		/* A quarter of the rounds are shootdowns, the second one always (so even
		 * a short run covers both kinds). */
		int tlb_ok = nmeth && (s->kinds & (1u << KIND_TLB));
		c.kind = tlb_ok && (below(4) == 0 || out->rounds == 1) ? KIND_TLB : KIND_XCALL;
		if (!(s->kinds & (1u << KIND_XCALL)) && tlb_ok)
			c.kind = KIND_TLB;
		c.delivery = DELIV_AUTO;
		c.placement = PL_FIRST;
		c.reps = 1;
		c.iters = 5 + below(s->iters > 5 ? (unsigned)s->iters - 5 : 1);

		/* Initiators: distinct CPUs among 1..n-1, in random order. */
		static unsigned pool[XCB_MAX_CPUS]; /* N-sized: off the stack */
		unsigned np = 0;
		for (unsigned cpu = 1; cpu < n; cpu++)
			pool[np++] = cpu;
		unsigned maxi = np < 4 ? np : 4;
		c.inits = 1 + below(maxi);
		for (unsigned k = 0; k < c.inits; k++) {
			unsigned j = k + below(np - k);
			unsigned t = pool[k];
			pool[k] = pool[j];
			pool[j] = t;
			icpus[k] = pool[k];
		}
		/* Sort initiators ascending: the watchdog's report indexes targets that way. */
		for (unsigned a = 1; a < c.inits; a++)
			for (unsigned b = a; b > 0 && icpus[b - 1] > icpus[b]; b--) {
				unsigned t = icpus[b];
				icpus[b] = icpus[b - 1];
				icpus[b - 1] = t;
			}
		unsigned a0 = below(nalg);
		for (unsigned k = 0; k < c.inits; k++) {
			/* Any CPU but itself, overlapping other initiators' masks at will. */
			cpumask_clear_all(&tm[k]);
			unsigned want = 1 + below(n - 1);
			for (unsigned g = 0; g < want; g++) {
				unsigned t = below(n);
				if (t != icpus[k])
					cpumask_set(&tm[k], t);
			}
			if (cpumask_empty(&tm[k]))
				cpumask_set(&tm[k], icpus[k] == 0 ? 1 : 0);
			/* TLB rounds use one algorithm (the flush path is per case); xcall
			 * rounds mix algorithms between initiators. */
			ops[k] = xcall_algos[c.kind == KIND_TLB ? a0 : below(nalg)];
			do	/* a wait the algorithm supports (xcall.h) */
				waits[k] = (enum xcall_wait)below(XCALL_WAIT_NR);
			while (!(ops[k]->waits & XCALL_WAIT_BIT(waits[k])));
		}
		c.algo = ops[0];
		c.wait = waits[0];
		c.mask = cpumask_weight(&tm[0]);
		c.overlap = 1;
		if (c.kind == KIND_TLB) {
			do	/* any path but the unsafe demonstration (flush.h) */
				c.path = (enum flush_path)below(FLUSH_PATH_NR);
			while (!(FLUSH_PATHS_DEFAULT & (1u << c.path)));
			c.method = methods[below(nmeth)];
			unsigned maxb = flush_max_batch() < 8 ? flush_max_batch() : 8;
			c.batch = 1 + below(maxb);
			for (unsigned k = 0; k < c.inits; k++)
				waits[k] = XCALL_WAIT_DONE;
		} else {
			c.work_us = below(4) == 0 ? below(50) : 0;
		}

		int rc = runner_run_custom(&c, icpus, tm, ops, waits, s->watchdog_ms, &sum);
		out->rounds++;
		if (rc < 0) {
			out->watchdog = 1;
			break;
		}
		out->calls += sum.count;
		out->stale += sum.stale;
		out->lost += sum.lost;
		report_poll();
	}
	out->next_id = id;
	ksnprintf(line, sizeof(line),
		  "stress: %llu rounds, %llu calls, violations: %llu stale, %llu not run exactly once, watchdog %s",
		  (unsigned long long)out->rounds, (unsigned long long)out->calls,
		  (unsigned long long)out->stale, (unsigned long long)out->lost,
		  out->watchdog ? "FIRED" : "quiet");
	report_log(line);
	return (out->stale || out->lost || out->watchdog) ? 1 : 0;
}
