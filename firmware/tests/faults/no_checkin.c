/*
 * no_checkin.c — an injected fault for tests/t-xcall-faults.sh: the real
 * xcall/locked.c, except that CPU 3 runs each call and never checks in (it
 * never clears its bit of the slot's pending mask): every target ran fn, and
 * the initiator waits for ever. The quiet phase's time bound must say so —
 * the call ran on every target and never returned — and name CPU 3, the one
 * the initiator's wait spins on (plat_wait_note); it said "not run by CPU
 * (its other targets ran it)", naming nobody.
 */
#include "xcall/xcall_internal.h"

/* locked.c's targets run a call through xcall_run_check_in(): this one
 * leaves out CPU 3's check-in. */
static inline void xcall_run_no_check_in(xcall_fn_t fn, void *arg, enum xcb_wait w,
					 struct amask *pending, unsigned me)
{
	if (me == 3)
		xcall_run(fn, arg);	/* the fault: no amask_clear */
	else
		xcall_run_check_in(fn, arg, w, pending, me);
}

#define xcall_run_check_in xcall_run_no_check_in
#include "xcall/locked.c"
