/*
 * concurrent.c — the "concurrent" cross-call (Linux 5.12, "smp: Run
 * functions concurrently in smp_call_function_many_cond()"): queued.c's
 * per-target FIFOs (qlist.c, an instance of its own), and when the caller is
 * itself in the mask it runs its own share AFTER sending the IPIs and BEFORE
 * waiting, so its fn overlaps the targets' instead of preceding them (the
 * 10-20 % Linux measured). With the caller outside the mask it behaves as
 * queued. `.runs_self` tells the free checks (and callers) that a mask with
 * the caller in it runs fn there too, with interrupts off like any callee.
 */
#include "xcall/xcall.h"
#include "xcall/platform.h"
#include "xcall/amask.h"
#include "xcall/qlist.h"
#include "xcall/xcall_internal.h"
#include "lib/cpumask.h"

QLIST_INSTANCE(concurrent)

/* The caller's share: a callee, so with interrupts off (xcall.h), then back
 * to serving IPIs. */
static void run_local(xcall_fn_t fn, void *arg)
{
	unsigned long f = plat_irq_save();
	xcall_run(fn, arg);
	plat_irq_restore(f);
}

static void concurrent_call(const struct cpumask *mask, xcall_fn_t fn, void *arg, enum xcb_wait w)
{
	struct amask targets;
	int self = cpumask_test(mask, plat_cpu_id());

	if (xcall_prepare_targets(&targets, mask)) {
		if (self)
			run_local(fn, arg);
		return;
	}
	qlist_post(&ql, &targets, fn, arg, w);
	if (self)
		run_local(fn, arg);	/* ours, while the targets run theirs */
	if (w != XCB_WAIT_NONE)
		qlist_wait(&ql, &targets);
}

XCALL_ALGO(concurrent,
	.desc = "queued, and a caller in its own mask runs its share between sending and waiting (Linux 5.12)",
	.nipi = 1, .waits = XCALL_WAITS_ALL, .sends = XCALL_SENDS_MASK, .runs_self = 1);
