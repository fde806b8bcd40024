/*
 * renders_db.h — the SQL of the stored run pages (renders_db.c): table
 * run_renders (db/migrations/012_run_renders.sql), finished runs' rendered
 * cases kept by the key casecache.h keeps them by, plus a format version.
 */
#ifndef XCB_RENDERS_DB_H
#define XCB_RENDERS_DB_H

#include <stddef.h>
#include <stdint.h>

#include "casecache.h"
#include "dbi.h"

/* The stored rendering of run k->id if it was made of the run k describes
 * (same token, frames_received, last_frame) in format: its text (malloc'd,
 * *len bytes, NUL-terminated). NULL when there is none, it is of another
 * run state or format, it holds no text (more cases than one page), or the
 * read failed. */
char *renders_get(struct dbi *db, const struct casecache_key *k, int format, size_t *len);
/* Stores (or replaces) run k->id's rendering: cases NULL says the run has
 * no one-page rendering. DBI_OK or the error. */
int renders_put(struct dbi *db, const struct casecache_key *k, int format, const char *cases);
/* Whether run id has more than max RESULT rows (counting stops there):
 * 1, 0, or -1 if the query failed. */
int renders_too_big(struct dbi *db, int64_t id, int64_t max);
/* Up to max ids of finished runs (complete, lost, crashed) with no valid
 * rendering (of lab's runs: none in format), newest first, into ids;
 * *total: how many in all. The number of ids, or -1 if the query failed. */
int renders_pending(struct dbi *db, int format, const char *lab, int64_t *ids, int max, int64_t *total);

#endif
