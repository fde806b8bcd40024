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

/* One round: the case and what each initiator does in it. */
struct round {
	struct bcase c;
	unsigned icpus[RUN_MAX_INITS];
	struct cpumask tm[RUN_MAX_INITS];
	const struct xcall_ops *ops[RUN_MAX_INITS];
	enum xcb_wait waits[RUN_MAX_INITS];
};

/* What every round draws from: the CPUs, the algorithms, the TLB methods. */
struct stress_env {
	unsigned ncpus, nalg, nmeth;
	enum xcb_method methods[XCB_N_method];
};

/* r->c.inits distinct initiators among CPUs 1..n-1, in random order, then
 * sorted ascending (the watchdog's report indexes targets that way). */
static void pick_initiators(struct round *r, unsigned n)
{
	static unsigned pool[XCB_MAX_CPUS]; /* N-sized: off the stack */
	unsigned np = 0, *icpus = r->icpus;

	for (unsigned cpu = 1; cpu < n; cpu++)
		pool[np++] = cpu;
	unsigned maxi = np < 4 ? np : 4;
	r->c.inits = 1 + below(maxi);
	for (unsigned k = 0; k < r->c.inits; k++) {
		unsigned j = k + below(np - k);
		unsigned t = pool[k];
		pool[k] = pool[j];
		pool[j] = t;
		icpus[k] = pool[k];
	}
	for (unsigned a = 1; a < r->c.inits; a++)
		for (unsigned b = a; b > 0 && icpus[b - 1] > icpus[b]; b--) {
			unsigned t = icpus[b];
			icpus[b] = icpus[b - 1];
			icpus[b - 1] = t;
		}
}

/* Each initiator's targets (any CPU but itself, overlapping the others' at
 * will), algorithm and wait. */
static void pick_targets(struct round *r, const struct stress_env *e)
{
	unsigned a0 = below(e->nalg), n = e->ncpus;

	for (unsigned k = 0; k < r->c.inits; k++) {
		cpumask_clear_all(&r->tm[k]);
		unsigned want = 1 + below(n - 1);
		for (unsigned g = 0; g < want; g++) {
			unsigned t = below(n);
			if (t != r->icpus[k])
				cpumask_set(&r->tm[k], t);
		}
		if (cpumask_empty(&r->tm[k]))
			cpumask_set(&r->tm[k], r->icpus[k] == 0 ? 1 : 0);
		/* TLB rounds use one algorithm (the flush path is per case); xcall
		 * rounds mix algorithms between initiators. */
		r->ops[k] = xcall_algos[r->c.kind == XCB_KIND_TLB ? a0 : below(e->nalg)];
		do	/* a wait the algorithm supports (xcall.h) */
			r->waits[k] = (enum xcb_wait)below(XCB_N_wait);
		while (!(r->ops[k]->waits & XCALL_WAIT_BIT(r->waits[k])));
	}
}

/* Draws round number `round` (case id id). The draws' order is fixed, so a
 * seed replays the same rounds. */
static void make_round(struct round *r, const struct suite *s, const struct stress_env *e,
		       uint32_t id, uint64_t round)
{
	struct bcase *c = &r->c;

	memset(r, 0, sizeof(*r));
	c->id = id;
	/* A quarter of the rounds are shootdowns, the second one always (so even
	 * a short run covers both kinds). */
	int tlb_ok = e->nmeth && (s->kinds & (1u << XCB_KIND_TLB));
	c->kind = tlb_ok && (below(4) == 0 || round == 1) ? XCB_KIND_TLB : XCB_KIND_XCALL;
	if (!(s->kinds & (1u << XCB_KIND_XCALL)) && tlb_ok)
		c->kind = XCB_KIND_TLB;
	c->delivery = XCB_DELIVERY_AUTO;
	c->placement = XCB_PL_FIRST;
	c->reps = 1;
	c->iters = 5 + below(s->iters > 5 ? (unsigned)s->iters - 5 : 1);
	pick_initiators(r, e->ncpus);
	pick_targets(r, e);
	c->algo = r->ops[0];
	c->wait = r->waits[0];
	c->mask = cpumask_weight(&r->tm[0]);
	c->overlap = 1;
	if (c->kind == XCB_KIND_TLB) {
		do	/* any path but the unsafe demonstration (flush.h) */
			c->flush = (enum xcb_flush)below(XCB_N_flush);
		while (!(FLUSH_PATHS_DEFAULT & (1u << c->flush)));
		c->method = e->methods[below(e->nmeth)];
		unsigned maxb = flush_max_batch() < 8 ? flush_max_batch() : 8;
		c->batch = 1 + below(maxb);
		for (unsigned k = 0; k < c->inits; k++)
			r->waits[k] = XCB_WAIT_DONE;
	} else {
		c->work_us = below(4) == 0 ? below(50) : 0;
	}
}

int stress_run(const struct suite *s, uint32_t first_id, struct stress_result *out)
{
	static char line[256];
	static struct round r; /* RUN_MAX_INITS cpumasks: off the stack */
	struct stress_env e = { .ncpus = plat_num_cpus() };

	memset(out, 0, sizeof(*out));
	if (e.ncpus < 2) {
		report_log("stress: needs at least 2 CPUs; nothing to do");
		return 0;
	}
	rng = s->seed ? s->seed : (plat_cycles() | 1);
	uint64_t seed = rng;
	while (xcall_algos[e.nalg])
		e.nalg++;
	for (unsigned m = 0; m < XCB_N_method; m++)
		if (m != XCB_METHOD_NONE && (s->methods & (1u << m)) && flush_method_supported((enum xcb_method)m))
			e.methods[e.nmeth++] = (enum xcb_method)m;

	ksnprintf(line, sizeof(line), "stress: %llu s on %u CPUs, seed %llu, watchdog %llu ms",
		  (unsigned long long)s->duration_s, e.ncpus, (unsigned long long)seed,
		  (unsigned long long)s->watchdog_ms);
	report_log(line);

	uint64_t end = plat_cycles() + plat_tsc_khz() * 1000 * s->duration_s;
	uint32_t id = first_id;

	while (plat_cycles() < end) {
		struct case_summary sum;

		make_round(&r, s, &e, id++, out->rounds);
		int rc = runner_run_custom(&r.c, r.icpus, r.tm, r.ops, r.waits, s->watchdog_ms, &sum);
		out->rounds++;
		if (rc == RUNNER_CASE_REFUSED) {
			out->refused = 1;	/* its ERROR is out */
			break;
		}
		if (rc < 0) {
			out->watchdog = 1;
			break;
		}
		out->calls += sum.count;
		out->stale += sum.stale;
		out->not_once += sum.lost + sum.dup + sum.ooo;
		out->early += sum.early;
		report_poll();
	}
	out->next_id = id;
	/* Done-early calls named only when there are some (tests read the line). */
	char early[64] = "";
	if (out->early)
		ksnprintf(early, sizeof(early), ", %llu wait=done returned early", (unsigned long long)out->early);
	ksnprintf(line, sizeof(line),
		  "stress: %llu rounds, %llu calls, violations: %llu stale, %llu not run exactly once%s, watchdog %s",
		  (unsigned long long)out->rounds, (unsigned long long)out->calls,
		  (unsigned long long)out->stale, (unsigned long long)out->not_once, early,
		  out->watchdog ? "FIRED" : "quiet");
	report_log(line);
	return (out->stale || out->not_once || out->early || out->watchdog || out->refused) ? 1 : 0;
}
