/* cmd_queue.c — `xcbench queue --mac MAC --suite NAME [k=v…]`: queues a job. */
#include <getopt.h>
#include <string.h>

#include "client.h"

static const char usage[] = "usage: xcbench queue --mac MAC --suite NAME [--label L] [--tag T]... [--meta K=V]...\n"
		   "         [--attempts N] [--power-timeout S] [--boot-timeout S] [--run-timeout S]\n"
		   "         [--end off|leave] [key=value...]\n"
		   "Queues a suite for the next iPXE boot of the machine with that MAC; the\n"
		   "key=value pairs go on the payload's command line. Needs the admin token\n"
		   "(--token-file) unless the daemon runs with --open. --tag and --meta K=V\n"
		   "(e.g. --meta kernel=6.12 --meta series=lockless) go to the run the boot\n"
		   "creates as its tags and fields (`xcbench label` changes them later).\n"
		   "A machine with a power driver (xcbench machine set) is powered on by the\n"
		   "daemon, each stage bounded (seconds), retried with a power cycle up to N\n"
		   "boots, and powered off at the end unless --end leave.\n"
		   "Suites: quick default seed tlb ept stress.\n";

int cmd_queue(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mac", 1, NULL, 'm' }, { "suite", 1, NULL, 's' }, { "label", 1, NULL, 'l' },
		{ "tag", 1, NULL, 't' }, { "meta", 1, NULL, 'M' },
		{ "attempts", 1, NULL, 'a' }, { "power-timeout", 1, NULL, 'P' }, { "boot-timeout", 1, NULL, 'B' },
		{ "run-timeout", 1, NULL, 'R' }, { "end", 1, NULL, 'e' },
		{ "help", 0, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	static const struct cmd cmd = { "xcbench queue", usage, opts, NULL };
	const char *mac = NULL, *suite = NULL, *label = NULL;
	json_t *params, *body, *o, *job, *tags = json_array(), *meta = json_object();
	json_t *timeouts = json_object(), *policy = json_object();
	int c, rc, v;
	/* the suites the payload knows (firmware/bench/suite.c) */
	static const char *const suites[] = { "quick", "default", "seed", "tlb", "ept", "stress" };

	optind = 1;
	while ((c = cmd_next(&cmd, argc, argv, &rc)) >= 0) {
		switch (c) {
		case 'm': mac = optarg; break;
		case 's': suite = optarg; break;
		case 'l': label = optarg; break;
		case 't': json_array_append_new(tags, json_string(optarg)); break;
		case 'M': {
			const char *eq = strchr(optarg, '=');
			char k[64];

			if (!eq || eq == optarg || (size_t)(eq - optarg) >= sizeof(k)) {
				fprintf(stderr, "xcbench queue: --meta expects KEY=VALUE, not '%s'\n", optarg);
				json_decref(tags);
				json_decref(meta);
				json_decref(policy);
				json_decref(timeouts);
				return 2;
			}
			memcpy(k, optarg, (size_t)(eq - optarg));
			k[eq - optarg] = 0;
			json_object_set_new(meta, k, json_string(eq + 1));
			break;
		}
		case 'a':
		case 'P':
		case 'B':
		case 'R':
			if (cmd_int(&cmd, c == 'a' ? "--attempts" : c == 'P' ? "--power-timeout" : c == 'B' ? "--boot-timeout"
				    : "--run-timeout", optarg, 1, c == 'a' ? 10 : 604800, &v)) {
				c = CMD_EXIT;
				rc = 2;
				goto out;
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
out:
	if (c == CMD_EXIT) {
		json_decref(tags);
		json_decref(meta);
		json_decref(policy);
		json_decref(timeouts);
		return rc;
	}
	if (suite) {
		size_t i;

		for (i = 0; i < sizeof(suites) / sizeof(suites[0]) && strcmp(suites[i], suite); i++)
			;
		if (i == sizeof(suites) / sizeof(suites[0])) {
			fprintf(stderr, "xcbench queue: unknown suite '%s' (one of: quick default seed tlb ept stress)\n",
				suite);
			json_decref(tags);
			json_decref(meta);
			json_decref(policy);
			json_decref(timeouts);
			return 2;
		}
	}
	if (!mac || !suite) {
		fprintf(stderr, "xcbench queue: --mac and --suite are required\n");
		json_decref(tags);
		json_decref(meta);
		json_decref(policy);
		json_decref(timeouts);
		return cmd_usage_error(&cmd);
	}
	params = json_object();
	if (kv_args("queue", argc, argv, params)) {
		json_decref(params);
		json_decref(tags);
		json_decref(meta);
		json_decref(policy);
		json_decref(timeouts);
		return 2;
	}
	body = json_pack("{s:s, s:s, s:o}", "mac", mac, "suite", suite, "params", params);
	if (label)
		json_object_set_new(body, "label", json_string(label));
	if (json_array_size(tags))
		json_object_set(body, "tags", tags);
	if (json_object_size(meta))
		json_object_set(body, "meta", meta);
	if (json_object_size(timeouts))
		json_object_set(policy, "timeouts", timeouts);
	json_object_update(body, policy);
	json_decref(tags);
	json_decref(meta);
	json_decref(policy);
	json_decref(timeouts);
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
