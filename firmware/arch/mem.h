/* arch/mem.h — a page allocator for RAM below 4 GiB (identity-mapped), from
 * the multiboot memory map. Bump allocation, never freed: the payload sets up
 * its buffers (frame windows, histograms, samples, stacks) once. */
#ifndef XCB_ARCH_MEM_H
#define XCB_ARCH_MEM_H
#include <stddef.h>
#include <stdint.h>

#define PAGE_SIZE 4096u

void mem_init(void);
/* npages zeroed, 4 KiB-aligned pages, or NULL when RAM is exhausted. Safe to
 * call from any CPU. */
void *page_alloc(size_t npages);
uint64_t mem_free_bytes(void);
uint64_t mem_usable_bytes(void);

#endif
