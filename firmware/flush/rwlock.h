/*
 * rwlock.h — the reader-writer locks of the `sync` case (seed 002: a TLB
 * shootdown held under Xen's p2m write lock starves the toolstack's readers).
 *
 * Two locks behind one ops table, so the case can show what fairness buys:
 *   fair   — a task-fair ticket rw-lock (Mellor-Crummey & Scott's idea, our
 *            own code): every acquirer takes a ticket from one request word
 *            and is served in arrival order; consecutive readers share the
 *            lock. A writer waits only for those who came before it, and a
 *            reader only for writers who came before it: no one starves.
 *   unfair — reader-preferring: a reader gets in whenever no writer HOLDS the
 *            lock, so a stream of readers can keep a writer out indefinitely
 *            (the rw-lock Xen had before the seed's series).
 *
 * Every lock call returns 1 when it had to wait (contended: the lock profile's
 * count, as Xen's lock profiling counts it), else 0.
 *
 * Waiters spin through plat_cpu_relax() with interrupts on: a reader waiting
 * here may be a target of the very shootdown the writer sends while holding
 * the lock (`inside`), and must answer that IPI or the two deadlock.
 */
#ifndef XCB_FLUSH_RWLOCK_H
#define XCB_FLUSH_RWLOCK_H

#include <stdint.h>
#include "xcall/platform.h"

/*
 * Fair: `req` and `done` each count readers in the low 32 bits and writers
 * in the high 32 bits. An acquirer's ticket is the value of `req` before its
 * own increment: it may enter once every writer before it is done (reader),
 * or every reader and writer before it is done (writer).
 *
 * The halves are not separate counters: each word is the sum readers +
 * writers * 2^32 (mod 2^64), so every 2^32nd reader's increment carries into
 * the writers' half, in `req` at that reader's ticket and in `done` at that
 * many readers' unlock. A writer compares whole words: the carry is part of
 * the sum on both sides. A reader compares the high halves: one whose ticket
 * lies past a carry also waits for every reader before the carry to finish,
 * as if a writer stood there. That costs the readers in flight at the carry
 * (one per CPU at most) a wait without sharing, counted as contended, once
 * per 2^32 reads: a few samples in 2^32, in a lock bench/sync.c resets every
 * repetition, so it is left so. It never lets a reader in early: the high
 * halves of its ticket and of `done` differ by the writers before it still
 * unfinished plus at most one carry (fewer than 2^32 acquirers are ever in
 * flight, one per CPU), never by a multiple of 2^32. The writers' half wraps
 * after 2^32 writers in both words alike: equal mod 2^32 all the same
 * (tests/test_lazy.c test_rwlock_fair_wrap runs the lock across both).
 */
#define RW_READER	1ull
#define RW_WRITER	(1ull << 32)
#define RW_WRITERS	(~0ull << 32)		/* the writers' half of a counter */

struct rwlock {
	uint64_t req;				/* tickets handed out */
	uint8_t pad0[56];
	uint64_t done;				/* tickets finished */
	uint8_t pad1[56];
	uint32_t unfair;			/* unfair lock: readers, and bit 31 = writer */
	uint8_t pad2[60];
} __attribute__((aligned(64)));

#define RW_UNFAIR_WRITER	0x80000000u

/* ---- fair ---------------------------------------------------------------- */

/* The wait of a fair acquirer with ticket t: until the tickets of `done`
 * that `mask` selects (a reader: the writers' half, RW_WRITERS; a writer:
 * all) equal t's, i.e. everyone before it of those kinds has finished.
 * acquire: pairs with the release of the unlock paths, so their sections
 * happen before ours. Returns 1 when it had to wait. */
static inline int rw_fair_wait(struct rwlock *l, uint64_t t, uint64_t mask)
{
	int waited = 0;

	while ((__atomic_load_n(&l->done, __ATOMIC_ACQUIRE) & mask) != (t & mask)) {
		waited = 1;
		plat_cpu_relax();
	}
	return waited;
}

static inline int rw_fair_read_lock(struct rwlock *l)
{
	/* relaxed: the ticket only says who came first; the acquire load of
	 * `done` in the wait orders our reads after the previous writer's
	 * section (its release in rw_fair_write_unlock()). */
	uint64_t t = __atomic_fetch_add(&l->req, RW_READER, __ATOMIC_RELAXED);
	return rw_fair_wait(l, t, RW_WRITERS);
}

static inline void rw_fair_read_unlock(struct rwlock *l)
{
	/* release: our reads under the lock happen before a later writer's
	 * acquire load of `done` lets it in. */
	__atomic_fetch_add(&l->done, RW_READER, __ATOMIC_RELEASE);
}

static inline int rw_fair_write_lock(struct rwlock *l)
{
	/* relaxed: as for readers; the acquire on `done` in the wait (pairs
	 * with the releases of both unlock paths) orders us after every reader
	 * and writer before us. */
	uint64_t t = __atomic_fetch_add(&l->req, RW_WRITER, __ATOMIC_RELAXED);
	return rw_fair_wait(l, t, ~0ull);
}

static inline void rw_fair_write_unlock(struct rwlock *l)
{
	/* release: the section's writes (the PTE changes) are visible to
	 * whoever's acquire load of `done` lets them in next. No reader holds
	 * the lock now, so nobody else writes `done`; an RMW needs no such
	 * argument and costs the same on x86. */
	__atomic_fetch_add(&l->done, RW_WRITER, __ATOMIC_RELEASE);
}

/* ---- unfair (reader-preferring) ----------------------------------------- */

static inline int rw_unfair_read_lock(struct rwlock *l)
{
	for (int waited = 0;; waited = 1) {
		/* acquire: pairs with the writer's release in unlock, so the
		 * writer's changes are visible once we are counted in. */
		uint32_t v = __atomic_fetch_add(&l->unfair, 1, __ATOMIC_ACQUIRE);
		if (!(v & RW_UNFAIR_WRITER))
			return waited;
		/* relaxed: backing out of a failed attempt publishes nothing. */
		__atomic_fetch_sub(&l->unfair, 1, __ATOMIC_RELAXED);
		while (__atomic_load_n(&l->unfair, __ATOMIC_RELAXED) & RW_UNFAIR_WRITER)
			plat_cpu_relax();
	}
}

static inline void rw_unfair_read_unlock(struct rwlock *l)
{
	/* release: our reads happen before the writer's acquire CAS sees 0. */
	__atomic_fetch_sub(&l->unfair, 1, __ATOMIC_RELEASE);
}

static inline int rw_unfair_write_lock(struct rwlock *l)
{
	uint32_t zero = 0;
	int waited = 0;

	/* acquire: pairs with readers' release in read_unlock and the previous
	 * writer's release; only an empty lock (no reader, no writer) is taken. */
	while (!__atomic_compare_exchange_n(&l->unfair, &zero, RW_UNFAIR_WRITER, 0,
					    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		zero = 0;
		waited = 1;
		plat_cpu_relax();
	}
	return waited;
}

static inline void rw_unfair_write_unlock(struct rwlock *l)
{
	/* release: pairs with the acquire of the next reader or writer. An RMW:
	 * readers' failed attempts may be in the counter at this moment. */
	__atomic_fetch_and(&l->unfair, ~RW_UNFAIR_WRITER, __ATOMIC_RELEASE);
}

/* ---- ops table ---------------------------------------------------------- */

struct rwlock_ops {
	const char *name;
	int (*read_lock)(struct rwlock *);	/* 1: it waited (contended) */
	void (*read_unlock)(struct rwlock *);
	int (*write_lock)(struct rwlock *);	/* 1: it waited (contended) */
	void (*write_unlock)(struct rwlock *);
};

extern const struct rwlock_ops rwlock_fair_ops, rwlock_unfair_ops;

/* The ops named `name` ("fair", "unfair"), or NULL. */
const struct rwlock_ops *rwlock_ops_by_name(const char *name);

#endif
