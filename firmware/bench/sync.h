/*
 * sync.h - kind=sync (seed 002): a TLB shootdown inside a write lock, after it,
 * or lazily at the targets' next entry, measured by what the lock's readers wait.
 */
#ifndef XCB_BENCH_SYNC_H
#define XCB_BENCH_SYNC_H

#include "bench/runner.h"

/* One repetition of a sync case: the writer on CPU `writer` (the calling CPU,
 * or another one, which the caller then supervises), `t` the shootdown
 * targets, `readers` the lock's readers (the targets themselves, or CPUs of
 * their own); every wait is bounded by wd_cycles (0: the case's own bound).
 * Emits its RESULT and HISTO frames; *p50 and *mean get the all-readers wait.
 * 0, or <0 when it cannot run (no memory, a reader or writer that could not
 * start or never finished: reported). */
int sync_rep(const struct bcase *c, unsigned rep, unsigned writer, const struct cpumask *t,
	     const struct cpumask *readers, uint64_t wd_cycles, struct case_summary *sum,
	     uint64_t *p50, uint64_t *mean);

#endif
