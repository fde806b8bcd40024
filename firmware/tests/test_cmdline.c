/* tests/test_cmdline.c — host unit tests of lib/cmdline.c (and the console
 * capture in lib/printf.c): splitting, image-name dropping, numbers, choices,
 * lists, unknown-key warnings and errors that name the key. */
#include <stdio.h>
#include <string.h>
#include "tests/xcb_test.h"
#include "lib/cmdline.h"
#include "lib/printf.h"

static char captured[4096];
static size_t ncaptured;
static void capture(const char *s, size_t len)
{
	if (ncaptured + len < sizeof(captured)) {
		memcpy(captured + ncaptured, s, len);
		ncaptured += len;
		captured[ncaptured] = 0;
	}
}
static int setup(void **state)
{
	(void)state;
	ncaptured = 0;
	captured[0] = 0;
	console_set_sink(capture);
	return 0;
}

/* UEFI LoadOptions (issue 21): an image name is detected, not assumed - OVMF's
 * -kernel passes none, so "bogus boot_only=1" keeps "bogus" as a key (then
 * refused as unknown), where cmdline_init dropped it as a name. */
static void test_efi_image_name_detected(void **state)
{
	(void)state;
	assert_int_equal(cmdline_image_name_len("bogus boot_only=1", NULL), 0);
	assert_int_equal(cmdline_image_name_len("bogus boot_only=1", ""), 0);
	assert_int_equal(cmdline_image_name_len("boot_only=1 x=2", NULL), 0);
	assert_int_equal(cmdline_image_name_len("xcbench.efi boot_only=1", NULL), 12);
	assert_int_equal(cmdline_image_name_len("XCBENCH.EFI  a=1", NULL), 13);
	assert_int_equal(cmdline_image_name_len("fs0:\\EFI\\xcb a=1", NULL), 13);
	assert_int_equal(cmdline_image_name_len("  /boot/x a=1", NULL), 10);
	assert_int_equal(cmdline_image_name_len("xcbench a=1", "XCBench"), 8);	/* the loaded file */
	assert_int_equal(cmdline_image_name_len("xcbench.efi", NULL), 11);
	assert_int_equal(cmdline_image_name_len("", NULL), 0);
	assert_int_equal(cmdline_image_name_len(NULL, NULL), 0);
	/* the payload side: no name in front, every word a key */
	assert_int_equal(cmdline_init_noname("bogus boot_only=1"), 2);
	assert_string_equal(cmdline_get(), "bogus boot_only=1");
	assert_int_equal(cmdline_check_keys(), 1);
	assert_non_null(strstr(captured, "'bogus'"));
	assert_int_equal(cmdline_init("bogus boot_only=1"), 1);	/* multiboot: a name */
}

static void test_image_name_dropped(void **state)
{
	(void)state;
	assert_int_equal(cmdline_init("/srv/xcbench.elf apic=x2apic iters=100"), 2);
	assert_string_equal(cmdline_get(), "apic=x2apic iters=100");
	assert_string_equal(cmdline_str("apic", "auto"), "x2apic");
	assert_int_equal(cmdline_init("apic=xapic"), 1); /* no image name: first word kept */
	assert_string_equal(cmdline_str("apic", "auto"), "xapic");
	assert_int_equal(cmdline_init(NULL), 0);
	assert_int_equal(cmdline_init("   "), 0);
	assert_int_equal(cmdline_init("xcbench.elf"), 0);
}

/* The line shown on the console and in HELLO hides the token and server. */
static void test_shown_masks_secrets(void **state)
{
	(void)state;
	cmdline_init("xcbench.elf run=986b604c0c857f56 server=10.0.2.2:8080 suite=quick");
	assert_string_equal(cmdline_get(), "run=986b604c0c857f56 server=10.0.2.2:8080 suite=quick");
	assert_string_equal(cmdline_shown(), "run=* server=* suite=quick");
	assert_string_equal(cmdline_str("run", ""), "986b604c0c857f56");
	cmdline_init(NULL);
	assert_string_equal(cmdline_shown(), "");
}

static void test_values(void **state)
{
	(void)state;
	cmdline_init("k  a=1\tb= c=x=y flag a=2");
	assert_string_equal(cmdline_str("a", NULL), "2"); /* last one wins */
	assert_string_equal(cmdline_str("b", NULL), "");
	assert_string_equal(cmdline_str("c", NULL), "x=y");
	assert_true(cmdline_has("flag"));
	assert_string_equal(cmdline_str("flag", NULL), "");
	assert_null(cmdline_str("missing", NULL));
	assert_false(cmdline_has("missing"));
}

static void test_numbers(void **state)
{
	(void)state;
	uint64_t v;
	cmdline_init("img a=42 b=0x1F c=4k d=2M e=1g f=12q g= h=0x i=18446744073709551615 j=18446744073709551616 k=16g9");
	assert_int_equal(cmdline_u64("a", 0, &v), 0);
	assert_int_equal(v, 42);
	assert_int_equal(cmdline_u64("b", 0, &v), 0);
	assert_int_equal(v, 31);
	assert_int_equal(cmdline_u64("c", 0, &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(cmdline_u64("d", 0, &v), 0);
	assert_int_equal(v, 2u << 20);
	assert_int_equal(cmdline_u64("e", 0, &v), 0);
	assert_int_equal(v, 1u << 30);
	assert_int_equal(cmdline_u64("i", 0, &v), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(cmdline_u64("absent", 7, &v), 0);
	assert_int_equal(v, 7);

	assert_int_equal(cmdline_u64("f", 5, &v), -1);
	assert_int_equal(v, 5); /* default kept on error */
	assert_non_null(strstr(captured, "cmdline key 'f': bad number '12q'"));
	assert_int_equal(cmdline_u64("g", 5, &v), -1);
	assert_int_equal(cmdline_u64("h", 5, &v), -1);
	assert_int_equal(cmdline_u64("j", 5, &v), -1); /* overflow */
	assert_non_null(strstr(captured, "cmdline key 'j'"));
	assert_int_equal(cmdline_u64("k", 5, &v), -1);
}

static void test_choice(void **state)
{
	(void)state;
	cmdline_init("x apic=x2apic end=sideways");
	assert_int_equal(cmdline_choice("apic", "auto|xapic|x2apic", 0), 2);
	assert_int_equal(cmdline_choice("nothere", "auto|xapic|x2apic", 0), 0);
	assert_int_equal(cmdline_choice("end", "exit|halt|reboot", 0), -1);
	assert_non_null(strstr(captured, "cmdline key 'end': bad value 'sideways' (expected exit|halt|reboot)"));
	cmdline_init("x apic=x2ap");
	assert_int_equal(cmdline_choice("apic", "auto|xapic|x2apic", 0), -1); /* prefix is not a match */
}

static void test_list(void **state)
{
	(void)state;
	struct cmdline_items it;
	cmdline_init("x algos=locked,,queued, masks=");
	assert_int_equal(cmdline_list("algos", &it), 2);
	assert_string_equal(it.item[0], "locked");
	assert_string_equal(it.item[1], "queued");
	assert_int_equal(cmdline_list("masks", &it), 0);
	assert_int_equal(cmdline_list("absent", &it), 0);
	/* The list is a copy: the original value is unchanged. */
	assert_string_equal(cmdline_str("algos", NULL), "locked,,queued,");
}

static void test_unknown_keys(void **state)
{
	(void)state;
	cmdline_init("/boot/x apic=auto bogus=1 tsc=pit alsobogus");
	assert_int_equal(cmdline_check_keys(), 2);
	assert_non_null(strstr(captured, "unknown cmdline key 'bogus'"));
	assert_non_null(strstr(captured, "unknown cmdline key 'alsobogus'"));
	assert_null(strstr(captured, "'apic'"));
	/* nothing near 'bogus': no guess */
	assert_null(strstr(captured, "did you mean"));
}

/* A typo'd key names the key it likely meant, with that key's help: the
 * run otherwise uses the default quietly (delivery=unicast ran every
 * delivery). */
static void test_unknown_key_suggests_nearest(void **state)
{
	(void)state;
	cmdline_init("delivery=unicast algo=tree Waits=done");
	assert_int_equal(cmdline_check_keys(), 3);
	assert_non_null(strstr(captured, "unknown cmdline key 'delivery' (ignored); did you mean 'deliveries' "
					 "(auto,unicast,cluster,shorthand (or as runs name them: auto unicast "
					 "x2apic_cluster allbutself))?"));
	assert_non_null(strstr(captured, "unknown cmdline key 'algo' (ignored); did you mean 'algos' ("));
	assert_non_null(strstr(captured, "unknown cmdline key 'Waits' (ignored); did you mean 'waits' (none,ack,done)?"));
}

static void test_long_line_truncated_safely(void **state)
{
	(void)state;
	char big[CMDLINE_MAX * 2];
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	big[0] = 'k';
	big[1] = '=';
	assert_int_equal(cmdline_init(big), 1);
	assert_int_equal(strlen(cmdline_str("k", "")), CMDLINE_MAX - 3);
	/* More words than we keep: no overflow, the first ones parse. */
	char many[CMDLINE_MAX];
	size_t n = 0;
	for (int i = 0; n + 4 < sizeof(many); i++)
		n += (size_t)snprintf(many + n, sizeof(many) - n, "%c=1 ", 'a' + i % 26);
	assert_true(cmdline_init(many) <= CMDLINE_MAX_WORDS);
}

static void test_ksnprintf(void **state)
{
	(void)state;
	char b[128];
	ksnprintf(b, sizeof(b), "%d %u %x %08x %lx %llu %s %c %zu|%-4s|%4s|%%", -5, 7u, 255u, 0xabcu,
		  0xdeadbeefUL, 18446744073709551615ULL, "str", 'Z', (size_t)9, "ab", "cd");
	assert_string_equal(b, "-5 7 ff 00000abc deadbeef 18446744073709551615 str Z 9|ab  |  cd|%");
	assert_int_equal(ksnprintf(b, 4, "%s", "hello"), 5); /* returns the untruncated length */
	assert_string_equal(b, "hel");
	ksnprintf(b, sizeof(b), "%p %.3s %+d %5d %-5d|", (void *)0x1000, "abcdef", 3, -42, 42);
	assert_string_equal(b, "0x1000 abc +3   -42 42   |");
	/* widths and precisions from the arguments (a negative width: left), lengths */
	ksnprintf(b, sizeof(b), "%*d|%*d|%.*s|%hhu|%hd|%5.3d|%-3c|", 4, 7, -3, 1, 2, "xyz", 300, 70000, 5, 'q');
	assert_string_equal(b, "   7|1  |xy|44|4464|  005|q  |");
}

XCB_TEST_MAIN(
	cmocka_unit_test_setup(test_efi_image_name_detected, setup),
	cmocka_unit_test_setup(test_image_name_dropped, setup),
	cmocka_unit_test_setup(test_values, setup),
	cmocka_unit_test_setup(test_numbers, setup),
	cmocka_unit_test_setup(test_choice, setup),
	cmocka_unit_test_setup(test_list, setup),
	cmocka_unit_test_setup(test_unknown_keys, setup),
	cmocka_unit_test_setup(test_unknown_key_suggests_nearest, setup),
	cmocka_unit_test_setup(test_long_line_truncated_safely, setup),
	cmocka_unit_test_setup(test_ksnprintf, setup),
	cmocka_unit_test_setup(test_shown_masks_secrets, setup))
