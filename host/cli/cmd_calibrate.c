/*
 * cmd_calibrate.c — `xcbench calibrate RUNS`: the A/A calibration of N
 * boots of one configuration (GET /api/v1/calibrate): the share of cases a
 * group comparison (half the boots against the other half) and a single
 * pair comparison mark although nothing changed.
 */
#include <getopt.h>
#include <string.h>

#include "client.h"
#include "compare_text.h"

static const char usage[] =
	"usage: xcbench calibrate RUN,RUN,RUN,RUN[,...] [--fdr Q] [--min-effect PCT] [--json]\n"
	"Takes N (2..12) boots of ONE configuration (same build, machine, suite and\n"
	"parameters) and reports the false-positive rate the comparison shows on\n"
	"them: every split of the boots into two halves compared as groups, and\n"
	"every pair of single boots. Any case marked is a false positive. Boot the\n"
	"runs first, e.g. `xcbench vm --suite seed --vms 6` (one run per boot).\n";

static void line(const char *what, json_t *t)
{
	struct buf b = { 0 };

#define I(k) (long long)json_integer_value(json_object_get(t, k))
	buf_addf(&b, "%lld comparisons, %lld cases, %lld marked: %.2f %% false positives; "
		 "%lld of %lld comparisons marked any (%.1f %%)", I("comparisons"), I("cases"), I("flagged"),
		 100 * json_number_value(json_object_get(t, "false_positive_rate")), I("with_any_flag"),
		 I("comparisons"), 100 * json_number_value(json_object_get(t, "familywise_rate")));
#undef I
	compare_wrap(what, "   ", b.p);
	buf_free(&b);
}

int cmd_calibrate(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "fdr", 1, NULL, 'q' }, { "min-effect", 1, NULL, 'm' }, { "json", 0, NULL, 'j' },
		{ "help", 0, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	static const struct cmd cmd = { "xcbench calibrate", usage, opts, NULL };
	const char *fdr = NULL, *me = NULL;
	int c, rc, as_json = 0;
	struct buf path = { 0 };
	json_t *o;
	char grp[64];

	optind = 1;
	while ((c = cmd_next(&cmd, argc, argv, &rc)) >= 0) {
		switch (c) {
		case 'q': fdr = optarg; break;
		case 'm': me = optarg; break;
		case 'j': as_json = 1; break;
		}
	}
	if (c == CMD_EXIT)
		return rc;
	if (optind != argc - 1 || compare_run_list(argv[optind])) {
		fprintf(stderr, "xcbench calibrate: expected one list of run ids (1,2,3,4)\n");
		return cmd_usage_error(&cmd);
	}
	buf_addf(&path, "/api/v1/calibrate?runs=");
	url_encode(&path, argv[optind]);
	if (fdr) {
		buf_addf(&path, "&fdr=");
		url_encode(&path, fdr);
	}
	if (me) {
		buf_addf(&path, "&min_effect=");
		url_encode(&path, me);
	}
	fprintf(stderr, "xcbench calibrate: comparing every split and pair of %s ...\n", argv[optind]);
	o = get_answer(path.p, as_json, &rc);
	buf_free(&path);
	if (!o)
		return rc;
	printf("A/A calibration of %lld boots of one configuration (FDR %.2g, min effect %.3g%%):\n",
	       (long long)json_integer_value(json_object_get(o, "boots")),
	       json_number_value(json_object_get(o, "fdr")), json_number_value(json_object_get(o, "min_effect_pct")));
	snprintf(grp, sizeof(grp), "groups (%lld vs %lld boots): ",
		 (long long)json_integer_value(json_object_get(o, "boots_per_side")),
		 (long long)json_integer_value(json_object_get(o, "boots_per_side")));
	if (json_integer_value(json_object_get(json_object_get(o, "groups"), "comparisons")))
		line(grp, json_object_get(o, "groups"));
	else
		printf("groups: fewer than 4 boots, no group comparison\n");
	line("pairs (1 vs 1 boot): ", json_object_get(o, "pairs"));
	printf("every boot is of one configuration: every marked case is a false positive\n");
	json_decref(o);
	return 0;
}
