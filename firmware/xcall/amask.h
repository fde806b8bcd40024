/*
 * amask.h — a CPU bitmap that several CPUs update at once (atomic bit
 * set/clear, "is it empty yet" polling), used for the algorithms' shared
 * "selected"/"pending"/"initiators" masks. struct cpumask (lib/cpumask.h)
 * is the plain value type callers pass in; this one is for shared state.
 *
 * All accesses are __atomic builtins so ThreadSanitizer sees them and the
 * compiler never tears or caches them; the memory order of each operation is
 * chosen by the caller and explained there.
 */
#ifndef XCB_XCALL_AMASK_H
#define XCB_XCALL_AMASK_H

#include <stddef.h>
#include <stdint.h>
#include "lib/cpumask.h"

#define AMASK_MAX_CPUS	XCB_MAX_CPUS	/* the one limit (lib/cpumask.h) */
#define AMASK_WORDS	(AMASK_MAX_CPUS / 64)

struct amask {
	uint64_t w[AMASK_WORDS];
};

/* Snapshot a caller's cpumask (bits >= ncpus dropped); in xcall.c. */
struct cpumask;
void amask_from_cpumask(struct amask *dst, const struct cpumask *src, unsigned ncpus);

static inline uint64_t amask_bit(unsigned cpu) { return 1ull << (cpu % 64); }

static inline int amask_test(const struct amask *m, unsigned cpu, int order)
{
	return (__atomic_load_n(&m->w[cpu / 64], order) & amask_bit(cpu)) != 0;
}

static inline void amask_set(struct amask *m, unsigned cpu, int order)
{
	__atomic_fetch_or(&m->w[cpu / 64], amask_bit(cpu), order);
}

static inline void amask_clear(struct amask *m, unsigned cpu, int order)
{
	__atomic_fetch_and(&m->w[cpu / 64], ~amask_bit(cpu), order);
}

/* Is the shared mask empty? Each word is loaded with `order`. */
static inline int amask_empty(const struct amask *m, unsigned nwords, int order)
{
	for (unsigned i = 0; i < nwords; i++)
		if (__atomic_load_n(&m->w[i], order))
			return 0;
	return 1;
}

/* The lowest CPU set in the shared mask, or AMASK_MAX_CPUS when none; each
 * word is loaded with `order`. Words change meanwhile: the answer is one
 * CPU that was set when its word was read. */
static inline unsigned amask_first(const struct amask *m, unsigned nwords, int order)
{
	for (unsigned i = 0; i < nwords; i++) {
		uint64_t w = __atomic_load_n(&m->w[i], order);
		if (w)
			return i * 64 + (unsigned)__builtin_ctzll(w);
	}
	return AMASK_MAX_CPUS;
}

/* Store a plain value into a shared mask word by word with `order`. */
static inline void amask_store(struct amask *m, const struct amask *v, unsigned nwords, int order)
{
	for (unsigned i = 0; i < nwords; i++)
		__atomic_store_n(&m->w[i], v->w[i], order);
}

/* Load a shared mask into a plain one word by word with `order`: a handler's
 * snapshot of the initiators that may have work for it. */
static inline void amask_load(struct amask *dst, const struct amask *m, unsigned nwords, int order)
{
	for (unsigned i = 0; i < nwords; i++)
		dst->w[i] = __atomic_load_n(&m->w[i], order);
}

/* Words needed for ncpus. */
static inline unsigned amask_words(unsigned ncpus) { return (ncpus + 63) / 64; }

/* An algorithm's init: *nwords = the words for ncpus, or -1 (nothing set)
 * when ncpus is not a count the masks can hold (1..AMASK_MAX_CPUS). */
static inline int amask_nwords(unsigned ncpus, unsigned *nwords)
{
	if (ncpus == 0 || ncpus > AMASK_MAX_CPUS)
		return -1;
	*nwords = amask_words(ncpus);
	return 0;
}

/* Iterate over the set bits of a plain (private) mask. Two loops: a break
 * leaves only the current 64-CPU word (the next word's bits still come);
 * to stop, return (or test a flag). */
#define amask_for_each(cpu, m, nwords)						\
	for (unsigned _w = 0; _w < (nwords); _w++)				\
		for (uint64_t _b = (m)->w[_w]; _b; _b &= _b - 1)		\
			if (((cpu) = _w * 64 + (unsigned)__builtin_ctzll(_b)), 1)

#endif
