/* tests/xcb_test.h — what every firmware unit test starts and ends with:
 * cmocka's headers, which need <setjmp.h>, <stdarg.h> and <stddef.h> before
 * <cmocka.h>, and XCB_TEST_MAIN(), the main() that runs a file's tests. */
#ifndef XCB_TESTS_XCB_TEST_H
#define XCB_TESTS_XCB_TEST_H
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

/* main(): runs the cmocka tests given (cmocka_unit_test(fn), ...) in order,
 * as one group named "tests" (the name cmocka prints: the array's), with no
 * group setup; its exit status is the number of tests that failed. */
#define XCB_TEST_MAIN(...)                                              \
	int main(void)                                                  \
	{                                                               \
		const struct CMUnitTest tests[] = { __VA_ARGS__ };      \
		return cmocka_run_group_tests(tests, NULL, NULL);       \
	}

#endif
