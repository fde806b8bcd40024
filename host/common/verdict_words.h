/*
 * verdict_words.h — the payload's verdict on a run (its DONE frame's status,
 * proto XCB_DONE_*, the API's `done_status`) in words: one table for the
 * CLI (show's VERDICT line, the runs table's VERDICT column, --verdict) and
 * the daemon (the run list's `verdict` filter, GET /api/v1/schema's
 * `verdicts`, from which the dashboard marks a run's status), so that a
 * run whose checks failed is called the same everywhere — and never only
 * `complete`, which says that DONE arrived, not that the run passed.
 */
#ifndef XCB_VERDICT_WORDS_H
#define XCB_VERDICT_WORDS_H

#include <stddef.h>

/* The names, in DONE status order (the table's, and a refused filter's
 * "expected ..."). */
#define VERDICT_OK "ok"
#define VERDICT_ABORTED "aborted"
/* upper case as the payload's own `done: FAILED` line: the one word of
 * the table a reader must not skim past */
#define VERDICT_FAILED "FAILED"
#define VERDICT_NAMES VERDICT_OK ", " VERDICT_ABORTED " or " VERDICT_FAILED

struct verdict_words {
	/* the verdict in one word: the runs table's cell, the filter's value
	 * (any case), the dashboard's mark beside the status */
	const char *name;
	/* what it means, a sentence: show's and vm's VERDICT line */
	const char *says;
};

/* Indexed by the DONE status (XCB_DONE_OK ... XCB_DONE_FAILED). */
extern const struct verdict_words verdict_words[];
extern const size_t verdict_words_n;

/* The words of DONE status `status`: a status past the table (no payload
 * sends one: the collector refuses it) gets "unknown". */
const struct verdict_words *verdict_of(long long status);

/* The DONE status whose name is `name` (any case), or -1. */
int verdict_parse(const char *name);

#endif
