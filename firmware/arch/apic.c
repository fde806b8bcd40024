/* arch/apic.c — local APIC driver: xAPIC/x2APIC (and the handover from
 * firmware that left x2APIC on), IPIs with a delivery policy, x2APIC cluster
 * masks, start-up IPIs, one-shot timer (arch/apic.h).
 *
 * The two register interfaces are two ops tables (xapic_ops: MMIO,
 * x2apic_ops: MSRs), one chosen by apic_init_bsp; everything above the
 * register accesses is written once, against the table. */
#include "arch/apic.h"
#include "arch/cpu.h"
#include "arch/cpuid.h"
#include "arch/vectors.h"
#include "arch/io.h"
#include "arch/msr.h"
#include "arch/paging.h"
#include "arch/percpu.h"
#include "arch/mem.h"
#include "arch/tsc.h"
#include "lib/cmdline.h"
#include "lib/cmdline_words.h"
#include "lib/printf.h"
#include "lib/string.h"

static uintptr_t mmio_base = 0xfee00000;
static enum xcb_delivery delivery = XCB_DELIVERY_AUTO;
uint64_t apic_timer_khz;

#define ICR_FIXED 0x000u
#define ICR_NMI 0x400u
#define ICR_INIT 0x500u
#define ICR_STARTUP 0x600u
#define ICR_LOGICAL (1u << 11)
#define ICR_BUSY (1u << 12)
#define ICR_ASSERT (1u << 14)
#define ICR_LEVEL (1u << 15)
#define ICR_ALL_INC_SELF (2u << 18)
#define ICR_ALL_BUT_SELF (3u << 18)

/* What differs between the two modes: register access, the ICR, the ID
 * register's format, how a CPU enters the mode, and what the mode offers. */
struct apic_ops {
	enum apic_mode mode;
	const char *name;
	uint32_t (*read)(uint32_t reg);
	void (*write)(uint32_t reg, uint32_t v);
	/* Every IPI (cross-call, kick, NMI, INIT/SIPI) goes here: dest is an
	 * APIC ID (physical) or a logical destination, lo the ICR low word. */
	void (*icr_write)(uint32_t dest, uint32_t lo);
	/* This CPU's APIC ID as the ID register holds it. */
	uint32_t (*id)(void);
	/* Puts this CPU's APIC in this mode (IA32_APIC_BASE); true when that
	 * meant leaving x2APIC, which firmware had left on. */
	bool (*enter)(void);
	bool init_deassert;    /* INIT wants its level de-assert (82489DX-era APICs) */
	bool clusters;         /* logical cluster destinations (LDR) exist */
};

/* ---- xAPIC: registers in the 4 KiB MMIO page at IA32_APIC_BASE ---- */

/* Register reg (its MMIO offset), read and written as 32-bit UC accesses. */
static uint32_t xapic_read(uint32_t reg) { return mmio_read32(mmio_base + reg); }
static void xapic_write(uint32_t reg, uint32_t v) { mmio_write32(mmio_base + reg, v); }
/* The 8-bit APIC ID, in the ID register's top byte. */
static uint32_t xapic_id(void) { return xapic_read(APIC_ID) >> 24; }

/* The two ICR halves are separate writes, so nothing that also sends IPIs
 * may run between them on this CPU: interrupts are off around the pair. The
 * UC MMIO write is ordered after earlier stores already: no fence (pairs
 * with the target's loads after it takes the interrupt). */
static void xapic_icr_write(uint32_t dest, uint32_t lo)
{
	unsigned long f = irq_save();
	while (xapic_read(APIC_ICR_LO) & ICR_BUSY)
		cpu_relax();
	xapic_write(APIC_ICR_HI, dest << 24);
	xapic_write(APIC_ICR_LO, lo);
	irq_restore(f);
}

/* x2APIC -> xAPIC is not a legal transition (#GP): it goes through
 * "disabled" (EN=0, EXTD=0) first (SDM "x2APIC State Transitions"). Used on
 * the BSP and on every AP, which after INIT keeps the mode firmware left. */
static unsigned ap_left_x2apic; /* APs that did the two-step (atomic) */
static bool leave_x2apic(void)
{
	uint64_t base = rdmsr(MSR_APIC_BASE);
	if (!(base & APIC_BASE_X2APIC))
		return false;
	wrmsr(MSR_APIC_BASE, base & ~(uint64_t)(APIC_BASE_X2APIC | APIC_BASE_ENABLE));
	wrmsr(MSR_APIC_BASE, (base & ~(uint64_t)APIC_BASE_X2APIC) | APIC_BASE_ENABLE);
	return true;
}

/* xAPIC-enabled, x2APIC off (after the two-step when firmware left it on). */
static bool xapic_enter(void)
{
	bool left = leave_x2apic();
	wrmsr(MSR_APIC_BASE, (rdmsr(MSR_APIC_BASE) | APIC_BASE_ENABLE) & ~(uint64_t)APIC_BASE_X2APIC);
	return left;
}

static const struct apic_ops xapic_ops = {
	.mode = APIC_MODE_XAPIC, .name = "xapic",
	.read = xapic_read, .write = xapic_write, .icr_write = xapic_icr_write,
	.id = xapic_id, .enter = xapic_enter, .init_deassert = true, .clusters = false,
};

/* ---- x2APIC: registers are MSRs 0x800 + offset / 16 ---- */

/* Register reg (named by its xAPIC offset) through its MSR. */
static uint32_t x2apic_read(uint32_t reg) { return (uint32_t)rdmsr(MSR_X2APIC_BASE + (reg >> 4)); }
static void x2apic_write(uint32_t reg, uint32_t v) { wrmsr(MSR_X2APIC_BASE + (reg >> 4), v); }
static uint32_t x2apic_id(void) { return x2apic_read(APIC_ID); }   /* all 32 bits */

/* The one place an x2APIC ICR is written. WRMSR to the x2APIC MSRs is not
 * serialising (SDM "x2APIC Register Address Space"): without a fence the IPI
 * can reach its target before our earlier stores (the call data it announces)
 * are visible there. MFENCE drains the store buffer; LFENCE keeps the WRMSR
 * from starting before the MFENCE has completed (Linux: weak_wrmsr_fence()).
 * Pairs with the target's loads after it takes the interrupt. One 64-bit
 * write: no interrupt can split it. */
static void x2apic_icr_wrmsr(uint32_t dest, uint32_t lo)
{
	__asm__ __volatile__("mfence; lfence" ::: "memory");
	wrmsr(MSR_X2APIC_BASE + (APIC_ICR_LO >> 4), ((uint64_t)dest << 32) | lo);
}

/* xAPIC-enabled must be set before (or with) the x2APIC bit (SDM "x2APIC
 * State Transitions"). */
static bool x2apic_enter(void)
{
	uint64_t base = rdmsr(MSR_APIC_BASE);
	wrmsr(MSR_APIC_BASE, base | APIC_BASE_ENABLE);
	wrmsr(MSR_APIC_BASE, base | APIC_BASE_ENABLE | APIC_BASE_X2APIC);
	return false;
}

static const struct apic_ops x2apic_ops = {
	.mode = APIC_MODE_X2APIC, .name = "x2apic",
	.read = x2apic_read, .write = x2apic_write, .icr_write = x2apic_icr_wrmsr,
	.id = x2apic_id, .enter = x2apic_enter, .init_deassert = false, .clusters = true,
};

/* Chosen once, by apic_init_bsp, before any AP starts: the APs read it after
 * the start-up handshake that brings them up (arch/smp.c), which orders it. */
static const struct apic_ops *ops = &xapic_ops;

/* The public accessors (arch/apic.h), through the chosen table. */
enum apic_mode apic_mode(void) { return ops->mode; }
const char *apic_mode_name(void) { return ops->name; }
uint32_t apic_read(uint32_t reg) { return ops->read(reg); }
void apic_write(uint32_t reg, uint32_t v) { ops->write(reg, v); }
uint32_t apic_id_self(void) { return ops->id(); }

void apic_eoi(void)
{
	apic_write(APIC_EOI, 0);
}

/* Test key x2apic_handover=1: every CPU turns x2APIC on (x2apic_enter)
 * before any APIC set-up, as firmware that hands over in x2APIC mode (OVMF
 * with > 255 vCPUs) does. */
static bool handover_test;

/* IA32_XAPIC_DISABLE_STATUS (MSR 0xbd) bit 0: firmware locked x2APIC on; it
 * exists when IA32_ARCH_CAPABILITIES (0x10a, CPUID.7.0:EDX[29]) bit 21 says so. */
static bool x2apic_locked(void)
{
	struct cpuid_regs r;
	cpuid(0, &r);
	if (r.eax < 7)
		return false;
	cpuid_count(7, 0, &r);
	if (!((r.edx >> 29) & 1) || !((rdmsr(MSR_ARCH_CAPABILITIES) >> 21) & 1))
		return false;
	return rdmsr(MSR_XAPIC_DISABLE_STATUS) & 1;
}

/* This CPU's APIC in the chosen mode, software-enabled, timer and error
 * LVTs masked (LINT0/1 too on APs), and its ID and LDR noted in percpu. */
static void apic_enable_here(void)
{
	if (ops->enter() && smp_cpu_id() != 0)
		__atomic_fetch_add(&ap_left_x2apic, 1, __ATOMIC_RELAXED);
	apic_write(APIC_TPR, 0);
	apic_write(APIC_SVR, 0x100 | VEC_SPURIOUS); /* software enable */
	apic_write(APIC_LVT_TIMER, 1u << 16);       /* masked */
	apic_write(APIC_LVT_ERROR, 1u << 16);
	if (smp_cpu_id() != 0) {
		apic_write(APIC_LVT_LINT0, 1u << 16);
		apic_write(APIC_LVT_LINT1, 1u << 16);
	}
	apic_write(APIC_ESR, 0);
	apic_eoi();
	struct percpu *pc = this_cpu();
	pc->apic_id = apic_id_self();
	pc->x2apic_ldr = ops->clusters ? apic_read(APIC_LDR) : 0;
}

static void mask_legacy_pic(void)
{
	/* Remap the 8259s to 0x20-0x2f (so a spurious IRQ7 is not taken for
	 * exception 15) and mask every line: we use the local APIC only. */
	outb(0x20, 0x11); outb(0xa0, 0x11);
	outb(0x21, 0x20); outb(0xa1, 0x28);
	outb(0x21, 0x04); outb(0xa1, 0x02);
	outb(0x21, 0x01); outb(0xa1, 0x01);
	outb(0x21, 0xff); outb(0xa1, 0xff);
}

int apic_init_bsp(const char *req)
{
	uint64_t hook;
	if (cmdline_u64("x2apic_handover", 0, &hook) < 0)
		return -1;	/* said; kmain ends the boot as a bad command line */
	handover_test = hook && cpu_facts.x2apic;
	if (handover_test)
		x2apic_enter();
	uint64_t base = rdmsr(MSR_APIC_BASE);
	bool x2_at_entry = (base & APIC_BASE_X2APIC) != 0;
	mmio_base = base & 0xfffff000u;
	if (base >> 32)
		mmio_base = (uintptr_t)(base & ~0xfffULL);
	paging_map_mmio(mmio_base, 4096);
	mask_legacy_pic();
	switch (cmdline_word_index(CMDLINE_ALTS(CMDLINE_VOCAB_APIC), req)) {
	case CMDLINE_APIC_X2APIC:
		if (!cpu_facts.x2apic) {
			kprintf("xcbench: error: apic=x2apic but this CPU has no x2APIC (CPUID.1:ECX[21])\n");
			return -1;
		}
		ops = &x2apic_ops;
		break;
	case CMDLINE_APIC_XAPIC:
		if (x2_at_entry && x2apic_locked()) {
			kprintf("xcbench: error: cmdline key 'apic': apic=xapic, but the firmware locked x2APIC "
				"on (IA32_XAPIC_DISABLE_STATUS bit 0); use apic=auto or apic=x2apic\n");
			return -1;
		}
		ops = &xapic_ops;
		break;
	case CMDLINE_APIC_AUTO:
		/* x2APIC on at entry is kept: leaving it may be locked, and IDs
		 * above 254 need it anyway. */
		ops = x2_at_entry || cpu_facts.x2apic ? &x2apic_ops : &xapic_ops;
		break;
	default:
		cmdline_refuse_alts("apic", req, CMDLINE_ALTS(CMDLINE_VOCAB_APIC));
		return -1;
	}
	if (x2_at_entry)
		kprintf("xcbench: apic: x2APIC was on at entry%s; %s\n", handover_test ? " (x2apic_handover=1)" : "",
			ops == &x2apic_ops ? "kept" : "leaving it on every CPU (x2APIC -> disabled -> xAPIC)");
	apic_enable_here();
	return 0;
}

void apic_init_ap(void)
{
	if (handover_test)
		x2apic_enter();
	apic_enable_here();
}

unsigned apic_aps_left_x2apic(void)
{
	return __atomic_load_n(&ap_left_x2apic, __ATOMIC_RELAXED);
}

void apic_send_init(uint32_t id)
{
	ops->icr_write(id, ICR_INIT | ICR_LEVEL | ICR_ASSERT);
	if (ops->init_deassert) {
		/* De-assert for old (82489DX-era) APICs; ignored by modern ones. */
		udelay(200);
		ops->icr_write(id, ICR_INIT | ICR_LEVEL);
	}
}

void apic_send_sipi(uint32_t id, uint8_t page)
{
	ops->icr_write(id, ICR_STARTUP | page);
}

/* Adds to this CPU's IPI statistics (ICR writes, CPUs targeted). */
static void count(unsigned writes, unsigned targets)
{
	/* Only this CPU writes its counters; readers tolerate a stale value. */
	struct percpu *pc = this_cpu();
	pc->ipi_icr_writes += writes;
	pc->ipi_targets += targets;
}

void apic_send_ipi(unsigned cpu, uint8_t vector)
{
	ops->icr_write(percpu(cpu)->apic_id, ICR_FIXED | vector);
	count(1, 1);
}

void apic_kick(unsigned cpu)
{
	ops->icr_write(percpu(cpu)->apic_id, ICR_FIXED | VEC_KICK);
}

void apic_send_nmi(unsigned cpu)
{
	ops->icr_write(percpu(cpu)->apic_id, ICR_NMI);
}

/* The highest vector set in the 8 x 32-bit registers from reg, or -1. */
static int highest_vector(uint32_t reg)
{
	for (int i = 7; i >= 0; i--) {
		uint32_t v = apic_read(reg + 0x10u * (unsigned)i);
		if (v)
			return i * 32 + 31 - __builtin_clz(v);
	}
	return -1;
}

int apic_highest_isr(void) { return highest_vector(APIC_ISR); }
int apic_highest_irr(void) { return highest_vector(APIC_IRR); }

void apic_set_delivery(enum xcb_delivery d) { delivery = d; }

/* One physical-destination ICR write per CPU in m. */
static void send_unicast(const struct cpumask *m, uint8_t vector)
{
	unsigned cpu, n = 0;
	for_each_cpu(cpu, m) {
		ops->icr_write(percpu(cpu)->apic_id, ICR_FIXED | vector);
		n++;
	}
	count(n, n);
}

/* x2APIC logical destinations: LDR = cluster << 16 | 1 << (x2APIC ID & 15),
 * read from each CPU's own LDR at bring-up. At boot (apic_setup_clusters)
 * the online CPUs are grouped by cluster once: every CPU points at the mask
 * of its cluster's members, shared by them, so a send only ANDs masks. */
void apic_setup_clusters(void)
{
	if (!ops->clusters)
		return;
	unsigned n = smp_num_cpus(), nclusters = 0;
	size_t bytes = (size_t)n * sizeof(struct cpumask);
	struct cpumask *masks = page_alloc((bytes + PAGE_SIZE - 1) / PAGE_SIZE);
	if (!masks) {
		kprintf("xcbench: warning: no memory for x2APIC cluster masks: cluster delivery is unicast\n");
		return;
	}
	for (unsigned cpu = 0; cpu < n; cpu++) {
		uint32_t cl = percpu(cpu)->x2apic_ldr >> 16;
		unsigned k = 0;
		/* The first member of each cluster found so far: O(n * clusters), once. */
		while (k < nclusters && percpu(cpumask_first(&masks[k]))->x2apic_ldr >> 16 != cl)
			k++;
		if (k == nclusters)
			nclusters++;
		cpumask_set(&masks[k], cpu);
		percpu(cpu)->cluster = &masks[k];
	}
	kprintf("xcbench: apic: %u x2APIC clusters\n", nclusters);
}

/* One logical ICR write per x2APIC cluster with CPUs in m. */
static void send_cluster(const struct cpumask *m, uint8_t vector)
{
	struct cpumask left = *m;
	unsigned writes = 0, targets = 0;
	for (unsigned first = cpumask_first(&left); first < XCB_MAX_CPUS; first = cpumask_first(&left)) {
		const struct cpumask *cl = percpu(first)->cluster;
		uint32_t dest = percpu(first)->x2apic_ldr & 0xffff0000u;
		unsigned cpu;
		for_each_cpu(cpu, cl)
			if (cpumask_test(&left, cpu)) {
				dest |= percpu(cpu)->x2apic_ldr & 0xffffu;
				targets++;
			}
		cpumask_andnot(&left, &left, cl);
		ops->icr_write(dest, ICR_FIXED | ICR_LOGICAL | vector);
		writes++;
	}
	count(writes, targets);
}

/* Returns the shorthand that addresses exactly m from CPU self, or 0 when
 * none does or it is not safe (see the header and seed 001). */
static uint32_t shorthand_for(const struct cpumask *m, unsigned self)
{
	if (!smp_all_accounted())
		return 0;
	const struct cpumask *online = smp_online_mask();
	if (cpumask_equal(m, online))
		return ICR_ALL_INC_SELF;
	if (cpumask_test(m, self) || cpumask_weight(m) + 1 != cpumask_weight(online))
		return 0;
	return ICR_ALL_BUT_SELF; /* m = online minus self: m is a subset of online */
}

/* The delivery the policy picks for m (already reduced to online CPUs). */
static enum xcb_delivery resolve(const struct cpumask *m, unsigned self, uint32_t *sh)
{
	enum xcb_delivery d = delivery;
	*sh = 0;
	if (d == XCB_DELIVERY_AUTO || d == XCB_DELIVERY_SHORTHAND) {
		*sh = shorthand_for(m, self);
		if (*sh)
			return XCB_DELIVERY_SHORTHAND;
	}
	/* cluster is set only where the mode has clusters (apic_setup_clusters). */
	if ((d == XCB_DELIVERY_AUTO || d == XCB_DELIVERY_CLUSTER) && percpu(0)->cluster)
		return XCB_DELIVERY_CLUSTER;
	return XCB_DELIVERY_UNICAST;
}

enum xcb_delivery apic_delivery_resolve(const struct cpumask *mask, unsigned from_cpu)
{
	struct cpumask m;
	cpumask_and(&m, mask, smp_online_mask());
	uint32_t sh;
	return resolve(&m, from_cpu, &sh);
}

void apic_send_ipi_mask(const struct cpumask *mask, uint8_t vector)
{
	/* Only online CPUs have an APIC ID we may target; an empty mask sends
	 * nothing (not even a shorthand to "all others" on a 1-CPU machine). */
	struct cpumask m;
	cpumask_and(&m, mask, smp_online_mask());
	if (cpumask_empty(&m))
		return;
	uint32_t sh;
	switch (resolve(&m, smp_cpu_id(), &sh)) {
	case XCB_DELIVERY_SHORTHAND:
		ops->icr_write(0, ICR_FIXED | sh | vector);
		count(1, cpumask_weight(&m));
		break;
	case XCB_DELIVERY_CLUSTER:
		send_cluster(&m, vector);
		break;
	default:
		send_unicast(&m, vector);
	}
}

/* ---- timer ---- */

void apic_timer_calibrate(void)
{
	apic_write(APIC_TIMER_DIV, 0xb); /* divide by 1 */
	apic_write(APIC_LVT_TIMER, (1u << 16) | VEC_TIMER);
	apic_write(APIC_TIMER_INIT, 0xffffffffu);
	uint64_t t0 = rdtsc_ordered();
	udelay(10000);
	uint32_t cur = apic_read(APIC_TIMER_CUR);
	uint64_t t1 = rdtsc_ordered();
	apic_write(APIC_TIMER_INIT, 0);
	uint64_t ticks = 0xffffffffu - cur;
	uint64_t us = tsc_khz ? (t1 - t0) * 1000 / tsc_khz : 10000;
	apic_timer_khz = us ? ticks * 1000 / us : 0;
}

void apic_timer_oneshot(uint64_t us, uint8_t vector)
{
	uint64_t ticks = apic_timer_khz * us / 1000;
	if (ticks == 0)
		ticks = 1;
	if (ticks > 0xffffffffu)
		ticks = 0xffffffffu;
	apic_write(APIC_TIMER_DIV, 0xb);
	apic_write(APIC_LVT_TIMER, vector); /* one-shot, unmasked */
	apic_write(APIC_TIMER_INIT, (uint32_t)ticks);
}

void apic_timer_stop(void)
{
	apic_write(APIC_TIMER_INIT, 0);
	apic_write(APIC_LVT_TIMER, 1u << 16);
}
