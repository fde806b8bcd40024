/* arch/nmi_probe.c — a CPU that takes no interrupt, asked where it is by an
 * NMI (arch/nmi_probe.h). The prober fills nothing but the request; the
 * target writes its answer from its NMI handler, and the prober prints it
 * (no console lock is ever taken in NMI context: the target may hold it). */
#include "arch/nmi_probe.h"
#include "arch/apic.h"
#include "arch/cpu.h"
#include "arch/percpu.h"
#include "arch/tsc.h"
#include "lib/printf.h"

struct probe {
	uint32_t asked;		/* 1 from the prober's request to the answer */
	uint32_t answered;	/* the answer below is complete */
	uint64_t rip, rflags;
	int isr, irr;		/* highest in service / requested vector, -1 none */
	uint32_t ppr;
};

static struct probe probes[XCB_MAX_CPUS];

bool nmi_probe_answer(const struct irq_frame *f)
{
	struct probe *p = &probes[smp_cpu_id()];

	/* ACQUIRE pairs with nmi_probe's RELEASE store of asked: nothing of
	 * ours is older than the request (answered was cleared before it). The
	 * exchange takes one request once: a second NMI is not a probe. */
	if (!__atomic_exchange_n(&p->asked, 0, __ATOMIC_ACQUIRE))
		return false;
	p->rip = f->rip;
	p->rflags = f->rflags;
	p->isr = apic_highest_isr();
	p->irr = apic_highest_irr();
	p->ppr = apic_read(APIC_PPR);
	/* RELEASE pairs with nmi_probe's ACQUIRE load: the answer is complete. */
	__atomic_store_n(&p->answered, 1, __ATOMIC_RELEASE);
	return true;
}

/* "0xf0" (written into buf) or "none". */
static const char *vec(int v, char *buf, unsigned n)
{
	if (v < 0)
		return "none";
	ksnprintf(buf, n, "0x%02x", (unsigned)v);
	return buf;
}

int nmi_probe(unsigned cpu, unsigned ms)
{
	struct probe *p = &probes[cpu];
	char b1[8], b2[8];

	__atomic_store_n(&p->answered, 0, __ATOMIC_RELAXED);
	/* RELEASE: the cleared answer is older than the request the target's
	 * handler takes (pairs with its ACQUIRE exchange). The NMI itself is
	 * sent after it (x2APIC: the ICR write's own fence, apic.c). */
	__atomic_store_n(&p->asked, 1, __ATOMIC_RELEASE);
	apic_send_nmi(cpu);
	uint64_t t0 = rdtsc();
	while (!__atomic_load_n(&p->answered, __ATOMIC_ACQUIRE)) {
		if (tsc_to_ns(rdtsc() - t0) >= (uint64_t)ms * 1000000ull) {
			/* Take the request back, so a late NMI is not taken for a
			 * probe nobody reads (it then reports as a crash). */
			__atomic_store_n(&p->asked, 0, __ATOMIC_RELAXED);
			kprintf("xcbench: cpu %u (apic %u) NMI probe: no answer in %u ms either\n", cpu,
				percpu(cpu)->apic_id, ms);
			return -1;
		}
		cpu_relax();
	}
	kprintf("xcbench: cpu %u (apic %u) NMI probe: rip 0x%lx, interrupts %s, in service %s, "
		"requested %s, ppr 0x%02x\n", cpu, percpu(cpu)->apic_id, (unsigned long)p->rip,
		(p->rflags & (1u << 9)) ? "on" : "off", vec(p->isr, b1, sizeof(b1)),
		vec(p->irr, b2, sizeof(b2)), (unsigned)p->ppr);
	return 0;
}
