/* arch/acpi.c — find the ACPI tables in memory and hand them to the parsers
 * (arch/acpi.h). Tables below 4 GiB are read in place (identity map); above,
 * they are mapped first. */
#include "arch/acpi.h"
#include "arch/paging.h"
#include "lib/printf.h"
#include "lib/string.h"

struct acpi_state acpi;

static const void *phys(uint64_t pa, uint64_t len)
{
	if (pa + len > (4ULL << 30) && paging_map_mmio(pa, len))
		return NULL;
	return (const void *)(uintptr_t)pa;
}

static uint64_t scan_rsdp(uint64_t start, uint64_t len)
{
	for (uint64_t a = start; a + 36 <= start + len; a += 16)
		if (rsdp_check((const void *)(uintptr_t)a, 36) >= 0)
			return a;
	return 0;
}

static uint64_t find_rsdp(uint64_t hint)
{
	/* UEFI: from the configuration table (boot/efi/main.c, below 4 GiB; main.c
	 * passes boot_info.rsdp in). */
	if (hint && rsdp_check((const void *)(uintptr_t)hint, 36) >= 0)
		return hint;
	uint64_t ebda = (uint64_t)(*(const volatile uint16_t *)0x40e) << 4;
	uint64_t a = 0;
	if (ebda >= 0x80000 && ebda < 0xa0000)
		a = scan_rsdp(ebda, 1024);
	if (!a)
		a = scan_rsdp(0xe0000, 0x20000);
	return a;
}

/* Length of the SDT at pa (after checking it can be read), or 0. */
static uint32_t sdt_len(uint64_t pa)
{
	const uint8_t *h = phys(pa, ACPI_HDR_LEN);
	if (!h)
		return 0;
	uint32_t len;
	memcpy(&len, h + 4, 4);
	if (len < ACPI_HDR_LEN || len > (1u << 20) || !phys(pa, len))
		return 0;
	return len;
}

uint64_t acpi_find_table(const char *sig)
{
	if (!acpi.found)
		return 0;
	const uint8_t *r = (const uint8_t *)(uintptr_t)acpi.rsdp_addr;
	uint64_t root = 0;
	unsigned esz = 4;
	if (acpi.revision >= 2) {
		memcpy(&root, r + 24, 8);
		esz = 8;
	}
	if (!root) {
		uint32_t rsdt;
		memcpy(&rsdt, r + 16, 4);
		root = rsdt;
		esz = 4;
	}
	uint32_t len = sdt_len(root);
	char err[128];
	if (!len || !acpi_table_check(phys(root, len), len, esz == 8 ? "XSDT" : "RSDT", 0, err, sizeof(err)))
		return 0;
	const uint8_t *t = phys(root, len);
	for (uint32_t off = ACPI_HDR_LEN; off + esz <= len; off += esz) {
		uint64_t pa = 0;
		memcpy(&pa, t + off, esz);
		if (!pa || !sdt_len(pa))
			continue;
		if (!memcmp(phys(pa, 4), sig, 4))
			return pa;
	}
	return 0;
}

/* One counted warning per kind of MADT entry we did not take. */
static void madt_warn(const struct madt_info *m)
{
	if (m->skip_disabled)
		kprintf("xcbench: warning: MADT: %u disabled cpu entries skipped (not started)\n",
			m->skip_disabled);
	if (m->skip_dup)
		kprintf("xcbench: warning: MADT: %u entries repeat an APIC ID already listed: skipped\n",
			m->skip_dup);
	if (m->skip_limit)
		kprintf("xcbench: warning: MADT: %u enabled cpus past the limit of %d: skipped\n",
			m->skip_limit, MADT_MAX_CPUS);
	if (m->skip_invalid)
		kprintf("xcbench: warning: MADT: %u entries with a placeholder APIC ID skipped\n",
			m->skip_invalid);
}

int acpi_init(uint64_t rsdp_hint)
{
	char err[160];
	acpi.rsdp_addr = find_rsdp(rsdp_hint);
	if (!acpi.rsdp_addr) {
		kprintf("xcbench: error: no ACPI RSDP found (EBDA, 0xe0000-0xfffff)\n");
		return -1;
	}
	acpi.found = true;
	acpi.revision = ((const uint8_t *)(uintptr_t)acpi.rsdp_addr)[15];

	uint64_t fadt = acpi_find_table("FACP");
	if (fadt) {
		uint32_t len = sdt_len(fadt);
		if (fadt_parse(phys(fadt, len), len, &acpi.fadt, err, sizeof(err)))
			kprintf("xcbench: warning: FADT ignored: %s\n", err);
		else
			acpi.have_fadt = true;
	}
	uint64_t madt = acpi_find_table("APIC");
	if (!madt) {
		kprintf("xcbench: error: no MADT (APIC table) in the ACPI tables\n");
		return -1;
	}
	uint32_t len = sdt_len(madt);
	if (madt_parse(phys(madt, len), len, &acpi.madt, err, sizeof(err))) {
		kprintf("xcbench: error: MADT rejected: %s\n", err);
		return -1;
	}
	acpi.have_madt = true;
	madt_warn(&acpi.madt);
	kprintf("xcbench: acpi rsdp 0x%lx rev %d, madt %u entries, %u cpus listed (%u enabled), lapic 0x%lx, "
		"pm timer port 0x%x\n",
		(unsigned long)acpi.rsdp_addr, acpi.revision, acpi.madt.nentries, acpi.madt.ncpus, acpi.madt.nenabled,
		(unsigned long)acpi.madt.lapic_addr, acpi.fadt.pm_tmr_port);
	return 0;
}
