/* lib/cpumask.h — a fixed-size bitmap of logical CPU numbers (0 = BSP).
 * Logical numbers are NOT APIC IDs: arch/smp.h maps between them.
 * Plain operations are not atomic; the *_atomic ones are (for masks several
 * CPUs update at once, e.g. "who has acknowledged this call"). Host-compilable. */
#ifndef XCB_LIB_CPUMASK_H
#define XCB_LIB_CPUMASK_H
#include <stdbool.h>
#include <stdint.h>

/* The one limit on logical CPUs: every per-CPU table, mask, stack, GDT slot
 * and N^2 allocation is sized from it, so raising it (4096) is this line
 * alone. A multiple of 64. */
#define XCB_MAX_CPUS 1024
#define CPUMASK_WORDS (XCB_MAX_CPUS / 64)

struct cpumask {
	uint64_t bits[CPUMASK_WORDS];
};

static inline void cpumask_clear_all(struct cpumask *m)
{
	for (int i = 0; i < CPUMASK_WORDS; i++)
		m->bits[i] = 0;
}

static inline void cpumask_set(struct cpumask *m, unsigned cpu)
{
	m->bits[cpu / 64] |= 1ULL << (cpu % 64);
}

static inline void cpumask_clear(struct cpumask *m, unsigned cpu)
{
	m->bits[cpu / 64] &= ~(1ULL << (cpu % 64));
}

static inline bool cpumask_test(const struct cpumask *m, unsigned cpu)
{
	return cpu < XCB_MAX_CPUS && (m->bits[cpu / 64] >> (cpu % 64)) & 1;
}

/* Atomic variants: full barriers (SEQ_CST), so a CPU that sets its bit after
 * finishing some work publishes that work along with the bit. */
static inline void cpumask_set_atomic(struct cpumask *m, unsigned cpu)
{
	__atomic_fetch_or(&m->bits[cpu / 64], 1ULL << (cpu % 64), __ATOMIC_SEQ_CST);
}

static inline void cpumask_clear_atomic(struct cpumask *m, unsigned cpu)
{
	__atomic_fetch_and(&m->bits[cpu / 64], ~(1ULL << (cpu % 64)), __ATOMIC_SEQ_CST);
}

static inline bool cpumask_test_atomic(const struct cpumask *m, unsigned cpu)
{
	return (__atomic_load_n(&m->bits[cpu / 64], __ATOMIC_ACQUIRE) >> (cpu % 64)) & 1;
}

static inline unsigned cpumask_weight(const struct cpumask *m)
{
	unsigned n = 0;
	for (int i = 0; i < CPUMASK_WORDS; i++)
		n += (unsigned)__builtin_popcountll(m->bits[i]);
	return n;
}

static inline bool cpumask_empty(const struct cpumask *m)
{
	for (int i = 0; i < CPUMASK_WORDS; i++)
		if (m->bits[i])
			return false;
	return true;
}

/* First set bit at or after 'from'; XCB_MAX_CPUS when none. */
static inline unsigned cpumask_next_from(const struct cpumask *m, unsigned from)
{
	while (from < XCB_MAX_CPUS) {
		uint64_t w = m->bits[from / 64] >> (from % 64);
		if (w)
			return from + (unsigned)__builtin_ctzll(w);
		from = (from / 64 + 1) * 64;
	}
	return XCB_MAX_CPUS;
}

static inline unsigned cpumask_first(const struct cpumask *m)
{
	return cpumask_next_from(m, 0);
}

static inline unsigned cpumask_next(unsigned cpu, const struct cpumask *m)
{
	return cpumask_next_from(m, cpu + 1);
}

static inline void cpumask_and(struct cpumask *d, const struct cpumask *a, const struct cpumask *b)
{
	for (int i = 0; i < CPUMASK_WORDS; i++)
		d->bits[i] = a->bits[i] & b->bits[i];
}

static inline void cpumask_or(struct cpumask *d, const struct cpumask *a, const struct cpumask *b)
{
	for (int i = 0; i < CPUMASK_WORDS; i++)
		d->bits[i] = a->bits[i] | b->bits[i];
}

/* d = a & ~b */
static inline void cpumask_andnot(struct cpumask *d, const struct cpumask *a, const struct cpumask *b)
{
	for (int i = 0; i < CPUMASK_WORDS; i++)
		d->bits[i] = a->bits[i] & ~b->bits[i];
}

static inline bool cpumask_equal(const struct cpumask *a, const struct cpumask *b)
{
	for (int i = 0; i < CPUMASK_WORDS; i++)
		if (a->bits[i] != b->bits[i])
			return false;
	return true;
}

#define for_each_cpu(cpu, mask) \
	for ((cpu) = cpumask_first(mask); (cpu) < XCB_MAX_CPUS; (cpu) = cpumask_next((cpu), (mask)))

#endif
