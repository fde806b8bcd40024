/* casestats.c — aggregation of a case's RESULT rows (see casestats.h); the
 * rows come from runs_db.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casestats.h"
#include "jsonw.h"
#include "stats.h"
#include "xcb_proto.h"

void p10s_add(int rep, int init, const uint32_t *idx, const uint64_t *cnt, size_t n, void *ctx)
{
	struct p10s *s = ctx;

	if (n == 0)
		return;
	if (s->n == s->cap) {
		struct h10 *p = realloc(s->h, (s->cap ? s->cap * 2 : 16) * sizeof(*s->h));

		if (!p)
			return;
		s->h = p;
		s->cap = s->cap ? s->cap * 2 : 16;
	}
	s->h[s->n++] = (struct h10){ rep, init, stats_histo_quantile(idx, cnt, n, 0.10) };
}

void p10s_clear(struct p10s *s)
{
	s->n = 0;
}

void p10s_apply(const struct p10s *s, struct resrow *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct resrow *r = &rows[i];
		const struct h10 *own = NULL, *merged = NULL;

		for (size_t k = 0; k < s->n; k++) {
			if (s->h[k].init != r->init)
				continue;
			if (s->h[k].rep == r->rep)
				own = &s->h[k];
			else if (s->h[k].rep == 65535)
				merged = &s->h[k];
		}
		if (!own)
			own = merged;
		if (!own || isnan(own->p10) || r->v[RV_count] <= 0)
			continue;
		r->v[RV_p10] = own->p10 < r->v[RV_min] ? r->v[RV_min]
			    : own->p10 > r->v[RV_max] ? r->v[RV_max] : own->p10;
	}
}

void attach_p10(struct dbi *db, int64_t run, int64_t case_id, struct resrow *rows, size_t n)
{
	struct histo_cursor c;
	struct p10s s = { 0 };

	if (n == 0 || histos_open(db, run, case_id, &c))
		return;
	histos_take(&c, case_id, p10s_add, &s);
	histos_close(&c);
	p10s_apply(&s, rows, n);
	free(s.h);
}

size_t pick_initiator(struct resrow *rows, size_t n, unsigned init)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		if (rows[i].init == (int)init) {
			struct resrow t = rows[k];

			rows[k++] = rows[i];
			rows[i] = t;
		}
	}
	return k;
}

size_t pick_aggregate(struct resrow *rows, size_t n)
{
	size_t k = pick_initiator(rows, n, XCB_INIT_ALL);

	return k ? k : n;
}

/* Median over rows of field f, skipping NaN (a p10 without a histogram). */
static double med_field(const struct resrow *rows, size_t n, int f)
{
	double *v = malloc((n + 1) * sizeof(*v)), m;
	size_t k = 0;

	if (!v)
		return NAN;
	for (size_t i = 0; i < n; i++)
		if (!isnan(rows[i].v[f]))
			v[k++] = rows[i].v[f];
	m = stats_median(v, k);
	free(v);
	return m;
}

/* Sum of a field over rows, NaN when no row has it (stored before migration 003). */
static double sum_field(const struct resrow *rows, size_t n, int f)
{
	double s = NAN;

	for (size_t i = 0; i < n; i++)
		if (!isnan(rows[i].v[f]))
			s = (isnan(s) ? 0 : s) + rows[i].v[f];
	return s;
}

/* The value num(v) stands for: NaN (null) where v is not finite, v where
 * it is a whole number an integer holds, else v to 3 decimals. What STATS
 * shows is what later figures (ns, fairness) are computed from. */
static double numval(double v)
{
	if (isnan(v) || isinf(v))
		return NAN;
	if (v == floor(v) && fabs(v) < 9e15)
		return v;
	return round(v * 1000) / 1000;
}

/* A figure as JSON: null, an integer, or a real to 3 decimals (numval). */
static int num(struct buf *b, double v)
{
	if (isnan(v) || isinf(v))
		return jsonw_lit(b, "null");
	if (v == floor(v) && fabs(v) < 9e15)
		return jsonw_i64(b, (int64_t)v);
	/* a real too large for jansson to print (never a figure of ours) reads null */
	return jsonw_real(b, numval(v)) ? jsonw_lit(b, "null") : 0;
}

/* The member "key": num(v). 0 or -1. */
static int mnum(struct buf *b, const char *key, double v)
{
	return jsonw_key(b, key) || num(b, v) ? -1 : 0;
}

/* The member "key": true, false or null (t < 0). 0 or -1. */
static int mbool(struct buf *b, const char *key, int t)
{
	return jsonw_key(b, key) || (t < 0 ? jsonw_lit(b, "null") : t ? jsonw_lit(b, "true") : jsonw_lit(b, "false"))
		? -1 : 0;
}

int case_unstable_host(const struct resrow *rows, size_t n)
{
	double lo = INFINITY, hi = 0;
	int flagged = 0;

	for (size_t i = 0; i < n; i++) {
		double f = rows[i].v[RV_floor_paired];

		flagged |= !isnan(rows[i].v[RV_flags]) && ((unsigned)rows[i].v[RV_flags] & XCB_RF_UNSTABLE);
		if (isnan(f) || f <= 0)
			continue;
		lo = f < lo ? f : lo;
		hi = f > hi ? f : hi;
	}
	/* a flagged repetition says so whether or not its floor was kept */
	return flagged ? 1 : hi > 0 ? hi > lo * XCB_UNSTABLE_FACTOR : -1;
}

/*
 * Issue 21's: the floor from the same moment as the calls - the median of the
 * repetitions' paired `ipi` probes, the median of their paired call/probe
 * ratios - and `unstable_host` (case_unstable_host). All null where nothing
 * was probed (not measured).
 */
static void paired_stats(struct agg *a, const struct resrow *rows, size_t n)
{
	double fp = med_field(rows, n, RV_floor_paired), rp = med_field(rows, n, RV_ratio_paired_x1000);

	int measured = 0;

	for (size_t i = 0; i < n; i++)
		measured |= rows[i].v[RV_floor_paired] > 0;	/* NaN: not */

	a->unstable_host = case_unstable_host(rows, n);
	a->floor_paired = measured ? fp : NAN;
	a->ratio_paired = measured && rp > 0 ? round(rp) / 1000 : NAN;
}

struct case_flags case_flags_of_run(struct dbi *db, int64_t run)
{
	static const int fields[] = { RV_floor_paired };
	struct case_flags f = { 0, 0 };
	struct result_cursor rc;
	struct resrow *rows;
	size_t n;

	if (results_open_fields(db, run, fields, 1, &rc))
		return (struct case_flags){ -1, -1 };
	/* every case of the run, in case order */
	while (rc.more && !rc.failed) {
		if (results_take(&rc, results_next_case(&rc), &rows, &n)) {
			f.unstable = -1;
			break;
		}
		f.unstable += case_unstable_host(rows, pick_aggregate(rows, n)) == 1;
		free(rows);
	}
	f.failed = results_flags_taken(&rc).failed;
	if (rc.failed)
		f.unstable = f.failed = -1;
	results_close(&rc);
	return f;
}

/*
 * Issue 13's fields: the `ipi` floor (median over the rows) and p50's ratio to
 * it, exactly-once counts, and for TLB cases the no-flush control. "verified"
 * is false when the control ran and never saw a stale translation: stale = 0
 * then proves nothing. null where the payload did not report them.
 */
static void trust_stats(struct agg *a, const struct resrow *rows, size_t n)
{
	double fl = med_field(rows, n, RV_ipi_floor), p50 = med_field(rows, n, RV_p50);

	a->ipi_floor = fl > 0 ? fl : NAN;
	a->ipi_ratio = fl > 0 ? round(p50 / fl * 1000) / 1000 : NAN;
	paired_stats(a, rows, n);
	a->lost = sum_field(rows, n, RV_lost);
	a->dup = sum_field(rows, n, RV_dup);
	a->ooo = sum_field(rows, n, RV_ooo);
	a->control_runs = sum_field(rows, n, RV_control_runs);
	a->control_stale = sum_field(rows, n, RV_control_stale);
	a->verified = a->control_runs > 0 ? a->control_stale > 0 : -1;
}

void agg_compute(const struct resrow *rows, size_t n, struct agg *a)
{
	double cnt = 0, mn = INFINITY, mx = 0;
	double *nn = calloc(n + 1, sizeof(double)), *mm = calloc(n + 1, sizeof(double)),
	       *ss = calloc(n + 1, sizeof(double));
	static const int pf[AGG_NP] = { RV_p10, RV_p50, RV_p90, RV_p99, RV_p999 };

	size_t timed = 0;

	memset(a, 0, sizeof(*a));
	for (size_t i = 0; i < n && nn && mm && ss; i++) {
		const double *v = rows[i].v;

		cnt += v[RV_count];
		for (int k = 0; k < AGG_NSUM; k++)
			a->sum[k] += v[RV_ipis + k];
		a->flags |= (unsigned)v[RV_flags];
		/* A repetition with no timed call has no latencies (NaN:
		 * rv_is_latency): its sums and flags count, its 0s never
		 * pulled the case's min and median down. */
		if (isnan(v[RV_p50]))
			continue;
		timed++;
		if (v[RV_min] < mn)
			mn = v[RV_min];
		if (v[RV_max] > mx)
			mx = v[RV_max];
		nn[i] = v[RV_count];
		mm[i] = v[RV_mean_x1000];
		ss[i] = v[RV_stddev_x1000];
	}
	stats_pool(nn, mm, ss, n, &a->mean, &a->stddev);
	free(nn);
	free(mm);
	free(ss);
	a->count = cnt;
	a->min = timed ? mn : NAN;
	for (int k = 0; k < AGG_NP; k++)
		a->p[k] = med_field(rows, n, pf[k]);
	a->max = timed ? mx : NAN;
	/* the repetitions the figures are of: those that timed calls */
	a->reps = timed;
	trust_stats(a, rows, n);
}

/* Which lock, and over which acquisitions, differ by kind
 * (firmware/bench/README.md, emit.c, sync.c):
 *  - a sync case's profile is its rw-lock's over the timed reads and
 *    writes only: lock_acq = the reads (the case's count) + the writes,
 *    the hold the writer's, the wait the readers'; so the hold is per
 *    write and the wait per read acquisition (over reads + writes the
 *    hold read 1.6 k cycles where the writer held 6.9 M a write);
 *  - a TLB case's is the shootdown's lock: the global flush lock on the
 *    vector path, the algorithm's own on the xcall path;
 *  - a cross-call's is its algorithm's call lock.
 * xcbench show and the run page print these: one definition. */
static int is_sync(const char *kind)
{
	return kind && !strcmp(kind, XCB_NAME(kind, XCB_KIND_SYNC));
}

double lock_holds(const char *kind, double lock_acq, double count)
{
	return is_sync(kind) ? lock_acq - count : lock_acq;
}

size_t lock_hold_reps(const struct resrow *rows, size_t n, const char *kind, double *v)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		double holds = lock_holds(kind, rows[i].v[RV_lock_acq], rows[i].v[RV_count]);

		if (holds > 0)
			v[k++] = rows[i].v[RV_lock_hold_cycles] / holds;
	}
	return k;
}

/* The median over the aggregate rows[0..n) of each repetition's hold per
 * acquisition (lock_hold_reps): compare --row lock_hold's figure. */
static double lock_hold_median(const struct resrow *rows, size_t n, const char *kind)
{
	double *v = malloc((n + 1) * sizeof(*v)), m;

	if (!v)
		return NAN;
	m = stats_median(v, lock_hold_reps(rows, n, kind, v));
	free(v);
	return m;
}

int agg_lock_write(struct buf *b, const struct agg *a, const struct resrow *rows, size_t n, const char *kind,
		   const char *algo, const char *flush, const char *rwlock)
{
	double acq = a->sum[RV_lock_acq - RV_ipis], holds = lock_holds(kind, acq, a->count), waits = acq;
	char name[96];

	if (!(acq > 0))
		return jsonw_key(b, "lock") || jsonw_lit(b, "null") ? -1 : 0;
	if (is_sync(kind)) {
		snprintf(name, sizeof(name), "rw-lock (%s)", rwlock ? rwlock : "fair");
		waits = a->count;
	} else if (kind && !strcmp(kind, XCB_NAME(kind, XCB_KIND_TLB)) &&
		   !(flush && !strcmp(flush, XCB_NAME(flush, XCB_FLUSH_XCALL))))
		snprintf(name, sizeof(name), "flush lock");
	else
		snprintf(name, sizeof(name), "%s's call lock", algo ? algo : "?");
	return jsonw_key(b, "lock") || jsonw_lit(b, "{") || jsonw_key(b, "name") || jsonw_str(b, name) ||
	       mnum(b, "holds", holds) || mnum(b, "waits", waits) ||
	       mnum(b, "hold_cycles_per", holds > 0 ? a->sum[RV_lock_hold_cycles - RV_ipis] / holds : NAN) ||
	       mnum(b, "wait_cycles_per", waits > 0 ? a->sum[RV_lock_wait_cycles - RV_ipis] / waits : NAN) ||
	       mnum(b, "hold_cycles_p50", lock_hold_median(rows, n, kind)) || jsonw_lit(b, "}") ? -1 : 0;
}

/* STATS' names of a->p[] */
static const char *const p_names[AGG_NP] = { "p10", "p50", "p90", "p99", "p999" };

int agg_write(struct buf *b, const struct agg *a)
{
	int bad = jsonw_lit(b, "{") || mnum(b, "count", a->count) || mnum(b, "min", a->min);

	for (int k = 0; k < AGG_NP && !bad; k++)
		bad = mnum(b, p_names[k], a->p[k]);
	bad = bad || mnum(b, "max", a->max) || mnum(b, "mean", a->mean) || mnum(b, "stddev", a->stddev);
	/* Summed over the rows, under their field names: ipis ... calls_expected. */
	for (int k = 0; k < AGG_NSUM && !bad; k++)
		bad = mnum(b, rv_names[RV_ipis + k], a->sum[k]);
	return bad || buf_addf(b, ",\"flags\":%u,\"reps\":%zu", a->flags, a->reps) ||
	       mnum(b, "ipi_floor", a->ipi_floor) || mnum(b, "ipi_ratio", a->ipi_ratio) ||
	       mnum(b, "floor_paired", a->floor_paired) || mnum(b, "ratio_paired", a->ratio_paired) ||
	       mbool(b, "unstable_host", a->unstable_host) || mnum(b, "lost", a->lost) || mnum(b, "dup", a->dup) ||
	       mnum(b, "ooo", a->ooo) || mnum(b, "control_runs", a->control_runs) ||
	       mnum(b, "control_stale", a->control_stale) || mbool(b, "verified", a->verified) || jsonw_lit(b, "}")
		? -1 : 0;
}

int agg_ns_write(struct buf *b, const struct agg *a, double tsc_khz)
{
	const double t[9] = { a->min, a->p[0], a->p[1], a->p[2], a->p[3], a->p[4], a->max, a->mean, a->stddev };
	static const char *const f[9] = { "min", "p10", "p50", "p90", "p99", "p999", "max", "mean", "stddev" };
	int bad;

	if (!(tsc_khz > 0 && a->reps))
		return jsonw_lit(b, "null");
	bad = jsonw_lit(b, "{");
	for (int k = 0; k < 9 && !bad; k++) {
		/* cycles to ns at 0.1 ns, from the figure STATS shows */
		double v = numval(t[k]);

		bad = jsonw_key(b, f[k]) ||
		      (isnan(v) ? jsonw_lit(b, "null") : jsonw_real(b, round(v * 1e6 / tsc_khz * 10) / 10));
	}
	return bad || jsonw_lit(b, "}") ? -1 : 0;
}

/* An initiator's throughput over every repetition of its rows, calls per
 * cycle, in the shared window (README "Fairness": what the payload's console
 * gives Jain's index of); NaN when a row has no window (a payload before
 * RESULT's window_calls/window_cycles), and *own its throughput over its own
 * span instead (count / elapsed_cycles: biased towards fair; NaN when a
 * row has no elapsed time either). */
static double window_throughput(const struct resrow *rows, size_t n, double *own)
{
	double calls = 0, cyc = 0, wcalls = 0, wcyc = 0;
	int window = n > 0;

	for (size_t k = 0; k < n; k++) {
		const double *v = rows[k].v;

		window &= v[RV_window_cycles] > 0;	/* NaN: not sent; 0: not measured */
		wcalls += v[RV_window_calls];
		wcyc += v[RV_window_cycles];
		calls += v[RV_count];
		cyc += v[RV_elapsed_cycles];		/* NaN when a row has none */
	}
	*own = cyc > 0 ? calls / cyc : NAN;
	return window ? wcalls / wcyc : NAN;
}

/* Per initiator CPU: {cpu, count, p10, p50, p99, max, mean, lock_wait_cycles}
 * of its rows, with its p50 (as shown) and throughputs kept for fairness:
 * thr[] in the shared window, own[] over its own span (window_throughput). */
static int initiator_write(struct buf *b, const struct resrow *rows, size_t n, double *p50s, size_t *np,
			   double *thr, double *own, size_t *nt)
{
	struct agg a;

	agg_compute(rows, n, &a);
	if (*np < 1024 && !isnan(numval(a.p[1])))
		p50s[(*np)++] = numval(a.p[1]);
	if (*nt < 1024) {
		thr[*nt] = window_throughput(rows, n, &own[*nt]);
		(*nt)++;
	}
	return (b->p[b->len - 1] != '[' && jsonw_lit(b, ",")) || jsonw_lit(b, "{\"cpu\":") || jsonw_i64(b, rows[0].init) ||
	       mnum(b, "count", a.count) || mnum(b, "p10", a.p[0]) || mnum(b, "p50", a.p[1]) ||
	       mnum(b, "p99", a.p[3]) || mnum(b, "max", a.max) || mnum(b, "mean", a.mean) ||
	       /* null: the payload measures the lock profile over all
	        * initiators (the algorithm's, on the all row: the case's
	        * stats), never per initiator, whose rows say 0 */
	       mnum(b, "lock_wait_cycles", NAN) || jsonw_lit(b, "}")
		? -1 : 0;
}

/* Jain's index over x[0..n), or NaN when one of them is NaN (not measured). */
static double jain_all(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (isnan(x[i]))
			return NAN;
	return stats_jain(x, n);
}

int initiators_write(struct buf *b, const struct resrow *rows, size_t n)
{
	double p50s[1024], thr[1024], own[1024];
	size_t np = 0, nt = 0;

	if (jsonw_key(b, "initiators") || jsonw_lit(b, "["))
		return -1;
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j < n && rows[j].init == rows[i].init)
			j++;
		/* CPUs only: not all (65535), nor the pseudo-initiators of
		 * proto's XCB_INIT_W_* (pseudo_write), which are no CPU's fairness */
		if (rows[i].init < (int)XCB_INIT_PSEUDO && initiator_write(b, rows + i, j - i, p50s, &np, thr, own, &nt))
			return -1;
		i = j;
	}
	if (jsonw_lit(b, "]") || jsonw_key(b, "fairness"))
		return -1;
	if (np >= 2) {
		double lo = p50s[0], hi = p50s[0];

		for (size_t i = 1; i < np; i++) {
			lo = p50s[i] < lo ? p50s[i] : lo;
			hi = p50s[i] > hi ? p50s[i] : hi;
		}
		/* Jain over the shared window's throughput, as the console's
		 * (README "Fairness"), when every initiator sent its window; for
		 * runs stored before, over each one's own span (payloads after
		 * issue 13: a figure of its own name, never the console's), else
		 * over medians. */
		double j = jain_all(thr, nt);
		const char *of = "throughput";

		if (nt != np || isnan(j)) {
			/* (runs from before the window, and sync readers: their
			 * rows share one elapsed_cycles, the writer's timed phase,
			 * which they read through until it ends, so this is
			 * throughput in a shared span, unbiased; named for the
			 * fields read: they send no window, host/API.md) */
			j = jain_all(own, nt);
			of = "elapsed_throughput";
		}
		if (nt != np || isnan(j)) {
			j = stats_jain(p50s, np);
			of = "p50";
		}
		return jsonw_lit(b, "{") || mnum(b, "p50_max_min", lo > 0 ? round(hi / lo * 1000) / 1000 : NAN) ||
		       /* once, to 3 decimals (mnum), as the console rounds it:
		        * rounding first to 4 could move the third */
		       mnum(b, "jain", j) ||
		       buf_addf(b, ",\"jain_of\":\"%s\"}", of) ? -1 : 0;
	}
	return jsonw_lit(b, "null");
}

int pseudo_write(struct buf *b, const struct resrow *rows, size_t n)
{
	size_t start = b->len;

	for (size_t i = 0; i < n;) {
		size_t j = i;
		const char *name = xcb_initiator_name((unsigned)rows[i].init);

		while (j < n && rows[j].init == rows[i].init)
			j++;
		if (rows[i].init >= (int)XCB_INIT_PSEUDO && rows[i].init != (int)XCB_INIT_ALL && name) {
			struct agg a;

			agg_compute(rows + i, j - i, &a);
			if ((b->len == start && jsonw_lit(b, "{")) || jsonw_key(b, name) || agg_write(b, &a))
				return -1;
		}
		i = j;
	}
	return b->len == start ? jsonw_lit(b, "null") : jsonw_lit(b, "}");
}
