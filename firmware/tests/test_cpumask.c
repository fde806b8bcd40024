/* tests/test_cpumask.c — host unit tests of lib/cpumask.h: set/clear/test,
 * weight, iteration across word boundaries, and/or/andnot/equal, and the
 * atomic variants under concurrent use (pthreads). */
#include <pthread.h>
#include "tests/xcb_test.h"
#include "lib/cpumask.h"

static void test_basic(void **state)
{
	(void)state;
	struct cpumask m;
	cpumask_clear_all(&m);
	assert_true(cpumask_empty(&m));
	assert_int_equal(cpumask_first(&m), XCB_MAX_CPUS);
	unsigned set[] = { 0, 1, 63, 64, 127, 128, 200, 255 };
	for (unsigned i = 0; i < sizeof(set) / sizeof(set[0]); i++)
		cpumask_set(&m, set[i]);
	assert_int_equal(cpumask_weight(&m), 8);
	unsigned cpu, n = 0;
	for_each_cpu(cpu, &m)
		assert_int_equal(cpu, set[n++]);
	assert_int_equal(n, 8);
	assert_true(cpumask_test(&m, 64));
	assert_false(cpumask_test(&m, 65));
	assert_false(cpumask_test(&m, XCB_MAX_CPUS)); /* out of range is simply false */
	cpumask_clear(&m, 64);
	assert_false(cpumask_test(&m, 64));
	assert_int_equal(cpumask_next(63, &m), 127);
	assert_int_equal(cpumask_next(255, &m), XCB_MAX_CPUS);
}

static void test_ops(void **state)
{
	(void)state;
	struct cpumask a, b, d;
	cpumask_clear_all(&a);
	cpumask_clear_all(&b);
	for (unsigned c = 0; c < 100; c += 2)
		cpumask_set(&a, c);
	for (unsigned c = 0; c < 100; c += 3)
		cpumask_set(&b, c);
	cpumask_and(&d, &a, &b);
	assert_int_equal(cpumask_weight(&d), 17); /* multiples of 6 below 100 */
	cpumask_or(&d, &a, &b);
	assert_int_equal(cpumask_weight(&d), 50 + 34 - 17);
	cpumask_andnot(&d, &a, &b);
	assert_int_equal(cpumask_weight(&d), 50 - 17);
	assert_false(cpumask_equal(&a, &b));
	d = a;
	assert_true(cpumask_equal(&a, &d));
}

static struct cpumask shared;
static void *setter(void *arg)
{
	unsigned base = (unsigned)(uintptr_t)arg;
	for (int round = 0; round < 1000; round++) {
		for (unsigned c = base; c < XCB_MAX_CPUS; c += 4)
			cpumask_set_atomic(&shared, c);
		for (unsigned c = base; c < XCB_MAX_CPUS; c += 4)
			cpumask_clear_atomic(&shared, c);
	}
	for (unsigned c = base; c < XCB_MAX_CPUS; c += 4)
		cpumask_set_atomic(&shared, c);
	return NULL;
}

static void test_atomic(void **state)
{
	(void)state;
	pthread_t t[4];
	cpumask_clear_all(&shared);
	for (uintptr_t i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, setter, (void *)i);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	/* Four threads sharing every word: no update lost. */
	assert_int_equal(cpumask_weight(&shared), XCB_MAX_CPUS);
	assert_true(cpumask_test_atomic(&shared, 255));
}

XCB_TEST_MAIN(
	cmocka_unit_test(test_basic),
	cmocka_unit_test(test_ops),
	cmocka_unit_test(test_atomic))
