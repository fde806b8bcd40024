/*
 * api_job_bind.c — POST /api/v1/jobs/{id}/requeue (write route): a job
 * consumed by the wrong boot (a stranger's, or a run that failed) is pending
 * again; {"forget_address": true} also forgets the machine's known boot
 * address (bind_db.c), for a machine that moved. Issue 26.
 */
#include "bind_db.h"
#include "routes.h"
#include "writer.h"

struct requeue_task {
	int64_t id;
	int forget, rc;
};

static void requeue_fn(struct dbi *db, void *arg)
{
	struct requeue_task *t = arg;

	t->rc = bind_requeue(db, t->id, t->forget);
}

enum MHD_Result api_job_requeue(struct req *rq, int64_t id)
{
	struct requeue_task t = { .id = id };
	const char *why;
	json_t *body = NULL, *f;

	if (!is_admin(rq))
		return reply_error(rq, 401, "write routes need 'Authorization: Bearer <admin token>'");
	if (rq->body.len) {
		body = body_json(rq, &why);
		if (!body)
			return reply_error(rq, 400, "%s", why);
		f = json_object_get(body, "forget_address");
		if (f && !json_is_boolean(f)) {
			json_decref(body);
			return reply_error(rq, 400, "forget_address: expected true or false");
		}
		t.forget = json_is_true(f);
		json_decref(body);
	}
	if (writer_call(requeue_fn, &t) || t.rc < 0)
		return reply_error(rq, 503, "cannot requeue now (see /api/v1/health)");
	if (t.rc == 0)
		return reply_error(rq, 404, "no consumed job %lld (a pending one needs no requeue)", (long long)id);
	return reply_json(rq, 200, json_pack("{s:I, s:b}", "requeued", (json_int_t)id, "forgot_address", t.forget));
}
