/* arch/gdt.h — the GDT (64-bit code/data + one TSS per CPU). The TSS gives
 * each CPU a separate IST stack for #DF, NMI and #MC, so a stack overflow is
 * reported instead of triple-faulting. */
#ifndef XCB_ARCH_GDT_H
#define XCB_ARCH_GDT_H
#include <stdint.h>

#define GDT_KCODE 0x08
#define GDT_KDATA 0x10
#define IST_CRITICAL 1 /* IST index used for #DF, NMI, #MC */

/* Loads the GDT and this CPU's TSS (ist_stack_top: top of its IST stack). */
void gdt_load_cpu(unsigned cpu, uintptr_t ist_stack_top);

#endif
