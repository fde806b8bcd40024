/*
 * http.h — the HTTP server (http.c) and what every route file shares: the
 * request, reply helpers, query parsing, the admin check (http_reply.c),
 * request guards (http_guard.c, http_limits.c).
 * The route handlers are in routes.h, streamed CSV in csvstream.h.
 */
#ifndef XCB_HTTP_H
#define XCB_HTTP_H

#include <jansson.h>
#include <microhttpd.h>
#include "dbi.h"
#include <stdint.h>

#include "util.h"

#define BODY_MAX (64 * 1024)

struct req {
	struct MHD_Connection *conn;
	const char *method, *url;
	struct buf body;
	int too_big;
};

/* Starts libmicrohttpd on cfg.listen: 0 or -1. */
int http_start(void);
void http_stop(void);

enum MHD_Result reply_json(struct req *rq, unsigned status, json_t *obj); /* steals obj */
enum MHD_Result reply_error(struct req *rq, unsigned status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
enum MHD_Result reply_text(struct req *rq, unsigned status, const char *ctype, const char *text);
enum MHD_Result reply_response(struct req *rq, unsigned status, struct MHD_Response *r);
/* Sends the regular file at path as ctype (200, streamed from its fd). 1 if
 * it answered (*res is the result), 0 if path is no readable regular file:
 * the caller replies with its own 404, which names what is missing. */
int reply_file(struct req *rq, const char *path, const char *ctype, enum MHD_Result *res);
/* A query argument, NULL when absent or empty. */
const char *qarg(struct req *rq, const char *name);
/* 1 if this request may write (admin token or --open); else 0 and the
 * caller must return reply_error(401). */
int is_admin(struct req *rq);
/* http_guard.c: 1 if the Host header names this daemon. */
/* MHD_OPTION_UNESCAPE_CALLBACK: %XX decoding that keeps %00 (http_guard.c). */
size_t http_unescape(void *cls, struct MHD_Connection *c, char *s);
int host_allowed(const char *host);
/* NULL if this write request may go on; else the reason and *status. */
const char *write_refused(struct req *rq, unsigned *status);
/* http_limits.c: whole-request deadlines (see there). */
void http_limits_notify(void *cls, struct MHD_Connection *c, void **ctx,
			enum MHD_ConnectionNotificationCode code);
void http_limits_answered(struct MHD_Connection *c);     /* a response is queued */
void http_limits_request_done(struct MHD_Connection *c); /* the next request begins */
unsigned long long http_limits_cut(void);                /* connections cut so far */
int http_limits_start(void);
void http_limits_stop(void);
/* Parses the JSON body as an object; NULL (and *why set) if it is not. */
json_t *body_json(struct req *rq, const char **why);
/* A database for this thread, or NULL (then reply 503). */
struct dbi *rdb(void);
/* A positive decimal id: 0, or -1. */
int parse_id(const char *s, int64_t *id);
/* The per-run routes' common start (api_runs.c): 1 if the database is up
 * and the run exists; else 0 with the 503 or 404 answer queued in *res. */
int run_found(struct req *rq, struct dbi *db, int64_t id, enum MHD_Result *res);
/* The RUN object of id as rq may see it (its token for admins), or NULL. */
json_t *run_json_for(struct req *rq, struct dbi *db, int64_t id);

#endif
