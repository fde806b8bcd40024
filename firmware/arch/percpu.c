/* arch/percpu.c — the per-CPU area and the table of CPUs (arch/percpu.h),
 * and the queries over them; smp.c fills both during bring-up. */
#include "arch/percpu.h"

struct percpu percpu_area[XCB_MAX_CPUS];
/* The BSP is online from the start (smp_init_bsp sets its bit). */
struct cpu_table cpu_table = { .num_online = 1, .num_listed = 1 };

unsigned smp_num_cpus(void) { return cpu_table.num_online; }
unsigned smp_num_listed(void) { return cpu_table.num_listed; }
const struct cpumask *smp_online_mask(void) { return &cpu_table.online; }
bool smp_cpu_online(unsigned cpu) { return cpumask_test(&cpu_table.online, cpu); }
uint32_t smp_apic_id(unsigned cpu) { return percpu_area[cpu].apic_id; }
const struct topo *smp_topo(unsigned cpu) { return &percpu_area[cpu].topo; }
bool smp_all_accounted(void) { return cpu_table.accounted; }

int smp_cpu_of_apic(uint32_t apic_id)
{
	for (unsigned c = 0; c < cpu_table.num_online; c++)
		if (percpu_area[c].apic_id == apic_id)
			return (int)c;
	return -1;
}
