/* arch/cpu.h — CPU primitives: CPUID, control registers, interrupt flag,
 * halt, barriers. Everything here is one instruction or close to it. */
#ifndef XCB_ARCH_CPU_H
#define XCB_ARCH_CPU_H
#include <stdbool.h>
#include <stdint.h>
#include "arch/topology.h" /* struct cpuid_regs */
#include "lib/spinlock.h"  /* cpu_relax, irq_save/irq_restore */

static inline void cpuid_count(uint32_t leaf, uint32_t sub, struct cpuid_regs *r)
{
	__asm__ __volatile__("cpuid" : "=a"(r->eax), "=b"(r->ebx), "=c"(r->ecx), "=d"(r->edx)
			     : "a"(leaf), "c"(sub));
}

static inline void cpuid(uint32_t leaf, struct cpuid_regs *r) { cpuid_count(leaf, 0, r); }

#define DEFINE_CR(n) \
	static inline uint64_t read_cr##n(void) { uint64_t v; __asm__ __volatile__("mov %%cr" #n ", %0" : "=r"(v)); return v; } \
	static inline void write_cr##n(uint64_t v) { __asm__ __volatile__("mov %0, %%cr" #n :: "r"(v) : "memory"); }
DEFINE_CR(0)
DEFINE_CR(2)
DEFINE_CR(3)
DEFINE_CR(4)
#undef DEFINE_CR

#define CR0_MP (1u << 1)
#define CR0_EM (1u << 2)
#define CR0_TS (1u << 3)
#define CR4_PAE (1u << 5)
#define CR4_PGE (1u << 7)
#define CR4_OSFXSR (1u << 9)
#define CR4_OSXMMEXCPT (1u << 10)
#define CR4_PCIDE (1u << 17)

static inline void irq_enable(void) { __asm__ __volatile__("sti" ::: "memory"); }
static inline void irq_disable(void) { __asm__ __volatile__("cli" ::: "memory"); }
static inline bool irq_enabled(void)
{
	unsigned long f;
	__asm__ __volatile__("pushfq; popq %0" : "=r"(f));
	return f & (1UL << 9);
}
/* Halts until the next interrupt, enabling interrupts atomically with the
 * halt (STI's one-instruction shadow), so a wake-up IPI arriving between a
 * check and the halt is never lost. Returns with interrupts disabled. */
static inline void safe_halt_cli(void) { __asm__ __volatile__("sti; hlt; cli" ::: "memory"); }
static inline void __attribute__((noreturn)) cpu_stop(void)
{
	for (;;)
		__asm__ __volatile__("cli; hlt" ::: "memory");
}

/* Compiler-only barrier. */
#define barrier() __asm__ __volatile__("" ::: "memory")
/* Full fence: orders earlier stores before later loads (x86 only reorders that pair). */
static inline void smp_mb(void) { __asm__ __volatile__("mfence" ::: "memory"); }
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))

#endif
