/*
 * runs_db.h — read access to stored runs (runs_db.c): typed rows with named
 * columns for runs, cases and events (RESULT rows and histograms:
 * results_db.h). The SQL and every column position live in the .c files
 * only: the JSON and CSV builders and compare.c see fields. Readers step
 * cursors in case order, so a whole run costs a constant number of queries,
 * whatever its number of cases.
 */
#ifndef XCB_RUNS_DB_H
#define XCB_RUNS_DB_H

#include "dbi.h"
#include <stddef.h>
#include <stdint.h>

#include "util.h"
#include "xcb_schema.h"

/* A column's value: struct dbval (dbi.h). */

/* ---- runs ---- */
struct run_row {
	int64_t id;
	char *token;
	struct dbval machine_id, mac, suite, label, notes, status, source;
	struct dbval created, started, last_frame, finished;
	struct dbval frames_received, frames_expected, done_status, cpus, tsc_khz, error;
	struct dbval lab;               /* the lab whose daemon collected it (NULL: none) */
	char *params, *hello;           /* JSON object texts */
	int64_t cases, cases_done;      /* cases stored; of those, with a RESULT */
};
void run_row_free(struct run_row *r);
/* 1 with *r filled, 0 no such run, -1 the query failed. */
int run_get(struct dbi *db, int64_t id, struct run_row *r);
/* 1 if run id exists, 0 if not, -1 the query failed. */
int run_exists(struct dbi *db, int64_t id);

/* The run list's filters (parsed by runs_filter.c). */
struct run_filters {
	const char *status, *suite, *label, *lab;
	const char *q;                  /* substring (any case) of label, notes, suite, MAC, a HELLO
	                                 * fact, a tag or a key=value field */
	const char *tag;                /* one of its tags, exactly */
	char mac[18], token[17];
	int64_t machine, since;
	int64_t limit, offset;          /* limit -1: all */
	int verdict;                    /* the payload's DONE status + 1 (verdict_words.h); 0: any */
};
typedef void (*run_fn)(const struct run_row *r, void *ctx);
/* Calls fn for each run f selects (newest first, f's page); *total: how
 * many f selects in all. 0, or -1 if the query failed (dbi_errmsg). */
int runs_list(struct dbi *db, const struct run_filters *f, run_fn fn, void *ctx, int64_t *total);
/* For a streamed export (csvstream.h): the list's SQL with one %s where the
 * resume predicate goes, that predicate, its key columns, the binding of f,
 * and the row reader. */
void runs_export_sql(const struct run_filters *f, struct buf *sql);
extern const char runs_export_resume[];
enum { RUNS_EXPORT_NKEYS = 2 };
extern const int runs_export_keycol[RUNS_EXPORT_NKEYS];
void runs_bind(struct dbi_stmt *st, const struct run_filters *f);
void run_row_read(struct dbi_stmt *st, struct run_row *r);

/* ---- cases ---- */
/* CASE_COLUMNS expands CASE_COLUMN(key) once per case axis with its own
 * column in SQL cases (xcb_schema.h: store COL), in the schema's order
 * (kind ... reps); a case's other keys are only in its config. Define
 * CASE_COLUMN, expand, undefine. */
#define CASE_COL_(key, type, role, store, pref, vocab) XCB_IF_COL(store)(CASE_COLUMN(key))
#define CASE_COLUMNS XCB_CASE_AXES(CASE_COL_)

#define CASE_COLUMN(key) struct dbval key;
struct case_row {
	int64_t case_id;
	CASE_COLUMNS
	char *config;                   /* JSON object text: every key as sent */
};
#undef CASE_COLUMN
void case_row_free(struct case_row *c);
/* 1 if run has a case case_id (its CASE stored), 0 if not, -1 the query
 * failed. */
int case_exists(struct dbi *db, int64_t run, int64_t case_id);
struct case_cursor {
	struct dbi_stmt *st;
	int failed;     /* a step failed: the cases after it are not there */
};
/* Every case of run, in case_id order. 0 or -1. */
int cases_open(struct dbi *db, int64_t run, struct case_cursor *c);
/* 1 with *row filled (free it), 0 at the end (or a failed step: failed). */
int cases_next(struct case_cursor *c, struct case_row *row);
void cases_close(struct case_cursor *c);

/* ---- events ---- */
struct event_row {
	struct dbval seq, kind, text, received;
};
typedef void (*event_fn)(const struct event_row *e, void *ctx);
/* fn for each event of run (kind NULL: any; after < 0: from the first), in
 * seq order, at most limit. 0 or -1 (the query failed). */
int events_list(struct dbi *db, int64_t run, const char *kind, int64_t after, int64_t limit,
		event_fn fn, void *ctx);
/* How many events of kind run has. */
int64_t events_count(struct dbi *db, int64_t run, const char *kind);

#endif
