/* cmd_samples.c — `xcbench samples RUN [--case C] [--rep R] [--initiator I]
 * [-o FILE]`: streams a run's raw samples as CSV (GET
 * /api/v1/runs/{id}/samples.csv). */
#include <stdio.h>
#include <string.h>

#include "client.h"

static const char usage[] = "usage: xcbench samples RUN [--case C] [--rep R] [--initiator I] [-o|--output FILE]\n"
		   "Writes the run's raw samples, the cycles of each timed call the payload\n"
		   "sent (SAMPLES frames), as CSV to FILE (default: standard output): one row\n"
		   "per sample, columns case_id,rep,initiator,idx,cycles, in that order. A\n"
		   "stream's lost chunks are absent rows (gaps in idx). --case, --rep and\n"
		   "--initiator (a CPU, or 'all') keep only those streams. See host/API.md.\n";

/* Appends "&name=value" (the first one "?") to path when value is given. */
static void add_arg(struct buf *path, const char *name, const char *value)
{
	if (!value)
		return;
	buf_addf(path, "%c%s=", strchr(path->p, '?') ? '&' : '?', name);
	url_encode(path, value);
}

int cmd_samples(int argc, char **argv)
{
	const char *file = NULL, *cs = NULL, *rep = NULL, *init = NULL;
	const struct cmdopt opts[] = {
		OPT_STR("case", &cs), OPT_STR("rep", &rep), OPT_STR("initiator", &init),
		{ .name = "output", .kind = CMDOPT_STR, .dst = &file, .letter = 'o' }, OPT_END,
	};
	const struct cmd cmd = { "xcbench samples", usage, opts };
	struct buf path = { 0 };
	uint64_t id;
	int rc;

	if (cmd_parse(&cmd, argc, argv, &rc))
		return rc;
	if (one_run_id(&cmd, argc, argv, &id))
		return 2;
	/* the filters go to the daemon as they are: its 400 names a bad one */
	buf_addf(&path, "/api/v1/runs/%llu/samples.csv", (unsigned long long)id);
	add_arg(&path, "case", cs);
	add_arg(&path, "rep", rep);
	add_arg(&path, "initiator", init);
	rc = path.p ? http_get_file("samples", path.p, file) : 1;
	buf_free(&path);
	return rc;
}
