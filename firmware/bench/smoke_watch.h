/*
 * smoke_watch.h — the xcall smoke self-test (bench/smoke.c) under the bench's
 * watchdog (bench/watchdog.h), so a call or shootdown that never completes —
 * a lost IPI — ends the run within a bound with the watchdog's report (an
 * ERROR naming whom the wait spins on) and exit code 1, instead of hanging
 * until QEMU's time limit.
 *
 * The smoke stamps each call's record around it, outside its timed window
 * (smoke_watch_begin / _end: a few stores to the CPU's own record line); its
 * waits cost what they cost in the bench (the note's compare a turn,
 * xcall/platform.h). The check is a tick on CPU 0, where the smoke runs and
 * where it waits for the others (benv_run_all), interrupts on throughout.
 */
#ifndef XCB_BENCH_SMOKE_WATCH_H
#define XCB_BENCH_SMOKE_WATCH_H

#include <stdint.h>
#include "bench/watchdog.h"
#include "lib/cpumask.h"
#include "lib/platform.h"

/* CPUs the smoke watches (its concurrent part uses CPUs 0..63). */
#define SMOKE_WATCH_CPUS 64

/*
 * The mask each initiating CPU is calling now, which the report judges
 * against the ledger (watchdog.c: "cpuN waits on: cpuT(done a/b)"): CPU k's
 * is smoke_targets[k] (every CPU below SMOKE_WATCH_CPUS initiates, so the
 * k-th initiator is CPU k, ledger slot k — the smoke's numbering). Each CPU
 * writes only its own, before it stamps the call; the report reads it racily
 * (a diagnostic).
 */
extern struct cpumask smoke_targets[SMOKE_WATCH_CPUS];

/* Arm the watchdog over CPUs 0..min(n, SMOKE_WATCH_CPUS)-1 with a bound of
 * `bound_ms` and start its tick on this CPU (CPU 0). */
void smoke_watch_start(unsigned n, uint64_t bound_ms);
/* Stop the tick and disarm. */
void smoke_watch_stop(void);

/*
 * Before a call or shootdown of `cpu`, untimed: what runs it (`algo`), and
 * either its ledger number `no` (op NULL: the ledger judges it) or what it is
 * instead (`op`: "warm-up call", "shootdown"; no ledger verdict). relaxed: a
 * diagnostic record (watchdog.h); op and call_no before call_start, which x86
 * keeps in order, so a checker that sees the start sees the label.
 */
static inline void smoke_watch_begin(unsigned cpu, const char *algo, const char *op, uint64_t no,
				     enum wd_state st)
{
	struct wd_cpu *w = &wd_cpus[cpu];
	uint64_t t0 = plat_cycles();

	__atomic_store_n(&w->algo, algo, __ATOMIC_RELAXED);
	__atomic_store_n(&w->op, op, __ATOMIC_RELAXED);
	__atomic_store_n(&w->call_no, no, __ATOMIC_RELAXED);
	__atomic_store_n(&w->call_start, t0, __ATOMIC_RELAXED);
	wd_state(cpu, st, t0);
}

/* After it returned: no call in flight. relaxed, as above. */
static inline void smoke_watch_end(unsigned cpu)
{
	__atomic_store_n(&wd_cpus[cpu].call_start, 0, __ATOMIC_RELAXED);
}

#endif
