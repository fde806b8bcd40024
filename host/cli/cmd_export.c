/* cmd_export.c — `xcbench export RUN [-o FILE]`: streams a run's CSV. */
#include <errno.h>
#include <getopt.h>
#include <string.h>
#include <unistd.h>

#include "client.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: xcbench export RUN [-o FILE]\n"
		   "Writes the run's results (one row per case x repetition x initiator) as\n"
		   "CSV to FILE (default: standard output). See host/API.md for the columns.\n");
}

int cmd_export(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", 1, NULL, 'o' }, { "help", 0, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	const char *file = NULL;
	char path[96], tmp[4200];
	uint64_t id;
	FILE *out = stdout;
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		if (c == 'o')
			file = optarg;
		else
			return usage_exit(usage, c);
	}
	if (one_run_id("export", argc, argv, usage, &id))
		return 2;
	/* Write to FILE.tmp and rename on success: a failed export never
	 * leaves a truncated file that looks complete. */
	if (file) {
		snprintf(tmp, sizeof(tmp), "%s.tmp", file);
		out = fopen(tmp, "w");
		if (!out) {
			fprintf(stderr, "xcbench export: cannot write '%s': %s\n", tmp, strerror(errno));
			return 1;
		}
	}
	snprintf(path, sizeof(path), "/api/v1/runs/%llu.csv", (unsigned long long)id);
	rc = http_get_to("export", path, out);
	if (file) {
		if (fclose(out) || rc) {
			unlink(tmp);
			return 1;
		}
		if (rename(tmp, file)) {
			fprintf(stderr, "xcbench export: cannot rename to '%s': %s\n", file, strerror(errno));
			return 1;
		}
	}
	return rc;
}
