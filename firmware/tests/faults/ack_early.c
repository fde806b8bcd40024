/*
 * ack_early.c — an injected fault for tests/t-xcall-faults.sh: the real
 * xcall/lockless.c, except that wait=ack returns right after the IPIs, as
 * wait=none does, before any target has read fn/arg (the audit's
 * `if (w != XCB_WAIT_DONE) return;`). Each call still runs exactly once
 * and the reuse rule still keeps the descriptor until it is read, so the
 * stress and quiet phases pass it: only the held phase (a target with its
 * interrupts off when the call returns) must name it.
 */
#include "xcall/platform.h"
#include "xcall/xcall_internal.h"

/* lockless_call sends its IPIs with one plat_send_ipi_mask, its `w` in
 * scope: return right after it for ack. */
#define plat_send_ipi_mask(targets, kind)		\
	do {						\
		plat_send_ipi_mask(targets, kind);	\
		if (w == XCB_WAIT_ACK)			\
			return;	/* the fault */		\
	} while (0)
#include "xcall/lockless.c"
