/*
 * cmd_label.c — `xcbench label RUN …`: a run's labels as metadata after the
 * fact (PATCH /api/v1/runs/{id}): its free-text label, tags (--tag adds,
 * --untag removes) and key=value fields (kernel=…, series=…, version=…;
 * KEY= removes one).
 */
#include <getopt.h>
#include <string.h>

#include "client.h"

static const char usage[] =
	"usage: xcbench label RUN [--label TEXT] [--notes TEXT] [--tag T]... [--untag T]...\n"
	"                     [KEY=VALUE]... [KEY=]... [--json]\n"
	"Sets a run's label and notes, adds or removes tags, and sets (KEY=VALUE)\n"
	"or removes (KEY=) key=value fields, e.g.\n"
	"  xcbench label 12 --tag lockless --tag v3 series=lockless-ipi version=3 kernel=6.12\n"
	"Needs the admin token (--token-file). `xcbench runs --tag v3` and\n"
	"`--label lockless` find it; `queue --tag/--meta` sets them before the boot.\n"
	"--json prints the daemon's answer (the run as it is now) as JSON.\n";

/* The KEY=VALUE (KEY=: remove) operands from first on into meta: 0, or 2
 * after naming the first that is not. */
static int meta_args(int first, int argc, char **argv, json_t *meta)
{
	for (int k = first; k < argc; k++) {
		const char *eq = strchr(argv[k], '=');
		char key[64];

		if (!eq || eq == argv[k] || (size_t)(eq - argv[k]) >= sizeof(key)) {
			/* a bare word is most often meant as the label */
			fprintf(stderr, "xcbench label: '%s' is not KEY=VALUE (or KEY= to remove)%s%s%s\n", argv[k],
				eq ? "" : "; to set the label: --label '", eq ? "" : argv[k], eq ? "" : "'");
			return 2;
		}
		memcpy(key, argv[k], (size_t)(eq - argv[k]));
		key[eq - argv[k]] = 0;
		json_object_set_new(meta, key, eq[1] ? json_string(eq + 1) : json_null());
	}
	return 0;
}

/* The whole new set of tags of the run at path: its own, plus add, minus
 * del, each once. NULL after an error (printed). */
static json_t *new_tags(const char *path, json_t *add, json_t *del)
{
	json_t *tags = json_array(), *cur = api_json("GET", path, NULL), *v;
	size_t i;

	if (!cur) {
		json_decref(tags);
		return NULL;
	}
	json_array_foreach(json_object_get(json_object_get(cur, "run"), "tags"), i, v)
		json_array_append(tags, v);
	json_decref(cur);
	json_array_extend(tags, add);
	for (size_t k = json_array_size(tags); k-- > 0;) {
		int drop = 0;
		json_t *d;
		size_t j;

		json_array_foreach(del, j, d)
			drop |= json_equal(d, json_array_get(tags, k));
		for (j = 0; j < k && !drop; j++)
			drop |= json_equal(json_array_get(tags, j), json_array_get(tags, k));
		if (drop)
			json_array_remove(tags, k);
	}
	return tags;
}

/* The run's labels after the change, one line. */
static void print_labels(uint64_t id, json_t *r)
{
	const char *k;
	json_t *v;
	size_t i;

	printf("run %llu: label %s; tags", (unsigned long long)id,
	       json_is_string(json_object_get(r, "label")) ? json_string_value(json_object_get(r, "label")) : "-");
	json_array_foreach(json_object_get(r, "tags"), i, v)
		printf(" %s", json_string_value(v));
	printf(";");
	json_object_foreach(json_object_get(r, "meta"), k, v)
		printf(" %s=%s", k, json_string_value(v));
	putchar('\n');
}

int cmd_label(int argc, char **argv)
{
	json_t *body = json_object(), *add = json_array(), *del = json_array(), *meta = json_object(), *o, *tags;
	int rc = 0, as_json = 0;
	const struct cmdopt opts[] = {
		OPT_JSON_STR("label", body, NULL), OPT_JSON_STR("notes", body, NULL), OPT_JSON_ADD("tag", add),
		OPT_JSON_ADD("untag", del), OPT_FLAG("json", &as_json), OPT_END,
	};
	const struct cmd cmd = { "xcbench label", usage, opts };
	uint64_t id;
	char path[64];

	if (cmd_parse(&cmd, argc, argv, &rc))
		goto out;
	if (optind >= argc || parse_u64(argv[optind], &id) || id == 0) {
		fprintf(stderr, "xcbench label: expected a run id first\n");
		rc = cmd_usage_error(&cmd);
		goto out;
	}
	if ((rc = meta_args(optind + 1, argc, argv, meta)))
		goto out;
	snprintf(path, sizeof(path), "/api/v1/runs/%llu", (unsigned long long)id);
	if (json_array_size(add) || json_array_size(del)) {
		if (!(tags = new_tags(path, add, del))) {
			rc = 1;
			goto out;
		}
		json_object_set_new(body, "tags", tags);
	}
	if (json_object_size(meta))
		json_object_set(body, "meta", meta);
	if (!json_object_size(body)) {
		fprintf(stderr, "xcbench label: nothing to change (--label, --tag, --untag, KEY=VALUE)\n");
		rc = 2;
		goto out;
	}
	o = api_json_for(&cmd, "PATCH", path, body);
	if (!o) {
		rc = 1;
	} else if (as_json) {
		print_json(o);
	} else {
		term_safe(o);
		print_labels(id, json_object_get(o, "run"));
		json_decref(o);
	}
out:
	json_decref(body);
	json_decref(add);
	json_decref(del);
	json_decref(meta);
	return rc;
}
