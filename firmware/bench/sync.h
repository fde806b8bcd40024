/*
 * sync.h - kind=sync (seed 002): a TLB shootdown inside a write lock, after it,
 * or lazily at the targets' next entry, measured by what the lock's readers wait.
 */
#ifndef XCB_BENCH_SYNC_H
#define XCB_BENCH_SYNC_H

#include "bench/runner.h"

/* One repetition of a sync case: the writer is the calling CPU (CPU 0), `t` the
 * targets, who are also the readers; every wait is bounded by wd_cycles (0: the
 * case's own bound). Emits its RESULT and HISTO frames; *p50 and *mean get the
 * all-readers wait. 0, or <0 when it cannot run (no memory, a reader that could
 * not start or never finished: reported). */
int sync_rep(const struct bcase *c, unsigned rep, const struct cpumask *t, uint64_t wd_cycles,
	     struct case_summary *sum, uint64_t *p50, uint64_t *mean);

#endif
