/* cmd_export.c — `xcbench export RUN [-o FILE]`: streams a run's CSV. */
#include <errno.h>
#include <getopt.h>
#include <string.h>
#include <unistd.h>

#include "client.h"

static const char usage[] = "usage: xcbench export RUN [-o FILE]\n"
		   "Writes the run's results (one row per case x repetition x initiator) as\n"
		   "CSV to FILE (default: standard output). See host/API.md for the columns.\n";

int cmd_export(int argc, char **argv)
{
	const char *file = NULL;
	const struct cmdopt opts[] = {
		{ .name = "output", .kind = CMDOPT_STR, .dst = &file, .letter = 'o' }, OPT_END,
	};
	const struct cmd cmd = { "xcbench export", usage, opts };
	char path[96], tmp[4200];
	uint64_t id;
	FILE *out = stdout;
	int rc;

	if (cmd_parse(&cmd, argc, argv, &rc))
		return rc;
	if (one_run_id(&cmd, argc, argv, &id))
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
