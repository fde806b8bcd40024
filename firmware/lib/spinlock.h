/* lib/spinlock.h — a test-and-test-and-set spinlock, host-compilable.
 * Every user says why it needs the lock; this file only promises that
 * spin_lock() is an ACQUIRE and spin_unlock() a RELEASE, so the data a lock
 * protects is never read before the lock is held nor written after it is freed. */
#ifndef XCB_LIB_SPINLOCK_H
#define XCB_LIB_SPINLOCK_H
#include <stdint.h>
#include <stdbool.h>

typedef struct {
	volatile uint32_t locked;
} spinlock_t;

#define SPINLOCK_INIT { 0 }

/*
 * The body of every spin-wait: a measurement choice, not a constant (lib/spin.c
 * holds the policy, bench/ sets it from `spin=` before anything is timed).
 * PAUSE eases a sibling hyperthread and the bus on real hardware, but QEMU's
 * TCG leaves its translated-code loop on every PAUSE and KVM takes a
 * pause-loop exit after a window: there a plain compiler barrier is the spin
 * that measures the algorithm instead of the emulator. The flag is written
 * once at start-up, before any timed wait, and only read afterwards (relaxed:
 * it orders nothing). The host build always pauses (its spins go through the
 * pthread shim's plat_cpu_relax()).
 */
#ifndef XCB_HOST
extern int cpu_relax_plain;
#endif

static inline void cpu_relax(void)
{
#ifndef XCB_HOST
	if (__atomic_load_n(&cpu_relax_plain, __ATOMIC_RELAXED)) {
		__asm__ __volatile__("" ::: "memory");
		return;
	}
#endif
	__asm__ __volatile__("pause" ::: "memory");
}

static inline bool spin_trylock(spinlock_t *l)
{
	/* ACQUIRE: the critical section may not be hoisted above the exchange. */
	return __atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE) == 0;
}

static inline void spin_lock(spinlock_t *l)
{
	while (!spin_trylock(l)) {
		/* Spin on a plain load so waiters share the cache line instead of
		 * bouncing it with locked exchanges. */
		while (__atomic_load_n(&l->locked, __ATOMIC_RELAXED))
			cpu_relax();
	}
}

static inline void spin_unlock(spinlock_t *l)
{
	/* RELEASE: every store in the critical section is visible before the lock
	 * reads as free. */
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
}

/* Interrupt flag save/restore, so a lock also taken from interrupt context
 * (the console) cannot deadlock against its own CPU. No-ops on the host. */
#ifdef XCB_HOST
static inline unsigned long irq_save(void) { return 0; }
static inline void irq_restore(unsigned long f) { (void)f; }
#else
static inline unsigned long irq_save(void)
{
	unsigned long f;
	__asm__ __volatile__("pushfq; popq %0; cli" : "=r"(f) :: "memory");
	return f;
}
static inline void irq_restore(unsigned long f)
{
	if (f & (1UL << 9))
		__asm__ __volatile__("sti" ::: "memory");
}
#endif

static inline unsigned long spin_lock_irqsave(spinlock_t *l)
{
	unsigned long f = irq_save();
	spin_lock(l);
	return f;
}

static inline void spin_unlock_irqrestore(spinlock_t *l, unsigned long f)
{
	spin_unlock(l);
	irq_restore(f);
}

#endif
