/* arch/apic.h — the local APIC in xAPIC (MMIO) or x2APIC (MSR) mode.
 *
 * apic=auto|xapic|x2apic on the command line; auto = x2APIC when CPUID offers
 * it. Asking for x2apic on a CPU without it is a configuration error.
 *
 * IPI delivery for masks is decided HERE, by a policy the benchmark sets with
 * apic_set_delivery():
 *   UNICAST    one ICR write per destination (physical destination mode);
 *   CLUSTER    x2APIC logical cluster mode: one ICR write per 16-CPU cluster,
 *              clusters grouped once at boot (apic_setup_clusters), not per
 *              send (falls back to UNICAST in xAPIC mode);
 *   SHORTHAND  the all-but-self (or all-including-self) destination shorthand,
 *              only when the mask is exactly that set AND smp_all_accounted()
 *              (seed 001: the shorthand also hits CPUs we did not start, so it
 *              is only safe when every CPU the firmware listed is online and
 *              known to us); otherwise falls back to UNICAST;
 *   AUTO       SHORTHAND when it applies, else CLUSTER in x2APIC mode, else
 *              UNICAST.
 * apic_delivery_resolve() says which of UNICAST/CLUSTER/SHORTHAND a send of
 * a mask would use (never AUTO): results name that, not the request.
 * Each CPU counts its own ICR writes and targets (struct percpu).
 *
 * Firmware may hand over with x2APIC on: apic=auto keeps it; apic=xapic
 * leaves it on every CPU with the legal two-step (x2APIC -> disabled ->
 * xAPIC), or stops with an error when IA32_XAPIC_DISABLE_STATUS says it is
 * locked. Test key x2apic_handover=1 makes every CPU turn x2APIC on first. */
#ifndef XCB_ARCH_APIC_H
#define XCB_ARCH_APIC_H
#include <stdbool.h>
#include <stdint.h>
#include "lib/cpumask.h"
#include "xcb_schema.h"	/* enum xcb_delivery */

enum apic_mode { APIC_MODE_XAPIC = 1, APIC_MODE_X2APIC = 2 };


/* xAPIC register offsets (x2APIC MSR = 0x800 + offset/16). */
#define APIC_ID 0x020
#define APIC_VERSION 0x030
#define APIC_TPR 0x080
#define APIC_PPR 0x0a0
#define APIC_EOI 0x0b0
#define APIC_LDR 0x0d0
#define APIC_SVR 0x0f0
#define APIC_ISR 0x100 /* 8 registers of 32 vectors, 0x10 apart */
#define APIC_IRR 0x200 /* likewise */
#define APIC_ESR 0x280
#define APIC_ICR_LO 0x300
#define APIC_ICR_HI 0x310
#define APIC_LVT_TIMER 0x320
#define APIC_LVT_LINT0 0x350
#define APIC_LVT_LINT1 0x360
#define APIC_LVT_ERROR 0x370
#define APIC_TIMER_INIT 0x380
#define APIC_TIMER_CUR 0x390
#define APIC_TIMER_DIV 0x3e0

/* Initialise the BSP's APIC: mode from "auto|xapic|x2apic". 0 ok, -1 error. */
int apic_init_bsp(const char *mode);
/* Same mode on an AP (called on the AP itself). */
void apic_init_ap(void);
/* How many APs left x2APIC for xAPIC with the two-step at bring-up. */
unsigned apic_aps_left_x2apic(void);
/* Groups the online CPUs by x2APIC cluster (after AP bring-up; smp.c). */
void apic_setup_clusters(void);
enum apic_mode apic_mode(void);
const char *apic_mode_name(void);
uint32_t apic_read(uint32_t reg);
void apic_write(uint32_t reg, uint32_t v);
/* This CPU's APIC ID (full 32 bits in x2APIC mode). */
uint32_t apic_id_self(void);
void apic_eoi(void);

/* Fixed-vector IPIs, by logical CPU number. */
void apic_send_ipi(unsigned cpu, uint8_t vector);
void apic_send_ipi_mask(const struct cpumask *mask, uint8_t vector);
void apic_set_delivery(enum xcb_delivery d);
/* The delivery a send of mask from from_cpu uses under the current policy:
 * UNICAST, CLUSTER or SHORTHAND, never AUTO. */
enum xcb_delivery apic_delivery_resolve(const struct cpumask *mask, unsigned from_cpu);

/* Wake-up IPI (VEC_KICK) to an idle AP; not counted in the IPI statistics. */
void apic_kick(unsigned cpu);
/* An NMI to cpu (arch/nmi_probe.c asks a CPU that takes no interrupt where
 * it is); not counted in the IPI statistics. */
void apic_send_nmi(unsigned cpu);
/* This CPU's highest in-service and highest requested vector (-1: none). */
int apic_highest_isr(void);
int apic_highest_irr(void);
/* Start-up IPIs by APIC ID (smp.c). */
void apic_send_init(uint32_t apic_id);
void apic_send_sipi(uint32_t apic_id, uint8_t page);

/* One-shot APIC timer on this CPU: fires 'vector' after us microseconds.
 * apic_timer_stop() cancels. Calibrated against the TSC (tsc_init first). */
void apic_timer_calibrate(void);
void apic_timer_oneshot(uint64_t us, uint8_t vector);
void apic_timer_stop(void);
extern uint64_t apic_timer_khz;

#endif
