/*
 * benchenv.h - what only bench/ needs from arch/ and lib/, in one place, so the
 * runner reads as benchmark logic and the mapping onto the foundation's API lives in
 * one file (bench/benchenv.c): starting work on a CPU, crashes, topology, machine
 * facts, IPI delivery, the tick, the console and the end. CPU id, spin, clock and
 * memory are the common platform layer (lib/platform.h, included here). Host tests
 * that link report.c provide their own stand-ins for the few functions it uses.
 */
#ifndef XCB_BENCH_BENCHENV_H
#define XCB_BENCH_BENCHENV_H

#include <stdint.h>
#include "lib/platform.h"

struct strbuf;
struct cpumask;

/* ---- CPUs ---- */
/* Run fn(arg) on AP `cpu` (which must be idle). 0, or <0 if it cannot. */
int benv_start_on(unsigned cpu, void (*fn)(void *), void *arg);
/* Physical package of a CPU (topology placements). */
unsigned benv_package_of(unsigned cpu);
/* Whether that CPU took an exception (arch/ parked it); how many did. */
int benv_cpu_crashed(unsigned cpu);
unsigned benv_crash_count(void);
/* Wait until that AP's function returned (0), or it crashed (-1). */
int benv_wait_idle(unsigned cpu);
/* Run fn(arg) on every online CPU, the caller included, and wait for all.
 * 0, or -1 if any CPU crashed. */
int benv_run_all(void (*fn)(void *), void *arg);
/* The spin-wait policy of every wait (lib/spinlock.h cpu_relax()): "pause",
 * "plain", or "auto" = plain under QEMU's TCG (CPUID hypervisor signature
 * "TCGTCGTCGTCG"), pause elsewhere. Call before anything is timed. Returns
 * the policy in force ("pause"/"plain"), or NULL for an unknown word. */
const char *benv_spin_set(const char *policy);

/* ---- console / serial / command line ---- */
void benv_console(const char *s, unsigned len);	/* human text to the console */
void benv_serial(const char *s, unsigned len);	/* raw bytes to COM1 (frames) */
/* The whole payload command line for the HELLO fact, run= and server= masked
 * (it reaches anonymous readers; lib/cmdline.h cmdline_shown). */
const char *benv_cmdline_all(void);
/* 1 when UEFI booted the payload (boot/efi/'s handover), 0 for BIOS (multiboot). */
int benv_booted_uefi(void);

/* Global pages and PCIDs on every CPU where CPUID offers them (before any case);
 * benv_facts() then reports `pge` and `pcid_enabled` as what every CPU has on. */
void benv_tlb_features(void);

/* ---- facts for HELLO (key=value lines) ---- */
void benv_facts(struct strbuf *sb);

/* ---- IPI delivery (decided in the APIC layer) ---- */
enum benv_delivery { DELIV_AUTO, DELIV_UNICAST, DELIV_CLUSTER, DELIV_SHORTHAND, DELIV_NR };
/* Force a delivery mode for the following calls. 0, or <0 when the machine cannot
 * (e.g. cluster outside x2APIC mode); AUTO always works. */
int benv_set_delivery(enum benv_delivery d);
/* The targets' idle state (enum xcb_idle): 0, or -1 where this CPU lacks it
 * (mwait without MONITOR/MWAIT): the policy then stays as it was. */
int benv_set_idle(unsigned idle);
int benv_idle_supported(unsigned idle);
/* The delivery the APIC layer resolves d to for a send of targets from CPU
 * from: "unicast", "x2apic_cluster" or "allbutself", never "auto". */
const char *benv_delivery_used(enum benv_delivery d, const struct cpumask *targets, unsigned from);
/* IPIs this CPU has sent since boot (all kinds); 0 when the APIC layer does not count. */
uint64_t benv_ipis_sent(unsigned cpu);

/* ---- a periodic tick on the calling CPU (APIC timer) ---- */
/* fn runs in interrupt context every period_ms until benv_tick_stop(). */
void benv_tick_start(unsigned period_ms, void (*fn)(void));
void benv_tick_stop(void);

/* ---- crashes and the end ---- */
/* Called on the faulting CPU after arch/ printed its exception report. */
typedef void (*benv_crash_fn)(unsigned cpu, unsigned vector, uint64_t error, uint64_t rip);
void benv_set_crash_hook(benv_crash_fn hook);
/* The exit codes bench/ ends the run with from interrupt context (arch/exit.h's
 * XCB_EXIT_FAIL and XCB_EXIT_CRASH: asserted in benchenv.c). */
#define BENV_EXIT_FAIL 1
#define BENV_EXIT_CRASH 3
/* Power off / exit QEMU with `code` (isa-debug-exit), or halt forever. */
void benv_exit(int code) __attribute__((noreturn));

#endif
