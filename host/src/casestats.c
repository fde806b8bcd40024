/* casestats.c — aggregation of a case's RESULT rows (see casestats.h); the
 * rows come from runs_db.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "casestats.h"
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

size_t pick_aggregate(struct resrow *rows, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		if (rows[i].init == 65535) {
			struct resrow t = rows[k];

			rows[k++] = rows[i];
			rows[i] = t;
		}
	}
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

static json_t *num(double v)
{
	if (isnan(v) || isinf(v))
		return json_null();
	if (v == floor(v) && fabs(v) < 9e15)
		return json_integer((json_int_t)v);
	return json_real(round(v * 1000) / 1000);
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

/*
 * Issue 21's: the floor from the same moment as the calls - the median of the
 * repetitions' paired `ipi` probes, the median of their paired call/probe
 * ratios - and `unstable_host`: a repetition's probes spread by more than
 * XCB_UNSTABLE_FACTOR (flag XCB_RF_UNSTABLE), or the repetitions' paired floors
 * did (max over min). All null where nothing was probed (not measured).
 */
static void paired_json(json_t *o, const struct resrow *rows, size_t n)
{
	double fp = med_field(rows, n, RV_floor_paired), rp = med_field(rows, n, RV_ratio_paired_x1000);
	double lo = INFINITY, hi = 0;
	int flagged = 0;

	for (size_t i = 0; i < n; i++) {
		double f = rows[i].v[RV_floor_paired];
		if (isnan(f) || f <= 0)
			continue;
		lo = f < lo ? f : lo;
		hi = f > hi ? f : hi;
		flagged |= ((unsigned)rows[i].v[RV_flags] & XCB_RF_UNSTABLE) != 0;
	}
	int measured = hi > 0;
	json_object_set_new(o, "floor_paired", num(measured ? fp : NAN));
	json_object_set_new(o, "ratio_paired", num(measured && rp > 0 ? round(rp) / 1000 : NAN));
	json_object_set_new(o, "unstable_host", measured ? json_boolean(flagged || hi > lo * XCB_UNSTABLE_FACTOR)
							 : json_null());
}

/*
 * Issue 13's fields: the `ipi` floor (median over the rows) and p50's ratio to
 * it, exactly-once counts, and for TLB cases the no-flush control. "verified"
 * is false when the control ran and never saw a stale translation: stale = 0
 * then proves nothing. null where the payload did not report them.
 */
static void trust_json(json_t *o, const struct resrow *rows, size_t n)
{
	double fl = med_field(rows, n, RV_ipi_floor), p50 = med_field(rows, n, RV_p50);
	double cr = sum_field(rows, n, RV_control_runs), cs = sum_field(rows, n, RV_control_stale);

	json_object_set_new(o, "ipi_floor", num(fl > 0 ? fl : NAN));
	json_object_set_new(o, "ipi_ratio", num(fl > 0 ? round(p50 / fl * 1000) / 1000 : NAN));
	paired_json(o, rows, n);
	json_object_set_new(o, "lost", num(sum_field(rows, n, RV_lost)));
	json_object_set_new(o, "dup", num(sum_field(rows, n, RV_dup)));
	json_object_set_new(o, "ooo", num(sum_field(rows, n, RV_ooo)));
	json_object_set_new(o, "control_runs", num(cr));
	json_object_set_new(o, "control_stale", num(cs));
	json_object_set_new(o, "verified", cr > 0 ? json_boolean(cs > 0) : json_null());
}

json_t *agg_json(const struct resrow *rows, size_t n, double tsc_khz, json_t **ns)
{
	/* Summed over the rows, under their field names: ipis ... calls_expected. */
	enum { NSUM = RV_calls_expected - RV_ipis + 1 };
	double cnt = 0, mn = INFINITY, mx = 0, mean, sd, s[NSUM] = { 0 };
	double *nn = calloc(n + 1, sizeof(double)), *mm = calloc(n + 1, sizeof(double)),
	       *ss = calloc(n + 1, sizeof(double));
	unsigned flags = 0;
	json_t *o = json_object();

	for (size_t i = 0; i < n && nn && mm && ss; i++) {
		const double *v = rows[i].v;

		cnt += v[RV_count];
		if (v[RV_min] < mn)
			mn = v[RV_min];
		if (v[RV_max] > mx)
			mx = v[RV_max];
		for (int k = 0; k < NSUM; k++)
			s[k] += v[RV_ipis + k];
		flags |= (unsigned)v[RV_flags];
		nn[i] = v[RV_count];
		mm[i] = v[RV_mean_x1000];
		ss[i] = v[RV_stddev_x1000];
	}
	stats_pool(nn, mm, ss, n, &mean, &sd);
	free(nn);
	free(mm);
	free(ss);
	json_object_set_new(o, "count", num(cnt));
	json_object_set_new(o, "min", num(n ? mn : NAN));
	json_object_set_new(o, "p10", num(med_field(rows, n, RV_p10)));
	json_object_set_new(o, "p50", num(med_field(rows, n, RV_p50)));
	json_object_set_new(o, "p90", num(med_field(rows, n, RV_p90)));
	json_object_set_new(o, "p99", num(med_field(rows, n, RV_p99)));
	json_object_set_new(o, "p999", num(med_field(rows, n, RV_p999)));
	json_object_set_new(o, "max", num(n ? mx : NAN));
	json_object_set_new(o, "mean", num(mean));
	json_object_set_new(o, "stddev", num(sd));
	for (int k = 0; k < NSUM; k++)
		json_object_set_new(o, rv_names[RV_ipis + k], num(s[k]));
	json_object_set_new(o, "flags", json_integer(flags));
	json_object_set_new(o, "reps", json_integer((json_int_t)n));
	trust_json(o, rows, n);
	if (ns) {
		static const char *const f[] = { "min", "p10", "p50", "p90", "p99", "p999", "max", "mean",
			"stddev" };

		if (tsc_khz > 0 && n) {
			*ns = json_object();
			for (int k = 0; k < 9; k++) {
				json_t *v = json_object_get(o, f[k]);

				json_object_set_new(*ns, f[k], json_is_number(v)
					? json_real(round(json_number_value(v) * 1e6 / tsc_khz * 10) / 10)
					: json_null());
			}
		} else {
			*ns = json_null();
		}
	}
	return o;
}

json_t *initiators_json(const struct resrow *rows, size_t n, json_t **fairness)
{
	json_t *arr = json_array();
	double p50s[1024], thr[1024];
	size_t np = 0, nt = 0;

	for (size_t i = 0; i < n;) {
		size_t j = i;
		json_t *a;

		while (j < n && rows[j].init == rows[i].init)
			j++;
		/* CPUs only: not all (65535), nor the pseudo-initiators of
		 * proto's XCB_INIT_W_* (pseudo_json), which are no CPU's fairness */
		if (rows[i].init < (int)XCB_INIT_PSEUDO) {
			a = agg_json(rows + i, j - i, 0, NULL);
			json_array_append_new(arr, json_pack("{s:i, s:O, s:O, s:O, s:O, s:O, s:O, s:O}",
				"cpu", rows[i].init, "count", json_object_get(a, "count"),
				"p10", json_object_get(a, "p10"),
				"p50", json_object_get(a, "p50"), "p99", json_object_get(a, "p99"),
				"max", json_object_get(a, "max"), "mean", json_object_get(a, "mean"),
				"lock_wait_cycles", json_object_get(a, "lock_wait_cycles")));
			if (np < 1024 && json_is_number(json_object_get(a, "p50")))
				p50s[np++] = json_number_value(json_object_get(a, "p50"));
			/* throughput over every repetition: calls / cycles (README "Fairness") */
			double calls = 0, cyc = sum_field(rows + i, j - i, RV_elapsed_cycles);
			for (size_t k = i; k < j; k++)
				calls += rows[k].v[RV_count];
			if (nt < 1024 && cyc > 0)
				thr[nt++] = calls / cyc;
			json_decref(a);
		}
		i = j;
	}
	if (np >= 2) {
		double lo = p50s[0], hi = p50s[0];

		for (size_t i = 1; i < np; i++) {
			lo = p50s[i] < lo ? p50s[i] : lo;
			hi = p50s[i] > hi ? p50s[i] : hi;
		}
		/* Jain over throughput when every initiator reported its elapsed
		 * time (payloads after issue 13), else over medians as before. */
		int by_thr = nt == np;
		*fairness = json_pack("{s:o, s:o, s:s}", "p50_max_min", num(lo > 0 ? round(hi / lo * 1000) / 1000 : NAN),
				      "jain", num(round(stats_jain(by_thr ? thr : p50s, np) * 10000) / 10000),
				      "jain_of", by_thr ? "throughput" : "p50");
	} else {
		*fairness = json_null();
	}
	return arr;
}

json_t *pseudo_json(const struct resrow *rows, size_t n)
{
	json_t *o = NULL;

	for (size_t i = 0; i < n;) {
		size_t j = i;
		const char *name = xcb_initiator_name((unsigned)rows[i].init);

		while (j < n && rows[j].init == rows[i].init)
			j++;
		if (rows[i].init >= (int)XCB_INIT_PSEUDO && rows[i].init != (int)XCB_INIT_ALL && name) {
			if (!o)
				o = json_object();
			json_object_set_new(o, name, agg_json(rows + i, j - i, 0, NULL));
		}
		i = j;
	}
	return o ? o : json_null();
}
