/*
 * queued.c — the "queued" cross-call (Linux kernel/smp.c's design): every
 * target has a FIFO of per-call descriptors; an initiator appends one
 * descriptor per target and IPIs only the targets whose queue was empty (a
 * non-empty queue already has an IPI on its way). Receivers serve calls in
 * arrival order, whoever sent them — first come, first served, which is the
 * answer to the fairness objection against lockless.c. The queues, their
 * ordering and the descriptors' reuse rule are qlist.c's (see there); this
 * file is its own instance of them.
 */
#include "xcall/xcall.h"
#include "xcall/platform.h"
#include "xcall/amask.h"
#include "xcall/qlist.h"
#include "xcall/xcall_internal.h"

QLIST_INSTANCE(queued)

static void queued_call(const struct cpumask *mask, xcall_fn_t fn, void *arg, enum xcb_wait w)
{
	struct amask targets;

	if (xcall_prepare_targets(&targets, mask))
		return;
	qlist_post(&ql, &targets, fn, arg, w);
	if (w != XCB_WAIT_NONE)
		qlist_wait(&ql, &targets);
}

XCALL_ALGO(queued,
	.desc = "per-target FIFO of per-call descriptors, IPI only to an empty queue (Linux)",
	.nipi = 1, .waits = XCALL_WAITS_ALL, .sends = XCALL_SENDS_MASK);
