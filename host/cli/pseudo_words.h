/*
 * pseudo_words.h — what the CLI calls a sync case's pseudo-initiator rows
 * (proto XCB_INIT_W_*, XCB_INIT_R_BATCH, named by xcb_initiator_name): show's
 * labels and compare's measure, one table for both, so a row is never
 * called one thing in show and another in compare.
 */
#ifndef XCB_CLI_PSEUDO_WORDS_H
#define XCB_CLI_PSEUDO_WORDS_H

#include <stddef.h>

struct pseudo_words {
	const char *name;	/* proto's: "writer_hold", ... */
	const char *label;	/* show's line: "writer's lock hold" */
	const char *measure;	/* compare's title: "the writer's median write-lock hold" */
};

extern const struct pseudo_words pseudo_words[];
extern const size_t pseudo_words_n;

/* The entry of `name`, or NULL (a CPU, "all", or a name this CLI predates). */
const struct pseudo_words *pseudo_words_of(const char *name);

#endif
