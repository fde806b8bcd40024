/* arch/mem.h — a page allocator for RAM below 4 GiB (identity-mapped), from
 * the memory map the boot found (multiboot or EFI), which main.c passes in.
 * Bump allocation, never freed: the payload sets up its buffers (frame
 * windows, histograms, samples, stacks) once. */
#ifndef XCB_ARCH_MEM_H
#define XCB_ARCH_MEM_H
#include <stddef.h>
#include <stdint.h>

#define PAGE_SIZE 4096u

/* One range of the boot's memory map (boot/bootinfo.h holds the map). */
#define BOOT_MEM_USABLE 1
struct boot_mem_range {
	uint64_t base, len;
	uint32_t type; /* multiboot/E820 type: 1 usable, 3 ACPI, 4 NVS, ... */
};

/* Linker symbols bounding the loaded image (.text to the end of .bss; the
 * linker script, boot/linker.ld, defines them): never handed out. */
extern char __image_start[], __image_end[];

/* Takes the usable ranges of map[0..n) (usable_bytes: their total, as the
 * boot counted it, for mem_usable_bytes). */
void mem_init(const struct boot_mem_range *map, unsigned n, uint64_t usable_bytes);
/* npages zeroed, 4 KiB-aligned pages, or NULL when RAM is exhausted. Safe to
 * call from any CPU. */
void *page_alloc(size_t npages);
uint64_t mem_free_bytes(void);
uint64_t mem_usable_bytes(void);

#endif
