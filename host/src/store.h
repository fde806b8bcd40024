/*
 * store.h — applies one frame to the database (store.c; writer thread only).
 */
#ifndef XCB_STORE_H
#define XCB_STORE_H

#include "dbi.h"
#include <stdint.h>

#include "store_outcome.h"
#include "xcb_proto.h"

/* Readies the store on the writer's connection (its statements): 0 or -1;
 * store_close lets them go. */
int store_open(struct dbi *db);
void store_close(void);
/* Returns 1 stored, 0 duplicate, -1 error (the database failed), or a
 * refusal (store_outcome.h: STORE_REFUSED, STORE_LIMIT, STORE_NO_CASE).
 * Creates the run row if id == 0. */
int store_frame(struct dbi *db, int64_t *run_id, uint64_t token, const struct xcb_hdr *h,
		const uint8_t *payload, const char *peer);
/* 1: store_frame may take its fast path (the writer's batches, which
 * dbi_sync and redo the careful way on a wrong prediction); 0 (the
 * default): every frame the careful way, each check a query. */
void store_fast(int on);
/* Something other than store_frame may have changed runs (an HTTP task, a
 * rolled-back batch): what the store keeps of them is read again. */
void store_runs_forget_all(void);
/* Writes what the frames stored since the last call changed in their runs
 * (store_touch.c): the writer calls it before each task and before COMMIT.
 * 0, or -1 (the batch must be rolled back). */
int store_flush(void);
/* Forgets them instead (the batch was rolled back). */
void store_touch_discard(void);
/* Marks the runs silent for lost_after seconds as lost; those that never
 * sent a frame expire (their token takes nothing more). 1 when a run
 * changed (one may now need its page rendered: runrender.h), else 0. */
int store_mark_lost(struct dbi *db, int lost_after);
/* Inserts a pending run; its id, or 0. */
int64_t store_create_run(struct dbi *db, uint64_t token, int64_t machine_id, int64_t job_id,
			 const char *suite, const char *params, const char *label);

/* Counts a refusal by per-run limit which (run_limits.h) in run id and says
 * so once in its events (writer thread; the console upload uses it). */
int store_note_limit(struct dbi *db, int64_t id, int which);

#endif
