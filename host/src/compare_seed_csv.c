/*
 * compare_seed_csv.c — the seed table as CSV (compare_seed_csv.h): one row
 * per table row (a table's CPUs in mask), its columns the tables' columns
 * (concurrent initiators; a sync table's writers): what `xcbench compare
 * --format seed` prints, for a spreadsheet or a plot, where the case CSV
 * (one row per case) had to be pivoted again by hand. A count of
 * initiators no table has gets no column; a table without it leaves its
 * cells empty, as the printed table's "-".
 */
#include <stdlib.h>
#include <string.h>

#include "compare_seed_csv.h"
#include "csv.h"

/* The cells of one column: the % change, its interval, `1` when
 * significant, which side failed a check (A, B, AB; the printed table's
 * !A, !B, !AB) and which side's case is of method none (a_no_flush,
 * b_no_flush: it invalidates nothing, so its change is a cost figure and
 * never a pass; the printed table's 0A, 0B, 0AB), named inits_N_<this>. */
static const char *const cell_cols[] = { "change_pct", "ci_low", "ci_high", "significant", "failed", "no_flush" };
#define N_CELL_COLS (sizeof(cell_cols) / sizeof(cell_cols[0]))

static int cmp_ll(const void *x, const void *y)
{
	long long a = *(const long long *)x, b = *(const long long *)y;

	return (a > b) - (a < b);
}

/* Every pivot's column (inits) once, ascending, into *out; how many. */
static size_t all_cols(json_t *pivots, long long **out)
{
	size_t i, j, n = 0, k = 0;
	json_t *p, *c;
	long long *v;

	json_array_foreach(pivots, i, p)
		n += json_array_size(json_object_get(p, "cols"));
	*out = v = malloc((n + 1) * sizeof(*v));
	if (!v)
		return 0;
	json_array_foreach(pivots, i, p)
		json_array_foreach(json_object_get(p, "cols"), j, c)
			v[k++] = (long long)json_integer_value(c);
	qsort(v, k, sizeof(*v), cmp_ll);
	n = 0;
	for (i = 0; i < k; i++)
		if (!n || v[n - 1] != v[i])
			v[n++] = v[i];
	return n;
}

/* "AB", "A", "B" or "" for a cell's pair of booleans a_<what>,
 * b_<what>: the sides it names. */
static const char *sides(json_t *cell, const char *a, const char *b)
{
	int x = json_is_true(json_object_get(cell, a));
	int y = json_is_true(json_object_get(cell, b));

	return x && y ? "AB" : x ? "A" : y ? "B" : "";
}

/* The index of column `inits` in pivot p, or -1. */
static long col_of(json_t *p, long long inits)
{
	size_t j;
	json_t *c;

	json_array_foreach(json_object_get(p, "cols"), j, c)
		if ((long long)json_integer_value(c) == inits)
			return (long)j;
	return -1;
}

static void real_or_empty(struct buf *b, json_t *v)
{
	if (json_is_number(v))
		csv_f(b, json_number_value(v), 2);
	else
		csv_empty(b);
}

struct buf compare_seed_csv(json_t *o)
{
	json_t *pivots = json_object_get(o, "pivots"), *p;
	const char *stat = json_string_value(json_object_get(o, "stat"));
	const char *row = json_string_value(json_object_get(o, "row"));
	struct buf b = { 0 };
	long long *cols;
	size_t nc = all_cols(pivots, &cols), i;

	/* which table, what it holds fixed, and what its cells are a change
	 * of (stat, row: the printed title's words) before the columns */
	buf_addf(&b, "table,algo_a,algo_b,fixed,stat,row,level,mask");
	for (size_t c = 0; c < nc; c++)
		for (size_t k = 0; k < N_CELL_COLS; k++)
			buf_addf(&b, ",inits_%lld_%s", cols[c], cell_cols[k]);
	buf_addf(&b, "\r\n");
	json_array_foreach(pivots, i, p) {
		json_t *rows = json_object_get(p, "rows"), *m, *v;
		struct buf fixed = { 0 };
		const char *k;
		size_t r;

		json_object_foreach(json_object_get(p, "fixed"), k, v) {
			if (json_is_string(v))
				buf_addf(&fixed, "%s%s=%s", fixed.len ? ";" : "", k, json_string_value(v));
			else
				buf_addf(&fixed, "%s%s=%lld", fixed.len ? ";" : "", k, (long long)json_integer_value(v));
		}
		json_array_foreach(rows, r, m) {
			json_t *cells = json_array_get(json_object_get(p, "cells"), r);

			csv_i64(&b, (int64_t)i + 1);
			csv_str(&b, json_string_value(json_object_get(p, "algo_a")) ?: "");
			csv_str(&b, json_string_value(json_object_get(p, "algo_b")) ?: "");
			csv_str(&b, fixed.p ? fixed.p : "");
			csv_str(&b, stat ? stat : "");
			csv_str(&b, row ? row : "");
			csv_str(&b, json_string_value(json_object_get(o, "level")) ?: "");
			csv_i64(&b, (int64_t)json_integer_value(m));
			for (size_t c = 0; c < nc; c++) {
				long j = col_of(p, cols[c]);
				json_t *cell = j < 0 ? NULL : json_array_get(cells, (size_t)j);

				real_or_empty(&b, json_object_get(cell, "change_pct"));
				real_or_empty(&b, json_object_get(cell, "ci_low"));
				real_or_empty(&b, json_object_get(cell, "ci_high"));
				if (json_is_object(cell))
					csv_str(&b, json_is_true(json_object_get(cell, "significant")) ? "1" : "0");
				else
					csv_empty(&b);
				csv_str(&b, sides(cell, "a_failed", "b_failed"));
				csv_str(&b, sides(cell, "a_no_flush", "b_no_flush"));
			}
			csv_end(&b);
		}
		buf_free(&fixed);
	}
	free(cols);
	if (!b.p)
		buf_addf(&b, "%s", "");
	return b;
}
