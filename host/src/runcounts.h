/*
 * runcounts.h — each run's case counts (cases stored, and of those with a
 * RESULT), the one costly part of a run row: counting is a probe of the
 * results per case (48,000 probes for runs?limit=1000), and they change
 * only when the run stores a frame. So they are cached, shared by every
 * HTTP thread, and the misses of a page are counted in one grouped
 * statement, not one statement per run (on PostgreSQL one round trip
 * each: 1000 of them made a thread's first runs?limit=1000 take seconds).
 */
#ifndef XCB_RUNCOUNTS_H
#define XCB_RUNCOUNTS_H

#include <stddef.h>

#include "runs_db.h"

/* Fills rows[i].cases and .cases_done of n runs read from db: from the
 * cache where the run still has the token and frames_received it was
 * counted with (every stored frame counts in the same transaction as its
 * rows: store_sql.c's S_TOUCH, so a live run is recounted after each
 * frame), the others counted in one statement per RUNCOUNTS_CHUNK runs.
 * A failed count leaves 0 and caches nothing. */
enum { RUNCOUNTS_CHUNK = 512 };
void runcounts_fill(struct dbi *db, struct run_row *rows, size_t n);

#endif
