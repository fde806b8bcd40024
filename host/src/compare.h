/* compare.h — comparing two runs or two algorithms (compare.c, host/API.md). */
#ifndef XCB_COMPARE_H
#define XCB_COMPARE_H

#include <jansson.h>
#include "dbi.h"
#include <stdint.h>

/* Fewest repetitions per side for an interval (bootstrap); below it a
 * comparison says "too few repetitions for an interval" (method too_few_reps). */
#define COMPARE_MIN_REPS 5

/* The "cases", "unmatched_*", "pivots", "algo_*", "confidence" members of
 * the compare response. fa/fb: algorithm filters (NULL: none). */
json_t *compare_runs(struct dbi *db, int64_t ra, int64_t rb, const char *fa, const char *fb);

#endif
