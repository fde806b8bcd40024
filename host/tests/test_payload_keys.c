/*
 * test_payload_keys.c — the host's check of a payload key's value
 * (common/payload_keys.c) against what the payload's parsers take: each
 * word of the payload's own lists is taken and is the index its parser
 * switches on (firmware/lib/cmdline_words.h: one list for both); a number
 * as cmdline_parse_u64 reads it (0x hex, k/m/g, no sign, no exponent, no
 * overflow) within the key's bounds; a list item by item, empty items
 * skipped as the payload skips them; a prefix of a word is no word; and
 * every key of the table says what its value is, so a key added without
 * saying is caught here rather than left unchecked.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "lib/cmdline.h"
#include "lib/cmdline_words.h"
#include "payload_keys.h"

/* 0 when key=value is taken; else -1, and the reason must hold want. */
static int check(const char *key, const char *value, const char *want)
{
	char why[512] = "";
	int rc = payload_key_check(key, value, why, sizeof(why));

	if (rc && want && !strstr(why, want))
		fail_msg("%s=%s: '%s' lacks '%s'", key, value, why, want);
	return rc;
}

/* Every word of a payload's own list is taken, and the parser's match of
 * it is its place in the list (the enum the parser switches on is made of
 * the same list); a prefix is not. */
#define WORD_TAKEN(e, wire, cli) \
	assert_int_equal(check(key, cli, NULL), 0); \
	assert_int_equal(cmdline_word_index(alts, cli), at++);
#define WORDS_OF(k, LIST) \
	do { \
		const char *key = k, *alts = CMDLINE_ALTS(LIST); \
		int at = 0; \
		LIST(WORD_TAKEN) \
		assert_int_equal(at, XCB_COUNT(LIST)); \
	} while (0)
static void own_words_taken_by_index(void **state)
{
	(void)state;
	WORDS_OF("apic", CMDLINE_VOCAB_APIC);
	WORDS_OF("tsc", CMDLINE_VOCAB_TSC);
	WORDS_OF("end", CMDLINE_VOCAB_END);
	WORDS_OF("crash", CMDLINE_VOCAB_CRASH);
	WORDS_OF("console", CMDLINE_VOCAB_CONSOLE);
	WORDS_OF("spin", CMDLINE_VOCAB_SPIN);
	WORDS_OF("transport", CMDLINE_VOCAB_TRANSPORT);
	WORDS_OF("ipidrop", CMDLINE_VOCAB_IPIDROP);
	assert_int_equal(check("apic", "x2api", "is not one of auto, xapic, x2apic"), -1);
	assert_int_equal(cmdline_word_index(CMDLINE_ALTS(CMDLINE_VOCAB_APIC), "x2api"), -1);
	assert_int_equal(cmdline_word_index(CMDLINE_ALTS(CMDLINE_VOCAB_APIC), "x2apicc"), -1);
	assert_int_equal(check("end", "", "'' is not one of exit, halt, reboot"), -1);
	assert_int_equal(check("spin", "Plain", "not one of"), -1);
	/* the payload's own suggestion (lib/cmdline.c cmdline_refuse), after the list */
	assert_int_equal(check("apic", "x2api", "x2apic; did you mean 'x2apic'?"), -1);
	assert_int_equal(check("end", "rebot", "halt, reboot; did you mean 'reboot'?"), -1);
	assert_int_equal(check("waits", "ak", "; did you mean 'ack'?"), -1);
	{
		char why[512] = "";

		assert_int_equal(payload_key_check("tsc", "hpet", why, sizeof(why)), -1);
		assert_null(strstr(why, "did you mean")); /* nothing near: the list alone */
	}
}

/* A number as the payload reads it, within the key's bounds. */
static void numbers_as_the_payload_reads_them(void **state)
{
	(void)state;
	assert_int_equal(check("iters", "0x10", NULL), 0);
	assert_int_equal(check("iters", "4k", NULL), 0);
	assert_int_equal(check("iters", "18446744073709551615", NULL), 0);
	assert_int_equal(check("iters", "18446744073709551616", "is not a number (decimal"), -1);
	assert_int_equal(check("iters", "1e3", "is not a number (decimal"), -1);
	assert_int_equal(check("iters", "-1", "is not a number"), -1);
	assert_int_equal(check("iters", "0x", "is not a number"), -1);
	assert_int_equal(check("iters", "", "'' is not a number"), -1);
	assert_int_equal(check("iters", "1kb", "is not a number"), -1);
	assert_int_equal(check("reps", "1000", NULL), 0);
	assert_int_equal(check("reps", "1001", "'1001' is not a number from 1 to 1000"), -1);
	assert_int_equal(check("reps", "0", "from 1 to 1000"), -1);
	assert_int_equal(check("reps", "1k", "from 1 to 1000"), -1);	/* 1024 */
	assert_int_equal(check("watchdog_ms", "0", NULL), 0);
	assert_int_equal(check("watchdog_ms", "1000", NULL), 0);
	assert_int_equal(check("watchdog_ms", "999", "'999' is not 0 or a number of at least 1000"), -1);
	assert_int_equal(check("hang_cpu", "3", NULL), 0);
	assert_int_equal(check("hang_cpu", "x", "'x' is not a number"), -1);
}

/* A list, item by item: empty items skipped, the item named, its words. */
static void lists_item_by_item(void **state)
{
	(void)state;
	assert_int_equal(check("work_us", "0,500,", NULL), 0);
	assert_int_equal(check("writer", "", NULL), 0);
	assert_int_equal(check("inits", "1,,pow2", NULL), 0);
	assert_int_equal(check("inits", "0", "'0' is not a number from 1 to 100000000 or pow2"), -1);
	assert_int_equal(check("inits", "all", "'all' is not"), -1);	/* masks only */
	assert_int_equal(check("masks", "1,all,pow2", NULL), 0);
	assert_int_equal(check("masks", "2,pow", "'pow' is not a number from 1 to 100000000, all or pow2"), -1);
	assert_int_equal(check("batches", "1,64", NULL), 0);
	assert_int_equal(check("batches", "8,65", "'65' is not a number from 1 to 64"), -1);
	assert_int_equal(check("groups", "0,4", NULL), 0);
	assert_int_equal(check("kinds", "xcall,,all", NULL), 0);
	assert_int_equal(check("deliveries", "allbutself,cluster", NULL), 0);
}

/* run=: 16 hex digits, either case; anything else would be replaced. */
static void run_token(void **state)
{
	(void)state;
	assert_int_equal(check("run", "0123456789abcDEF", NULL), 0);
	assert_int_equal(check("run", "0123456789abcdef0", "is not 16 hex digits"), -1);
	assert_int_equal(check("run", "0123456789abcdeg", "is not 16 hex digits"), -1);
	assert_int_equal(check("run", "", "is not 16 hex digits"), -1);
}

/* Every key says what its value is; the ones not checked are these, whose
 * values the host cannot know (algos: the payload's registered algorithms)
 * or sets itself (the addresses: refused in a job, host/src/boot.c). */
static void every_key_says_its_kind(void **state)
{
	static const char *const text[] = { "algos", "server", "ip", "gw", "netmask", "mac" };

	(void)state;
	for (const struct cmdline_key *c = cmdline_keys; c->key; c++) {
		int free_text = 0;

		for (size_t i = 0; i < sizeof(text) / sizeof(text[0]); i++)
			free_text |= strcmp(c->key, text[i]) == 0;
		if ((c->value == CMDLINE_V_TEXT) != free_text)
			fail_msg("key '%s': its value kind (%d) is not said in cmdline_keys.c", c->key, c->value);
		if ((c->value == CMDLINE_V_WORD || c->value == CMDLINE_V_WORDS) && (!c->words || !c->nwords))
			fail_msg("key '%s': a word key without words", c->key);
		if ((c->value == CMDLINE_V_NUM || c->value == CMDLINE_V_NUMS) && c->min > c->max)
			fail_msg("key '%s': bounds %llu > %llu", c->key, (unsigned long long)c->min,
				 (unsigned long long)c->max);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(own_words_taken_by_index),
		cmocka_unit_test(numbers_as_the_payload_reads_them),
		cmocka_unit_test(lists_item_by_item),
		cmocka_unit_test(run_token),
		cmocka_unit_test(every_key_says_its_kind),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
