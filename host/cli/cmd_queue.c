/* cmd_queue.c — `xcbench queue --mac MAC --suite NAME [k=v…]`: queues a job. */
#include <getopt.h>
#include <string.h>

#include "client.h"
#include "xcb_schema.h"

/* " quick default ...": the suites, from the schema (proto/xcb_schema.h). */
#define SUITE_WORD(e, wire, cli) " " cli
static const char usage[] = "usage: xcbench queue --mac MAC --suite NAME [--label L] [--tag T]... [--meta K=V]...\n"
		   "         [--attempts N] [--power-timeout S] [--boot-timeout S] [--run-timeout S]\n"
		   "         [--end off|leave] [key=value...]\n"
		   "Queues a suite for the next iPXE boot of the machine with that MAC; the\n"
		   "key=value pairs go on the payload's command line. Needs the admin token\n"
		   "(--token-file) unless the daemon runs with --open. --tag and --meta K=V\n"
		   "(e.g. --meta kernel=6.12 --meta series=lockless) go to the run the boot\n"
		   "creates as its tags and fields (`xcbench label` changes them later).\n"
		   "A machine with a power driver (xcbench machine set) is powered on by the\n"
		   "daemon, each stage bounded in seconds (--power-timeout: from the power-on\n"
		   "to the machine's boot script request; --boot-timeout: to the payload's\n"
		   "HELLO; --run-timeout: to the run's end; the daemon's defaults where not\n"
		   "given: xcbench machine show MAC), retried with a power cycle up to N\n"
		   "boots, and powered off at the end unless --end leave. A machine runs\n"
		   "one job at a time: a job queued behind another waits (said on stderr).\n"
		   "Suites:" XCB_VOCAB_SUITE(SUITE_WORD) ".\n";

/* What the options gather for the job's body besides mac and suite. */
struct queue_parts {
	json_t *tags, *meta, *timeouts, *policy;
};

static void parts_free(struct queue_parts *q)
{
	json_decref(q->tags);
	json_decref(q->meta);
	json_decref(q->timeouts);
	json_decref(q->policy);
}

/* The operands after the options: a known suite, --mac, key=value pairs
 * into *params. 0, or the exit status after saying why. */
static int check_args(const struct cmd *cmd, const char *mac, const char *suite, int argc, char **argv,
		      json_t **params)
{
	if (suite && !suite_ok("xcbench queue", suite))
		return 2;
	if (!mac || !suite) {
		fprintf(stderr, "xcbench queue: --mac and --suite are required\n");
		return cmd_usage_error(cmd);
	}
	*params = json_object();
	if (kv_args("queue", argc, argv, *params)) {
		json_decref(*params);
		return 2;
	}
	return 0;
}

/* The oldest job of mac before job id that has not ended, or 0: a machine
 * runs one job at a time, so a second `queue` (a repeat by mistake, often)
 * waits behind it, and then runs the suite again. stage gets its stage. */
static json_int_t job_ahead(const char *mac, json_int_t id, char *stage, size_t n)
{
	static const char *const open[] = { "queued", "powering_on", "booting", "running", NULL };
	char path[96];
	json_t *o, *j;
	json_int_t ahead = 0;
	size_t i;

	snprintf(path, sizeof(path), "/api/v1/jobs?mac=%s", mac);
	o = api_json("GET", path, NULL);
	json_array_foreach(json_object_get(o, "jobs"), i, j) {
		json_int_t jid = json_integer_value(json_object_get(j, "id"));
		const char *st = json_string_value(json_object_get(j, "stage"));

		for (int k = 0; st && open[k]; k++)
			if (strcmp(st, open[k]) == 0 && jid < id && (!ahead || jid < ahead)) {
				ahead = jid;
				snprintf(stage, n, "%s", st);
			}
	}
	json_decref(o);
	return ahead;
}

/* What happens next to a job for mac: a machine with a power driver (any
 * but manual, as job_runner.c's is_manual says: ipmi, command, and any
 * driver added later) is powered on and booted by the daemon's job runner;
 * any other (manual, or not known yet) runs it at its next boot, which a
 * person starts. Asked quietly: an unknown MAC (404) is the common case. */
static const char *next_step(const char *mac)
{
	char path[96];
	struct http_resp r = { 0 };
	const char *driver = NULL, *say = "next boot of that machine";
	json_t *o = NULL;

	snprintf(path, sizeof(path), "/api/v1/machines/%s", mac);
	if (http_call("GET", path, NULL, &r, NULL) == 0 && r.status == 200)
		o = json_loadb(r.body.p, r.body.len, 0, NULL);
	buf_free(&r.body);
	driver = json_string_value(json_object_get(json_object_get(json_object_get(o, "machine"), "power"), "driver"));
	if (driver && *driver && strcmp(driver, "manual"))
		say = "the daemon powers that machine on and boots it";
	json_decref(o);
	return say;
}

int cmd_queue(int argc, char **argv)
{
	const char *mac = NULL, *suite = NULL, *label = NULL;
	struct queue_parts q = { json_array(), json_object(), json_object(), json_object() };
	json_t *params = NULL, *body, *o, *job;
	json_int_t id, ahead;
	char stage[16];
	const struct cmdopt opts[] = {
		OPT_STR("mac", &mac), OPT_STR("suite", &suite), OPT_STR_ANY("label", &label),
		OPT_JSON_ADD("tag", q.tags), OPT_JSON_KV("meta", q.meta),
		OPT_JSON_INT("attempts", q.policy, NULL, 1, 10),
		OPT_JSON_INT("power-timeout", q.timeouts, "powering_on", 1, 604800),
		OPT_JSON_INT("boot-timeout", q.timeouts, "booting", 1, 604800),
		OPT_JSON_INT("run-timeout", q.timeouts, "running", 1, 604800),
		OPT_JSON_STR("end", q.policy, NULL), OPT_END,
	};
	const struct cmd cmd = { "xcbench queue", usage, opts };
	int rc;

	if (cmd_parse(&cmd, argc, argv, &rc) || (rc = check_args(&cmd, mac, suite, argc, argv, &params))) {
		parts_free(&q);
		return rc;
	}
	body = json_pack("{s:s, s:s, s:o}", "mac", mac, "suite", suite, "params", params);
	if (label)
		json_object_set_new(body, "label", json_string(label));
	if (json_array_size(q.tags))
		json_object_set(body, "tags", q.tags);
	if (json_object_size(q.meta))
		json_object_set(body, "meta", q.meta);
	if (json_object_size(q.timeouts))
		json_object_set(q.policy, "timeouts", q.timeouts);
	json_object_update(body, q.policy);
	parts_free(&q);
	o = api_json_for(&cmd, "POST", "/api/v1/jobs", body);
	json_decref(body);
	if (!o)	/* 400: params the daemon refused (algos= it checks against its image) */
		return api_last_status() == 400 ? 2 : 1;
	job = json_object_get(o, "job");
	id = json_integer_value(json_object_get(job, "id"));
	mac = json_string_value(json_object_get(job, "mac"));
	printf("queued job %lld: suite %s for %s (%s)\n", (long long)id,
	       json_string_value(json_object_get(job, "suite")), mac, next_step(mac));
	/* On stderr: scripts read the job's id from the line above. */
	ahead = job_ahead(mac, id, stage, sizeof(stage));
	if (ahead)
		fprintf(stderr, "xcbench queue: job %lld (%s) holds %s: job %lld runs after it ends, one job at a "
			"time (a repeat? xcbench job cancel %lld)\n", (long long)ahead, stage, mac, (long long)id,
			(long long)id);
	json_decref(o);
	return 0;
}
