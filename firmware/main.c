/* main.c — the payload's entry from boot/entry.S: bring the machine up
 * (console, CPUs, APIC, clock), print the machine report, hand over to the
 * benchmark layer (bench_main, when linked in) and exit. */
#include <stdint.h>
#include "arch/acpi.h"
#include "arch/apic.h"
#include "arch/cpu.h"
#include "arch/cpuid.h"
#include "arch/exit.h"
#include "arch/idt.h"
#include "arch/mem.h"
#include "arch/paging.h"
#include "arch/selftest.h"
#include "arch/serial.h"
#include "arch/smp.h"
#include "arch/tsc.h"
#include "boot/bootinfo.h"
#include "lib/cmdline.h"
#include "lib/cmdline_words.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "bench/benchenv.h"
#include "bench/smoke.h"

#ifndef XCB_FW_VERSION
#define XCB_FW_VERSION "dev"
#endif

/* The benchmark layer's entry points (bench/), if linked: bench_main returns
 * an exit code. Weak, so the foundation alone (make SRCDIRS="boot arch lib",
 * firmware/README.md) still links and boots to its report. */
int bench_main(void) __attribute__((weak));
int xcall_smoke(unsigned iters) __attribute__((weak));
void benv_set_boot(const struct benv_boot *b) __attribute__((weak));

void kmain(uint32_t magic, uint32_t mbi);

/* xcall_smoke()'s result as the payload's exit code (bench/smoke.h). */
static int smoke_exit(int r)
{
	return r == XCALL_SMOKE_BAD_CMDLINE ? XCB_EXIT_CONFIG : r ? XCB_EXIT_FAIL : XCB_EXIT_OK;
}

static volatile unsigned answered;
static void answer(void *arg)
{
	(void)arg;
	__atomic_fetch_add(&answered, 1, __ATOMIC_SEQ_CST);
}

/* Takes the fault crash= names (arg: its enum cmdline_crash, as a pointer). */
static void do_crash(void *arg)
{
	enum cmdline_crash how = (enum cmdline_crash)(uintptr_t)arg;
	if (how == CMDLINE_CRASH_PF) {
		volatile uint64_t *p = (volatile uint64_t *)(PAGING_TEST_WINDOW + 0x1000);
		(void)*p; /* nothing is mapped there yet */
	} else if (how == CMDLINE_CRASH_UD) {
		__asm__ __volatile__("ud2");
	} else if (how == CMDLINE_CRASH_GP) {
		volatile uint64_t *p = (volatile uint64_t *)0x8000000000000000ULL; /* non-canonical */
		(void)*p;
	} else if (how == CMDLINE_CRASH_DE) {
		volatile unsigned z = 0;
		kprintf("%u\n", 1u / z);
	}
}

static int crash_test(void)
{
	const char *how = cmdline_str("crash", NULL);
	if (!how)
		return 0;
	int fault = cmdline_choice("crash", CMDLINE_ALTS(CMDLINE_VOCAB_CRASH), 0);
	if (fault < 0)
		return XCB_EXIT_CONFIG;
	/* Checked whole against the CPUs online (a cast took 4294967297 as
	 * cpu 1); absent: the BSP. */
	unsigned cpu;
	if (cmdline_cpu("crash_cpu", smp_num_cpus(), &cpu) < 0)
		return XCB_EXIT_CONFIG;
	if (cpu == ~0u)
		cpu = 0;
	kprintf("xcbench: crash=%s on cpu %u (deliberate)\n", how, cpu);
	if (cpu == smp_cpu_id()) {
		do_crash((void *)(uintptr_t)fault);
	} else if (smp_start_on(cpu, do_crash, (void *)(uintptr_t)fault) == 0) {
		if (smp_wait_idle(cpu) < 0) {
			kprintf("xcbench: cpu %u crashed (reported above)\n", cpu);
			return XCB_EXIT_CRASH;
		}
	} else {
		kprintf("xcbench: error: cmdline key 'crash_cpu': cpu %u did not start\n", cpu);
		return XCB_EXIT_CONFIG;
	}
	kprintf("xcbench: error: crash=%s did not fault\n", how);
	return XCB_EXIT_FAIL;
}

void kmain(uint32_t magic, uint32_t mbi)
{
	serial_init(SERIAL_COM1);
	console_set_sink(serial_write);
	/* Copy the loader's data before anything (the AP trampoline) reuses low memory. */
	boot_info_parse(magic, mbi);
	cpuid_collect(); /* before smp_init_bsp: per-CPU setup looks at the facts */
	smp_init_bsp(); /* GS base, GDT/TSS, IDT: exceptions are reported from here on */
	kprintf("xcbench: payload %s booting (loader \"%s\")\n", XCB_FW_VERSION,
		boot_info.loader[0] ? boot_info.loader : "unknown");
	if (boot_info.firmware == XCB_BOOT_UEFI)
		kprintf("xcbench: boot firmware UEFI %u.%u, \"%s\" rev 0x%x, rsdp 0x%lx\n",
			boot_info.uefi_revision >> 16, (boot_info.uefi_revision & 0xffff) / 10,
			boot_info.fw_vendor, boot_info.fw_revision, (unsigned long)boot_info.rsdp);
	else if (magic != MULTIBOOT_BOOTLOADER_MAGIC)
		kprintf("xcbench: warning: not started by a multiboot loader (magic 0x%x)\n", magic);
	/* UEFI: boot/efi/ removed the image name if there was one (LoadOptions may
	 * have none); multiboot loaders always put it first. */
	if (boot_info.firmware == XCB_BOOT_UEFI)
		cmdline_init_noname(boot_info.cmdline);
	else
		cmdline_init(boot_info.cmdline);
	kprintf("xcbench: cmdline \"%s\"\n", cmdline_shown()); /* run=, server= masked */
	cmdline_check_keys();
	/* A bad end= or console= stops here, as every bad value does (README):
	 * end=rebot halted where a reboot was asked, console=nnone printed.
	 * So do tsc=, spin= and transport=, whose parsers read a word that is
	 * none of theirs as a default (pit, auto, serial): tsc=hpet measured
	 * by the PIT. Each refused by cmdline_choice's one line (did you mean). */
	int bad_end = machine_exit_init(), console = cmdline_choice("console", CMDLINE_ALTS(CMDLINE_VOCAB_CONSOLE),
									     CMDLINE_CONSOLE_SERIAL);
	int bad_word = cmdline_choice("tsc", CMDLINE_ALTS(CMDLINE_VOCAB_TSC), 0) |
		       cmdline_choice("spin", CMDLINE_ALTS(CMDLINE_VOCAB_SPIN), 0) |
		       cmdline_choice("transport", CMDLINE_ALTS(CMDLINE_VOCAB_TRANSPORT), 0);
	if (bad_end < 0 || console < 0 || bad_word < 0)
		machine_exit(XCB_EXIT_CONFIG);
	if (console == CMDLINE_CONSOLE_NONE)
		console_set_sink(NULL);

	mem_init(boot_info.mem, boot_info.nmem, boot_info.usable_bytes);
	paging_init();
	cpuid_report();
	kprintf("xcbench: memory %lu MiB usable, %lu MiB free for buffers\n",
		(unsigned long)(mem_usable_bytes() >> 20), (unsigned long)(mem_free_bytes() >> 20));

	if (acpi_init(boot_info.rsdp))
		kprintf("xcbench: warning: no usable MADT: running on the boot CPU only\n");
	if (apic_init_bsp(cmdline_str("apic", "auto")))
		machine_exit(XCB_EXIT_CONFIG);
	if (tsc_init())
		machine_exit(XCB_EXIT_FAIL);
	apic_timer_calibrate();
	if (smp_boot_aps())
		machine_exit(XCB_EXIT_CONFIG);
	smp_report();
	kprintf("xcbench: %u/%u cpus online, tsc %lu kHz (%s), apic %s\n", smp_num_cpus(), smp_num_listed(),
		(unsigned long)tsc_khz, tsc_source, apic_mode_name());

	/* Every AP must run a function handed to it: proves kick + idle loop. */
	if (smp_run_all(answer, NULL) || answered != smp_num_cpus()) {
		kprintf("xcbench: error: only %u of %u cpus ran a test call\n", answered, smp_num_cpus());
		machine_exit(XCB_EXIT_FAIL);
	}
	if (smp_rekicks())
		kprintf("xcbench: boot check: %u job kicks sent again (jobs left unclaimed)\n", smp_rekicks());

	if (arch_selftest())
		machine_exit(XCB_EXIT_FAIL);

	int rc = crash_test();
	uint64_t smoke_iters, boot_only;
	if (cmdline_u64("boot_only", 0, &boot_only) < 0)
		rc = XCB_EXIT_CONFIG;
	if (rc || boot_only)
		; /* boot_only=1: the machine report above is all that was asked for */
	else if (xcall_smoke && cmdline_has("xcall_smoke")) /* xcall/flush self-test instead of the bench */
		rc = cmdline_u64("xcall_smoke", 0, &smoke_iters) < 0 ? XCB_EXIT_CONFIG : smoke_exit(xcall_smoke((unsigned)smoke_iters));
	else if (bench_main) {
		benv_set_boot(&(struct benv_boot){ boot_info.firmware, boot_info.loader, boot_info.fw_vendor,
						   boot_info.fw_revision, boot_info.uefi_revision });
		rc = bench_main();
	}
	if (idt_crash_count())
		rc = XCB_EXIT_CRASH;
	machine_exit(rc);
}
