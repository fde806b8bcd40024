/*
 * xcall_internal.h — helpers shared by the algorithm files (not for users
 * of xcall.h): turning the caller's cpumask into a private target snapshot,
 * and running a callee.
 */
#ifndef XCB_XCALL_INTERNAL_H
#define XCB_XCALL_INTERNAL_H

#include "xcall/xcall.h"
#include "xcall/amask.h"
#include "xcall/platform.h"

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

/* Spin with interrupts on (serving the calls aimed at us meanwhile) until
 * the shared mask m is empty: every target checked in. acquire: pairs with
 * the targets' release clears, so what they did before checking in (read
 * the descriptor; for wait=done, ran fn) happens before what we do next. */
static inline void xcall_wait_empty(const struct amask *m, unsigned nwords)
{
	while (!amask_empty(m, nwords, __ATOMIC_ACQUIRE))
		plat_cpu_relax();
}

/* A target's part of one call whose fn/arg/wait it has read from the
 * initiator's descriptor: run fn and check in by clearing our bit `me` in
 * the descriptor's `pending` mask (release; pairs with the initiator's
 * acquire poll for empty). wait=done: after fn, so fn's effects are visible
 * when the initiator sees the mask empty; otherwise before fn, so our reads
 * of fn/arg are done before the initiator may rewrite them. */
static inline void xcall_run_check_in(xcall_fn_t fn, void *arg, enum xcb_wait w,
				      struct amask *pending, unsigned me)
{
	if (w == XCB_WAIT_DONE) {
		xcall_run(fn, arg);
		amask_clear(pending, me, __ATOMIC_RELEASE);
	} else {
		amask_clear(pending, me, __ATOMIC_RELEASE);
		xcall_run(fn, arg);
	}
}

/*
 * The one declaration of an algorithm, at the end of its file: its ops
 * table from its functions, named <algo>_init, _call and _handle_ipi,
 * plus the fields given (.desc, .nipi, .waits, .sends — every one of them,
 * see struct xcall_ops; the optional .lockprof and .reset where it has a
 * lock to profile or state to clear between cases), and its linker-table
 * entry. The name is the file's identifier `algo` (a second algorithm of
 * the same name fails to link: xcall_<algo> defined twice).
 */
#define XCALL_ALGO(algo, ...)							\
	const struct xcall_ops xcall_##algo = {					\
		.name = #algo,							\
		.init = algo##_init,						\
		.call = algo##_call,						\
		.handle_ipi = { algo##_handle_ipi },				\
		__VA_ARGS__							\
	};									\
	XCALL_TABLE_ENTRY(algo)

/*
 * Just the linker-table entry, for an ops table written out by hand (an
 * algorithm with two vectors, a test's stand-in): a pointer in section
 * `xcall_algos` (registry.c walks __start_/__stop_xcall_algos; the payload's
 * boot/linker.ld KEEPs it). A pointer, not the table itself: 8 bytes with
 * 8-byte alignment leave no padding between entries, whatever the compiler
 * does with big objects' alignment. (ASan leaves variables with a section
 * of their own unpadded.)
 */
#define XCALL_TABLE_ENTRY(algo)							\
	static const struct xcall_ops *const xcall_entry_##algo			\
		__attribute__((used, section("xcall_algos"), aligned(8))) = &xcall_##algo

/* The IPI kinds given to init(), for an algorithm that keeps one. */
#define XCALL_IPI_NONE 0xffffffffu

/* lockless.c, for tests: whether CPU `cpu`'s tasks bit is set. */
int xcall_lockless_task_pending(unsigned cpu);

/* The k-th IPI kind (enum plat_ipi) xcall_init_all() gave `ops`, or -1. */
int xcall_algo_ipi(const struct xcall_ops *ops, unsigned k);

/* registry.c: entries beyond XCALL_MAX_ALGOS (xcall_init_all refuses them). */
unsigned xcall_algo_overflow(void);

/* raw.c: reset the ping-pong state (xcall_init_all). */
void xcall_raw_init_state(void);

#endif
