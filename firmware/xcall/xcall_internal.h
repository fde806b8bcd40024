/*
 * xcall_internal.h — helpers shared by the algorithm files (not for users
 * of xcall.h): turning the caller's cpumask into a private target snapshot,
 * running a callee, and the steps of the descriptor protocol lockless.c,
 * tree.c and flush/paths.c share (publish, finish, serve, reset).
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

/*
 * Spin with interrupts on (serving the calls aimed at us meanwhile) until
 * the shared mask m is empty: every target checked in. acquire: pairs with
 * the targets' release clears, so what they did before checking in (read
 * the descriptor; for wait=done, ran fn) happens before what we do next.
 *
 * No bound of its own: every bench caller runs it under a watchdog, which
 * reports and ends the run (the xcall_smoke self-test too:
 * bench/smoke_watch.h). For that report, a slow wait notes whom it spins on
 * (platform.h plat_wait_note; `what`, a string literal, names the algorithm
 * and the wait): the lowest CPU still set in `who` — m itself, or a mask
 * closer to the targets (tree.c: its `pending`, the targets that never
 * picked the call up, not their group's leader) — or, when `who` is empty,
 * in m. That CPU changes as the others check in, so the note is taken again
 * every PLAT_WAIT_NOTE_US while the wait lasts, not only at the first: the
 * CPU that never answers is the one the report names once the rest are in
 * (a first-only note could name a CPU that was merely slow to start). The
 * counter is a local, one compare a turn, as in plat_wait_turn (whose
 * target is fixed; here it is read only when noting): plat_wait_due says
 * when, by the clock, and marks it, so plat_wait_done sees that a note was
 * made.
 */
static inline void xcall_wait_empty_naming(const struct amask *m, const struct amask *who,
					   unsigned nwords, const char *what)
{
	unsigned spins = 0;

	while (!amask_empty(m, nwords, __ATOMIC_ACQUIRE)) {
		if (plat_wait_due(&spins)) {
			/* relaxed: diagnostic reads; the acquire above is the
			 * wait's. AMASK_MAX_CPUS (emptied meanwhile): no note. */
			unsigned t = amask_first(who, nwords, __ATOMIC_RELAXED);
			if (t >= AMASK_MAX_CPUS)
				t = amask_first(m, nwords, __ATOMIC_RELAXED);
			if (t < AMASK_MAX_CPUS)
				plat_wait_note(t, what);
		}
		plat_cpu_relax();
	}
	plat_wait_done(spins);
}

/* xcall_wait_empty_naming, naming from m itself: the mask whose bits are the
 * targets (locked, lockless, the flush paths). */
static inline void xcall_wait_empty(const struct amask *m, unsigned nwords, const char *what)
{
	xcall_wait_empty_naming(m, m, nwords, what);
}

/*
 * The descriptor protocol lockless.c and tree.c (and flush/paths.c's direct
 * paths) share. An initiator owns one descriptor: its call (below), written
 * only while the previous call's check-in mask is empty, and `pending`, the
 * targets that have not picked the call up; a global mask of initiators with
 * a call in flight (`tasks`; paths.c's `active`) is what a receiver scans.
 * Each helper is one step of it, and its comment names what its barrier
 * pairs with.
 */

/* The call in a descriptor: plain fields, published by xcall_publish's
 * release and read by a target only after its acquire test of its bit. */
struct xcall_req {
	xcall_fn_t fn;
	void *arg;
	enum xcb_wait wait;
};

/* Initiator, once its descriptor is written: release on `pending`, so a
 * target that sees its bit (acquire) sees the descriptor and all stored
 * before it; then a seq_cst RMW on our `tasks` bit, a full barrier (a locked
 * OR on x86): `pending` is visible before the bit (the receivers' acquire
 * snapshot in xcall_serve_tasks pairs with it), and the IPIs the caller
 * sends next (APIC writes) go after it. The bit may already be set, left by
 * an earlier wait=none call. */
static inline void xcall_publish(struct amask *pending, const struct amask *targets,
				 struct amask *tasks, unsigned me, unsigned nwords)
{
	amask_store(pending, targets, nwords, __ATOMIC_RELEASE);
	amask_set(tasks, me, __ATOMIC_SEQ_CST);
}

/* Initiator, a waited call: spin until the check-in mask `done` is empty
 * (xcall_wait_empty_naming's acquire pairs with the targets' release clears;
 * a slow wait notes, with `what`, the lowest CPU still set in `who`, else in
 * `done`), then
 * clear our `tasks` bit with release, which orders those acquire loads (and
 * all before them) before the clear: a receiver that still sees the bit
 * finds no work, and one that misses it has no call of ours to find (Jan
 * Beulich's rule, lockless.c). */
static inline void xcall_finish(const struct amask *done, const struct amask *who,
				struct amask *tasks, unsigned me, unsigned nwords, const char *what)
{
	xcall_wait_empty_naming(done, who, nwords, what);
	amask_clear(tasks, me, __ATOMIC_RELEASE);
}

/* Receiver (the handler): serve(initiator, me) for every initiator whose
 * `tasks` bit is set, in CPU order (not arrival order: lockless.c's fairness
 * issue). The snapshot is loaded with acquire, pairing with each
 * initiator's seq_cst set in xcall_publish, so its `pending` stores are
 * visible to serve's acquire test of our bit. Inline: serve becomes a
 * direct call in the timed path. */
static inline void xcall_serve_tasks(const struct amask *tasks, unsigned nwords,
				     void (*serve)(unsigned initiator, unsigned me))
{
	unsigned me = plat_cpu_id(), i;
	struct amask snap;

	amask_load(&snap, tasks, nwords, __ATOMIC_ACQUIRE);
	amask_for_each(i, &snap, nwords)
		serve(i, me);
}

/* Quiescent (between cases): clear the `tasks` bit of every initiator whose
 * check-in mask is empty — the bits wait=none calls left set (lockless.c
 * says why they cost). Initiator i's mask is at `first` + i * `stride` bytes
 * (a member of each descriptor in an array). acquire: pairs with the
 * targets' release clears; release: after the empty mask was seen, as in
 * xcall_finish. */
static inline void xcall_reset_tasks(struct amask *tasks, unsigned ncpus, unsigned nwords,
				     const struct amask *first, unsigned long stride)
{
	for (unsigned i = 0; i < ncpus; i++)
		if (amask_empty((const struct amask *)((const char *)first + i * stride), nwords,
				__ATOMIC_ACQUIRE))
			amask_clear(tasks, i, __ATOMIC_RELEASE);
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
