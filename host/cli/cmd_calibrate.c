/*
 * cmd_calibrate.c — `xcbench calibrate RUNS`: the A/A calibration of N
 * boots of one configuration (GET /api/v1/calibrate): the share of cases a
 * group comparison (half the boots against the other half) and a single
 * pair comparison mark although nothing changed.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client.h"
#include "compare_text.h"

static const char usage[] =
	"usage: xcbench calibrate RUN,RUN,RUN,RUN[,...] [--fdr Q] [--min-effect PCT] [--json]\n"
	"       xcbench calibrate --boot N [--fdr Q] [--min-effect PCT] [--json] -- VM-OPTIONS...\n"
	"Takes N (2..10) boots of ONE configuration (same build, machine, suite and\n"
	"parameters) and reports the false-positive rate the comparison shows on\n"
	"them: every split of the boots into two halves compared as groups, and\n"
	"every pair of single boots. Any case marked is a false positive.\n"
	"--boot N (4..10) boots them first, one after another: `xcbench vm --wait\n"
	"VM-OPTIONS` N times on virtual machine 1 (e.g. -- --cpus 4 --suite seed\n"
	"--boot direct), then calibrates its N newest complete runs.\n";

/* --boot N: N boots of one configuration, one after another (a side's boots
 * must not compete for the host), with `xcbench vm` on machine 1; their run
 * ids, oldest first, into list. 0, or the status of the failed boot. */
static int boot_runs(int n, int argc, char **argv, struct buf *list)
{
	char **av = calloc((size_t)argc + 4, sizeof(char *));
	json_t *o, *r;
	size_t i;
	int k = 0, rc = 0;

	if (!av)
		return 1;
	av[k++] = "vm";
	av[k++] = "--wait";
	av[k++] = "--first";
	av[k++] = "1";
	for (int j = 0; j < argc; j++)
		av[k++] = argv[j];
	/* vm's progress lines go to stderr: stdout is the calibration's */
	fflush(stdout);
	int saved = dup(STDOUT_FILENO);

	if (saved < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
		free(av);
		return 1;
	}
	for (int b = 1; b <= n && !rc; b++) {
		/* fresh copies each time: `vm` parses key=value in place */
		char **cp = calloc((size_t)k + 1, sizeof(char *));

		if (!cp) {
			rc = 1;
			break;
		}
		for (int j = 0; j < k; j++)
			cp[j] = strdup(av[j]);
		fprintf(stderr, "xcbench calibrate: boot %d of %d\n", b, n);
		rc = cmd_vm(k, cp);
		for (int j = 0; j < k; j++)
			free(cp[j]);
		free(cp);
	}
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	free(av);
	if (rc)
		return rc;
	/* machine 1's MAC (vm_identity): its n newest complete runs */
	{
		char path[128];

		snprintf(path, sizeof(path), "/api/v1/runs?machine=52:54:00:78:63:01&status=complete&limit=%d", n);
		o = api_json("GET", path, NULL);
	}
	if (!o)
		return 1;
	for (i = json_array_size(json_object_get(o, "runs")); i-- > 0;) {
		r = json_array_get(json_object_get(o, "runs"), i);
		buf_addf(list, "%s%lld", list->len ? "," : "", (long long)json_integer_value(json_object_get(r, "id")));
	}
	json_decref(o);
	return 0;
}

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
	const char *fdr = NULL, *me = NULL;
	int rc, as_json = 0, boot = 0;
	const struct cmdopt opts[] = {
		OPT_STR("fdr", &fdr), OPT_STR("min-effect", &me), OPT_FLAG("json", &as_json),
		OPT_INT("boot", &boot, 4, 10), OPT_END,
	};
	const struct cmd cmd = { "xcbench calibrate", usage, opts };
	struct buf path = { 0 }, booted = { 0 };
	const char *runs;
	json_t *o;
	char grp[64];

	if (cmd_parse(&cmd, argc, argv, &rc))
		return rc;
	if (boot && optind < argc && !compare_run_list(argv[optind])) {
		/* It went to xcbench vm as a VM option, which refused it as
		 * 'xcbench vm: '1,2,3,4' is not key=value' after 'boot 1 of N'. */
		fprintf(stderr, "xcbench calibrate: a list of run ids (%s) or --boot N, not both\n", argv[optind]);
		return cmd_usage_error(&cmd);
	}
	if (boot) {
		/* everything after the options (after --) is for xcbench vm */
		rc = boot_runs(boot, argc - optind, argv + optind, &booted);
		if (rc) {
			buf_free(&booted);
			return rc;
		}
		runs = booted.p;
	} else if (optind != argc - 1 || compare_run_list(argv[optind])) {
		fprintf(stderr, "xcbench calibrate: expected one list of run ids (1,2,3,4), or --boot N\n");
		return cmd_usage_error(&cmd);
	} else {
		runs = argv[optind];
	}
	if (!runs || compare_run_list(runs)) {
		fprintf(stderr, "xcbench calibrate: the boots left no complete runs to calibrate\n");
		buf_free(&booted);
		return 1;
	}
	buf_addf(&path, "/api/v1/calibrate?runs=");
	url_encode(&path, runs);
	if (fdr) {
		buf_addf(&path, "&fdr=");
		url_encode(&path, fdr);
	}
	if (me) {
		buf_addf(&path, "&min_effect=");
		url_encode(&path, me);
	}
	fprintf(stderr, "xcbench calibrate: comparing every split and pair of %s ...\n", runs);
	o = get_answer(path.p, as_json, &rc);
	buf_free(&path);
	buf_free(&booted);
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
