/*
 * test_groups.c - host unit tests (cmocka) of xcall/groups.c: a tree's groups
 * are runs of at most G targets in CPU order, and never span two packages
 * where the topology is known (-smp 16,sockets=2,cores=8's numbering, and one
 * that interleaves the packages), CPU order when it is not.
 */
#include <string.h>
#include "tests/xcb_test.h"

#include "xcall/groups.h"
#include "xcall/xcall.h"

#define NW 1	/* 64 CPUs are plenty here */

static struct amask mask_of(unsigned first, unsigned n)
{
	struct amask m;
	memset(&m, 0, sizeof(m));
	for (unsigned c = first; c < first + n; c++)
		m.w[c / 64] |= amask_bit(c);
	return m;
}

/* xcall_group_leaders over t in groups of at most g (within the packages of
 * pkg, NULL: unknown) picks n leaders, exactly the CPUs in want. */
static void expect_leaders(const struct amask *t, unsigned g, const unsigned *pkg, int n, uint64_t want)
{
	struct amask l;

	assert_int_equal(xcall_group_leaders(t, NW, g, pkg, &l), n);
	assert_int_equal(l.w[0], want);
}

/* Two sockets of 8 cores, numbered socket by socket (QEMU's -smp 16,sockets=2). */
static const unsigned two_sockets[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1 };

static void test_cpu_order(void **state)
{
	(void)state;
	struct amask t = mask_of(1, 15);
	/* unknown topology: every G-th target in CPU order leads */
	expect_leaders(&t, 8, NULL, 2, (1u << 1) | (1u << 9));
	expect_leaders(&t, 4, NULL, 4, (1u << 1) | (1u << 5) | (1u << 9) | (1u << 13));
}

static void test_two_sockets(void **state)
{
	(void)state;
	struct amask t = mask_of(1, 15), l;
	/* targets 1..15: G=8 would put 1..8 together (8 on socket 1): the
	 * package boundary cuts it at 8 instead */
	expect_leaders(&t, 8, two_sockets, 2, (1u << 1) | (1u << 8));
	/* G=4: 1-4, 5-7 (cut at the socket), 8-11, 12-15 */
	expect_leaders(&t, 4, two_sockets, 4, (1u << 1) | (1u << 5) | (1u << 8) | (1u << 12));
	/* G larger than a socket: still one group per socket */
	assert_int_equal(xcall_group_leaders(&t, NW, 64, two_sockets, &l), 2);
	/* every group lies in one package */
	for (unsigned g = 1; g <= 16; g++) {
		unsigned lead = 0;
		xcall_group_leaders(&t, NW, g, two_sockets, &l);
		for (unsigned c = 1; c < 16; c++) {
			if (l.w[0] & amask_bit(c))
				lead = c;
			assert_int_equal(two_sockets[c], two_sockets[lead]);
			assert_true(c - lead < g);
		}
	}
}

/* Packages interleaved in CPU order (even/odd): groups stay in one package
 * and in CPU order, so each would be one CPU - which is why runner_init
 * passes no table for such a machine (its groups are then CPU order). */
static void test_interleaved(void **state)
{
	(void)state;
	static const unsigned evenodd[8] = { 0, 1, 0, 1, 0, 1, 0, 1 };
	struct amask t = mask_of(1, 7), l;
	assert_int_equal(xcall_group_leaders(&t, NW, 8, evenodd, &l), 7);
}

/* The setter keeps the caller's table for the algorithms. */
static void test_domains(void **state)
{
	(void)state;
	assert_null(xcall_domains());
	xcall_set_domains(two_sockets);
	assert_ptr_equal(xcall_domains(), two_sockets);
	xcall_set_domains(NULL);
}

XCB_TEST_MAIN(
	cmocka_unit_test(test_cpu_order),
	cmocka_unit_test(test_two_sockets),
	cmocka_unit_test(test_interleaved),
	cmocka_unit_test(test_domains))
