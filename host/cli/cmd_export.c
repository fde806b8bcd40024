/* cmd_export.c — `xcbench export RUN [-o FILE]`: streams a run's CSV. */
#include <stdio.h>

#include "client.h"

static const char usage[] = "usage: xcbench export RUN [-o|--output FILE]\n"
		   "Writes the run's results as CSV to FILE (default: standard output): a row\n"
		   "per case x repetition x initiator, and each repetition's row of all its\n"
		   "initiators together (initiator 'all'; with one initiator it repeats that\n"
		   "initiator's figures: sum counts over one kind of row, not both). See\n"
		   "host/API.md for the columns.\n";

int cmd_export(int argc, char **argv)
{
	const char *file = NULL;
	const struct cmdopt opts[] = {
		{ .name = "output", .kind = CMDOPT_STR, .dst = &file, .letter = 'o' }, OPT_END,
	};
	const struct cmd cmd = { "xcbench export", usage, opts };
	char path[96];
	uint64_t id;
	int rc;

	if (cmd_parse(&cmd, argc, argv, &rc))
		return rc;
	if (one_run_id(&cmd, argc, argv, &id))
		return 2;
	snprintf(path, sizeof(path), "/api/v1/runs/%llu.csv", (unsigned long long)id);
	return http_get_file("export", path, file);
}
