/* arch/idt.h — interrupts and exceptions.
 *
 * Every one of the 32 exceptions prints vector, name, error code, RIP, CR2,
 * RSP and the CPU ("xcbench: EXCEPTION ..." lines), then stops that CPU:
 *  - on the BSP: calls the crash hook and exits with XCB_EXIT_CRASH;
 *  - on an AP: marks it crashed (percpu->crashed, idt_crashed_mask()), calls
 *    the crash hook, and parks it with interrupts off. smp_wait_idle() on that
 *    CPU then returns -1 instead of hanging.
 * A handler set with idt_set_handler() for an exception vector replaces this.
 *
 * Interrupt vectors (>= 32): idt_set_handler(vector, fn); fn runs with
 * interrupts disabled on the interrupted stack. The handler must call
 * apic_eoi() itself (when it is done with whatever the EOI would reopen).
 *
 * Vector plan: 0x20-0x2f legacy PIC (masked; spurious ones ignored),
 * 0x30-0xdf free for upper layers, VEC_XCALL/VEC_FLUSH suggested below,
 * 0xf0 kick (smp.c), 0xf8 APIC timer/watchdog, 0xff APIC spurious. */
#ifndef XCB_ARCH_IDT_H
#define XCB_ARCH_IDT_H
#include <stdint.h>
#include "lib/cpumask.h"

#include "arch/vectors.h"	/* VEC_*: the vector plan */

struct irq_frame {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8, rbp, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t vector, error; /* error: the CPU's for exceptions, undefined for interrupts */
	uint64_t rip, cs, rflags, rsp, ss; /* pushed by the CPU */
};

typedef void (*irq_handler_t)(struct irq_frame *f);
typedef void (*crash_hook_t)(unsigned cpu, const struct irq_frame *f);

void idt_init(void);   /* builds the table once (BSP) */
void idt_load(void);   /* lidt on this CPU */
void idt_set_handler(uint8_t vector, irq_handler_t fn);
/* Called on the crashing CPU after the report is printed (e.g. to send an
 * ERROR frame). Must not fault; may run while other CPUs still work. */
void idt_set_crash_hook(crash_hook_t fn);
const struct cpumask *idt_crashed_mask(void);
unsigned idt_crash_count(void);
const char *idt_exception_name(unsigned vector);

#endif
