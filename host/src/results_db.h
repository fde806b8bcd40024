/*
 * results_db.h — read access to a run's RESULT rows, histograms and CSV
 * export rows (results_db.c), in the style of runs_db.h: named fields,
 * cursors stepped in case order.
 */
#ifndef XCB_RESULTS_DB_H
#define XCB_RESULTS_DB_H

#include "dbi.h"
#include <stddef.h>
#include <stdint.h>

#include "runs_db.h"
#include "util.h"
#include "xcb_schema.h"

/* ---- RESULT rows ---- */
/* A RESULT's value fields: the schema's (xcb_schema.h XCB_RESULT_FIELDS)
 * without the row key (case, rep, initiator) and the padding, in wire order,
 * each a column of SQL results: RV_count ... RV_control_stale. The appended
 * ones (APPENDED, issue 13) are NULL in rows stored before migration 003. */
#define RV_IF_VALUE_KEY(...)
#define RV_IF_VALUE_PAD(...)
#define RV_IF_VALUE_V1(...) __VA_ARGS__
#define RV_IF_VALUE_APPENDED(...) __VA_ARGS__
#define RV_IF_VALUE(part) RV_IF_VALUE_##part
#define RV_ENUM_(name, bits, part) RV_IF_VALUE(part)(RV_##name,)
enum { XCB_RESULT_FIELDS(RV_ENUM_)
       RV_p10,                  /* not in RESULT: derived from HISTO (casestats.c) */
       RV_N };
#undef RV_ENUM_
#define RV_NCOL RV_p10          /* fields loaded from the results table */
/* 1 for the appended (APPENDED) fields: NULL, not 0, where not measured. */
extern const unsigned char rv_appended[RV_NCOL];
/* 1 for the fields that describe the timed calls' latencies, min through
 * stddev (the schema's order, which is append-only). A repetition with no
 * timed call (count 0: a time budget spent in warm-up) has none: the
 * payload sends them as 0, and they are read as NaN (row_read, the CSV:
 * empty), never as a latency of 0 cycles. */
static inline int rv_is_latency(int i)
{
	return i >= RV_min && i <= RV_stddev_x1000;
}
/* Their names (the schema's, the SQL columns'). */
extern const char *const rv_names[RV_NCOL];
/* The SQL column list of the value fields: ", count, min, ...". */
#define RV_SQL_(name, bits, part) RV_IF_VALUE(part)(", " #name)
#define RV_SQL_COLS XCB_RESULT_FIELDS(RV_SQL_)
#define RV_SQL_R_(name, bits, part) RV_IF_VALUE(part)(", r." #name)
#define RV_SQL_COLS_R XCB_RESULT_FIELDS(RV_SQL_R_)

/* One RESULT row as numbers, for the statistics. */
struct resrow {
	int rep, init;          /* init 65535 = all initiators */
	double v[RV_N];         /* mean/stddev already divided by 1000; NaN where an
				 * appended field is NULL; RV_p10 NaN until attached */
};
/* How many of a run's cases are in doubt: `unstable` (the host moved under
 * them: casestats.h case_unstable_host, the RESULT flag XCB_RF_UNSTABLE or
 * the repetitions' paired floors spread) and
 * `failed` (XCB_RF_INVARIANT or XCB_RF_WATCHDOG: calls lost, duplicated or
 * out of order, a stale translation, a bound that ran out); -1: not
 * counted. */
struct case_flags {
	int64_t unstable, failed;
};
/* Most value fields a results_open_fields cursor reads. */
#define RESULTS_MAX_FIELDS 4
struct result_cursor {
	struct dbi_stmt *st;
	int more;               /* st holds an unconsumed row */
	int fields[RESULTS_MAX_FIELDS]; /* RV_* the only value fields read... */
	int nfields;            /* ... how many; 0: all of them */
	/* results_open_field: how many of the cases results_take took have a
	 * row that failed a check (-1 once a step failed; `unstable` is
	 * counted by the taker, 0 here), the last case counted */
	struct case_flags flagged;
	int64_t failed_case;
	/* results_open_field(s): the XCB_RF_* flags of the rows the last
	 * results_take took, OR-ed (compare's per-case a_failed/b_failed) */
	unsigned taken_flags;
	int failed;             /* a step failed: the rows after it are not there */
};
/* The RESULT rows of run (case_id < 0: of every case), in case order. */
int results_open(struct dbi *db, int64_t run, int64_t case_id, struct result_cursor *c);
/* The same for every case with only value field `field` (RV_*) and the
 * flags (RV_flags) read, the others NaN in the rows results_take gives:
 * compare needs the p50 alone (and what says a case unstable),
 * and reading all ~20 columns of ~800 rows a side was most of its SQL
 * time on PostgreSQL (each value a text to send and parse). */
int results_open_field(struct dbi *db, int64_t run, int field, struct result_cursor *c);
/* The same with value fields fields[0..n) (RV_*, 1 <= n <= RESULTS_MAX_FIELDS)
 * read: compare's lock_hold row is each repetition's lock_hold_cycles per
 * lock_acq (and count, for a sync case's writes). */
int results_open_fields(struct dbi *db, int64_t run, const int *fields, int n, struct result_cursor *c);
/* After results_open_field(s) and results_take: the count of failed cases
 * taken (`unstable` 0: the taker's, case_unstable_host), -1 each when a
 * step failed. */
struct case_flags results_flags_taken(const struct result_cursor *c);
/* The case of the row c is at (the next results_take's), -1 past the last. */
int64_t results_next_case(const struct result_cursor *c);
/* The rows of case_id, ordered by initiator then rep (*rows malloc'd, may be
 * NULL when *n is 0); rows of earlier cases are skipped, later ones kept for
 * the next call: call with ascending case ids. 0, or -1 out of memory. On a
 * results_open_field(s) cursor, c->taken_flags is then their flags OR-ed. */
int results_take(struct result_cursor *c, int64_t case_id, struct resrow **rows, size_t *n);
void results_close(struct result_cursor *c);
/* All rows of (run, case), ordered by initiator then rep (one query). */
int load_results(struct dbi *db, int64_t run, int64_t case_id, struct resrow **rows, size_t *n);

/* The run's CSV export (one row per RESULT) for a streamed export: SQL over
 * the results alone (one %s for the resume predicate; :run, :limit), the
 * predicate and its key columns; the row's columns are ER_*. Its case's
 * cells come from export_cases_query, once per case: a join with JSON
 * lookups on every row was most of the export's time. Delivery as the
 * API's cases name it: `delivery` what was asked, `delivery_used` what the
 * payload resolved it to. */
extern const char results_export_resume[];
enum { RESULTS_EXPORT_NKEYS = 3 };
extern const int results_export_keycol[RESULTS_EXPORT_NKEYS];
void results_export_sql(struct buf *sql);
enum { ER_CASE_ID, ER_REP, ER_INIT, ER_FIRST_FIELD /* then the RV_NCOL fields */ };
/* The cases of the export: up to max of run's cases from case_id `from`
 * on, by case_id; prepares *st on first use (else resets it) and binds.
 * Columns: EC_CASE_ID, the CASE_COLUMNS from EC_FIRST_AXIS, EC_DELIVERY_USED,
 * then each results_export_jaxis axis in the schema's order. DBI_OK or an
 * error; the caller steps, and finalizes *st at the end. */
#define CASE_COLUMN(key) +1
enum { EC_CASE_ID, EC_FIRST_AXIS, EC_DELIVERY_USED = EC_FIRST_AXIS CASE_COLUMNS, EC_FIRST_JAXIS };
#undef CASE_COLUMN
int export_cases_query(struct dbi *db, struct dbi_stmt **st, int64_t run, int64_t from, int max);
/* 1 if schema axis a is one of the export's config-only matched axes
 * (columns from EC_FIRST_JAXIS): every matched axis is a column of the run
 * CSV. */
int results_export_jaxis(unsigned a);

/* ---- histograms ---- */
/* One stored histogram: its (rep, initiator) and buckets (index, count). */
typedef void (*histo_fn)(int rep, int init, const uint32_t *idx, const uint64_t *cnt, size_t n,
			 void *ctx);
struct histo_cursor {
	struct dbi_stmt *st;
	int more;
	int failed;             /* a step failed: the rows after it are not there */
	uint32_t *idx;
	uint64_t *cnt;
	size_t cap;
};
/* The histograms of run (case_id < 0: of every case), in case order. */
int histos_open(struct dbi *db, int64_t run, int64_t case_id, struct histo_cursor *c);
/* fn once per (rep, initiator) histogram of case_id, in that order; as
 * results_take, with ascending case ids. */
void histos_take(struct histo_cursor *c, int64_t case_id, histo_fn fn, void *ctx);
void histos_close(struct histo_cursor *c);
/* A case's histogram as parallel arrays, merged as API.md says (rep/init -1 =
 * all: the payload's own merged rows when it sent them, else the sum). 0
 * (n 0: none stored), or -1 when the read failed (n 0: never part of it). */
int load_histogram(struct dbi *db, int64_t run, int64_t cid, int rep, int init,
		   uint32_t **idx, uint64_t **cnt, size_t *n);

#endif
