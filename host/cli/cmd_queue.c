/* cmd_queue.c — `xcbench queue --mac MAC --suite NAME [k=v…]`: queues a job. */
#include <getopt.h>
#include <string.h>

#include "client.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: xcbench queue --mac MAC --suite NAME [--label L] [key=value...]\n"
		   "Queues a suite for the next iPXE boot of the machine with that MAC; the\n"
		   "key=value pairs go on the payload's command line. Needs the admin token\n"
		   "(--token-file) unless the daemon runs with --open.\n");
}

int cmd_queue(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mac", 1, NULL, 'm' }, { "suite", 1, NULL, 's' }, { "label", 1, NULL, 'l' },
		{ "help", 0, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	const char *mac = NULL, *suite = NULL, *label = NULL;
	json_t *params, *body, *o, *job;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'm': mac = optarg; break;
		case 's': suite = optarg; break;
		case 'l': label = optarg; break;
		default: return usage_exit(usage, c);
		}
	}
	params = json_object();
	if (!mac || !suite) {
		json_decref(params);
		fprintf(stderr, "xcbench queue: --mac and --suite are required\n");
		usage(stderr);
		return 2;
	}
	for (int i = optind; i < argc; i++) {
		char *eq = strchr(argv[i], '=');

		if (!eq || eq == argv[i]) {
			fprintf(stderr, "xcbench queue: '%s' is not key=value\n", argv[i]);
			json_decref(params);
			return 2;
		}
		*eq = 0;
		json_object_set_new(params, argv[i], json_string(eq + 1));
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
