/* cmd_queue.c — `xcbench queue --mac MAC --suite NAME [k=v…]`: queues a job. */
#include <getopt.h>
#include <string.h>

#include "client.h"

static const char usage[] = "usage: xcbench queue --mac MAC --suite NAME [--label L] [key=value...]\n"
		   "         [--attempts N] [--power-timeout S] [--boot-timeout S] [--run-timeout S]\n"
		   "         [--end off|leave]\n"
		   "Queues a suite for the next iPXE boot of the machine with that MAC; the\n"
		   "key=value pairs go on the payload's command line. A machine with a power\n"
		   "driver (xcbench machine set) is powered on by the daemon, each stage bounded\n"
		   "(seconds), retried with a power cycle up to N boots, and powered off at the\n"
		   "end unless --end leave. Needs the admin token (--token-file) unless the\n"
		   "daemon runs with --open.\n";

int cmd_queue(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mac", 1, NULL, 'm' }, { "suite", 1, NULL, 's' }, { "label", 1, NULL, 'l' },
		{ "attempts", 1, NULL, 'a' }, { "power-timeout", 1, NULL, 'P' }, { "boot-timeout", 1, NULL, 'B' },
		{ "run-timeout", 1, NULL, 'R' }, { "end", 1, NULL, 'e' },
		{ "help", 0, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	static const struct cmd cmd = { "xcbench queue", usage, opts, NULL };
	const char *mac = NULL, *suite = NULL, *label = NULL;
	json_t *params, *body, *o, *job, *timeouts = json_object(), *policy = json_object();
	int c, rc, v;

	optind = 1;
	while ((c = cmd_next(&cmd, argc, argv, &rc)) >= 0) {
		switch (c) {
		case 'm': mac = optarg; break;
		case 's': suite = optarg; break;
		case 'l': label = optarg; break;
		case 'a':
		case 'P':
		case 'B':
		case 'R':
			if (cmd_int(&cmd, c == 'a' ? "--attempts" : c == 'P' ? "--power-timeout" : c == 'B' ? "--boot-timeout"
				    : "--run-timeout", optarg, 1, c == 'a' ? 10 : 604800, &v)) {
				json_decref(timeouts);
				json_decref(policy);
				return 2;
			}
			if (c == 'a')
				json_object_set_new(policy, "attempts", json_integer(v));
			else
				json_object_set_new(timeouts, c == 'P' ? "powering_on" : c == 'B' ? "booting" : "running",
						    json_integer(v));
			break;
		case 'e': json_object_set_new(policy, "end", json_string(optarg)); break;
		}
	}
	if (c == CMD_EXIT) {
		json_decref(timeouts);
		json_decref(policy);
		return rc;
	}
	if (json_object_size(timeouts))
		json_object_set(policy, "timeouts", timeouts);
	json_decref(timeouts);
	if (!mac || !suite) {
		json_decref(policy);
		fprintf(stderr, "xcbench queue: --mac and --suite are required\n");
		return cmd_usage_error(&cmd);
	}
	params = json_object();
	if (kv_args("queue", argc, argv, params)) {
		json_decref(params);
		json_decref(policy);
		return 2;
	}
	body = json_pack("{s:s, s:s, s:o}", "mac", mac, "suite", suite, "params", params);
	json_object_update(body, policy);
	json_decref(policy);
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
