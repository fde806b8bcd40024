/*
 * dbi_sqlite_ints.c — dbi_fetch_ints on SQLite: a block of integer rows
 * read as one blob a row. Stepped, a row of the run CSV's ~33 integers
 * cost ~2.4k instructions in the column API alone (sqlite3_column_value,
 * ~50 a call with its API entry and exit, then the value's number and
 * type) beside ~5k in SQLite's step (callgrind, bench/LIMITS.md). Here
 * the statement's first ncols result columns become one, xcb_ints(them):
 * SQLite hands the row's values to the function as its arguments, which
 * packs them and their NULLs into one blob, and the row costs one column
 * call. The values are those stepping reads (sqlite3_value_int64 of the
 * same values) and the rows the same, in the same order: only the result
 * list changes, and xcb_ints has no side effect.
 *
 * The rewriting is textual, so it is done only where it cannot change the
 * query (else the statement is stepped as before, dbi_fetch_ints_steps):
 * "SELECT" then plain column names (t.c or c: no expression, no alias, no
 * DISTINCT), "FROM ...", no compound SELECT, HAVING or WINDOW, and every
 * ORDER BY / GROUP BY term a plain name (never a result column's number,
 * which would then name another column). Wrapping the statement as a
 * subquery instead was tried: SQLite does not flatten one with a LIMIT,
 * and its co-routine's copies cost more than the column calls saved (7.35k
 * -> 8.2k instructions a row).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dbi_sqlite_conn.h"
#include "util.h"

/* Columns dbi_fetch_ints reads at most (its NULL mask is 64 bits). */
#define INTS_MAX 64

/* xcb_ints(v0, ..., vn-1): the n values as integers (sqlite3_value_int64,
 * a NULL read as 0) then the mask of the NULL ones, each 8 bytes in this
 * machine's order: the blob l_fetch_ints copies out. */
static void ints_fn(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
	int64_t b[INTS_MAX + 1];
	uint64_t m = 0;

	if (argc < 1 || argc > INTS_MAX) {
		sqlite3_result_error(cx, "xcb_ints: 1 to 64 values", -1);
		return;
	}
	for (int k = 0; k < argc; k++) {
		b[k] = sqlite3_value_int64(argv[k]);
		if (b[k] == 0 && sqlite3_value_type(argv[k]) == SQLITE_NULL)
			m |= 1ull << k;
	}
	memcpy(&b[argc], &m, sizeof(m));
	sqlite3_result_blob(cx, b, (int)((size_t)(argc + 1) * sizeof(b[0])), SQLITE_TRANSIENT);
}

int lite_ints_register(sqlite3 *h)
{
	return sqlite3_create_function_v2(h, "xcb_ints", -1,
					  SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
					  NULL, ints_fn, NULL, NULL, NULL);
}

/* Length of the identifier at s ([A-Za-z_][A-Za-z0-9_]*), 0 if none. */
static size_t ident(const char *s)
{
	size_t n = 0;

	if (!isalpha((unsigned char)s[0]) && s[0] != '_')
		return 0;
	while (isalnum((unsigned char)s[n]) || s[n] == '_')
		n++;
	return n;
}

/* Length of the plain column name at s (c or t.c), 0 if none. */
static size_t name_len(const char *s)
{
	size_t n = ident(s), m;

	if (n && s[n] == '.' && (m = ident(s + n + 1)))
		n += 1 + m;
	return n;
}

/* 1 if the word w (upper case) starts at s, a whole identifier. */
static int word_at(const char *s, const char *w)
{
	size_t n = strlen(w);

	return strncasecmp(s, w, n) == 0 && ident(s) == n;
}

static const char *skip_space(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* 1 if the terms after a BY at s are plain names (each maybe ASC or
 * DESC), the list ending the text or followed by LIMIT or ORDER. */
static int by_terms_plain(const char *s)
{
	for (;;) {
		size_t n = name_len(s = skip_space(s));

		if (!n)
			return 0;
		s = skip_space(s + n);
		if (word_at(s, "ASC") || word_at(s, "DESC"))
			s = skip_space(s + ident(s));
		if (*s != ',')
			return !*s || word_at(s, "LIMIT") || word_at(s, "ORDER");
		s++;
	}
}

/* 1 if the text after the select list (from its FROM on) leaves the
 * result list's columns unnamed by number and uncompounded. Every word
 * counts, a quoted one too: a word that only looks like a clause makes the
 * statement stepped, which is always right. */
static int rest_plain(const char *s)
{
	for (; *s; s++) {
		if (isalnum((unsigned char)s[-1]) || s[-1] == '_')
			continue; /* inside a word */
		if (word_at(s, "UNION") || word_at(s, "INTERSECT") || word_at(s, "EXCEPT") ||
		    word_at(s, "HAVING") || word_at(s, "WINDOW"))
			return 0;
		if (word_at(s, "BY") && !by_terms_plain(s + 2))
			return 0;
	}
	return 1;
}

/* sql with its first ncols result columns as xcb_ints(them) into out: 0,
 * or -1 where sql is not of the plain form above. */
static int ints_sql(const char *sql, int ncols, struct buf *out)
{
	const char *p = sql, *first, *last = NULL;
	int k = 0;

	if (!word_at(p, "SELECT"))
		return -1;
	first = p = skip_space(p + 6);
	for (;; k++) {
		size_t n = name_len(p);

		if (!n)
			return -1;
		p += n;
		if (k == ncols - 1)
			last = p;
		p = skip_space(p);
		if (*p != ',')
			break;
		p = skip_space(p + 1);
	}
	if (k + 1 < ncols || !last || !word_at(p, "FROM") || !rest_plain(p))
		return -1;
	buf_add(out, sql, (size_t)(first - sql));
	buf_addf(out, "xcb_ints(");
	buf_add(out, first, (size_t)(last - first));
	buf_addf(out, ")%s", last);
	return out->p ? 0 : -1;
}

/* h rewritten for ncols columns (ints_sql) and prepared, or NULL where it
 * cannot be or does not take h's parameters. */
static sqlite3_stmt *ints_prepare(sqlite3_stmt *h, int ncols)
{
	struct buf sql = { 0 };
	sqlite3_stmt *w = NULL;

	if (ncols < 1 || ncols > INTS_MAX || ints_sql(sqlite3_sql(h), ncols, &sql) ||
	    sqlite3_prepare_v3(sqlite3_db_handle(h), sql.p, -1, SQLITE_PREPARE_PERSISTENT, &w, NULL) != SQLITE_OK)
		w = NULL;
	else if (sqlite3_bind_parameter_count(w) != sqlite3_bind_parameter_count(h)) {
		sqlite3_finalize(w);
		w = NULL;
	}
	buf_free(&sql);
	return w;
}

/* st's rewriting for ncols columns, prepared once (NULL: there is none). */
static sqlite3_stmt *ints_stmt(struct lite_stmt *st, int ncols)
{
	if (st->ints_none || (st->ints && st->ints_ncols == ncols))
		return st->ints;
	sqlite3_finalize(st->ints);
	st->ints = ints_prepare(st->h, ncols);
	st->ints_ncols = ncols;
	st->ints_none = !st->ints;
	return st->ints;
}

int l_fetch_ints(struct dbi_stmt *s, int ncols, int max, int64_t *v, uint64_t *nulls, int *got)
{
	struct lite_stmt *st = (struct lite_stmt *)s;
	sqlite3_stmt *w = ints_stmt(st, ncols);
	size_t len = (size_t)(ncols + 1) * sizeof(*v);
	int rc = SQLITE_DONE, n = 0;

	/* st's bindings moved to w for the run, and back after: a caller may
	 * run st again as bound */
	if (!w || sqlite3_transfer_bindings(st->h, w) != SQLITE_OK)
		return dbi_fetch_ints_steps(s, ncols, max, v, nulls, got);
	while (n < max && (rc = sqlite3_step(w)) == SQLITE_ROW) {
		const char *b = sqlite3_column_blob(w, 0);

		if (!b || (size_t)sqlite3_column_bytes(w, 0) != len) {
			rc = SQLITE_MISMATCH;
			break;
		}
		memcpy(v + (size_t)n * (size_t)ncols, b, len - sizeof(*v));
		memcpy(&nulls[n], b + len - sizeof(*v), sizeof(*nulls));
		n++;
	}
	sqlite3_reset(w); /* ends the block's read transaction */
	sqlite3_transfer_bindings(w, st->h);
	sqlite3_reset(st->h);
	*got = n;
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? DBI_OK : lite_rc(rc);
}
