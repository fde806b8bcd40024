/*
 * casestats.h — a case's RESULT rows and their aggregation over repetitions
 * and initiators (the STATS object of host/API.md), shared by the run detail
 * and the comparison.
 */
#ifndef XCB_CASESTATS_H
#define XCB_CASESTATS_H

#include <jansson.h>
#include <sqlite3.h>
#include <stddef.h>

enum { F_COUNT, F_MIN, F_P50, F_P90, F_P99, F_P999, F_MAX, F_MEAN, F_SD, F_IPIS,
       F_LOCK_ACQ, F_LOCK_CONT, F_LOCK_HOLD, F_LOCK_WAIT, F_STALE, F_CALLS_EXEC,
       F_CALLS_EXP, F_FLAGS,
       /* db/migrations/002_trust.sql; NaN where NULL (stored before it) */
       F_IPI_FLOOR, F_LOST, F_DUP, F_OOO, F_ELAPSED, F_CTL_RUNS, F_CTL_STALE,
       F_P10,                   /* not in RESULT: derived from HISTO (attach_p10) */
       F_N };
#define F_NCOL F_P10            /* fields loaded from the results table */

struct resrow {
	int rep, init;          /* init 65535 = all initiators */
	double v[F_N];          /* F_MEAN/F_SD already divided by 1000; F_P10 NaN until attach_p10 */
};

/* All rows of (run, case), ordered by initiator then rep. */
int load_results(sqlite3 *db, int64_t run, int64_t case_id, struct resrow **rows, size_t *n);
/* Sets each row's F_P10 from the stored histograms (the RESULT frame has no
 * p10, and the wire format stays as it is): the 10th percentile of the
 * row's own (rep, initiator) histogram — the midpoint of the bucket holding
 * rank ⌈0.1·N⌉, clamped to the row's min/max, exactly as the payload
 * computes p50…p999 — or, when the payload sent only a histogram merged
 * over repetitions (rep 65535) for that initiator, that one's. NaN where
 * neither exists. */
void attach_p10(sqlite3 *db, int64_t run, int64_t case_id, struct resrow *rows, size_t n);
/* The aggregate rows: the all-initiator ones, or every row if there are none.
 * Returns how many were put first in rows (rows is reordered). */
size_t pick_aggregate(struct resrow *rows, size_t n);
/* STATS over rows[0..n) (API.md); ns (may be NULL) gets the ns twin. */
json_t *agg_json(const struct resrow *rows, size_t n, double tsc_khz, json_t **ns);
/* Per-initiator list and fairness over the non-aggregate rows. */
json_t *initiators_json(const struct resrow *rows, size_t n, json_t **fairness);

/* The pseudo-initiators' rows (kind=sync: writer hold, end-to-end, effective,
 * reader batch; proto xcb_initiator_name) as {name: stats}, or null. */
json_t *pseudo_json(const struct resrow *rows, size_t n);

#endif
