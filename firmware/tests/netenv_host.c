/* tests/netenv_host.c — the net/netenv.h pieces the net host tests share:
 * the console line as a TAP comment, MMIO "mapped" where it lies, and a DMA
 * allocator that counts and can be made to fail (tests/netenv_host.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "net/netenv.h"
#include "tests/netenv_host.h"

#define MAX_ALLOCS 64

static void *allocs[MAX_ALLOCS];
unsigned dma_nallocs, dma_fail_at;

void *plat_alloc_zeroed(unsigned long bytes)
{
	if (dma_fail_at && dma_nallocs + 1 == dma_fail_at) {
		dma_fail_at = 0;
		return NULL;
	}
	void *p = aligned_alloc(4096, (bytes + 4095) & ~4095ul);
	assert_non_null(p);
	assert_true(dma_nallocs < MAX_ALLOCS);
	memset(p, 0, bytes);
	return allocs[dma_nallocs++] = p;
}

void dma_free_all(void)
{
	while (dma_nallocs)
		free(allocs[--dma_nallocs]);
	dma_fail_at = 0;
}

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
