/* tests/netenv_host.c — the net/netenv.h pieces the net host tests share:
 * the console line as a TAP comment, and MMIO "mapped" where it lies. (Time,
 * DMA memory and the command line stay in each test: they are what the
 * tests steer.) */
#include <stdarg.h>
#include <stdio.h>
#include "../net/netenv.h"

void net_log(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	printf("# ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
}

volatile void *net_map_mmio(uint64_t phys, uint64_t size)
{
	(void)size;
	return (volatile void *)(uintptr_t)phys;
}
