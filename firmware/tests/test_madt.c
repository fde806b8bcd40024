/* tests/test_madt.c — host unit tests of arch/acpi_parse.c: MADT parsing of
 * good tables (xAPIC and x2APIC entries, disabled/hot-pluggable CPUs, LAPIC
 * address override), big tables (600 entries, more CPUs than XCB_MAX_CPUS),
 * the entries skipped with a count (disabled, repeated APIC IDs — the
 * disabled x2APIC entries real firmware lists over its xAPIC ones — and past
 * the limit), and rejection of truncated, inconsistent or badly summed ones —
 * always without reading past the buffer (ASan checks that). Also the FADT
 * PM-timer fields and the RSDP check. */
#include <stdlib.h>
#include <string.h>
#include "tests/xcb_test.h"
#include "arch/acpi.h"

struct tb {
	uint8_t b[24576]; /* room for XCB_MAX_CPUS + a few x2APIC entries */
	size_t n;
};

/* Appends n bytes to the table (little-endian, as the host and ACPI are). */
static void put(struct tb *t, const void *p, size_t n)
{
	memcpy(t->b + t->n, p, n);
	t->n += n;
}
static void put8(struct tb *t, uint8_t v) { put(t, &v, 1); }
static void put16(struct tb *t, uint16_t v) { put(t, &v, 2); }
static void put32(struct tb *t, uint32_t v) { put(t, &v, 4); }
static void put64(struct tb *t, uint64_t v) { put(t, &v, 8); }

/* Starts t as an ACPI table with signature sig: the 36-byte header. */
static void header(struct tb *t, const char *sig)
{
	memset(t, 0, sizeof(*t));
	put(t, sig, 4);
	put32(t, 0); /* length, fixed by finish() */
	put8(t, 3);  /* revision */
	put8(t, 0);  /* checksum */
	put(t, "XCBNCH", 6);
	put(t, "TESTTBL ", 8);
	put32(t, 1);
	put(t, "XCB ", 4);
	put32(t, 1);
}

/* Writes len into the table's length field (no new checksum). */
static void set_length(struct tb *t, uint32_t len)
{
	memcpy(t->b + 4, &len, 4);
}

/* Sets the checksum byte so the table sums to zero. */
static void resum(struct tb *t)
{
	t->b[9] = 0;
	t->b[9] = (uint8_t)(0x100 - acpi_checksum(t->b, t->n));
}

/* The table as written so far: its length and checksum filled in. */
static void finish(struct tb *t)
{
	set_length(t, (uint32_t)t->n);
	resum(t);
}

/* Starts t as a MADT: header, local APIC address, flags. */
static void madt_start(struct tb *t)
{
	header(t, "APIC");
	put32(t, 0xfee00000); /* local APIC address */
	put32(t, 1);          /* PCAT_COMPAT */
}
/* MADT entries: a local APIC (type 0), an x2APIC (type 9), an I/O APIC (type 1). */
static void lapic(struct tb *t, uint8_t uid, uint8_t id, uint32_t flags)
{
	put8(t, 0); put8(t, 8); put8(t, uid); put8(t, id); put32(t, flags);
}
static void x2apic(struct tb *t, uint32_t id, uint32_t flags, uint32_t uid)
{
	put8(t, 9); put8(t, 16); put16(t, 0); put32(t, id); put32(t, flags); put32(t, uid);
}
static void ioapic(struct tb *t)
{
	put8(t, 1); put8(t, 12); put8(t, 0); put8(t, 0); put32(t, 0xfec00000); put32(t, 0);
}

/* The smallest MADT: one local APIC entry (CPU 0, APIC ID 0) with flags. */
static void one_cpu_madt(struct tb *t, uint32_t flags)
{
	madt_start(t);
	lapic(t, 0, 0, flags);
	finish(t);
}

/* A MADT of n enabled local APICs, APIC IDs 0..n-1. */
static void cpus_madt(struct tb *t, unsigned n)
{
	madt_start(t);
	for (unsigned i = 0; i < n; i++)
		lapic(t, (uint8_t)i, (uint8_t)i, 1);
	finish(t);
}

/* Parses from a heap copy of exactly len bytes, so ASan catches any read past it. */
static int parse(const struct tb *t, size_t len, struct madt_info *m, char *err)
{
	uint8_t *copy = malloc(len ? len : 1);
	memcpy(copy, t->b, len);
	int rc = madt_parse(copy, len, m, err, 160);
	free(copy);
	return rc;
}

static struct madt_info m;
static char err[160];

/* The first len bytes of t must be refused, with a message that names why
 * (any message when why is NULL). */
static void refused(const struct tb *t, size_t len, const char *why)
{
	assert_int_equal(parse(t, len, &m, err), -1);
	if (why)
		assert_non_null(strstr(err, why));
}

/* Finish t: it must parse, into ncpus CPUs kept of which nenabled enabled,
 * out of nenabled_all enabled in the table. */
static void parses(struct tb *t, unsigned ncpus, unsigned nenabled, unsigned nenabled_all)
{
	finish(t);
	assert_int_equal(parse(t, t->n, &m, err), 0);
	assert_int_equal(m.ncpus, ncpus);
	assert_int_equal(m.nenabled, nenabled);
	assert_int_equal(m.nenabled_all, nenabled_all);
}

static void test_good_madt(void **state)
{
	(void)state;
	struct tb t;
	madt_start(&t);
	lapic(&t, 0, 0, 1);
	lapic(&t, 1, 2, 1);
	ioapic(&t);
	lapic(&t, 2, 4, 0);   /* hot-pluggable slot, not present */
	lapic(&t, 3, 0xff, 1); /* placeholder ID: ignored */
	x2apic(&t, 300, 1, 9);
	parses(&t, 4, 3, 3);
	assert_int_equal(m.nioapic, 1);
	assert_int_equal(m.nentries, 6);
	assert_int_equal(m.lapic_addr, 0xfee00000);
	assert_int_equal(m.cpu[1].apic_id, 2);
	assert_int_equal(m.cpu[1].uid, 1);
	/* Enabled CPUs first in table order, the disabled slot after them. */
	assert_int_equal(m.cpu[2].apic_id, 300);
	assert_true(m.cpu[2].x2apic_entry);
	assert_int_equal(m.cpu[2].uid, 9);
	assert_int_equal(m.cpu[3].apic_id, 4);
	assert_false(m.cpu[3].enabled);
	assert_int_equal(m.skip_disabled, 1);
	assert_int_equal(m.skip_invalid, 1);
	assert_int_equal(m.skip_dup, 0);
	assert_int_equal(m.skip_limit, 0);
}

/* A 600-CPU server: xAPIC entries for IDs 0..254, x2APIC for the rest (IDs
 * with gaps, as two sockets with sparse IDs have), all kept in table order. */
static void test_600_entries(void **state)
{
	(void)state;
	static struct tb t;
	madt_start(&t);
	for (unsigned i = 0; i < 600; i++) {
		uint32_t id = i < 255 ? i : 256 + 2 * i;
		if (id < 255)
			lapic(&t, (uint8_t)i, (uint8_t)id, 1);
		else
			x2apic(&t, id, 1, i);
	}
	ioapic(&t);
	parses(&t, 600, 600, 600);
	assert_int_equal(m.nentries, 601);
	assert_int_equal(m.cpu[254].apic_id, 254);
	assert_false(m.cpu[254].x2apic_entry);
	assert_int_equal(m.cpu[599].apic_id, 256 + 2 * 599);
	assert_true(m.cpu[599].x2apic_entry);
	assert_int_equal(m.skip_dup + m.skip_disabled + m.skip_limit + m.skip_invalid, 0);
}

/* Firmware that lists every CPU twice: xAPIC entries, then disabled x2APIC
 * entries repeating the same IDs (and one enabled repeat). Linux ignores
 * the repeats; so do we, counting them, and the table is not rejected. */
static void test_duplicates_skipped(void **state)
{
	(void)state;
	static struct tb t;
	madt_start(&t);
	for (unsigned i = 0; i < 8; i++)
		lapic(&t, (uint8_t)i, (uint8_t)i, 1);
	for (unsigned i = 0; i < 8; i++)
		x2apic(&t, i, 0, 100 + i);      /* disabled repeats */
	x2apic(&t, 3, 1, 200);                  /* an enabled repeat */
	x2apic(&t, 0x1000, 0, 300);             /* a genuinely absent slot */
	parses(&t, 9, 8, 8);
	assert_int_equal(m.skip_dup, 9);
	assert_int_equal(m.skip_disabled, 1);
	for (unsigned i = 0; i < 8; i++) {
		assert_int_equal(m.cpu[i].apic_id, i);
		assert_false(m.cpu[i].x2apic_entry); /* the first (xAPIC) entry won */
		assert_true(m.cpu[i].enabled);
	}
	assert_int_equal(m.cpu[8].apic_id, 0x1000);
	assert_false(m.cpu[8].enabled);
	/* A disabled entry listed BEFORE an enabled one with its ID: the enabled wins. */
	madt_start(&t);
	x2apic(&t, 5, 0, 1);
	lapic(&t, 0, 0, 1);
	lapic(&t, 1, 5, 1);
	finish(&t);
	assert_int_equal(parse(&t, t.n, &m, err), 0);
	assert_int_equal(m.ncpus, 2);
	assert_int_equal(m.nenabled, 2);
	assert_true(m.cpu[1].enabled);
	assert_int_equal(m.skip_dup, 1);
	assert_int_equal(m.skip_disabled, 0);
}

/* More enabled CPUs than XCB_MAX_CPUS, with disabled x2APIC entries mixed
 * in front: the first XCB_MAX_CPUS enabled ones are kept, the rest counted,
 * and no disabled slot takes the place of a present CPU. */
static void test_past_the_limit(void **state)
{
	(void)state;
	static struct tb t;
	const unsigned extra = 7, disabled = 5;
	madt_start(&t);
	for (unsigned i = 0; i < disabled; i++)
		x2apic(&t, 0x10000 + i, 0, 5000 + i);
	for (unsigned i = 0; i < MADT_MAX_CPUS + extra; i++)
		x2apic(&t, i, 1, i);
	finish(&t);
	assert_true(t.n <= sizeof(t.b));
	assert_int_equal(parse(&t, t.n, &m, err), 0);
	assert_int_equal(m.ncpus, MADT_MAX_CPUS);
	assert_int_equal(m.nenabled, MADT_MAX_CPUS);
	assert_int_equal(m.nenabled_all, MADT_MAX_CPUS + extra);
	assert_int_equal(m.skip_limit, extra);
	assert_int_equal(m.skip_disabled, disabled);
	assert_int_equal(m.cpu[0].apic_id, 0);
	assert_int_equal(m.cpu[MADT_MAX_CPUS - 1].apic_id, MADT_MAX_CPUS - 1);
	for (unsigned i = 0; i < m.ncpus; i++)
		assert_true(m.cpu[i].enabled);
}

static void test_lapic_override_and_online_capable(void **state)
{
	(void)state;
	struct tb t;
	madt_start(&t);
	lapic(&t, 0, 0, 1);
	lapic(&t, 1, 1, 2); /* online capable, not enabled */
	put8(&t, 5); put8(&t, 12); put16(&t, 0); put64(&t, 0x1fee00000ULL);
	put8(&t, 0x7f); put8(&t, 6); put32(&t, 0); /* unknown type: skipped by length */
	finish(&t);
	assert_int_equal(parse(&t, t.n, &m, err), 0);
	assert_int_equal(m.lapic_addr, 0x1fee00000ULL);
	assert_int_equal(m.ncpus, 2);
	assert_true(m.cpu[1].online_capable);
	assert_false(m.cpu[1].enabled);
}

static void test_bad_checksum_rejected(void **state)
{
	(void)state;
	struct tb t;
	one_cpu_madt(&t, 1);
	t.b[9] ^= 0x55;
	refused(&t, t.n, "checksum");
}

static void test_truncated(void **state)
{
	(void)state;
	struct tb t;
	cpus_madt(&t, 2);
	/* The buffer is shorter than the table's own length field. */
	for (size_t len = 0; len < t.n; len++) {
		assert_int_equal(parse(&t, len, &m, err), -1);
		assert_true(strlen(err) > 0);
	}
	refused(&t, t.n - 1, "exceeds");
	/* Length field shrunk so the last entry is cut in the middle. */
	struct tb c = t;
	set_length(&c, (uint32_t)t.n - 3);
	refused(&c, c.n, "runs past the table end");
	/* A lone trailing byte after the last entry. */
	c = t;
	c.n++;
	set_length(&c, (uint32_t)c.n);
	refused(&c, c.n, "truncated");
	/* Length below the MADT's fixed part. */
	c = t;
	set_length(&c, 40);
	refused(&c, c.n, "below minimum");
}

/* MADTs whose entries the parser must refuse: the entry bytes after the
 * fixed part, and the words its message must hold (NULL: any message). */
static const struct bad_entries {
	const char *what;
	size_t n;
	uint8_t e[12];
	const char *why;
} bad_entries[] = {
	{ "an entry of length 0 (would loop forever)", 10,
	  { 0, 8, 0, 0, 1, 0, 0, 0, /* a good local APIC, then */ 0, 0 }, "has length 0" },
	{ "a local APIC entry too short for its fields", 4, { 0, 4, 0, 0 }, "need 8" },
	{ "a short x2APIC entry", 8, { 9, 8, 0, 0, 5, 0, 0, 0 }, NULL },
};

static void test_inconsistent(void **state)
{
	(void)state;
	struct tb t;
	for (size_t i = 0; i < sizeof(bad_entries) / sizeof(bad_entries[0]); i++) {
		const struct bad_entries *b = &bad_entries[i];
		print_message("# %s\n", b->what);
		madt_start(&t);
		put(&t, b->e, b->n);
		finish(&t);
		refused(&t, t.n, b->why);
	}
	/* Wrong signature. */
	one_cpu_madt(&t, 1);
	memcpy(t.b, "FACP", 4);
	refused(&t, t.n, "signature");
	/* No enabled CPU at all. */
	one_cpu_madt(&t, 0);
	refused(&t, t.n, "no enabled CPU");
}

static void test_fuzz_never_overreads(void **state)
{
	(void)state;
	static struct tb t, c;
	madt_start(&t);
	for (int i = 0; i < 8; i++)
		lapic(&t, (uint8_t)i, (uint8_t)i, 1);
	x2apic(&t, 1000, 1, 8);
	ioapic(&t);
	finish(&t);
	srand(1);
	for (int round = 0; round < 20000; round++) {
		c = t;
		int flips = 1 + rand() % 4;
		for (int f = 0; f < flips; f++)
			c.b[44 + rand() % (int)(c.n - 44)] = (uint8_t)rand();
		/* Half the rounds re-sum the table, so the walk itself gets fuzzed
		 * and not just the checksum test. */
		if (round & 1)
			resum(&c);
		size_t len = c.n - (size_t)(rand() % 8);
		int rc = parse(&c, len, &m, err);
		assert_true(rc == 0 || rc == -1);
		if (rc == 0)
			assert_true(m.ncpus <= MADT_MAX_CPUS && m.nenabled <= m.ncpus);
	}
}

static void test_fadt_and_rsdp(void **state)
{
	(void)state;
	struct tb t;
	header(&t, "FACP");
	while (t.n < 244)
		put8(&t, 0);
	uint32_t port = 0x608, flags = 1u << 8;
	memcpy(t.b + 76, &port, 4);
	memcpy(t.b + 112, &flags, 4);
	finish(&t);
	struct fadt_info f;
	assert_int_equal(fadt_parse(t.b, t.n, &f, err, sizeof(err)), 0);
	assert_int_equal(f.pm_tmr_port, 0x608);
	assert_true(f.pm_tmr_32bit);
	assert_int_equal(fadt_parse(t.b, 100, &f, err, sizeof(err)), -1);

	uint8_t r[36] = "RSD PTR ";
	r[15] = 0;
	r[8] = (uint8_t)(0x100 - acpi_checksum(r, 20));
	assert_int_equal(rsdp_check(r, 20), 0);
	r[15] = 2; /* revision 2 needs the extended checksum and length */
	uint32_t len = 36;
	memcpy(r + 20, &len, 4);
	r[8] = 0;
	r[8] = (uint8_t)(0x100 - acpi_checksum(r, 20));
	r[32] = (uint8_t)(0x100 - acpi_checksum(r, 36));
	assert_int_equal(rsdp_check(r, 36), 2);
	assert_int_equal(rsdp_check(r, 20), -1);
	r[33] ^= 1;
	assert_int_equal(rsdp_check(r, 36), -1);
}

XCB_TEST_MAIN(
	cmocka_unit_test(test_good_madt),
	cmocka_unit_test(test_lapic_override_and_online_capable),
	cmocka_unit_test(test_600_entries),
	cmocka_unit_test(test_duplicates_skipped),
	cmocka_unit_test(test_past_the_limit),
	cmocka_unit_test(test_bad_checksum_rejected),
	cmocka_unit_test(test_truncated),
	cmocka_unit_test(test_inconsistent),
	cmocka_unit_test(test_fuzz_never_overreads),
	cmocka_unit_test(test_fadt_and_rsdp))
