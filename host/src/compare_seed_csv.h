/* compare_seed_csv.h — the seed table (a compare answer's pivots) as CSV:
 * GET /api/v1/compare.csv?format=seed, `xcbench compare --format seed --csv`
 * (compare_seed_csv.c, host/API.md). */
#ifndef XCB_COMPARE_SEED_CSV_H
#define XCB_COMPARE_SEED_CSV_H

#include <jansson.h>

#include "util.h"

/* One row per row of each pivot table of answer o (compare_runs' with
 * api_compare's members), with a header. */
struct buf compare_seed_csv(json_t *o);

#endif
