/*
 * cmd_check.c — `xcbench check --baseline A B`: the CI verdict. Compares B
 * against the baseline A as `compare` does (groups of boots where given,
 * Benjamini–Hochberg across the table) with the threshold as the minimum
 * effect, lists the cases that became significantly slower, and exits 1
 * when there is one: a job can gate a patch on it.
 */
#include <getopt.h>
#include <string.h>

#include "client.h"
#include "compare_text.h"

static const char usage[] =
	"usage: xcbench check --baseline A|stored|last:N B [--threshold PCT] [--fdr Q]\n"
	"                     [--a-where K=V,..] [--b-where K=V,..] [--format text|markdown] [--json]\n"
	"(stored: the baseline `xcbench baseline` set for B's machine and suite;\n"
	"last:N: the N complete runs of B's machine and suite before B.)\n"
	"Exits 1 when a case of B (a run id or a list 1,2,3) is significantly slower\n"
	"than in the baseline A by at least PCT % (default 5): significant after\n"
	"Benjamini-Hochberg at FDR Q (default 0.05) with its 95 % interval above 0.\n"
	"Give several boots a side: with one, the interval is within-boot only and\n"
	"cries wolf (the output warns). Lists the regressed cases and a summary.\n"
	"Exit status: 0 no regression, 1 regression, 2 usage or server error,\n"
	"3 nothing was checked: no case matched, or none could be tested (fewer\n"
	"than 5 repetitions a side in one boot; with --json too, whose verdict then\n"
	"reads \"no case matched\" or \"not tested\").\n";

int cmd_check(int argc, char **argv)
{
	struct cmp_args ca = { .min_effect = "5" };
	const char *format = "text";
	int rc, as_json = 0;
	const struct cmdopt opts[] = {
		OPT_STR("baseline", &ca.a), OPT_STR("threshold", &ca.min_effect), OPT_STR("fdr", &ca.fdr),
		OPT_STR("a-where", &ca.a_where), OPT_STR("b-where", &ca.b_where), OPT_STR("format", &format),
		OPT_FLAG("json", &as_json), OPT_END,
	};
	const struct cmd cmd = { "xcbench check", usage, opts };
	struct buf path = { 0 };
	json_t *o, *s;
	long long slower, cases, tested;

	if (cmd_parse(&cmd, argc, argv, &rc))
		return rc;
	if (!ca.a || optind != argc - 1) {
		fprintf(stderr, "xcbench check: expected --baseline A and one side B\n");
		return cmd_usage_error(&cmd);
	}
	ca.b = argv[optind];
	if (compare_sides("xcbench check", &ca))
		return 2;
	if (strcmp(format, "text") && strcmp(format, "markdown")) {
		fprintf(stderr, "xcbench check: --format is text or markdown, not '%s'\n", format);
		return 2;
	}
	compare_path(&ca, 0, &path);
	o = get_answer(path.p, 0, &rc);
	buf_free(&path);
	if (!o)
		return 2;
	s = json_object_get(o, "summary");
	slower = (long long)json_integer_value(json_object_get(s, "slower"));
	cases = (long long)json_integer_value(json_object_get(s, "cases"));
	tested = (long long)json_integer_value(json_object_get(s, "tested"));
	/* No case matched, or none could be tested (one boot a side with fewer
	 * than COMPARE_MIN_REPS repetitions: no interval, no p), is no verdict:
	 * a typo in --a-where, a wrong run, a run too short. Exit 3 in every
	 * form, never a pass a CI job would take - whatever B's figures. */
	if (json_array_size(json_object_get(o, "cases")) == 0 || tested == 0) {
		int none = json_array_size(json_object_get(o, "cases")) == 0;

		if (as_json) {
			json_object_set_new(o, "verdict", json_string(none ? "no case matched" : "not tested"));
			print_json(o);
		} else {
			compare_warnings(o);
			compare_summary(o);
			json_decref(o);
		}
		if (none)
			fprintf(stderr, "xcbench check: no case matched: nothing was checked\n");
		else
			fprintf(stderr, "xcbench check: none of the %lld matched cases could be tested (too few "
				"repetitions: 5 or more a side, or several boots a side): nothing was checked\n", cases);
		return 3;
	}
	if (as_json) {
		json_object_set_new(o, "verdict", json_string(slower ? "regression" : "pass"));
		print_json(o);
		return slower ? 1 : 0;
	}
	if (slower)
		compare_report(o, strcmp(format, "markdown") == 0 ? CMP_MARKDOWN : CMP_TEXT, 1);
	compare_warnings(o);
	compare_summary(o);
	/* A pass covers the tested cases only: say how many those were. */
	printf("check: %s: %lld of %lld tested cases significantly slower by >= %s %%",
	       slower ? "REGRESSION" : "pass", slower, tested, ca.min_effect);
	if (tested < cases)
		printf(" (%lld of the %lld matched not tested: too few repetitions)", cases - tested, cases);
	printf("\n");
	json_decref(o);
	return slower ? 1 : 0;
}
