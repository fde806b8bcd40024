/*
 * cmd_baseline.c — `xcbench baseline RUNS` marks runs (boots of one machine
 * and suite) as the baseline of that machine + suite; `xcbench baseline`
 * lists the baselines. `compare --baseline stored B` and `check --baseline
 * stored B` compare B against the baseline of B's machine + suite.
 */
#include <getopt.h>
#include <string.h>

#include "client.h"
#include "compare_text.h"

static const char usage[] =
	"usage: xcbench baseline [RUN,RUN,...] [--json]\n"
	"With runs (the boots of one machine and one suite): marks them as the\n"
	"baseline of that machine + suite (admin token: --token-file). Without:\n"
	"lists every baseline. `xcbench check --baseline stored B` then compares\n"
	"B against the baseline of B's machine and suite.\n";

static void print_one(json_t *b)
{
	json_t *r;
	size_t i;

	printf("machine %s suite %s: runs", json_string_value(json_object_get(json_object_get(b, "machine"), "mac")),
	       json_string_value(json_object_get(b, "suite")));
	json_array_foreach(json_object_get(b, "runs"), i, r)
		printf("%s%lld", i ? "," : " ", (long long)json_integer_value(r));
	printf(" (set %s)\n", json_string_value(json_object_get(b, "set_at")) ?: "-");
}

int cmd_baseline(int argc, char **argv)
{
	int rc, as_json = 0;
	const struct cmdopt opts[] = { OPT_FLAG("json", &as_json), OPT_END };
	const struct cmd cmd = { "xcbench baseline", usage, opts };
	json_t *o, *b, *body;
	size_t i;

	if (cmd_parse(&cmd, argc, argv, &rc))
		return rc;
	if (optind == argc) {
		o = get_answer("/api/v1/baselines", as_json, &rc);
		if (!o)
			return rc;
		json_array_foreach(json_object_get(o, "baselines"), i, b)
			print_one(b);
		if (!json_array_size(json_object_get(o, "baselines")))
			printf("no baselines (xcbench baseline RUN,RUN,... marks one)\n");
		json_decref(o);
		return 0;
	}
	body = json_pack("{s:[]}", "runs");
	if (optind != argc - 1 || compare_run_ids(argv[optind], json_object_get(body, "runs"))) {
		if (optind == argc - 1)
			fprintf(stderr, "xcbench baseline: not a list of run ids (1,2,3): '%s'\n", argv[optind]);
		else
			fprintf(stderr, "xcbench baseline: expected one list of run ids (1,2,3), got %d\n", argc - optind);
		json_decref(body);
		return cmd_usage_error(&cmd);
	}
	o = api_answer("POST", "/api/v1/baselines", body, as_json, &rc);
	return print_member(o, rc, "baseline set: ", "baseline", print_one);
}
