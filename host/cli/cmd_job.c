/*
 * cmd_job.c — `xcbench job show|wait|cancel ID`: one job's lifecycle with
 * its events, following it to its end (progress: each event as it comes),
 * and cancelling it (its end action runs: a machine the daemon powered is
 * switched off); `job list` (cmd_job_list.c) takes its options here.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "client.h"

static const char usage[] = "usage: xcbench job list [--mac MAC] [--lab NAME] [--pending] [--json]\n"
			    "       xcbench job show ID [--json]\n"
			    "       xcbench job wait ID [--timeout S]\n"
			    "       xcbench job cancel ID\n"
			    "A queued job's stage, attempts, each stage's time limit (the\n"
			    "daemon's default marked) and events; wait prints each event as it\n"
			    "comes until the job has ended and its end action ran (exit 0 when it\n"
			    "completed, 1 when it failed, timed out or was cancelled, or is still\n"
			    "going after S seconds, 3 when xcbenchd could not be asked at the end\n"
			    "of S: the outcome unknown); it waits through a daemon's restart or its\n"
			    "store's outage (said once). Cancel ends a job (the end action runs) and\n"
			    "needs the admin token (--token-file) unless the daemon runs with --open.\n"
			    "Limits: powering_on runs from the power-on to the machine's boot script\n"
			    "request, booting to the payload's HELLO, running to the run's end; a\n"
			    "job keeps those of the power driver its machine had when it started.\n"
			    "list: the jobs, newest first (the daemon answers with at most 1000):\n"
			    "ID, MAC, its machine's lab, suite, stage, when queued, its run; --mac\n"
			    "MAC, --lab NAME (its machines'), --pending (not ended nor consumed by a\n"
			    "boot) list only those. A machine's jobs: xcbench machine show MAC.\n";

/* One event line, as show and wait print it. */
static void print_event(json_t *e)
{
	printf("  %s  %-11s %s\n", json_string_value(json_object_get(e, "at")),
	       json_string_value(json_object_get(e, "stage")), json_string_value(json_object_get(e, "reason")));
}

const char *const job_bound_names[3] = { "powering_on", "booting", "running" };

/* The stages' time limits, each the one the runner applies (the daemon's
 * timeouts_effective: its definition of the defaults, never a copy here),
 * "(default)" where the job set none: the API's `null` read as "none". */
static void print_limits(json_t *j)
{
	const char *const *names = job_bound_names;
	json_t *set = json_object_get(j, "timeouts"), *eff = json_object_get(j, "timeouts_effective");

	printf("  limits:");
	for (int i = 0; i < 3; i++) {
		json_t *e = json_object_get(eff, names[i]);
		int dflt = json_is_null(json_object_get(set, names[i]));

		if (json_is_integer(e))
			printf("%s %s %lld s%s", i ? "," : "", names[i], (long long)json_integer_value(e),
			       dflt ? " (default)" : "");
		else if (e) /* null: none (a manual machine) */
			printf("%s %s none%s", i ? "," : "", names[i], dflt ? " (default, manual power)" : "");
		else if (dflt) /* a daemon without timeouts_effective */
			printf("%s %s default", i ? "," : "", names[i]);
		else
			printf("%s %s %lld s", i ? "," : "", names[i],
			       (long long)json_integer_value(json_object_get(set, names[i])));
	}
	printf("\n");
}

/* A job's header line, its stage limits and its events. */
static void print_job(json_t *j)
{
	char t1[64], t2[64];
	size_t i;
	json_t *e;

	printf("job %lld  %s on %s  stage %s  ", (long long)json_integer_value(json_object_get(j, "id")),
	       json_string_value(json_object_get(j, "suite")), json_string_value(json_object_get(j, "mac")),
	       json_string_value(json_object_get(j, "stage")));
	/* Attempt 0 is none begun (a job cancelled while queued said
	 * "attempt 0 of 1", as if one had run). */
	if (json_integer_value(json_object_get(j, "attempt")) > 0)
		printf("attempt %s of %s\n", jstr(json_object_get(j, "attempt"), t1, sizeof(t1)),
		       jstr(json_object_get(j, "attempts"), t2, sizeof(t2)));
	else
		printf("no attempt begun (of %s)\n", jstr(json_object_get(j, "attempts"), t2, sizeof(t2)));
	print_limits(j);
	json_array_foreach(json_object_get(j, "events"), i, e)
		print_event(e);
}

/* One poll of the job (path): its answer, or NULL with *outage set when
 * xcbenchd could not say now and may later: no connection or one that
 * broke (the daemon restarting), 503 (no store, shutting down), 500 (this
 * route's only one: its read of the store failed, a store outage) or a
 * proxy's 502/504; any other failure (404, 401, another server's answer)
 * was printed and *outage is 0. */
static json_t *poll_job(const char *path, int *outage)
{
	json_t *o;
	int st;

	http_quiet = 1;
	o = api_json("GET", path, NULL);
	http_quiet = 0;
	st = api_last_status();
	*outage = !o && ((st == 0 && http_unreached()) || st == 500 || st == 502 || st == 503 || st == 504);
	if (!o && !*outage)
		fprintf(stderr, "%s\n", http_said());
	term_safe(o);
	return o;
}

/* `job wait`: polls the job every 2 s, printing its header once and each
 * event once, until it has ended (its end action done: "ended" set), or
 * for at most timeout_s seconds (0: no bound). An operator queued a suite
 * and had only `job show` in a loop to watch it. The job goes on while
 * its daemon restarts or its store is away a while: wait waits through
 * that (said once each time), where it ended with the daemon's error and
 * exit 1, as for a failed job; its outcome unknown at the timeout, exit
 * 3. Until an xcbenchd has answered, an error ends it (a wrong --server:
 * no connection, another server's page; no such job: nothing is known to
 * wait for); its own 503 or 500 at the first poll is such an answer (the
 * store away when wait began), waited through as a later one: it ended
 * at once, exit 1. */
static int job_wait(const char *path, long long id, int timeout_s)
{
	time_t start = time(NULL), lost = 0;
	size_t seen = 0, i;
	int rc, header = 0, known = 0, outage;
	char stage[32] = "?";

	for (;;) {
		json_t *o = poll_job(path, &outage), *j, *ev, *e;
		const char *st;

		/* known: an xcbenchd answered, now or before */
		if (o || (outage && api_last_error_ours()))
			known = 1;
		if (!o && !known && outage) /* its error, as any command's */
			fprintf(stderr, "%s\n", http_said());
		if (!o && (!outage || !known))
			return 1;
		if (!o) {
			if (!lost) {
				lost = time(NULL);
				fprintf(stderr, "xcbench job wait: xcbenchd unavailable (%s); still waiting\n",
					http_said());
			}
			if (timeout_s && time(NULL) - start >= timeout_s) {
				fprintf(stderr,
					"xcbench job wait: job %lld: outcome unknown: xcbenchd unavailable for the last "
					"%lld s of %d (last seen %s)\n",
					id, (long long)(time(NULL) - lost), timeout_s, stage);
				return 3;
			}
			sleep(2);
			continue;
		}
		if (lost) {
			fprintf(stderr, "xcbench job wait: xcbenchd answers again\n");
			lost = 0;
		}
		j = json_object_get(o, "job");
		st = json_string_value(json_object_get(j, "stage"));
		snprintf(stage, sizeof(stage), "%s", st ? st : "?");
		if (!header) {
			printf("job %lld  %s on %s\n", id, json_string_value(json_object_get(j, "suite")),
			       json_string_value(json_object_get(j, "mac")));
			header = 1;
		}
		ev = json_object_get(j, "events");
		json_array_foreach(ev, i, e)
			if (i >= seen)
				print_event(e);
		seen = json_array_size(ev);
		fflush(stdout);
		if (!json_is_null(json_object_get(j, "ended")) && json_object_get(j, "ended")) {
			rc = strcmp(stage, "complete") == 0 ? 0 : 1;
			printf("job %lld: %s\n", id, stage);
			json_decref(o);
			return rc;
		}
		json_decref(o);
		if (timeout_s && time(NULL) - start >= timeout_s) {
			fprintf(stderr, "xcbench job wait: job %lld still %s after %d s\n", id, stage, timeout_s);
			return 1;
		}
		sleep(2);
	}
}

int cmd_job(int argc, char **argv)
{
	int rc, as_json = 0, timeout_s = 0, pending = 0;
	const char *mac = NULL, *lab = NULL;
	const struct cmdopt opts[] = { OPT_FLAG("json", &as_json), OPT_INT("timeout", &timeout_s, 1, 1000000),
				       OPT_STR("mac", &mac), OPT_STR("lab", &lab), OPT_FLAG("pending", &pending),
				       OPT_END };
	const struct cmd cmd = { "xcbench job", usage, opts };
	char path[96];
	uint64_t id;
	json_t *o;

	if (cmd_parse(&cmd, argc, argv, &rc))
		return rc;
	if (argc - optind >= 1 && strcmp(argv[optind], "list") == 0) {
		if (argc - optind > 1) {
			fprintf(stderr, "xcbench job list: unexpected argument '%s'\n", argv[optind + 1]);
			return cmd_usage_error(&cmd);
		}
		if (timeout_s) {
			fprintf(stderr, "xcbench job list: --timeout is wait's\n");
			return 2;
		}
		return job_list(&cmd, mac, lab, pending, as_json);
	}
	if (mac || lab || pending) {
		fprintf(stderr, "xcbench job: --%s is list's\n", mac ? "mac" : lab ? "lab" : "pending");
		return 2;
	}
	if (argc - optind < 2 ||
	    (strcmp(argv[optind], "show") && strcmp(argv[optind], "wait") && strcmp(argv[optind], "cancel"))) {
		fprintf(stderr, "xcbench job: expected list, show ID, wait ID or cancel ID\n");
		return cmd_usage_error(&cmd);
	}
	/* Named: "expected show ID, ..." of `job show 1 extra` left the
	 * reader to find which word was one too many. */
	if (argc - optind > 2) {
		fprintf(stderr, "xcbench job %s: unexpected argument '%s' (one job id)\n", argv[optind], argv[optind + 2]);
		return cmd_usage_error(&cmd);
	}
	if (parse_id(argv[optind + 1], &id)) {
		fprintf(stderr, "xcbench job: not a job id: '%s'\n", argv[optind + 1]);
		return 2;
	}
	if (strcmp(argv[optind], "cancel") == 0) {
		snprintf(path, sizeof(path), "/api/v1/jobs/%llu/cancel", (unsigned long long)id);
		o = api_answer("POST", path, json_object(), as_json, &rc);
		return print_member(o, rc, "cancelled: ", "job", print_job);
	}
	snprintf(path, sizeof(path), "/api/v1/jobs/%llu", (unsigned long long)id);
	if (strcmp(argv[optind], "wait") == 0) {
		if (as_json) {
			fprintf(stderr, "xcbench job wait: --json is show's (wait prints events as they come)\n");
			return 2;
		}
		return job_wait(path, (long long)id, timeout_s);
	}
	if (timeout_s) {
		fprintf(stderr, "xcbench job %s: --timeout is wait's\n", argv[optind]);
		return 2;
	}
	o = get_answer(path, as_json, &rc);
	return print_member(o, rc, "", "job", print_job);
}
