/* arch/percpu.h — per-CPU data and the table of CPUs: what the APIC, the IDT
 * and the layers above read about CPUs, below smp.c (the bring-up, which
 * fills both) so that apic.c and idt.c need not include smp.h.
 *
 * Per-CPU data is reached through GS base: smp_cpu_id() and this_cpu() are one
 * load. struct percpu has slots for the upper layers (PERCPU_SLOT_*). */
#ifndef XCB_ARCH_PERCPU_H
#define XCB_ARCH_PERCPU_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "arch/topology.h"
#include "lib/cpumask.h"

enum percpu_slot {
	PERCPU_SLOT_XCALL = 0,
	PERCPU_SLOT_FLUSH = 1,
	PERCPU_SLOT_BENCH = 2,
	PERCPU_SLOT_NET = 3,
	PERCPU_SLOTS = 8, /* 4..7 free */
};

struct percpu {
	struct percpu *self;           /* offset 0: this_cpu() loads it via %gs */
	uint32_t cpu;                  /* offset 8: logical number */
	uint32_t apic_id;
	uint32_t x2apic_ldr;           /* logical destination (x2APIC mode) */
	struct topo topo;
	uintptr_t stack_top;
	uintptr_t ist_top;             /* its IST stack (#DF, NMI, #MC) */
	const struct cpumask *cluster; /* x2APIC: the online CPUs of its cluster (apic.c, at boot) */
	/* smp_start_on protocol (see smp.c for the ordering argument) */
	void (*volatile work_fn)(void *);
	void *volatile work_arg;
	volatile uint32_t busy;        /* 1 from smp_start_on until fn returned */
	uint64_t posted_tsc;           /* when work_fn was posted (its waiter's clock) */
	volatile uint32_t crashed;     /* set by the exception handler */
	/* IPI accounting, written only by this CPU (apic.c) */
	uint64_t ipi_icr_writes;       /* ICR writes (one per unicast, cluster or shorthand send) */
	uint64_t ipi_targets;          /* destination CPUs addressed */
	uint64_t irqs;                 /* interrupts taken (all vectors >= 32) */
	void *slot[PERCPU_SLOTS];
} __attribute__((aligned(64)));

extern struct percpu percpu_area[XCB_MAX_CPUS];

static inline struct percpu *this_cpu(void)
{
	struct percpu *p;
	__asm__ __volatile__("movq %%gs:0, %0" : "=r"(p));
	return p;
}

static inline unsigned smp_cpu_id(void)
{
	uint32_t id;
	__asm__ __volatile__("movl %%gs:%c1, %0" : "=r"(id) : "i"(offsetof(struct percpu, cpu)));
	return id;
}

static inline struct percpu *percpu(unsigned cpu) { return &percpu_area[cpu]; }

unsigned smp_num_cpus(void);          /* online CPUs */
unsigned smp_num_listed(void);        /* every CPU the MADT listed */
const struct cpumask *smp_online_mask(void);
uint32_t smp_apic_id(unsigned cpu);
const struct topo *smp_topo(unsigned cpu);
/* True when every CPU the MADT listed as enabled is online and all listed
 * CPUs fit our tables: the condition for the all-but-self shorthand. */
bool smp_all_accounted(void);

/* The table of CPUs, written only by smp.c on the BSP during bring-up (before
 * any AP runs code that reads it; an AP's own online bit is set atomically by
 * that AP, cpumask_set_atomic, and read with cpumask_test_atomic). */
struct cpu_table {
	struct cpumask online;
	unsigned num_online, num_listed;
	bool accounted;
};
extern struct cpu_table cpu_table;

#endif
