/* arch/nmi_probe.h — ask a CPU that takes no interrupt where it is.
 *
 * A CPU that ignores every kick (smp.c's claim wait gives up on it) may be
 * halted with its kick requested but held back by an interrupt in service,
 * running with interrupts off, or never reached by the IPIs at all. An NMI
 * is taken in every one of those states: the CPU notes where it was and what
 * its APIC holds, and the asking CPU prints it. */
#ifndef XCB_ARCH_NMI_PROBE_H
#define XCB_ARCH_NMI_PROBE_H
#include <stdbool.h>
#include "arch/idt.h"

/* Sends cpu an NMI and prints, within ms, what it answered (or that it
 * did not answer): one "xcbench: cpu N (apic A) NMI probe: ..." line.
 * 0 when it answered, -1 when not. */
int nmi_probe(unsigned cpu, unsigned ms);

/* Called by idt_dispatch for vector 2: true when this NMI was a probe for
 * this CPU (answered here), false for any other NMI (a crash, as before). */
bool nmi_probe_answer(const struct irq_frame *f);

#endif
