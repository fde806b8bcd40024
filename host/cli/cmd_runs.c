/* cmd_runs.c — `xcbench runs`: the run list as a table (or JSON), filtered
 * and paged by the daemon. */
#include <getopt.h>
#include <string.h>

#include "client.h"
#include "verdict_words.h"

static const char usage[] = "usage: xcbench runs [--status S] [--verdict V] [--machine ID|MAC] [--suite NAME]\n"
		   "                    [--label TEXT] [--tag TAG] [--lab NAME] [--since TIME]\n"
		   "                    [--limit N] [--offset N] [--json]\n"
		   "Lists runs, newest first. VERDICT is the payload's own (its DONE status):\n"
		   VERDICT_NAMES ", or - before DONE (a `complete` run whose checks " VERDICT_FAILED "\n"
		   "lost or mangled calls); --verdict V lists the runs of that verdict.\n"
		   "--label TEXT finds TEXT (any case) in the label,\n"
		   "the notes, a tag or a key=value field (\"patch\" finds \"patch v3\");\n"
		   "--tag TAG: runs with exactly that tag. --limit (default 100) and --offset\n"
		   "page through the list; the last line says which runs of how many.\n"
		   "Every lab sharing the daemon's database is listed (--lab NAME: that lab's only;\n"
		   "a NAME that is none of the store's labs is an error that names them).\n";

/* A run's tags and key=value fields after its label, as one text. */
static void labels(json_t *r, struct buf *b)
{
	json_t *v;
	size_t i;
	const char *k;

	if (json_is_string(json_object_get(r, "label")))
		buf_addf(b, "%s", json_string_value(json_object_get(r, "label")));
	json_array_foreach(json_object_get(r, "tags"), i, v)
		buf_addf(b, "%s#%s", b->len ? " " : "", json_string_value(v));
	json_object_foreach(json_object_get(r, "meta"), k, v)
		buf_addf(b, "%s%s=%s", b->len ? " " : "", k, json_string_value(v));
	if (!b->p)
		buf_addf(b, "%s", "");
	/* one line per run: a label or field of several lines (PATCH takes
	 * any text) split its row in two, and a script reading the table by
	 * lines took its second line for a run of its own */
	for (size_t j = 0; j < b->len; j++)
		if (b->p[j] == '\n' || b->p[j] == '\t')
			b->p[j] = ' ';
}

/* The list's query, built from the options: its path. */
struct runs_query {
	struct buf path;
};

/* An option as the list's query argument KEY=VALUE (the path ends in '?'
 * until its first argument; '&' before the others, so the path an error
 * quotes reads as typed). */
static int query_arg(const struct cmdopt *o, const char *arg, char *err, size_t errlen)
{
	struct buf *b = &((struct runs_query *)o->dst)->path;

	/* The daemon reads an empty argument as none (a dashboard form's
	 * empty field): --machine "$UNSET" listed every machine's runs and
	 * --limit '' the default 100, without a word. */
	if (!arg[0]) {
		snprintf(err, errlen, "--%s needs a value, not ''", o->name);
		return -1;
	}
	buf_addf(b, "%s%s=", b->len && b->p[b->len - 1] == '?' ? "" : "&", cmdopt_key(o));
	url_encode(b, arg);
	return 0;
}

int cmd_runs(int argc, char **argv)
{
	struct runs_query q = { 0 };
	int rc, as_json = 0;
	/* Every option but --json is the list's query argument (--label: q). */
	const struct cmdopt opts[] = {
		OPT_FN("status", query_arg, &q, NULL), OPT_FN("verdict", query_arg, &q, NULL),
		OPT_FN("machine", query_arg, &q, NULL),
		OPT_FN("suite", query_arg, &q, NULL), OPT_FN("label", query_arg, &q, "q"),
		OPT_FN("tag", query_arg, &q, NULL), OPT_FN("since", query_arg, &q, NULL),
		OPT_FN("limit", query_arg, &q, NULL), OPT_FN("offset", query_arg, &q, NULL),
		OPT_FN("lab", query_arg, &q, NULL), OPT_FLAG("json", &as_json), OPT_END,
	};
	const struct cmd cmd = { "xcbench runs", usage, opts };
	json_t *o, *r;
	size_t i, n;

	buf_addf(&q.path, "/api/v1/runs?");
	if (cmd_parse(&cmd, argc, argv, &rc)) {
		buf_free(&q.path);
		return rc;
	}
	if (optind < argc) {
		fprintf(stderr, "xcbench runs: unexpected argument '%s'\n", argv[optind]);
		buf_free(&q.path);
		return 2;
	}
	/* a filter the daemon finds wrong (--status, --lab: none of the
	 * store's) is said as the option's error, exit 1 */
	o = api_answer_for(&cmd, "GET", q.path.p, NULL, as_json, &rc);
	buf_free(&q.path);
	if (!o)
		return rc;
	/* the token column only for an admin (the API gives it to admins only) */
	int tok = json_is_string(json_object_get(json_array_get(json_object_get(o, "runs"), 0), "token"));

	printf("%-5s %s%-9s %-7s %-8s %-17s %-20s %-8s %4s %5s %-8s %s\n", "ID", tok ? "TOKEN            " : "",
	       "STATUS", "VERDICT", "SUITE", "MACHINE", "CREATED", "FIRMWARE", "CPUS", "CASES", "LAB", "LABEL / TAGS / FIELDS");
	json_array_foreach(json_object_get(o, "runs"), i, r) {
		char a[32], b[32], d[32], f[32], g[32], h[32], cp[32], lb[40];
		const char *fw = json_string_value(json_object_get(json_object_get(r, "facts"), "boot_fw"));
		json_t *done = json_object_get(r, "done_status");
		/* beside the status: `complete` says DONE arrived, not that the
		 * payload's checks passed */
		const char *vd = json_is_integer(done) ? verdict_of(json_integer_value(done))->name : "-";
		struct buf l = { 0 };

		labels(r, &l);
		char tk[40] = "";

		if (tok)
			snprintf(tk, sizeof(tk), "%-16s ", json_string_value(json_object_get(r, "token")) ?: "-");
		printf("%-5s %s%-9s %-7s %-8s %-17s %-20s %-8s %4s %5s %-8s %s\n", jstr(json_object_get(r, "id"), a, 32),
		       tk, jstr(json_object_get(r, "status"), f, 32), vd, jstr(json_object_get(r, "suite"), g, 32),
		       jstr(json_object_get(json_object_get(r, "machine"), "mac"), b, 32),
		       jstr(json_object_get(r, "created"), d, 32), fw ? fw : "-",
		       jstr(json_object_get(r, "cpus"), cp, 32), jstr(json_object_get(r, "cases"), h, 32),
		       jstr(json_object_get(r, "lab"), lb, 40), l.p);
		buf_free(&l);
	}
	n = json_array_size(json_object_get(o, "runs"));
	{
		long long off = (long long)json_integer_value(json_object_get(o, "offset"));
		long long total = (long long)json_integer_value(json_object_get(o, "total"));

		if (n)
			printf("(runs %lld-%lld of %lld%s)\n", off + 1, off + (long long)n, total,
			       off + (long long)n < total ? "; --offset for more" : "");
		else if (total)
			printf("(no run at offset %lld: %lld match%s)\n", off, total, total == 1 ? "" : "es");
		else
			printf("(no run matches)\n");
	}
	json_decref(o);
	return 0;
}
