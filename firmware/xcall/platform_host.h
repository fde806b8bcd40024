/*
 * platform_host.h — the host shim's own controls (tests only): threads as
 * CPUs. Not part of the payload.
 */
#ifndef XCB_XCALL_PLATFORM_HOST_H
#define XCB_XCALL_PLATFORM_HOST_H

#include <stdint.h>

/* Set up ncpus simulated CPUs; the calling thread becomes CPU 0 (for init). */
int plat_host_init(unsigned ncpus);

/*
 * Run fn(cpu, arg) on every simulated CPU at once (one thread each, with
 * interrupts enabled). A CPU whose fn returned keeps serving IPIs until all
 * have returned, then serves what is still pending, and exits. Returns once
 * all threads are joined; the calling thread is CPU 0 again afterwards.
 */
void plat_host_run(void (*fn)(unsigned cpu, void *arg), void *arg);

/* 1 if this CPU is running an IPI handler (fault injection: a send from
 * a handler is a forward). */
int plat_host_in_handler(void);
/* IPIs sent and not yet served to the end (0 between plat_host_run()s). */
uint64_t plat_host_inflight(void);
/* IPIs sent since init (all kinds, all CPUs). */
uint64_t plat_host_ipis(void);
/* IPIs of one kind (enum plat_ipi) sent since init, all CPUs. */
uint64_t plat_host_ipis_of(unsigned kind);

/* Test control: CPUs in `mask` (bit = CPU, first 64) keep no translation in
 * their TLB (every read walks the page table), as a platform that drops primed
 * translations would; 0 = every CPU caches (the default). */
void plat_host_tlb_nocache(uint64_t mask);

#endif
