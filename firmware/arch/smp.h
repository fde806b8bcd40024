/* arch/smp.h — CPUs: logical numbering, per-CPU data, bring-up, and running a
 * function on an AP.
 *
 * Logical CPU numbers: 0 = BSP, 1..smp_num_cpus()-1 = the APs that came
 * online, in MADT order; CPUs the MADT lists that did not come online get the
 * numbers after those (smp_num_listed()), for reporting only.
 *
 * Per-CPU data and the table of CPUs (arch/percpu.h, included) are below
 * this module, so the APIC and IDT code read them without including smp.h;
 * smp.c fills them during bring-up.
 *
 * Idle APs sit in "sti; hlt" with interrupts enabled. smp_start_on(cpu, fn,
 * arg) hands fn to an idle AP and wakes it with a kick IPI (VEC_KICK); fn runs
 * there with interrupts ENABLED; smp_wait_idle(cpu) waits for it to return. */
#ifndef XCB_ARCH_SMP_H
#define XCB_ARCH_SMP_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "arch/percpu.h"
#include "arch/topology.h"
#include "lib/cpumask.h"
#include "xcb_schema.h"	/* enum xcb_idle */

/* Where the AP trampoline is copied (SIPI needs a page below 1 MiB): the
 * UEFI entry (boot/efi/main.c) reserves this page before ExitBootServices. */
#define SMP_TRAMP_BASE 0x8000u

/* Boot: the BSP's per-CPU data (call first), then the APs: 0, or -1
 * after a bad number in one of its command-line keys (said). */
void smp_init_bsp(void);
int smp_boot_aps(void);
/* Prints the per-CPU "xcbench: cpu N apic ..." lines. */
void smp_report(void);

/* Run fn(arg) on an idle, online AP (not the caller). 0 ok; -1 if cpu is not
 * online, is the caller, has crashed, or is still busy. */
int smp_start_on(unsigned cpu, void (*fn)(void *), void *arg);
/* Waits until cpu's fn returned. 0 ok; -1 if that CPU crashed, or never took
 * the job (kicked again every 20 ms, taken back after 10 s: it never runs). */
int smp_wait_idle(unsigned cpu);
/* How many kicks smp_wait_idle sent again because a job sat unclaimed. */
unsigned smp_rekicks(void);
/* Runs fn(arg) on every online CPU (APs and the caller) and waits for all.
 * Returns 0, or -1 if any CPU crashed. */
int smp_run_all(void (*fn)(void *), void *arg);

/* Per-CPU setup shared by BSP and APs (GDT/TSS, IDT, GS base, SSE). */
void cpu_init_common(unsigned cpu);

#endif
/* What an idle AP does between jobs (and so what a cross-call target does
 * between calls): HLT (the default: "sti; hlt"), MWAIT on its job word
 * (where CPUID offers MONITOR/MWAIT), or POLL (spins with interrupts on,
 * Linux's idle=poll). Set on CPU 0 between cases; an AP takes it at its next
 * wake-up. The policy is proto/xcb_schema.h's enum xcb_idle. */
/* 1 if this CPU can idle that way. */
bool smp_idle_supported(enum xcb_idle m);
/* Set the policy: 0, or -1 (policy unchanged) when not supported. */
int smp_set_idle(enum xcb_idle m);
