/*
 * cmd_check.c — `xcbench check --baseline A B`: the CI verdict. Compares B
 * against the baseline A as `compare` does (groups of boots where given,
 * Benjamini–Hochberg across the table) with the threshold as the minimum
 * effect, lists the cases that became significantly slower, and exits 1
 * when there is one: a job can gate a patch on it. A compared case of B
 * that failed a check (lost or duplicated calls, a watchdog) fails the
 * check whatever its speed (exit 4): an algorithm that drops calls is
 * fast for it. One whose baseline failed a check is named and not judged,
 * and so is one of method none on B's side (b_no_flush): it invalidates
 * nothing and its stale reads are not checked, so its speed is no pass of
 * a shootdown (README "TLB": a cost figure, never a pass).
 */
#include <getopt.h>
#include <string.h>

#include "client.h"
#include "compare_text.h"
#include "verdict.h"

static const char usage[] =
	"usage: xcbench check --baseline A|stored|last:N B [--threshold PCT] [--fdr Q]\n"
	"                     [--a-where K=V,..] [--b-where K=V,..] [--format text|markdown] [--json]\n"
	"                     [--stat median|mean|min|p90|p99|p999|max]\n"
	"(stored: the baseline `xcbench baseline` set for B's machine and suite;\n"
	"last:N: the N complete runs of B's machine and suite before B.)\n"
	"Exits 1 when a case of B (a run id or a list 1,2,3) is significantly slower\n"
	"than in the baseline A by at least PCT % (default 5): significant after\n"
	"Benjamini-Hochberg at FDR Q (default 0.05) with its 95 % interval above 0.\n"
	"--stat: the statistic of each repetition's calls judged (default median;\n"
	"p99 gates the tail), as `xcbench compare --stat`.\n"
	"Give 3 or more boots a side: with one, the interval is within-boot only and\n"
	"cries wolf (the output warns); with 2 there is none (not tested).\n"
	"Lists the regressed cases and a summary.\n"
	"A compared case that failed a check (calls lost, duplicated or out of\n"
	"order, a stale translation, a watchdog) is listed with why, in which run,\n"
	"and the payload's lines on it. In B it fails the check (exit 4), whatever\n"
	"its speed. In the baseline A it is not judged (neither slower nor a pass:\n"
	"its figures are not those of a correct algorithm).\n"
	"A compared case of method none in B (a TLB case that invalidates nothing,\n"
	"its stale reads not checked) is not judged either: a cost figure, never a\n"
	"pass.\n"
	"Exit status: 0 no regression, 1 regression, 2 usage or server error,\n"
	"3 nothing was checked: no case matched, or none could be tested (fewer\n"
	"than 5 repetitions a side in one boot, or fewer than 3 boots a side: no\n"
	"interval), or every tested case had a baseline that failed a check or was\n"
	"of method none in B (with --json too, whose verdict then reads \"no case\n"
	"matched\", \"not tested\" or \"baseline failed check\"), 4 a compared case\n"
	"of B failed a check (before 1 and 3; --json verdict \"failed check\",\n"
	"the cases' b_failed).\n";

/* The counts the verdict is of: B's compared cases that failed a check;
 * the tested cases (those with a p) whose baseline failed one, left out;
 * those of method none in B (b_no_flush, the baseline's passed), left out;
 * the tested cases judged, and the regressions among them. */
struct tally {
	long long failed_b, baseline_failed, no_flush_b, judged, slower;
	long long few_reps, few_boots;	/* not tested: no interval, and why */
};

static void tally(json_t *o, struct tally *t)
{
	size_t i;
	json_t *c;

	memset(t, 0, sizeof(*t));
	json_array_foreach(json_object_get(o, "cases"), i, c) {
		int tested = json_is_number(json_object_get(c, "p"));
		int a_failed = json_is_true(json_object_get(c, "a_failed"));
		int no_flush = json_is_true(json_object_get(c, "b_no_flush"));

		t->failed_b += json_is_true(json_object_get(c, "b_failed"));
		t->baseline_failed += tested && a_failed;
		t->no_flush_b += tested && !a_failed && no_flush;
		t->judged += tested && !a_failed && !no_flush;
		t->slower += tested && compare_regressed(c);	/* not b_no_flush's */
		/* method too_few_boots has a change and no p: never judged,
		 * neither slower nor a pass (host/API.md) */
		t->few_reps += !strcmp(json_string_value(json_object_get(c, "method")) ?: "", "too_few_reps");
		t->few_boots += !strcmp(json_string_value(json_object_get(c, "method")) ?: "", "too_few_boots");
	}
}

/* Why cases had no interval, in the compare views' words. */
static const char *untested_why(const struct tally *t)
{
	if (t->few_boots && t->few_reps)
		return "too few boots: 3 or more a side; too few repetitions: 5 or more a side in one boot";
	if (t->few_boots)
		return "too few boots: 3 or more a side";
	return "too few repetitions: 5 or more a side in one boot, or several boots a side";
}

/* A check's name (the API's x_failed_checks) in words. */
static const char *check_words(const char *name)
{
	if (strcmp(name, "invariant") == 0)
		return "calls lost, duplicated or out of order, or a stale translation";
	if (strcmp(name, "watchdog") == 0)
		return "a call ran past the watchdog";
	return name;
}

/* 1 if run is one of ids[0..n). */
static int has_id(const long long *ids, size_t n, long long run)
{
	for (size_t i = 0; i < n; i++)
		if (ids[i] == run)
			return 1;
	return 0;
}

/* Side x's ("a", "b") compared cases that failed a check, one wrapped line
 * each after heading: the case, which check and in which runs; then the
 * payload's LOG lines on each such run's failed cases (per_case a case),
 * which say what was lost on which CPU. */
static void failed_cases(json_t *o, const char *x, const char *heading)
{
	char kf[24], kc[24], kr[24], kid[16], t[64];
	long long runs[64];
	size_t i, j, nruns = 0;
	json_t *c, *v;

	snprintf(kf, sizeof(kf), "%s_failed", x);
	snprintf(kc, sizeof(kc), "%s_failed_checks", x);
	snprintf(kr, sizeof(kr), "%s_failed_runs", x);
	snprintf(kid, sizeof(kid), "%s_case", x);
	printf("%s\n", heading);
	json_array_foreach(json_object_get(o, "cases"), i, c) {
		struct buf b = { 0 };
		const char *k;

		if (!json_is_true(json_object_get(c, kf)))
			continue;
		buf_addf(&b, "case %lld (", (long long)json_integer_value(json_object_get(c, kid)));
		j = 0;
		json_object_foreach(json_object_get(c, "key"), k, v)
			buf_addf(&b, "%s%s=%s", j++ ? " " : "", k, jstr(v, t, sizeof(t)));
		buf_addf(&b, "):");
		json_array_foreach(json_object_get(c, kc), j, v)
			buf_addf(&b, "%s %s: %s", j ? ";" : "", json_string_value(v), check_words(json_string_value(v)));
		buf_addf(&b, "; in run");
		json_array_foreach(json_object_get(c, kr), j, v) {
			long long r = (long long)json_integer_value(v);

			buf_addf(&b, "%s %lld", j ? "," : json_array_size(json_object_get(c, kr)) > 1 ? "s" : "", r);
			if (!has_id(runs, nruns, r) && nruns < sizeof(runs) / sizeof(runs[0]))
				runs[nruns++] = r;
		}
		compare_wrap("  ", "    ", b.p);
		buf_free(&b);
	}
	for (i = 0; i < nruns; i++) {
		char h[96];

		snprintf(h, sizeof(h), "  the payload's lines on run %lld's failed cases:", runs[i]);
		print_run_failures(runs[i], 3, h, "    ", stdout);
	}
}

int cmd_check(int argc, char **argv)
{
	struct cmp_args ca = { .min_effect = "5" };
	const char *format = "text";
	int rc, as_json = 0;
	const struct cmdopt opts[] = {
		OPT_STR("baseline", &ca.a), OPT_STR("threshold", &ca.min_effect), OPT_STR("fdr", &ca.fdr),
		OPT_STR("a-where", &ca.a_where), OPT_STR("b-where", &ca.b_where), OPT_STR("format", &format),
		OPT_FLAG("json", &as_json), OPT_STR("stat", &ca.stat), OPT_END,
	};
	const struct cmd cmd = { "xcbench check", usage, opts };
	struct buf path = { 0 };
	json_t *o, *s;
	long long cases, tested;
	struct tally t;
	const char *verdict;

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
	cases = (long long)json_integer_value(json_object_get(s, "cases"));
	tested = (long long)json_integer_value(json_object_get(s, "tested"));
	tally(o, &t);
	/* No case matched, or none could be tested (one boot a side with fewer
	 * than COMPARE_MIN_REPS repetitions, or fewer than COMPARE_MIN_BOOTS
	 * boots a side: no interval, no p), or every one
	 * tested had a baseline that failed a check or was of method none in B,
	 * is no verdict: a typo in --a-where, a wrong run, a run too short, a
	 * broken baseline, a B that flushed nothing. Exit 3
	 * in every form, never a pass a CI job would take - unless B failed a
	 * check: that needs no interval (exit 4). */
	if (json_array_size(json_object_get(o, "cases")) == 0 || (!t.failed_b && t.judged == 0)) {
		int none = json_array_size(json_object_get(o, "cases")) == 0;

		if (as_json) {
			json_object_set_new(o, "verdict", json_string(none ? "no case matched"
							  : tested == 0 || t.no_flush_b ? "not tested"
							  : "baseline failed check"));
			print_json(o);
		} else {
			if (t.baseline_failed)
				failed_cases(o, "a", "failed a check in the baseline A (not judged):");
			if (t.no_flush_b)
				compare_no_flush_legend(o);
			compare_warnings(o);
			compare_summary(o);
			json_decref(o);
		}
		if (none)
			fprintf(stderr, "xcbench check: no case matched: nothing was checked\n");
		else if (tested == 0)
			fprintf(stderr, "xcbench check: none of the %lld matched cases could be tested (%s): nothing "
				"was checked\n", cases, untested_why(&t));
		else if (t.no_flush_b)
			fprintf(stderr, "xcbench check: none of the %lld tested cases could be judged: %lld of method "
				"none in B (they invalidate nothing: a cost figure, stale reads not checked), %lld with "
				"a baseline that failed a check: nothing was checked\n", tested, t.no_flush_b,
				t.baseline_failed);
		else
			fprintf(stderr, "xcbench check: the baseline A failed a check in every tested case (%lld): "
				"nothing was checked; take a baseline whose runs pass their checks\n", t.baseline_failed);
		return 3;
	}
	verdict = t.failed_b ? "failed check" : t.slower ? "regression" : "pass";
	rc = t.failed_b ? 4 : t.slower ? 1 : 0;
	if (as_json) {
		/* the verdict's counts: summary's slower counts the cases whose
		 * baseline failed a check too, which the verdict leaves out */
		json_object_set_new(o, "verdict", json_string(verdict));
		json_object_set_new(o, "check", json_pack("{s:I, s:I, s:I, s:I, s:I}", "judged", (json_int_t)t.judged,
							  "slower", (json_int_t)t.slower, "baseline_failed",
							  (json_int_t)t.baseline_failed, "failed_b", (json_int_t)t.failed_b,
							  "no_flush_b", (json_int_t)t.no_flush_b));
		print_json(o);
		if (t.failed_b)
			fprintf(stderr, "xcbench check: %lld of B's %lld compared cases failed a check (cases[].b_failed)\n",
				t.failed_b, cases);
		return rc;
	}
	if (t.slower || t.failed_b)
		compare_report(o, strcmp(format, "markdown") == 0 ? CMP_MARKDOWN : CMP_TEXT, 1);
	if (t.failed_b)
		failed_cases(o, "b", "failed a check in B (its figures are not those of a correct algorithm):");
	if (t.baseline_failed)
		failed_cases(o, "a", "failed a check in the baseline A (not judged: no verdict against it):");
	compare_warnings(o);
	compare_summary(o);
	/* A pass covers the judged cases only: say how many those were. */
	if (t.failed_b)
		printf("check: FAILED CHECK: %lld of %lld compared cases failed a check in B; %lld of %lld tested "
		       "cases significantly slower by >= %s %%", t.failed_b, cases, t.slower, t.judged, ca.min_effect);
	else
		printf("check: %s: %lld of %lld tested cases significantly slower by >= %s %%",
		       t.slower ? "REGRESSION" : "pass", t.slower, t.judged, ca.min_effect);
	if (tested < cases)
		printf(" (%lld of the %lld matched not tested: %s)", cases - tested, cases, untested_why(&t));
	if (t.baseline_failed)
		printf(" (%lld tested not judged: the baseline A failed a check there)", t.baseline_failed);
	if (t.no_flush_b)
		printf(" (%lld tested not judged: of method none in B, they invalidate nothing: a cost figure, "
		       "stale reads not checked)", t.no_flush_b);
	printf("\n");
	json_decref(o);
	return rc;
}
