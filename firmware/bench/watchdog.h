/*
 * watchdog.h - what every CPU is doing, so a call that never completes is reported
 * (who waits on whom, and what each CPU was doing) instead of hanging the run.
 *
 * Each CPU publishes its own record (only it writes it; others read). Initiators
 * stamp call_start before each call and clear it after; callees note whose call they
 * are running. A checker (CPU 0 - between its own calls, or while it waits for the
 * others) compares now - call_start against the bound. Which calls each target has
 * finished comes from the exactly-once ledger (ledger.h).
 */
#ifndef XCB_BENCH_WATCHDOG_H
#define XCB_BENCH_WATCHDOG_H

#include <stdint.h>
#include "lib/cpumask.h"

enum wd_state { WD_IDLE, WD_WAITING_START, WD_CALLING, WD_CALLEE, WD_FLUSHING, WD_RAW,
		WD_FINISHED, WD_WATCHING,
		/* kind=sync (bench/sync.c): the writer's steps, a reader's places */
		WD_SYNC_LOCK, WD_SYNC_SHOOT, WD_SYNC_LAZY, WD_SYNC_VERIFY,
		WD_READ_WAIT, WD_READ_IN, WD_READ_OUT, WD_NR };

struct wd_cpu {
	uint32_t state;			/* enum wd_state */
	uint32_t peer;			/* CALLEE: the initiating CPU */
	uint64_t call_start;		/* cycles; 0 = no call of ours in flight */
	uint64_t call_no;		/* calls issued by this CPU in this case */
	uint64_t since;			/* cycles at the last state change */
	const char *algo;		/* what runs it: the case's algorithm or path ("raw" for a probe) */
	/* NULL while what is in flight is call #call_no, whose targets the ledger
	 * judges; else what it is instead (a string literal: "paired floor probe",
	 * "warm-up call"), so the report names it and gives no ledger verdict on a
	 * call that is not running. Stored before call_start, cleared after it
	 * (relaxed, as the rest of the record). */
	const char *op;
} __attribute__((aligned(64)));		/* one line per CPU: no false sharing */

extern struct wd_cpu wd_cpus[XCB_MAX_CPUS];

static inline void wd_state(unsigned cpu, enum wd_state s, uint64_t now)
{
	/* relaxed: the record is a diagnostic snapshot; the checker tolerates a torn
	 * view (it re-reads before it reports). */
	__atomic_store_n(&wd_cpus[cpu].since, now, __ATOMIC_RELAXED);
	__atomic_store_n(&wd_cpus[cpu].state, (uint32_t)s, __ATOMIC_RELAXED);
}

/* Clears every CPU's activity record (between repetitions). */
void wd_reset(void);
/* Arm with a bound in cycles for the CPUs in `initiators`, with their target masks
 * (targets[k] for the k-th initiator in ascending CPU order); 0 disarms.
 * unjudged: NULL when the ledger judges the calls (the report then names each
 * target behind on the call in flight), else what they are (the kind,
 * "tlb", or "bare harness": no ledger entries, so no "done N/M" that would read as
 * "never ran"). */
void wd_arm(uint64_t bound_cycles, const struct cpumask *initiators,
	    const struct cpumask *targets, const char *unjudged);
/* Check now; on expiry (first time only) report an ERROR frame + console text and
 * return 1. Cheap when nothing is late. */
int wd_check(void);
int wd_fired(void);
/* Appends "what every CPU is doing" (one line per CPU, state and for how long) to
 * buf[n..cap); returns the new length. */
int wd_describe(char *buf, int n, int cap, uint64_t now);
/* The name of a state ("running a callee", ...). */
const char *wd_state_name(uint32_t s);

#endif
