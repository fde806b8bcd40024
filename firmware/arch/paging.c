/* arch/paging.c — identity map fix-ups, the 4 KiB test window, MMIO maps
 * (arch/paging.h). */
#include "arch/paging.h"
#include "arch/cpu.h"
#include "arch/cpuid.h"
#include "arch/mem.h"
#include "lib/spinlock.h"

extern uint64_t boot_pml4[512], boot_pdpt[512], boot_pd[4 * 512];
/* Serialises table creation: two CPUs mapping into the same empty slot must
 * not both allocate a table. PTE updates by experiments don't take it. */
static spinlock_t pt_lock = SPINLOCK_INIT;

static uint64_t *table_of(uint64_t entry)
{
	return (uint64_t *)(uintptr_t)(entry & PTE_ADDR);
}

/* Returns the next-level table under *e, allocating it when absent. */
static uint64_t *next_table(uint64_t *e)
{
	if (!(*e & PTE_P)) {
		void *t = page_alloc(1);
		if (!t)
			return NULL;
		*e = (uintptr_t)t | PTE_P | PTE_W;
	}
	if (*e & PTE_PS)
		return NULL; /* a large page already maps this range */
	return table_of(*e);
}

void paging_init(void)
{
	/* The LAPIC (0xfee00000) and IOAPIC (0xfec00000) 2 MiB pages: uncached.
	 * MTRRs say so on real machines; the PTEs now agree. */
	boot_pd[0xfee00000u >> 21] |= PTE_PCD | PTE_PWT;
	boot_pd[0xfec00000u >> 21] |= PTE_PCD | PTE_PWT;
	flush_tlb_local();
}

int paging_map_mmio(uint64_t pa, uint64_t len)
{
	uint64_t s = pa & ~((2ULL << 20) - 1), e = pa + len;
	int rc = 0;
	unsigned long f = spin_lock_irqsave(&pt_lock);
	for (uint64_t a = s; a < e; a += 2ULL << 20) {
		if (a < (4ULL << 30)) {
			boot_pd[a >> 21] |= PTE_PCD | PTE_PWT;
			invlpg((void *)(uintptr_t)a);
			continue;
		}
		if (a >= (1ULL << 46)) {
			rc = -1;
			break;
		}
		uint64_t *pdpt = next_table(&boot_pml4[(a >> 39) & 511]);
		uint64_t *pd = pdpt ? next_table(&pdpt[(a >> 30) & 511]) : NULL;
		if (!pd) {
			rc = -1;
			break;
		}
		pd[(a >> 21) & 511] = a | PTE_P | PTE_W | PTE_PS | PTE_PCD | PTE_PWT;
		invlpg((void *)(uintptr_t)a);
	}
	spin_unlock_irqrestore(&pt_lock, f);
	return rc;
}

int paging_map_4k(uint64_t va, uint64_t pa, uint64_t flags)
{
	if (va < (4ULL << 30) || va >= (1ULL << 47) || (va & 0xfff) || (pa & 0xfff))
		return -1;
	int rc = -1;
	unsigned long f = spin_lock_irqsave(&pt_lock);
	uint64_t *pdpt = next_table(&boot_pml4[(va >> 39) & 511]);
	uint64_t *pd = pdpt ? next_table(&pdpt[(va >> 30) & 511]) : NULL;
	uint64_t *pt = pd ? next_table(&pd[(va >> 21) & 511]) : NULL;
	if (pt) {
		/* One aligned 64-bit store: other CPUs' walks see old or new. */
		__atomic_store_n(&pt[(va >> 12) & 511], (pa & PTE_ADDR) | flags, __ATOMIC_RELEASE);
		rc = 0;
	}
	spin_unlock_irqrestore(&pt_lock, f);
	return rc;
}

volatile uint64_t *paging_pte(uint64_t va)
{
	if (va >= (1ULL << 47))
		return NULL;
	uint64_t e = boot_pml4[(va >> 39) & 511];
	if (!(e & PTE_P))
		return NULL;
	e = table_of(e)[(va >> 30) & 511];
	if (!(e & PTE_P) || (e & PTE_PS))
		return NULL;
	e = table_of(e)[(va >> 21) & 511];
	if (!(e & PTE_P) || (e & PTE_PS))
		return NULL;
	return &table_of(e)[(va >> 12) & 511];
}

bool paging_pcid_enable(void)
{
	if (!cpu_facts.pcid)
		return false;
	if (paging_read_cr3() & 0xfff)
		return false;
	write_cr4(read_cr4() | CR4_PCIDE);
	return true;
}

/*
 * Global pages and PCIDs on THIS CPU where CPUID offers them, because Xen and
 * Linux run with both: a CR3 reload then keeps the (global) kernel mappings
 * and INVPCID works on a tagged TLB, so the TLB methods cost what they cost
 * there. The identity map's 2 MiB pages become global (PTE_G, once, under
 * pt_lock); the test window's 4 KiB pages never are, so a CR3 reload still
 * drops them. Changes to the identity map after this are followed by INVLPG
 * (paging_map_mmio), which also drops global entries.
 */
unsigned paging_tlb_features_enable(void)
{
	static bool marked;
	struct cpuid_regs r;
	unsigned got = 0;

	cpuid(1, &r);
	if (r.edx & (1u << 13)) {		/* CPUID.1:EDX.PGE */
		unsigned long f = spin_lock_irqsave(&pt_lock);
		if (!marked) {
			for (unsigned i = 0; i < 4 * 512; i++)
				if ((boot_pd[i] & (PTE_P | PTE_PS)) == (PTE_P | PTE_PS))
					boot_pd[i] |= PTE_G;
			marked = true;
		}
		spin_unlock_irqrestore(&pt_lock, f);
		write_cr4(read_cr4() | CR4_PGE);
		got |= PAGING_PGE;
	}
	if ((read_cr4() & CR4_PCIDE) || paging_pcid_enable())
		got |= PAGING_PCIDE;
	return got;
}
