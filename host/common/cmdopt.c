/*
 * cmdopt.c — the option loop every command-line tool shares (cmdopt.h).
 */
#include <stdio.h>

#include "cmdopt.h"
#include "util.h"

int cmd_next(const struct cmd *c, int argc, char **argv, int *rc)
{
	int o = getopt_long(argc, argv, c->shortopts ? c->shortopts : "h", c->opts, NULL);

	if (o == 'h') {
		fputs(c->usage, stdout);
		*rc = 0;
		return CMD_EXIT;
	}
	if (o == '?' || o == ':') {
		*rc = cmd_usage_error(c);
		return CMD_EXIT;
	}
	return o;
}

int cmd_usage_error(const struct cmd *c)
{
	fputs(c->usage, stderr);
	return 2;
}

int cmd_int(const struct cmd *c, const char *opt, const char *arg, int lo, int hi, int *out)
{
	uint64_t v;

	if (parse_u64(arg, &v) || v < (uint64_t)lo || v > (uint64_t)hi) {
		fprintf(stderr, "%s: %s: '%s' is not a number in %d..%d\n", c->name, opt, arg, lo, hi);
		return -1;
	}
	*out = (int)v;
	return 0;
}
