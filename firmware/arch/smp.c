/* arch/smp.c — per-CPU data, AP bring-up (INIT-SIPI-SIPI through the
 * boot/trampoline.S copy at 0x8000), the idle loop and smp_start_on
 * (arch/smp.h). */
#include "arch/smp.h"
#include "arch/acpi.h"
#include "arch/apic.h"
#include "arch/cpu.h"
#include "arch/cpuid.h"
#include "arch/gdt.h"
#include "arch/idt.h"
#include "arch/mem.h"
#include "arch/msr.h"
#include "arch/nmi_probe.h"
#include "arch/tsc.h"
#include "lib/cmdline.h"
#include "lib/printf.h"
#include "lib/string.h"

#define AP_STACK_PAGES 4
#define IST_STACK_PAGES 2

static uint8_t bsp_ist_stack[IST_STACK_PAGES * PAGE_SIZE] __attribute__((aligned(16)));

/* Hand-off to the AP being started, one record per attempt at the top of
 * that attempt's own stack (never reused: the page allocator does not free),
 * so an AP that wakes late can only ever see its own attempt's record. */
struct ap_handoff {
	unsigned cpu;               /* the logical number this attempt offers */
	uint32_t apic_id;
	bool late;                  /* test key ap_late: answer only after the timeout */
	/* AP_WAITING -> AP_RUNNING (the AP commits, CAS) -> AP_ONLINE, or
	 * AP_WAITING -> AP_ABANDONED (the BSP gives up, CAS): exactly one wins. */
	volatile uint32_t state;
};
enum { AP_WAITING, AP_RUNNING, AP_ONLINE, AP_ABANDONED };
static uint32_t missing[XCB_MAX_CPUS]; /* static: N-sized, not on a stack */

/* A job not claimed REKICK_MS after its kick is kicked again; one not claimed
 * in CLAIM_GIVEUP_MS is taken back (smp_wait_idle). 10 s: under TCG a vCPU
 * among 288 threads on 2 host cores can go unscheduled for over a second. */
#define REKICK_MS 20u
#define CLAIM_GIVEUP_MS 10000u
#define NMI_PROBE_MS 1000u	/* then the NMI that asks it where it is */
/* INIT-SIPI-SIPI sequences per AP at bring-up, each waiting ap_timeout_ms (start_ap). */
#define AP_START_TRIES 2u
static unsigned rekicks;		/* kicks sent again, by any waiter */
static unsigned kick_drop_cpu = ~0u;	/* test key kick_drop: a logical CPU */
static int kick_drops;			/* test key kick_drops: its kicks to lose */
/* Test key kick_drop_after: jobs posted to kick_drop's CPU that are still
 * kicked (the boot check's is the first), so a later start can be the one
 * whose kick is lost; then `kick_drop_armed` says its kicks are lost. */
static unsigned kick_drop_after;
static int kick_drop_armed;
static uint32_t kick_drop_asleep;	/* that CPU found no job and is halting */

extern char tramp_start[], tramp_end[], tramp_cr3[], tramp_stack[], tramp_entry[], tramp_apic[];

void cpu_init_common(unsigned cpu)
{
	struct percpu *pc = &percpu_area[cpu];
	pc->self = pc;
	pc->cpu = cpu;
	wrmsr(MSR_GS_BASE, (uintptr_t)pc);
	gdt_load_cpu(cpu, cpu == 0 ? (uintptr_t)(bsp_ist_stack + sizeof(bsp_ist_stack)) : pc->ist_top);
	idt_load();
	/* RDTSCP returns TSC_AUX: make it the logical CPU number, so a timed
	 * read also says where it ran. */
	if (cpu_facts.rdtscp)
		wrmsr(MSR_TSC_AUX, cpu);
	/* Allow SSE for code built with it (none of ours: -mgeneral-regs-only). */
	write_cr0((read_cr0() & ~(uint64_t)(CR0_EM | CR0_TS)) | CR0_MP);
	write_cr4(read_cr4() | CR4_OSFXSR | CR4_OSXMMEXCPT);
}

static void kick_handler(struct irq_frame *f)
{
	(void)f;
	apic_eoi(); /* the wake-up is the whole point: nothing else to do */
}

void smp_init_bsp(void)
{
	idt_init();
	cpu_init_common(0);
	cpumask_set(&cpu_table.online, 0);
	idt_set_handler(VEC_KICK, kick_handler);
}

/* Idle loop of every AP. Protocol with smp_start_on() and smp_wait_idle():
 *   initiator: busy 0 -> 1 (CAS); work_arg = arg; work_fn = fn (RELEASE); kick IPI
 *   AP:        claims the job: work_fn fn -> NULL (CAS, ACQUIRE: sees arg
 *              and busy); runs fn; busy = 0 (RELEASE: fn's stores are
 *              visible to whoever sees busy == 0 with an ACQUIRE load).
 *   waiter:    while work_fn is still set (posted, not claimed) it kicks
 *              again now and then, and after CLAIM_GIVEUP_MS takes the job
 *              back with the same CAS: exactly one of the AP and the waiter
 *              wins, so a job taken back never runs.
 * The check and the halt are atomic w.r.t. the kick (interrupts are off
 * between them, and "sti; hlt" takes a pending interrupt only after hlt), so
 * a kick is never slept through; the re-kicks are for a kick that never
 * arrived (seen once in ~6 boots of 288 TCG vCPUs: the payload stalled here
 * with every CPU online) and make this wait bounded like every other wait on
 * another CPU. */
static uint32_t idle_mode;	/* enum xcb_idle; CPU 0 writes, APs read (relaxed) */

bool smp_idle_supported(enum xcb_idle m)
{
	return m == XCB_IDLE_HLT || m == XCB_IDLE_POLL || (m == XCB_IDLE_MWAIT && cpu_facts.monitor);
}

int smp_set_idle(enum xcb_idle m)
{
	if ((unsigned)m >= XCB_N_idle || !smp_idle_supported(m))
		return -1;
	/* relaxed: a policy, taken at the AP's next wake-up; nothing is
	 * published with it. */
	__atomic_store_n(&idle_mode, (uint32_t)m, __ATOMIC_RELAXED);
	return 0;
}

/* Wait for a job (or any interrupt) the chosen way; interrupts are off on
 * entry and exit. The job word is re-checked after arming, so a job posted
 * before the wait is never slept through: HLT and MWAIT take the kick IPI
 * (sti's one-instruction shadow covers the hlt/mwait), MWAIT also wakes on
 * the store to the monitored job word, POLL sees it. */
static void idle_wait(struct percpu *pc)
{
	switch (__atomic_load_n(&idle_mode, __ATOMIC_RELAXED)) {
	case XCB_IDLE_MWAIT:
		__asm__ __volatile__("monitor" :: "a"(&pc->work_fn), "c"(0), "d"(0) : "memory");
		if (!__atomic_load_n(&pc->work_fn, __ATOMIC_ACQUIRE))
			__asm__ __volatile__("sti; mwait; cli" :: "a"(0), "c"(0) : "memory");
		return;
	case XCB_IDLE_POLL:
		irq_enable();	/* interrupts on while spinning: IPIs are served at once */
		while (!__atomic_load_n(&pc->work_fn, __ATOMIC_ACQUIRE) &&
		       __atomic_load_n(&idle_mode, __ATOMIC_RELAXED) == XCB_IDLE_POLL)
			cpu_relax();
		irq_disable();
		return;
	default:
		safe_halt_cli();
	}
}

static void __attribute__((noreturn)) idle_loop(struct percpu *pc)
{
	irq_disable();
	for (;;) {
		void (*fn)(void *) = __atomic_load_n(&pc->work_fn, __ATOMIC_RELAXED);
		/* ACQUIRE pairs with smp_start_on's RELEASE of work_fn (arg is
		 * visible); the CAS pairs with smp_wait_idle's take-back CAS. */
		if (!fn || !__atomic_compare_exchange_n(&pc->work_fn, &fn, NULL, false, __ATOMIC_ACQUIRE,
							 __ATOMIC_RELAXED)) {
			/* Test key kick_drop: say "checked, no job, about to
			 * sleep" (RELEASE pairs with smp_start_on's ACQUIRE
			 * load), so the job it posts next is surely slept
			 * through without its kick. */
			if (pc->cpu == kick_drop_cpu)
				__atomic_store_n(&kick_drop_asleep, 1, __ATOMIC_RELEASE);
			idle_wait(pc);
			continue;
		}
		void *arg = pc->work_arg;
		irq_enable();
		fn(arg);
		irq_disable();
		__atomic_store_n(&pc->busy, 0, __ATOMIC_RELEASE);
	}
}

void ap_entry(struct ap_handoff *h);
void __attribute__((noreturn)) ap_entry(struct ap_handoff *h)
{
	/* Nothing shared is touched before the commit below: until then the BSP
	 * may give up on us and hand our number to the next AP. */
	if (h->late)
		while (__atomic_load_n(&h->state, __ATOMIC_ACQUIRE) == AP_WAITING)
			cpu_relax();
	uint32_t waiting = AP_WAITING;
	/* ACQ_REL pairs with the BSP's CAS in start_ap(): one of us wins. */
	if (!__atomic_compare_exchange_n(&h->state, &waiting, AP_RUNNING, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		cpu_stop(); /* answered after the timeout: the number is no longer ours */
	unsigned cpu = h->cpu;
	struct percpu *pc = &percpu_area[cpu];
	cpu_init_common(cpu);
	apic_init_ap();
	topo_decode(&cpu_facts.topo, pc->apic_id, &pc->topo);
	/* Online before AP_ONLINE: the BSP reads the mask after it sees ONLINE. */
	cpumask_set_atomic(&cpu_table.online, cpu);
	__atomic_store_n(&h->state, AP_ONLINE, __ATOMIC_RELEASE);
	idle_loop(pc);
}

static bool wait_state(struct ap_handoff *h, uint32_t want, uint64_t us)
{
	uint64_t end = rdtsc() + us * tsc_khz / 1000;
	while (__atomic_load_n(&h->state, __ATOMIC_ACQUIRE) != want) {
		if ((int64_t)(rdtsc() - end) > 0)
			return false;
		cpu_relax();
	}
	return true;
}

static volatile uint64_t *tramp_stack_slot(void)
{
	return (volatile uint64_t *)(uintptr_t)(SMP_TRAMP_BASE + (tramp_stack - tramp_start));
}

static volatile uint32_t *tramp_apic_slot(void)
{
	return (volatile uint32_t *)(uintptr_t)(SMP_TRAMP_BASE + (tramp_apic - tramp_start));
}

/* INIT, 10 ms, the offer, SIPI, 200 µs, SIPI (Intel SDM MP init; a second
 * SIPI to a CPU already running is ignored). true once h says ONLINE within
 * wait_us of the second SIPI.
 *
 * The offer only after the INIT: this CPU may be in the trampoline already,
 * woken by another CPU's start-up IPI (an xAPIC-mode AP answers the IPIs for
 * its 8-bit alias, and every one answers those for 255, boot/trampoline.S).
 * Offered before the INIT, such a stray run could read its own ID in it and
 * claim the stack, and the INIT then reset it mid-setup or even after it said
 * ONLINE, parking it in the trampoline for good (seen for APIC 256, woken by
 * the IPIs for 255, under TCG: "never finished its setup", or online and deaf
 * to every kick). After the INIT, a stray run cannot get past the check: the
 * INIT stops it first (on TCG at the next block it runs).
 * The stack before the ID it is for (RELEASE; the AP checks the ID, then
 * claims the stack); both visible before the SIPI can arrive (the ICR write's
 * fence). sipis false (test key ap_nosipi) leaves the SIPIs out, as if a stale
 * one had spent the INIT. */
static bool offer(struct ap_handoff *h, uintptr_t entry_rsp, uint32_t apic_id, uint64_t wait_us,
		  bool sipis)
{
	apic_send_init(apic_id);
	mdelay(10);
	*tramp_stack_slot() = entry_rsp;
	__atomic_store_n(tramp_apic_slot(), apic_id, __ATOMIC_RELEASE);
	if (sipis)
		apic_send_sipi(apic_id, SMP_TRAMP_BASE >> 12);
	if (wait_state(h, AP_ONLINE, 200))
		return true;
	if (sipis)
		apic_send_sipi(apic_id, SMP_TRAMP_BASE >> 12);
	return wait_state(h, AP_ONLINE, wait_us);
}

/* 0: online. -1: did not answer (nothing of it remains: the number may be
 * offered again). -2: out of memory: no further AP may be started. -3: it
 * committed but never finished its setup, so it may still use the number and
 * its record: no further AP, and nobody else gets that number. */
static int start_ap(unsigned cpu, uint32_t apic_id, uint64_t timeout_ms, bool late, bool nosipi)
{
	struct percpu *pc = &percpu_area[cpu];
	uint8_t *stack = page_alloc(AP_STACK_PAGES);
	uint8_t *ist = page_alloc(IST_STACK_PAGES);
	if (!stack || !ist) {
		kprintf("xcbench: warning: no memory for cpu %u's stacks: no further AP started\n", cpu);
		return -2;
	}
	memset(pc, 0, sizeof(*pc));
	pc->apic_id = apic_id;
	pc->ist_top = (uintptr_t)(ist + IST_STACK_PAGES * PAGE_SIZE);
	/* The record at the top of the stack, 16-aligned; the AP enters with
	 * RSP = record - 8, as if called (the ABI's post-call alignment). */
	uintptr_t rec = ((uintptr_t)(stack + AP_STACK_PAGES * PAGE_SIZE) - sizeof(struct ap_handoff)) &
			~(uintptr_t)15;
	struct ap_handoff *h = (struct ap_handoff *)rec;
	*h = (struct ap_handoff){ .cpu = cpu, .apic_id = apic_id, .late = late,
				  .state = AP_WAITING };
	pc->stack_top = rec;

	/* A second sequence when nobody claimed the first offer within the
	 * bound: a pending INIT can be spent on a stale SIPI. QEMU keeps one
	 * INIT and one SIPI bit per CPU, so the SIPIs for 255 that woke APIC
	 * 256 early, still pending, start it with our INIT before the offer
	 * exists; it parks, and our SIPIs find it no longer waiting for one
	 * (seen under TCG: "did not answer INIT-SIPI-SIPI"). A fresh INIT
	 * makes it wait again. Only an offer nobody claimed is renewed: the
	 * exchange takes it back first (an AP between its ID check and its
	 * claim then finds 0 and parks), so no INIT ever hits an AP that owns
	 * the stack; a claimed one goes to the commit race below, as before.
	 * Each try waits the whole bound: a slow AP is never restarted early. */
	unsigned t;
	for (t = 1;; t++) {
		if (offer(h, rec - 8, apic_id, timeout_ms * 1000, !(nosipi && t == 1)))
			return 0;
		if (t == AP_START_TRIES || !__atomic_exchange_n(tramp_stack_slot(), 0, __ATOMIC_SEQ_CST))
			break;
		kprintf("xcbench: apic %u: no answer in %lu ms, INIT-SIPI-SIPI again\n", apic_id,
			(unsigned long)timeout_ms);
	}
	/* Give up: revoke the stack offer (an AP that claims it later parks in
	 * the trampoline), then close the race with one that already claimed it. */
	__atomic_exchange_n(tramp_stack_slot(), 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(tramp_apic_slot(), ~0u, __ATOMIC_RELAXED);
	uint32_t waiting = AP_WAITING;
	if (__atomic_compare_exchange_n(&h->state, &waiting, AP_ABANDONED, false, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE)) {
		apic_send_init(apic_id); /* park it in wait-for-SIPI */
		kprintf("xcbench: warning: apic %u did not answer INIT-SIPI-SIPI within %lu ms (tries: %u)\n",
			apic_id, (unsigned long)timeout_ms, t);
		return -1;
	}
	/* It committed just now: its setup is a few microseconds of our code. */
	if (wait_state(h, AP_ONLINE, timeout_ms * 1000))
		return 0;
	kprintf("xcbench: error: apic %u started as cpu %u but never finished its setup\n", apic_id, cpu);
	return -3;
}

int smp_boot_aps(void)
{
	struct percpu *bsp = &percpu_area[0];
	topo_decode(&cpu_facts.topo, bsp->apic_id, &bsp->topo);
	/* The keys first, each checked: a bad number (ap_timeout_ms=12q) was
	 * said as an error and then taken as the default, the boot ending 0. */
	uint64_t timeout_ms, late_apic, nosipi_apic, drop, drops, after;
	if ((cmdline_u64("ap_timeout_ms", 1000, &timeout_ms) | cmdline_u64("ap_late", ~0ull, &late_apic) |
	     cmdline_u64("ap_nosipi", ~0ull, &nosipi_apic) | cmdline_u64("kick_drop", ~0ull, &drop) |
	     cmdline_u64("kick_drops", 1, &drops) | cmdline_u64("kick_drop_after", 0, &after)) < 0)
		return -1;
	if (!acpi.have_madt) {
		cpu_table.accounted = false;
		return 0;
	}
	kick_drop_cpu = drop < XCB_MAX_CPUS ? (unsigned)drop : ~0u;
	kick_drops = drops > 1000000 ? 1000000 : (int)drops;
	kick_drop_after = after > 1000000 ? 1000000 : (unsigned)after;

	memcpy((void *)(uintptr_t)SMP_TRAMP_BASE, tramp_start, (size_t)(tramp_end - tramp_start));
	uint64_t cr3 = read_cr3(), entry = (uintptr_t)ap_entry;
	memcpy((void *)(uintptr_t)(SMP_TRAMP_BASE + (tramp_cr3 - tramp_start)), &cr3, 8);
	memcpy((void *)(uintptr_t)(SMP_TRAMP_BASE + (tramp_entry - tramp_start)), &entry, 8);

	unsigned nmissing = 0, held = 0;	/* held: a committed AP keeps its number */
	bool stop = false;
	bool bsp_listed = false;
	const struct madt_info *m = &acpi.madt;
	for (unsigned i = 0; i < m->ncpus; i++) {
		const struct madt_cpu *c = &m->cpu[i];
		if (c->apic_id == bsp->apic_id) {
			bsp_listed = true;
			continue;
		}
		bool started = false;
		if (!c->enabled) {
			/* Not present (e.g. a hot-pluggable slot): listed, never started. */
		} else if (cpu_table.num_online >= XCB_MAX_CPUS) {
			kprintf("xcbench: warning: apic %u beyond XCB_MAX_CPUS (%d)\n", c->apic_id, XCB_MAX_CPUS);
		} else if (apic_mode() == APIC_MODE_XAPIC && c->apic_id > 254) {
			kprintf("xcbench: warning: apic %u needs x2APIC mode\n", c->apic_id);
		} else if (!stop) {
			int rc = start_ap(cpu_table.num_online, c->apic_id, timeout_ms, c->apic_id == late_apic,
					  c->apic_id == nosipi_apic);
			started = rc == 0;
			stop = rc <= -2;
			if (rc == -3) {
				/* Its record (number num_online, its APIC ID set) is
				 * the AP's now: the missing ones number after it. */
				held = 1;
				continue;
			}
		}
		if (started)
			cpu_table.num_online++;
		else if (nmissing < XCB_MAX_CPUS)
			missing[nmissing++] = c->apic_id;
	}
	/* Not-online CPUs take the numbers after the online ones (reporting only). */
	for (unsigned i = 0; i < nmissing && cpu_table.num_online + held + i < XCB_MAX_CPUS; i++) {
		struct percpu *pc = &percpu_area[cpu_table.num_online + held + i];
		memset(pc, 0, sizeof(*pc));
		pc->cpu = cpu_table.num_online + held + i;
		pc->apic_id = missing[i];
		topo_decode(&cpu_facts.topo, missing[i], &pc->topo);
	}
	cpu_table.num_listed = m->ncpus + (bsp_listed ? 0 : 1);
	unsigned all = m->nenabled_all + (bsp_listed ? 0 : 1);
	if (all > cpu_table.num_online && (m->skip_limit || all > XCB_MAX_CPUS))
		kprintf("xcbench: warning: %u of %u CPUs used (limit %d)\n", cpu_table.num_online, all, XCB_MAX_CPUS);
	kprintf("xcbench: %u APs started, %lu KiB of AP stacks, %lu MiB free after bring-up\n", cpu_table.num_online - 1,
		(unsigned long)((cpu_table.num_online - 1) * (AP_STACK_PAGES + IST_STACK_PAGES) * (PAGE_SIZE / 1024)),
		(unsigned long)(mem_free_bytes() >> 20));
	if (apic_aps_left_x2apic())
		kprintf("xcbench: apic: %u APs left x2APIC for xAPIC (x2APIC -> disabled -> xAPIC)\n",
			apic_aps_left_x2apic());
	apic_setup_clusters();
	/* The all-but-self shorthand reaches every CPU that is present, started or
	 * not: only safe when every enabled CPU the MADT lists is online, the BSP
	 * is among them and nothing was cut off by our limits (seed 001). */
	cpu_table.accounted = bsp_listed && cpu_table.num_online == m->nenabled && !m->skip_limit;
	return 0;
}

void smp_report(void)
{
	for (unsigned c = 0; c < cpu_table.num_listed && c < XCB_MAX_CPUS; c++) {
		const struct percpu *pc = &percpu_area[c];
		if (cpumask_test(&cpu_table.online, c))
			kprintf("xcbench: cpu %u apic %u pkg %u core %u thread %u online\n", c, pc->apic_id,
				pc->topo.pkg, pc->topo.core, pc->topo.thread);
		else
			kprintf("xcbench: cpu %u apic %u not online\n", c, pc->apic_id);
	}
}

/* Kicks cpu, unless test keys kick_drop/kick_drops say this kick is lost. */
static void send_kick(unsigned cpu)
{
	/* relaxed: a test's count, read and taken by whichever initiator kicks. */
	if (cpu == kick_drop_cpu && __atomic_load_n(&kick_drop_armed, __ATOMIC_RELAXED) &&
	    __atomic_load_n(&kick_drops, __ATOMIC_RELAXED) &&
	    __atomic_fetch_sub(&kick_drops, 1, __ATOMIC_RELAXED) > 0)
		return;
	apic_kick(cpu);
}

int smp_start_on(unsigned cpu, void (*fn)(void *), void *arg)
{
	if (cpu >= XCB_MAX_CPUS || !cpumask_test_atomic(&cpu_table.online, cpu) || cpu == smp_cpu_id() || !fn)
		return -1;
	struct percpu *pc = &percpu_area[cpu];
	uint32_t idle = 0;
	/* Claim the CPU atomically: two initiators racing for one idle AP must
	 * not both hand it work. ACQUIRE: its previous fn has fully returned. */
	if (pc->crashed || !__atomic_compare_exchange_n(&pc->busy, &idle, 1, false, __ATOMIC_ACQUIRE,
							 __ATOMIC_RELAXED))
		return -1;
	/* Test: the first kick_drop_after jobs keep their kicks; the next one
	 * arms the drop (relaxed: a test's count; the CAS on busy above makes
	 * its posters take turns). */
	if (cpu == kick_drop_cpu && !__atomic_load_n(&kick_drop_armed, __ATOMIC_RELAXED) &&
	    __atomic_load_n(&kick_drops, __ATOMIC_RELAXED) > 0) {
		if (kick_drop_after)
			kick_drop_after--;
		else
			__atomic_store_n(&kick_drop_armed, 1, __ATOMIC_RELAXED);
	}
	if (cpu == kick_drop_cpu && __atomic_load_n(&kick_drop_armed, __ATOMIC_RELAXED) &&
	    __atomic_load_n(&kick_drops, __ATOMIC_RELAXED) > 0) {
		/* Test: post the job only once the AP has checked for one and is
		 * going to halt, so the lost kick is not made up for by timing
		 * (bounded: 1 s; a slower AP takes the job without its kick). The
		 * flag stays set once the AP first idled: a later job relies on
		 * the AP having gone back to halt since its last one. */
		uint64_t t0 = rdtsc();
		while (!__atomic_load_n(&kick_drop_asleep, __ATOMIC_ACQUIRE) &&
		       tsc_to_ns(rdtsc() - t0) < 1000000000ull)
			cpu_relax();
	}
	pc->work_arg = arg;
	pc->posted_tsc = rdtsc();
	/* RELEASE: the AP that sees fn also sees arg and busy. */
	__atomic_store_n(&pc->work_fn, fn, __ATOMIC_RELEASE);
	send_kick(cpu);
	return 0;
}

unsigned smp_rekicks(void) { return __atomic_load_n(&rekicks, __ATOMIC_RELAXED); }

/* smp_wait_idle's state while the job it waits for is not yet claimed. */
struct claim_wait {
	uint64_t start, last_kick;	/* TSC: the wait's start, the last kick */
	unsigned kicks;			/* kicks this wait sent again */
};

/* The job posted on pc may still be unclaimed: kick again every REKICK_MS
 * since its posting, and CLAIM_GIVEUP_MS after it take it back. 0 while
 * waiting on, 1 once the AP has claimed it, -1 when taken back (the job never
 * runs: the AP's claim and this CAS are on one word). */
static int unclaimed(unsigned cpu, struct percpu *pc, struct claim_wait *w)
{
	uint64_t now = rdtsc();
	if (tsc_to_ns(now - w->last_kick) < REKICK_MS * 1000000ull)
		return 0;
	void (*fn)(void *) = __atomic_load_n(&pc->work_fn, __ATOMIC_RELAXED);
	if (!fn)
		return 1;
	if (tsc_to_ns(now - w->start) < CLAIM_GIVEUP_MS * 1000000ull) {
		send_kick(cpu);
		__atomic_fetch_add(&rekicks, 1, __ATOMIC_RELAXED);	/* a count: orders nothing */
		w->kicks++;
		w->last_kick = now;
		return 0;
	}
	/* Pairs with the AP's claiming CAS: if this one wins, the AP never
	 * runs fn, so busy can be dropped and the CPU asked again later. */
	if (!__atomic_compare_exchange_n(&pc->work_fn, &fn, NULL, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		return 1;
	kprintf("xcbench: error: cpu %u (apic %u) did not take a job in %u ms (%u kicks)\n", cpu, pc->apic_id,
		CLAIM_GIVEUP_MS, w->kicks + 1);
	/* Where is it? Halted with the kick held back, running with
	 * interrupts off, or never reached (arch/nmi_probe.h). */
	nmi_probe(cpu, NMI_PROBE_MS);
	/* RELEASE pairs with smp_start_on's ACQUIRE CAS on busy. */
	__atomic_store_n(&pc->busy, 0, __ATOMIC_RELEASE);
	return -1;
}

int smp_wait_idle(unsigned cpu)
{
	struct percpu *pc = &percpu_area[cpu];
	/* A crash counts once the CPU is in idt_crashed_mask(), not at
	 * pc->crashed: that is set first thing in the exception path (its
	 * recursion guard), before the report is printed, and a caller that
	 * acted on it (main.c exits at once) could end the machine with the
	 * report unwritten. The mask bit is set after the report (idt.c), with
	 * a seq_cst RMW that the atomic test below reads. A CPU that faulted
	 * inside its report never sets the bit: after pc->crashed has stood for
	 * a second it counts as crashed too, so this never hangs. */
	uint64_t since = 0;
	/* The claim clock runs from the posting, so smp_run_all's waits, one
	 * CPU after another, give up together, not one bound after another.
	 * Plain read: every caller waits on the jobs it posted itself. */
	struct claim_wait w = { .start = pc->posted_tsc, .last_kick = pc->posted_tsc };
	bool claimed = false;
	/* ACQUIRE pairs with the AP's RELEASE of busy: fn's results are visible. */
	while (__atomic_load_n(&pc->busy, __ATOMIC_ACQUIRE)) {
		if (cpumask_test_atomic(idt_crashed_mask(), cpu))
			return -1;
		if (!claimed) {
			int u = unclaimed(cpu, pc, &w);
			if (u < 0)
				return -1;
			claimed = u > 0;
		}
		if (READ_ONCE(pc->crashed)) {
			if (!since)
				since = rdtsc();
			else if (tsc_to_ns(rdtsc() - since) > 1000000000ull)
				return -1;
		}
		cpu_relax();
	}
	return cpumask_test_atomic(idt_crashed_mask(), cpu) ? -1 : 0;
}

int smp_run_all(void (*fn)(void *), void *arg)
{
	unsigned self = smp_cpu_id(), cpu;
	int rc = 0;
	for_each_cpu(cpu, &cpu_table.online)
		if (cpu != self && smp_start_on(cpu, fn, arg))
			rc = -1;
	fn(arg);
	for_each_cpu(cpu, &cpu_table.online)
		if (cpu != self && smp_wait_idle(cpu))
			rc = -1;
	return rc;
}
