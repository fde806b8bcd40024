/*
 * cmd_calibrate.c — `xcbench calibrate RUNS`: the A/A calibration of N
 * boots of one configuration (GET /api/v1/calibrate): the share of cases a
 * group comparison (half the boots against the other half) and a single
 * pair comparison mark although nothing changed.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client.h"
#include "compare_text.h"

static const char usage[] =
	"usage: xcbench calibrate RUN,RUN[,...] [--fdr Q] [--min-effect PCT] [--json]\n"
	"       xcbench calibrate --boot N [--fdr Q] [--min-effect PCT] [--json] -- VM-OPTIONS...\n"
	"Takes N (2..10) boots of ONE configuration (same build, machine, suite and\n"
	"parameters) and reports the false-positive rate the comparison shows on\n"
	"them: every split of the boots into two halves compared as groups, and\n"
	"every pair of single boots. Any case marked is a false positive. Groups\n"
	"need 6 boots or more (3 a side: a comparison of 2 boots a side has no\n"
	"interval); with fewer, only the pairs are compared.\n"
	"--boot N (4..10) boots them first, one after another: `xcbench vm --wait\n"
	"VM-OPTIONS` N times on one virtual machine (1, or the options' --first;\n"
	"e.g. -- --cpus 4 --suite seed --boot direct), then calibrates the N runs\n"
	"those boots made.\n";

/* The VM option named by opt ("--first") in argv: its index, or -1
 * (both "--first N" and "--first=N"). */
static int vm_option(int argc, char **argv, const char *opt)
{
	size_t n = strlen(opt);

	for (int j = 0; j < argc; j++)
		if (strncmp(argv[j], opt, n) == 0 && (argv[j][n] == 0 || argv[j][n] == '='))
			return j;
	return -1;
}

/* One `xcbench vm --json ...` boot: its run id into *id. Its JSON goes to a
 * temporary file in place of stdout (stdout is the calibration's; vm's
 * progress goes to stderr under --json). 0, or the status of the failed
 * boot. */
static int boot_one(int k, char **av, long long *id)
{
	FILE *tf = tmpfile();
	json_t *o;
	json_error_t err;
	int saved, rc;
	/* fresh copies each time: `vm` parses key=value in place */
	char **cp = calloc((size_t)k + 1, sizeof(char *));

	if (!tf || !cp) {
		fprintf(stderr, "xcbench calibrate: no temporary file for the boot's outcome: %s\n", strerror(errno));
		if (tf)
			fclose(tf);
		free(cp);
		return 1;
	}
	for (int j = 0; j < k; j++)
		cp[j] = strdup(av[j]);
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	if (saved < 0 || dup2(fileno(tf), STDOUT_FILENO) < 0) {
		rc = 1;
	} else {
		rc = cmd_vm(k, cp);
		fflush(stdout);
		dup2(saved, STDOUT_FILENO);
	}
	if (saved >= 0)
		close(saved);
	for (int j = 0; j < k; j++)
		free(cp[j]);
	free(cp);
	rewind(tf);
	o = json_loadf(tf, 0, &err);
	fclose(tf);
	/* the run this boot made, by vm's own account: not "machine N's newest
	 * runs", which another invocation on that machine could have added to */
	json_t *run = json_object_get(json_array_get(json_object_get(o, "machines"), 0), "run");
	*id = json_integer_value(json_object_get(run, "id"));
	if (!rc && *id <= 0) {
		fprintf(stderr, "xcbench calibrate: the boot ended without a run id (xcbench vm --json said no run)\n");
		rc = 1;
	}
	json_decref(o);
	return rc;
}

/* --boot N: N boots of one configuration, one after another (a side's boots
 * must not compete for the host), with `xcbench vm --wait` on one machine
 * (the options' --first, machine 1 without one); their run ids, oldest
 * first, into list. 0, or the status of the failed boot (2: VM options
 * calibrate cannot take). */
static int boot_runs(int n, int argc, char **argv, struct buf *list)
{
	char **av;
	int k = 0, rc = 0;

	if (vm_option(argc, argv, "--vms") >= 0 || vm_option(argc, argv, "--json") >= 0) {
		/* one boot is one run: several machines a boot would make the
		 * boots count wrong, and the outcome's JSON is calibrate's to read */
		fprintf(stderr, "xcbench calibrate: --boot boots one machine at a time and reads each run itself: "
				"leave --vms and --json out of the VM options (--first picks the machine)\n");
		return 2;
	}
	av = calloc((size_t)argc + 6, sizeof(char *));
	if (!av)
		return 1;
	av[k++] = "vm";
	av[k++] = "--wait";
	av[k++] = "--json";
	if (vm_option(argc, argv, "--first") < 0) {
		av[k++] = "--first";
		av[k++] = "1";
	}
	for (int j = 0; j < argc; j++)
		av[k++] = argv[j];
	for (int b = 1; b <= n && !rc; b++) {
		long long id = 0;

		fprintf(stderr, "xcbench calibrate: boot %d of %d\n", b, n);
		rc = boot_one(k, av, &id);
		if (!rc)
			buf_addf(list, "%s%lld", list->len ? "," : "", id);
	}
	free(av);
	return rc;
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
		/* the daemon's rule (compare_calib.c: a group needs an interval) */
		printf("groups: fewer than %lld boots (%lld a side), no group comparison\n",
		       (long long)json_integer_value(json_object_get(o, "groups_min_boots")),
		       (long long)json_integer_value(json_object_get(o, "groups_min_boots")) / 2);
	line("pairs (1 vs 1 boot): ", json_object_get(o, "pairs"));
	printf("every boot is of one configuration: every marked case is a false positive\n");
	json_decref(o);
	return 0;
}
