/*
 * arch/platform.c — lib/platform.h for the payload: logical CPU ids from
 * arch/smp, the spin policy's cpu_relax(), TSC reads, interrupt state and
 * the page allocator. (The host tests' implementation: xcall/platform_host.c.)
 */
#include "lib/platform.h"
#include "arch/cpu.h"
#include "arch/mem.h"
#include "arch/smp.h"
#include "arch/tsc.h"

unsigned plat_cpu_id(void) { return smp_cpu_id(); }
unsigned plat_num_cpus(void) { return smp_num_cpus(); }

/* Interrupts are enabled while we spin (the callers' rule), so IPIs arrive
 * on their own; cpu_relax() only eases the spin, as the `spin=` policy says. */
void plat_cpu_relax(void) { cpu_relax(); }

uint64_t plat_cycles(void) { return rdtsc_ordered(); }
uint64_t plat_cycles_fast(void) { return rdtsc(); }
uint64_t plat_tsc_khz(void) { return tsc_khz; }

uint64_t plat_now_us(void)
{
	/* tsc_khz is calibrated before the network comes up; cycles / (kHz /
	 * 1000) = µs. Split to avoid overflowing rdtsc() * 1000 on long uptimes. */
	uint64_t t = rdtsc(), khz = tsc_khz ? tsc_khz : 1000000;
	return t / khz * 1000 + t % khz * 1000 / khz;
}

int plat_irqs_enabled(void) { return irq_enabled(); }
void plat_irq_enable(void) { irq_enable(); }
unsigned long plat_irq_save(void) { return irq_save(); }
void plat_irq_restore(unsigned long flags) { irq_restore(flags); }

void *plat_alloc_zeroed(unsigned long bytes)
{
	return page_alloc((bytes + PAGE_SIZE - 1) / PAGE_SIZE);
}
