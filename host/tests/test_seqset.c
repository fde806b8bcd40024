/*
 * test_seqset.c — the collector's dedupe and ACK logic: which frames are
 * duplicates, the cumulative ACK ("every seq < next"), the selective bitmap,
 * the window bound, and a large shuffled stream with duplicates.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "seqset.h"

static void in_order_and_duplicates(void **st)
{
	struct seqset s = { 0 };

	(void)st;
	assert_int_equal(s.next, 0);
	for (uint32_t i = 0; i < 100; i++) {
		assert_int_equal(seqset_add(&s, i), 1);
		assert_int_equal(s.next, i + 1);
	}
	for (uint32_t i = 0; i < 100; i++)
		assert_int_equal(seqset_add(&s, i), 0); /* duplicate: changes nothing */
	assert_int_equal(s.next, 100);
	assert_true(s.count == 100);
	seqset_free(&s);
}

static void gap_then_fill(void **st)
{
	struct seqset s = { 0 };
	uint8_t sack[32];

	(void)st;
	assert_int_equal(seqset_add(&s, 0), 1);
	assert_int_equal(seqset_add(&s, 2), 1);
	assert_int_equal(seqset_add(&s, 3), 1);
	assert_int_equal(seqset_add(&s, 10), 1);
	assert_int_equal(s.next, 1); /* ACK says: everything below 1 */
	assert_true(seqset_has(&s, 3));
	assert_false(seqset_has(&s, 1));
	seqset_sack(&s, sack);
	/* bit i = seq next+1+i: 2 -> bit 0, 3 -> bit 1, 10 -> bit 8 */
	assert_int_equal(sack[0], 0x03);
	assert_int_equal(sack[1], 0x01);
	for (int i = 2; i < 32; i++)
		assert_int_equal(sack[i], 0);
	assert_int_equal(seqset_add(&s, 1), 1);
	assert_int_equal(s.next, 4); /* 1 fills the gap: 0..3 present */
	assert_int_equal(seqset_add(&s, 10), 0);
	seqset_free(&s);
}

static void window_bound(void **st)
{
	struct seqset s = { 0 };

	(void)st;
	assert_int_equal(seqset_add(&s, SEQSET_WINDOW - 1), 1);
	assert_int_equal(seqset_add(&s, SEQSET_WINDOW), -1);
	assert_int_equal(seqset_add(&s, UINT32_MAX), -1);
	assert_false(seqset_has(&s, SEQSET_WINDOW));
	seqset_free(&s);
}

static void fill_and_remove(void **st)
{
	struct seqset s = { 0 };

	(void)st;
	seqset_add(&s, 5000);
	seqset_fill(&s, 4000); /* a completed run loaded from the database */
	assert_int_equal(s.next, 4000);
	assert_true(s.count == 4001);
	assert_int_equal(seqset_add(&s, 3999), 0);
	seqset_remove(&s, 5000);
	assert_false(seqset_has(&s, 5000));
	assert_int_equal(seqset_add(&s, 5000), 1);
	seqset_fill(&s, 5001);
	assert_int_equal(s.next, 5001);
	assert_true(s.count == 5001);
	seqset_free(&s);
}

static void shuffled_stream(void **st)
{
	enum { N = 20000 };
	uint32_t *order = malloc(sizeof(uint32_t) * N * 2);
	struct seqset s = { 0 };
	uint64_t rng = 12345;
	size_t added = 0, dups = 0;

	(void)st;
	/* Every seq twice, shuffled: like a lossy, duplicating, reordering link. */
	for (uint32_t i = 0; i < 2 * N; i++)
		order[i] = i % N;
	for (uint32_t i = 2 * N - 1; i > 0; i--) {
		rng = rng * 6364136223846793005ull + 1442695040888963407ull;
		uint32_t j = (uint32_t)((rng >> 33) % (i + 1)), t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	for (uint32_t i = 0; i < 2 * N; i++) {
		int r = seqset_add(&s, order[i]);

		assert_true(r == 0 || r == 1);
		added += r == 1;
		dups += r == 0;
		/* The cumulative ACK never runs ahead of what is present. */
		assert_true(s.next == 0 || seqset_has(&s, s.next - 1));
		assert_false(seqset_has(&s, s.next));
	}
	assert_int_equal(added, N); /* each frame stored exactly once */
	assert_int_equal(dups, N);
	assert_int_equal(s.next, N);
	/* The bitmap stays bounded: only the window beyond next is kept. */
	assert_true(s.nwords <= 4096);
	free(order);
	seqset_free(&s);
}

/* A per-set window bounds the bitmap: a forged far-ahead seq is refused
 * instead of allocating (it took 2 x 128 KiB a frame with the global one). */
static void own_window_bounds_memory(void **st)
{
	struct seqset s = { .window = 4096 };

	(void)st;
	assert_int_equal(seqset_add(&s, 4095), 1);
	assert_int_equal(seqset_add(&s, 4096), -1);
	assert_int_equal(seqset_add(&s, (1u << 20) - 1), -1);
	assert_true(s.nwords * sizeof(uint64_t) <= 4096 / 8);
	seqset_free(&s);
}

/* copy makes an exact twin; shrink frees the bitmap of a finished set. */
static void copy_and_shrink(void **st)
{
	struct seqset a = { .window = 4096 }, b = { .window = 4096 };

	(void)st;
	for (uint32_t q = 0; q < 100; q++)
		seqset_add(&a, q);
	seqset_add(&a, 150);
	seqset_add(&b, 7); /* b had its own content: replaced */
	seqset_add(&b, 300);
	assert_int_equal(seqset_copy(&b, &a), 0);
	assert_int_equal(b.next, 100);
	assert_true(seqset_has(&b, 150) && !seqset_has(&b, 120) && !seqset_has(&b, 300));
	assert_true(b.count == a.count);
	seqset_shrink(&b); /* 150 is above next: kept */
	assert_true(seqset_has(&b, 150));
	for (uint32_t q = 100; q < 150; q++)
		seqset_add(&b, q);
	assert_int_equal(b.next, 151);
	seqset_shrink(&b);
	assert_null(b.bits);
	assert_true(seqset_has(&b, 150) && !seqset_has(&b, 151));
	assert_int_equal(seqset_add(&b, 151), 1);
	assert_int_equal(b.next, 152);
	seqset_free(&a);
	seqset_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(in_order_and_duplicates),
		cmocka_unit_test(gap_then_fill),
		cmocka_unit_test(window_bound),
		cmocka_unit_test(fill_and_remove),
		cmocka_unit_test(shuffled_stream),
		cmocka_unit_test(own_window_bounds_memory),
		cmocka_unit_test(copy_and_shrink),
	};
	return cmocka_run_group_tests_name("seqset", tests, NULL, NULL);
}
