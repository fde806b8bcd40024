/*
 * fuzz_http.c — libFuzzer target for xcbenchd's HTTP side: the real request
 * handler (http.c routing, path segments and ids, query arguments, the JSON
 * bodies of the write routes, static-file path checks, iPXE script, CSV
 * streaming) over mhd_stub.c and a real SQLite database (harness.c).
 *
 * Input: an HTTP request in a simplified wire form
 *     METHOD SP TARGET LF  (TARGET = path?query, percent-encoded)
 *     Name: value LF ...   (headers)
 *     LF                   (then the body, to the end of the input)
 * Properties checked beyond "no crash, no sanitizer report":
 *   - every request gets exactly one response, never a 5xx;
 *   - a JSON reply parses, and an error reply is {"error": text, "status": code};
 *   - no static-file reply ever contains the file planted outside the web
 *     root (API replies may return what an authorised request stored);
 *   - a write route without the admin token changes nothing in the database.
 */
#include <assert.h>
#include <jansson.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "mhd_stub.h"
#include "xcbd.h"

#define MAX_KV 32

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static sqlite3 *check_db;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	harness_init(0); /* not --open: write routes need the admin token */
	if (sqlite3_open_v2(cfg.db_path, &check_db, SQLITE_OPEN_READONLY, NULL))
		abort();
	sqlite3_busy_timeout(check_db, 5000);
	return 0;
}

/* What a write could change: row counts and the user-editable text. */
static char *fingerprint(void)
{
	static const char *q =
		"SELECT (SELECT count(*) FROM runs) || '/' || (SELECT count(*) FROM jobs) || '/' || "
		"(SELECT count(*) FROM machines) || '/' || (SELECT count(*) FROM events) || '/' || "
		"(SELECT coalesce(group_concat(id || ':' || coalesce(label, '') || ':' || "
		"coalesce(notes, ''), ','), '') FROM runs)";
	sqlite3_stmt *st;
	char *out = NULL;

	if (sqlite3_prepare_v2(check_db, q, -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			out = strdup((const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}
	if (!out)
		abort();
	return out;
}

/* Splits "k=v&k2=v2" in place into decoded pairs (v NULL without '='). */
static size_t split_query(char *q, struct stub_kv *kv)
{
	size_t n = 0;

	for (char *save = NULL, *t = strtok_r(q, "&", &save); t && n < MAX_KV;
	     t = strtok_r(NULL, "&", &save)) {
		char *eq = strchr(t, '=');

		if (eq) {
			*eq = 0;
			stub_unescape(eq + 1);
		}
		stub_unescape(t);
		kv[n].k = t;
		kv[n].v = eq ? eq + 1 : NULL;
		n++;
	}
	return n;
}

static void check_reply(const struct stub_reply *r, int echo_ok)
{
	assert(!r->handler_no);
	assert(r->status >= 200 && r->status < 500);
	/* An error message may echo the request: only a secret the request
	 * did not carry is a leak. */
	if (r->body && !echo_ok)
		assert(!strstr(r->body, FUZZ_SECRET));
	if (strncmp(r->ctype, "application/json", 16) == 0) {
		json_error_t e;
		json_t *o = json_loadb(r->body, r->len, 0, &e);

		if (!o) {
			fprintf(stderr, "reply %u is not JSON (%s): %.200s\n", r->status, e.text, r->body);
			abort();
		}
		if (r->status >= 400) {
			assert(json_is_string(json_object_get(o, "error")));
			assert(json_integer_value(json_object_get(o, "status")) == r->status);
		}
		json_decref(o);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct stub_kv args[MAX_KV], hdrs[MAX_KV];
	size_t nargs = 0, nhdrs = 0, blen = 0;
	char *req, *line, *target, *sp, *q, *body = NULL, *before = NULL, *after;
	const char *method;
	struct stub_reply r;
	int authed = 0, writes;

	if (size > 256 * 1024)
		return 0;
	req = malloc(size + 1);
	memcpy(req, data, size);
	req[size] = 0;

	/* Request line. */
	line = req;
	sp = strchr(line, '\n');
	if (sp) {
		*sp = 0;
		body = sp + 1;
	}
	target = strchr(line, ' ');
	if (!target || target == line) {
		free(req);
		return 0;
	}
	*target++ = 0;
	method = line;
	q = strchr(target, '?');
	if (q) {
		*q++ = 0;
		nargs = split_query(q, args);
	}
	stub_unescape(target);

	/* Headers until an empty line; the rest is the body. */
	while (body && *body && *body != '\n' && nhdrs < MAX_KV) {
		char *nl = strchr(body, '\n'), *colon;

		if (nl)
			*nl = 0;
		colon = strchr(body, ':');
		if (colon) {
			*colon = 0;
			hdrs[nhdrs].k = body;
			hdrs[nhdrs].v = colon + 1 + strspn(colon + 1, " ");
			if (strcasecmp(body, "Authorization") == 0 &&
			    strcmp(hdrs[nhdrs].v, "Bearer " FUZZ_ADMIN_TOKEN) == 0)
				authed = 1;
			nhdrs++;
		}
		body = nl ? nl + 1 : NULL;
	}
	/* A real client always names the host, and the daemon answers 421 to a
	 * request that does not (http_guard.c): give inputs without one the
	 * daemon's own address, so the fuzzer still reaches the routes. */
	{
		int has_host = 0;

		for (size_t i = 0; i < nhdrs; i++)
			has_host |= strcasecmp(hdrs[i].k, "Host") == 0;
		if (!has_host && nhdrs < MAX_KV) {
			hdrs[nhdrs].k = "Host";
			hdrs[nhdrs].v = "127.0.0.1:8080";
			nhdrs++;
		}
	}
	if (body && *body == '\n')
		body++;
	/* The body is binary: it runs to the end of the input, NULs included. */
	if (body)
		blen = size - (size_t)(body - req);

	writes = strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0;
	if (writes && !authed)
		before = fingerprint();
	mhd_request(method, target, args, nargs, hdrs, nhdrs, body, blen, &r);
	/* Only file-serving routes read files; API replies may legitimately
	 * return text an earlier (authorised) request stored, secret included. */
	check_reply(&r, memmem(data, size, FUZZ_SECRET, strlen(FUZZ_SECRET)) != NULL ||
			strncmp(target, "/api/", 5) == 0);
	if (before) {
		harness_sync();
		after = fingerprint();
		if (strcmp(before, after) != 0) {
			fprintf(stderr, "unauthenticated %s %s (status %u) changed the database:\n%s\n→ %s\n",
				method, target, r.status, before, after);
			abort();
		}
		assert(r.status >= 400);
		free(after);
		free(before);
	}
	stub_reply_free(&r);
	free(req);
	return 0;
}
