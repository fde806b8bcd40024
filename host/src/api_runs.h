/*
 * api_runs.h — what the per-run route files share from api_runs.c.
 */
#ifndef XCB_API_RUNS_H
#define XCB_API_RUNS_H

#include <jansson.h>
#include "dbi.h"
#include <stdint.h>

#include "http_reply.h"

/* The per-run routes' common start: 1 if the database is up and the run
 * exists; else 0 with the 503 or 404 answer queued in *res. */
int run_found(struct req *rq, struct dbi *db, int64_t id, enum MHD_Result *res);

/* The answer for a run that run_get did not return (found: its 0 or -1):
 * 404 when there is no such run, 503 when the query failed. */
enum MHD_Result reply_no_run(struct req *rq, int64_t id, int found);
/* The RUN object of id as rq may see it (its token for admins), or NULL. */
json_t *run_json_for(struct req *rq, struct dbi *db, int64_t id);
/* A case's ?rep= and ?initiator= (its histogram, its samples): each -1
 * when absent or "all", else 0..65535. 0, or -1 with the 400 answer queued
 * in *res. */
int rep_init_args(struct req *rq, int *rep, int *init, enum MHD_Result *res);

#endif
