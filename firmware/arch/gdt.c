/* arch/gdt.c — one small GDT per CPU (null, code, data, its own TSS)
 * (arch/gdt.h). Per-CPU tables rather than one shared table with a TSS slot
 * per CPU: the GDT limit is 16 bits (8192 descriptors, 4095 TSSs), so a shared
 * table could not follow XCB_MAX_CPUS past 4095; five entries per CPU scale to
 * any count. The selectors are the same on every CPU. */
#include "arch/gdt.h"
#include "lib/cpumask.h"
#include "lib/string.h"

struct tss {
	uint32_t rsvd0;
	uint64_t rsp[3];
	uint64_t rsvd1;
	uint64_t ist[7];
	uint64_t rsvd2;
	uint16_t rsvd3;
	uint16_t iomap_base;
} __attribute__((packed));

#define GDT_TSS0 3     /* the TSS slot (16 bytes = 2 entries) */
#define GDT_ENTRIES 5
/* In .bss (zeroes would otherwise sit in the image); each CPU fills its own. */
static uint64_t gdts[XCB_MAX_CPUS][GDT_ENTRIES] __attribute__((aligned(16)));
static struct tss tss[XCB_MAX_CPUS] __attribute__((aligned(16)));

void gdt_load_cpu(unsigned cpu, uintptr_t ist_stack_top)
{
	struct tss *t = &tss[cpu];
	uint64_t *gdt = gdts[cpu];
	gdt[1] = 0x00af9a000000ffffULL; /* 0x08: 64-bit code */
	gdt[2] = 0x00cf92000000ffffULL; /* 0x10: data */
	memset(t, 0, sizeof(*t));
	t->ist[IST_CRITICAL - 1] = ist_stack_top;
	t->iomap_base = sizeof(*t);
	uint64_t base = (uintptr_t)t, limit = sizeof(*t) - 1;
	unsigned slot = GDT_TSS0;
	/* Each CPU writes only its own table: no lock needed. */
	gdt[slot] = (limit & 0xffff) | ((base & 0xffffff) << 16) | (0x89ULL << 40) |
		    (((limit >> 16) & 0xf) << 48) | (((base >> 24) & 0xff) << 56);
	gdt[slot + 1] = base >> 32;

	struct {
		uint16_t limit;
		uint64_t base;
	} __attribute__((packed)) gdtr = { sizeof(gdts[0]) - 1, (uintptr_t)gdt };
	__asm__ __volatile__(
		"lgdt %0\n\t"
		"pushq $0x08\n\t"
		"leaq 1f(%%rip), %%rax\n\t"
		"pushq %%rax\n\t"
		"lretq\n"
		"1:\n\t"
		"movl $0x10, %%eax\n\t"
		"movl %%eax, %%ds\n\t"
		"movl %%eax, %%es\n\t"
		"movl %%eax, %%ss\n\t"
		:: "m"(gdtr) : "rax", "memory");
	uint16_t sel = (uint16_t)(slot * 8);
	__asm__ __volatile__("ltr %0" :: "r"(sel));
}
