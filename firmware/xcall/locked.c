/*
 * locked.c — the "locked" cross-call: one global ticket lock around one
 * call-data slot, as Xen's on_selected_cpus() was before the 2026 series.
 *
 * The initiator takes the lock, fills the slot (fn, arg, wait, the mask of
 * CPUs still to check in), IPIs the targets and spins until every target has
 * checked in; only then may it drop the lock, because the next holder will
 * overwrite fn/arg. So even wait=none waits for every target to have READ
 * fn/arg (the "limitation of the implementation" the seed thread discusses):
 * here none and ack behave the same, done additionally waits for fn to end.
 */
#include "xcall/xcall.h"
#include "xcall/platform.h"
#include "xcall/amask.h"
#include "xcall/ticketlock.h"
#include "xcall/xcall_internal.h"

static struct ticketlock call_lock;

static struct {
	/* fn/arg/wait: plain fields, written only by the lock holder while
	 * `pending` is empty, read by targets only after they saw their bit
	 * in `pending` with acquire. */
	xcall_fn_t fn;
	void *arg;
	enum xcb_wait wait;
	/* Targets that have not checked in yet; each target clears its own
	 * bit, the initiator polls for empty. Own cache line: it is the one
	 * every target writes. */
	struct amask pending __attribute__((aligned(64)));
} slot;

static unsigned nwords;

/* Our IPI kind (the registry's, given to init). */
static unsigned locked_ipi;

static int locked_init(unsigned ncpus, const unsigned *ipi)
{
	locked_ipi = ipi[0];
	return amask_nwords(ncpus, &nwords);
}

static void locked_call(const struct cpumask *mask, xcall_fn_t fn, void *arg,
			enum xcb_wait w)
{
	struct amask targets;

	if (xcall_prepare_targets(&targets, mask))
		return;

	ticket_lock(&call_lock, "call_lock: held");

	slot.fn = fn;
	slot.arg = arg;
	slot.wait = w;
	/* release: a target that sees its bit (acquire) also sees fn/arg/wait
	 * written just above — Xen's smp_wmb() between the data and the mask. */
	amask_store(&slot.pending, &targets, nwords, __ATOMIC_RELEASE);

	plat_send_ipi_mask(&targets, (enum plat_ipi)locked_ipi);

	/* acquire: pairs with each target's release clear; once empty, every
	 * target has finished reading the slot (and, for done, finished fn and
	 * its effects are visible), so the slot may be handed on. Interrupts
	 * stay enabled: we answer calls aimed at us while we wait. */
	xcall_wait_empty(&slot.pending, nwords, "locked: not checked in");

	ticket_unlock(&call_lock);
}

static void locked_handle_ipi(void)
{
	unsigned me = plat_cpu_id();

	/* acquire: pairs with the initiator's release store of pending, so
	 * the fn/arg/wait we read next are the ones of this call. */
	if (!amask_test(&slot.pending, me, __ATOMIC_ACQUIRE))
		return;		/* not for us (stale or another algorithm's IPI) */

	/* The check-in's release is Xen's smp_mb() before cpumask_clear_cpu()
	 * (wait=done); otherwise it completes our reads of fn/arg before the
	 * initiator may drop the lock and the next holder overwrite them. */
	xcall_run_check_in(slot.fn, slot.arg, slot.wait, &slot.pending, me);
}

static void locked_lockprof(struct xcall_lockprof *out)
{
	ticket_prof_get(&call_lock, out);
}

static void locked_reset(void)
{
	ticket_prof_reset(&call_lock);
}

XCALL_ALGO(locked,
	.desc = "one global ticket lock around one call slot (Xen before 2026)",
	.nipi = 1, .waits = XCALL_WAITS_ALL, .sends = XCALL_SENDS_MASK,
	.lockprof = locked_lockprof, .reset = locked_reset);
