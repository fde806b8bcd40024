/* compare.h — comparing two groups of runs, or two algorithms (compare.c,
 * host/API.md "compare"). */
#ifndef XCB_COMPARE_H
#define XCB_COMPARE_H

#include <jansson.h>
#include "dbi.h"
#include <stddef.h>
#include <stdint.h>

/* Fewest repetitions per side for a within-boot interval (one boot a side);
 * below it a comparison says "too few repetitions for an interval" (method
 * too_few_reps). */
#define COMPARE_MIN_REPS 5
/* Fewest boots per side (or boot pairs, the same boots on both sides) for
 * a between-boot interval; below it a case has its change only, method
 * too_few_boots ("too few boots for an interval"), no p, never marked.
 * Welch's t on two boots a side has 1 to 2 degrees of freedom (t = 12.7 at
 * 1, 4.3 at 2): the interval spans -99.99 % to +2819962 % on TCG's noise
 * and says nothing, and a variance from two values is too unsteady for the
 * Welch-Satterthwaite df to be trusted; at 3 a side df >= 2 and t <= 4.3. */
#define COMPARE_MIN_BOOTS 3
/* Most runs (boots) on one side, and most key=value restrictions a side. */
#define COMPARE_MAX_RUNS 64
#define COMPARE_MAX_WHERE 8
/* The defaults: false discovery rate across the table, smallest |% change|
 * ever called a change. */
#define COMPARE_FDR 0.05
#define COMPARE_MIN_EFFECT 5.0
/* The warning every view shows when a side has one boot. */
#define COMPARE_WITHIN_BOOT_WARNING \
	"1 boot per side: no between-boot variance, intervals are within-boot only"

/* One side's restriction: only cases whose config has key = value; the
 * key is then left out of the matching key (algo_a=locked is
 * {"algo","locked"}). */
struct compare_where {
	char key[65], value[65];
};

struct compare_side {
	int64_t runs[COMPARE_MAX_RUNS];
	size_t nruns;
	struct compare_where where[COMPARE_MAX_WHERE];
	size_t nwhere;
};

struct compare_req {
	struct compare_side a, b;
	double fdr, min_effect;     /* COMPARE_FDR, COMPARE_MIN_EFFECT unless set */
	const char *algo_a, *algo_b; /* echoed as algo_a/algo_b (pivot headers) */
	/* The RESULT row each case is compared by: 0, its all-initiators row
	 * (every kind's default); else a pseudo-initiator (proto XCB_INIT_W_*,
	 * XCB_INIT_R_BATCH: a sync case's writer_hold, ..., reader_batch), and
	 * a case without that row is left out; or COMPARE_ROW_LOCK_HOLD.
	 * Echoed as "row" (compare_row_name). */
	unsigned row;
	/* The statistic each repetition gives a case (its RESULT field,
	 * results_db.h RV_*: compare_stat.h compare_stat_parse), whose values
	 * across repetitions and boots are compared as the median's are;
	 * 0 (none given, calibration): the median, RV_p50. Echoed as "stat". */
	int stat;
};

/* row lock_hold (host/common pseudo_words_lock_hold): each repetition's
 * hold per acquisition of the case's lock, from its all rows (casestats.h
 * lock_hold_reps); a case without a lock profile is left out. Not an
 * initiator (those are 16 bits), so no RESULT row is ever taken for it. */
#define COMPARE_ROW_LOCK_HOLD 0x10000u

/* The `row` a name given to the API stands for ("all": 0, "writer_hold":
 * XCB_INIT_W_HOLD, ... by proto's xcb_initiator_name, "lock_hold":
 * COMPARE_ROW_LOCK_HOLD); -1 for any other. */
int compare_row_parse(const char *name, unsigned *row);
/* Its inverse: the name of row. */
const char *compare_row_name(unsigned row);
/* Every name compare_row_parse takes, in order, ", " between, into out[0..n)
 * (cut short where it does not fit). */
void compare_row_names(char *out, size_t n);
/* The name compare_row_parse takes nearest to a name it does not (the
 * payload keys' measure, cmdline_nearest: writer_hlod finds writer_hold),
 * or NULL. */
const char *compare_row_near(const char *name);

/* "1,2,3" into side->runs; -1 on a bad or repeated id or too many. */
int compare_parse_runs(const char *s, struct compare_side *side);
/* "k=v,k=v" appended to side->where; -1 when malformed. */
int compare_parse_where(const char *s, struct compare_side *side);
/* The first key side->where restricts twice (mask=1,mask=2, or algo_a=X
 * with a_where=algo=Y), NULL when none: a case has one value per key, so
 * the side could only be empty, and the matching kept the last value. */
const char *compare_where_twice(const struct compare_side *side);

/* The "cases", "unmatched_*", "pivots", "algo_*", "confidence", "level",
 * "warnings", "summary", "fdr", "min_effect_pct" members of the compare
 * response (host/API.md). flags_a[i], flags_b[i]: run rq->a.runs[i]'s
 * (rq->b.runs[i]'s) compared cases that are unstable or failed a check
 * (results_db.h struct case_flags), from the RESULT rows read for the
 * comparison (-1: not counted), for compare_conditions; either may be NULL
 * (calibration). */
struct case_flags;
json_t *compare_runs(struct dbi *db, const struct compare_req *rq, struct case_flags *flags_a,
		     struct case_flags *flags_b);

/* The runs' conditions side by side, and a line per difference
 * (compare_cond.c): {"conditions": [...], "mismatches": [...]}. ra and rb:
 * the sides' run rows (run_get's), in the order of rq->a.runs, rq->b.runs;
 * fa and fb their flagged cases (compare_runs'; -1: counted here, over
 * every case of the run). */
struct run_row;
json_t *compare_conditions(struct dbi *db, const struct compare_req *rq, const struct run_row *ra,
			   const struct run_row *rb, const struct case_flags *fa, const struct case_flags *fb);

/* A/A calibration over runs[0..n) (2 <= n <= COMPARE_MAX_CALIB), all of one
 * configuration (compare_calib.c): every half-split compared as groups and
 * every pair as single boots, with the share of cases each marks. */
#define COMPARE_MAX_CALIB 10	/* 126 splits x 10 runs loaded: seconds */
json_t *compare_calibrate(struct dbi *db, const int64_t *runs, size_t n, double fdr, double min_effect);

#endif
