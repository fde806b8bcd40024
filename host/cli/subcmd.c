/*
 * subcmd.c — the parts every xcbench subcommand's main function shares
 * beyond its option loop (common/cmdopt.c): taking a run id argument or
 * key=value arguments, getting an answer and printing it as JSON, and
 * streaming a CSV answer to a file, and the option actions that build a
 * JSON request body.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "client.h"
#include "jsontext.h"
#include "payload_keys.h"
#include "xcb_schema.h"

int parse_id(const char *s, uint64_t *id)
{
	/* the daemon's ids are SQLite's: signed 64-bit, from 1 */
	return parse_u64(s, id) || *id == 0 || *id > INT64_MAX ? -1 : 0;
}

int one_run_id(const struct cmd *cmd, int argc, char **argv, uint64_t *id)
{
	if (optind != argc - 1)
		fprintf(stderr, "%s: expected one run id, got %d\n", cmd->name, argc - optind);
	else if (parse_id(argv[optind], id))
		fprintf(stderr, "%s: not a run id: '%s'\n", cmd->name, argv[optind]);
	else
		return 0;
	return cmd_usage_error(cmd);
}

int print_json(json_t *o)
{
	struct buf b = { 0 };
	/* jansson's JSON_INDENT(2) layout, reals as the daemon writes them
	 * (0.95, where json_dumpf writes 0.94999999999999996) */
	int rc = json_text(&b, o, 2);

	if (!rc)
		printf("%s\n", b.p);
	else
		fprintf(stderr, "xcbench: the answer cannot be written as JSON\n");
	buf_free(&b);
	json_decref(o);
	return rc ? 1 : 0;
}

int http_get_to(const char *cmd, const char *path, FILE *out)
{
	struct http_resp r;
	int rc = http_call("GET", path, NULL, &r, out);

	if (rc == 0 && r.status != 200) {
		/* the API's error message, as `show` prints it, not its JSON */
		char *msg = http_error_text(&r);

		fprintf(stderr, "xcbench %s: HTTP %d: %s%s\n", cmd, r.status, msg ? msg : "", http_status_hint(r.status));
		free(msg);
		rc = 1;
	}
	buf_free(&r.body);
	return rc ? 1 : 0;
}

int http_get_file(const char *cmd, const char *path, const char *file)
{
	char tmp[4200];
	FILE *out;
	int rc;

	if (!file)
		return http_get_to(cmd, path, stdout);
	if (!file[0]) {
		fprintf(stderr, "xcbench %s: -o needs a file name (without -o: standard output)\n", cmd);
		return 2;
	}
	/* Write to FILE.tmp and rename on success: a failed export never
	 * leaves a truncated file that looks complete, nor FILE.tmp. */
	snprintf(tmp, sizeof(tmp), "%s.tmp", file);
	out = fopen(tmp, "w");
	if (!out) {
		fprintf(stderr, "xcbench %s: cannot write '%s': %s\n", cmd, tmp, strerror(errno));
		return 1;
	}
	rc = http_get_to(cmd, path, out);
	if (fclose(out) && !rc) {
		fprintf(stderr, "xcbench %s: cannot write '%s': %s\n", cmd, tmp, strerror(errno));
		rc = 1;
	}
	if (!rc && rename(tmp, file)) {
		fprintf(stderr, "xcbench %s: cannot rename to '%s': %s\n", cmd, file, strerror(errno));
		rc = 1;
	}
	if (rc)
		unlink(tmp);
	return rc;
}

int kv_args(const char *cmd, int argc, char **argv, json_t *params)
{
	char why[512];

	for (int i = optind; i < argc; i++) {
		char *eq = strchr(argv[i], '=');

		if (!eq || eq == argv[i]) {
			fprintf(stderr, "xcbench %s: '%s' is not key=value (see --help)\n", cmd, argv[i]);
			return 2;
		}
		*eq = 0;
		/* Said here, before a job is queued or a machine boots: the
		 * payload only warns of a key it does not know and runs its
		 * default (sutie=seed: minutes of the default suite). */
		if (payload_key_check(argv[i], eq + 1, why, sizeof(why))) {
			fprintf(stderr, "xcbench %s: %s\n", cmd, why);
			return 2;
		}
		/* The params are an object: a key's second value replaced its
		 * first without a word (the payload would take the last too). */
		if (json_object_get(params, argv[i])) {
			fprintf(stderr, "xcbench %s: payload key '%s' given twice\n", cmd, argv[i]);
			return 2;
		}
		json_object_set_new(params, argv[i], json_string(eq + 1));
	}
	return 0;
}

json_t *get_answer(const char *path, int as_json, int *rc)
{
	return api_answer("GET", path, NULL, as_json, rc);
}

json_t *api_run_whole(uint64_t id)
{
	char path[96];
	json_t *o, *page, *next;

	snprintf(path, sizeof(path), "/api/v1/runs/%llu", (unsigned long long)id);
	o = api_json("GET", path, NULL);
	/* A run of more cases than a page (RUN_CASES_PAGE): a case table, a
	 * verdict's failed cases, cut at the first page read as the whole. */
	while (o && json_is_integer(next = json_object_get(o, "cases_next"))) {
		snprintf(path, sizeof(path), "/api/v1/runs/%llu?cases_after=%lld", (unsigned long long)id,
			 (long long)json_integer_value(next));
		page = api_json("GET", path, NULL);
		if (!page || json_array_extend(json_object_get(o, "cases"), json_object_get(page, "cases"))) {
			json_decref(page);
			json_decref(o);
			return NULL;
		}
		json_object_set(o, "cases_next", json_object_get(page, "cases_next"));
		json_decref(page);
	}
	if (o)
		json_object_del(o, "cases_next");
	return o;
}

json_t *api_answer(const char *method, const char *path, json_t *body, int as_json, int *rc)
{
	return api_answer_for(NULL, method, path, body, as_json, rc);
}

json_t *api_answer_for(const struct cmd *cmd, const char *method, const char *path, json_t *body, int as_json,
		       int *rc)
{
	json_t *o = api_json_for(cmd, method, path, body);

	json_decref(body);
	*rc = o ? 0 : 1;
	if (o && as_json) {
		print_json(o);
		return NULL;
	}
	/* For text on a terminal: its strings without control characters. */
	term_safe(o);
	return o;
}

int print_member(json_t *o, int rc, const char *prefix, const char *key, void (*print)(json_t *))
{
	if (!o)
		return rc;
	fputs(prefix, stdout);
	print(json_object_get(o, key));
	json_decref(o);
	return 0;
}

int opt_json_str(const struct cmdopt *o, const char *arg, char *err, size_t errlen)
{
	(void)err, (void)errlen;
	json_object_set_new(o->dst, cmdopt_key(o), json_string(arg));
	return 0;
}

int opt_json_add(const struct cmdopt *o, const char *arg, char *err, size_t errlen)
{
	(void)err, (void)errlen;
	json_array_append_new(o->dst, json_string(arg));
	return 0;
}

int opt_json_int(const struct cmdopt *o, const char *arg, char *err, size_t errlen)
{
	int v;

	if (cmdopt_int(o, arg, &v, err, errlen))
		return -1;
	json_object_set_new(o->dst, cmdopt_key(o), json_integer(v));
	return 0;
}

int opt_json_kv(const struct cmdopt *o, const char *arg, char *err, size_t errlen)
{
	const char *eq = strchr(arg, '=');
	char k[64];

	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(k)) {
		snprintf(err, errlen, "--%s expects KEY=VALUE, not '%s'", o->name, arg);
		return -1;
	}
	memcpy(k, arg, (size_t)(eq - arg));
	k[eq - arg] = 0;
	json_object_set_new(o->dst, k, json_string(eq + 1));
	return 0;
}

int opt_json_true(const struct cmdopt *o, const char *arg, char *err, size_t errlen)
{
	(void)arg, (void)err, (void)errlen;
	json_object_set_new(o->dst, cmdopt_key(o), json_true());
	return 0;
}

int suite_ok(const char *cmd, const char *suite)
{
	struct buf names = { 0 };

	if (XCB_PARSE(suite, suite) >= 0)
		return 1;
	buf_add_words(&names, xcb_suite_names, XCB_N_suite, " ");
	fprintf(stderr, "%s: unknown suite '%s' (one of: %s)\n", cmd, suite, names.p);
	buf_free(&names);
	return 0;
}
