/* arch/mem.c — bump page allocator over the usable RAM ranges (arch/mem.h). */
#include "arch/mem.h"
#include "lib/printf.h"
#include "lib/spinlock.h"
#include "lib/string.h"

#define MAX_FREE 32
struct range {
	uint64_t start, end;
};
static struct range free_ranges[MAX_FREE];
static unsigned nfree;
/* Protects free_ranges: several CPUs may allocate at once. */
static spinlock_t mem_lock = SPINLOCK_INIT;

static void add_free(uint64_t s, uint64_t e)
{
	/* Cut out the image, the low 1 MiB (trampoline, BIOS data) and 4 GiB+. */
	uint64_t is = (uintptr_t)__image_start, ie = (uintptr_t)__image_end;
	if (s < (1u << 20))
		s = 1u << 20;
	if (e > (4ULL << 30))
		e = 4ULL << 30;
	s = (s + PAGE_SIZE - 1) & ~(uint64_t)(PAGE_SIZE - 1);
	e &= ~(uint64_t)(PAGE_SIZE - 1);
	if (s >= e)
		return;
	if (s < ie && e > is) {
		add_free(s, is);
		add_free(ie, e);
		return;
	}
	if (nfree < MAX_FREE)
		free_ranges[nfree++] = (struct range){ s, e };
}

static uint64_t usable;

void mem_init(const struct boot_mem_range *map, unsigned n, uint64_t usable_bytes)
{
	usable = usable_bytes;
	for (unsigned i = 0; i < n; i++) {
		const struct boot_mem_range *r = &map[i];
		if (r->type == BOOT_MEM_USABLE)
			add_free(r->base, r->base + r->len);
	}
}

void *page_alloc(size_t npages)
{
	uint64_t bytes = (uint64_t)npages * PAGE_SIZE;
	void *p = NULL;
	unsigned long f = spin_lock_irqsave(&mem_lock);
	for (unsigned i = 0; i < nfree; i++) {
		if (free_ranges[i].end - free_ranges[i].start >= bytes) {
			p = (void *)(uintptr_t)free_ranges[i].start;
			free_ranges[i].start += bytes;
			break;
		}
	}
	spin_unlock_irqrestore(&mem_lock, f);
	if (p)
		memset(p, 0, bytes);
	return p;
}

uint64_t mem_free_bytes(void)
{
	uint64_t n = 0;
	for (unsigned i = 0; i < nfree; i++)
		n += free_ranges[i].end - free_ranges[i].start;
	return n;
}

uint64_t mem_usable_bytes(void)
{
	return usable;
}
