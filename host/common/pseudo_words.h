/*
 * pseudo_words.h — what a sync case's pseudo-initiator rows are called
 * (proto XCB_INIT_W_*, XCB_INIT_R_BATCH, named by xcb_initiator_name), and
 * compare's lock_hold row: show's labels and compare's measure, one table
 * for the CLI and, through GET /api/v1/schema's `sync_rows` and
 * `lock_row`, the dashboard, so a row is never called one thing in one
 * view and another in the next.
 */
#ifndef XCB_PSEUDO_WORDS_H
#define XCB_PSEUDO_WORDS_H

#include <stddef.h>

struct pseudo_words {
	const char *name;	/* proto's: "writer_hold", ... */
	const char *label;	/* show's line: "writer's lock hold" */
	const char *measure;	/* compare's title: "the writer's median write-lock hold" */
	/* what one repetition gives the case, whose median is compared
	 * (compare's column heads and method: "A p50 ns", "each boot's
	 * median p50"): "p50" for a RESULT row, "hold" for lock_hold */
	const char *figure;
};

extern const struct pseudo_words pseudo_words[];
/* A sync case's all row ("all"): its every initiator, the readers' wait per
 * single read acquisition, what compare compares without --row. */
extern const struct pseudo_words pseudo_words_all;
extern const size_t pseudo_words_n;
/* compare's row lock_hold: not a RESULT row but a figure of the all rows,
 * each repetition's hold per acquisition of the case's lock (host/src
 * casestats.h lock_hold_reps), for every case with a lock profile (seed
 * 001's "average lock time"). */
extern const struct pseudo_words pseudo_words_lock_hold;

/* Any other case's all row (cross-call, TLB, raw): its every initiator's
 * call time, what compare compares it by without --row. */
extern const struct pseudo_words pseudo_words_call;

/* The entry of `name` (a pseudo-initiator's or lock_hold), or NULL (a CPU,
 * "all", or a name this build predates). */
const struct pseudo_words *pseudo_words_of(const char *name);

#endif
