/*
 * benchenv.c - bench/'s view of the machine (benchenv.h) mapped onto arch/ and lib/.
 * The one file in bench/ that knows the foundation's API.
 */
#include "bench/benchenv.h"
#include "bench/strbuf.h"
#include "xcb_schema.h"
#include "arch/apic.h"
#include "arch/cpu.h"
#include "arch/cpuid.h"
#include "arch/exit.h"
#include "arch/idt.h"
#include "arch/mem.h"
#include "arch/paging.h"
#include "arch/serial.h"
#include "arch/smp.h"
#include "arch/tsc.h"
#include "lib/cmdline.h"
#include "lib/cmdline_words.h"
#include "lib/printf.h"

int benv_start_on(unsigned cpu, void (*fn)(void *), void *arg) { return smp_start_on(cpu, fn, arg); }
int benv_wait_idle(unsigned cpu) { return smp_wait_idle(cpu); }
int benv_run_all(void (*fn)(void *), void *arg) { return smp_run_all(fn, arg); }
/* The crashed mask, not percpu->crashed: the latter is set first thing in the
 * exception path (its recursion guard), before the crash is counted, and a
 * runner that acted on it could end the run before the crash hook's ERROR
 * frame is out. */
int benv_cpu_crashed(unsigned cpu) { return cpumask_test_atomic(idt_crashed_mask(), cpu); }
unsigned benv_crash_count(void) { return idt_crash_count(); }
unsigned benv_package_of(unsigned cpu) { return smp_topo(cpu)->pkg; }

const char *benv_spin_set(const char *policy)
{
	int plain;
	switch (cmdline_word_index(CMDLINE_ALTS(CMDLINE_VOCAB_SPIN), policy)) {
	case CMDLINE_SPIN_AUTO:
		plain = bs_streq(cpu_facts.hypervisor, "TCGTCGTCGTCG");
		break;
	case CMDLINE_SPIN_PLAIN:
		plain = 1;
		break;
	case CMDLINE_SPIN_PAUSE:
		plain = 0;
		break;
	default:
		return 0;
	}
	/* relaxed: set on CPU 0 before any AP is handed work; smp_start_on()'s
	 * own release/acquire hand-off publishes it to the APs. */
	__atomic_store_n(&cpu_relax_plain, plain, __ATOMIC_RELAXED);
	return plain ? "plain" : "pause";
}


void benv_console(const char *s, unsigned len) { console_write(s, len); }
/* Frames go through the console lock too, so a frame line is never split by
 * another CPU's kprintf (the console sink is COM1). */
void benv_serial(const char *s, unsigned len) { console_write(s, len); }
const char *benv_cmdline_all(void) { return cmdline_shown(); }
static struct benv_boot boot = { .firmware = -1, .loader = "", .fw_vendor = "" };
void benv_set_boot(const struct benv_boot *b) { boot = *b; }
int benv_boot_firmware(void) { return boot.firmware; }

static void kv_bool(struct strbuf *sb, const char *k, int v) { sb_kv(sb, k, v ? "1" : "0"); }

static unsigned tlb_feat = ~0u;	/* AND over every CPU of paging_tlb_features_enable() */

static void tlb_feat_on(void *p)
{
	/* Each AP writes its own slot; CPU 0 reads it after smp_wait_idle()
	 * (whose hand-back orders it). */
	((unsigned *)p)[smp_cpu_id()] = paging_tlb_features_enable();
}

void benv_tlb_features(void)
{
	static unsigned got[XCB_MAX_CPUS];
	unsigned n = smp_num_cpus(), all = paging_tlb_features_enable();

	for (unsigned c = 1; c < n; c++)
		if (smp_start_on(c, tlb_feat_on, got) == 0 && smp_wait_idle(c) == 0)
			all &= got[c];
		else
			all = 0;
	tlb_feat = all;
}

void benv_facts(struct strbuf *sb)
{
	const struct cpu_facts *f = &cpu_facts;
	sb_kv(sb, "vendor", f->vendor);
	sb_kv_u64(sb, "family", f->family);
	sb_kv_u64(sb, "model", f->model);
	sb_kv_u64(sb, "stepping", f->stepping);
	/* brand strings carry leading blanks on some CPUs */
	const char *b = f->brand;
	while (*b == ' ')
		b++;
	sb_kv(sb, "brand", b);
	sb_kv(sb, "hypervisor", f->hypervisor);
	sb_kv(sb, "apic_mode", apic_mode_name());
	sb_kv_u64(sb, "tsc_khz", tsc_khz);
	sb_kv(sb, "tsc_source", tsc_source ? tsc_source : "?");
	kv_bool(sb, "pcid", f->pcid);
	kv_bool(sb, "invpcid", f->invpcid);
	if (tlb_feat != ~0u) {
		kv_bool(sb, "pcid_enabled", tlb_feat & PAGING_PCIDE);
		kv_bool(sb, "pge", tlb_feat & PAGING_PGE);
	}
	kv_bool(sb, "invariant_tsc", f->invariant_tsc);
	kv_bool(sb, "x2apic", f->x2apic);
	sb_kv(sb, "topo_source", f->topo_source ? f->topo_source : "?");
	/* Boot firmware (the schema's boot vocabulary: bios, uefi) and loader, as
	 * main.c passed them in (benv_set_boot); UEFI's revision and vendor. */
	sb_kv(sb, "boot_fw", XCB_NAME(boot, boot.firmware) /* "?": none */);
	if (boot.uefi_revision) {
		char rev[32];
		ksnprintf(rev, sizeof(rev), "%u.%u", boot.uefi_revision >> 16,
			  (boot.uefi_revision & 0xffff) / 10);
		sb_kv(sb, "uefi_rev", rev);
		sb_kv(sb, "boot_fw_vendor", boot.fw_vendor);
		ksnprintf(rev, sizeof(rev), "0x%x", boot.fw_revision);
		sb_kv(sb, "boot_fw_rev", rev);
	}
	sb_kv(sb, "loader", boot.loader[0] ? boot.loader : "?");

	unsigned n = smp_num_cpus(), pkgs = 0, maxcore = 0, maxthr = 0;
	sb_puts(sb, "apic_ids=");
	for (unsigned i = 0; i < n; i++) {
		if (i)
			sb_putc(sb, ',');
		sb_u64(sb, smp_apic_id(i));
		const struct topo *t = smp_topo(i);
		if (t->pkg + 1 > pkgs)
			pkgs = t->pkg + 1;
		if (t->core > maxcore)
			maxcore = t->core;
		if (t->thread > maxthr)
			maxthr = t->thread;
	}
	sb_putc(sb, '\n');
	/* Per-CPU package/core/thread, then a summary (ids may be sparse). */
	sb_puts(sb, "cpu_topo=");
	for (unsigned i = 0; i < n; i++) {
		const struct topo *t = smp_topo(i);
		if (i)
			sb_putc(sb, ',');
		sb_u64(sb, t->pkg);
		sb_putc(sb, '/');
		sb_u64(sb, t->core);
		sb_putc(sb, '/');
		sb_u64(sb, t->thread);
	}
	sb_putc(sb, '\n');
	sb_puts(sb, "topology=pkgs=");
	sb_u64(sb, pkgs);
	sb_puts(sb, ",cores=");
	sb_u64(sb, maxcore + 1);
	sb_puts(sb, ",threads=");
	sb_u64(sb, maxthr + 1);
	sb_putc(sb, '\n');
	sb_kv_u64(sb, "cpus_listed", smp_num_listed());
	kv_bool(sb, "all_accounted", smp_all_accounted());
}

int benv_set_delivery(enum xcb_delivery d)
{
	switch (d) {
	case XCB_DELIVERY_UNICAST:
		apic_set_delivery(XCB_DELIVERY_UNICAST);
		return 0;
	case XCB_DELIVERY_CLUSTER:
		/* The APIC layer would fall back to unicast in xAPIC mode; refuse instead
		 * so a result is never labelled with a delivery it did not use. */
		if (apic_mode() != APIC_MODE_X2APIC)
			return -1;
		apic_set_delivery(XCB_DELIVERY_CLUSTER);
		return 0;
	case XCB_DELIVERY_SHORTHAND:
		if (!smp_all_accounted())
			return -1;
		apic_set_delivery(XCB_DELIVERY_SHORTHAND);
		return 0;
	default:
		apic_set_delivery(XCB_DELIVERY_AUTO);
		return 0;
	}
}

int benv_set_idle(unsigned idle)
{
	return smp_set_idle((enum xcb_idle)idle);
}

int benv_idle_supported(unsigned idle)
{
	return idle < XCB_N_idle && smp_idle_supported((enum xcb_idle)idle);
}

const char *benv_delivery_used(enum xcb_delivery d, const struct cpumask *targets, unsigned from)
{
	/* The policy is global and only CPU 0 changes it, between cases. */
	benv_set_delivery(d);
	enum xcb_delivery used = apic_delivery_resolve(targets, from);
	benv_set_delivery(XCB_DELIVERY_AUTO);
	return XCB_NAME(delivery, used);
}

uint64_t benv_ipis_sent(unsigned cpu)
{
	/* Written only by that CPU; read after it finished (or racily, for a delta
	 * taken on that same CPU). */
	return __atomic_load_n(&percpu(cpu)->ipi_icr_writes, __ATOMIC_RELAXED);
}

/* The tick: a one-shot APIC timer re-armed from its own handler (one-shot, so a
 * handler that overruns its period cannot stack interrupts up). Only CPU 0 uses it,
 * so plain statics are enough. */
static void (*tick_fn)(void);
static unsigned tick_ms;

static void tick_handler(struct irq_frame *f)
{
	(void)f;
	apic_eoi();
	if (!tick_fn)
		return;
	tick_fn();
	if (tick_fn)
		apic_timer_oneshot((uint64_t)tick_ms * 1000, VEC_TIMER);
}

void benv_tick_start(unsigned period_ms, void (*fn)(void))
{
	static int installed;
	if (!installed) {
		idt_set_handler(VEC_TIMER, tick_handler);
		installed = 1;
	}
	tick_ms = period_ms ? period_ms : 1;
	tick_fn = fn;
	apic_timer_oneshot((uint64_t)tick_ms * 1000, VEC_TIMER);
}

void benv_tick_stop(void)
{
	tick_fn = 0;
	apic_timer_stop();
}

static benv_crash_fn crash_fn;

static void crash_adapter(unsigned cpu, const struct irq_frame *f)
{
	if (crash_fn)
		crash_fn(cpu, (unsigned)f->vector, f->error, f->rip);
}

void benv_set_crash_hook(benv_crash_fn hook)
{
	crash_fn = hook;
	idt_set_crash_hook(crash_adapter);
}

_Static_assert(BENV_EXIT_FAIL == XCB_EXIT_FAIL && BENV_EXIT_CRASH == XCB_EXIT_CRASH,
	       "bench's exit codes are arch/exit.h's");

void benv_exit(int code)
{
	machine_exit(code);
}
