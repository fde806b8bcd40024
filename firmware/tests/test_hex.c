/* tests/test_hex.c — host unit tests of lib/hex.h, the one hexadecimal digit
 * table, and of its users in kprintf (%x, %X, %o). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "lib/hex.h"
#include "lib/printf.h"

static void test_digits(void **state)
{
	(void)state;
	const char lower[] = "0123456789abcdef", upper[] = "0123456789ABCDEF";
	for (unsigned d = 0; d < 16; d++) {
		assert_int_equal(hex_digit(d, 0), lower[d]);
		assert_int_equal(hex_digit(d, 1), upper[d]);
		assert_int_equal(hex_digit(d + 16 * 7, 0), lower[d]);   /* only the low nibble */
	}
	char b[3] = { 0 };
	assert_ptr_equal(hex_byte(b, 0x1c9), b + 2);
	assert_string_equal(b, "c9");
}

static void test_printf_bases(void **state)
{
	(void)state;
	char b[64];
	ksnprintf(b, sizeof(b), "%x %X %08X %o %llX", 0xbeefu, 0xbeefu, 0xa1u, 0755u, 0xfedcba9876543210ull);
	assert_string_equal(b, "beef BEEF 000000A1 755 FEDCBA9876543210");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_digits),
		cmocka_unit_test(test_printf_bases),
	};
	return cmocka_run_group_tests_name("hex", tests, NULL, NULL);
}
