/* arch/acpi.h — ACPI: find the RSDP, walk the RSDT/XSDT, parse the MADT (CPUs
 * and the local APIC address) and the FADT (PM timer).
 *
 * The parsers (acpi_parse.c) work on byte buffers and never read past the
 * length they are given: truncated or inconsistent tables are rejected with a
 * message in err[]. They are host-unit-tested (tests/test_madt.c). The
 * hardware side (acpi.c) finds the tables in memory. */
#ifndef XCB_ARCH_ACPI_H
#define XCB_ARCH_ACPI_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/cpumask.h"

#define ACPI_HDR_LEN 36
/* CPU entries kept from a MADT: as many as we can run (enabled entries are
 * kept before disabled ones, see madt_parse). */
#define MADT_MAX_CPUS XCB_MAX_CPUS

struct madt_cpu {
	uint32_t apic_id;
	uint32_t uid;       /* ACPI processor UID */
	bool enabled;       /* flags bit 0: present and usable now */
	bool online_capable;/* flags bit 1 (ACPI 6.3): may be hot-added */
	bool x2apic_entry;  /* came from a type-9 (local x2APIC) entry */
};

struct madt_info {
	uint64_t lapic_addr;     /* header field, or the type-5 override */
	uint32_t flags;          /* bit 0: PC-AT 8259s present */
	unsigned ncpus;          /* entries kept (enabled first, then disabled) */
	unsigned nenabled;       /* enabled entries kept */
	unsigned nenabled_all;   /* distinct enabled CPUs listed, kept or not (the "M" of "N of M") */
	unsigned nioapic;
	unsigned nentries;       /* every entry of the table, any type */
	/* Entries skipped, each counted (acpi.c warns once per kind): */
	unsigned skip_disabled;  /* not enabled: never started (kept for the report while room) */
	unsigned skip_dup;       /* an APIC ID already listed (e.g. a disabled x2APIC entry
				  * repeating an xAPIC one, which Linux ignores too) */
	unsigned skip_limit;     /* enabled CPUs past MADT_MAX_CPUS */
	unsigned skip_invalid;   /* placeholder IDs (0xff / 0xffffffff) */
	struct madt_cpu cpu[MADT_MAX_CPUS];
};

/* Byte-sum of len bytes (0 for a valid table). */
uint8_t acpi_checksum(const void *buf, size_t len);
/* Checks a table header: buffer holds at least 36 bytes, its length field is
 * >= min_len and <= buflen, signature matches (when sig != NULL). Returns the
 * table length, or 0 with err filled. */
uint32_t acpi_table_check(const void *buf, size_t buflen, const char *sig, uint32_t min_len,
			  char *err, size_t errlen);
/* Parses a MADT in buf[0..buflen) with any number of entries. 0 ok, -1 with
 * err only for a structurally broken table: header or entry lengths that do
 * not add up (e.g. "MADT entry 3 at offset 60 runs past the table end (length
 * 200)"), a bad checksum, or no enabled CPU at all. Everything else is
 * skipped and counted (the skip_* fields): placeholder IDs, disabled entries
 * (never started), repeated APIC IDs (an enabled entry wins over a disabled
 * one, else the first), enabled CPUs past MADT_MAX_CPUS. Enabled CPUs are
 * kept first, in table order; disabled ones (hot-pluggable slots) fill what
 * room is left, so they are reported but never push a present CPU out. */
int madt_parse(const void *buf, size_t buflen, struct madt_info *out, char *err, size_t errlen);

struct fadt_info {
	uint32_t pm_tmr_port;   /* 0 when absent */
	bool pm_tmr_32bit;      /* TMR_VAL_EXT */
	uint8_t reset_space;    /* reset register (GAS), 1 = I/O */
	uint64_t reset_addr;
	uint8_t reset_value;
	bool reset_supported;
};
int fadt_parse(const void *buf, size_t buflen, struct fadt_info *out, char *err, size_t errlen);

/* RSDP check over a 20- or 36-byte structure; returns the revision or -1. */
int rsdp_check(const void *buf, size_t buflen);

/* ---- hardware side (acpi.c) ---- */
struct acpi_state {
	bool found;
	uint64_t rsdp_addr;
	int revision;
	bool have_madt, have_fadt;
	struct madt_info madt;
	struct fadt_info fadt;
};
extern struct acpi_state acpi;
/* Finds and parses everything; prints one summary line; 0 ok, -1 no usable MADT.
 * rsdp_hint: the RSDP the boot found (UEFI's configuration table), tried
 * first, or 0 to scan the EBDA and the BIOS area. */
int acpi_init(uint64_t rsdp_hint);
/* Physical address of the first table with this signature (e.g. "MCFG"), or 0. */
uint64_t acpi_find_table(const char *sig);

#endif
