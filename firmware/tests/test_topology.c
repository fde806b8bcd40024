/* tests/test_topology.c — host unit tests of arch/topology.c: APIC ID →
 * package/core/thread from CPUID leaf 0Bh/1Fh register values (as real and
 * QEMU CPUs report them) and from the legacy leaves. */
#include "tests/xcb_test.h"
#include "arch/topology.h"

/* One sub-leaf: EAX = shift, ECX = type << 8 | level number. */
#define LV(shift, type, n) { (shift), 0, ((type) << 8) | (n), 0 }
#define END(n) { 0, 0, (n), 0 }

static void test_leaf0b_smt_core(void **state)
{
	(void)state;
	/* Skylake-SP style: 2 threads/core (shift 1), 32 IDs/package (shift 6). */
	struct cpuid_regs lv[] = { LV(1, 1, 0), LV(6, 2, 1), END(2) };
	struct topo_shifts s;
	assert_int_equal(topo_from_extended_leaf(lv, 3, &s), 0);
	assert_int_equal(s.smt_shift, 1);
	assert_int_equal(s.pkg_shift, 6);
	struct topo t;
	topo_decode(&s, 0x45, &t); /* 0b1_00010_1 */
	assert_int_equal(t.pkg, 1);
	assert_int_equal(t.core, 2);
	assert_int_equal(t.thread, 1);
	topo_decode(&s, 0, &t);
	assert_int_equal(t.pkg + t.core + t.thread, 0);
}

static void test_leaf0b_qemu_2x2x2(void **state)
{
	(void)state;
	/* QEMU -smp 8,sockets=2,cores=2,threads=2. */
	struct cpuid_regs lv[] = { LV(1, 1, 0), LV(2, 2, 1), END(2) };
	struct topo_shifts s;
	assert_int_equal(topo_from_extended_leaf(lv, 3, &s), 0);
	for (uint32_t id = 0; id < 8; id++) {
		struct topo t;
		topo_decode(&s, id, &t);
		assert_int_equal(t.pkg, id >> 2);
		assert_int_equal(t.core, (id >> 1) & 1);
		assert_int_equal(t.thread, id & 1);
	}
}

static void test_no_smt_level(void **state)
{
	(void)state;
	/* QEMU -smp 4 (one thread per core): SMT level reports shift 0. */
	struct cpuid_regs lv[] = { LV(0, 1, 0), LV(2, 2, 1), END(2) };
	struct topo_shifts s;
	assert_int_equal(topo_from_extended_leaf(lv, 3, &s), 0);
	struct topo t;
	topo_decode(&s, 3, &t);
	assert_int_equal(t.pkg, 0);
	assert_int_equal(t.core, 3);
	assert_int_equal(t.thread, 0);
	topo_decode(&s, 6, &t);
	assert_int_equal(t.pkg, 1);
	assert_int_equal(t.core, 2);
}

static void test_leaf1f_with_die(void **state)
{
	(void)state;
	/* Leaf 1Fh with a die level (type 5): the package is above the die. */
	struct cpuid_regs lv[] = { LV(1, 1, 0), LV(4, 2, 1), LV(5, 5, 2), END(3) };
	struct topo_shifts s;
	assert_int_equal(topo_from_extended_leaf(lv, 4, &s), 0);
	assert_int_equal(s.smt_shift, 1);
	assert_int_equal(s.pkg_shift, 5);
	struct topo t;
	topo_decode(&s, 0x3b, &t); /* 1 | 1 | 101 | 1 */
	assert_int_equal(t.pkg, 1);
	assert_int_equal(t.core, 0xd); /* core number unique within the package */
	assert_int_equal(t.thread, 1);
}

static void test_invalid_leaves(void **state)
{
	(void)state;
	struct topo_shifts s;
	struct cpuid_regs none[] = { END(0) };
	assert_int_equal(topo_from_extended_leaf(none, 1, &s), -1);
	assert_int_equal(topo_from_extended_leaf(none, 0, &s), -1);
	struct cpuid_regs backwards[] = { LV(4, 1, 0), LV(2, 2, 1), END(2) };
	assert_int_equal(topo_from_extended_leaf(backwards, 3, &s), -1);
}

static void test_legacy(void **state)
{
	(void)state;
	struct topo_shifts s;
	topo_from_legacy(16, 8, &s); /* 8 cores x 2 threads */
	assert_int_equal(s.smt_shift, 1);
	assert_int_equal(s.pkg_shift, 4);
	topo_from_legacy(6, 6, &s); /* non power of two rounds up */
	assert_int_equal(s.smt_shift, 0);
	assert_int_equal(s.pkg_shift, 3);
	topo_from_legacy(0, 0, &s); /* no HTT: one logical CPU per package */
	assert_int_equal(s.smt_shift, 0);
	assert_int_equal(s.pkg_shift, 0);
	struct topo t;
	topo_decode(&s, 5, &t);
	assert_int_equal(t.pkg, 5);
	assert_int_equal(t.core, 0);
	assert_int_equal(t.thread, 0);
}

XCB_TEST_MAIN(
	cmocka_unit_test(test_leaf0b_smt_core), cmocka_unit_test(test_leaf0b_qemu_2x2x2),
	cmocka_unit_test(test_no_smt_level),    cmocka_unit_test(test_leaf1f_with_die),
	cmocka_unit_test(test_invalid_leaves),  cmocka_unit_test(test_legacy))
