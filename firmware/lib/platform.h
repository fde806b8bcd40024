/*
 * lib/platform.h — the one platform layer: what the algorithms (xcall/,
 * flush/), bench/ and net/ need from the machine that every room needs alike
 * — which CPU am I, how many are there, the body of a spin-wait, the clock,
 * interrupt state and zeroed init-time memory. Declared here, below every
 * room that calls it; implemented twice:
 *   arch/platform.c        — the payload (arch/smp, the TSC, the page allocator);
 *   xcall/platform_host.c  — host tests: pthreads as CPUs (with its IPI and TLB
 *                            model, xcall/platform.h); a test that needs no
 *                            threads may define the few it uses itself (a
 *                            simulated clock, test_net_stack.c).
 * What only one room needs stays in that room: IPI kinds and the TLB test
 * window (xcall/platform.h), CPU start/crash/facts/delivery (bench/benchenv.h),
 * MMIO mappings, the log line and the command line (net/netenv.h).
 */
#ifndef XCB_LIB_PLATFORM_H
#define XCB_LIB_PLATFORM_H

#include <stdint.h>

/* Logical CPU id of the caller (0 = BSP) and how many CPUs are online. */
unsigned plat_cpu_id(void);
unsigned plat_num_cpus(void);

/*
 * Body of every spin-wait loop. hw: cpu_relax() under the `spin=` policy
 * (lib/spinlock.h; interrupts are on, so IPIs arrive by themselves). host:
 * also services this thread's pending IPIs if its simulated interrupt flag
 * is set — exactly what a real CPU spinning with interrupts enabled does.
 */
void plat_cpu_relax(void);

/* Serialised cycle counter (hw: rdtsc_ordered). */
uint64_t plat_cycles(void);
/* Unserialised cycle counter (hw: plain RDTSC, no fences): for profiles
 * taken inside a critical section, where a serialising read would stall
 * the very code being profiled. May run a few instructions early or late. */
uint64_t plat_cycles_fast(void);
/* Cycles per millisecond (hw: the calibrated TSC kHz, 0 before calibration;
 * host: 1000000, its cycles are nanoseconds). */
uint64_t plat_tsc_khz(void);
/* Monotonic microseconds from the cycle counter (unserialised: timeouts). */
uint64_t plat_now_us(void);

/* Interrupt-enable state of this CPU (simulated on the host). */
int  plat_irqs_enabled(void);
void plat_irq_enable(void);
unsigned long plat_irq_save(void);		/* disable, return old state */
void plat_irq_restore(unsigned long flags);

/* Zeroed, page-aligned memory for init-time tables, never freed; NULL if
 * none is left. hw: the page allocator, identity-mapped, so the pointer is
 * also the bus address a device may DMA to (net/). host: calloc. */
void *plat_alloc_zeroed(unsigned long bytes);

#endif
