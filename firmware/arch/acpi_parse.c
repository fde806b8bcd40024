/* arch/acpi_parse.c — bounds-checked ACPI table parsers (see arch/acpi.h).
 * No hardware access: everything is read through (buf, len) with explicit
 * checks before each field, so a hostile or truncated table cannot make us
 * read past its end. Host-compilable. */
#include "arch/acpi.h"
#include "lib/printf.h"
#include "lib/string.h"

static uint32_t rd32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t rd64(const uint8_t *p) { return rd32(p) | (uint64_t)rd32(p + 4) << 32; }

uint8_t acpi_checksum(const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint8_t s = 0;
	for (size_t i = 0; i < len; i++)
		s = (uint8_t)(s + p[i]);
	return s;
}

uint32_t acpi_table_check(const void *buf, size_t buflen, const char *sig, uint32_t min_len,
			  char *err, size_t errlen)
{
	const uint8_t *p = buf;
	if (!buf || buflen < ACPI_HDR_LEN) {
		ksnprintf(err, errlen, "table truncated: %zu bytes, header needs %d", buflen, ACPI_HDR_LEN);
		return 0;
	}
	if (sig && memcmp(p, sig, 4)) {
		ksnprintf(err, errlen, "signature '%.4s' is not '%s'", (const char *)p, sig);
		return 0;
	}
	uint32_t len = rd32(p + 4);
	if (len < min_len || len < ACPI_HDR_LEN) {
		ksnprintf(err, errlen, "%.4s length %u below minimum %u", (const char *)p, len,
			  min_len < ACPI_HDR_LEN ? ACPI_HDR_LEN : min_len);
		return 0;
	}
	if (len > buflen) {
		ksnprintf(err, errlen, "%.4s length %u exceeds the %zu bytes available", (const char *)p, len,
			  buflen);
		return 0;
	}
	return len;
}

/* One CPU entry (type 0 or 9) decoded; the caller checked its length. */
static struct madt_cpu cpu_entry(const uint8_t *e)
{
	struct madt_cpu c;
	uint32_t flags;
	if (e[0] == 0) {
		c.uid = e[2];
		c.apic_id = e[3];
		flags = rd32(e + 4);
	} else {
		c.apic_id = rd32(e + 4);
		flags = rd32(e + 8);
		c.uid = rd32(e + 12);
	}
	c.enabled = flags & 1;
	c.online_capable = (flags >> 1) & 1;
	c.x2apic_entry = e[0] == 9;
	return c;
}

static bool listed(const struct madt_info *out, uint32_t apic_id)
{
	for (unsigned i = 0; i < out->ncpus; i++)
		if (out->cpu[i].apic_id == apic_id)
			return true;
	return false;
}

/* Checks every entry's framing (pass 0), or keeps the CPU entries whose
 * enabled flag equals `enabled` (pass 1: enabled, pass 2: disabled). Only
 * pass 0 can fail: it runs first and proves the later walks stay inside. */
static int madt_walk(const uint8_t *p, uint32_t len, int pass, struct madt_info *out, char *err,
		     size_t errlen)
{
	unsigned idx = 0;
	for (uint32_t off = ACPI_HDR_LEN + 8; off < len; idx++) {
		if (len - off < 2) {
			ksnprintf(err, errlen, "MADT entry %u at offset %u truncated (table length %u)", idx, off, len);
			return -1;
		}
		const uint8_t *e = p + off;
		uint8_t type = e[0], elen = e[1];
		if (elen < 2) {
			ksnprintf(err, errlen, "MADT entry %u at offset %u has length %u", idx, off, elen);
			return -1;
		}
		if (elen > len - off) {
			ksnprintf(err, errlen, "MADT entry %u at offset %u runs past the table end (length %u)", idx,
				  off, len);
			return -1;
		}
		uint32_t need = type == 0 ? 8 : type == 9 ? 16 : type == 5 ? 12 : type == 1 ? 12 : 2;
		if (elen < need) {
			ksnprintf(err, errlen, "MADT entry %u (type %u) at offset %u: length %u, need %u", idx, type,
				  off, elen, need);
			return -1;
		}
		off += elen;
		if (pass == 0) {
			out->nentries++;
			if (type == 1)
				out->nioapic++;
			else if (type == 5)
				out->lapic_addr = rd64(e + 4);
			continue;
		}
		if (type != 0 && type != 9)
			continue;
		struct madt_cpu c = cpu_entry(e);
		if (c.enabled != (pass == 1))
			continue;
		if ((type == 0 && c.apic_id == 0xff) || (type == 9 && c.apic_id == 0xffffffffu)) {
			out->skip_invalid++; /* firmware placeholder, not a CPU */
			continue;
		}
		if (listed(out, c.apic_id)) {
			out->skip_dup++;
			continue;
		}
		if (pass == 2)
			out->skip_disabled++;
		if (out->ncpus >= MADT_MAX_CPUS) {
			if (pass == 1) {
				out->skip_limit++;
				out->nenabled_all++;
			}
			continue;
		}
		out->cpu[out->ncpus++] = c;
		if (c.enabled) {
			out->nenabled++;
			out->nenabled_all++;
		}
	}
	return 0;
}

int madt_parse(const void *buf, size_t buflen, struct madt_info *out, char *err, size_t errlen)
{
	const uint8_t *p = buf;
	memset(out, 0, sizeof(*out));
	uint32_t len = acpi_table_check(buf, buflen, "APIC", ACPI_HDR_LEN + 8, err, errlen);
	if (!len)
		return -1;
	out->lapic_addr = rd32(p + 36);
	out->flags = rd32(p + 40);
	/* Framing first (the more precise message), then the sum. */
	if (madt_walk(p, len, 0, out, err, errlen))
		return -1;
	if (acpi_checksum(p, len) != 0) {
		ksnprintf(err, errlen, "MADT checksum is wrong (bytes sum to 0x%02x, not 0)",
			  acpi_checksum(p, len));
		return -1;
	}
	madt_walk(p, len, 1, out, err, errlen);
	madt_walk(p, len, 2, out, err, errlen);
	if (out->nenabled == 0) {
		ksnprintf(err, errlen, "MADT lists no enabled CPU");
		return -1;
	}
	return 0;
}

int fadt_parse(const void *buf, size_t buflen, struct fadt_info *out, char *err, size_t errlen)
{
	const uint8_t *p = buf;
	memset(out, 0, sizeof(*out));
	uint32_t len = acpi_table_check(buf, buflen, "FACP", 116, err, errlen);
	if (!len)
		return -1;
	out->pm_tmr_port = rd32(p + 76);
	uint32_t flags = rd32(p + 112);
	out->pm_tmr_32bit = (flags >> 8) & 1;
	/* X_PM_TMR_BLK (GAS at 208) wins when it is an I/O address. */
	if (len >= 220 && p[208] == 1 && rd64(p + 212))
		out->pm_tmr_port = (uint32_t)rd64(p + 212);
	if (len >= 129 && ((flags >> 10) & 1)) {
		out->reset_supported = true;
		out->reset_space = p[116];
		out->reset_addr = rd64(p + 120);
		out->reset_value = p[128];
	}
	if (out->pm_tmr_port > 0xffff)
		out->pm_tmr_port = 0; /* not an I/O port we can use */
	return 0;
}

int rsdp_check(const void *buf, size_t buflen)
{
	const uint8_t *p = buf;
	if (buflen < 20 || memcmp(p, "RSD PTR ", 8) || acpi_checksum(p, 20))
		return -1;
	int rev = p[15];
	if (rev >= 2) {
		if (buflen < 36)
			return -1;
		uint32_t len = rd32(p + 20);
		if (len < 36 || len > buflen || acpi_checksum(p, len))
			return -1;
	}
	return rev;
}
