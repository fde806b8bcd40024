/* labels_db.h — a run's labels as metadata (issue 25; migration 009): several
 * tags and key=value fields (kernel=…, series=…, version=…) besides its one
 * free-text label; validated here, stored in run_tags / run_meta, copied from
 * the job a run was booted for. */
#ifndef XCB_LABELS_DB_H
#define XCB_LABELS_DB_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "dbi.h"

#define LABEL_MAX_TAGS 32
#define LABEL_MAX_META 32

/* NULL if tags (a JSON array) and meta (a JSON object of string or null
 * values; either may be NULL) are acceptable, else the reason: a tag is 1-64
 * characters of letters, digits and ._:/+-; a key 1-32 of letters, digits,
 * ._-; a value at most 200 bytes of text. */
const char *labels_check(json_t *tags, json_t *meta);
/* Writer thread: replaces the run's tags with tags (when not NULL) and sets
 * (or, for null, removes) each key of meta. 0 or -1. */
int labels_set(struct dbi *db, int64_t run, json_t *tags, json_t *meta);
/* Writer thread: gives the run the tags and meta of the job (its JSON
 * columns, as queued). 0 or -1. */
int labels_from_job(struct dbi *db, int64_t job, int64_t run);
/* One tag (value NULL) or key=value field of run. */
typedef void (*label_fn)(int64_t run, const char *name, const char *value, void *ctx);
/* fn for every tag and field of the runs ids[0..n), by run id, then by
 * name: one query for them all. 0 or -1. */
int labels_each(struct dbi *db, const int64_t *ids, size_t n, label_fn fn, void *ctx);
/* Sets "tags" ([…], sorted) and "meta" ({…}) on every run object of runs (a
 * JSON array of run objects with "id"): one query for them all. 0, or -1
 * when the read failed (some runs' labels may be missing: answer 500). */
int labels_attach(struct dbi *db, json_t *runs);

/* The complete runs whose label is `label` or that carry it as a tag, oldest
 * first, into runs (at most cap): how many, or -1 when the read failed. */
long runs_labelled(struct dbi *db, const char *label, int64_t *runs, size_t cap);

#endif
