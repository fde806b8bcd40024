/*
 * http_reply.h — what every route handler shares (http_reply.c): replies,
 * query and JSON-body parsing, the admin check, the thread's read-only
 * database, ids.
 */
#ifndef XCB_HTTP_REPLY_H
#define XCB_HTTP_REPLY_H

#include <jansson.h>
#include <microhttpd.h>
#include "dbi.h"
#include <stdint.h>

#include "http.h"

enum MHD_Result reply_json(struct req *rq, unsigned status, json_t *obj); /* steals obj */
/* {"KEY": arr}, 200, for a list read to its end (step: the read's last
 * dbi_step, DBI_DONE); a read that failed mid-way (the store's error) is
 * 500 with the error body, never 200 with the rows read before it.
 * Takes arr. */
enum MHD_Result reply_list(struct req *rq, struct dbi *db, int step, const char *key, json_t *arr);
enum MHD_Result reply_error(struct req *rq, unsigned status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A read of db that failed: 503 "database unavailable: WHY" when db has
 * lost its connection (dbi_conn_lost: a PostgreSQL server stopped or
 * restarting), else 500 "query failed: [WHAT: ]WHY" (WHY dbi_errmsg's). */
enum MHD_Result reply_db_failed(struct req *rq, struct dbi *db, const char *what);
/* A write whose writer_call failed: 503 "WHAT: REASON" with the writer's
 * reason (writer_call_failure: the store's failure, or the daemon
 * stopping), or "WHAT" alone when the call itself succeeded. */
enum MHD_Result reply_write_failed(struct req *rq, const char *what);
enum MHD_Result reply_text(struct req *rq, unsigned status, const char *ctype, const char *text);
/* reply_text of b's text, which the response takes (b is left empty): no
 * copy of a large answer (a 1000-run list is ~580 KB). */
enum MHD_Result reply_buf(struct req *rq, unsigned status, const char *ctype, struct buf *b);
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
/* Parses the JSON body as an object; NULL (and *why set) if it is not. */
json_t *body_json(struct req *rq, const char **why);
/* A write route's start: the admin check (is_admin) and the body as a JSON
 * object (body_json). The body, or NULL after replying 401 or 400 with *res
 * the reply's result, for the route to return. */
json_t *admin_body(struct req *rq, enum MHD_Result *res);
/* A database for this thread, or NULL (then reply 503). */
struct dbi *rdb(void);
/* A positive decimal id: 0, or -1. */
int parse_id(const char *s, int64_t *id);

#endif
