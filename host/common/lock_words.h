/*
 * lock_words.h — what a case's lock profile counts (the acquisitions, holds
 * and waits of which calls), by the case's kind and method: one table for
 * `xcbench show`'s lock profile line and, through GET /api/v1/schema's
 * `lock_counts`, the run page's lock table, so the two never say different
 * things about the same figures. The first entry that fits a case applies.
 */
#ifndef XCB_LOCK_WORDS_H
#define XCB_LOCK_WORDS_H

#include <stddef.h>

struct lock_words {
	const char *kind;	  /* the case kind it is for; NULL: any */
	const char *not_method;	  /* unless the case's method is this; NULL: any method */
	const char *counts;	  /* "timed calls only", ... */
};

extern const struct lock_words lock_words[];
extern const size_t lock_words_n;

/* The words of a case of kind and method (either may be NULL). */
const char *lock_words_for(const char *kind, const char *method);

#endif
