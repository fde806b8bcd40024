/*
 * verdict.c — the payload's verdict on a run in words, and the LOG lines
 * that say which case, initiator and CPU failed (verdict.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "verdict.h"
#include "verdict_words.h"
#include "xcb_proto.h"

const char *run_verdict(json_t *run)
{
	json_t *d = json_object_get(run, "done_status");

	if (!json_is_integer(d) || json_integer_value(d) == XCB_DONE_OK)
		return NULL;
	return verdict_of(json_integer_value(d))->says;
}

/* 1 when case `id` of `cases` carries the invariant or watchdog flag. */
static int case_failed(json_t *cases, long long id)
{
	size_t i;
	json_t *c;

	json_array_foreach(cases, i, c)
		if (json_integer_value(json_object_get(c, "case_id")) == id)
			return (json_integer_value(json_object_get(json_object_get(c, "stats"), "flags")) &
				(XCB_RF_INVARIANT | XCB_RF_WATCHDOG)) != 0;
	return 0;
}

/* The run's events of one kind (the API's answer, NULL if it cannot be
 * read), made safe for a terminal: they are the payload's words. */
static json_t *run_events(long long run_id, const char *kind, int limit)
{
	char path[96];

	snprintf(path, sizeof(path), "/api/v1/runs/%lld/events?kind=%s&limit=%d", run_id, kind, limit);
	json_t *o = api_json("GET", path, NULL);
	term_safe(o);
	return o;
}

int print_failed_logs(long long run_id, json_t *cases, int per_case, const char *heading, const char *indent,
		      FILE *out)
{
	long long last = -1;
	int shown = 0, printed = 0;
	size_t i;
	json_t *e;
	/* The payload sends a few LOG lines a case; a run's whole log fits. */
	json_t *o = run_events(run_id, "log", 10000);

	json_array_foreach(json_object_get(o, "events"), i, e) {
		const char *t = json_string_value(json_object_get(e, "text"));
		long long id;

		if (!t)
			continue;
		if (strncmp(t, "done: ", 6)) {
			if (sscanf(t, "case %lld ", &id) != 1 || !case_failed(cases, id))
				continue;
			if (id != last)
				last = id, shown = 0;
			if (shown++ >= per_case)
				continue;
		}
		if (!printed++ && heading)
			fprintf(out, "%s\n", heading);
		fprintf(out, "%s%s\n", indent, t);
	}
	json_decref(o);
	return printed;
}

int print_run_failures(long long run_id, int per_case, const char *heading, const char *indent, FILE *out)
{
	json_t *o = api_run_whole((uint64_t)run_id);
	int n = o ? print_failed_logs(run_id, json_object_get(o, "cases"), per_case, heading, indent, out) : 0;

	json_decref(o);
	return n;
}

void print_run_errors(long long run_id, const char *error, int max_lines, const char *indent, FILE *out)
{
	int lines = 0, more = 0;
	size_t i;
	json_t *e;
	json_t *o = run_events(run_id, "error", 100);

	json_array_foreach(json_object_get(o, "events"), i, e) {
		const char *t = json_string_value(json_object_get(e, "text"));
		const char *p = t;

		for (; p && *p && lines < max_lines; lines++) {
			size_t n = strcspn(p, "\n");

			fprintf(out, "%s%s%.*s\n", indent, p == t ? "ERROR: " : "       ", (int)n, p);
			p += n + (p[n] == '\n');
		}
		/* text left unprinted: this report's, or a later one's */
		if (p && *p)
			more = 1;
	}
	json_decref(o);
	if (!lines && error)
		fprintf(out, "%sERROR: %s\n", indent, error);
	else if (more)
		fprintf(out, "%s       (more: GET /api/v1/runs/%lld/events?kind=error)\n", indent, run_id);
}
