/* net/'s view of the payload (netenv.h) mapped onto arch/ and lib/: TSC time,
 * the page allocator, uncached MMIO mappings, the console and the command
 * line. The only net/ file that includes arch/ beyond pci.h and io.h. */
#include <stdarg.h>
#include "netenv.h"
#include "../arch/tsc.h"
#include "../arch/mem.h"
#include "../arch/paging.h"
#include "../lib/printf.h"
#include "../lib/cmdline.h"

uint64_t net_now_us(void)
{
	/* tsc_khz is calibrated before the network comes up; cycles / (kHz /
	 * 1000) = µs. Split to avoid overflowing rdtsc() * 1000 on long uptimes. */
	uint64_t t = rdtsc(), khz = tsc_khz ? tsc_khz : 1000000;
	return t / khz * 1000 + t % khz * 1000 / khz;
}

void *net_dma_alloc(unsigned long bytes)
{
	return page_alloc((bytes + PAGE_SIZE - 1) / PAGE_SIZE);
}

volatile void *net_map_mmio(uint64_t phys, uint64_t size)
{
	if (paging_map_mmio(phys, size) != 0)
		return 0;
	return (volatile void *)(uintptr_t)phys;   /* identity-mapped */
}

void net_log(const char *fmt, ...)
{
	char line[256];
	va_list ap;
	va_start(ap, fmt);
	int n = kvsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((unsigned)n > sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	line[n] = 0;
	kprintf("%s", line);
}

const char *net_cmdline(const char *key)
{
	return cmdline_str(key, 0);
}

void net_relax(void)
{
	__asm__ volatile("pause" ::: "memory");
}
