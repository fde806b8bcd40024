/*
 * compare.c — comparison of two runs (or two algorithms of one run): match
 * cases by their canonical key, % change of the median with a 95 % interval
 * (bootstrap over repetitions when both sides have >= COMPARE_MIN_REPS; with
 * fewer there is no interval: method "too_few_reps" — a bootstrap of three
 * values only resamples three numbers, and the calls of one repetition are
 * not independent repetitions of the experiment), and the seed-shaped pivot
 * tables (rows = CPUs in mask, columns = initiators). See host/API.md.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "casekey.h"
#include "casestats.h"
#include "compare.h"
#include "results_db.h"
#include "runs_db.h"
#include "stats.h"
#include "util.h"

struct side_case {
	int64_t case_id;
	json_t *config;
	char *key;
	double p50;
	double *reps;
	size_t nrep;
	int used;
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

/* The cases of run (of algorithm algo, if set) with their repetitions'
 * medians: two queries (cases, RESULT rows) stepped in case order. */
static int load_side(sqlite3 *db, int64_t run, const char *algo, int without_algo,
		     struct side_case **out, size_t *n)
{
	struct case_cursor cc;
	struct result_cursor rc;
	struct case_row row;
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	if (cases_open(db, run, &cc))
		return -1;
	if (results_open(db, run, -1, &rc)) {
		cases_close(&cc);
		return -1;
	}
	while (cases_next(&cc, &row)) {
		json_t *cfgj = row.config ? json_loads(row.config, 0, NULL) : NULL;
		const char *a = json_string_value(json_object_get(cfgj, "algo"));
		struct buf key = { 0 };
		struct resrow *rows;
		size_t nr, k;
		struct side_case *c;

		if (!cfgj || (algo && (!a || strcmp(a, algo)))) {
			json_decref(cfgj);
			case_row_free(&row);
			continue;
		}
		if (*n == cap) {
			struct side_case *p = realloc(*out, (cap = cap ? 2 * cap : 32) * sizeof(**out));

			if (!p) {
				json_decref(cfgj);
				case_row_free(&row);
				break;
			}
			*out = p;
		}
		c = &(*out)[(*n)++];
		memset(c, 0, sizeof(*c));
		c->case_id = row.case_id;
		c->config = cfgj;
		case_match_key(cfgj, without_algo, &key);
		c->key = key.p;
		results_take(&rc, c->case_id, &rows, &nr);
		k = pick_aggregate(rows, nr);
		c->reps = malloc((k + 1) * sizeof(double));
		for (size_t i = 0; i < k && c->reps; i++)
			c->reps[c->nrep++] = rows[i].v[RV_p50];
		c->p50 = stats_median(c->reps, c->nrep);
		free(rows);
		case_row_free(&row);
	}
	results_close(&rc);
	cases_close(&cc);
	return 0;
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
static json_t *key_obj(json_t *config, int without_algo)
{
	json_t *o = json_object(), *v;
	const char *k;

	json_object_foreach(config, k, v) {
		if (case_config_key_matches(config, k, without_algo) && json_is_string(v))
			json_object_set_new(o, k, num_or_str(json_string_value(v)));
	}
	return o;
}

/* Fills change/CI/method of one matched pair. */
static void compare_pair(const struct side_case *a, const struct side_case *b, json_t *o)
{
	double change = stats_pct_change(a->p50, b->p50), lo = NAN, hi = NAN;
	const char *method = "none";

	if (a->nrep >= COMPARE_MIN_REPS && b->nrep >= COMPARE_MIN_REPS) {
		if (stats_bootstrap_change(a->reps, a->nrep, b->reps, b->nrep,
					   fnv1a(a->key) ^ 0x5eed, STATS_BOOT_ITERS, &lo, &hi) == 0)
			method = "bootstrap";
	} else if (!isnan(change)) {
		method = "too_few_reps";	/* "too few repetitions for an interval" */
	}
	json_object_set_new(o, "change_pct", rnd(change, 100));
	json_object_set_new(o, "ci_low", rnd(lo, 100));
	json_object_set_new(o, "ci_high", rnd(hi, 100));
	json_object_set_new(o, "significant", json_boolean(!isnan(lo) && !isnan(hi) && (lo > 0 || hi < 0)));
	json_object_set_new(o, "method", json_string(method));
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
		const char *aa = fa ? fa : algo ? algo : "", *ab = fb ? fb : algo ? algo : "";
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

			json_array_set_new(json_array_get(cells, r), k, json_pack("{s:O, s:O, s:O, s:O, s:O, s:O, s:O}",
				"change_pct", json_object_get(m, "change_pct"),
				"ci_low", json_object_get(m, "ci_low"), "ci_high", json_object_get(m, "ci_high"),
				"significant", json_object_get(m, "significant"),
				"method", json_object_get(m, "method"),
				"a_reps", json_object_get(m, "a_reps"), "b_reps", json_object_get(m, "b_reps")));
		}
		json_object_del(g, "members");
		json_object_set_new(g, "cells", cells);
		json_array_append(out, g);
	}
	json_decref(groups);
	return out;
}

json_t *compare_runs(sqlite3 *db, int64_t ra, int64_t rb, const char *fa, const char *fb)
{
	int without_algo = fa || fb;
	struct side_case *a, *b;
	size_t na, nb, unmatched_a = 0, unmatched_b = 0;
	json_t *cases = json_array(), *o;

	load_side(db, ra, fa, without_algo, &a, &na);
	load_side(db, rb, fb, without_algo, &b, &nb);
	for (size_t i = 0; i < na; i++) {
		struct side_case *m = NULL;
		json_t *c;

		for (size_t j = 0; j < nb && !m; j++)
			if (!b[j].used && strcmp(a[i].key, b[j].key) == 0)
				m = &b[j];
		if (!m) {
			unmatched_a++;
			continue;
		}
		m->used = 1;
		c = json_pack("{s:o, s:I, s:I, s:o, s:o, s:I, s:I}",
			"key", key_obj(a[i].config, without_algo),
			"a_case", (json_int_t)a[i].case_id, "b_case", (json_int_t)m->case_id,
			"a_p50", rnd(a[i].p50, 10), "b_p50", rnd(m->p50, 10),
			"a_reps", (json_int_t)a[i].nrep, "b_reps", (json_int_t)m->nrep);
		compare_pair(&a[i], m, c);
		json_array_append_new(cases, c);
	}
	for (size_t j = 0; j < nb; j++)
		unmatched_b += !b[j].used;
	free_side(a, na);
	free_side(b, nb);
	o = json_pack("{s:o, s:o, s:f, s:o, s:I, s:I}",
		"algo_a", fa ? json_string(fa) : json_null(), "algo_b", fb ? json_string(fb) : json_null(),
		"confidence", 0.95, "cases", cases,
		"unmatched_a", (json_int_t)unmatched_a, "unmatched_b", (json_int_t)unmatched_b);
	json_object_set_new(o, "pivots", pivots(cases, fa, fb));
	return o;
}
