/* net/'s own view of the payload (netenv.h) mapped onto arch/ and lib/:
 * uncached MMIO mappings, the console and the command line. The only net/
 * file that includes arch/ beyond pci.h and io.h. */
#include <stdarg.h>
#include "net/netenv.h"
#include "arch/paging.h"
#include "lib/printf.h"
#include "lib/cmdline.h"

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
