/*
 * cmd_job.c — `xcbench job show|cancel ID`: one job's lifecycle with its
 * events, and cancelling it (its end action runs: a machine the daemon
 * powered is switched off).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"

static const char usage[] = "usage: xcbench job show ID [--json]\n"
			    "       xcbench job cancel ID\n"
			    "A queued job's stage, attempts and events; cancel ends it (the end\n"
			    "action runs). Cancel needs the admin token (--token-file) unless the\n"
			    "daemon runs with --open.\n";

static void print_job(json_t *j)
{
	char t1[64], t2[64];
	size_t i;
	json_t *e;

	printf("job %lld  %s on %s  stage %s  attempt %s of %s\n", (long long)json_integer_value(json_object_get(j, "id")),
	       json_string_value(json_object_get(j, "suite")), json_string_value(json_object_get(j, "mac")),
	       json_string_value(json_object_get(j, "stage")), jstr(json_object_get(j, "attempt"), t1, sizeof(t1)),
	       jstr(json_object_get(j, "attempts"), t2, sizeof(t2)));
	json_array_foreach(json_object_get(j, "events"), i, e)
		printf("  %s  %-11s %s\n", json_string_value(json_object_get(e, "at")),
		       json_string_value(json_object_get(e, "stage")), json_string_value(json_object_get(e, "reason")));
}

int cmd_job(int argc, char **argv)
{
	int rc, as_json = 0;
	const struct cmdopt opts[] = { OPT_FLAG("json", &as_json), OPT_END };
	const struct cmd cmd = { "xcbench job", usage, opts };
	char path[96];
	uint64_t id;
	json_t *o;

	if (cmd_parse(&cmd, argc, argv, &rc))
		return rc;
	if (argc - optind != 2 || (strcmp(argv[optind], "show") && strcmp(argv[optind], "cancel"))) {
		fprintf(stderr, "xcbench job: expected show ID or cancel ID\n");
		return cmd_usage_error(&cmd);
	}
	if (parse_id(argv[optind + 1], &id)) {
		fprintf(stderr, "xcbench job: not a job id: '%s'\n", argv[optind + 1]);
		return 2;
	}
	if (strcmp(argv[optind], "cancel") == 0) {
		snprintf(path, sizeof(path), "/api/v1/jobs/%llu/cancel", (unsigned long long)id);
		o = api_answer("POST", path, json_object(), as_json, &rc);
		return print_member(o, rc, "cancelled: ", "job", print_job);
	}
	snprintf(path, sizeof(path), "/api/v1/jobs/%llu", (unsigned long long)id);
	o = get_answer(path, as_json, &rc);
	return print_member(o, rc, "", "job", print_job);
}
