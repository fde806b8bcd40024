/*
 * answer_shape.c — the members of each answer the CLI reads, and their
 * types (answer_shape.h). One table of the API's answers (host/API.md),
 * checked once in api_json_for for every command, rather than a check at
 * each of the ~200 places a command reads a member.
 *
 * A spec is a list of "PATH:T" words. PATH is a member's path: "run.id",
 * "runs[].id" (every element of the array runs). T is its type: o object,
 * a array, i integer, n number, s string, b true or false; in upper case
 * the member may also be null or absent. Only what the commands rely on is
 * listed: a member the API adds later changes nothing here.
 */
#include <stdio.h>
#include <string.h>

#include "answer_shape.h"

struct shape {
	const char *method, *path, *spec; /* path: '#' an id segment, '*' any one */
};

#define RUNS_ROW "runs[]:o runs[].id:i runs[].status:s runs[].created:s runs[].facts:O runs[].tags:A "
static const struct shape shapes[] = {
	{ "GET", "/api/v1/health", "status:s open:b udp_port:i" },
	{ "GET", "/api/v1/runs", "runs:a " RUNS_ROW "total:i offset:i" },
	{ "POST", "/api/v1/runs", "run:o run.id:i" },
	{ "GET", "/api/v1/runs/#", "run:o run.id:i run.status:s facts:o cases:a cases[]:o cases[].case_id:i "
				   "cases[].stats:O errors:a cases_next:I" },
	{ "PATCH", "/api/v1/runs/#", "run:o run.id:i run.tags:A run.meta:O" },
	{ "GET", "/api/v1/runs/#/events", "events:a events[]:o events[].text:s" },
	{ "GET", "/api/v1/compare", "cases:a cases[]:o cases[].key:o summary:o summary.cases:i warnings:A "
				    "unmatched_a:i unmatched_b:i fdr:n min_effect_pct:n pivots:A" },
	{ "GET", "/api/v1/calibrate", "boots:i fdr:n min_effect_pct:n groups:o pairs:o runs:a runs[]:o" },
#define BASELINE(b) b ":o " b ".machine:o " b ".machine.mac:s " b ".suite:s " b ".runs:a " b ".set_at:S"
	{ "GET", "/api/v1/baselines", "baselines:a " BASELINE("baselines[]") },
	{ "POST", "/api/v1/baselines", BASELINE("baseline") },
	{ "GET", "/api/v1/jobs", "jobs:a jobs[]:o jobs[].id:i jobs[].stage:s" },
	{ "POST", "/api/v1/jobs", "job:o job.id:i job.mac:s job.suite:s job.stage:s" },
	{ "GET", "/api/v1/jobs/#", "job:o job.id:i job.mac:s job.stage:s job.events:A" },
	{ "POST", "/api/v1/jobs/#/cancel", "job:o job.id:i job.mac:s job.stage:s" },
	{ "GET", "/api/v1/machines/*", "machine:o machine.power:O machine.jobs:A" },
	{ "PUT", "/api/v1/machines/*/power", "machine:o machine.power:o machine.power.driver:s" },
	{ "POST", "/api/v1/machines/*/power", "result:s" },
};

/* 1 if path (up to '?' or its end) is the pattern's. */
static int path_is(const char *pat, const char *path)
{
	while (*pat) {
		if (*pat == '#' || *pat == '*') {
			const char *s = path;

			while (*path && *path != '/' && *path != '?' && (*pat == '*' || (*path >= '0' && *path <= '9')))
				path++;
			if (path == s || (*path && *path != '/' && *path != '?'))
				return 0;
			pat++;
		} else if (*pat++ != *path++)
			return 0;
	}
	return !*path || *path == '?';
}

static int type_is(json_t *v, char t)
{
	switch (t) {
	case 'o': return json_is_object(v);
	case 'a': return json_is_array(v);
	case 'i': return json_is_integer(v);
	case 'n': return json_is_number(v);
	case 's': return json_is_string(v);
	case 'b': return json_is_boolean(v);
	}
	return 0;
}

static const char *type_name(char t)
{
	switch (t | 0x20) {
	case 'o': return "an object";
	case 'a': return "an array";
	case 'i': return "an integer";
	case 'n': return "a number";
	case 's': return "a string";
	}
	return "true or false";
}

/* 1 if v may stand where type t is asked: of the type, or null or
 * absent for an upper-case t. */
static int fits(json_t *v, char t)
{
	return type_is(v, (char)(t | 0x20)) || (t < 'a' && (!v || json_is_null(v)));
}

/* The members at path ("a.b", "a[].b") of the object v are of type t;
 * where holds the path read so far (for why). 0, or -1 with why. */
static int check_at(json_t *v, const char *path, char t, char *where, size_t wlen, char *why, size_t len)
{
	size_t k = strcspn(path, ".["), at = strlen(where), i;
	int each = path[k] == '[';
	const char *rest = path + k + (each ? 2 : 0);
	json_t *m, *e;

	snprintf(where + at, wlen - at, "%s%.*s", at ? "." : "", (int)k, path);
	m = json_object_get(v, where + at + (at ? 1 : 0));
	if (*rest == '.')
		rest++;
	if (!each && !*rest) {
		if (fits(m, t))
			return 0;
		snprintf(why, len, "'%s' is %s, not %s", where, m ? "of another type" : "missing", type_name(t));
		return -1;
	}
	if (!each) {
		if (t < 'a' && (!m || json_is_null(m)))
			return 0; /* an optional member's parent that is not there */
		if (!json_is_object(m)) {
			snprintf(why, len, "'%s' is not an object", where);
			return -1;
		}
		return check_at(m, rest, t, where, wlen, why, len);
	}
	if (!json_is_array(m)) {
		snprintf(why, len, "'%s' is not an array", where);
		return -1;
	}
	at = strlen(where);
	json_array_foreach(m, i, e) {
		snprintf(where + at, wlen - at, "[%zu]", i);
		if (!*rest ? !fits(e, t) : !json_is_object(e)) {
			snprintf(why, len, "'%s' is not %s", where, !*rest ? type_name(t) : "an object");
			return -1;
		}
		if (*rest && check_at(e, rest, t, where, wlen, why, len))
			return -1;
		where[at] = 0;
	}
	return 0;
}

int answer_shape_check(const char *method, const char *path, json_t *o, char *why, size_t len)
{
	for (size_t i = 0; i < sizeof(shapes) / sizeof(*shapes); i++) {
		const char *w;

		if (strcmp(shapes[i].method, method) || !path_is(shapes[i].path, path))
			continue;
		for (w = shapes[i].spec; *w; w += strspn(w, " ")) {
			size_t n = strcspn(w, " ");
			char word[128], where[256] = "", *colon;

			snprintf(word, sizeof(word), "%.*s", (int)n, w);
			w += n;
			if (!(colon = strchr(word, ':')))
				continue;
			*colon = 0;
			if (check_at(o, word, colon[1], where, sizeof(where), why, len))
				return -1;
		}
		return 0;
	}
	return 0;
}
