/*
 * api_jobs.c — queued boot requests: POST /api/v1/jobs (a suite for a MAC),
 * GET /api/v1/jobs, DELETE /api/v1/jobs/{id}. /boot.ipxe consumes them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routes.h"
#include "sqljson.h"
#include "writer.h"

/* The payload command line without params is at most ~330 characters (a
 * 64-character host, twice); params must fit in what is left under 500. */
#define PARAMS_MAX 160

static int word_ok(const char *s, const char *extra)
{
	if (!s[0] || strlen(s) > 64)
		return 0;
	for (const char *p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		      strchr(extra, *p)))
			return 0;
	return 1;
}

static json_t *job_row(sqlite3_stmt *st)
{
	const char *p = (const char *)sqlite3_column_text(st, 3);
	json_t *params = p ? json_loads(p, 0, NULL) : NULL;

	return json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
		"id", (json_int_t)sqlite3_column_int64(st, 0), "mac", col_json(st, 1),
		"suite", col_json(st, 2), "params", params ? params : json_object(),
		"label", col_json(st, 4), "created", iso_or_null(st, 5),
		"consumed", iso_or_null(st, 6), "run_id", col_json(st, 7));
}

#define JOB_COLS "id, mac, suite, params, label, created, consumed, run_id"

enum MHD_Result api_jobs(struct req *rq)
{
	const char *m = qarg(rq, "mac"), *pending = qarg(rq, "pending");
	sqlite3 *db = rdb();
	sqlite3_stmt *st;
	char mac[18];
	json_t *arr;

	if (m && norm_mac(m, mac))
		return reply_error(rq, 400, "mac: '%s' is not a MAC address", m);
	if (!db)
		return reply_error(rq, 503, "database unavailable");
	if (sqlite3_prepare_v2(db, "SELECT " JOB_COLS " FROM jobs WHERE (?1 IS NULL OR mac = ?1) "
			       "AND (?2 IS NULL OR consumed IS NULL) ORDER BY id DESC LIMIT 1000", -1, &st, NULL))
		return reply_error(rq, 500, "query failed: %s", sqlite3_errmsg(db));
	if (m)
		sqlite3_bind_text(st, 1, mac, -1, SQLITE_TRANSIENT);
	if (pending && strcmp(pending, "0"))
		sqlite3_bind_int(st, 2, 1);
	arr = json_array();
	while (sqlite3_step(st) == SQLITE_ROW)
		json_array_append_new(arr, job_row(st));
	sqlite3_finalize(st);
	return reply_json(rq, 200, json_pack("{s:o}", "jobs", arr));
}

struct job_task {
	const char *mac, *suite, *label;
	char *params;
	int64_t id;
};

static void job_fn(sqlite3 *db, void *arg)
{
	struct job_task *t = arg;
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(db, "INSERT INTO jobs(mac, suite, params, label, created) VALUES (?, ?, ?, ?, ?)",
			       -1, &st, NULL))
		return;
	sqlite3_bind_text(st, 1, t->mac, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, t->suite, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, t->params, -1, SQLITE_TRANSIENT);
	if (t->label)
		sqlite3_bind_text(st, 4, t->label, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 5, now_s());
	if (sqlite3_step(st) == SQLITE_DONE)
		t->id = sqlite3_last_insert_rowid(db);
	sqlite3_finalize(st);
}

enum MHD_Result api_job_create(struct req *rq)
{
	struct job_task t = { 0 };
	const char *why, *mac_in, *k;
	json_t *body, *params, *v;
	char mac[18];
	size_t plen = 0;
	sqlite3 *db = rdb();
	sqlite3_stmt *st;
	enum MHD_Result ret;

	if (!is_admin(rq))
		return reply_error(rq, 401, "write routes need 'Authorization: Bearer <admin token>'");
	body = body_json(rq, &why);
	if (!body)
		return reply_error(rq, 400, "%s", why);
	mac_in = json_string_value(json_object_get(body, "mac"));
	t.suite = json_string_value(json_object_get(body, "suite"));
	t.label = json_string_value(json_object_get(body, "label"));
	params = json_object_get(body, "params");
	if (!mac_in || norm_mac(mac_in, mac)) {
		ret = reply_error(rq, 400, "mac: expected a MAC address like 52:54:00:12:34:56");
		goto out;
	}
	if (!t.suite || !word_ok(t.suite, "_.-")) {
		ret = reply_error(rq, 400, "suite: expected a name of letters, digits, '_', '.', '-'");
		goto out;
	}
	if (params && !json_is_object(params)) {
		ret = reply_error(rq, 400, "params: expected an object of strings");
		goto out;
	}
	json_object_foreach(params, k, v) {
		char num[32];
		const char *s = json_string_value(v);

		if (json_is_integer(v)) {
			snprintf(num, sizeof(num), "%lld", (long long)json_integer_value(v));
			s = num;
		}
		if (boot_reserved_key(k, s)) {
			ret = reply_error(rq, 400, "params.%s: reserved; the daemon sets it on the boot line", k);
			goto out;
		}
		/* Keys as the payload's table spells them: lower-case only
		 * (SERVER= was accepted, issue 26). */
		if (!word_ok(k, "_") || strspn(k, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(k) ||
		    !s || !word_ok(s, "_.,:-+/")) {
			ret = reply_error(rq, 400, "params.%s: keys [a-z0-9_], values without spaces or quotes", k);
			goto out;
		}
		plen += strlen(k) + strlen(s) + 2;
	}
	if (plen > PARAMS_MAX) {
		ret = reply_error(rq, 400, "params: %zu characters; at most %d fit the payload command line (500)",
				  plen, PARAMS_MAX);
		goto out;
	}
	/* Store values as strings, so the boot script renders them as given. */
	{
		json_t *norm = json_object();

		json_object_foreach(params, k, v) {
			char num[32];

			if (json_is_integer(v)) {
				snprintf(num, sizeof(num), "%lld", (long long)json_integer_value(v));
				json_object_set_new(norm, k, json_string(num));
			} else {
				json_object_set(norm, k, v);
			}
		}
		t.params = json_dumps(norm, JSON_COMPACT | JSON_SORT_KEYS);
		json_decref(norm);
	}
	t.mac = mac;
	if (writer_call(job_fn, &t) || !t.id || !db) {
		ret = reply_error(rq, 503, "cannot queue the job now");
		goto out;
	}
	if (sqlite3_prepare_v2(db, "SELECT " JOB_COLS " FROM jobs WHERE id = ?", -1, &st, NULL)) {
		ret = reply_error(rq, 500, "query failed");
		goto out;
	}
	sqlite3_bind_int64(st, 1, t.id);
	if (sqlite3_step(st) == SQLITE_ROW)
		ret = reply_json(rq, 201, json_pack("{s:o}", "job", job_row(st)));
	else
		ret = reply_error(rq, 500, "job vanished");
	sqlite3_finalize(st);
out:
	free(t.params);
	json_decref(body);
	return ret;
}

struct del_task {
	int64_t id;
	int done;
};

static void del_fn(sqlite3 *db, void *arg)
{
	struct del_task *t = arg;
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(db, "DELETE FROM jobs WHERE id = ? AND consumed IS NULL", -1, &st, NULL))
		return;
	sqlite3_bind_int64(st, 1, t->id);
	sqlite3_step(st);
	t->done = sqlite3_changes(db) > 0;
	sqlite3_finalize(st);
}

enum MHD_Result api_job_delete(struct req *rq, int64_t id)
{
	struct del_task t = { .id = id };

	if (!is_admin(rq))
		return reply_error(rq, 401, "write routes need 'Authorization: Bearer <admin token>'");
	if (writer_call(del_fn, &t))
		return reply_error(rq, 503, "shutting down");
	if (!t.done)
		return reply_error(rq, 404, "no pending job %lld", (long long)id);
	return reply_json(rq, 200, json_pack("{s:I}", "deleted", (json_int_t)id));
}
