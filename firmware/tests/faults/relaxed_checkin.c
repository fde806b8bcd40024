/*
 * relaxed_checkin.c — an injected fault for tests/t-xcall-faults.sh: the real
 * xcall/lockless.c, except that its targets check in with a relaxed clear,
 * the release an author forgets: nothing orders a target's read of fn/arg
 * (or, wait=done, fn's writes) before the initiator's next look. On x86 the
 * calls still run once each, so the ledger passes it; ThreadSanitizer
 * reports the race, and test_xcall must fail that free check by name
 * (test_algo_wait), not print OK and PASSED above TSan's exit status.
 */
#include "xcall/xcall_internal.h"

static inline void xcall_run_check_in_relaxed(xcall_fn_t fn, void *arg, enum xcb_wait w,
					      struct amask *pending, unsigned me)
{
	if (w == XCB_WAIT_DONE) {
		xcall_run(fn, arg);
		amask_clear(pending, me, __ATOMIC_RELAXED);	/* the fault: no release */
	} else {
		amask_clear(pending, me, __ATOMIC_RELAXED);	/* the fault: no release */
		xcall_run(fn, arg);
	}
}

#define xcall_run_check_in xcall_run_check_in_relaxed
#include "xcall/lockless.c"
