/* arch/exit.c — machine_exit(): isa-debug-exit, halt or reboot (arch/exit.h). */
#include "arch/exit.h"
#include "arch/acpi.h"
#include "arch/cpu.h"
#include "arch/io.h"
#include "lib/cmdline.h"
#include "lib/cmdline_words.h"
#include "lib/printf.h"

static int end_mode = CMDLINE_END_EXIT;

int machine_exit_init(void)
{
	int m = cmdline_choice("end", CMDLINE_ALTS(CMDLINE_VOCAB_END), CMDLINE_END_EXIT);
	end_mode = m < 0 ? CMDLINE_END_EXIT : m;
	return m < 0 ? -1 : 0;
}

static void reboot(void)
{
	if (acpi.have_fadt && acpi.fadt.reset_supported && acpi.fadt.reset_space == 1)
		outb((uint16_t)acpi.fadt.reset_addr, acpi.fadt.reset_value);
	outb(0xcf9, 0x02); /* PCI reset control: hard reset */
	io_delay();
	outb(0xcf9, 0x06);
	for (int i = 0; i < 100000 && (inb(0x64) & 2); i++)
		;
	outb(0x64, 0xfe); /* 8042 pulse reset line */
}

void machine_exit(int code)
{
	irq_disable();
	kprintf("xcbench: exit %d\n", code);
	if (end_mode == CMDLINE_END_REBOOT)
		reboot();
	else if (end_mode == CMDLINE_END_EXIT)
		outb(0xf4, (uint8_t)code); /* QEMU isa-debug-exit: exits here */
	kprintf("xcbench: halted\n");
	cpu_stop();
}
