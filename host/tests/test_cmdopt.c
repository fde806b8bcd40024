/*
 * test_cmdopt.c — the declarative option table (common/cmdopt.c): every
 * kind stores its value, bad values end with status 2 and name the option,
 * --help ends with 0, a short letter works, and operands stay after optind;
 * a real number is finite and in its option's range; an option that takes
 * one value is refused the second time (a flag and a many option are not).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <cmocka.h>

#include "cmdopt.h"

/* What one parse leaves (every destination a kind can have). */
struct got {
	int flag, num, word, calls;
	const char *str, *any;
	double real;
	uint64_t u, hex;
};

static const char *const colours[] = { "red", "green", "blue" };

/* An OPT_FN action: counts its calls and refuses "no". */
static int count(const struct cmdopt *o, const char *arg, char *err, size_t errlen)
{
	if (strcmp(arg, "no") == 0) {
		snprintf(err, errlen, "--%s: no", o->name);
		return -1;
	}
	((struct got *)o->dst)->calls++;
	return 0;
}

/* Parses the NULL-ended words as a command line into *g: cmd_parse's answer. */
static int parse(struct got *g, int *rc, char **words)
{
	const struct cmdopt opts[] = {
		OPT_FLAG("flag", &g->flag), OPT_STR("str", &g->str), OPT_INT("num", &g->num, 2, 9),
		OPT_NUM("real", &g->real, 0, 1), OPT_U64("u", &g->u), OPT_HEX64("hex", &g->hex),
		OPT_WORD("colour", &g->word, colours), OPT_FN_MANY("fn", count, g, NULL), OPT_FN("one", count, g, NULL),
		{ .name = "output", .kind = CMDOPT_STR, .dst = &g->str, .letter = 'o' },
		OPT_STR_ANY("any", &g->any), OPT_END,
	};
	const struct cmd cmd = { "test", "usage: test\n", opts };
	int argc = 0;

	while (words[argc])
		argc++;
	memset(g, 0, sizeof(*g));
	return cmd_parse(&cmd, argc, words, rc);
}

static void every_kind_stores(void **st)
{
	char *w[] = { "test", "--flag", "--str", "s", "--num", "7", "--real", "0.25", "--u", "12", "--hex", "ff",
		      "--colour", "blue", "--fn", "a", "--fn", "b", "rest", NULL };
	struct got g;
	int rc;

	(void)st;
	assert_int_equal(parse(&g, &rc, w), 0);
	assert_int_equal(rc, 0);
	assert_int_equal(g.flag, 1);
	assert_string_equal(g.str, "s");
	assert_int_equal(g.num, 7);
	assert_true(g.real == 0.25);
	assert_true(g.u == 12 && g.hex == 0xff);
	assert_int_equal(g.word, 2);
	assert_int_equal(g.calls, 2);
	assert_int_equal(optind, 18);	/* "rest" */
}

static void short_letter(void **st)
{
	char *w[] = { "test", "-o", "file", NULL };
	struct got g;
	int rc;

	(void)st;
	assert_int_equal(parse(&g, &rc, w), 0);
	assert_string_equal(g.str, "file");
}

static void bad_values_end_with_2(void **st)
{
	char *nums[] = { "test", "--num", "10", NULL }, *reals[] = { "test", "--real", "x", NULL },
	     *hexes[] = { "test", "--hex", "xyz", NULL }, *wordsbad[] = { "test", "--colour", "pink", NULL },
	     *fns[] = { "test", "--fn", "no", NULL }, *unknown[] = { "test", "--nosuch", NULL };
	char **all[] = { nums, reals, hexes, wordsbad, fns, unknown };
	struct got g;
	int rc;

	(void)st;
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		rc = -1;
		assert_int_equal(parse(&g, &rc, all[i]), CMD_EXIT);
		assert_int_equal(rc, 2);
	}
}

/* strtod alone took each of these (nan and inf pass no range check). */
static void reals_finite_in_range(void **st)
{
	const char *bad[] = { "nan", "inf", "-inf", "1e999", " 0.5", "0.5x", "", "1.5", "-0.1", "0x2" };
	const char *good[] = { "0", "1", "0.5", "1e-3" };
	const double want[] = { 0, 1, 0.5, 1e-3 };
	struct got g;
	int rc;

	(void)st;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *w[] = { "test", "--real", (char *)bad[i], NULL };

		rc = -1;
		assert_int_equal(parse(&g, &rc, w), CMD_EXIT);
		assert_int_equal(rc, 2);
		assert_true(g.real == 0);
	}
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		char *w[] = { "test", "--real", (char *)good[i], NULL };

		assert_int_equal(parse(&g, &rc, w), 0);
		assert_true(g.real == want[i]);
	}
}

/* An empty text value is refused (an unset variable's), except where the
 * option takes it as a value of its own (OPT_STR_ANY: a label cleared). */
static void empty_text_only_where_it_means_something(void **st)
{
	char *e[] = { "test", "--str", "", NULL }, *o[] = { "test", "-o", "", NULL },
	     *a[] = { "test", "--any", "", NULL };
	struct got g;
	int rc = -1;

	(void)st;
	assert_int_equal(parse(&g, &rc, e), CMD_EXIT);
	assert_int_equal(rc, 2);
	assert_null(g.str);
	rc = -1;
	assert_int_equal(parse(&g, &rc, o), CMD_EXIT);
	assert_int_equal(rc, 2);
	assert_int_equal(parse(&g, &rc, a), 0);
	assert_non_null(g.any);
	assert_string_equal(g.any, "");
}

/* The last value was taken without a word: `xcbench vm --suite seed ...
 * --suite tlb` ran tlb. Each single-valued kind, by its long name or its
 * letter, ends with 2 the second time, before the second value is applied. */
static void single_valued_once(void **st)
{
	const char *twice[][5] = {
		{ "--str", "a", "--str", "b" }, { "-o", "a", "--output", "b" }, { "--num", "3", "--num", "4" },
		{ "--real", "0.5", "--real", "0.25" }, { "--u", "1", "--u", "2" }, { "--hex", "a", "--hex", "b" },
		{ "--colour", "red", "--colour", "blue" }, { "--any", "", "--any", "b" }, { "--one", "a", "--one", "b" },
	};
	char *flags[] = { "test", "--flag", "--flag", NULL }, *many[] = { "test", "--fn", "a", "--fn", "b", NULL };
	struct got g;
	int rc;

	(void)st;
	for (size_t i = 0; i < sizeof(twice) / sizeof(twice[0]); i++) {
		char *w[] = { "test", (char *)twice[i][0], (char *)twice[i][1], (char *)twice[i][2],
			      (char *)twice[i][3], NULL };

		rc = -1;
		assert_int_equal(parse(&g, &rc, w), CMD_EXIT);
		assert_int_equal(rc, 2);
		/* the first value stays: the second was never applied */
		assert_true(g.num != 4 && g.word != 2 && g.u != 2 && g.hex != 0xb && g.calls <= 1);
		assert_true(!g.str || strcmp(g.str, "b") != 0);
	}
	assert_int_equal(parse(&g, &rc, flags), 0);
	assert_int_equal(g.flag, 1);
	assert_int_equal(parse(&g, &rc, many), 0);
	assert_int_equal(g.calls, 2);
}

/* xcbenchd's table (OPT_END_LAST_WINS): scripts append overrides to a
 * base command line, and the last value is taken. */
static void last_wins_table(void **st)
{
	const char *s = NULL;
	const struct cmdopt opts[] = { OPT_STR("db", &s), OPT_END_LAST_WINS };
	const struct cmd cmd = { "test", "usage: test\n", opts };
	char *w[] = { "test", "--db", "a", "--db", "b", NULL };
	int rc;

	(void)st;
	assert_int_equal(cmd_parse(&cmd, 5, w, &rc), 0);
	assert_string_equal(s, "b");
}

static void help_ends_with_0(void **st)
{
	char *w[] = { "test", "--flag", "--help", NULL }, *h[] = { "test", "-h", NULL };
	struct got g;
	int rc = -1;

	(void)st;
	assert_int_equal(parse(&g, &rc, w), CMD_EXIT);
	assert_int_equal(rc, 0);
	rc = -1;
	assert_int_equal(parse(&g, &rc, h), CMD_EXIT);
	assert_int_equal(rc, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_kind_stores),
		cmocka_unit_test(short_letter),
		cmocka_unit_test(bad_values_end_with_2),
		cmocka_unit_test(reals_finite_in_range),
		cmocka_unit_test(empty_text_only_where_it_means_something),
		cmocka_unit_test(single_valued_once),
		cmocka_unit_test(last_wins_table),
		cmocka_unit_test(help_ends_with_0),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
