/*
 * lazy.h — lazy TLB invalidation by generation (seed 002's final design:
 * Xen invalidates EPT translations before the next VMENTER instead of IPIing
 * every CPU under the p2m write lock).
 *
 * One writer at a time (the caller holds the write lock) changes PTEs between
 * lazy_begin() and lazy_publish(); publishing bumps the generation and marks
 * the targets, and sends no IPI. Each target calls lazy_entry() at its "entry"
 * boundary (the bare-metal analogue of VMENTER: a quantum boundary in its
 * loop) and flushes there if it was marked since its last entry.
 *
 * The generation doubles as a sequence lock for verification: it is odd while
 * PTEs are changing, so a target can tell a read made in a quiet window
 * (lazy_read_begin/lazy_read_quiet) and judge it: after its entry at
 * generation g, and with g still current, it must see the mapping of g.
 */
#ifndef XCB_FLUSH_LAZY_H
#define XCB_FLUSH_LAZY_H

#include <stdint.h>

struct cpumask;

/* Per-CPU state (allocated by lazy_init, never freed). */
struct lazy_stats {
	uint64_t entries;		/* lazy_entry() calls */
	uint64_t flushes;		/* of which flushed (or, skipped: would have) */
};

/* Once, before any other call: state for ncpus CPUs. 0, or <0 (no memory). */
int lazy_init(unsigned ncpus);

/* Forget every generation and statistic (between cases; no CPU may be in
 * another lazy_* call). */
void lazy_reset(void);

/* Writer: the PTE changes start now (generation becomes odd). */
void lazy_begin(void);

/* Writer: the PTE changes are done. Marks every CPU in `targets` (bits >=
 * ncpus ignored) to flush at its next entry and returns the new (even)
 * generation. No IPI is sent. */
uint64_t lazy_publish(const struct cpumask *targets);

/* Target: the entry boundary. If marked since the last entry, flush the whole
 * TLB (like INVEPT single-context) — unless `skip` (the no-flush control) —
 * and acknowledge. Returns 1 if it (would have) flushed, else 0. */
int lazy_entry(int skip);

/* The generation this CPU last acknowledged (0 before any). */
uint64_t lazy_seen(void);

/* Writer (or anyone): spin until every CPU in `targets` has acknowledged a
 * generation >= gen — the moment the invalidation took effect everywhere. */
void lazy_wait(const struct cpumask *targets, uint64_t gen);

/* Verification reads, seqlock style:
 *   g = lazy_read_begin();    -- odd: PTEs are changing, do not judge
 *   ... read through the mapping ...
 *   if (lazy_read_quiet(g)) -- nothing changed meanwhile: judge the read
 * The read is then owed the mapping of generation g if lazy_seen() == g. */
uint64_t lazy_read_begin(void);
int lazy_read_quiet(uint64_t g);

/* This CPU's counters (copy). */
void lazy_get_stats(unsigned cpu, struct lazy_stats *out);

#endif
