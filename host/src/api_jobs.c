/*
 * api_jobs.c — queued boot requests: POST /api/v1/jobs (a suite for a MAC),
 * GET /api/v1/jobs, DELETE /api/v1/jobs/{id}. /boot.ipxe consumes them;
 * job_runner.c drives their lifecycle (api_machines.c: one job, cancel).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "labels_db.h"
#include "payload_keys.h"
#include "job_runner.h"
#include "jobs_db.h"
#include "labs_db.h"
#include "routes.h"
#include "sqljson.h"
#include "writer.h"
#include "xcb_schema.h"

/* The payload command line without params is at most ~330 characters (a
 * 64-character host, twice); params must fit in what is left under 500. */
#define PARAMS_MAX 160
/* One key or value of them, at most. */
#define PARAM_WORD_MAX 64

/* A job row's columns, in the order of JOB_COLS; the lifecycle's follow
 * from JC_LIFE on, then its machine's lab (a job has none of its own: the
 * lab whose daemon runs it is its machine's, and moves with it). */
enum { JC_ID, JC_MAC, JC_SUITE, JC_PARAMS, JC_LABEL, JC_CREATED, JC_CONSUMED, JC_RUN_ID, JC_TAGS, JC_META,
       JC_LIFE, JC_LAB = JC_LIFE + LIFE_NCOLS };
#define JOB_LAB "(SELECT m.lab FROM machines m WHERE m.mac = jobs.mac)"
#define JOB_COLS "id, mac, suite, params, label, created, consumed, run_id, tags, meta, " JOBS_DB_LIFE_COLS ", " JOB_LAB

/* Column col's JSON text parsed, or NULL (SQL NULL, or not JSON). */
static json_t *col_parsed(struct dbi_stmt *st, int col)
{
	const char *s = dbi_column_text(st, col);

	return s ? json_loads(s, 0, NULL) : NULL;
}

/* A job as the API shows it, from a row of JOB_COLS. */
static json_t *job_row(struct dbi_stmt *st)
{
	json_t *params = col_parsed(st, JC_PARAMS);
	json_t *o = json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
		"id", (json_int_t)dbi_column_i64(st, JC_ID), "mac", col_json(st, JC_MAC),
		"suite", col_json(st, JC_SUITE), "params", params ? params : json_object(),
		"label", col_json(st, JC_LABEL), "created", iso_or_null(st, JC_CREATED),
		"consumed", iso_or_null(st, JC_CONSUMED), "run_id", col_json(st, JC_RUN_ID));
	/* issue 25: the tags and key=value fields its run will carry */
	json_t *tags = col_parsed(st, JC_TAGS);
	json_t *meta = col_parsed(st, JC_META);

	json_object_set_new(o, "tags", tags ? tags : json_array());
	json_object_set_new(o, "meta", meta ? meta : json_object());
	jobs_db_life_add(o, st, JC_LIFE); /* the lifecycle (jobs_db.h) */
	json_object_set_new(o, "lab", col_json(st, JC_LAB));
	return o;
}

enum MHD_Result api_jobs(struct req *rq)
{
	const char *m = qarg(rq, "mac"), *pending = qarg(rq, "pending"), *lab = qarg(rq, "lab");
	struct dbi *db = rdb();
	struct dbi_stmt *st;
	char mac[18];
	json_t *arr;
	int step;

	if (m && norm_mac(m, mac))
		return reply_error(rq, 400, "mac: '%s' is not a MAC address", m);
	if (!db)
		return reply_error(rq, 503, "database unavailable");
	if (dbi_query(db, "SELECT " JOB_COLS " FROM jobs WHERE (CAST(?1 AS TEXT) IS NULL OR mac = ?1) "
			  "AND (CAST(?2 AS BIGINT) IS NULL OR (consumed IS NULL AND stage IN ('queued', 'powering_on', 'booting', 'running'))) "
			  "AND (CAST(?3 AS TEXT) IS NULL OR " JOB_LAB " = ?3) "
			  "ORDER BY id DESC LIMIT 1000", &st,
		      DBI_T(m ? mac : NULL), pending && strcmp(pending, "0") ? DBI_I(1) : DBI_NUL, DBI_T(lab)))
		return reply_db_failed(rq, db, NULL);
	arr = json_array();
	while ((step = dbi_step(st)) == DBI_ROW)
		json_array_append_new(arr, job_row(st));
	dbi_finalize(st);
	return reply_list(rq, db, step, "jobs", arr);
}

struct job_task {
	const char *mac, *suite, *label;
	char *params, *tags, *meta;     /* JSON texts (labels_db.h), NULL: none */
	struct job_policy policy;
	int64_t id;
	char other_lab[40];             /* the MAC is that lab's (--lab): refused */
};

/* The job row, on the writer's connection: t->id its id, 0 if not stored. */
static void job_fn(struct dbi *db, void *arg)
{
	struct job_task *t = arg;

	/* Another lab's machine boots from its own lab's daemon, which alone
	 * runs its jobs: queued here, a job would wait there unseen (or, before
	 * the runner kept to its lab, be powered on by both). */
	if (lab_machine_elsewhere(db, t->mac, t->other_lab, sizeof(t->other_lab)))
		return;
	if (dbi_run(db, "INSERT INTO jobs(mac, suite, params, label, created, tags, meta) "
		    "VALUES (?, ?, ?, ?, ?, COALESCE(?, '[]'), COALESCE(?, '{}'))", DBI_T(t->mac), DBI_T(t->suite),
		    DBI_T(t->params), DBI_T(t->label), DBI_I(now_s()), DBI_T(t->tags), DBI_T(t->meta)) == DBI_OK)
		t->id = jobs_db_new_id(db, dbi_last_id(db));
	if (t->id)
		jobs_db_policy_store(db, t->id, &t->policy);
}

/* A params value as the payload's command line spells it (an integer as
 * its digits) into num; NULL when it is neither a string nor an integer. */
static const char *param_text(json_t *v, char *num, size_t n)
{
	if (json_is_integer(v)) {
		snprintf(num, n, "%lld", (long long)json_integer_value(v));
		return num;
	}
	return json_string_value(v);
}

/* algos=: against the algorithms of the images this daemon serves (the
 * build's list beside them, payload_keys.h): only the payload knew them,
 * so a typo booted a machine for minutes. No list, or one for other
 * images (--firmware pointed elsewhere): nothing refused. */
static int algos_check(const char *value, char *why, size_t n)
{
	char paths[4][4096];
	const char *images[5];
	size_t i;

	for (i = 0; i < 4 && boot_image_path(i, paths[i], sizeof(paths[i])) == 0; i++)
		images[i] = paths[i];
	images[i] = NULL;
	return payload_algos_check(images, value, why, n);
}

/* The job's params, checked for the boot line: 0, or -1 with why. */
static int params_check(json_t *params, char *why, size_t n)
{
	size_t plen = 0;
	const char *k;
	json_t *v;

	if (params && !json_is_object(params)) {
		snprintf(why, n, "params: expected an object of strings");
		return -1;
	}
	json_object_foreach(params, k, v) {
		char num[32];
		const char *s = param_text(v, num, sizeof(num));

		if (boot_reserved_key(k, s)) {
			snprintf(why, n, "params.%s: reserved; the daemon sets it on the boot line", k);
			return -1;
		}
		/* Keys as the payload's table spells them: lower-case only
		 * (SERVER= was accepted, issue 26). */
		if (!text_is_word(k, "_", PARAM_WORD_MAX) ||
		    strspn(k, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(k) || !s ||
		    !text_is_word(s, "_.,:-+/", PARAM_WORD_MAX)) {
			/* The length said apart: algos=a,b,c past it read as a
			 * value with a space or a quote in it. */
			if (s && strlen(s) > PARAM_WORD_MAX && text_is_word(k, "_", PARAM_WORD_MAX))
				snprintf(why, n, "params.%s: %zu characters; a value has at most %d", k, strlen(s),
					 PARAM_WORD_MAX);
			else
				snprintf(why, n, "params.%s: keys [a-z0-9_], values without spaces or quotes", k);
			return -1;
		}
		plen += strlen(k) + strlen(s) + 2;
	}
	if (plen > PARAMS_MAX) {
		snprintf(why, n, "params: %zu characters; at most %d fit the payload command line (500)", plen, PARAMS_MAX);
		return -1;
	}
	/* Keys the payload knows, vocabulary words it takes: it only warns of
	 * an unknown key, so a typo booted a machine into its default suite.
	 * After the checks above, whose answers name the shape. */
	json_object_foreach(params, k, v) {
		char num[32], bad[400];

		if (payload_key_check(k, param_text(v, num, sizeof(num)), bad, sizeof(bad)) ||
		    (strcmp(k, "algos") == 0 && algos_check(param_text(v, num, sizeof(num)), bad, sizeof(bad)))) {
			snprintf(why, n, "params: %s", bad);
			return -1;
		}
	}
	return 0;
}

/* The checked params as stored: every value a string, so the boot script
 * renders them as given (JSON text, for the caller to free). */
static char *params_stored(json_t *params)
{
	json_t *norm = json_object(), *v;
	const char *k;
	char *out;

	json_object_foreach(params, k, v) {
		char num[32];

		json_object_set_new(norm, k, json_string(param_text(v, num, sizeof(num))));
	}
	out = json_dumps(norm, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(norm);
	return out;
}

/* POST /api/v1/jobs's body into t (mac into mac, 18 bytes): 0, or -1 with
 * why (a 400's message). */
static int job_from_body(json_t *body, struct job_task *t, char *mac, char *why, size_t n)
{
	const char *mac_in = json_string_value(json_object_get(body, "mac")), *lw;
	json_t *params = json_object_get(body, "params");

	t->suite = json_string_value(json_object_get(body, "suite"));
	t->label = json_string_value(json_object_get(body, "label"));
	if (!mac_in || norm_mac(mac_in, mac)) {
		snprintf(why, n, "mac: expected a MAC address like 52:54:00:12:34:56");
		return -1;
	}
	/* A suite the payload lacks would boot the machine into "unknown
	 * suite": said now, to whoever queued it. */
	if (!t->suite || XCB_PARSE(suite, t->suite) < 0) {
		struct buf names = { 0 };

		buf_add_words(&names, xcb_suite_names, XCB_N_suite, ", ");
		snprintf(why, n, "suite: expected one of %s", names.p);
		buf_free(&names);
		return -1;
	}
	if (jobs_db_policy_parse(body, &t->policy, why, n) || params_check(params, why, n))
		return -1;
	/* issue 25: the tags and key=value fields the run will carry */
	lw = labels_check(json_object_get(body, "tags"), json_object_get(body, "meta"));
	if (lw) {
		snprintf(why, n, "%s", lw);
		return -1;
	}
	t->params = params_stored(params);
	if (json_object_get(body, "tags"))
		t->tags = json_dumps(json_object_get(body, "tags"), JSON_COMPACT);
	if (json_object_get(body, "meta"))
		t->meta = json_dumps(json_object_get(body, "meta"), JSON_COMPACT);
	t->mac = mac;
	return 0;
}

/* 201 with job id as GET /api/v1/jobs/{id} shows it. */
static enum MHD_Result reply_new_job(struct req *rq, struct dbi *db, int64_t id)
{
	struct dbi_stmt *st;
	enum MHD_Result ret;
	int rc = dbi_row(db, "SELECT " JOB_COLS " FROM jobs WHERE id = ?", &st, DBI_I(id));

	if (rc == DBI_ROW)
		ret = reply_json(rq, 201, json_pack("{s:o}", "job", job_row(st)));
	else
		ret = reply_error(rq, 500, rc == DBI_DONE ? "job vanished" : "query failed");
	dbi_finalize(st);
	return ret;
}

enum MHD_Result api_job_create(struct req *rq)
{
	struct job_task t = { 0 };
	json_t *body;
	char mac[18], bad[512];
	struct dbi *db = rdb();
	enum MHD_Result ret;

	body = admin_body(rq, &ret);
	if (!body)
		return ret;
	if (job_from_body(body, &t, mac, bad, sizeof(bad))) {
		ret = reply_error(rq, 400, "%s", bad);
	} else if (writer_call(job_fn, &t) == 0 && t.other_lab[0]) {
		ret = reply_error(rq, 409, "machine %s belongs to lab '%s': queue its jobs on that lab's daemon", mac,
				  t.other_lab);
	} else if (!t.id || !db) {
		ret = reply_write_failed(rq, "cannot queue the job now");
	} else {
		ret = reply_new_job(rq, db, t.id);
		job_runner_kick(); /* after the answer's read: it shows the job as queued */
	}
	free(t.params);
	free(t.tags);
	free(t.meta);
	json_decref(body);
	return ret;
}

struct del_task {
	int64_t id;
	int done;                /* it was there, and is deleted */
	int failed;              /* it was there, and could not be deleted */
	char stage[24];          /* not done: its stage ("": no such job) */
};

/* Deletes a job no boot has taken yet. The delete and its forgetting (the
 * id's floor) stand or fall together, in a savepoint: a job deleted without
 * its floor would hand its id to the next job. */
static void del_fn(struct dbi *db, void *arg)
{
	struct del_task *t = arg;

	if (dbi_exec(db, "SAVEPOINT job_delete")) {
		t->failed = 1;
		return;
	}
	/* Only a job still queued: an ended one keeps its history (its
	 * events, the run it made), and one a daemon is working, or was told
	 * to cancel (cross-lab: another daemon's runner still has its end
	 * action to do), is cancelled, not deleted. "Not powering, booting or
	 * running" let ended and cancelled jobs go, and a machine a cancelled
	 * job had powered on was never switched off. */
	t->done = dbi_run(db, "DELETE FROM jobs WHERE id = ? AND consumed IS NULL AND stage = 'queued' "
			  "AND ended IS NULL", DBI_I(t->id)) == DBI_OK &&
		  dbi_changes(db) > 0;
	if (!t->done) {
		struct dbi_stmt *st;

		if (dbi_row(db, "SELECT stage FROM jobs WHERE id = ?", &st, DBI_I(t->id)) == DBI_ROW)
			snprintf(t->stage, sizeof(t->stage), "%s", dbi_column_text(st, 0) ?: "?");
		dbi_finalize(st);
	}
	if (t->done && jobs_db_forget(db, t->id)) {
		dbi_exec(db, "ROLLBACK TO SAVEPOINT job_delete");
		t->done = 0;
		t->failed = 1;
	}
	dbi_exec(db, "RELEASE SAVEPOINT job_delete");
}

enum MHD_Result api_job_delete(struct req *rq, int64_t id)
{
	struct del_task t = { .id = id };

	if (!is_admin(rq))
		return reply_error(rq, 401, "write routes need 'Authorization: Bearer <admin token>'");
	if (writer_call(del_fn, &t))
		return reply_error(rq, 503, "shutting down");
	if (t.failed)
		return reply_error(rq, 503, "cannot delete the job now (the store failed; it is kept)");
	if (!t.done && t.stage[0])
		return reply_error(rq, 409, "job %lld is %s: only a queued job is deleted (an ended job keeps its "
				   "history; one under way: POST /api/v1/jobs/%lld/cancel)", (long long)id, t.stage,
				   (long long)id);
	if (!t.done)
		return reply_error(rq, 404, "no job %lld", (long long)id);
	return reply_json(rq, 200, json_pack("{s:I}", "deleted", (json_int_t)id));
}
