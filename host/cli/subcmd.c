/*
 * subcmd.c — the parts every xcbench subcommand's main function shares:
 * ending its option loop (--help / bad option), taking a run id argument,
 * printing an answer as JSON, and streaming a CSV answer to a file.
 */
#include <getopt.h>

#include "client.h"

int usage_exit(void (*usage)(FILE *), int c)
{
	if (c == 'h') {
		usage(stdout);
		return 0;
	}
	/* getopt_long has already named the bad option on stderr. */
	usage(stderr);
	return 2;
}

int one_run_id(const char *cmd, int argc, char **argv, void (*usage)(FILE *), uint64_t *id)
{
	if (optind == argc - 1 && parse_u64(argv[optind], id) == 0 && *id != 0)
		return 0;
	fprintf(stderr, "xcbench %s: expected one run id%s%s\n", cmd, optind < argc ? ", not " : "",
		optind < argc ? argv[optind] : "");
	usage(stderr);
	return 2;
}

int print_json(json_t *o)
{
	json_dumpf(o, stdout, JSON_INDENT(2));
	putchar('\n');
	json_decref(o);
	return 0;
}

int http_get_to(const char *cmd, const char *path, FILE *out)
{
	struct http_resp r;
	int rc = http_call("GET", path, NULL, &r, out);

	if (rc == 0 && r.status != 200) {
		fprintf(stderr, "xcbench %s: HTTP %d: %s\n", cmd, r.status, r.body.p);
		rc = 1;
	}
	buf_free(&r.body);
	return rc ? 1 : 0;
}
