/* tests/test_inflate.c — boot/efi/inflate.c against zlib's raw DEFLATE: every
 * block type (stored, fixed, dynamic), data with long and overlapping
 * matches, the real payload when built; then every truncation and many
 * corruptions of a stream must end in -1 or in output within bounds (ASan
 * watches), and a too-small output buffer must be refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <zlib.h>
#include "boot/efi/inflate.h"

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
	assert_int_equal(inflate_raw(z, zl, out, n), (int64_t)n);
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

/* The payload as built (firmware/build/payload-efi.bin), when it exists. */
static void test_payload(void **state)
{
	(void)state;
	FILE *f = fopen("firmware/build/payload-efi.bin", "rb"); /* from tests/run-all */
	if (!f)
		f = fopen("build/payload-efi.bin", "rb");           /* from firmware/ */
	if (!f)
		skip();
	static uint8_t buf[1 << 20];
	size_t n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	roundtrip(buf, n, 9, Z_DEFAULT_STRATEGY);
}

static void test_truncated_and_corrupt(void **state)
{
	(void)state;
	size_t n = 30000, cap = 40000;
	uint8_t *b = sample(n), *z = malloc(cap), *out = malloc(n), *bad = malloc(cap);
	size_t zl = deflate_raw(b, n, z, cap, 9, Z_DEFAULT_STRATEGY);
	for (size_t cut = 0; cut < zl; cut += 7) /* every truncation fails cleanly */
		assert_true(inflate_raw(z, cut, out, n) < (int64_t)n);
	uint32_t x = 99;
	int refused = 0;
	for (int t = 0; t < 1500; t++) { /* flipped bits: -1, or bounded garbage */
		memcpy(bad, z, zl);
		for (int k = 0; k < 1 + t % 4; k++) {
			x = x * 1103515245 + 12345;
			bad[(x >> 8) % zl] ^= (uint8_t)(1u << (x % 8));
		}
		int64_t r = inflate_raw(bad, zl, out, n);
		assert_true(r >= -1 && r <= (int64_t)n);
		refused += r == -1;
	}
	assert_true(refused > 0);
	free(b);
	free(z);
	free(out);
	free(bad);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_block_types),
		cmocka_unit_test(test_payload),
		cmocka_unit_test(test_truncated_and_corrupt),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
