/*
 * initiator.c - the initiator side of a repetition: the start barrier, the timed
 * call loop (warm-up first), one call / shootdown / floor probe, the TLB no-flush
 * control, and the callee every cross-call runs, which books its call in the ledger.
 *
 * Inside the timed region the harness writes nothing another CPU reads: the callee
 * gets its (initiator slot, sequence number) as the call's argument VALUE and notes
 * it in its own padded ledger line; CPU 0 checks the ledger after the timed calls.
 * A wait=done call is also looked at when it returns (done_check), never between
 * two timed calls.
 */
#include "bench/rep.h"
#include "bench/benchenv.h"
#include "bench/watchdog.h"
#include "bench/faults.h"
#include "xcall/xcall.h"

/* A call's argument is the value ledger_arg(slot, seq) (ledger.h). */
_Static_assert(RUN_MAX_INITS <= LEDGER_MAX_SLOTS, "slot must fit the call argument");

/* What every callee reads: set by CPU 0 before the barrier opens, read-only while
 * a repetition runs. It reaches a target through initiator_go's release (to the
 * initiators) and then each call's own release/acquire (initiator to target). */
static struct {
	uint64_t work;			/* busy cycles per callee */
	int bare;			/* harness=bare: no bookkeeping at all */
	const unsigned *init_cpus;	/* slot -> initiating CPU (watchdog peer) */
} callee_cfg;

/* Start barrier: initiators count themselves in `ready`, then spin until `go`. */
static unsigned ready;
static int go;
/* Set by CPU 0 when the watchdog fired: initiators stop after their current call. */
static int abort_run;
/* The shared window (README "Fairness"): closed by the first initiator to finish
 * its timed calls; read by the others between calls (a line written once per
 * repetition). On its own line: `ready`/`go` are spun on at the start. */
static int win_closed __attribute__((aligned(64)));
/* Initiators still in their timed calls: the TLB control waits for 0, so its
 * IPIs and lock never land inside another initiator's timed shootdown. */
static unsigned timed_left __attribute__((aligned(64)));

/* dupskip_cpu (faults.h) runs one call as the previous one, once. */
static int dupskip_done;	/* written only by dupskip_cpu, once */

void initiator_arm_callee(uint64_t work_cycles, int bare, const unsigned *init_cpus)
{
	callee_cfg.work = work_cycles;
	callee_cfg.bare = bare;
	callee_cfg.init_cpus = init_cpus;
}

void initiator_barrier_close(unsigned n)
{
	/* relaxed: no initiator is running (CPU 0 starts them afterwards, and
	 * benv_start_on's hand-off publishes these stores to them). */
	__atomic_store_n(&win_closed, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&timed_left, n, __ATOMIC_RELAXED);
	__atomic_store_n(&ready, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&go, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&abort_run, 0, __ATOMIC_RELAXED);
}

unsigned initiator_ready(void)
{
	/* acquire: pairs with each initiator's release increment in initiator_main. */
	return __atomic_load_n(&ready, __ATOMIC_ACQUIRE);
}

void initiator_go(void)
{
	/* release: pairs with the initiators' acquire spin on `go`; every initiator
	 * sees its deadline and args (and callee_cfg) before it leaves the barrier. */
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
}

void initiator_abort(void)
{
	/* relaxed: a stop hint polled between calls; nothing is published with it. */
	__atomic_store_n(&abort_run, 1, __ATOMIC_RELAXED);
}

/* ---- the calls ---- */

static void busy(uint64_t cycles)
{
	if (!cycles)
		return;
	uint64_t end = plat_cycles() + cycles;
	while (plat_cycles() < end)
		plat_cpu_relax();
}

static void callee(void *p)
{
	unsigned me = plat_cpu_id();

	if (callee_cfg.bare) {
		busy(callee_cfg.work);
		return;
	}
	/* An arg no call passed (the algorithm's bug) indexes nothing: it is
	 * counted, and the call it should have been is judged lost. */
	struct ledger_ent *e = ledger_entry_of(me, p);
	if (!e)
		return;
	unsigned slot = ledger_arg_slot(p);
	/* Everything below writes only this CPU's own lines (its watchdog record,
	 * its ledger entries), and reads only what CPU 0 set before `go`. The
	 * record's timestamp is unserialised: it is a diagnostic. */
	uint32_t prev = __atomic_load_n(&wd_cpus[me].state, __ATOMIC_RELAXED);
	uint64_t prev_since = wd_cpus[me].since;

	wd_cpus[me].peer = callee_cfg.init_cpus[slot];
	wd_state(me, WD_CALLEE, plat_cycles_fast());
	if (me == faults.hang_cpu)
		for (;;)
			plat_cpu_relax();
	if (me == faults.fault_cpu)
		__asm__ __volatile__("ud2");
	busy(callee_cfg.work);
	ledger_note(e, faults_dupskip(me, ledger_arg_seq(p), &dupskip_done));
	wd_state(me, (enum wd_state)prev, prev_since);
}

/* A raw probe that raw.c gave up on (xcall_raw_bound_ms(), past the watchdog's
 * usual bound): the call never completed, so it stays in flight - our
 * call_start set - until the watchdog reports it, naming the target, and
 * aborts the run (relaxed: abort_run is a stop signal only). */
static void hold_if_lost(void)
{
	if (xcall_raw_lost() < 0)
		return;
	while (!__atomic_load_n(&abort_run, __ATOMIC_RELAXED))
		plat_cpu_relax();
}

/* One call / shootdown / floor probe of initiator `in`; *d gets its time. <0: the
 * flush layer refused the configuration. */
static int one_call(struct initiator *in, unsigned raw_target, uint64_t *d)
{
	const struct bcase *c = in->c;
	uint64_t seq = ++in->seq;
	if (c->kind == XCB_KIND_XCALL) {
		void *arg = ledger_arg(in->slot, seq);
		uint64_t t0 = plat_cycles();
		in->ops->call(in->targets, callee, arg, in->wait);
		*d = plat_cycles() - t0;
	} else if (c->kind == XCB_KIND_TLB) {
		/* prepare (targets load the old translation) and verify are untimed;
		 * d is the shootdown itself. */
		*d = 0;
		if (in->cpu == faults.hang_cpu) {	/* faults.h: this initiator wedges */
			(void)plat_irq_save();
			for (;;)
				plat_cpu_relax();
		}
		int r = flush_run(&in->fcfg, in->targets, d);
		if (r < 0)
			return -1;
		if (r > 0 && c->method != XCB_METHOD_NONE)
			in->stale += (uint64_t)r;
	} else if (c->floor == XCB_FLOOR_IPI) {
		*d = xcall_raw_ipi_once(raw_target);
		hold_if_lost();
	} else {
		*d = xcall_raw_roundtrip(raw_target);
		hold_if_lost();
	}
	return 0;
}

/* The no-flush control of a TLB repetition, untimed, after the timed shootdowns:
 * the same path and targets without any invalidation, CTL_RUNS times and then
 * until one saw a stale read (at most CTL_MAX: rep.h). If no target then reads
 * the old frame, the platform did not keep the primed translations, and stale = 0
 * in this case proves nothing (the result is "unverified"). */
static void tlb_control(struct initiator *in)
{
	struct wd_cpu *w = &wd_cpus[in->cpu];
	struct flush_cfg ctl = in->fcfg;
	ctl.method = XCB_METHOD_NONE;
	/* in->ctl_* start at 0 in each repetition (rep.c). */
	for (unsigned i = 0; i < CTL_MAX && (i < CTL_RUNS || !in->ctl_stale); i++) {
		uint64_t d;
		/* Under the watchdog like a timed shootdown (its waits on the
		 * targets are the same): a target that never answers a control
		 * shootdown is reported, not waited on for ever. relaxed: a
		 * diagnostic record, as in watched_call. Labelled as what it
		 * is (op, before call_start, as paired_probe's): not call #N of
		 * the timed shootdowns, which have all finished. */
		__atomic_store_n(&w->op, "no-flush control", __ATOMIC_RELAXED);
		__atomic_store_n(&w->call_start, plat_cycles(), __ATOMIC_RELAXED);
		wd_state(in->cpu, WD_FLUSHING, plat_cycles());
		int r = flush_run(&ctl, in->targets, &d);
		__atomic_store_n(&w->call_start, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&w->op, NULL, __ATOMIC_RELAXED);
		if (r < 0)
			return;
		in->ctl_runs++;
		in->ctl_stale += r > 0;
	}
}

/* One call of the loop with its watchdog record around it; 0 ok, <0 refused.
 * call_no before call_start, so a checker that sees the start also sees which
 * call it is (both relaxed: x86 keeps store order, and the report is diagnostic).
 * call_no counts warm-up calls too: it is the sequence number the targets' ledger
 * entries are compared with. */
static int watched_call(struct initiator *in, struct wd_cpu *w, enum wd_state busy_state,
			unsigned raw_target, uint64_t t0, uint64_t *d)
{
	__atomic_store_n(&w->call_no, in->seq + 1, __ATOMIC_RELAXED);
	__atomic_store_n(&w->call_start, t0, __ATOMIC_RELAXED);
	wd_state(in->cpu, busy_state, t0);
	int r = one_call(in, raw_target, d);
	__atomic_store_n(&w->call_start, 0, __ATOMIC_RELAXED);
	return r;
}

/* A paired floor probe after timed call d (untimed for the call's statistics):
 * one `ipi` to the first target, under the watchdog record like a call - but
 * labelled as what it is (op, algo "raw"), not as call #N of the case's
 * algorithm, which has finished: a report on it names the raw probe. */
static void paired_probe(struct initiator *in, struct wd_cpu *w, unsigned raw_target, uint64_t d)
{
	uint64_t t0 = plat_cycles();
	const char *algo = w->algo;	/* only this CPU writes it */
	/* relaxed, as in watched_call: a diagnostic record; op and algo before
	 * call_start (x86 keeps store order), so a checker that sees the start
	 * sees the label. */
	__atomic_store_n(&w->algo, "raw", __ATOMIC_RELAXED);
	__atomic_store_n(&w->op, "paired floor probe", __ATOMIC_RELAXED);
	__atomic_store_n(&w->call_start, t0, __ATOMIC_RELAXED);
	wd_state(in->cpu, WD_RAW, t0);
	uint64_t p = xcall_raw_ipi_once(raw_target);
	hold_if_lost();
	__atomic_store_n(&w->call_start, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&w->op, NULL, __ATOMIC_RELAXED);
	__atomic_store_n(&w->algo, algo, __ATOMIC_RELAXED);
	if (!p)
		return;
	in->probe[in->npairs] = p;
	in->pratio[in->npairs++] = d * 1000 / p;
}

/*
 * wait=done: call() returns only once every target ran fn, so each target's ledger
 * entry must show the call (ledger_shows) the moment it returns. The exactly-once
 * judgement comes after the timed calls, when a call that returned early has long
 * landed: it cannot see this. Looked at outside the timed call, and never between
 * two timed calls: reading a target's ledger line takes it shared, and that
 * target's note of our next call would pay for the invalidation inside that timed
 * call - the harness's cost, measured as the algorithm's (ledger.h: why entries
 * are padded). So: every warm-up call but the last (only warm-up calls follow
 * them), and our last call (nothing of ours that is timed follows it; the lines
 * are our slot's, which no other initiator's callee writes). An algorithm whose
 * done always returns early is caught on each of them; one that does so now and
 * then, in proportion (test_xcall checks every call).
 */
static void done_check(struct initiator *in)
{
	unsigned t;

	if (in->c->kind != XCB_KIND_XCALL || in->wait != XCB_WAIT_DONE || callee_cfg.bare || !in->seq)
		return;
	in->done_checked++;
	for_each_cpu(t, in->targets)
		if (!ledger_shows(ledger_at(t, in->slot), in->seq)) {
			if (!in->done_early++) {
				in->early_seq = in->seq;
				in->early_cpu = t;
			}
			return;
		}
}

/* Whether the loop must stop before a call started at t0. */
static int must_stop(const struct initiator *in, uint64_t t0)
{
	return __atomic_load_n(&abort_run, __ATOMIC_RELAXED) || (in->deadline && t0 > in->deadline);
}

void initiator_main(void *p)
{
	struct initiator *in = p;
	const struct bcase *c = in->c;
	unsigned me = plat_cpu_id();
	struct wd_cpu *w = &wd_cpus[me];
	unsigned raw_target = cpumask_first(in->targets);

	/* Spin with interrupts on: we must keep answering calls aimed at us. */
	plat_irq_enable();
	w->algo = c->kind == XCB_KIND_XCALL && in->ops ? in->ops->name : case_algo_name(c);
	wd_state(me, WD_WAITING_START, plat_cycles());
	/* release: CPU 0 sees our setup (wd record) before it counts us ready
	 * (its acquire load in initiator_ready). */
	__atomic_fetch_add(&ready, 1, __ATOMIC_RELEASE);
	/* acquire: pairs with CPU 0's release of `go` (deadline, targets published). */
	while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
		plat_cpu_relax();

	uint64_t ipi0 = benv_ipis_sent(me);
	enum wd_state busy_state = c->kind == XCB_KIND_TLB ? WD_FLUSHING :
				   c->kind == XCB_KIND_RAW ? WD_RAW : WD_CALLING;
	/* Warm-up: untimed calls first (cold caches, TLB, branch predictors and the
	 * first IPI of a case are not the algorithm's steady state). They count
	 * for the exactly-once ledger like any other call, but not in the lock
	 * profile, which is of the timed calls as the latencies are (xcall.h
	 * xcall_lockprof_count; on again for the timed loop only). */
	xcall_lockprof_count(0);
	for (uint64_t k = 0; k < c->warmup && !in->bad_cfg; k++) {
		uint64_t t0 = plat_cycles(), d;
		if (must_stop(in, t0))
			break;
		in->bad_cfg = watched_call(in, w, busy_state, raw_target, t0, &d) < 0;
		if (k + 1 < c->warmup)	/* not the last: the first timed call follows it */
			done_check(in);
	}
	xcall_lockprof_count(1);
	uint64_t i, t_begin = plat_cycles();
	for (i = 0; !in->bad_cfg && (!c->iters || i < c->iters); i++) {
		uint64_t t0 = plat_cycles(), d;
		/* At least one timed call, whatever the time budget: a
		 * repetition whose warm-up spent it timed none, and its RESULT's
		 * latencies of 0 read as calls of 0 cycles. Only an abort stops
		 * the first; the watchdog bounds it like any other. relaxed: as
		 * must_stop's. */
		if (i ? must_stop(in, t0) : __atomic_load_n(&abort_run, __ATOMIC_RELAXED))
			break;
		if (watched_call(in, w, busy_state, raw_target, t0, &d) < 0) {
			in->bad_cfg = 1;
			break;
		}
		stats_add(&in->st, d);
		histo_add(in->h, d);
		if (in->samples && i < SAMPLES_MAX)
			in->samples[i] = d;
		if (in->probe && (i + 1) % PAIR_EVERY == 0 && in->npairs < PAIRS_MAX)
			paired_probe(in, w, raw_target, d);
		/* relaxed: a hint read between calls; the window's figures are
		 * our own. */
		fair_win_step(&in->win, i + 1, plat_cycles() - t_begin,
			      __atomic_load_n(&win_closed, __ATOMIC_RELAXED));
	}
	in->elapsed = plat_cycles() - t_begin;
	in->done = i;
	xcall_lockprof_count(0);	/* the control is not the case's */
	if (!in->bad_cfg)
		done_check(in);	/* our last call: no timed call of ours follows */
	/* warm-up included; the control and the paired probes (one IPI each)
	 * not: they are the harness's, not the case's */
	in->ipis = benv_ipis_sent(me) - ipi0 - in->npairs;
	/* The first to finish closes the shared window (its own figures are its
	 * whole span); relaxed, as above. */
	fair_win_step(&in->win, i, in->elapsed, 1);
	__atomic_store_n(&win_closed, 1, __ATOMIC_RELAXED);
	/* release: pairs with the acquire below (nothing else rides on it). */
	__atomic_fetch_sub(&timed_left, 1, __ATOMIC_RELEASE);
	/* A case of method none is itself a no-flush shootdown (a cost figure,
	 * its stale reads expected and never counted): there is nothing for
	 * a control to prove, and one reported beside it read as "verified". */
	if (c->kind == XCB_KIND_TLB && c->method != XCB_METHOD_NONE && !in->bad_cfg) {
		/* The control runs when no initiator is timed any more. Bounded:
		 * the watchdog is armed in every repetition (x->bound, the check's
		 * own with watchdog_ms=0), and CPU 0 - its tick while it initiates,
		 * rep_supervise after - aborts when another initiator's call
		 * outlives it, naming that CPU. */
		wd_state(me, WD_FINISHED, plat_cycles());
		while (__atomic_load_n(&timed_left, __ATOMIC_ACQUIRE) &&
		       !__atomic_load_n(&abort_run, __ATOMIC_RELAXED))
			plat_cpu_relax();
		tlb_control(in);
	}
	wd_state(me, WD_FINISHED, plat_cycles());
	xcall_lockprof_count(1);	/* the default, for whatever runs next here */
	/* release: CPU 0 reads our stats after it sees finished (acquire). */
	__atomic_store_n(&in->finished, 1, __ATOMIC_RELEASE);
}
