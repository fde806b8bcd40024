/* arch/percpu.c — the per-CPU area and the table of CPUs (arch/percpu.h),
 * and the queries over them; smp.c fills both during bring-up. */
#include "arch/percpu.h"

struct percpu percpu_area[XCB_MAX_CPUS];
/* The BSP is online from the start (smp_init_bsp sets its bit). */
struct cpu_table cpu_table = { .num_online = 1, .num_listed = 1 };

unsigned smp_num_cpus(void) { return cpu_table.num_online; }
unsigned smp_num_listed(void) { return cpu_table.num_listed; }
const struct cpumask *smp_online_mask(void) { return &cpu_table.online; }
uint32_t smp_apic_id(unsigned cpu) { return percpu_area[cpu].apic_id; }
const struct topo *smp_topo(unsigned cpu) { return &percpu_area[cpu].topo; }
bool smp_all_accounted(void) { return cpu_table.accounted; }
