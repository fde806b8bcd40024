/* cmd_queue.c — `xcbench queue --mac MAC --suite NAME [k=v…]`: queues a job. */
#include <getopt.h>
#include <string.h>

#include "client.h"

static const char usage[] = "usage: xcbench queue --mac MAC --suite NAME [--label L] [key=value...]\n"
		   "Queues a suite for the next iPXE boot of the machine with that MAC; the\n"
		   "key=value pairs go on the payload's command line. Needs the admin token\n"
		   "(--token-file) unless the daemon runs with --open.\n";

int cmd_queue(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mac", 1, NULL, 'm' }, { "suite", 1, NULL, 's' }, { "label", 1, NULL, 'l' },
		{ "help", 0, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	static const struct cmd cmd = { "xcbench queue", usage, opts, NULL };
	const char *mac = NULL, *suite = NULL, *label = NULL;
	json_t *params, *body, *o, *job;
	int c, rc;

	optind = 1;
	while ((c = cmd_next(&cmd, argc, argv, &rc)) >= 0) {
		switch (c) {
		case 'm': mac = optarg; break;
		case 's': suite = optarg; break;
		case 'l': label = optarg; break;
		}
	}
	if (c == CMD_EXIT)
		return rc;
	if (!mac || !suite) {
		fprintf(stderr, "xcbench queue: --mac and --suite are required\n");
		return cmd_usage_error(&cmd);
	}
	params = json_object();
	if (kv_args("queue", argc, argv, params)) {
		json_decref(params);
		return 2;
	}
	body = json_pack("{s:s, s:s, s:o}", "mac", mac, "suite", suite, "params", params);
	if (label)
		json_object_set_new(body, "label", json_string(label));
	o = api_json("POST", "/api/v1/jobs", body);
	json_decref(body);
	if (!o)
		return 1;
	job = json_object_get(o, "job");
	printf("queued job %lld: suite %s for %s (next boot of that machine)\n",
	       (long long)json_integer_value(json_object_get(job, "id")),
	       json_string_value(json_object_get(job, "suite")), json_string_value(json_object_get(job, "mac")));
	json_decref(o);
	return 0;
}
