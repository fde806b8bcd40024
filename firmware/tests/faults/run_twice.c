/*
 * run_twice.c — an injected fault for tests/t-xcall-faults.sh: the real
 * xcall/lockless.c, except that its handler runs every callee twice. The
 * ledger must report duplicates, naming the algorithm, initiator and target.
 */
#include "xcall/xcall_internal.h"

static inline void xcall_run_twice(xcall_fn_t fn, void *arg)
{
	xcall_run(fn, arg);
	xcall_run(fn, arg);	/* the fault */
}

#define xcall_run xcall_run_twice
#include "xcall/lockless.c"
