/*
 * runcounts.h — a per-thread cache of each run's case counts (cases
 * stored, and of those with a RESULT), the one costly part of a run row:
 * counting them is a probe of the results per case (48,000 probes for
 * runs?limit=1000, most of its 80-300 ms), and they change only when the
 * run stores a frame.
 */
#ifndef XCB_RUNCOUNTS_H
#define XCB_RUNCOUNTS_H

#include <stdint.h>

/* The counts of run id, valid while it has this token and this many
 * frames received (every stored frame counts in the same transaction as
 * its rows: store_sql.c's S_TOUCH). 1 with *cases and *done, or 0. */
int runcounts_get(int64_t id, const char *token, int64_t frames, int64_t *cases, int64_t *done);
void runcounts_put(int64_t id, const char *token, int64_t frames, int64_t cases, int64_t done);

#endif
