/*
 * results_db.h — read access to a run's RESULT rows, histograms and CSV
 * export rows (results_db.c), in the style of runs_db.h: named fields,
 * cursors stepped in case order.
 */
#ifndef XCB_RESULTS_DB_H
#define XCB_RESULTS_DB_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "runs_db.h"
#include "util.h"

/* ---- RESULT rows ---- */
/* The results table's measured columns in RESULT order: (field, column).
 * From ipi_floor on (db/migrations/003_trust.sql) NULL where stored before. */
#define RESULT_COLUMNS(X) \
	X(F_COUNT, count) X(F_MIN, min) X(F_P50, p50) X(F_P90, p90) X(F_P99, p99) \
	X(F_P999, p999) X(F_MAX, max) X(F_MEAN, mean_x1000) X(F_SD, stddev_x1000) \
	X(F_IPIS, ipis) X(F_LOCK_ACQ, lock_acq) X(F_LOCK_CONT, lock_contended) \
	X(F_LOCK_HOLD, lock_hold_cycles) X(F_LOCK_WAIT, lock_wait_cycles) X(F_STALE, stale) \
	X(F_CALLS_EXEC, calls_executed) X(F_CALLS_EXP, calls_expected) X(F_FLAGS, flags) \
	X(F_IPI_FLOOR, ipi_floor) X(F_LOST, lost) X(F_DUP, dup) X(F_OOO, ooo) \
	X(F_ELAPSED, elapsed_cycles) X(F_CTL_RUNS, control_runs) X(F_CTL_STALE, control_stale)
#define RESULT_ENUM_(f, col) f,
enum { RESULT_COLUMNS(RESULT_ENUM_)
       F_P10,                   /* not in RESULT: derived from HISTO (casestats.c) */
       F_N };
#define F_NCOL F_P10            /* fields loaded from the results table */
#define F_FIRST_NULLABLE F_IPI_FLOOR

/* One RESULT row as numbers, for the statistics. */
struct resrow {
	int rep, init;          /* init 65535 = all initiators */
	double v[F_N];          /* F_MEAN/F_SD already divided by 1000; NaN where NULL
				 * from F_FIRST_NULLABLE on; F_P10 NaN until attached */
};
struct result_cursor {
	sqlite3_stmt *st;
	int more;               /* st holds an unconsumed row */
};
/* The RESULT rows of run (case_id < 0: of every case), in case order. */
int results_open(sqlite3 *db, int64_t run, int64_t case_id, struct result_cursor *c);
/* The rows of case_id, ordered by initiator then rep (*rows malloc'd, may be
 * NULL when *n is 0); rows of earlier cases are skipped, later ones kept for
 * the next call: call with ascending case ids. 0, or -1 out of memory. */
int results_take(struct result_cursor *c, int64_t case_id, struct resrow **rows, size_t *n);
void results_close(struct result_cursor *c);
/* All rows of (run, case), ordered by initiator then rep (one query). */
int load_results(sqlite3 *db, int64_t run, int64_t case_id, struct resrow **rows, size_t *n);

/* The run's CSV export (one row per RESULT, with its case's axes) for a
 * streamed export: SQL (one %s for the resume predicate), the predicate, its
 * key columns, and the row. The delivery axis is the one the payload used
 * (x_delivery_used), what was asked is delivery_requested. */
extern const char results_export_resume[];
enum { RESULTS_EXPORT_NKEYS = 3 };
extern const int results_export_keycol[RESULTS_EXPORT_NKEYS];
void results_export_sql(struct buf *sql);
#define EXPORT_AXIS_(name) struct dbval name;
struct export_row {
	int64_t run_id, case_id, rep, initiator;
	CASE_AXES(EXPORT_AXIS_)
	struct dbval v[F_NCOL];         /* the results columns as stored */
	struct dbval delivery_requested;
};
void export_row_read(sqlite3_stmt *st, struct export_row *r);
void export_row_free(struct export_row *r);

/* ---- histograms ---- */
/* One stored histogram: its (rep, initiator) and buckets (index, count). */
typedef void (*histo_fn)(int rep, int init, const uint32_t *idx, const uint64_t *cnt, size_t n,
			 void *ctx);
struct histo_cursor {
	sqlite3_stmt *st;
	int more;
	uint32_t *idx;
	uint64_t *cnt;
	size_t cap;
};
/* The histograms of run (case_id < 0: of every case), in case order. */
int histos_open(sqlite3 *db, int64_t run, int64_t case_id, struct histo_cursor *c);
/* fn once per (rep, initiator) histogram of case_id, in that order; as
 * results_take, with ascending case ids. */
void histos_take(struct histo_cursor *c, int64_t case_id, histo_fn fn, void *ctx);
void histos_close(struct histo_cursor *c);
/* A case's histogram as parallel arrays, merged as API.md says (rep/init -1 =
 * all: the payload's own merged rows when it sent them, else the sum). */
int load_histogram(sqlite3 *db, int64_t run, int64_t cid, int rep, int init,
		   uint32_t **idx, uint64_t **cnt, size_t *n);

#endif
