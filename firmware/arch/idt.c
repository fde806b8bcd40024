/* arch/idt.c — IDT setup, dispatch and the exception report (arch/idt.h). */
#include "arch/idt.h"
#include "arch/apic.h"
#include "arch/cpu.h"
#include "arch/exit.h"
#include "arch/gdt.h"
#include "arch/nmi_probe.h"
#include "arch/percpu.h"
#include "lib/printf.h"

struct idt_gate {
	uint16_t off0, sel;
	uint8_t ist, type;
	uint16_t off1;
	uint32_t off2, rsvd;
} __attribute__((packed));

extern char isr_stubs[], irq_stubs[];
static struct idt_gate idt[256] __attribute__((aligned(16)));
static irq_handler_t handlers[256];
static crash_hook_t crash_hook;
static struct cpumask crashed;
static unsigned crash_count;

static const char *const exc_names[32] = {
	"#DE divide error", "#DB debug", "NMI", "#BP breakpoint", "#OF overflow", "#BR bound range",
	"#UD invalid opcode", "#NM device not available", "#DF double fault", "coprocessor overrun",
	"#TS invalid TSS", "#NP segment not present", "#SS stack fault", "#GP general protection",
	"#PF page fault", "reserved 15", "#MF x87 error", "#AC alignment check", "#MC machine check",
	"#XM SIMD error", "#VE virtualization", "#CP control protection", "reserved 22", "reserved 23",
	"reserved 24", "reserved 25", "reserved 26", "reserved 27", "#HV hypervisor injection",
	"#VC VMM communication", "#SX security", "reserved 31",
};

const char *idt_exception_name(unsigned v)
{
	return v < 32 ? exc_names[v] : "interrupt";
}

void idt_init(void)
{
	for (unsigned v = 0; v < 256; v++) {
		uintptr_t a = v < 32 ? (uintptr_t)isr_stubs + 16 * v : (uintptr_t)irq_stubs + 8 * (v - 32);
		idt[v] = (struct idt_gate){
			.off0 = (uint16_t)a,
			.sel = GDT_KCODE,
			/* #DF, NMI and #MC get a known-good stack. */
			.ist = (v == 8 || v == 2 || v == 18) ? IST_CRITICAL : 0,
			.type = 0x8e, /* present, DPL0, 64-bit interrupt gate (IF cleared) */
			.off1 = (uint16_t)(a >> 16),
			.off2 = (uint32_t)(a >> 32),
		};
	}
}

void idt_load(void)
{
	struct {
		uint16_t limit;
		uint64_t base;
	} __attribute__((packed)) idtr = { sizeof(idt) - 1, (uintptr_t)idt };
	__asm__ __volatile__("lidt %0" :: "m"(idtr));
}

void idt_set_handler(uint8_t vector, irq_handler_t fn)
{
	/* Handlers are installed before the IPIs that use them are sent; the
	 * release store keeps the table entry from being seen before fn's data. */
	__atomic_store_n(&handlers[vector], fn, __ATOMIC_RELEASE);
}

void idt_set_crash_hook(crash_hook_t fn) { crash_hook = fn; }
const struct cpumask *idt_crashed_mask(void) { return &crashed; }
unsigned idt_crash_count(void) { return __atomic_load_n(&crash_count, __ATOMIC_ACQUIRE); }

static void __attribute__((noreturn)) crash(struct irq_frame *f)
{
	unsigned cpu = smp_cpu_id();
	struct percpu *pc = this_cpu();
	/* A fault inside the crash path: stop quietly rather than recurse. */
	if (pc->crashed)
		cpu_stop();
	pc->crashed = 1;
	console_emergency();
	kprintf("xcbench: EXCEPTION %s (vector %lu) error 0x%lx cpu %u apic %u\n",
		idt_exception_name((unsigned)f->vector), (unsigned long)f->vector, (unsigned long)f->error,
		cpu, pc->apic_id);
	kprintf("xcbench:   rip 0x%016lx cr2 0x%016lx rsp 0x%016lx rflags 0x%lx cs 0x%lx\n",
		(unsigned long)f->rip, (unsigned long)read_cr2(), (unsigned long)f->rsp,
		(unsigned long)f->rflags, (unsigned long)f->cs);
	kprintf("xcbench:   rax %016lx rbx %016lx rcx %016lx rdx %016lx\n", (unsigned long)f->rax,
		(unsigned long)f->rbx, (unsigned long)f->rcx, (unsigned long)f->rdx);
	kprintf("xcbench:   rsi %016lx rdi %016lx rbp %016lx cr3 %016lx\n", (unsigned long)f->rsi,
		(unsigned long)f->rdi, (unsigned long)f->rbp, (unsigned long)read_cr3());
	/* Make the crash visible before anyone polling for it acts on it. The
	 * count goes up before the mask bit: whoever sees this CPU in `crashed`
	 * then also sees a count that includes it, and can wait for the crash
	 * hook's report of it (report count >= crash count) without racing. */
	__atomic_fetch_add(&crash_count, 1, __ATOMIC_SEQ_CST);
	cpumask_set_atomic(&crashed, cpu);
	if (crash_hook)
		crash_hook(cpu, f);
	if (cpu == 0) {
		kprintf("xcbench: cpu 0 crashed, exiting\n");
		machine_exit(XCB_EXIT_CRASH);
	}
	kprintf("xcbench: cpu %u parked after exception\n", cpu);
	cpu_stop();
}

void idt_dispatch(struct irq_frame *f);
void idt_dispatch(struct irq_frame *f)
{
	unsigned v = (unsigned)f->vector;
	irq_handler_t h = __atomic_load_n(&handlers[v], __ATOMIC_ACQUIRE);
	if (v >= 32)
		this_cpu()->irqs++;
	if (v == 2 && nmi_probe_answer(f))
		return; /* asked where we are (smp.c's claim wait): not a crash */
	if (h) {
		h(f);
		return;
	}
	if (v < 32)
		crash(f);
	if (v >= 0x20 && v < 0x30)
		return; /* spurious legacy PIC interrupt: masked PICs still send IRQ7/15 */
	if (v == VEC_SPURIOUS)
		return; /* APIC spurious: no EOI by definition */
	kprintf("xcbench: warning: unexpected interrupt vector %u on cpu %u\n", v, smp_cpu_id());
	apic_eoi();
}
