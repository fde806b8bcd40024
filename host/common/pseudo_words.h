/*
 * pseudo_words.h — what a sync case's pseudo-initiator rows are called
 * (proto XCB_INIT_W_*, XCB_INIT_R_BATCH, named by xcb_initiator_name): show's
 * labels and compare's measure, one table for the CLI and, through
 * GET /api/v1/schema's `sync_rows`, the dashboard, so a row is never
 * called one thing in one view and another in the next.
 */
#ifndef XCB_PSEUDO_WORDS_H
#define XCB_PSEUDO_WORDS_H

#include <stddef.h>

struct pseudo_words {
	const char *name;	/* proto's: "writer_hold", ... */
	const char *label;	/* show's line: "writer's lock hold" */
	const char *measure;	/* compare's title: "the writer's median write-lock hold" */
};

extern const struct pseudo_words pseudo_words[];
/* A sync case's all row ("all"): its every initiator, the readers' wait per
 * single read acquisition, what compare compares without --row. */
extern const struct pseudo_words pseudo_words_all;
extern const size_t pseudo_words_n;

/* The entry of `name`, or NULL (a CPU, "all", or a name this build predates). */
const struct pseudo_words *pseudo_words_of(const char *name);

#endif
