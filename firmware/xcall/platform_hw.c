/*
 * platform_hw.c — xcall/platform.h for the payload: IPIs through the APIC
 * layer on dedicated vectors (delivery — unicast, cluster, shorthand — is
 * chosen there, never here) and the 4 KiB TLB test window of arch/paging.
 * (CPU ids, spin and clock: lib/platform.h, arch/platform.c.)
 */
#include "xcall/platform.h"
#include "xcall/amask.h"
#include "arch/apic.h"
#include "arch/cpu.h"
#include "arch/cpuid.h"
#include "arch/idt.h"
#include "arch/mem.h"
#include "arch/paging.h"
#include "arch/smp.h"
#include "arch/tsc.h"
#include "lib/cpumask.h"
#include "lib/printf.h"

#define VEC_RAW 0xe4	/* raw ping-pong: its own vector, beside VEC_FLUSH */
/* Every IPI vector lies in [VEC_BASE, VEC_BASE + VEC_SPAN): the one stub
 * finds its handler in one load. The pool is the span less the fixed two. */
#define VEC_BASE VEC_XCALL
#define VEC_SPAN 16
_Static_assert(VEC_RAW - VEC_BASE < VEC_SPAN && VEC_FLUSH - VEC_BASE < VEC_SPAN &&
	       VEC_RAW != VEC_FLUSH, "the fixed IPI vectors must lie in the handler table");
_Static_assert(PLAT_IPI_POOL == VEC_SPAN - 2, "the pool is the span less RAW and FLUSH");

/* vectors[kind]: fixed for FLUSH and RAW, filled in for pool kinds as
 * plat_ipi_alloc() hands them out (0 = not allocated: sending on it is a
 * bug, caught in plat_send_ipi*). CPU 0 writes it at init, before the APs
 * send anything. */
static uint8_t vectors[PLAT_IPI_NR] = {
	[PLAT_IPI_FLUSH] = VEC_FLUSH,
	[PLAT_IPI_RAW] = VEC_RAW,
};
static unsigned pool_used;
static plat_ipi_handler_t handlers[VEC_SPAN];

/* Test key fwddrop_cpu=N (a fault for tests/t-xcall-faults.sh): IPIs sent
 * from inside an IPI handler to CPU N are dropped — a tree leader's forward
 * lost — so the watchdog must name CPU N alone. ~0u: off. Set by
 * plat_faults_set (bench/faults.c parses every test key). */
static unsigned fwddrop_cpu = ~0u;
/* Per CPU: inside the stub (IF off, no nesting); each CPU its own byte. */
static volatile uint8_t in_stub[XCB_MAX_CPUS];

/* Test keys ipidrop=SITE ipidrop_cpu=N (platform.h plat_lost_cpu; a fault for
 * tests/t-wait-faults.sh): the answer a wait of SITE expects from CPU N is
 * lost. Both or neither (faults.c refuses one alone). Set by plat_faults_set,
 * before any IPI. */
static enum plat_lost lost_site;
static unsigned lost_cpu = ~0u;
/* lost_cpu when the site is one of the sends' own (mask, vector), else ~0u:
 * what a send compares its target with, the one test a healthy send pays. */
static unsigned send_lost_cpu = ~0u;
/* ipidrop_after=N (mask, vector): the first N of those IPIs still go out,
 * so a fault can hit a later step (the TLB no-flush control after a
 * repetition's timed shootdowns). Counted down by whichever CPU sends. */
static uint64_t lost_after;
/* rawwait_ms=N (platform.h plat_raw_wait_ms): 0 when not given. Set by
 * plat_faults_set before any IPI, read-only afterwards. */
static uint64_t raw_wait_ms;

void plat_faults_set(const struct plat_faults *f)
{
	lost_site = f->lost_site;
	lost_cpu = f->lost_cpu;
	send_lost_cpu = lost_site == PLAT_LOST_MASK || lost_site == PLAT_LOST_VECTOR ? lost_cpu : ~0u;
	/* relaxed: before any IPI (faults.h faults_init); counted down later. */
	__atomic_store_n(&lost_after, f->lost_after, __ATOMIC_RELAXED);
	fwddrop_cpu = f->fwddrop_cpu;
	raw_wait_ms = f->raw_wait_ms;
}

uint64_t plat_raw_wait_ms(void) { return raw_wait_ms; }

/*
 * Whether the IPI of `kind` to `cpu` is the one ipidrop=mask|vector loses.
 * Here, at the send, rather than a cut in each caller (as paths.c's and
 * qlist.c's sites): every algorithm's IPIs pass through plat_send_ipi /
 * plat_send_ipi_mask, so one hook loses exactly what a lost IPI loses,
 * whatever the algorithm or delivery, and the algorithm files stay as they
 * are timed. mask: the pool vectors (never RAW, the floors', nor FLUSH), and
 * only an initiator's sends: a handler's (a tree leader's forward) are
 * fwddrop_cpu's fault. vector: FLUSH, sent only by flush.c's vector path.
 */
static int send_lost(unsigned cpu, enum plat_ipi kind)
{
	if (cpu != send_lost_cpu)
		return 0;
	int hit = lost_site == PLAT_LOST_VECTOR ? kind == PLAT_IPI_FLUSH
					       : kind >= PLAT_IPI_POOL0 && !in_stub[smp_cpu_id()];
	/* relaxed: a test's count; each send that would be lost takes one
	 * until none is left (a CAS loop, so it never goes below 0). */
	uint64_t left = __atomic_load_n(&lost_after, __ATOMIC_RELAXED);
	while (hit && left)
		if (__atomic_compare_exchange_n(&lost_after, &left, left - 1, false, __ATOMIC_RELAXED,
						__ATOMIC_RELAXED))
			return 0;
	return hit;
}

unsigned plat_lost_cpu(enum plat_lost site)
{
	return site != PLAT_LOST_NONE && site == lost_site ? lost_cpu : ~0u;
}

/* Per CPU: whom its current wait waits on (platform.h plat_wait_note). Each
 * CPU writes only its own slot, and only once a wait is slow, so slots share
 * lines unpadded; the watchdog reads any (relaxed: a diagnostic snapshot, no
 * data rides on it; a torn pair only mislabels a report). */
static struct {
	uint32_t target1;		/* the target + 1; 0 (BSS): not waiting */
	const char *what;
	uint64_t since;			/* µs: the wait's first look or last note; its CPU's alone */
} waits[XCB_MAX_CPUS];

/* platform.h: the wait's clock, kept in the waiter's own slot (plain: no
 * other CPU reads `since`). */
int plat_wait_look(unsigned *spins)
{
	uint64_t now = plat_now_us(), *since = &waits[smp_cpu_id()].since;

	if (*spins == PLAT_WAIT_LOOK_TURNS) {	/* this wait's first look */
		*since = now;
		return 0;
	}
	if (now - *since < PLAT_WAIT_NOTE_US)
		return 0;
	*since = now;
	*spins = PLAT_WAIT_NOTED;
	return 1;
}

void plat_wait_note(unsigned target, const char *what)
{
	unsigned me = smp_cpu_id();

	__atomic_store_n(&waits[me].what, what, __ATOMIC_RELAXED);
	__atomic_store_n(&waits[me].target1, target + 1, __ATOMIC_RELAXED);
}

void plat_wait_clear(void)
{
	__atomic_store_n(&waits[smp_cpu_id()].target1, 0, __ATOMIC_RELAXED);
}

int plat_waiting_on(unsigned cpu, const char **what)
{
	if (cpu >= XCB_MAX_CPUS)
		return -1;
	uint32_t t1 = __atomic_load_n(&waits[cpu].target1, __ATOMIC_RELAXED);
	if (!t1 || t1 > XCB_MAX_CPUS)
		return -1;
	*what = __atomic_load_n(&waits[cpu].what, __ATOMIC_RELAXED);
	return (int)(t1 - 1);
}

void plat_ipi_pool_reset(void)
{
	for (unsigned k = PLAT_IPI_POOL0; k < PLAT_IPI_NR; k++)
		vectors[k] = 0;
	pool_used = 0;
}

int plat_ipi_alloc(void)
{
	if (pool_used == PLAT_IPI_POOL)
		return -1;
	/* The pool's n-th vector: the n-th of the span that is not fixed. */
	unsigned n = pool_used, v = VEC_BASE;
	for (;; v++)
		if (v != VEC_RAW && v != VEC_FLUSH && n-- == 0)
			break;
	unsigned kind = PLAT_IPI_POOL0 + pool_used++;
	vectors[kind] = (uint8_t)v;
	return (int)kind;
}

/* The vector stub: the algorithm's handler first, EOI last — a second IPI
 * of the same vector that arrives meanwhile stays latched in the IRR and is
 * delivered after the EOI, so no call is lost between "I scanned" and "I
 * returned". */
static void ipi_stub(struct irq_frame *f)
{
	unsigned me = smp_cpu_id();

	in_stub[me] = 1;
	handlers[f->vector - VEC_BASE]();
	in_stub[me] = 0;
	apic_eoi();
}

void plat_ipi_register(enum plat_ipi kind, plat_ipi_handler_t fn)
{
	if ((unsigned)kind >= PLAT_IPI_NR || !vectors[kind])
		return;		/* xcall_init_all() registers only what it allocated */
	handlers[vectors[kind] - VEC_BASE] = fn;
	/* idt_set_handler() publishes with release: the stub never sees a
	 * a NULL handler. */
	idt_set_handler(vectors[kind], ipi_stub);
}

/* No fence here: the ordering an IPI needs (our call data visible before
 * the target takes the interrupt) is the APIC layer's one rule, kept where
 * the ICR is written (arch/apic.c, x2apic_icr_wrmsr(); xAPIC's UC MMIO
 * write is ordered after earlier stores by itself). */
/* A kind nobody allocated has no vector: say so instead of sending vector 0
 * (#DE on the target, a hang at the watchdog). */
static int unallocated(enum plat_ipi kind)
{
	if ((unsigned)kind < PLAT_IPI_NR && vectors[kind])
		return 0;
	kprintf("xcall: IPI kind %u sent but never allocated (xcall_init_all/plat_ipi_alloc)\n", (unsigned)kind);
	return 1;
}

void plat_send_ipi(unsigned cpu, enum plat_ipi kind)
{
	if (unallocated(kind))
		return;
	if (cpu == fwddrop_cpu && in_stub[smp_cpu_id()])
		return;		/* the injected fault (fwddrop_cpu=) */
	if (send_lost(cpu, kind))
		return;		/* the injected fault (ipidrop=mask|vector) */
	apic_send_ipi(cpu, vectors[kind]);
}

void plat_send_ipi_mask(const struct amask *mask, enum plat_ipi kind)
{
	struct cpumask m;

	for (unsigned i = 0; i < AMASK_WORDS; i++)
		m.bits[i] = mask->w[i];
	/* the injected fault (ipidrop=mask|vector): the target left out, before
	 * the APIC layer picks a delivery for what is left */
	if (send_lost_cpu < XCB_MAX_CPUS && cpumask_test(&m, send_lost_cpu) &&
	    send_lost(send_lost_cpu, kind))
		cpumask_clear(&m, send_lost_cpu);
	if (cpumask_empty(&m) || unallocated(kind))
		return;
	apic_send_ipi_mask(&m, vectors[kind]);
}

/* ---- TLB test window -------------------------------------------------- */

static unsigned tw_pages;
static uint64_t *tw_frames;			/* 2 * tw_pages frames, identity-mapped */
/* volatile: the page walker reads these PTEs behind the compiler's back,
 * so every store must really happen (plat_tw_map). */
static volatile uint64_t *tw_pte[PAGING_TEST_WINDOW_SIZE / PAGE_SIZE];
/* Each CPU writes its own, from its #PF handler in the middle of
 * plat_tw_read(): volatile so the compiler re-reads it after the probe. */
static volatile uint32_t tw_faulted[XCB_MAX_CPUS];
static int tw_pf_ready;

extern uint64_t tw_probe(const volatile uint64_t *va);
extern const char tw_probe_insn[], tw_probe_done[];

/*
 * #PF handler: a fault on the probe instruction is an expected "not
 * present" (the PTE was cleared): resume after it and record it. Any other
 * #PF is a real crash: we uninstall ourselves and return, the instruction
 * faults again and the default handler prints the full report.
 */
static void tw_pf_handler(struct irq_frame *f)
{
	if (f->rip == (uint64_t)(uintptr_t)tw_probe_insn) {
		f->rip = (uint64_t)(uintptr_t)tw_probe_done;
		f->rax = 0;
		tw_faulted[smp_cpu_id()] = 1;
		return;
	}
	idt_set_handler(14, 0);
}

static uint64_t tw_va(unsigned page)
{
	return PAGING_TEST_WINDOW + (uint64_t)page * PAGE_SIZE;
}

int plat_tw_init(unsigned npages)
{
	if (npages > PAGING_TEST_WINDOW_SIZE / PAGE_SIZE)
		npages = PAGING_TEST_WINDOW_SIZE / PAGE_SIZE;
	if (!tw_frames) {
		tw_frames = page_alloc(PLAT_TW_FRAMES * npages);
		if (!tw_frames)
			return -1;
	}
	tw_pages = npages;
	for (unsigned p = 0; p < npages; p++) {
		/* 4 KiB PTEs, never global (PTE_G): a CR3 reload must drop them. */
		if (paging_map_4k(tw_va(p), (uint64_t)(uintptr_t)tw_frames +
				  (uint64_t)PLAT_TW_FRAMES * p * PAGE_SIZE,
				  PTE_P | PTE_W) < 0)
			return -1;
		tw_pte[p] = paging_pte(tw_va(p));
		if (!tw_pte[p])
			return -1;
	}
	idt_set_handler(14, tw_pf_handler);
	tw_pf_ready = 1;
	return (int)npages;
}

void plat_tw_map(unsigned page, int frame)
{
	uint64_t pte = frame < 0 ? 0
		: ((uint64_t)(uintptr_t)tw_frames + (uint64_t)frame * PAGE_SIZE) | PTE_P | PTE_W;
	/* One aligned 64-bit store: a concurrent walk sees the old or the new
	 * entry, never half. Release keeps it after our earlier stores; other
	 * CPUs are told to invalidate only later, through a call whose own
	 * release/acquire orders this store before their flush. */
	__atomic_store_n(tw_pte[page], pte, __ATOMIC_RELEASE);
}

volatile uint64_t *plat_tw_frame(unsigned frame)
{
	return (volatile uint64_t *)((char *)tw_frames + (uint64_t)frame * PAGE_SIZE);
}

int plat_tw_read(unsigned page, uint64_t *val)
{
	unsigned me = smp_cpu_id();

	tw_faulted[me] = 0;
	/* The read goes through the window VA, so through this CPU's TLB: a
	 * stale entry returns the old frame's marker. */
	uint64_t v = tw_probe((const volatile uint64_t *)(uintptr_t)tw_va(page));
	if (tw_faulted[me])
		return -1;
	*val = v;
	return 0;
}

void plat_tlb_flush(enum plat_tlb_op op, unsigned page)
{
	switch (op) {
	case PLAT_TLB_INVLPG:
		invlpg((const volatile void *)(uintptr_t)tw_va(page));
		break;
	case PLAT_TLB_CR3:
		flush_tlb_local();
		break;
	case PLAT_TLB_INVPCID:
		invpcid(INVPCID_ADDR, 0, tw_va(page));
		break;
	case PLAT_TLB_NONE:
		break;
	}
}

int plat_tlb_supported(enum plat_tlb_op op)
{
	return op != PLAT_TLB_INVPCID || cpu_facts.invpcid;
}

int plat_tw_fault_safe(void)
{
	return tw_pf_ready;
}
