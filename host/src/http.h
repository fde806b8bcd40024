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
enum MHD_Result api_jobs(struct req *rq);
enum MHD_Result api_job_create(struct req *rq);
enum MHD_Result api_job_delete(struct req *rq, int64_t id);
enum MHD_Result boot_ipxe(struct req *rq);
enum MHD_Result boot_firmware(struct req *rq);
enum MHD_Result boot_firmware_efi(struct req *rq);
enum MHD_Result static_file(struct req *rq);

/* csv.c: streamed CSV responses. A row callback appends one record per
 * statement row; the response pulls rows as the client reads. */
typedef void (*csv_row_fn)(sqlite3_stmt *st, struct buf *out, void *ctx);
struct MHD_Response *csv_stream(sqlite3_stmt *st, const char *header, csv_row_fn fn,
				void *ctx, void (*ctx_free)(void *));
struct MHD_Response *csv_buffer(struct buf *all); /* takes ownership of all */

#endif
