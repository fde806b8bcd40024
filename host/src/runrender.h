/*
 * runrender.h — finished runs' pages kept in the store (runrender.c): the
 * writer renders them in its idle time, so that a finished run's first
 * GET /api/v1/runs/{id} reads one row (renders_db.h) instead of building
 * its cases from every RESULT and histogram row.
 */
#ifndef XCB_RUNRENDER_H
#define XCB_RUNRENDER_H

#include <stddef.h>

#include "casecache.h"
#include "dbi.h"
#include "runs_db.h"

/* The key run r's rendering is valid for (casecache.h): r's id, token,
 * frames_received and last_frame (-1: none). k points into r. */
void runrender_key(const struct run_row *r, struct casecache_key *k);
/* Writer thread only, while its queue is empty: renders and stores ONE
 * finished run's page that has no valid stored rendering, in its own
 * transaction (looking for such runs at most once a second after a change,
 * runrender_changed, else once a minute). 1 when it rendered one (call again when still idle), 0 when none
 * is pending, -1 when the database failed (the transaction rolled back). */
int runrender_idle(struct dbi *db);
/* Writer thread only: it committed a change to some run (frames stored, a
 * run marked lost), so a run may need its page rendered: the next idle turn
 * looks (at most once a second). Without it the writer looks once a minute
 * (for runs other daemons on a shared PostgreSQL store finished, or ones a
 * copy brought in): a look is a scan of the runs table, which an idle daemon
 * must not repeat every second on a store of many runs. */
void runrender_changed(void);
/* Run r's stored rendering of its default page, if valid for r as it is
 * (runrender_key, RUN_CASES_FORMAT): as renders_get. */
char *runrender_stored(struct dbi *db, const struct run_row *r, size_t *len);

#endif
