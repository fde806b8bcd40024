/* compare.h — comparing two runs or two algorithms (compare.c, host/API.md). */
#ifndef XCB_COMPARE_H
#define XCB_COMPARE_H

#include <jansson.h>
#include <sqlite3.h>
#include <stdint.h>

/* The "cases", "unmatched_*", "pivots", "algo_*", "confidence" members of
 * the compare response. fa/fb: algorithm filters (NULL: none). */
json_t *compare_runs(sqlite3 *db, int64_t ra, int64_t rb, const char *fa, const char *fb);

#endif
