/* tests/test_cmdline.c — host unit tests of lib/cmdline.c (and the console
 * capture in lib/printf.c): splitting, image-name dropping, numbers, choices,
 * lists, unknown-key warnings and errors that name the key (a one-word
 * key's bad value with the nearest word, as a list's); CPU-index keys
 * and the test faults' keys (bench/faults.c), each bad value refused. */
#include <stdio.h>
#include <string.h>
#include "tests/xcb_test.h"
#include "lib/cmdline.h"
#include "lib/cmdline_words.h"
#include "lib/printf.h"
#include "bench/faults.h"
#include "xcall/platform.h"

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

static void test_cpu_keys(void **state)
{
	(void)state;
	unsigned c;
	cmdline_init("img a=3 b=x c=12abc d=4 e= f=4294967297 g=0 h=0x2");
	/* Absent: ~0u (none); else the CPU, any way cmdline_u64 spells it. */
	static const struct {
		const char *key;
		unsigned cpu;
	} good[] = { { "absent", ~0u }, { "a", 3 }, { "g", 0 }, { "h", 2 } };
	for (unsigned i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		c = 1;
		assert_int_equal(cmdline_cpu(good[i].key, 4, &c), 0);
		assert_true(c == good[i].cpu);
	}
	/* Every bad one refused with ~0u, none taken as a CPU or as "off". */
	const char *bad[] = { "b", "c", "d", "e", "f" };
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		c = 1;
		assert_int_equal(cmdline_cpu(bad[i], 4, &c), -1);
		assert_true(c == ~0u);
	}
	assert_non_null(strstr(captured, "cmdline key 'b': bad number 'x'"));
	assert_non_null(strstr(captured, "cmdline key 'c': bad number '12abc'"));
	assert_non_null(strstr(captured, "cmdline key 'd': cpu 4 is not online (cpus 0-3)"));
	/* 2^32 + 1 is not cpu 1 (a 32-bit cast would make it so) */
	assert_non_null(strstr(captured, "cmdline key 'f': cpu 4294967297 is not online (cpus 0-3)"));
}

/* bench/faults.c hands the xcall layer's faults down through this. */
static struct plat_faults handed;
static unsigned handed_n;
void plat_faults_set(const struct plat_faults *f)
{
	handed = *f;
	handed_n++;
}

/* faults_init(4) over `line`: its result; every fault is off after a bad one. */
static int faults_of(const char *line)
{
	cmdline_init(line);
	handed_n = 0;
	int rc = faults_init(4);
	assert_int_equal(handed_n, 1);
	if (rc < 0) {
		assert_true(faults.hang_cpu == ~0u && faults.fault_cpu == ~0u && faults.dupskip_cpu == ~0u &&
			    faults.startfail_cpu == ~0u);
		assert_true(handed.lost_site == PLAT_LOST_NONE && handed.lost_cpu == ~0u && handed.lost_after == 0 &&
			    handed.fwddrop_cpu == ~0u && handed.raw_wait_ms == 0);
	}
	return rc;
}

static void test_fault_keys(void **state)
{
	(void)state;
	assert_int_equal(faults_of("img"), 0);
	assert_true(faults.hang_cpu == ~0u && handed.lost_site == PLAT_LOST_NONE && handed.fwddrop_cpu == ~0u);
	assert_int_equal(faults_of("img hang_cpu=1 fault_cpu=2 dupskip_cpu=0 startfail_cpu=3 fwddrop_cpu=3 "
				   "ipidrop=mask ipidrop_cpu=2 ipidrop_after=30"), 0);
	assert_true(faults.hang_cpu == 1 && faults.fault_cpu == 2 && faults.dupskip_cpu == 0 &&
		    faults.startfail_cpu == 3);
	assert_true(handed.lost_site == PLAT_LOST_MASK && handed.lost_cpu == 2 && handed.lost_after == 30 &&
		    handed.fwddrop_cpu == 3);
	assert_int_equal(faults_of("img ipidrop=vector ipidrop_cpu=1"), 0);
	assert_true(handed.lost_site == PLAT_LOST_VECTOR && handed.lost_cpu == 1 && handed.raw_wait_ms == 0);
	/* rawwait_ms= handed down as given (0 = raw.c's own 10 s). */
	assert_int_equal(faults_of("img ipidrop=raw ipidrop_cpu=1 rawwait_ms=2000"), 0);
	assert_true(handed.lost_site == PLAT_LOST_RAW && handed.raw_wait_ms == 2000);

	/* Each key with a bad number, a CPU past the 4 online, an empty value. */
	const char *keys[] = { "hang_cpu", "fault_cpu", "dupskip_cpu", "startfail_cpu", "fwddrop_cpu" };
	const char *vals[] = { "x", "12abc", "4", "" };
	for (unsigned k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		for (unsigned v = 0; v < sizeof(vals) / sizeof(vals[0]); v++) {
			char line[64];
			snprintf(line, sizeof(line), "img %s=%s", keys[k], vals[v]);
			ncaptured = 0;
			assert_int_equal(faults_of(line), -1);
			snprintf(line, sizeof(line), "cmdline key '%s': ", keys[k]);
			assert_non_null(strstr(captured, line));
		}
	/* The ipidrop keys; one without the other would lose nothing. Each line
	 * refused, naming what is wrong. */
	static const struct {
		const char *line, *said;
	} lost[] = {
		{ "img ipidrop=mask ipidrop_cpu=x", "'ipidrop_cpu': bad number 'x'" },
		{ "img ipidrop=mask ipidrop_cpu=9", "'ipidrop_cpu': cpu 9 is not online (cpus 0-3)" },
		{ "img ipidrop=mask ipidrop_cpu=1 ipidrop_after=3x", "'ipidrop_after': bad number '3x'" },
		{ "img ipidrop=msk ipidrop_cpu=1", "'ipidrop': unknown value 'msk'; did you mean 'mask'? (one of: none raw" },
		{ "img ipidrop_cpu=1", "'ipidrop_cpu': needs ipidrop=SITE too" },
		{ "img ipidrop=raw", "'ipidrop': needs ipidrop_cpu=N too" },
		{ "img ipidrop=raw ipidrop_cpu=1 ipidrop_after=2", "'ipidrop_after': applies to ipidrop=mask|vector only" },
		{ "img rawwait_ms=2s", "'rawwait_ms': bad number '2s'" },
		{ "img rawwait_ms=0", "'rawwait_ms': 0 ms is below 100 ms" },
		{ "img rawwait_ms=99", "'rawwait_ms': 99 ms is below 100 ms" },
	};
	for (unsigned i = 0; i < sizeof(lost) / sizeof(lost[0]); i++) {
		ncaptured = 0;
		assert_int_equal(faults_of(lost[i].line), -1);
		assert_non_null(strstr(captured, lost[i].said));
	}
}

static void test_choice(void **state)
{
	(void)state;
	cmdline_init("x apic=x2apic end=sideways");
	assert_int_equal(cmdline_choice("apic", "auto|xapic|x2apic", 0), 2);
	assert_int_equal(cmdline_choice("nothere", "auto|xapic|x2apic", 0), 0);
	assert_int_equal(cmdline_choice("end", "exit|halt|reboot", 0), -1);
	assert_non_null(strstr(captured, "cmdline key 'end': unknown value 'sideways' (one of: exit halt reboot)\n"));
	cmdline_init("x apic=x2ap");
	assert_int_equal(cmdline_choice("apic", "auto|xapic|x2apic", 0), -1); /* prefix is not a match */
}

/* The value of key on line, refused by cmdline_choice over the key's own
 * words (lib/cmdline_words.h): the line said, in captured. */
static void choice_refused(const char *line, const char *key, const char *alts)
{
	ncaptured = 0;
	captured[0] = 0;
	cmdline_init(line);
	assert_int_equal(cmdline_choice(key, alts, 0), -1);
}

/* A one-word key's bad value is refused by the line a word list's is
 * (cmdline_refuse: bench/suite.c's algos=, flush=, ...): the nearest word
 * when one is near, and the words one by one. cmdline_choice said "bad
 * value 'rebot' (expected exit|halt|reboot)", no suggestion. */
static void test_one_word_refused_near(void **state)
{
	(void)state;
	choice_refused("x end=rebot", "end", CMDLINE_ALTS(CMDLINE_VOCAB_END));
	assert_string_equal(captured, "xcbench: error: cmdline key 'end': unknown value 'rebot'; "
				      "did you mean 'reboot'? (one of: exit halt reboot)\n");
	choice_refused("x console=nnone", "console", CMDLINE_ALTS(CMDLINE_VOCAB_CONSOLE));
	assert_non_null(strstr(captured, "'console': unknown value 'nnone'; did you mean 'none'? (one of: serial none)\n"));
	choice_refused("x crash=PF", "crash", CMDLINE_ALTS(CMDLINE_VOCAB_CRASH));	/* case aside */
	assert_non_null(strstr(captured, "'crash': unknown value 'PF'; did you mean 'pf'? (one of: pf ud gp de)\n"));
	choice_refused("x ipidrop=vectro", "ipidrop", CMDLINE_ALTS(CMDLINE_VOCAB_IPIDROP));	/* a swap */
	assert_non_null(strstr(captured, "'ipidrop': unknown value 'vectro'; did you mean 'vector'? "
					 "(one of: none raw paths qlist lazy mask vector)\n"));
	choice_refused("x apic=x2apci", "apic", CMDLINE_ALTS(CMDLINE_VOCAB_APIC));
	assert_non_null(strstr(captured, "'apic': unknown value 'x2apci'; did you mean 'x2apic'? (one of: auto xapic x2apic)\n"));
	choice_refused("x spin=puase", "spin", CMDLINE_ALTS(CMDLINE_VOCAB_SPIN));
	assert_non_null(strstr(captured, "'spin': unknown value 'puase'; did you mean 'pause'?"));
	choice_refused("x transport=upd", "transport", CMDLINE_ALTS(CMDLINE_VOCAB_TRANSPORT));
	assert_non_null(strstr(captured, "'transport': unknown value 'upd'; did you mean 'udp'? (one of: serial udp both)\n"));
	/* near none: the list alone */
	choice_refused("x tsc=hpet", "tsc", CMDLINE_ALTS(CMDLINE_VOCAB_TSC));
	assert_string_equal(captured, "xcbench: error: cmdline key 'tsc': unknown value 'hpet' "
				      "(one of: auto cpuid pmtimer pit)\n");
	/* the same line, word for word, as a word list's (one function) */
	ncaptured = 0;
	const char *const ends[] = { "exit", "halt", "reboot" };
	cmdline_refuse("end", "rebot", ends, NULL, 3, NULL);
	assert_string_equal(captured, "xcbench: error: cmdline key 'end': unknown value 'rebot'; "
				      "did you mean 'reboot'? (one of: exit halt reboot)\n");
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

/* Two letters swapped are one slip, not two: a 4-letter name or key (a
 * third of its length is 1 edit) got no suggestion for `mnie` or `rpes`
 * when a swap counted as two substitutions. The algos= check uses
 * cmdline_nearest (host/common/payload_keys.c), keys cmdline_key_nearest:
 * one measure. A name as long as an algorithm's may be (XCALL_NAME_MAX,
 * 59) is measured too, not given up on past a key's 32. */
static void test_nearest_counts_a_swap_once(void **state)
{
	(void)state;
	const char *const algos[] = { "concurrent", "locked", "lockless", "mine", "queued", "tree",
				      "a_rather_long_name_for_an_algorithm_of_some_kind_x" };
	assert_int_equal(cmdline_nearest("mnie", algos, 7), 3);
	assert_int_equal(cmdline_nearest("imne", algos, 7), 3);
	assert_int_equal(cmdline_nearest("lcokless", algos, 7), 2);
	assert_int_equal(cmdline_nearest("tere", algos, 7), 5);
	assert_int_equal(cmdline_nearest("a_rather_long_name_for_an_algorithm_of_some_kind_x", algos, 7), 6);
	assert_int_equal(cmdline_nearest("a_rahter_long_name_for_an_algorithm_of_some_kind_x", algos, 7), 6);
	/* still not anything: two swaps in four letters, nothing near */
	assert_int_equal(cmdline_nearest("imen", algos, 7), -1);
	assert_int_equal(cmdline_nearest("bogus", algos, 7), -1);
	/* a list with a gap (a vocabulary word that is not on the command
	 * line: bench/suite.c passes its tables as they are) skips it */
	const char *const gaps[] = { NULL, "vector", NULL, "consolidated" };
	assert_int_equal(cmdline_nearest("consolidate", gaps, 4), 3);
	assert_int_equal(cmdline_nearest("", gaps, 4), -1);

	cmdline_init("rpes=3");
	assert_int_equal(cmdline_check_keys(), 1);
	assert_non_null(strstr(captured, "unknown cmdline key 'rpes' (ignored); did you mean 'reps' "));
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
	cmocka_unit_test_setup(test_cpu_keys, setup),
	cmocka_unit_test_setup(test_fault_keys, setup),
	cmocka_unit_test_setup(test_choice, setup),
	cmocka_unit_test_setup(test_one_word_refused_near, setup),
	cmocka_unit_test_setup(test_list, setup),
	cmocka_unit_test_setup(test_unknown_keys, setup),
	cmocka_unit_test_setup(test_unknown_key_suggests_nearest, setup),
	cmocka_unit_test_setup(test_nearest_counts_a_swap_once, setup),
	cmocka_unit_test_setup(test_long_line_truncated_safely, setup),
	cmocka_unit_test_setup(test_ksnprintf, setup),
	cmocka_unit_test_setup(test_shown_masks_secrets, setup))
