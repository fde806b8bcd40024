/*
 * runner.c - one case at a time: this boot's harness overhead, floors and ledger;
 * placement and the checks that the machine can run a case; its repetitions (each
 * one a struct rep_ctx through rep.c: a start barrier so initiators contend for
 * real, warm-up calls, serialised-TSC timing of every call, exactly-once by sequence
 * numbers, ledger.h, and stale-translation checks with a no-flush control); the
 * medians and fairness over the repetitions and the console line. The frames are
 * emit.c's, the initiators' side initiator.c's.
 */
#include "bench/rep.h"
#include "bench/benchenv.h"
#include "bench/placement.h"
#include "bench/report.h"
#include "bench/stats.h"
#include "bench/sync.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "lib/cmdline_words.h"
#include "xcall/xcall.h"
#include "xcb_proto.h"


/* Where the case being run runs (prepare() or runner_run_custom()). */
static struct case_cpus cpus;

static int ledger_ok;			/* the ledger has memory (else every case runs bare) */
static uint64_t floor_ipi, floor_rt;	/* this boot's floors (CPU 0 -> CPU 1), cycles */
static int floor_lost = -1;		/* a CPU that never answered a floor probe */
static struct overhead overhead;

/* Fairness over every repetition of a case (ring: a group of interleaved cases holds
 * at most MAX_GROUP = 16 of these at once, bench.c). */
static struct fair_acc fair_pool[32];
static unsigned fair_next;

static struct fair_acc *fair_take(void)
{
	struct fair_acc *fa = &fair_pool[fair_next++ % 32];
	memset(fa, 0, sizeof(*fa));
	return fa;
}

uint64_t runner_overhead_min(void) { return overhead.min; }
uint64_t runner_overhead_median(void) { return overhead.median; }
uint64_t runner_floor_ipi(void) { return floor_ipi; }
uint64_t runner_floor_roundtrip(void) { return floor_rt; }
int runner_harness_bare(void) { return !ledger_ok; }

static uint64_t median_of(uint64_t *v, unsigned n)
{
	if (!n)
		return 0;
	sort_u64(v, n);
	return v[n / 2];
}

/* Median of `n` floor measurements CPU 0 -> CPU 1 after 128 untimed ones; 0
 * once a probe went unanswered (raw.c's bound: no watchdog runs yet), with
 * floor_lost naming CPU 1 - the rest would each wait out the bound too. */
static uint64_t floor_of(uint64_t (*probe)(unsigned), uint64_t *d, unsigned n)
{
	for (unsigned i = 0; i < 128 + n && floor_lost < 0; i++) {
		uint64_t c = probe(1);
		floor_lost = xcall_raw_lost();
		if (i >= 128)
			d[i - 128] = c;
	}
	return floor_lost < 0 ? median_of(d, n) : 0;
}

int runner_floor_lost(void)
{
	return floor_lost;
}

/* The packages as topology domains for hierarchical algorithms (tree), when
 * each package is one run of CPUs in CPU order (xcall/groups.h cuts groups
 * into runs); else, or with one package, none: groups follow CPU order. */
static void set_domains(void)
{
	static unsigned pkg[XCB_MAX_CPUS];
	unsigned n = plat_num_cpus() < XCB_MAX_CPUS ? plat_num_cpus() : XCB_MAX_CPUS, runs = 1;

	for (unsigned cpu = 0; cpu < n; cpu++) {
		pkg[cpu] = benv_package_of(cpu);
		if (cpu && pkg[cpu] != pkg[cpu - 1])
			runs++;
		for (unsigned p = 0; cpu && p + 1 < cpu; p++)
			if (pkg[p] == pkg[cpu] && pkg[cpu - 1] != pkg[cpu]) {
				kprintf("xcall: packages interleave in CPU order (cpu%u): tree groups follow CPU order\n", cpu);
				return;
			}
	}
	if (runs > 1)
		xcall_set_domains(pkg);
}

void runner_init(void)
{
	static uint64_t d[256];
	/* Back-to-back serialised reads: what every timed call pays on top. */
	for (unsigned i = 0; i < 256; i++) {
		uint64_t a = plat_cycles();
		uint64_t b = plat_cycles();
		d[i] = b - a;
	}
	overhead_from_deltas(d, 256, &overhead);

	/* This boot's floors, before any case: every cross-call RESULT carries
	 * floor_ipi, the least a wait=done call can cost (one IPI, a handler that
	 * sets a flag, the caller spinning on it). The kind=raw cases measure both
	 * floors again per placement. */
	if (plat_num_cpus() >= 2) {
		floor_ipi = floor_of(xcall_raw_ipi_once, d, 256);
		if (floor_lost < 0)
			floor_rt = floor_of(xcall_raw_roundtrip, d, 256);
	}

	/* The ledger: one padded line per (target CPU, initiator slot), sized from the
	 * CPU count. Without memory for it the exactly-once check cannot run: say so
	 * in every result rather than judge from nothing (ledger_ok). */
	void *mem = plat_alloc_zeroed(ledger_bytes(plat_num_cpus(), RUN_MAX_INITS));
	if (mem)
		ledger_setup(mem, plat_num_cpus(), RUN_MAX_INITS);
	ledger_ok = mem != 0;
	set_domains();
}

/* ---- one case ---- */

/* rounded, as the host's figures are (stats.h ns_of_cycles) */
static uint64_t ns_of(uint64_t cycles)
{
	return ns_of_cycles(cycles, plat_tsc_khz());
}

static uint64_t wd_bound(const struct bcase *c, uint64_t watchdog_ms)
{
	/* The bound must exceed what one call legitimately takes: every initiator's
	 * call may queue behind all the others' callee work. */
	uint64_t floor_ms = 4 * (uint64_t)c->work_us * c->inits / 1000 + CMDLINE_WATCHDOG_MIN_MS;
	if (watchdog_ms && watchdog_ms < floor_ms)
		watchdog_ms = floor_ms;
	return plat_tsc_khz() * watchdog_ms;
}

static int rep_into(const struct bcase *c, unsigned rep, uint64_t watchdog_ms, int emit_each,
		    struct case_summary *sum)
{
	/* static: the ledger verdicts make it big for CPU 0's stack; one at a time. */
	static struct rep_ctx x;
	x = (struct rep_ctx){ .c = c, .cpus = &cpus, .rep = rep, .sum = sum,
			      .wd_cycles = wd_bound(c, watchdog_ms), .emit_each = emit_each };
	if (c->kind == XCB_KIND_SYNC) {	/* its own scenario: bench/sync.c */
		if (sync_rep(c, rep, cpus.init_cpus[0], &cpus.targets[0], &cpus.readers, x.wd_cycles, sum,
			     &x.p50, &x.mean) < 0)
			return -1;
	} else if (rep_run(&x) < 0)
		return -1;
	if (sum->kept < REPS_KEPT) {
		sum->rep_p50[sum->kept] = x.p50;
		sum->rep_mean[sum->kept++] = x.mean;
	}
	report_poll();
	return 0;
}

/* Fairness over every repetition: Jain's index of per-initiator throughput, and
 * max/min of per-initiator medians (each the median of its per-rep p50s). */
static void case_fairness(struct case_summary *sum)
{
	const struct fair_acc *fa = sum->fair;
	uint64_t meds[RUN_MAX_INITS], v[REPS_KEPT];
	unsigned n = fa ? fa->ninit : 0, nr = fa ? (fa->nrep < REPS_KEPT ? fa->nrep : REPS_KEPT) : 0;
	struct fairness f;

	if (n > RUN_MAX_INITS)
		n = RUN_MAX_INITS;
	for (unsigned k = 0; k < n; k++) {
		memcpy(v, fa->p50[k], sizeof(v));
		meds[k] = median_of(v, nr);
	}
	fairness_from_runs(n ? fa->calls : 0, n ? fa->cycles : 0, meds, n, &f);
	sum->spread_ppm = f.spread_ppm;
	sum->jain_ppm = f.jain_ppm;
}

void runner_jain_text(char *buf, unsigned n, uint64_t jain_ppm)
{
	/* Rounded to the nearest thousandth, as the daemon's API rounds the
	 * same index (it truncated: 0.8379 read 0.837 beside the API's 0.838). */
	uint64_t milli = (jain_ppm + 500) / 1000;

	if (!jain_ppm)	/* Jain >= 1/n whenever it is measured */
		ksnprintf(buf, n, "-");
	else
		ksnprintf(buf, n, "%llu.%03llu", (unsigned long long)(milli / 1000), (unsigned long long)(milli % 1000));
}

void runner_case_end(const struct bcase *c, unsigned idx, unsigned n, struct case_summary *sum)
{
	uint64_t v[REPS_KEPT];
	memcpy(v, sum->rep_p50, sizeof(v));
	sum->p50 = median_of(v, sum->kept);
	/* The median of the reps' p99, as the store's case p99 is: the largest
	 * (what this printed) read 4243455 cycles beside show's 273407 for one
	 * case whose one rep met a descheduled vCPU. */
	memcpy(v, sum->rep_p99, sizeof(v));
	sum->p99 = median_of(v, sum->kept);
	memcpy(v, sum->rep_mean, sizeof(v));
	sum->mean_milli = median_of(v, sum->kept);
	memcpy(v, sum->rep_floor, sizeof(v));
	sum->floor = median_of(v, sum->kept);
	case_fairness(sum);
	if (!n)
		return;
	char tlb[64] = "";
	if (c->kind == XCB_KIND_TLB)
		ksnprintf(tlb, sizeof(tlb), " %s batch %u%s", XCB_NAME(method, c->method), c->batch,
			  c->method == XCB_METHOD_NONE ? " (no flush: stale not checked)"
			  : sum->ctl_stale ? "" : " UNVERIFIED");
	/* "Not measured" is left out, never printed as 0: a case without a floor
	 * (sync) has no ratio, one without initiators' throughput no Jain. */
	char rt[32] = "", jn[16];
	if (sum->floor) {
		uint64_t ratio = muldiv_u64(sum->p50, 100, sum->floor);
		ksnprintf(rt, sizeof(rt), ", %llu.%02llux ipi", (unsigned long long)(ratio / 100),
			  (unsigned long long)(ratio % 100));
	}
	/* The host moved under the case (its paired probes spread: RESULT flag 4);
	 * the paired ratio itself is in the RESULTs (ratio_paired_x1000). */
	const char *rt2 = sum->unstable ? " UNSTABLE HOST" : "";
	runner_jain_text(jn, sizeof(jn), sum->jain_ppm);
	/* Said only when it happened: the line's fields stay what readers parse. */
	char de[48] = "";
	if (sum->early)
		ksnprintf(de, sizeof(de), " DONE EARLY %llu", (unsigned long long)sum->early);
	kprintf("case %u/%u %s %s%s%s %s %s i=%u m=%u %s %s w=%uus: p50 %llu cyc (%llu ns%s)%s "
		"p99 %llu jain %s stale %llu lost %llu dup %llu ooo %llu%s\n",
		idx, n, XCB_NAME(kind, c->kind), case_algo_name(c), tlb, c->harness ? " bare" : "", XCB_NAME(delivery, c->delivery),
		XCB_NAME(wait, c->wait), c->inits, c->mask, XCB_NAME(placement, c->placement),
		c->overlap ? "overlap" : "disjoint", c->work_us,
		(unsigned long long)sum->p50, (unsigned long long)ns_of(sum->p50), rt, rt2,
		(unsigned long long)sum->p99, jn,
		(unsigned long long)sum->stale, (unsigned long long)sum->lost,
		(unsigned long long)sum->dup, (unsigned long long)sum->ooo, de);
}

/* Placement and support checks for a case; 0 runnable, 1 skipped (why logged if
 * idx). Leaves init_cpus/targets set for it. */
static int prepare(const struct bcase *c, unsigned idx, unsigned n)
{
	static unsigned pkg_of[XCB_MAX_CPUS];
	const char *why = 0;
	for (unsigned cpu = 0; cpu < plat_num_cpus(); cpu++)
		pkg_of[cpu] = benv_package_of(cpu);
	int placed = c->kind == XCB_KIND_SYNC
		? place_sync(c, plat_num_cpus(), pkg_of, cpus.init_cpus, cpus.targets, &cpus.readers, &why)
		: place_case(c, plat_num_cpus(), pkg_of, cpus.init_cpus, cpus.targets, &why);
	if (placed < 0) {
		if (idx)
			emit_logf(XCB_SKIP_CASE "%s (%s %s inits=%u mask=%u %s, %u CPUs)", idx, n, why,
			      XCB_NAME(kind, c->kind), case_algo_name(c), c->inits, c->mask,
			      XCB_NAME(placement, c->placement), plat_num_cpus());
		return 1;
	}
	if ((c->kind == XCB_KIND_TLB || c->kind == XCB_KIND_SYNC) && !flush_method_supported(c->method)) {
		if (idx)
			emit_logf(XCB_SKIP_CASE "%s not supported by this CPU", idx, n,
			      XCB_NAME(method, c->method));
		return 1;
	}
	if ((c->kind == XCB_KIND_TLB || c->kind == XCB_KIND_SYNC) && (c->batch ? c->batch : 1) > flush_max_batch()) {
		/* Refused, never clamped: a case labelled batch=N must change N pages. */
		if (idx)
			emit_logf(XCB_REFUSE_CASE "batch %u exceeds the %u pages each CPU may change "
			      "per shootdown on %u CPUs", idx, n, c->batch, flush_max_batch(), plat_num_cpus());
		return 1;
	}
	if (c->kind == XCB_KIND_XCALL && !benv_idle_supported(c->idle)) {
		if (idx)
			emit_logf("case %u/%u skipped: idle %s not offered by this CPU (CPUID MONITOR/MWAIT)", idx, n,
				    xcb_idle_names[c->idle]);
		return 1;
	}
	int rc = benv_set_delivery(c->delivery);
	benv_set_delivery(XCB_DELIVERY_AUTO);
	if (rc < 0) {
		if (idx)
			emit_logf("case %u/%u skipped: delivery %s not available (APIC mode)", idx, n,
			      XCB_NAME(delivery, c->delivery));
		return 1;
	}
	return 0;
}

int runner_case_fits(const struct bcase *c)
{
	/* idx 0: prepare() logs nothing; begin() places the case again anyway. */
	return prepare(c, 0, 0) == 0;
}

int runner_case_begin(const struct bcase *c, unsigned idx, unsigned n, struct case_summary *sum)
{
	memset(sum, 0, sizeof(*sum));
	sum->c = *c;
	if (prepare(c, idx, n))
		return 1;
	sum->fair = fair_take();
	if (emit_case_frame(c, &cpus))
		return -1;	/* its ERROR is out: the run stops (bench.c) */
	sum->ran = 1;
	return 0;
}

int runner_case_rep(const struct bcase *c, unsigned rep, uint64_t watchdog_ms,
		    struct case_summary *sum)
{
	/* Re-place: another case may have run in between (interleaved repetitions). */
	if (prepare(c, 0, 0))
		return 0;
	benv_set_delivery(c->delivery);
	/* The targets idle as the case says during its repetition only. */
	if (c->kind == XCB_KIND_XCALL)
		benv_set_idle(c->idle);
	if (c->kind == XCB_KIND_XCALL && c->algo && c->algo->set_group)
		c->algo->set_group(c->group);
	int rc = rep_into(c, rep, watchdog_ms, 1, sum);
	if (c->kind == XCB_KIND_XCALL && c->algo && c->algo->set_group)
		c->algo->set_group(0);
	benv_set_idle(XCB_IDLE_HLT);
	benv_set_delivery(XCB_DELIVERY_AUTO);
	return rc;
}

int runner_run_custom(const struct bcase *c, const unsigned *icpus, const struct cpumask *tm,
		      const struct xcall_ops *const *ops, const enum xcb_wait *waits,
		      uint64_t watchdog_ms, struct case_summary *sum)
{
	for (unsigned k = 0; k < c->inits && k < RUN_MAX_INITS; k++) {
		cpus.init_cpus[k] = icpus[k];
		cpus.targets[k] = tm[k];
	}
	if (benv_set_delivery(c->delivery) < 0)
		benv_set_delivery(XCB_DELIVERY_AUTO);
	cpus.mix_ops = ops;
	cpus.mix_waits = waits;
	if (emit_case_frame(c, &cpus)) {
		/* its ERROR is out: not run, the stress stops */
		cpus.mix_ops = 0;
		cpus.mix_waits = 0;
		benv_set_delivery(XCB_DELIVERY_AUTO);
		return RUNNER_CASE_REFUSED;
	}
	memset(sum, 0, sizeof(*sum));
	sum->c = *c;
	sum->ran = 1;
	sum->fair = fair_take();
	int rc = 0;
	for (unsigned rep = 0; rep < c->reps && rc == 0; rep++)
		rc = rep_into(c, rep, watchdog_ms, 0, sum);
	runner_case_end(c, 0, 0, sum);
	cpus.mix_ops = 0;
	cpus.mix_waits = 0;
	benv_set_delivery(XCB_DELIVERY_AUTO);
	return rc;
}
