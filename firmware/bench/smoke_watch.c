/*
 * smoke_watch.c — the xcall smoke's watchdog tick (see smoke_watch.h): the
 * bench watchdog (watchdog.c) armed over the smoke's CPUs, checked from a
 * timer tick on CPU 0.
 */
#include "bench/smoke_watch.h"
#include "bench/benchenv.h"
#include "lib/printf.h"

/* Two whole lines per mask (128 bytes, aligned): a CPU writing its own never
 * shares a line with another's, which the algorithms read inside the call. */
struct cpumask smoke_targets[SMOKE_WATCH_CPUS] __attribute__((aligned(64)));
_Static_assert(sizeof(struct cpumask) % 64 == 0, "each CPU's mask on lines of its own");

/*
 * CPU 0's tick, in interrupt context. Reporting from here is safe: the
 * console lock is taken with interrupts off (lib/printf.c
 * console_lock_take), so the tick never lands while CPU 0 holds it; the
 * smoke sends no frames, so report.c's lock is free (report_error only
 * writes the ERROR line to the console: the smoke starts no transport); and
 * the locks CPU 0 may hold in a call (locked's call_lock, flush's flush_lock)
 * the report never takes. A call that outlived the bound may never return, so
 * the run ends from here, as rep.c's watchdog_tick does.
 */
static void smoke_tick(void)
{
	if (wd_check()) {
		kprintf("xcbench: xcall smoke FAIL a call outlived the watchdog's bound\n");
		benv_exit(BENV_EXIT_FAIL);
	}
}

void smoke_watch_start(unsigned n, uint64_t bound_ms)
{
	struct cpumask all;
	uint64_t now = plat_cycles();

	wd_reset();
	cpumask_clear_all(&all);
	for (unsigned c = 0; c < n && c < SMOKE_WATCH_CPUS; c++) {
		cpumask_set(&all, c);
		/* until it initiates: serving calls from its idle loop (the
		 * report's "for N ms" counts from here, not from boot). CPU 0
		 * writes the APs' records only here, before any AP runs smoke
		 * work: benv_run_all's hand-off orders it before their own. */
		wd_state(c, WD_IDLE, now);
	}
	/* Armed before the tick starts: the tick is the only reader of the
	 * watchdog's settings, and it runs on this CPU. */
	wd_arm(bound_ms * plat_tsc_khz(), &all, smoke_targets, NULL);
	benv_tick_start(bound_ms / 4 ? (unsigned)(bound_ms / 4) : 1, smoke_tick);
}

void smoke_watch_stop(void)
{
	benv_tick_stop();
	wd_arm(0, 0, 0, NULL);
}
