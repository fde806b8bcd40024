/*
 * http_reply.c — what a route handler uses to read its request and answer
 * it: query arguments, the JSON body, the admin check, ids, its thread's
 * database, and the replies (JSON, errors as JSON, text, any response).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db.h"
#include "http_limits.h"
#include "http_reply.h"
#include "jsontext.h"
#include "writer.h"
#include "xcbd.h"

struct dbi *rdb(void)
{
	return db_ro();
}

enum MHD_Result reply_response(struct req *rq, unsigned status, struct MHD_Response *r)
{
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	http_limits_answered(rq->conn);
	MHD_add_response_header(r, "Cache-Control", "no-store");
	/* a 405 must say what the path takes (RFC 9110 15.5.6) */
	if (status == 405 && rq->allow[0])
		MHD_add_response_header(r, "Allow", rq->allow);
	/* Every answer (issue 26): no content sniffing (a stored text must never
	 * be taken for HTML or script), no framing by another page (the runs
	 * list has an edit control: clickjacking), and the pages load only our
	 * own scripts. Chart.js sets canvas sizes through style attributes. */
	MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
	MHD_add_response_header(r, "X-Frame-Options", "DENY");
	MHD_add_response_header(r, "Content-Security-Policy",
				"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
				"img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; "
				"frame-ancestors 'none'");
	ret = MHD_queue_response(rq->conn, status, r);
	MHD_destroy_response(r);
	return ret;
}

enum MHD_Result reply_text(struct req *rq, unsigned status, const char *ctype, const char *text)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(strlen(text), (void *)text,
								 MHD_RESPMEM_MUST_COPY);

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, "Content-Type", ctype);
	return reply_response(rq, status, r);
}

enum MHD_Result reply_buf(struct req *rq, unsigned status, const char *ctype, struct buf *b)
{
	struct MHD_Response *r;

	if (!b->p)
		return reply_text(rq, status, ctype, "");
	/* b->p is malloc's (util.c's buf): MHD frees it with free() */
	r = MHD_create_response_from_buffer(b->len, b->p, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		buf_free(b);
		return MHD_NO;
	}
	memset(b, 0, sizeof(*b));
	MHD_add_response_header(r, "Content-Type", ctype);
	return reply_response(rq, status, r);
}

enum MHD_Result reply_json(struct req *rq, unsigned status, json_t *obj)
{
	struct buf b = { 0 };
	/* jansson's compact layout with reals in their shortest round-trip
	 * form (0.95, not json_dumps's 0.94999999999999996) */
	int bad = json_text(&b, obj, 0);

	json_decref(obj);
	if (bad || !b.p) {
		buf_free(&b);
		return reply_text(rq, 500, "application/json",
				  "{\"error\":\"cannot encode JSON\",\"status\":500}");
	}
	return reply_buf(rq, status, "application/json", &b);
}

enum MHD_Result reply_list(struct req *rq, struct dbi *db, int step, const char *key, json_t *arr)
{
	if (step != DBI_DONE) {
		json_decref(arr);
		return reply_db_failed(rq, db, NULL);
	}
	return reply_json(rq, 200, json_pack("{s:o}", key, arr));
}

/* The first read after a PostgreSQL server went away answered 500 with
 * libpq's text (the reader's reconnection failed), while an HTTP thread
 * that had no connection yet said 503: the store's absence is one answer,
 * 503, whichever read meets it. */
enum MHD_Result reply_write_failed(struct req *rq, const char *what)
{
	const char *why = writer_call_failure();

	return why[0] ? reply_error(rq, 503, "%s: %s", what, why) : reply_error(rq, 503, "%s", what);
}

enum MHD_Result reply_db_failed(struct req *rq, struct dbi *db, const char *what)
{
	if (dbi_conn_lost(db))
		return reply_error(rq, 503, "database unavailable: %s", dbi_errmsg(db));
	if (what)
		return reply_error(rq, 500, "query failed: %s: %s", what, dbi_errmsg(db));
	return reply_error(rq, 500, "query failed: %s", dbi_errmsg(db));
}

enum MHD_Result reply_error(struct req *rq, unsigned status, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	json_t *obj;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	obj = json_pack("{s:s, s:i}", "error", msg, "status", (int)status);
	if (!obj) {
		/* msg echoes request bytes that are not UTF-8 (jansson refuses
		 * them): mask them rather than turn a 4xx into a 500 (fuzz_http). */
		for (char *p = msg; *p; p++)
			if ((unsigned char)*p >= 0x80)
				*p = '?';
		obj = json_pack("{s:s, s:i}", "error", msg, "status", (int)status);
	}
	return reply_json(rq, status, obj);
}

const char *qarg(struct req *rq, const char *name)
{
	const char *v = MHD_lookup_connection_value(rq->conn, MHD_GET_ARGUMENT_KIND, name);

	return v && v[0] ? v : NULL;
}

int is_admin(struct req *rq)
{
	const char *auth;
	size_t n, m, diff = 0;

	if (cfg.open)
		return 1;
	if (!cfg.admin_token)
		return 0;
	auth = MHD_lookup_connection_value(rq->conn, MHD_HEADER_KIND, "Authorization");
	if (!auth || strncmp(auth, "Bearer ", 7) != 0)
		return 0;
	auth += 7;
	n = strlen(auth);
	m = strlen(cfg.admin_token);
	/* Constant-time compare: the token must not leak through timing. */
	for (size_t i = 0; i < m; i++)
		diff |= (unsigned char)(i < n ? auth[i] : 0) ^ (unsigned char)cfg.admin_token[i];
	return diff == 0 && n == m;
}

json_t *body_json(struct req *rq, const char **why)
{
	json_error_t e;
	json_t *o;

	if (!rq->body.len) {
		*why = "empty body: expected a JSON object";
		return NULL;
	}
	o = json_loadb(rq->body.p, rq->body.len, 0, &e);
	if (!json_is_object(o)) {
		json_decref(o);
		*why = "body is not a JSON object";
		return NULL;
	}
	return o;
}

json_t *admin_body(struct req *rq, enum MHD_Result *res)
{
	const char *why;
	json_t *body;

	if (!is_admin(rq)) {
		*res = reply_error(rq, 401, "write routes need 'Authorization: Bearer <admin token>'");
		return NULL;
	}
	body = body_json(rq, &why);
	if (!body)
		*res = reply_error(rq, 400, "%s", why);
	return body;
}

int parse_id(const char *s, int64_t *id)
{
	uint64_t v;

	if (parse_u64(s, &v) || v == 0 || v > INT64_MAX)
		return -1;
	*id = (int64_t)v;
	return 0;
}

int reply_file(struct req *rq, const char *path, const char *ctype, enum MHD_Result *res)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct MHD_Response *r;
	struct stat sb;

	if (fd < 0 || fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	/* libmicrohttpd owns fd from here (it closes it with the response). */
	r = MHD_create_response_from_fd((uint64_t)sb.st_size, fd);
	if (!r) {
		close(fd);
		*res = MHD_NO;
		return 1;
	}
	MHD_add_response_header(r, "Content-Type", ctype);
	*res = reply_response(rq, 200, r);
	return 1;
}
