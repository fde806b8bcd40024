/*
 * casestats.h — a case's RESULT rows and their aggregation over repetitions
 * and initiators (the STATS object of host/API.md), shared by the run detail
 * and the comparison.
 */
#ifndef XCB_CASESTATS_H
#define XCB_CASESTATS_H

#include "dbi.h"
#include <stddef.h>
#include <stdint.h>

#include "results_db.h"

/* Each (rep, initiator) histogram's p10 of one case (collected from
 * histos_take through p10s_add), to attach to the case's RESULT rows. */
struct p10s {
	struct h10 {
		int rep, init;
		double p10;     /* unclamped */
	} *h;
	size_t n, cap;
};
/* histo_fn: adds one histogram's p10 to the struct p10s at ctx. */
void p10s_add(int rep, int init, const uint32_t *idx, const uint64_t *cnt, size_t n, void *ctx);
void p10s_clear(struct p10s *s);
/* Sets each row's RV_p10 from the case's histograms in s (the RESULT frame
 * has no p10, and the wire format stays as it is): the 10th percentile of the
 * row's own (rep, initiator) histogram — the midpoint of the bucket holding
 * rank ⌈0.1·N⌉, clamped to the row's min/max, exactly as the payload
 * computes p50…p999 — or, when the payload sent only a histogram merged
 * over repetitions (rep 65535) for that initiator, that one's. NaN where
 * neither exists. */
void p10s_apply(const struct p10s *s, struct resrow *rows, size_t n);
/* The same from the stored histograms of (run, case) (one query). */
void attach_p10(struct dbi *db, int64_t run, int64_t case_id, struct resrow *rows, size_t n);
/* The aggregate rows: the all-initiator ones, or every row if there are none.
 * Returns how many were put first in rows (rows is reordered). */
size_t pick_aggregate(struct resrow *rows, size_t n);
/* The rows of initiator init (a pseudo-initiator's: a sync case's writer_hold,
 * ...), put first; how many (0: the case has none). */
size_t pick_initiator(struct resrow *rows, size_t n, unsigned init);
/* A STATS object's figures (API.md) over some RESULT rows, before their
 * rendering: NaN where STATS has null. */
#define AGG_NP 5                                        /* p10, p50, p90, p99, p999 */
#define AGG_NSUM (RV_calls_expected - RV_ipis + 1)      /* summed: ipis ... calls_expected */
struct agg {
	double count, min, p[AGG_NP], max, mean, stddev, sum[AGG_NSUM];
	unsigned flags;
	size_t reps;
	double ipi_floor, ipi_ratio, floor_paired, ratio_paired, lost, dup, ooo, control_runs, control_stale;
	int unstable_host, verified;                    /* 1, 0, or -1: null */
};
/* `unstable_host` of a case (STATS', show's and the run page's "unstable
 * host", compare's `unstable` note: one definition) over its aggregate rows
 * rows[0..n) (pick_aggregate; RV_floor_paired and RV_flags read): 1 when a
 * repetition's probes spread by more than XCB_UNSTABLE_FACTOR (its RESULT
 * flag XCB_RF_UNSTABLE) or the repetitions' paired floors did (max over
 * min), 0 when not, -1 when nothing was probed and no repetition is
 * flagged (not measured). */
int case_unstable_host(const struct resrow *rows, size_t n);
/* How many of run's cases are unstable (case_unstable_host) and failed a
 * check (XCB_RF_INVARIANT, XCB_RF_WATCHDOG), over every case of the run
 * (one read of its RESULT rows); -1 each when the read failed. */
struct case_flags case_flags_of_run(struct dbi *db, int64_t run);
/* STATS over rows[0..n). */
void agg_compute(const struct resrow *rows, size_t n, struct agg *a);
/* Each writer below appends JSON text to b, byte for byte what jansson's
 * compact dump of the same object gave (reply_json), and returns 0 or -1
 * (out of memory). */
/* STATS' object. */
int agg_write(struct buf *b, const struct agg *a);
/* The acquisitions a case's lock hold is per (LOCK's "holds"): a sync
 * case's writes (its lock_acq less its timed reads, `count`), any other
 * case's lock_acq. kind: the case's (NULL: absent). */
double lock_holds(const char *kind, double lock_acq, double count);
/* Each repetition's hold per acquisition (lock_hold_cycles / lock_holds)
 * of the aggregate rows[0..n) into v[0..n), in row order, leaving out a
 * repetition that held no lock; how many. compare --row lock_hold's values
 * and LOCK's "hold_cycles_p50": one definition. */
size_t lock_hold_reps(const struct resrow *rows, size_t n, const char *kind, double *v);
/* LOCK: the member "lock", or null where the case took no lock: which
 * lock its profile is of ("name"), and the hold and the wait per
 * acquisition, each over its own acquisitions ("holds", "waits",
 * "hold_cycles_per", "wait_cycles_per"), from STATS' sums and the case's
 * kind, algo and config keys flush and rwlock (NULL: absent); and the
 * median of its repetitions' hold per acquisition ("hold_cycles_p50",
 * lock_hold_reps over the aggregate rows[0..n): what compare --row
 * lock_hold compares). */
int agg_lock_write(struct buf *b, const struct agg *a, const struct resrow *rows, size_t n, const char *kind,
		   const char *algo, const char *flush, const char *rwlock);
/* The ns twin of STATS' times at tsc_khz (null without a rate or rows). */
int agg_ns_write(struct buf *b, const struct agg *a, double tsc_khz);
/* The members "initiators" (per initiator CPU over the non-aggregate rows
 * of rows[0..n), ordered by initiator) and "fairness". */
int initiators_write(struct buf *b, const struct resrow *rows, size_t n);
/* The pseudo-initiators' rows (kind=sync: writer hold, end-to-end, effective,
 * reader batch; proto xcb_initiator_name) as {name: STATS}, or null. */
int pseudo_write(struct buf *b, const struct resrow *rows, size_t n);

#endif
