/*
 * http.h — what the route files (api_*.c, boot.c, static.c) share: the
 * request, reply helpers, query parsing, admin check, and the RUN summary.
 */
#ifndef XCB_HTTP_H
#define XCB_HTTP_H

#include <jansson.h>
#include <microhttpd.h>
#include <sqlite3.h>

#include "util.h"

#define BODY_MAX (64 * 1024)

struct req {
	struct MHD_Connection *conn;
	const char *method, *url;
	struct buf body;
	int too_big;
};

enum MHD_Result reply_json(struct req *rq, unsigned status, json_t *obj); /* steals obj */
enum MHD_Result reply_error(struct req *rq, unsigned status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
enum MHD_Result reply_text(struct req *rq, unsigned status, const char *ctype, const char *text);
enum MHD_Result reply_response(struct req *rq, unsigned status, struct MHD_Response *r);
const char *qarg(struct req *rq, const char *name);
/* 1 if this request may write (admin token or --open); else 0 and the
 * caller must return reply_error(401). */
int is_admin(struct req *rq);
/* http_guard.c: 1 if the Host header names this daemon. */
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
sqlite3 *rdb(void);

/* Shared JSON builders (api_runs.c). */
json_t *run_json(sqlite3 *db, int64_t id);        /* NULL if no such run */
/* The per-run routes' common start: 1 if the database is up and the run
 * exists; else 0 with the 503 or 404 answer queued in *res to return. */
int run_found(struct req *rq, sqlite3 *db, int64_t id, enum MHD_Result *res);
json_t *iso_or_null(sqlite3_stmt *st, int col);
json_t *col_json(sqlite3_stmt *st, int col);      /* int/real/text/null */
int parse_id(const char *s, int64_t *id);
uint64_t fresh_token(void);                       /* random, never 0 */
/* A case's histogram as parallel arrays (rep/init -1 = all, merged). */
int load_histogram(sqlite3 *db, int64_t run, int64_t cid, int rep, int init,
		   uint32_t **idx, uint64_t **cnt, size_t *n);

/* Routes. seg[] are the path segments after /api/v1/. */
enum MHD_Result api_health(struct req *rq);
enum MHD_Result api_machines(struct req *rq);
enum MHD_Result api_runs(struct req *rq);
enum MHD_Result api_runs_csv(struct req *rq);
enum MHD_Result api_run_create(struct req *rq);
enum MHD_Result api_run(struct req *rq, int64_t id);
enum MHD_Result api_run_patch(struct req *rq, int64_t id);
enum MHD_Result api_run_csv(struct req *rq, int64_t id);
enum MHD_Result api_run_events(struct req *rq, int64_t id);
enum MHD_Result api_run_console(struct req *rq, int64_t id);
enum MHD_Result api_histogram(struct req *rq, int64_t id, int64_t case_id);
enum MHD_Result api_compare(struct req *rq, int csv);
enum MHD_Result api_schema(struct req *rq);             /* api_schema.c */
enum MHD_Result api_jobs(struct req *rq);
enum MHD_Result api_job_create(struct req *rq);
enum MHD_Result api_job_delete(struct req *rq, int64_t id);
enum MHD_Result boot_ipxe(struct req *rq);
/* 1 for the kernel-line keys the daemon itself sets (server=, run=, ...):
 * the payload takes the last of a repeated key, so a job must not set them
 * (v: the value; transport=both is allowed, it still reports to us). */
int boot_reserved_key(const char *k, const char *v);
enum MHD_Result boot_firmware(struct req *rq);
enum MHD_Result boot_firmware_efi(struct req *rq);
enum MHD_Result static_file(struct req *rq);

/* csvstream.c: streamed CSV responses. A row callback appends one record
 * per statement row; the response pulls rows as the client reads, each
 * block of rows in its own short read transaction (keyset paging). */
typedef void (*csv_row_fn)(sqlite3_stmt *st, struct buf *out, void *ctx);
#define CSV_KEYS_MAX 4
struct csv_query {
	sqlite3 *db;            /* this thread's read-only connection */
	const char *sql;        /* one %s: where the resume predicate goes ("1" at first) */
	const char *resume;     /* rows after the last one sent, over :k1..:kN */
	int nkeys, keycol[CSV_KEYS_MAX]; /* result columns holding the unique ORDER BY key */
	void (*bind)(sqlite3_stmt *st, void *bind_ctx); /* the query's own parameters */
	void *bind_ctx;
	void (*bind_free)(void *);
	int64_t limit, offset;  /* the export's :limit (-1 all) and :offset */
};
/* NULL if the query does not prepare (q's and ctx's free functions are
 * called in every case once the stream is done with them). */
struct MHD_Response *csv_stream(const struct csv_query *q, const char *header, csv_row_fn fn,
				void *ctx, void (*ctx_free)(void *));
struct MHD_Response *csv_buffer(struct buf *all); /* takes ownership of all */

#endif
