/* tests/test_inflate.c — the images' decoders (compress/): inflate.c against
 * zlib's raw DEFLATE: every block type (stored, fixed, dynamic), data with
 * long and overlapping matches, the real payloads when built (the UEFI one
 * round-tripped through zlib; the BIOS one as compress/pack.py --bcj wrote
 * it, through inflate.c and bcj.c back to the bytes linked); then every
 * truncation and many corruptions of a stream must end in -1 or in output
 * within bounds (ASan watches), and a too-small output buffer must be
 * refused. bcj.c against hand-made filtered code. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/xcb_test.h"
#include <zlib.h>
#include "compress/bcj.h"
#include "compress/inflate.h"

static size_t deflate_raw(const uint8_t *in, size_t n, uint8_t *out, size_t cap, int level, int strategy)
{
	z_stream z;
	memset(&z, 0, sizeof(z));
	assert_int_equal(deflateInit2(&z, level, Z_DEFLATED, -15, 9, strategy), Z_OK);
	z.next_in = (Bytef *)in;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	size_t len = z.total_out;
	deflateEnd(&z);
	return len;
}

/* Text-like data with repeats near and far, and a run (overlapping match). */
static uint8_t *sample(size_t n)
{
	uint8_t *b = malloc(n);
	uint32_t x = 12345;
	for (size_t i = 0; i < n; i++) {
		x = x * 1103515245 + 12345;
		if (i > 300 && (x >> 16) % 4 == 0)
			b[i] = b[i - 1 - (x >> 20) % 300];
		else if (i % 1000 < 40)
			b[i] = 'z';
		else
			b[i] = (uint8_t)("xcbench payload "[(x >> 24) % 16]);
	}
	return b;
}

static void roundtrip(const uint8_t *src, size_t n, int level, int strategy)
{
	size_t cap = n + n / 10 + 1024;
	uint8_t *z = malloc(cap), *out = malloc(n);
	size_t zl = deflate_raw(src, n, z, cap, level, strategy);
	assert_int_equal(inflate_raw(z, zl, out, n), (ptrdiff_t)n);
	assert_memory_equal(out, src, n);
	if (n)
		assert_int_equal(inflate_raw(z, zl, out, n - 1), -1); /* does not fit */
	free(z);
	free(out);
}

static void test_block_types(void **state)
{
	(void)state;
	uint8_t *b = sample(200000);
	roundtrip(b, 200000, 9, Z_DEFAULT_STRATEGY); /* dynamic */
	roundtrip(b, 200000, 9, Z_FIXED);            /* fixed */
	roundtrip(b, 200000, 0, Z_DEFAULT_STRATEGY); /* stored, several blocks */
	roundtrip(b, 5000, 1, Z_HUFFMAN_ONLY);       /* literals only */
	roundtrip(b, 5000, 9, Z_RLE);                /* distance-1 runs */
	roundtrip(b, 0, 9, Z_DEFAULT_STRATEGY);      /* empty */
	free(b);
}

/* Reads build/NAME (from tests/run-all at the top, or from firmware/) into
 * buf; the bytes read, or skips the test when it has not been built. */
static size_t read_build(const char *name, uint8_t *buf, size_t cap)
{
	char path[128];
	snprintf(path, sizeof(path), "firmware/build/%s", name);
	FILE *f = fopen(path, "rb");
	if (!f)
		f = fopen(path + strlen("firmware/"), "rb");
	if (!f)
		skip();
	size_t n = fread(buf, 1, cap, f);
	assert_true(n < cap); /* all of it */
	fclose(f);
	return n;
}

/* The UEFI payload as built, when it exists. */
static void test_payload(void **state)
{
	(void)state;
	static uint8_t buf[1 << 20];
	roundtrip(buf, read_build("payload-efi.bin", buf, sizeof(buf)), 9, Z_DEFAULT_STRATEGY);
}

/* The BIOS image's compressed payload as the build wrote it: what
 * loader/unpack.c does at boot (inflate, then undo the filter) must give
 * back the bytes linked, exactly. */
static void test_bios_payload(void **state)
{
	(void)state;
	static uint8_t packed[1 << 20], want[1 << 20], out[1 << 20];
	size_t zl = read_build("payload.deflate", packed, sizeof(packed));
	size_t n = read_build("payload.bin", want, sizeof(want));
	assert_int_equal(inflate_raw(packed, zl, out, n), (ptrdiff_t)n);
	assert_memory_not_equal(out, want, n); /* the filter did change calls */
	bcj_decode(out, n);
	assert_memory_equal(out, want, n);
}

/* The call/jump filter's decoder on code filtered by hand (pack.py bcj()):
 * after E8/E9 at offset i an absolute target A becomes rel32 A - (i + 5);
 * the 4 bytes after an opcode are never an opcode themselves; an opcode
 * without 4 bytes after it stays as it is. */
static void test_bcj(void **state)
{
	(void)state;
	uint8_t b[] = {
		0x90, 0xe8, 0x10, 0x00, 0x00, 0x00,       /* call, abs 0x10 at i=1: rel 0x0a */
		0xe9, 0x00, 0x00, 0x00, 0x00,             /* jmp, abs 0 at i=6: rel -11 */
		0xe8, 0xe8, 0xe9, 0xe8, 0xe8,             /* i=11: the E8s in its field are data */
		0xe8, 0x01, 0x02, 0x03,                   /* i=16: only 3 bytes after: untouched */
	};
	const uint8_t want[] = {
		0x90, 0xe8, 0x0a, 0x00, 0x00, 0x00,
		0xe9, 0xf5, 0xff, 0xff, 0xff,
		0xe8, 0xd8, 0xe9, 0xe8, 0xe8,             /* 0xe8e8e9e8 - 16 */
		0xe8, 0x01, 0x02, 0x03,
	};
	bcj_decode(b, sizeof(b));
	assert_memory_equal(b, want, sizeof(want));
	uint8_t e = 0xe8;
	bcj_decode(&e, 0); /* nothing to do, nothing read */
	assert_int_equal(e, 0xe8);
}

static void test_truncated_and_corrupt(void **state)
{
	(void)state;
	size_t n = 30000, cap = 40000;
	uint8_t *b = sample(n), *z = malloc(cap), *out = malloc(n), *bad = malloc(cap);
	size_t zl = deflate_raw(b, n, z, cap, 9, Z_DEFAULT_STRATEGY);
	for (size_t cut = 0; cut < zl; cut += 7) /* every truncation fails cleanly */
		assert_true(inflate_raw(z, cut, out, n) < (ptrdiff_t)n);
	uint32_t x = 99;
	int refused = 0;
	for (int t = 0; t < 1500; t++) { /* flipped bits: -1, or bounded garbage */
		memcpy(bad, z, zl);
		for (int k = 0; k < 1 + t % 4; k++) {
			x = x * 1103515245 + 12345;
			bad[(x >> 8) % zl] ^= (uint8_t)(1u << (x % 8));
		}
		ptrdiff_t r = inflate_raw(bad, zl, out, n);
		assert_true(r >= -1 && r <= (ptrdiff_t)n);
		refused += r == -1;
	}
	assert_true(refused > 0);
	free(b);
	free(z);
	free(out);
	free(bad);
}

XCB_TEST_MAIN(
	cmocka_unit_test(test_block_types),
	cmocka_unit_test(test_payload),
	cmocka_unit_test(test_bios_payload),
	cmocka_unit_test(test_bcj),
	cmocka_unit_test(test_truncated_and_corrupt))
