/*
 * lockless.c — the "lockless" cross-call of the 2026 Xen series: per-CPU
 * call data plus a global mask `tasks` of CPUs with a call in flight, which
 * receivers scan in CPU-number order. Barriers are where the review (Jan
 * Beulich) put them: data -> barrier -> selected -> barrier -> tasks bit ->
 * IPI on the initiator; tasks bit -> selected bit -> barrier -> data on the
 * receiver; and clearing the tasks bit only after the empty selected mask is
 * globally visible.
 *
 * Fairness (Roger Pau Monné's objection): a receiver serves initiators in
 * CPU order, not arrival order, so low CPU numbers are preferred under
 * contention. This file keeps that behaviour on purpose — the benchmark
 * measures it (per-initiator medians, Jain's index); queued.c is the FIFO
 * answer.
 *
 * Reuse rule for the per-CPU call data: a CPU has ONE descriptor. Before
 * rewriting it, the initiator waits until its previous call's `selected`
 * is empty (with acquire): every target then has read fn/arg (targets clear
 * their bit only after reading them), so overwriting cannot be observed.
 * For wait=none that wait is deferred to the next call, as in the series.
 */
#include "xcall/xcall.h"
#include "xcall/platform.h"
#include "xcall/amask.h"
#include "xcall/xcall_internal.h"

struct call_data {
	/* Written by the owning CPU only while `selected` is empty; read by a
	 * target only after it saw its bit in `selected` (acquire). */
	struct xcall_req req;
	/* Targets still to check in; own cache line, every target writes it. */
	struct amask selected __attribute__((aligned(64)));
} __attribute__((aligned(64)));

static struct call_data call_data[AMASK_MAX_CPUS];
static struct amask tasks;	/* CPUs whose call_data may hold a call */
static unsigned nwords, ncpus_ll;

/* Our IPI kind (the registry's, given to init). */
static unsigned lockless_ipi;

static int lockless_init(unsigned ncpus, const unsigned *ipi)
{
	lockless_ipi = ipi[0];
	if (amask_nwords(ncpus, &nwords))
		return -1;
	ncpus_ll = ncpus;
	return 0;
}

static void lockless_call(const struct cpumask *mask, xcall_fn_t fn, void *arg,
			  enum xcb_wait w)
{
	unsigned me = plat_cpu_id();
	struct call_data *d = &call_data[me];
	struct amask targets;

	if (xcall_prepare_targets(&targets, mask))
		return;

	/* Reuse rule: wait for the previous (asynchronous) call to be picked
	 * up by all its targets. acquire: pairs with their release clears, so
	 * their reads of the old fn/arg happen before our writes below. After
	 * a waited call this is already empty. Interrupts on: we keep serving
	 * calls aimed at us meanwhile. */
	xcall_wait_empty(&d->selected, nwords, "lockless: previous call not picked up");

	/* The series cleared our tasks bit here before rewriting the data, and
	 * Jan pointed out that would need one more barrier. We leave it as it
	 * is instead: a receiver that still sees the bit tests `selected`
	 * first, which is empty now, so it never reads the data mid-rewrite. */
	d->req = (struct xcall_req){ fn, arg, w };

	/* Jan's two barriers (xcall_publish): release on the selected words,
	 * so a receiver that sees its bit (acquire) sees this call's
	 * fn/arg/wait; then the tasks bit, what receivers start from, visible
	 * only after `selected` is: a seq_cst RMW, a full barrier, orders the
	 * store to selected before it and the IPI (an APIC write) after it. */
	xcall_publish(&d->selected, &targets, &tasks, me, nwords);

	plat_send_ipi_mask(&targets, (enum plat_ipi)lockless_ipi);

	if (w == XCB_WAIT_NONE)
		return;	/* tasks bit stays set: cleared by a later waited call */

	/* acquire: pairs with the targets' release clears (ack: after they
	 * read fn/arg; done: after fn finished and its effects are visible).
	 * Jan: then clear our tasks bit only once the empty `selected` is
	 * globally visible (xcall_finish's release: a receiver that still sees
	 * the bit just finds no work; one that misses it has nothing to find). */
	xcall_finish(&d->selected, &d->selected, &tasks, me, nwords, "lockless: not checked in");
}

/* Initiator i's call, if it has one for us. */
static void lockless_serve(unsigned i, unsigned me)
{
	struct call_data *d = &call_data[i];

	/* acquire on the bit test: this is the smp_rmb() Jan asked to move
	 * up — fn/arg/wait are read only after we saw the bit. */
	if (!amask_test(&d->selected, me, __ATOMIC_ACQUIRE))
		return;

	/* Check in on `selected`: for wait=none/ack the release is the patch's
	 * smp_mb() (a release is what it needs) - after it the owner may
	 * rewrite fn/arg/wait. */
	xcall_run_check_in(d->req.fn, d->req.arg, d->req.wait, &d->selected, me);
}

static void lockless_handle_ipi(void)
{
	/* Every initiator whose tasks bit we see (acquire: pairs with their
	 * seq_cst set, so their `selected` stores are visible to the tests in
	 * lockless_serve), in CPU order: the fairness issue. */
	xcall_serve_tasks(&tasks, nwords, lockless_serve);
}

/*
 * Quiescent (between cases: every call has landed). A wait=none call leaves
 * its initiator's tasks bit set until that CPU's next waited call; across a
 * case boundary that bit would make every receiver of the next case scan a
 * descriptor that holds nothing for it — extra shared-line reads in the
 * timed path of an unrelated case. Clear every bit whose `selected` is
 * empty (acquire: pairs with the targets' release clears, as in call()).
 */
static void lockless_reset(void)
{
	/* release: as in call(), after the empty selected was seen. */
	xcall_reset_tasks(&tasks, ncpus_ll, nwords, &call_data[0].selected, sizeof(call_data[0]));
}

/* For tests: whether CPU `cpu`'s tasks bit is set. */
int xcall_lockless_task_pending(unsigned cpu)
{
	return amask_test(&tasks, cpu, __ATOMIC_ACQUIRE);
}

XCALL_ALGO(lockless,
	.desc = "per-CPU call data + a global mask of initiators, scanned in CPU order (Xen 2026 series)",
	.nipi = 1, .waits = XCALL_WAITS_ALL, .sends = XCALL_SENDS_MASK,
	.reset = lockless_reset);
