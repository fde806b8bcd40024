/*
 * run_twice.c — an injected fault for tests/t-xcall-faults.sh: the real
 * xcall/lockless.c, except that its handler runs every callee twice. The
 * ledger must report duplicates, naming the algorithm, initiator and target.
 */
#include "xcall/xcall_internal.h"

/* lockless.c's targets run a call through xcall_run_check_in(): this one
 * runs fn once more before the real run and check-in. */
static inline void xcall_run_check_in_twice(xcall_fn_t fn, void *arg, enum xcb_wait w,
					    struct amask *pending, unsigned me)
{
	xcall_run(fn, arg);	/* the fault */
	xcall_run_check_in(fn, arg, w, pending, me);
}

#define xcall_run_check_in xcall_run_check_in_twice
#include "xcall/lockless.c"
