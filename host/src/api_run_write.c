/*
 * api_run_write.c — the run write routes, through the writer thread:
 * PATCH /api/v1/runs/{id} (label, notes, tags, meta) and POST /api/v1/runs (register a
 * token, so its frames are accepted without --open).
 */
#include <stdio.h>
#include <string.h>

#include "labels_db.h"
#include "machines_db.h"
#include "registry.h"
#include "api_runs.h"
#include "routes.h"
#include "store.h"
#include "writer.h"

struct patch_task {
	int64_t id;
	json_t *body;
	int found;
	int failed;		/* a write failed: nothing of the body is stored */
	char why[256];		/* its error */
};

/* {"run": RUN} with status, RUN read back after the write; 500 when it
 * (or its labels: run_json_for) cannot be read, not a run without them. */
static enum MHD_Result reply_run(struct req *rq, struct dbi *db, unsigned status, int64_t id)
{
	json_t *run = run_json_for(rq, db, id);

	if (!run)
		return reply_db_failed(rq, db, "the run could not be read back");
	return reply_json(rq, status, json_pack("{s:o}", "run", run));
}

/* Writer task: sets the label and/or notes the body gives, and its tags
 * and key=value fields (labels_db.h), all or none: in a savepoint, rolled
 * back to on any failed statement (t->failed). Without it a failed insert
 * left the run's tags deleted and the PATCH answered 200, and on
 * PostgreSQL the failure aborted the writer's whole batch. */
static void patch_fn(struct dbi *db, void *arg)
{
	struct patch_task *t = arg;
	static const char *const fields[] = { "label", "notes" };

	if (dbi_exec(db, "SAVEPOINT run_patch")) {
		t->failed = 1;
		return;
	}
	t->failed = labels_set(db, t->id, json_object_get(t->body, "tags"), json_object_get(t->body, "meta")) != 0;
	for (int i = 0; i < 2 && !t->failed; i++) {
		json_t *v = json_object_get(t->body, fields[i]);
		char sql[64];

		if (!v)
			continue;
		snprintf(sql, sizeof(sql), "UPDATE runs SET %s = ? WHERE id = ?", fields[i]);
		/* null (not a string) clears the field */
		if (dbi_run(db, sql, DBI_T(json_string_value(v)), DBI_I(t->id)) == DBI_OK)
			t->found |= dbi_changes(db) > 0;
		else
			t->failed = 1;
	}
	if (t->failed) {
		snprintf(t->why, sizeof(t->why), "%s", dbi_errmsg(db));
		dbi_exec(db, "ROLLBACK TO SAVEPOINT run_patch");
	}
	dbi_exec(db, "RELEASE SAVEPOINT run_patch");
}

/* PATCH /api/v1/runs/{id} {"label", "notes"}: strings or null. */
enum MHD_Result api_run_patch(struct req *rq, int64_t id)
{
	struct patch_task t = { .id = id };
	const char *why, *k;
	enum MHD_Result res;
	json_t *body, *v;
	struct dbi *db = rdb();

	body = admin_body(rq, &res);
	if (!body)
		return res;
	why = labels_check(json_object_get(body, "tags"), json_object_get(body, "meta"));
	if (why) {
		json_decref(body);
		return reply_error(rq, 400, "%s", why);
	}
	json_object_foreach(body, k, v) {
		if (strcmp(k, "tags") == 0 || strcmp(k, "meta") == 0)
			continue;	/* checked above */
		if ((strcmp(k, "label") && strcmp(k, "notes")) || !(json_is_string(v) || json_is_null(v))) {
			/* k belongs to body: reply before freeing it (fuzz_http). */
			enum MHD_Result ret = reply_error(rq, 400, "field '%s': only \"label\" and \"notes\" (strings or null), \"tags\" and \"meta\" may be changed", k);

			json_decref(body);
			return ret;
		}
		if (json_is_string(v) && strlen(json_string_value(v)) > 4096) {
			enum MHD_Result ret = reply_error(rq, 400, "field '%s' longer than 4096 bytes", k);

			json_decref(body);
			return ret;
		}
	}
	if (!run_found(rq, db, id, &res)) {
		json_decref(body);
		return res;
	}
	t.body = body;
	if (writer_call(patch_fn, &t)) {
		json_decref(body);
		return reply_error(rq, 503, "shutting down");
	}
	json_decref(body);
	if (t.failed)
		return reply_error(rq, 500, "cannot store the change (nothing of it is stored): %s", t.why);
	return reply_run(rq, db, 200, id);
}

struct create_task {
	uint64_t token;
	const char *suite, *label;
	char mac[18];                   /* "" or the machine the run is for */
	int64_t id;
	int exists;
};

/* Writer task: creates the run row of a token the registry does not know. */
static void create_fn(struct dbi *db, void *arg)
{
	struct create_task *t = arg;
	struct run *r;

	pthread_mutex_lock(&reg_lock);
	r = reg_find(t->token);
	pthread_mutex_unlock(&reg_lock);
	if (r) {
		t->exists = 1;
		return;
	}
	/* Registered by the caller once committed (a failed commit must
	 * leave the registry as it was). */
	t->id = store_create_run(db, t->token, t->mac[0] ? machine_ensure(db, t->mac, now_s()) : 0, 0,
				 t->suite, NULL, t->label);
}

/* POST /api/v1/runs {"token", "suite", "label", "mac"}: registers a run (of
 * the machine with that MAC, e.g. a serial capture from a lab machine). */
enum MHD_Result api_run_create(struct req *rq)
{
	struct create_task t = { 0 };
	const char *why, *tok;
	json_t *body;
	struct dbi *db = rdb();

	if (!is_admin(rq))
		return reply_error(rq, 401, "write routes need 'Authorization: Bearer <admin token>'");
	body = rq->body.len ? body_json(rq, &why) : json_object();
	if (!body)
		return reply_error(rq, 400, "%s", why);
	/* Known fields must be strings (or null): a silently ignored {"label": 1}
	 * would create a run without the label its caller thinks it gave. */
	{
		static const char *const fields[] = { "token", "suite", "label", "mac" };
		for (unsigned i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
			json_t *v = json_object_get(body, fields[i]);
			if (v && !json_is_string(v) && !json_is_null(v)) {
				json_decref(body);
				return reply_error(rq, 400, "field '%s': expected a string", fields[i]);
			}
		}
	}
	tok = json_string_value(json_object_get(body, "token"));
	t.suite = json_string_value(json_object_get(body, "suite"));
	t.label = json_string_value(json_object_get(body, "label"));
	if (tok && (parse_hex64(tok, &t.token) || t.token == 0)) {
		/* tok belongs to body: reply before freeing it (fuzz_http). */
		enum MHD_Result ret = reply_error(rq, 400, "token: expected 1 to 16 hex digits (not all zero), not '%s'", tok);

		json_decref(body);
		return ret;
	}
	/* The suite as a job's (api_jobs.c): a name, not any text (issue 26). */
	if (t.suite && (!t.suite[0] || strlen(t.suite) > 64 ||
			strspn(t.suite, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") !=
				strlen(t.suite))) {
		json_decref(body);
		return reply_error(rq, 400, "suite: expected a name of letters, digits, '_', '.', '-' (1..64)");
	}
	if (json_is_string(json_object_get(body, "mac")) &&
	    norm_mac(json_string_value(json_object_get(body, "mac")), t.mac)) {
		json_decref(body);
		return reply_error(rq, 400, "mac: expected a MAC address (aa:bb:cc:dd:ee:ff)");
	}
	if (!tok)
		t.token = fresh_token();
	if (writer_call(create_fn, &t)) {
		json_decref(body);
		return reply_error(rq, 503, "cannot store the run now (see /api/v1/health)");
	}
	json_decref(body);
	if (t.id) {
		pthread_mutex_lock(&reg_lock);
		reg_add(t.token, t.id);
		pthread_mutex_unlock(&reg_lock);
	}
	if (t.exists)
		return reply_error(rq, 409, "a run with token %016llx exists", (unsigned long long)t.token);
	if (!t.id || !db)
		return reply_error(rq, 500, "cannot create the run");
	return reply_run(rq, db, 201, t.id);
}
