/*
 * compare.c — comparison of two groups of runs (boots), or of two algorithms
 * within them: match cases by their canonical key, then, per matched case,
 *  - with the case in >= 2 boots on each side (its level "between_boot";
 *    the sides' runs alone do not say: a case may be in one of them): each boot's value
 *    is the median of its repetitions' p50; Welch's test on the log of those
 *    values gives the % change of the geometric mean, its 95 % interval and
 *    a p-value, so the interval carries the boot-to-boot variation;
 *  - with the case in 1 boot on a side (level "within_boot"): the % change of the
 *    repetitions' medians with a bootstrap interval over repetitions (both
 *    sides >= COMPARE_MIN_REPS, else method "too_few_reps", no interval) and
 *    Welch's p over the repetitions' log p50 — intervals that understate the
 *    variation between boots, which the answer says (within_warning);
 *  - fewer than COMPARE_MIN_BOOTS boots (or boot pairs) a side: the change,
 *    method "too_few_boots", no interval, no p.
 * An interval narrower than the histograms' buckets allow is widened to them
 * (at_resolution, ci_at_resolution).
 * Benjamini–Hochberg adjusts the p-values across the whole table (q); a case
 * is "significant" only when q <= fdr, |change| >= min_effect and its
 * interval excludes 0. Then the seed-shaped pivot tables (rows = CPUs in
 * mask, columns = initiators). See host/API.md and the README's method.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "casekey.h"
#include "casestats.h"
#include "compare.h"
#include "compare_stat.h"
#include "fdr.h"
#include "lib/cmdline.h"
#include "pseudo_words.h"
#include "results_db.h"
#include "runs_db.h"
#include "stats.h"
#include "util.h"
#include "xcb_proto.h"
#include "xcb_schema.h"

/* The RESULT flags of a case that failed a check: its calls were lost,
 * duplicated or out of order, it read a stale translation, or a call ran
 * past the watchdog (results_db.h struct case_flags' `failed`). */
#define CHECK_FAILED (XCB_RF_INVARIANT | XCB_RF_WATCHDOG)
/* Their names in a case's a_failed_checks/b_failed_checks (host/API.md). */
static const struct {
	unsigned flag;
	const char *name;
} check_names[] = { { XCB_RF_INVARIANT, "invariant" }, { XCB_RF_WATCHDOG, "watchdog" } };

/* One case of one run. */
struct side_case {
	int64_t case_id;
	json_t *config;
	char *key;
	double p50;             /* median of the repetitions' p50 */
	double *reps;
	size_t nrep;
	unsigned flags;         /* its RESULT rows' XCB_RF_* flags, OR-ed */
};

/* One case of a side, over its boots. */
struct gcase {
	char *key;              /* matching key, then "#occurrence" */
	json_t *config;         /* from the first boot that has it */
	int64_t case_id;        /* in the first boot that has it */
	double *boot;           /* per boot: side_case.p50 */
	int64_t *boot_run;      /* ... and the run (boot) it is of */
	size_t nboot;
	double *reps;           /* every repetition's p50, pooled (one boot: its own) */
	size_t nrep;
	int used;
	unsigned flags;         /* its boots' side_case.flags, OR-ed */
	int64_t *failed_run;    /* the boots in which it failed a check (CHECK_FAILED) */
	size_t nfailed;
};

struct group {
	struct gcase *c;
	size_t n, cap;
	/* per where clause of the side: how many of its runs' cases matched
	 * it alone, and the values its key had ({key: [value, ...]}); the
	 * keys of the cases that lacked a clause's key ({key: true}: what a
	 * typo'd key is told "did you mean" from) */
	size_t where_hits[COMPARE_MAX_WHERE];
	json_t *where_seen, *keys_seen;
	/* the algos of the cases it took (at most 24), and, when the side
	 * restricts algo but not flush, how many of them are TLB cases whose
	 * algo names their path (case_algo_is_path) and how many are not:
	 * algo=concurrent is both a path and a cross-call algorithm
	 * (algo_warnings) */
	json_t *algos;
	size_t path_algo, other_algo;
};

static void free_side(struct side_case *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		json_decref(c[i].config);
		free(c[i].key);
		free(c[i].reps);
	}
	free(c);
}

static void free_group(struct group *g)
{
	for (size_t i = 0; i < g->n; i++) {
		free(g->c[i].key);
		json_decref(g->c[i].config);
		free(g->c[i].boot);
		free(g->c[i].boot_run);
		free(g->c[i].reps);
		free(g->c[i].failed_run);
	}
	free(g->c);
	json_decref(g->where_seen);
	json_decref(g->keys_seen);
	json_decref(g->algos);
}

/* Appends the string v to arr unless there or arr has 24 (a warning's list). */
static void seen_add(json_t *arr, json_t *v)
{
	size_t j;
	json_t *e;

	if (!json_is_string(v) || json_array_size(arr) >= 24)
		return;
	json_array_foreach(arr, j, e)
		if (strcmp(json_string_value(e), json_string_value(v)) == 0)
			return;
	json_array_append(arr, v);
}

/* The value side s restricts key to, or NULL. */
static const char *side_value(const struct compare_side *s, const char *key)
{
	for (size_t i = 0; i < s->nwhere; i++)
		if (strcmp(s->where[i].key, key) == 0)
			return s->where[i].value;
	return NULL;
}

/* Notes what case cfg says to each where clause of s in g (what a clause
 * that matched nothing is told with: compare_where_warnings). */
static void where_note(json_t *cfg, const struct compare_side *s, struct group *g)
{
	for (size_t i = 0; i < s->nwhere; i++) {
		json_t *v = json_object_get(cfg, s->where[i].key), *vals, *e;
		const char *k;

		if (!v)
			json_object_foreach(cfg, k, e)
				json_object_set(g->keys_seen, k, json_true());
		if (!json_is_string(v))
			continue;
		g->where_hits[i] += strcmp(json_string_value(v), s->where[i].value) == 0;
		if (!(vals = json_object_get(g->where_seen, s->where[i].key)))
			json_object_set_new(g->where_seen, s->where[i].key, vals = json_array());
		seen_add(vals, v);
	}
}

/* "; did you mean 'W'?" when one of words[0..n) is near enough to w by
 * the measure the payload keys' and algos= hints use (cmdline_nearest:
 * a swap of two letters is one edit, mnie finds mine), else "". */
static void near_hint(struct buf *b, const char *w, const char *const *words, size_t n)
{
	int i = cmdline_nearest(w, words, (unsigned)n);

	if (i >= 0)
		buf_addf(b, "; did you mean '%s'?", words[i]);
}

/* A warning per where clause of side `name` that no case matched: a typo
 * in --algo-a or --a-where answered only "no case matched". Its key's
 * values as the runs have them, or that no case has the key; either with
 * the nearest value (key) as a "did you mean". */
static void where_warnings(json_t *warn, const char *name, const struct compare_side *s, const struct group *g)
{
	for (size_t i = 0; i < s->nwhere; i++) {
		json_t *vals = json_object_get(g->where_seen, s->where[i].key), *e;
		const char *words[64], *k;
		struct buf b = { 0 }, hint = { 0 };
		size_t j, n = 0;

		if (g->where_hits[i])
			continue;
		if (!vals) {
			json_object_foreach(g->keys_seen, k, e)
				if (n < sizeof(words) / sizeof(words[0]))
					words[n++] = k;
			near_hint(&hint, s->where[i].key, words, n);
			json_array_append_new(warn, json_sprintf("%s: no case has the key '%s'%s (%s=%s matched nothing)",
								 name, s->where[i].key, hint.p ? hint.p : "",
								 s->where[i].key, s->where[i].value));
			buf_free(&hint);
			continue;
		}
		json_array_foreach(vals, j, e) {
			buf_addf(&b, "%s%s", j ? ", " : "", json_string_value(e));
			words[n++] = json_string_value(e);	/* seen_add: at most 24 */
		}
		near_hint(&hint, s->where[i].value, words, n);
		json_array_append_new(warn, json_sprintf("%s: no case has %s=%s%s (its cases have %s: %s)", name,
							 s->where[i].key, s->where[i].value, hint.p ? hint.p : "",
							 s->where[i].key, b.p));
		buf_free(&b);
		buf_free(&hint);
	}
}

/* What the two meanings of a TLB case's algo (a cross-call algorithm on
 * flush=xcall, the path's own name on every other path: case_algo_is_path)
 * hide from a comparison, a warning each:
 *  - a side restricted to algo=NAME but not to a path took the cases of
 *    the path NAME and of the cross-call algorithm NAME (concurrent is
 *    both), which never pair with each other's counterparts by chance
 *    (flush is matched) but swell "unmatched";
 *  - flush=xcall on one side (a case per algorithm) against a path on the
 *    other (none): nothing pairs until the xcall side names its algo. */
static void algo_warnings(json_t *warn, const struct compare_req *rq, const struct group *ga,
			  const struct group *gb)
{
	const struct compare_side *s[2] = { &rq->a, &rq->b };
	const struct group *g[2] = { ga, gb };
	const char *xcall = XCB_NAME(flush, XCB_FLUSH_XCALL);

	for (int i = 0; i < 2; i++) {
		const char *name = i ? "B" : "A", *other = i ? "A" : "B";
		const char *algo = side_value(s[i], "algo"), *f = side_value(s[i], "flush");
		const char *of = side_value(s[!i], "flush");
		struct buf b = { 0 };
		size_t j;
		json_t *e;

		if (g[i]->path_algo && g[i]->other_algo)
			json_array_append_new(warn, json_sprintf(
				"%s: algo=%s is also the TLB shootdown path %s: %zu of its cases are flush=%s (the path), "
				"%zu of the cross-call algorithm; add flush=%s for the algorithm's TLB cases or flush=%s "
				"for the path's", name, algo, algo, g[i]->path_algo, algo, g[i]->other_algo, xcall, algo));
		if (!f || !of || strcmp(f, xcall) || !strcmp(of, xcall) || algo)
			continue;
		json_array_foreach(g[i]->algos, j, e)
			buf_addf(&b, "%s%s", j ? ", " : "", json_string_value(e));
		json_array_append_new(warn, json_sprintf(
			"%s: flush=%s has a case per cross-call algorithm (%s), %s's flush=%s has none: add algo=NAME "
			"to %s's restriction to compare one with it", name, xcall, b.p ? b.p : "none", other, of, name));
		buf_free(&b);
	}
}

static int where_ok(json_t *cfg, const struct compare_side *s)
{
	for (size_t i = 0; i < s->nwhere; i++) {
		const char *v = json_string_value(json_object_get(cfg, s->where[i].key));

		if (!v || strcmp(v, s->where[i].value))
			return 0;
	}
	return 1;
}

/* The config of a case of side s without the keys both sides restrict
 * (they differ by design), as the matching key sees it. A key only one side
 * restricts only filters that side and is still matched: left out, the
 * other side's cases that differ only in it paired with the first side's
 * in run order (a_where=algo=concurrent alone paired A's concurrent with
 * B's locked). */
static json_t *matchable(json_t *cfg, const struct compare_side *s, const struct compare_req *rq)
{
	json_t *c = json_copy(cfg);
	int paths = side_value(&rq->a, "flush") && side_value(&rq->b, "flush");

	for (size_t i = 0; i < rq->a.nwhere; i++)
		if (side_value(&rq->b, rq->a.where[i].key))
			json_object_del(c, rq->a.where[i].key);
	/* The algo differs by design: so do the keys that go with it (a lazy sync
	 * case has no shootdown keys, inside/after do). */
	if (!json_object_get(c, "algo") && json_object_get(cfg, "algo"))
		case_drop_algo_companions(c);
	/* Both sides name a path: the shootdown (path, algorithm) differs by
	 * design. A path's algo is its name (flush=vector vs flush=concurrent
	 * matched nothing on algo=vector vs algo=concurrent); a flush=xcall
	 * case's algo goes too when its side names it (flush=xcall,algo=locked
	 * vs flush=vector), else it is an axis of that side (algo_warnings). */
	if (paths && (case_algo_is_path(cfg) || side_value(s, "algo")))
		json_object_del(c, "algo");
	return c;
}

/* The cases of run that pass side's restrictions, with their repetitions'
 * medians: two queries (cases, the RESULT rows' p50s) stepped in case
 * order; *flags: how many of those cases are unstable (case_unstable_host)
 * or failed a check, counted over the same RESULT rows
 * (results_flags_taken), -1 when not. */
static int load_side(struct dbi *db, int64_t run, const struct compare_side *side,
		     const struct compare_req *rq, struct group *g, struct side_case **out, size_t *n,
		     struct case_flags *flags)
{
	struct case_cursor cc;
	struct result_cursor rc;
	struct case_row row;
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	*flags = (struct case_flags){ -1, -1 };
	if (cases_open(db, run, &cc))
		return -1;
	/* lock_hold: what lock_hold_reps reads; any other row: the statistic
	 * asked for (the p50 unless ?stat=); and the paired floors, which
	 * with the flags say a case unstable (case_unstable_host: show's and
	 * the run page's definition) */
	static const int lock_fields[] = { RV_count, RV_lock_acq, RV_lock_hold_cycles, RV_floor_paired };
	const int sf = compare_stat_field(rq->stat);
	const int stat_fields[] = { sf, RV_floor_paired };
	int64_t unstable = 0;

	if (rq->row == COMPARE_ROW_LOCK_HOLD ? results_open_fields(db, run, lock_fields, 4, &rc)
					    : results_open_fields(db, run, stat_fields, 2, &rc)) {
		cases_close(&cc);
		return -1;
	}
	while (cases_next(&cc, &row)) {
		json_t *cfgj = row.config ? json_loads(row.config, 0, NULL) : NULL, *m;
		struct buf key = { 0 };
		struct resrow *rows;
		size_t nr, k;
		struct side_case *c;

		if (cfgj)
			where_note(cfgj, side, g);
		if (!cfgj || !where_ok(cfgj, side)) {
			json_decref(cfgj);
			case_row_free(&row);
			continue;
		}
		results_take(&rc, row.case_id, &rows, &nr);
		unsigned rflags = rc.taken_flags;
		k = pick_aggregate(rows, nr);
		/* over its aggregate rows, as the run's STATS */
		unstable += case_unstable_host(rows, k) == 1;
		if (rq->row && rq->row != COMPARE_ROW_LOCK_HOLD)
			k = pick_initiator(rows, nr, rq->row);
		/* lock_hold: each repetition's hold per acquisition (the all
		 * rows' lock_hold_cycles / holds, casestats.h lock_hold_reps),
		 * the values the interval is built from as every row's are from
		 * its repetitions' p50. Not the hold summed over them (show's
		 * hold_cycles_per): one number a case gives no interval, and the
		 * repetitions' spread is what tells a change of the lock's hold
		 * from the host's noise. Each repetition's figure is already an
		 * average over its ~200 acquisitions (their hold is not stored
		 * one by one), so its median is the case's figure, as the
		 * median of the repetitions' p50 is elsewhere; show prints it
		 * (the API's lock.hold_cycles_p50). */
		double *vals = malloc((k + 1) * sizeof(double));
		size_t nv = 0;

		if (rq->row == COMPARE_ROW_LOCK_HOLD && vals)
			nv = lock_hold_reps(rows, k, json_string_value(json_object_get(cfgj, "kind")), vals);
		else
			/* a repetition with no timed call has no p50 (NaN): it
			 * is not a sample of the case's latency (its 0 made
			 * intervals of [-100 %, +1903 %]); nor any other
			 * statistic of its calls (?stat=mean, p99: sf) */
			for (size_t i = 0; i < k && vals; i++)
				if (!isnan(rows[i].v[sf]))
					vals[nv++] = rows[i].v[sf];
		free(rows);
		/* no such row (or no lock profile): not a case of this comparison */
		if (!vals || (rq->row && k == 0) || (rq->row == COMPARE_ROW_LOCK_HOLD && nv == 0)) {
			free(vals);
			json_decref(cfgj);
			case_row_free(&row);
			continue;
		}
		if (*n == cap) {
			struct side_case *p = realloc(*out, (cap = cap ? 2 * cap : 32) * sizeof(**out));

			if (!p) {
				free(vals);
				json_decref(cfgj);
				case_row_free(&row);
				break;
			}
			*out = p;
		}
		seen_add(g->algos, json_object_get(cfgj, "algo"));
		if (side_value(side, "algo") && !side_value(side, "flush")) {
			if (case_algo_is_path(cfgj))
				g->path_algo++;
			else
				g->other_algo++;
		}
		c = &(*out)[(*n)++];
		memset(c, 0, sizeof(*c));
		c->case_id = row.case_id;
		c->config = cfgj;
		m = matchable(cfgj, side, rq);
		case_match_key(m, 0, &key);
		json_decref(m);
		c->key = key.p;
		c->reps = vals;
		c->nrep = nv;
		c->p50 = stats_median(c->reps, c->nrep);
		c->flags = rflags;
		case_row_free(&row);
	}
	*flags = results_flags_taken(&rc);
	if (flags->unstable >= 0)
		flags->unstable = unstable;
	results_close(&rc);
	cases_close(&cc);
	return 0;
}

/* The rows in the order they are listed: all, proto's pseudo-initiators
 * (read out of its one table), lock_hold; the one after row, or 0 after the
 * last. */
static unsigned row_next(unsigned row)
{
	if (row == 0)
		return XCB_INIT_PSEUDO;
	if (row >= XCB_INIT_PSEUDO && row < XCB_INIT_ALL && xcb_initiator_name(row + 1))
		return row + 1;
	return row < COMPARE_ROW_LOCK_HOLD ? COMPARE_ROW_LOCK_HOLD : 0;
}

const char *compare_row_name(unsigned row)
{
	return row == COMPARE_ROW_LOCK_HOLD ? pseudo_words_lock_hold.name
					    : xcb_initiator_name(row ? row : XCB_INIT_ALL);
}

int compare_row_parse(const char *name, unsigned *row)
{
	unsigned r = 0;

	do {
		if (!strcmp(name, compare_row_name(r))) {
			*row = r;
			return 0;
		}
	} while ((r = row_next(r)));
	return -1;
}

void compare_row_names(char *out, size_t n)
{
	unsigned r = 0;
	size_t len = 0;

	out[0] = 0;
	do
		len += (size_t)snprintf(out + len, len < n ? n - len : 0, "%s%s", r ? ", " : "", compare_row_name(r));
	while ((r = row_next(r)) && len < n);
}

const char *compare_row_near(const char *name)
{
	const char *words[32];
	unsigned r = 0, n = 0;
	int i;

	do
		words[n++] = compare_row_name(r);
	while ((r = row_next(r)) && n < sizeof(words) / sizeof(words[0]));
	i = cmdline_nearest(name, words, n);
	return i < 0 ? NULL : words[i];
}

static int push_d(double **v, size_t *n, double x)
{
	double *p = realloc(*v, (*n + 1) * sizeof(**v));

	if (!p)
		return -1;
	p[(*n)++] = x;
	*v = p;
	return 0;
}

/* Adds one run's cases to the group: the k-th case of a key in a run is
 * the k-th of that key in every other run ("#k" in the group's key). */
/* Appends run to *v, n values (push_d's growth: one at a time). */
static int push_run(int64_t **v, size_t n, int64_t run)
{
	int64_t *p = realloc(*v, (n + 1) * sizeof(**v));

	if (!p)
		return -1;
	p[n] = run;
	*v = p;
	return 0;
}

/* Adds run's cases c[0..n) to g. */
static void group_add(struct group *g, int64_t run, struct side_case *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct buf k = { 0 };
		size_t occ = 0, j;
		struct gcase *gc = NULL;

		for (j = 0; j < i; j++)
			occ += strcmp(c[j].key, c[i].key) == 0;
		buf_addf(&k, "%s#%zu", c[i].key, occ);
		for (j = 0; j < g->n && !gc; j++)
			if (strcmp(g->c[j].key, k.p) == 0)
				gc = &g->c[j];
		if (!gc) {
			if (g->n == g->cap) {
				struct gcase *p = realloc(g->c, (g->cap = g->cap ? 2 * g->cap : 32) * sizeof(*p));

				if (!p) {
					buf_free(&k);
					return;
				}
				g->c = p;
			}
			gc = &g->c[g->n++];
			memset(gc, 0, sizeof(*gc));
			gc->key = k.p;
			gc->config = json_incref(c[i].config);
			gc->case_id = c[i].case_id;
		} else {
			buf_free(&k);
		}
		/* boot_run first: push_d counts nboot */
		if (!isnan(c[i].p50) && push_run(&gc->boot_run, gc->nboot, run) == 0)
			push_d(&gc->boot, &gc->nboot, c[i].p50);
		for (size_t r = 0; r < c[i].nrep; r++)
			push_d(&gc->reps, &gc->nrep, c[i].reps[r]);
		gc->flags |= c[i].flags;
		if ((c[i].flags & CHECK_FAILED) && push_run(&gc->failed_run, gc->nfailed, run) == 0)
			gc->nfailed++;
	}
}

/* The side's runs' cases as one group; flags[r] (unless NULL): run r's
 * flagged cases (load_side). */
static void load_group(struct dbi *db, const struct compare_side *s, const struct compare_req *rq,
		       struct group *g, struct case_flags *flags)
{
	memset(g, 0, sizeof(*g));
	g->where_seen = json_object();
	g->keys_seen = json_object();
	g->algos = json_array();
	for (size_t r = 0; r < s->nruns; r++) {
		struct side_case *c;
		size_t n;
		struct case_flags u;

		if (load_side(db, s->runs[r], s, rq, g, &c, &n, flags ? &flags[r] : &u) == 0)
			group_add(g, s->runs[r], c, n);
		free_side(c, n);
	}
}

static uint64_t fnv1a(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ull;
	return h;
}

static json_t *num_or_str(const char *s)
{
	uint64_t v;

	return parse_u64(s, &v) == 0 && v < (1ull << 53) ? json_integer((json_int_t)v) : json_string(s);
}

static json_t *rnd(double v, double scale)
{
	return isnan(v) || isinf(v) ? json_null() : json_real(round(v * scale) / scale);
}

/* The matched axes as JSON (numbers where numeric). */
static json_t *key_obj(json_t *config, const struct compare_req *rq)
{
	json_t *o = json_object(), *v, *m = matchable(config, &rq->a, rq);
	const char *k;

	json_object_foreach(m, k, v) {
		if (case_key_matches(k, 0) && json_is_string(v))
			json_object_set_new(o, k, num_or_str(json_string_value(v)));
	}
	json_decref(m);
	return o;
}

static double geomean(const double *v, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += log(v[i]);
	return n ? exp(s / n) : NAN;
}

/* Fills a_p50/b_p50, change/CI/method and p of one matched pair; the
 * significance is decided once q is known (finish_table). */
/* The boots both a and b were measured in, as pairs (pa[k], pb[k]): n. */
static size_t boot_pairs(const struct gcase *a, const struct gcase *b, double *pa, double *pb)
{
	size_t n = 0;

	for (size_t i = 0; i < a->nboot; i++)
		for (size_t j = 0; j < b->nboot; j++)
			if (a->boot_run[i] == b->boot_run[j]) {
				pa[n] = a->boot[i];
				pb[n++] = b->boot[j];
				break;
			}
	return n;
}

/* Widens [*lo, *hi], an interval of the % change from ap to bp, to what
 * the histograms can tell: 1 if it did. Every p50 the payload sends is its
 * histogram bucket's midpoint (xcb_histo.h: buckets 1/256 to 1/128 of
 * their value wide, ~0.4-0.8 %), so a true median is anywhere in its
 * bucket. Repetitions (or boots) that all report one midpoint have no
 * spread: the bootstrap, or Welch's t with a variance of 0, gives a
 * zero-width interval, "+0.00 [+0.00, +0.00]", certainty the measurement
 * does not have. The change is known no finer than the ratios the two
 * buckets allow (stats_ratio_change_ci: the extreme ones), so an interval
 * narrower than that is widened to it, and says so (ci_at_resolution):
 * widened rather than marked alone, since the significance test reads the
 * interval, and a change inside one bucket's width must not pass for a
 * certain one. A wider interval is left as it is: spread between
 * repetitions already carries the rounding. */
static int at_resolution(double ap, double bp, double *lo, double *hi)
{
	double alo, ahi, blo, bhi, rlo, rhi;
	int wide = 0;

	if (isnan(*lo) || isnan(*hi) || stats_histo_bucket_of(ap, &alo, &ahi) ||
	    stats_histo_bucket_of(bp, &blo, &bhi) || stats_ratio_change_ci(alo, ahi, blo, bhi, &rlo, &rhi))
		return 0;
	/* 1e-9: a bound that is the resolution already is not widened */
	if (rlo < *lo - 1e-9) {
		*lo = rlo;
		wide = 1;
	}
	if (rhi > *hi + 1e-9) {
		*hi = rhi;
		wide = 1;
	}
	return wide;
}

/* between: the boots' medians are the values (else every repetition's);
 * paired: both sides are the same boots (two algorithms or two
 * restrictions of one set of runs), each case's pair from one boot;
 * bucketed: the values are histogram percentiles (p50s, or ?stat=p99),
 * not lock_hold's averages nor an exact min, max or mean, so the
 * interval is at least their resolution (at_resolution). */
static void compare_pair(const struct gcase *a, const struct gcase *b, int between, int paired, int bucketed,
			 json_t *o)
{
	double change, lo = NAN, hi = NAN, ap, bp;
	const char *method = "none";
	struct fdr_welch w = { .p = NAN };
	double pa[COMPARE_MAX_RUNS], pb[COMPARE_MAX_RUNS];
	size_t np = paired ? boot_pairs(a, b, pa, pb) : 0;

	if (np >= 2) {
		/* the boots' geometric means over the pairs: the change the
		 * paired test's interval is of */
		ap = geomean(pa, np);
		bp = geomean(pb, np);
		change = stats_pct_change(ap, bp);
		/* n - 1 df: 2 pairs are 1 (COMPARE_MIN_BOOTS) */
		if (np < COMPARE_MIN_BOOTS)
			method = isnan(change) ? "none" : "too_few_boots";
		else if (fdr_paired_log(pa, pb, np, 0.95, &w) == 0) {
			method = "paired_boots";
			lo = w.lo;
			hi = w.hi;
		}
	} else if (between) {
		ap = geomean(a->boot, a->nboot);
		bp = geomean(b->boot, b->nboot);
		change = stats_pct_change(ap, bp);
		/* "too few boots for an interval" (COMPARE_MIN_BOOTS), as
		 * too_few_reps below: the change, no interval, no p */
		if (a->nboot < COMPARE_MIN_BOOTS || b->nboot < COMPARE_MIN_BOOTS)
			method = isnan(change) ? "none" : "too_few_boots";
		else if (fdr_welch_log(a->boot, a->nboot, b->boot, b->nboot, 0.95, &w) == 0) {
			method = "between_boot";
			lo = w.lo;
			hi = w.hi;
		}
	} else {
		ap = stats_median(a->reps, a->nrep);
		bp = stats_median(b->reps, b->nrep);
		change = stats_pct_change(ap, bp);
		if (a->nrep >= COMPARE_MIN_REPS && b->nrep >= COMPARE_MIN_REPS) {
			if (stats_bootstrap_change(a->reps, a->nrep, b->reps, b->nrep,
						   fnv1a(a->key) ^ 0x5eed, STATS_BOOT_ITERS, &lo, &hi) == 0)
				method = "bootstrap";
			fdr_welch_log(a->reps, a->nrep, b->reps, b->nrep, 0.95, &w);
		} else if (!isnan(change)) {
			method = "too_few_reps";	/* "too few repetitions for an interval" */
		}
	}
	json_object_set_new(o, "a_p50", rnd(ap, 10));
	json_object_set_new(o, "b_p50", rnd(bp, 10));
	json_object_set_new(o, "change_pct", rnd(change, 100));
	json_object_set_new(o, "ci_at_resolution", json_boolean(bucketed && at_resolution(ap, bp, &lo, &hi)));
	json_object_set_new(o, "ci_low", rnd(lo, 100));
	json_object_set_new(o, "ci_high", rnd(hi, 100));
	json_object_set_new(o, "p", isnan(w.p) ? json_null() : json_real(w.p));
	json_object_set_new(o, "method", json_string(method));
}

/* Side x's (a_ or b_) check of matched case g: x_failed, whether it failed
 * one in a boot of the side; x_failed_checks, which (check_names);
 * x_failed_runs, in which boots. A case's figures are kept in the table,
 * but a check (xcbench check) must not take those of an algorithm that
 * lost calls for a speed-up, and every view marks them. */
static void failed_fields(json_t *o, const char *x, const struct gcase *g)
{
	json_t *checks = json_array(), *runs = json_array();
	char k[24];

	for (size_t i = 0; i < sizeof(check_names) / sizeof(check_names[0]); i++)
		if (g->flags & check_names[i].flag)
			json_array_append_new(checks, json_string(check_names[i].name));
	for (size_t i = 0; i < g->nfailed; i++)
		json_array_append_new(runs, json_integer((json_int_t)g->failed_run[i]));
	snprintf(k, sizeof(k), "%sfailed", x);
	json_object_set_new(o, k, json_boolean(g->flags & CHECK_FAILED));
	snprintf(k, sizeof(k), "%sfailed_checks", x);
	json_object_set_new(o, k, checks);
	snprintf(k, sizeof(k), "%sfailed_runs", x);
	json_object_set_new(o, k, runs);
}

/* Side x's (a_ or b_) x_no_flush of matched case g: its method is none
 * (case_no_flush; method is matched, so every boot's is the first's). Such
 * a case invalidates nothing and its stale reads are not checked: a cost
 * figure, never a pass (README "TLB"); a change against a side that
 * flushes reads as a speed-up of a shootdown that does no work, and every
 * view marks it (0A, 0B, 0AB), xcbench check does not judge B's. */
static void no_flush_fields(json_t *o, const char *x, const struct gcase *g)
{
	char k[24];

	snprintf(k, sizeof(k), "%sno_flush", x);
	json_object_set_new(o, k, json_boolean(case_no_flush(g->config)));
}

/* The warning per side with cases of method none (no_flush_fields): n of
 * them on side `name`. */
static void no_flush_warning(json_t *warn, const char *name, json_int_t n)
{
	if (n > 0)
		json_array_append_new(warn, json_sprintf("%lld compared case%s %s of method none on %s's side: %s "
							 "invalidate%s nothing (a cost figure; stale reads not checked)",
							 (long long)n, n == 1 ? "" : "s", n == 1 ? "is" : "are", name,
							 n == 1 ? "it" : "they", n == 1 ? "s" : ""));
}

/* Benjamini–Hochberg over every case's p, then each case's verdict:
 * significant when q <= fdr, |change| >= min_effect and the interval
 * excludes 0; and the summary of the table. */
static json_t *finish_table(json_t *cases, const struct compare_req *rq)
{
	size_t n = json_array_size(cases), i, tested = 0, faster = 0, slower = 0, small = 0, fa = 0, fb = 0;
	size_t na = 0, nb = 0;	/* of method none: a_no_flush, b_no_flush */
	double *p = malloc((n + 1) * sizeof(*p)), *q = malloc((n + 1) * sizeof(*q));
	json_t *c;

	if (!p || !q) {
		free(p);
		free(q);
		return json_object();
	}
	json_array_foreach(cases, i, c) {
		json_t *pv = json_object_get(c, "p");

		p[i] = json_is_number(pv) ? json_number_value(pv) : NAN;
		tested += !isnan(p[i]);
	}
	fdr_bh_adjust(p, n, q);
	json_array_foreach(cases, i, c) {
		json_t *lo = json_object_get(c, "ci_low"), *hi = json_object_get(c, "ci_high");
		double ch = json_number_value(json_object_get(c, "change_pct"));
		int excl = json_is_number(lo) && json_is_number(hi) &&
			   (json_number_value(lo) > 0 || json_number_value(hi) < 0);
		int disc = !isnan(q[i]) && q[i] <= rq->fdr && excl;
		int sig = disc && fabs(ch) >= rq->min_effect;

		json_object_set_new(c, "p", isnan(p[i]) ? json_null() : json_real(round(p[i] * 1e6) / 1e6));
		json_object_set_new(c, "q", isnan(q[i]) ? json_null() : json_real(round(q[i] * 1e6) / 1e6));
		json_object_set_new(c, "significant", json_boolean(sig));
		small += disc && !sig;
		faster += sig && ch < 0;
		slower += sig && ch > 0;
		fa += json_is_true(json_object_get(c, "a_failed"));
		fb += json_is_true(json_object_get(c, "b_failed"));
		na += json_is_true(json_object_get(c, "a_no_flush"));
		nb += json_is_true(json_object_get(c, "b_no_flush"));
	}
	free(p);
	free(q);
	return json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "cases", (json_int_t)n,
			 "tested", (json_int_t)tested, "flagged", (json_int_t)(faster + slower),
			 "faster", (json_int_t)faster, "slower", (json_int_t)slower,
			 "below_min_effect", (json_int_t)small, "failed_a", (json_int_t)fa, "failed_b", (json_int_t)fb,
			 "no_flush_a", (json_int_t)na, "no_flush_b", (json_int_t)nb);
}

/* ---- pivots ---- */

static int cmp_i64(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;

	return a < b ? -1 : a > b;
}

static void add_unique(json_t *arr, json_int_t v)
{
	size_t i;
	json_t *e;

	json_array_foreach(arr, i, e)
		if (json_integer_value(e) == v)
			return;
	json_array_append_new(arr, json_integer(v));
}

static void sort_ints(json_t *arr)
{
	size_t n = json_array_size(arr);
	int64_t *v = malloc((n + 1) * sizeof(*v));

	if (!v)
		return;
	for (size_t i = 0; i < n; i++)
		v[i] = json_integer_value(json_array_get(arr, i));
	qsort(v, n, sizeof(*v), cmp_i64);
	json_array_clear(arr);
	for (size_t i = 0; i < n; i++)
		json_array_append_new(arr, json_integer(v[i]));
	free(v);
}

static size_t index_of(json_t *arr, json_int_t v)
{
	size_t i;
	json_t *e;

	json_array_foreach(arr, i, e)
		if (json_integer_value(e) == v)
			return i;
	return 0;
}

static json_t *pivots(json_t *cases, const char *fa, const char *fb)
{
	json_t *groups = json_object(), *out = json_array(), *c, *g;
	const char *gk;
	size_t i;

	/* Pass 1: group by (algo pair, every axis but mask and inits). */
	json_array_foreach(cases, i, c) {
		json_t *key = json_object_get(c, "key"), *fixed = json_deep_copy(key);
		json_t *mask = json_object_get(key, "mask"), *inits = json_object_get(key, "inits");
		const char *algo = json_string_value(json_object_get(key, "algo"));
		const char *ca = json_string_value(json_object_get(c, "algo_a"));
		const char *cb = json_string_value(json_object_get(c, "algo_b"));
		const char *aa = fa ? fa : algo ? algo : ca ? ca : "", *ab = fb ? fb : algo ? algo : cb ? cb : "";
		char *fx;
		struct buf id = { 0 };

		if (!json_is_integer(mask) || !json_is_integer(inits)) {
			json_decref(fixed);
			continue;
		}
		json_object_del(fixed, "mask");
		json_object_del(fixed, "inits");
		json_object_del(fixed, "algo");
		fx = json_dumps(fixed, JSON_COMPACT | JSON_SORT_KEYS);
		buf_addf(&id, "%s|%s|%s", aa, ab, fx ? fx : "");
		free(fx);
		g = json_object_get(groups, id.p);
		if (!g) {
			g = json_pack("{s:s, s:s, s:O, s:[], s:[], s:[]}", "algo_a", aa, "algo_b", ab,
				      "fixed", fixed, "rows", "cols", "members");
			json_object_set_new(groups, id.p, g);
		}
		json_decref(fixed);
		buf_free(&id);
		add_unique(json_object_get(g, "rows"), json_integer_value(mask));
		add_unique(json_object_get(g, "cols"), json_integer_value(inits));
		json_array_append(json_object_get(g, "members"), c);
	}
	/* Pass 2: lay each group out as a matrix. */
	json_object_foreach(groups, gk, g) {
		json_t *rows = json_object_get(g, "rows"), *cols = json_object_get(g, "cols");
		json_t *cells = json_array(), *m;
		size_t nr, nc, j;

		sort_ints(rows);
		sort_ints(cols);
		nr = json_array_size(rows);
		nc = json_array_size(cols);
		for (size_t r = 0; r < nr; r++) {
			json_t *row = json_array();

			for (size_t k = 0; k < nc; k++)
				json_array_append_new(row, json_null());
			json_array_append_new(cells, row);
		}
		json_array_foreach(json_object_get(g, "members"), j, m) {
			json_t *key = json_object_get(m, "key");
			size_t r = index_of(rows, json_integer_value(json_object_get(key, "mask")));
			size_t k = index_of(cols, json_integer_value(json_object_get(key, "inits")));

			json_array_set_new(json_array_get(cells, r), k, json_pack("{s:O, s:O, s:O, s:O, s:O, s:O, s:O, s:O, s:O, s:O, s:O, s:O, s:O}",
				"a_p50", json_object_get(m, "a_p50"), "b_p50", json_object_get(m, "b_p50"),
				"q", json_object_get(m, "q"),
				"change_pct", json_object_get(m, "change_pct"),
				"ci_low", json_object_get(m, "ci_low"), "ci_high", json_object_get(m, "ci_high"),
				"ci_at_resolution", json_object_get(m, "ci_at_resolution"),
				"significant", json_object_get(m, "significant"),
				"method", json_object_get(m, "method"),
				"a_reps", json_object_get(m, "a_reps"), "b_reps", json_object_get(m, "b_reps"),
				"a_failed", json_object_get(m, "a_failed"), "b_failed", json_object_get(m, "b_failed")));
			/* the cell's level: a pivot's title says what its cells are;
			 * a side of method none, marked as a failed check is */
			json_t *cell = json_array_get(json_array_get(cells, r), k);

			json_object_set(cell, "level", json_object_get(m, "level"));
			json_object_set(cell, "a_no_flush", json_object_get(m, "a_no_flush"));
			json_object_set(cell, "b_no_flush", json_object_get(m, "b_no_flush"));
		}
		json_object_del(g, "members");
		json_object_set_new(g, "cells", cells);
		json_array_append(out, g);
	}
	json_decref(groups);
	return out;
}


/* A matched case whose key has no algo (restricted away, or a path's name
 * left out with flush: matchable) says each side's, algo_a and algo_b,
 * unless the request names them (then every case's are those): the table
 * of flush=vector vs flush=concurrent is "vector -> concurrent", not
 * " -> ". */
static void side_algos(json_t *c, json_t *ca, json_t *cb, const struct compare_req *rq)
{
	json_t *a = json_object_get(ca, "algo"), *b = json_object_get(cb, "algo");

	if (rq->algo_a || json_object_get(json_object_get(c, "key"), "algo") || !json_is_string(a) ||
	    !json_is_string(b))
		return;
	json_object_set(c, "algo_a", a);
	json_object_set(c, "algo_b", b);
}

/* 1 if sides x and y are the same set of runs (two algorithms, or two
 * restrictions, of the same boots: compare_pair pairs them by boot). */
static int same_runs(const struct compare_side *x, const struct compare_side *y)
{
	if (x->nruns != y->nruns)
		return 0;
	for (size_t i = 0; i < x->nruns; i++) {
		int found = 0;

		for (size_t j = 0; j < y->nruns; j++)
			found |= x->runs[i] == y->runs[j];
		if (!found)
			return 0;
	}
	return 1;
}

/* The answer's method_text: the test, with the figure each repetition
 * gives (a p50; lock_hold's hold per acquisition), and the row the cases
 * are compared by, in pseudo_words.c's words (the CLI's titles and the
 * schema's rows: one table). Row all names the call time and/or a sync
 * case's readers' wait, as the compared cases have. The test is each
 * case's (its `level`): nbetween cases compared between boots (paired: the
 * same boots on both sides), nwithin within one boot; both: per case, each
 * test with its count. No case: the test the sides' runs would get
 * (paired, between). */
static json_t *method_text(unsigned row, int stat, json_t *cases, int paired, int between, size_t nbetween,
			   size_t nwithin)
{
	const char *name = compare_row_name(row);
	const struct pseudo_words *w = pseudo_words_of(name);
	char sfig[32];
	/* a row's figure, or the statistic asked for instead of the p50 */
	const char *fig = (w ? w : &pseudo_words_all)->figure;
	int other_stat = compare_stat_field(stat) != RV_p50;
	int sync = 0, other = 0;
	json_t *c;
	size_t i;
	struct buf t = { 0 };

	compare_stat_figure(compare_stat_field(stat), sfig, sizeof(sfig));
	if (other_stat)
		fig = sfig;
	json_array_foreach(cases, i, c) {
		const char *kind = json_string_value(json_object_get(json_object_get(c, "key"), "kind"));

		if (kind && !strcmp(kind, "sync"))
			sync = 1;
		else
			other = 1;
	}
	if (nbetween || nwithin)
		between = nbetween > 0;
	if (nbetween && nwithin)
		buf_addf(&t, "per case: where each side has it in 2 or more boots (%zu case%s), ", nbetween,
			 nbetween == 1 ? "" : "s");
	if (between)
		buf_addf(&t, paired ? "paired t on the log ratio of each boot's median %s, the same boots on both "
				      "sides (95 %% interval of the %% change of the boots' geometric mean, gm)"
				    : "Welch's t on the log of each boot's median %s (95 %% interval of the %% change "
				      "of the boots' geometric mean, gm)", fig);
	if (nbetween && nwithin)
		buf_addf(&t, "; where a side has it in 1 boot (%zu case%s), ", nwithin, nwithin == 1 ? "" : "s");
	if (!between || nwithin)
		buf_addf(&t, "bootstrap over repetitions of one boot (95 %% interval of the %% change of the median "
			 "%s); Welch's t over repetitions for p", fig);
	c = json_sprintf("%s; Benjamini-Hochberg across the table; cases compared by row %s: %s%s%s%s%s%s", t.p, name,
			 w ? w->measure : other || !sync ? pseudo_words_call.measure : "",
			 !w && other && sync ? ", a sync case's " : "", !w && sync ? pseudo_words_all.measure : "",
			 other_stat ? "; each repetition by the " : "", other_stat ? sfig : "",
			 other_stat ? " of its calls' times, not their median (stat)" : "");
	buf_free(&t);
	return c;
}

/* What the cases compared within one boot (nwithin of ncases, between: the
 * sides have 2 or more runs each) are told: intervals that carry no
 * boot-to-boot variation. Decided from the cases, not the runs: three
 * boots a side whose cases are each in one of them (runs at --cpus 2, 4
 * and 8) are compared within a boot, every case. */
static void within_warning(json_t *warn, const struct compare_req *rq, int between, size_t nwithin,
			   size_t ncases)
{
	if (!between && rq->a.nruns == 1 && rq->b.nruns == 1)
		json_array_append_new(warn, json_string(COMPARE_WITHIN_BOOT_WARNING));
	/* One boot on one side only (a CI check of one boot against last:3)
	 * is as within-boot as one a side, and says which side it is. */
	else if (!between)
		json_array_append_new(warn, json_sprintf("1 boot on %s's side (%zu on %s's): no between-boot variance, "
							 "intervals are within-boot only; give each side 3 or more boots",
							 rq->a.nruns == 1 ? "A" : "B",
							 rq->a.nruns == 1 ? rq->b.nruns : rq->a.nruns,
							 rq->a.nruns == 1 ? "B" : "A"));
	else if (nwithin == ncases && nwithin)
		json_array_append_new(warn, json_sprintf("every compared case is in 1 boot of a side (of %zu vs %zu "
							 "boots: each case is in one run of its side): no between-boot "
							 "variance, intervals are within-boot only", rq->a.nruns,
							 rq->b.nruns));
	else if (nwithin)
		json_array_append_new(warn, json_sprintf("%zu of %zu compared cases are in 1 boot of a side (level "
							 "within_boot): no between-boot variance there, their intervals "
							 "are within-boot only", nwithin, ncases));
}

/* The answer's star_text: the rule of a case's '*' (its `significant`), the
 * one line every form prints (compare's seed, text, Markdown and HTML
 * tables, the compare page). Within one boot the p is Welch's t over the
 * repetitions, a test apart from the bootstrap interval, so an interval
 * that excludes 0 with |change| >= min_effect may have no star (-5.62
 * [-22.20, -2.89], q 0.126): the line says so where it can happen. */
static json_t *star_text(const struct compare_req *rq, int paired, int between, size_t nbetween,
			 size_t nwithin)
{
	const char *own = paired ? "the interval's own test (paired t)"
				 : "the interval's own test (Welch's t on the boots' log medians)";
	const char *reps = "Welch's t over repetitions, a test apart from the bootstrap interval (an interval "
			   "that excludes 0 has no '*' where its q is higher)";

	/* the cases' levels, as method_text; none: the sides' runs' */
	if (nbetween || nwithin)
		between = nbetween > 0;
	return json_sprintf("'*' (marked) = significant: the 95 %% interval excludes 0, |change| >= %.3g%% and "
			    "Benjamini-Hochberg q <= %.2g across the table, its p from %s%s%s%s",
			    rq->min_effect, rq->fdr, between && nwithin ? "(a case in 2 or more boots a side) " : "",
			    between ? own : reps, between && nwithin ? "; (a case in 1 boot of a side) " : "",
			    between && nwithin ? reps : "");
}

json_t *compare_runs(struct dbi *db, const struct compare_req *rq, struct case_flags *flags_a,
		     struct case_flags *flags_b)
{
	int between = rq->a.nruns >= 2 && rq->b.nruns >= 2;
	int paired = between && same_runs(&rq->a, &rq->b);
	struct group a, b;
	size_t unmatched_a = 0, unmatched_b = 0, nbetween = 0, nwithin = 0, few_boots = 0;
	json_t *cases = json_array(), *o, *warn = json_array(), *summary;

	load_group(db, &rq->a, rq, &a, flags_a);
	load_group(db, &rq->b, rq, &b, flags_b);
	for (size_t i = 0; i < a.n; i++) {
		struct gcase *m = NULL;
		json_t *c;

		for (size_t j = 0; j < b.n && !m; j++)
			if (!b.c[j].used && strcmp(a.c[i].key, b.c[j].key) == 0)
				m = &b.c[j];
		if (!m) {
			unmatched_a++;
			continue;
		}
		m->used = 1;
		c = json_pack("{s:o, s:I, s:I, s:I, s:I, s:I, s:I}",
			"key", key_obj(a.c[i].config, rq),
			"a_case", (json_int_t)a.c[i].case_id, "b_case", (json_int_t)m->case_id,
			"a_reps", (json_int_t)a.c[i].nrep, "b_reps", (json_int_t)m->nrep,
			"a_boots", (json_int_t)a.c[i].nboot, "b_boots", (json_int_t)m->nboot);
		side_algos(c, a.c[i].config, m->config, rq);
		/* between boots where the case is in 2 or more boots of each
		 * side: the level is the case's, whatever the sides' runs */
		int cb = between && a.c[i].nboot >= 2 && m->nboot >= 2;

		compare_pair(&a.c[i], m, cb, paired,
			     rq->row != COMPARE_ROW_LOCK_HOLD && compare_stat_bucketed(compare_stat_field(rq->stat)),
			     c);
		few_boots += !strcmp(json_string_value(json_object_get(c, "method")), "too_few_boots");
		json_object_set_new(c, "level", json_string(cb ? "between_boot" : "within_boot"));
		nbetween += cb;
		nwithin += !cb;
		failed_fields(c, "a_", &a.c[i]);
		failed_fields(c, "b_", m);
		no_flush_fields(c, "a_", &a.c[i]);
		no_flush_fields(c, "b_", m);
		json_array_append_new(cases, c);
	}
	for (size_t j = 0; j < b.n; j++)
		unmatched_b += !b.c[j].used;
	where_warnings(warn, "A", &rq->a, &a);
	where_warnings(warn, "B", &rq->b, &b);
	algo_warnings(warn, rq, &a, &b);
	free_group(&a);
	free_group(&b);
	summary = finish_table(cases, rq);
	within_warning(warn, rq, between, nwithin, nbetween + nwithin);
	/* below COMPARE_MIN_BOOTS a side: the views' "(too few boots)" cells
	 * and check's "not tested", said once for the whole table */
	if (few_boots)
		json_array_append_new(warn, json_sprintf("%zu of %zu matched cases: too few boots for an interval: %d or "
							 "more per side are needed (Welch's t on 2 boots a side has 1 "
							 "to 2 degrees of freedom); their change only, not tested, "
							 "never marked", few_boots, json_array_size(cases),
							 COMPARE_MIN_BOOTS));
	no_flush_warning(warn, "A", json_integer_value(json_object_get(summary, "no_flush_a")));
	no_flush_warning(warn, "B", json_integer_value(json_object_get(summary, "no_flush_b")));
	o = json_pack("{s:o, s:o, s:f, s:o, s:I, s:I}",
		"algo_a", rq->algo_a ? json_string(rq->algo_a) : json_null(),
		"algo_b", rq->algo_b ? json_string(rq->algo_b) : json_null(),
		"confidence", 0.95, "cases", cases,
		"unmatched_a", (json_int_t)unmatched_a, "unmatched_b", (json_int_t)unmatched_b);
	json_object_set_new(o, "row", json_string(compare_row_name(rq->row)));
	char sname[32];
	compare_stat_name(compare_stat_field(rq->stat), sname, sizeof(sname));
	json_object_set_new(o, "stat", json_string(sname));
	/* the cases': all between boots, all within one, or "mixed" (none:
	 * what the sides' runs would give) */
	json_object_set_new(o, "level", json_string(nbetween && nwithin ? "mixed"
						    : nbetween || (between && !nwithin) ? "between_boot"
						    : "within_boot"));
	json_object_set_new(o, "boots_a", json_integer((json_int_t)rq->a.nruns));
	json_object_set_new(o, "boots_b", json_integer((json_int_t)rq->b.nruns));
	json_object_set_new(o, "fdr", json_real(rq->fdr));
	json_object_set_new(o, "min_effect_pct", json_real(rq->min_effect));
	json_object_set_new(o, "method_text",
			    method_text(rq->row, rq->stat, cases, paired, between, nbetween, nwithin));
	json_object_set_new(o, "star_text", star_text(rq, paired, between, nbetween, nwithin));
	json_object_set_new(o, "summary", summary);
	json_object_set_new(o, "warnings", warn);
	json_object_set_new(o, "pivots", pivots(cases, rq->algo_a, rq->algo_b));
	return o;
}

int compare_parse_runs(const char *s, struct compare_side *side)
{
	side->nruns = 0;
	while (s && *s) {
		const char *e = strchr(s, ',');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		char t[24];
		uint64_t v;

		if (len == 0 || len >= sizeof(t) || side->nruns == COMPARE_MAX_RUNS)
			return -1;
		memcpy(t, s, len);
		t[len] = 0;
		if (parse_u64(t, &v) || v == 0 || v > INT64_MAX)
			return -1;
		for (size_t i = 0; i < side->nruns; i++)
			if (side->runs[i] == (int64_t)v)
				return -1;
		side->runs[side->nruns++] = (int64_t)v;
		s = e ? e + 1 : NULL;
		if (s && !*s)
			return -1;	/* "1,": a list cut short, not a list of one */
	}
	return side->nruns ? 0 : -1;
}

int compare_parse_where(const char *s, struct compare_side *side)
{
	while (s && *s) {
		const char *e = strchr(s, ','), *eq = strchr(s, '=');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		struct compare_where *w;

		if (!eq || eq >= s + len || eq == s || side->nwhere == COMPARE_MAX_WHERE ||
		    (size_t)(eq - s) > 64 || len - (size_t)(eq - s) - 1 > 64 || len == (size_t)(eq - s) + 1)
			return -1;
		w = &side->where[side->nwhere++];
		memcpy(w->key, s, (size_t)(eq - s));
		w->key[eq - s] = 0;
		memcpy(w->value, eq + 1, len - (size_t)(eq - s) - 1);
		w->value[len - (size_t)(eq - s) - 1] = 0;
		s = e ? e + 1 : NULL;
		if (s && !*s)
			return -1;	/* "algo=x,": as compare_parse_runs */
	}
	return 0;
}

const char *compare_where_twice(const struct compare_side *side)
{
	for (size_t i = 0; i < side->nwhere; i++)
		for (size_t j = 0; j < i; j++)
			if (strcmp(side->where[i].key, side->where[j].key) == 0)
				return side->where[i].key;
	return NULL;
}
