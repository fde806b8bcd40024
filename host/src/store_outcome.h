/*
 * store_outcome.h — what the store answers for one frame: store_frame's
 * result (store.h, for the writer) and each frame handler's (store.c,
 * store_results.c, store_limits.c), one set of codes defined once here so
 * that a handler need not include the store's API to answer.
 */
#ifndef XCB_STORE_OUTCOME_H
#define XCB_STORE_OUTCOME_H

/* 1 stored, 0 duplicate, -1 error (the database failed), and the refusals:
 * nothing of the frame is written. */
enum store_outcome {
	STORE_REFUSED = -2,  /* the frame would change a stored row, or the run is finished */
	STORE_LIMIT = -3,    /* past a per-run limit (run_limits.h; counted in the run) */
	STORE_NO_CASE = -4,  /* a RESULT/HISTO/SAMPLES before its case's CASE (resent later) */
};

#endif
