/* arch/paging.h — page tables.
 *
 * Boot (boot/entry.S) identity-maps 0-4 GiB with 2 MiB pages; paging_init()
 * makes the LAPIC/IOAPIC pages uncached. Everything else the payload touches
 * (RAM below 4 GiB, ACPI tables) is reachable at its physical address.
 *
 * For TLB-shootdown experiments, a 4 KiB-granular TEST WINDOW outside the
 * identity map: paging_map_4k(va, pa, flags) installs one PTE (creating the
 * tables it needs), paging_pte(va) returns a pointer to the PTE so an
 * experiment can change it, and the caller flushes (invlpg, write_cr3 or
 * invpcid) — nothing here flushes for you. All CPUs share one set of tables. */
#ifndef XCB_ARCH_PAGING_H
#define XCB_ARCH_PAGING_H
#include <stdbool.h>
#include <stdint.h>

#define PTE_P (1ULL << 0)
#define PTE_W (1ULL << 1)
#define PTE_U (1ULL << 2)
#define PTE_PWT (1ULL << 3)
#define PTE_PCD (1ULL << 4)
#define PTE_A (1ULL << 5)
#define PTE_D (1ULL << 6)
#define PTE_PS (1ULL << 7)
#define PTE_G (1ULL << 8)
#define PTE_ADDR 0x000ffffffffff000ULL

/* 512 GiB: PML4 slot 1, far from the identity map. 2 MiB = 512 pages. */
#define PAGING_TEST_WINDOW 0x8000000000ULL
#define PAGING_TEST_WINDOW_SIZE (2ULL << 20)

void paging_init(void);
/* Maps one 4 KiB page (va >= 4 GiB, page aligned). 0 ok, -1 bad va / no memory. */
int paging_map_4k(uint64_t va, uint64_t pa, uint64_t flags);
/* The PTE for va, or NULL when no page table covers it. */
volatile uint64_t *paging_pte(uint64_t va);
/* Identity-maps [pa, pa+len) uncached with 2 MiB pages (MMIO such as PCI BARs
 * above 4 GiB; below 4 GiB it just marks the pages uncached). 0 ok. */
int paging_map_mmio(uint64_t pa, uint64_t len);
/* Turns on CR4.PCIDE on THIS CPU when CPUID offers PCID (CR3's PCID field is 0
 * then); run it on every CPU that should use PCIDs. */
bool paging_pcid_enable(void);
/* Global pages (CR4.PGE, identity map marked global) and PCIDs (CR4.PCIDE) on
 * THIS CPU where CPUID offers them; run it on every CPU. Returns what is on. */
#define PAGING_PGE 1u
#define PAGING_PCIDE 2u
unsigned paging_tlb_features_enable(void);

static inline void invlpg(const volatile void *va)
{
	__asm__ __volatile__("invlpg (%0)" :: "r"(va) : "memory");
}

static inline uint64_t paging_read_cr3(void)
{
	uint64_t v;
	__asm__ __volatile__("mov %%cr3, %0" : "=r"(v));
	return v;
}

static inline void paging_write_cr3(uint64_t v)
{
	__asm__ __volatile__("mov %0, %%cr3" :: "r"(v) : "memory");
}

/* Full flush of non-global entries of the current PCID. */
static inline void flush_tlb_local(void) { paging_write_cr3(paging_read_cr3() & ~(1ULL << 63)); }

#define INVPCID_ADDR 0       /* one address in one PCID */
#define INVPCID_CONTEXT 1    /* all of one PCID */
#define INVPCID_ALL_GLOBAL 2 /* everything, including globals */
#define INVPCID_ALL 3        /* everything except globals */
/* Only when cpu_facts.invpcid. */
static inline void invpcid(unsigned type, uint64_t pcid, uint64_t va)
{
	struct {
		uint64_t pcid, va;
	} d = { pcid, va };
	__asm__ __volatile__("invpcid %0, %1" :: "m"(d), "r"((uint64_t)type) : "memory");
}

#endif
