/* arch/vectors.h — the vector plan (see arch/idt.h): the numbers the APIC
 * code programs and the IDT dispatches, below both so neither includes the
 * other for them. */
#ifndef XCB_ARCH_VECTORS_H
#define XCB_ARCH_VECTORS_H

#define VEC_XCALL 0xe0   /* suggested: cross-call function IPI */
#define VEC_FLUSH 0xe8   /* suggested: dedicated TLB-shootdown IPI */
#define VEC_KICK 0xf0    /* wakes an idle AP (smp_start_on) */
#define VEC_TIMER 0xf8   /* APIC timer (watchdog) */
#define VEC_SPURIOUS 0xff

#endif
