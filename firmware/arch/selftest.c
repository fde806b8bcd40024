/* arch/selftest.c — boot-time self-checks (arch/selftest.h). */
#include "arch/selftest.h"
#include "arch/apic.h"
#include "arch/cpu.h"
#include "arch/idt.h"
#include "arch/mem.h"
#include "arch/paging.h"
#include "arch/tsc.h"
#include "lib/printf.h"

static volatile unsigned timer_fired;

static void timer_handler(struct irq_frame *f)
{
	(void)f;
	timer_fired++;
	apic_eoi();
}

static int check_window(void)
{
	uint64_t *a = page_alloc(1), *b = page_alloc(1);
	if (!a || !b)
		return -1;
	a[0] = 0xaaaa5555aaaa5555ULL;
	b[0] = 0x1234567887654321ULL;
	uint64_t va = PAGING_TEST_WINDOW + PAGING_TEST_WINDOW_SIZE - 4096; /* last window page */
	volatile uint64_t *p = (volatile uint64_t *)(uintptr_t)va;
	if (paging_map_4k(va, (uintptr_t)a, PTE_P | PTE_W))
		return -1;
	invlpg(p);
	uint64_t first = *p; /* the TLB now holds va -> a */
	volatile uint64_t *pte = paging_pte(va);
	if (!pte)
		return -1;
	*pte = (uintptr_t)b | PTE_P | PTE_W;
	invlpg(p);
	uint64_t second = *p;
	*pte = 0;
	invlpg(p);
	if (first != a[0] || second != b[0]) {
		kprintf("xcbench: selftest: test window read 0x%lx then 0x%lx, expected 0x%lx then 0x%lx\n",
			(unsigned long)first, (unsigned long)second, (unsigned long)a[0], (unsigned long)b[0]);
		return -1;
	}
	return 0;
}

static int check_timer(void)
{
	idt_set_handler(VEC_TIMER, timer_handler);
	timer_fired = 0;
	apic_timer_oneshot(1000, VEC_TIMER);
	uint64_t end = rdtsc() + 200 * tsc_khz; /* 200 ms: generous under TCG */
	unsigned long f = irq_save();
	irq_enable();
	while (!timer_fired && (int64_t)(rdtsc() - end) < 0)
		cpu_relax();
	irq_restore(f);
	apic_timer_stop();
	idt_set_handler(VEC_TIMER, NULL);
	return timer_fired == 1 ? 0 : -1;
}

int arch_selftest(void)
{
	int w = check_window(), t = check_timer();
	kprintf("xcbench: selftest test-window %s, apic timer %s (%lu kHz)\n", w ? "FAILED" : "ok",
		t ? "FAILED" : "ok", (unsigned long)apic_timer_khz);
	return w || t ? -1 : 0;
}
