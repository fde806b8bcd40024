/*
 * runs_filter.h — the run list's query parameters (runs_filter.c), shared by
 * GET /api/v1/runs and /api/v1/runs.csv.
 */
#ifndef XCB_RUNS_FILTER_H
#define XCB_RUNS_FILTER_H

#include "http_reply.h"
#include "runs_db.h"

/* Fills f from rq's query (machine, status, suite, label, since, token,
 * limit, offset); NULL, or what is wrong (the 400 message). The strings of
 * f point into rq. */
const char *run_filters_parse(struct req *rq, struct run_filters *f);
/* The filters checked against the store: a lab that is none of its labs
 * (labs_filter_unknown). 0, or 1 with *res the answer given (400 saying
 * why, 500 when the store could not be asked). */
int run_filters_refused(struct req *rq, struct dbi *db, const struct run_filters *f, enum MHD_Result *res);

#endif
