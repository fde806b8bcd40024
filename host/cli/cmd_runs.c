/* cmd_runs.c — `xcbench runs`: the run list as a table (or JSON). */
#include <getopt.h>
#include <string.h>

#include "client.h"

static const char usage[] = "usage: xcbench runs [--status S] [--machine ID|MAC] [--suite NAME] [--label L]\n"
		   "                    [--lab NAME] [--since TIME] [--limit N] [--json]\n"
		   "Lists runs, newest first, of every lab sharing the daemon's database\n"
		   "(--lab NAME: that lab's only).\n";

int cmd_runs(int argc, char **argv)
{
	/* Every option but --json is the list's query argument of the same name. */
	static const struct option opts[] = {
		{ "status", 1, NULL, 's' }, { "machine", 1, NULL, 'm' }, { "suite", 1, NULL, 'S' },
		{ "label", 1, NULL, 'l' }, { "since", 1, NULL, 'i' }, { "limit", 1, NULL, 'n' },
		{ "lab", 1, NULL, 'b' }, { "json", 0, NULL, 'j' }, { "help", 0, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	static const struct cmd cmd = { "xcbench runs", usage, opts, NULL };
	struct buf path = { 0 };
	int c, rc, as_json = 0;
	json_t *o, *r;
	size_t i;
	char t[64];

	buf_addf(&path, "/api/v1/runs?");
	optind = 1;
	while ((c = cmd_next(&cmd, argc, argv, &rc)) >= 0) {
		if (c == 'j') {
			as_json = 1;
			continue;
		}
		for (i = 0; opts[i].val != c; i++)
			;
		buf_addf(&path, "%s=", opts[i].name);
		url_encode(&path, optarg);
		buf_addf(&path, "&");
	}
	if (c == CMD_EXIT) {
		buf_free(&path);
		return rc;
	}
	if (optind < argc) {
		fprintf(stderr, "xcbench runs: unexpected argument '%s'\n", argv[optind]);
		buf_free(&path);
		return 2;
	}
	o = get_answer(path.p, as_json, &rc);
	buf_free(&path);
	if (!o)
		return rc;
	printf("%-5s %-16s %-9s %-12s %-17s %-20s %7s %5s %-8s %s\n", "ID", "TOKEN", "STATUS", "SUITE",
	       "MACHINE", "CREATED", "FRAMES", "CASES", "LAB", "LABEL");
	json_array_foreach(json_object_get(o, "runs"), i, r) {
		char a[32], b[32], d[32], e[32], f[32], g[32], h[32], l[40];

		printf("%-5s %-16s %-9s %-12s %-17s %-20s %7s %5s %-8s %s\n", jstr(json_object_get(r, "id"), a, 32),
		       jstr(json_object_get(r, "token"), t, 64), jstr(json_object_get(r, "status"), f, 32),
		       jstr(json_object_get(r, "suite"), g, 32),
		       jstr(json_object_get(json_object_get(r, "machine"), "mac"), b, 32),
		       jstr(json_object_get(r, "created"), d, 32),
		       jstr(json_object_get(r, "frames_received"), e, 32),
		       jstr(json_object_get(r, "cases"), h, 32),
		       jstr(json_object_get(r, "lab"), l, 40),
		       json_is_string(json_object_get(r, "label")) ? json_string_value(json_object_get(r, "label")) : "");
	}
	printf("(%lld runs in all)\n", (long long)json_integer_value(json_object_get(o, "total")));
	json_decref(o);
	return 0;
}
