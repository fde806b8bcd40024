/* arch/smp.h — CPUs: logical numbering, per-CPU data, bring-up, and running a
 * function on an AP.
 *
 * Logical CPU numbers: 0 = BSP, 1..smp_num_cpus()-1 = the APs that came
 * online, in MADT order; CPUs the MADT lists that did not come online get the
 * numbers after those (smp_num_listed()), for reporting only.
 *
 * Per-CPU data is reached through GS base: smp_cpu_id() and this_cpu() are one
 * load. struct percpu has slots for the upper layers (PERCPU_SLOT_*).
 *
 * Idle APs sit in "sti; hlt" with interrupts enabled. smp_start_on(cpu, fn,
 * arg) hands fn to an idle AP and wakes it with a kick IPI (VEC_KICK); fn runs
 * there with interrupts ENABLED; smp_wait_idle(cpu) waits for it to return. */
#ifndef XCB_ARCH_SMP_H
#define XCB_ARCH_SMP_H
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
bool smp_cpu_online(unsigned cpu);
uint32_t smp_apic_id(unsigned cpu);
const struct topo *smp_topo(unsigned cpu);
/* Logical number of an APIC ID, or -1. */
int smp_cpu_of_apic(uint32_t apic_id);
/* True when every CPU the MADT listed as enabled is online and all listed
 * CPUs fit our tables: the condition for the all-but-self shorthand. */
bool smp_all_accounted(void);

/* Boot: the BSP's per-CPU data (call first), then the APs. */
void smp_init_bsp(void);
void smp_boot_aps(void);
/* Prints the per-CPU "xcbench: cpu N apic ..." lines. */
void smp_report(void);

/* Run fn(arg) on an idle, online AP (not the caller). 0 ok; -1 if cpu is not
 * online, is the caller, has crashed, or is still busy. */
int smp_start_on(unsigned cpu, void (*fn)(void *), void *arg);
/* Waits until cpu's fn returned. 0 ok, -1 if that CPU crashed. */
int smp_wait_idle(unsigned cpu);
/* What an idle AP does between jobs (and so what a cross-call target does
 * between calls): HLT (the default: "sti; hlt"), MWAIT on its job word
 * (where CPUID offers MONITOR/MWAIT), or POLL (spins with interrupts on,
 * Linux's idle=poll). Set on CPU 0 between cases; an AP takes it at its next
 * wake-up. The order is proto/xcb_schema.h's idle vocabulary. */
enum smp_idle { SMP_IDLE_HLT, SMP_IDLE_MWAIT, SMP_IDLE_POLL, SMP_IDLE_NR };
/* 1 if this CPU can idle that way. */
bool smp_idle_supported(enum smp_idle m);
/* Set the policy: 0, or -1 (policy unchanged) when not supported. */
int smp_set_idle(enum smp_idle m);
bool smp_is_idle(unsigned cpu);
/* Runs fn(arg) on every online CPU (APs and the caller) and waits for all.
 * Returns 0, or -1 if any CPU crashed. */
int smp_run_all(void (*fn)(void *), void *arg);

/* Per-CPU setup shared by BSP and APs (GDT/TSS, IDT, GS base, SSE). */
void cpu_init_common(unsigned cpu);

#endif
