/*
 * ticketlock.h — a FIFO ticket spinlock with a lock profile (acquisitions,
 * contended acquisitions, cycles held, cycles waited), like Xen's spinlock
 * with lock profiling. Used by the "locked" cross-call and by the flush
 * layer's global flush lock (the VECTOR path).
 *
 * Waiters spin through plat_cpu_relax() with interrupts enabled: a CPU
 * waiting here must still answer the IPIs of the holder, who may be waiting
 * on us to acknowledge its call (the A->B / B->A deadlock otherwise).
 *
 * A waiter says whom it waits on, as every wait on another CPU does
 * (xcall/platform.h plat_wait_note): once slow, the CPU holding the lock,
 * which each holder records as it takes it (`holder`), so a stalled holder
 * shows in the watchdog's report ("spinning on cpu1(call_lock: held)"), not
 * just a CPU "in a call".
 *
 * The profile counts only the takes of a CPU whose counting is on
 * (xcall.h xcall_lockprof_count: the bench's timed calls, not their warm-up
 * or the TLB no-flush control); the holder notes whether its take counts
 * (`counted`), so its release adds its hold only then.
 */
#ifndef XCB_XCALL_TICKETLOCK_H
#define XCB_XCALL_TICKETLOCK_H

#include <stdint.h>
#include "xcall/xcall.h"
#include "xcall/platform.h"

struct ticketlock {
	uint32_t next;		/* next ticket to hand out */
	uint32_t owner;		/* ticket now being served: waiters spin on this line */
	/* Profile: its own cache line, so the holder's bookkeeping never bounces
	 * the line the waiters spin on. Written only by the holder, so plain
	 * fields — the acquire/release on `owner` orders them between
	 * successive holders. Timed with plat_cycles_fast(): no serialising
	 * read inside the critical section it measures. */
	struct {
		uint64_t t_acquired;
		struct xcall_lockprof prof;
		/* The CPU holding the lock (the last to take it): written by
		 * each holder as it takes it, beside t_acquired on the line it
		 * writes anyway; read (relaxed) only by a slow waiter's note, a
		 * diagnostic that pairs with nothing — a waiter that reads it
		 * before the new holder's store names the previous holder until
		 * its next note (every PLAT_WAIT_NOTE_US, platform.h). */
		uint32_t holder;
		/* Whether this holder's take counts (xcall_lockprof_counting
		 * at its take): written and read by the holder alone. */
		uint32_t counted;
	} p __attribute__((aligned(64)));
} __attribute__((aligned(64)));

/* Wait for our ticket's turn, profiling nothing: the turns spun (0: it
 * was free; PLAT_WAIT_NOTED set once it noted). The note is taken again
 * every PLAT_WAIT_NOTE_US (see ticket_lock). */
static inline unsigned ticket_take(struct ticketlock *l, const char *what)
{
	/* relaxed: the ticket number itself orders nothing; the acquire
	 * load of owner below is what orders our critical section after the
	 * previous holder's. */
	uint32_t me = __atomic_fetch_add(&l->next, 1, __ATOMIC_RELAXED);
	unsigned spins = 0;

	/* acquire: pairs with the release in ticket_release(), so everything
	 * the previous holder wrote under the lock is visible to us. */
	while (__atomic_load_n(&l->owner, __ATOMIC_ACQUIRE) != me) {
		if (plat_wait_due(&spins))
			/* relaxed: a diagnostic read (see holder). */
			plat_wait_note(__atomic_load_n(&l->p.holder, __ATOMIC_RELAXED), what);
		plat_cpu_relax();
	}
	return spins;
}

/*
 * Take the lock. `what` (a string literal: "call_lock: held") is what a slow
 * wait notes beside the holder's CPU. The count of turns replaces the old
 * `contended` flag (contended = turns != 0), so an uncontended take pays
 * nothing for it; a contended turn pays one AND-and-test, as
 * xcall_wait_empty's, and the note is taken again every
 * PLAT_WAIT_NOTE_US, since the lock passes from holder to holder
 * while we queue. What every take pays is the holder's record: a
 * plat_cpu_id() and one store on the profile line it writes anyway (the
 * only way to name a holder that took the lock uncontended), and the
 * question whether it counts: a call and a read of this CPU's own line
 * (xcall/lockprof.c), outside the wait and hold it times but inside the
 * call a bench initiator times.
 */
static inline void ticket_lock(struct ticketlock *l, const char *what)
{
	/* Asked before the clock starts: the question is no part of the wait
	 * or the hold it decides about. */
	uint32_t counted = (uint32_t)xcall_lockprof_counting();
	uint64_t t0 = plat_cycles_fast();
	unsigned spins = ticket_take(l, what);
	uint64_t t1 = plat_cycles_fast();

	if (counted) {
		l->p.prof.acquisitions++;
		if (spins) {
			l->p.prof.contended++;
			l->p.prof.wait_cycles += t1 - t0;
		}
	}
	plat_wait_done(spins);
	l->p.counted = counted;
	l->p.t_acquired = t1;
	/* relaxed: only waiters' notes read it (see holder); the acquire above
	 * and the next holder's release order it like the rest of p. */
	__atomic_store_n(&l->p.holder, plat_cpu_id(), __ATOMIC_RELAXED);
}

/* Hand the lock to the next ticket. Only the holder writes owner, so a
 * relaxed read of it is exact; the release store publishes the critical
 * section (and the profile) to the next holder's acquire load. */
static inline void ticket_release(struct ticketlock *l)
{
	uint32_t o = __atomic_load_n(&l->owner, __ATOMIC_RELAXED);
	__atomic_store_n(&l->owner, o + 1, __ATOMIC_RELEASE);
}

static inline void ticket_unlock(struct ticketlock *l)
{
	if (l->p.counted)
		l->p.prof.hold_cycles += plat_cycles_fast() - l->p.t_acquired;
	ticket_release(l);
}

/* Copy / clear the profile under the lock (so it is consistent): taken
 * with ticket_take, so our own look at it is not counted. */
static inline void ticket_prof_get(struct ticketlock *l, struct xcall_lockprof *out)
{
	plat_wait_done(ticket_take(l, "lock profile: lock held"));
	*out = l->p.prof;
	ticket_release(l);
}

static inline void ticket_prof_reset(struct ticketlock *l)
{
	plat_wait_done(ticket_take(l, "lock profile: lock held"));
	l->p.prof = (struct xcall_lockprof){ 0 };
	ticket_release(l);
}

#endif
