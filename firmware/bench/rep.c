/*
 * rep.c - one repetition of a cross-call, TLB or raw case, on CPU 0, as five steps
 * over a struct rep_ctx (rep.h):
 *   setup:     quiesce the algorithms' counters, arm the ledger, the watchdog and
 *              the callees, measure this repetition's `ipi` floor, fill in every
 *              initiator;
 *   start:     start the AP initiators at the barrier, open it together (CPU 0
 *              initiates too when the placement picks it, under a watchdog tick);
 *   supervise: wait for every initiator, watching for hangs and crashes;
 *   check:     exactly once, from the ledger, once the last calls have landed;
 *   emit:      the RESULT frames (emit.c).
 *
 * CPU 0 orchestrates. It is an initiator too when the placement picks it (the seed's
 * 2 initiators x disjoint masks need all 4 CPUs of -smp 4); then it checks the
 * watchdog between its own calls and afterwards while it waits for the others.
 */
#include "bench/rep.h"
#include "bench/benchenv.h"
#include "bench/emit.h"
#include "bench/report.h"
#include "bench/watchdog.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "xcall/xcall.h"

#define REP_BOUND_MS 2000 	/* every wait's bound when watchdog_ms=0 (plus the callee work) */
#define REP_FLOOR_N 65		/* `ipi` floor probes before each repetition (after 32 untimed) */

static struct initiator ini[RUN_MAX_INITS];
static struct histo hist[RUN_MAX_INITS];
static struct histo hall;
static uint64_t samples[RUN_MAX_INITS][SAMPLES_MAX];
static uint64_t probes[RUN_MAX_INITS][PAIRS_MAX], pratios[RUN_MAX_INITS][PAIRS_MAX];	/* per initiator */

/* One floor measurement, on whichever CPU runs it: median of REP_FLOOR_N `ipi`
 * probes to `target` after 32 untimed ones (the target may be waking from idle). */
struct floor_job {
	unsigned target;
	uint64_t result;	/* written by the measuring CPU; read after it is idle */
	int lost;		/* the target never answered (raw.c's bound), else -1 */
};

/* No watchdog runs here (it is armed after the floor): a probe the target never
 * answers ends in raw.c's own bound, and the first such ends the job - each
 * further probe would wait the bound out again. */
static void floor_job_run(void *p)
{
	static uint64_t d[REP_FLOOR_N];	/* one job at a time: CPU 0 waits for it */
	struct floor_job *j = p;

	j->lost = -1;
	for (unsigned i = 0; i < 32 + REP_FLOOR_N && j->lost < 0; i++) {
		uint64_t c = xcall_raw_ipi_once(j->target);
		j->lost = xcall_raw_lost();
		if (i >= 32)
			d[i - 32] = c;
	}
	if (j->lost >= 0)
		return;
	sort_u64(d, REP_FLOOR_N);
	j->result = d[REP_FLOOR_N / 2];
}

/*
 * The `ipi` floor for this repetition, measured just before it from the case's first
 * initiator to its first target - the path of its calls, per placement: a floor from
 * the same boot AND the same stretch of time, so a host that slows down between cases
 * (a VM's neighbours) moves the call and its floor together. Everything is idle here;
 * an AP initiator measures through smp_start_on, whose hand-back (benv_wait_idle,
 * acquire) makes its result visible to us.
 */
static uint64_t rep_floor(const struct rep_ctx *x, int *lost)
{
	struct floor_job j = { .target = cpumask_first(&x->cpus->targets[0]), .result = 0, .lost = -1 };
	unsigned src = x->cpus->init_cpus[0], me = plat_cpu_id();

	*lost = -1;
	if (x->c->kind == XCB_KIND_RAW || plat_num_cpus() < 2)
		return runner_floor_ipi();
	if (j.target >= plat_num_cpus() || j.target == src) {
		src = me;
		j.target = me == 1 ? 0 : 1;
	}
	if (src != me && (benv_start_on(src, floor_job_run, &j) < 0 || benv_wait_idle(src) < 0))
		src = me;	/* cannot use that CPU: measure from ours */
	if (src == me) {
		if (j.target == me)
			j.target = me == 1 ? 0 : 1;
		floor_job_run(&j);
	}
	*lost = j.lost;
	return j.result;
}

/*
 * Watchdog tick on CPU 0 while CPU 0 itself initiates. Interrupt context: CPU 0 holds
 * no lock here (its call loop sends no frames), so reporting is safe; a call that
 * outlived the bound may never return, so end the run from here.
 */
static void watchdog_tick(void)
{
	if (wd_check()) {
		report_done(XCB_DONE_ABORTED);
		benv_exit(1);
	}
}

/* Whether every initiator of the case can probe its own floor: an xcall or TLB
 * case on 2+ CPUs whose initiators' first targets are all different (raw.c keeps
 * one ping slot per target: two initiators pinging one target would collide). */
static int pairs_apply(const struct bcase *c, const struct case_cpus *cpus)
{
	struct cpumask seen;

	if ((c->kind != XCB_KIND_XCALL && c->kind != XCB_KIND_TLB) || plat_num_cpus() < 2)
		return 0;
	cpumask_clear_all(&seen);
	for (unsigned k = 0; k < c->inits; k++) {
		unsigned t = cpumask_first(&cpus->targets[k]);
		if (t >= plat_num_cpus() || cpumask_test(&seen, t))
			return 0;
		cpumask_set(&seen, t);
	}
	return 1;
}

/* setup: everything the initiators and callees read, before any of them starts. */
static void rep_setup(struct rep_ctx *x)
{
	const struct bcase *c = x->c;
	const struct case_cpus *cpus = x->cpus;
	struct cpumask imask;

	/* Quiescent here (every initiator finished, every call landed): reset every
	 * algorithm's counters, not just this case's - stress mixes them. */
	for (unsigned a = 0; xcall_algos[a]; a++)
		if (xcall_algos[a]->reset)
			xcall_algos[a]->reset();
	if (c->kind == XCB_KIND_TLB) {
		flush_reset();
		flush_assign_slices(cpus->init_cpus, c->inits);
	}
	wd_reset();
	/* watchdog_ms=0 drops the user's bound, not every bound: a call that never
	 * returns must still end the run (rep_supervise, CPU 0's tick, the TLB
	 * control's wait all rest on the watchdog), so it gets the check's own. */
	x->bound = x->wd_cycles ? x->wd_cycles :
		   plat_tsc_khz() * (REP_BOUND_MS + 4 * (uint64_t)c->work_us * c->inits / 1000);
	x->bare = c->harness || runner_harness_bare();
	/* Only cross-calls with the full harness keep ledger entries; the
	 * check judges those alone, and the watchdog's report says so. */
	x->judged = c->kind == XCB_KIND_XCALL && !x->bare;
	if (!x->bare)
		ledger_reset();
	initiator_arm_callee(plat_tsc_khz() * c->work_us / 1000, x->bare, cpus->init_cpus);
	x->ipi_floor = rep_floor(x, &x->floor_lost);
	if (x->sum->kept < REPS_KEPT)
		x->sum->rep_floor[x->sum->kept] = x->ipi_floor;

	int paired = pairs_apply(c, cpus);
	cpumask_clear_all(&imask);
	for (unsigned k = 0; k < c->inits; k++) {
		struct initiator *in = &ini[k];
		memset(in, 0, sizeof(*in));
		in->c = c;
		in->ops = cpus->mix_ops ? cpus->mix_ops[k] : c->algo;
		in->wait = cpus->mix_waits ? cpus->mix_waits[k] : c->wait;
		in->cpu = cpus->init_cpus[k];
		in->slot = k;
		in->targets = &cpus->targets[k];
		in->fcfg.method = c->method;
		in->fcfg.flush = c->flush;
		in->fcfg.change = FLUSH_REMAP;
		in->fcfg.xops = in->ops;
		in->fcfg.batch = c->batch ? c->batch : 1;
		stats_init(&in->st);
		in->h = &hist[k];
		histo_init(in->h);
		in->samples = c->samples ? samples[k] : 0;
		/* Paired probes: each initiator to its own first target. */
		if (paired) {
			in->probe = probes[k];
			in->pratio = pratios[k];
		}
		cpumask_set(&imask, in->cpu);
	}
	wd_arm(x->bound, &imask, cpus->targets,
	       x->judged ? NULL : x->bare ? "bare harness" : xcb_kind_words[c->kind]);
	initiator_barrier_close(c->inits);
}

/* The start barrier, bounded (x->bound, with or without the watchdog): <0 after a
 * report naming the initiators that never counted in. */
static int barrier_wait(struct rep_ctx *x, unsigned aps)
{
	static char t[512];
	uint64_t t0 = plat_cycles();

	while (initiator_ready() < aps) {
		plat_cpu_relax();
		if (plat_cycles() - t0 <= x->bound)
			continue;
		int n = ksnprintf(t, sizeof(t), "watchdog: case %u rep %u: not at the start "
				  "barrier in %llu ms:", x->c->id, x->rep,
				  (unsigned long long)(x->bound / (plat_tsc_khz() ? plat_tsc_khz() : 1)));
		for (unsigned k = 0; k < x->c->inits && n < (int)sizeof(t) - 48; k++) {
			unsigned cpu = ini[k].cpu;
			/* relaxed: a diagnostic (the state is set before the count). */
			if (cpu != plat_cpu_id() &&
			    __atomic_load_n(&wd_cpus[cpu].state, __ATOMIC_RELAXED) != WD_WAITING_START)
				n += ksnprintf(t + n, sizeof(t) - (size_t)n, " cpu%u%s", cpu,
					       benv_cpu_crashed(cpu) ? "(crashed)" : "");
		}
		report_error(t);
		initiator_abort();
		initiator_go();	/* the ones that did arrive leave at once */
		return -1;
	}
	return 0;
}

/* start: the AP initiators to the barrier, then all of them at once; CPU 0 runs
 * its own initiator here, if it has one. <0: an initiator could not start. */
static int rep_start(struct rep_ctx *x)
{
	const struct bcase *c = x->c;
	unsigned aps = 0, me = plat_cpu_id();
	uint64_t khz = plat_tsc_khz();

	x->self = -1;
	for (unsigned k = 0; k < c->inits; k++) {
		if (ini[k].cpu == me) {
			x->self = (int)k;
			continue;
		}
		if (benv_start_on(ini[k].cpu, initiator_main, &ini[k]) < 0) {
			emit_logf("case %u: cannot start cpu%u (busy or crashed)", c->id, ini[k].cpu);
			initiator_abort();
			initiator_go();
			return -1;
		}
		aps++;
	}
	if (barrier_wait(x, aps) < 0)
		return -1;
	uint64_t deadline = c->time_ms ? plat_cycles() + khz * c->time_ms : 0;
	for (unsigned k = 0; k < c->inits; k++)
		ini[k].deadline = deadline;
	initiator_go();
	if (x->self >= 0) {
		/* We are an initiator ourselves, so nobody watches while we call: a
		 * timer tick does (interrupts stay on while we spin in a call). Also
		 * with watchdog_ms=0 (x->bound is then the check's own): the tick is
		 * what ends our wait before the TLB control when another initiator
		 * never finishes its timed calls. */
		unsigned period = (unsigned)(x->bound / (khz ? khz : 1) / 4);
		benv_tick_start(period ? period : 1, watchdog_tick);
		initiator_main(&ini[x->self]);
		benv_tick_stop();
	}
	return 0;
}

/* An initiator that crashed: its exception report (ERROR frame) is out already, or
 * soon - let its crash hook finish it first (bounded: it may have died in a way that
 * never gets there); it will never finish its calls. */
static void initiator_crashed(const struct rep_ctx *x, unsigned cpu)
{
	uint64_t t = plat_cycles();
	while (report_emergencies() < benv_crash_count() &&
	       plat_cycles() - t < plat_tsc_khz() * 2000)
		plat_cpu_relax();
	emit_logf("case %u: initiator cpu%u crashed: ending the run", x->c->id, cpu);
}

/* supervise: wait for every initiator, checking that no call outlives the bound
 * (x->bound: the watchdog's, or the check's own with watchdog_ms=0, so a wedged
 * initiator or target ends the wait with the watchdog's report naming them).
 * <0: the watchdog fired or an initiator crashed (the run must end). */
static int rep_supervise(struct rep_ctx *x)
{
	unsigned n = x->c->inits;

	uint64_t last_check = plat_cycles();

	wd_state(plat_cpu_id(), WD_WATCHING, last_check);
	for (;;) {
		unsigned fin = 0;
		for (unsigned k = 0; k < n; k++)
			/* acquire: pairs with the initiator's release of `finished`
			 * (its results are complete). */
			fin += (unsigned)__atomic_load_n(&ini[k].finished, __ATOMIC_ACQUIRE);
		if (fin == n)
			break;
		for (unsigned k = 0; k < n; k++)
			if (!ini[k].finished && benv_cpu_crashed(ini[k].cpu)) {
				initiator_crashed(x, ini[k].cpu);
				initiator_abort();
				return -1;
			}
		/* The watchdog reads every initiator's and callee's record, which
		 * they write around every call: a line transfer inside the timed
		 * call each time it looks. So look 16 times per bound, not on every
		 * spin (the report comes at most bound/16 late). */
		uint64_t now = plat_cycles();
		if (now - last_check > x->bound / 16) {
			last_check = now;
			if (wd_check()) {
				initiator_abort();
				return -1;
			}
		}
		plat_cpu_relax();
	}
	return wd_check() || wd_fired() ? -1 : 0;
}

/* The check's bound ran out: name each target that has not run every call of
 * each initiator (highest number run against the last issued). A LOG line: the
 * verdicts (lost calls) follow in the RESULT frames. */
static void check_late(const struct rep_ctx *x)
{
	static char t[512];
	int n = ksnprintf(t, sizeof(t), "case %u rep %u: %llu of %llu calls ran in %llu ms; waiting on:",
			  x->c->id, x->rep, (unsigned long long)x->executed, (unsigned long long)x->expected,
			  (unsigned long long)(x->bound / (plat_tsc_khz() ? plat_tsc_khz() : 1)));
	for (unsigned k = 0; k < x->c->inits; k++) {
		unsigned tc;
		for_each_cpu(tc, ini[k].targets) {
			struct ledger_verdict v = { 0 };
			ledger_judge(ledger_at(tc, k), ini[k].seq, ini[k].seq, &v);
			if (v.ran < v.expected && n < (int)sizeof(t) - 64)
				n += ksnprintf(t + n, sizeof(t) - (size_t)n, " cpu%u(ran %llu of cpu%u's %llu)",
					       tc, (unsigned long long)v.ran, ini[k].cpu,
					       (unsigned long long)v.expected);
		}
	}
	if (x->executed < x->expected)
		emit_logf("%s", t);
}

/* check: exactly once, after the timed calls: each target ran each numbered call of
 * each initiator once (ledger.h). With wait=none the last calls may still be
 * running: give them x->bound to land (the watchdog's, or the check's own when
 * watchdog_ms=0: a lost call never lands). Then every AP is idle again. */
static void rep_check(struct rep_ctx *x)
{
	unsigned n = x->c->inits;

	x->expected = x->executed = 0;
	if (x->judged) {
		uint64_t t = plat_cycles();
		for (;;) {
			x->expected = x->executed = 0;
			for (unsigned k = 0; k < n; k++) {
				x->vd[k] = (struct ledger_verdict){ 0 };
				ledger_judge_mask(ini[k].targets, k, ini[k].seq, &x->vd[k]);
				x->expected += x->vd[k].expected;
				x->executed += x->vd[k].ran;
			}
			if (x->executed >= x->expected)
				break;
			if (plat_cycles() - t > x->bound) {
				check_late(x);
				break;
			}
			plat_cpu_relax();
		}
	}
	for (unsigned k = 0; k < n; k++)
		if (ini[k].cpu != plat_cpu_id())
			benv_wait_idle(ini[k].cpu);
}

int rep_run(struct rep_ctx *x)
{
	rep_setup(x);
	if (x->floor_lost >= 0) {
		/* Nothing started yet: end the run, naming the CPU that never
		 * answered (its calls would each wait for the watchdog). */
		static char t[160];
		ksnprintf(t, sizeof(t), "case %u rep %u: cpu%d never answered a raw IPI "
			  "(the repetition's floor probe; gave up after %u ms)",
			  x->c->id, x->rep, x->floor_lost, (unsigned)xcall_raw_bound_ms());
		report_error(t);
		return -1;
	}
	if (rep_start(x) < 0 || rep_supervise(x) < 0)
		return -1;
	rep_check(x);
	rep_emit(x, ini, x->c->inits, &hall);
	return 0;
}
