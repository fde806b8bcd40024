/*
 * ticketlock.h — a FIFO ticket spinlock with a lock profile (acquisitions,
 * contended acquisitions, cycles held, cycles waited), like Xen's spinlock
 * with lock profiling. Used by the "locked" cross-call and by the flush
 * layer's global flush lock (the VECTOR path).
 *
 * Waiters spin through plat_cpu_relax() with interrupts enabled: a CPU
 * waiting here must still answer the IPIs of the holder, who may be waiting
 * on us to acknowledge its call (the A->B / B->A deadlock otherwise).
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
	} p __attribute__((aligned(64)));
} __attribute__((aligned(64)));

static inline void ticket_lock(struct ticketlock *l)
{
	uint64_t t0 = plat_cycles_fast();
	/* relaxed: the ticket number itself orders nothing; the acquire
	 * load of owner below is what orders our critical section after the
	 * previous holder's. */
	uint32_t me = __atomic_fetch_add(&l->next, 1, __ATOMIC_RELAXED);
	int contended = 0;

	/* acquire: pairs with the release in ticket_release(), so everything
	 * the previous holder wrote under the lock is visible to us. */
	while (__atomic_load_n(&l->owner, __ATOMIC_ACQUIRE) != me) {
		contended = 1;
		plat_cpu_relax();
	}
	uint64_t t1 = plat_cycles_fast();
	l->p.prof.acquisitions++;
	if (contended) {
		l->p.prof.contended++;
		l->p.prof.wait_cycles += t1 - t0;
	}
	l->p.t_acquired = t1;
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
	l->p.prof.hold_cycles += plat_cycles_fast() - l->p.t_acquired;
	ticket_release(l);
}

/* Copy / clear the profile under the lock (so it is consistent); our own
 * look at it is not counted. */
static inline void ticket_prof_get(struct ticketlock *l, struct xcall_lockprof *out)
{
	ticket_lock(l);
	l->p.prof.acquisitions--;
	*out = l->p.prof;
	ticket_release(l);
}

static inline void ticket_prof_reset(struct ticketlock *l)
{
	ticket_lock(l);
	l->p.prof = (struct xcall_lockprof){ 0 };
	ticket_release(l);
}

#endif
