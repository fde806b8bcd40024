/* baselines_db.h — data access for baselines: the runs (boots) a machine +
 * suite is compared against (issue 25; migration 009). */
#ifndef XCB_BASELINES_DB_H
#define XCB_BASELINES_DB_H

#include <jansson.h>
#include "dbi.h"
#include <stdint.h>

/* The machine and suite every run in runs[0..n) shares: 0 with *machine
 * and suite (cap bytes) set; -1 when a run is missing, has no machine or
 * suite, or they differ (why, 128 bytes, says which). */
int baseline_key(struct dbi *db, const int64_t *runs, size_t n, int64_t *machine, char *suite, size_t cap,
		 char *why);
/* Sets (replaces) the baseline of machine + suite. Writer thread. 0 or -1. */
int baseline_set(struct dbi *db, int64_t machine, const char *suite, const int64_t *runs, size_t n, int64_t now);
/* Every baseline (machine > 0: of that machine) appended to out as
 * {machine: {id, mac}, suite, runs: [..], set_at}: DBI_DONE once all are
 * read, else the failure (out then holds those read before it). */
int baselines_list(struct dbi *db, int64_t machine, json_t *out);
/* The runs of the baseline of machine + suite into runs (at most cap):
 * their count, 0 when there is none. */
size_t baseline_get(struct dbi *db, int64_t machine, const char *suite, int64_t *runs, size_t cap);

/* The n newest complete runs of machine + suite created before run `before`
 * (oldest first) into runs: how many there are (0..n). */
size_t runs_last_before(struct dbi *db, int64_t machine, const char *suite, int64_t before, size_t n,
			int64_t *runs);

#endif
