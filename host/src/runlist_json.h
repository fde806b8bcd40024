/*
 * runlist_json.h — GET /api/v1/runs's answer written straight into a
 * buffer (runlist_json.c): the bytes reply_json would give the run list
 * built as a jansson tree (run_row_json and labels_attach), in a third of
 * the time.
 */
#ifndef XCB_RUNLIST_JSON_H
#define XCB_RUNLIST_JSON_H

#include "dbi.h"
#include "runs_db.h"
#include "util.h"

/* {"runs": [RUN…], "total", "limit", "offset"} for the filters f into out,
 * each RUN with its token when with_token (an admin asks). 0, or -1 when
 * the query failed (dbi_errmsg says why). */
int runlist_json(struct dbi *db, const struct run_filters *f, int with_token, struct buf *out);

#endif
