/*
 * xcall_internal.h — helpers shared by the algorithm files (not for users
 * of xcall.h): turning the caller's cpumask into a private target snapshot,
 * and running a callee.
 */
#ifndef XCB_XCALL_INTERNAL_H
#define XCB_XCALL_INTERNAL_H

#include "xcall/xcall.h"
#include "xcall/amask.h"

/* Copy `mask` (limited to online CPUs, without the caller) into *out.
 * Returns 1 if nothing is left to call, else 0. */
int xcall_prepare_targets(struct amask *out, const struct cpumask *mask);

/* Run a callee on this CPU (fn may be NULL: a ping). Nothing is counted
 * here: exactly-once is the caller's ledger's (bench/ledger.h), so the
 * algorithm's own path writes no harness line. */
static inline void xcall_run(xcall_fn_t fn, void *arg)
{
	if (fn)
		fn(arg);
}

/* An algorithm's ops table from its functions, named <algo>_init, _call,
 * _handle_ipi, _lockprof and _reset, on IPI kind `ipi_kind` (xcall.h). */
#define XCALL_OPS_DEFINE(algo, ipi_kind)					\
	const struct xcall_ops xcall_##algo = {					\
		.name = #algo,							\
		.init = algo##_init,						\
		.call = algo##_call,						\
		.handle_ipi = algo##_handle_ipi,				\
		.ipi = ipi_kind,						\
		.lockprof = algo##_lockprof,					\
		.reset = algo##_reset,						\
	}

/* lockless.c, for tests: whether CPU `cpu`'s tasks bit is set. */
int xcall_lockless_task_pending(unsigned cpu);

/* raw.c: reset the ping-pong state (xcall_init_all). */
void xcall_raw_init_state(void);

#endif
