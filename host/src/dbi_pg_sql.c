/*
 * dbi_pg_sql.c — rewriting the daemon's SQL (written in the subset of
 * dbi.h) for PostgreSQL, once per prepared statement:
 *   ?      -> $N, N one more than the highest so far (SQLite's rule);
 *   ?N     -> $N;
 *   :name  -> $N, the same N for each use of the name;
 *   json_extract(x, '$.key') -> (x::jsonb ->> 'key') (the CASE keys are
 *             strings, so text is what SQLite returns too);
 * and it notes which parameters are a LIMIT's (SQLite's LIMIT -1 is "all",
 * bound as NULL here). Quoted strings, quoted names and comments are copied
 * as they are.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "dbi.h"
#include "dbi_pg_sql.h"
#include "util.h"

/* (PostgreSQL takes up to 65535; dbi.h's DBI_PARAMS_MAX is the seam's.) */
enum { PARAMS_MAX = DBI_PARAMS_MAX };

static int ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* The word that ends at s[end) (letters only), upper-cased into w. */
static void last_word(const struct buf *out, char *w, size_t n)
{
	size_t e = out->len, b;

	while (e && isspace((unsigned char)out->p[e - 1]))
		e--;
	b = e;
	while (b && ident_char(out->p[b - 1]))
		b--;
	if (e - b >= n)
		b = e - (n - 1);
	for (size_t i = b; i < e; i++)
		w[i - b] = (char)toupper((unsigned char)out->p[i]);
	w[e - b] = 0;
}

/* json_extract(EXPR, '$.KEY') at s (s points at "json_extract("): the
 * rewrite appended to out, and the length consumed; 0 if not that form. */
static size_t json_extract(const char *s, struct buf *out)
{
	const char *p = s + strlen("json_extract("), *comma, *key, *kend, *close;

	comma = strchr(p, ',');
	if (!comma || memchr(p, '(', (size_t)(comma - p)))
		return 0;
	key = comma + 1;
	while (*key == ' ')
		key++;
	if (strncmp(key, "'$.", 3))
		return 0;
	key += 3;
	kend = strchr(key, '\'');
	if (!kend)
		return 0;
	close = kend + 1;
	while (*close == ' ')
		close++;
	if (*close != ')')
		return 0;
	buf_addf(out, "((%.*s)::jsonb ->> '%.*s')", (int)(comma - p), p, (int)(kend - key), key);
	return (size_t)(close + 1 - s);
}

/* The rewrite's state: the output text and what it learnt about each
 * parameter (q's arrays, grown as numbers appear). */
struct rewrite {
	const char *sql;        /* the whole input (for "start of text" tests) */
	struct buf out;
	struct pg_sql *q;
	int cap;                /* entries allocated in q's arrays, minus one */
};

/* Makes room for parameter idx in q's arrays: 0 or -1. */
static int grow(struct rewrite *w, int idx)
{
	struct pg_sql *q = w->q;
	int cap = w->cap;

	if (idx < 1 || idx > PARAMS_MAX)
		return -1;
	if (idx <= cap)
		return 0;
	while (cap < idx)
		cap = cap ? cap * 2 : 16;
	char **names = realloc(q->names, ((size_t)cap + 1) * sizeof(*names));
	if (names)
		q->names = names;
	char *lim = realloc(q->is_limit, (size_t)cap + 1);
	if (lim)
		q->is_limit = lim;
	char *used = realloc(q->used, (size_t)cap + 1);
	if (used)
		q->used = used;
	if (!names || !lim || !used)
		return -1;
	/* From entry 0 on the first growth: a failed rewrite frees every
	 * entry up to cap, the unused 0th too. */
	int from = w->cap ? w->cap + 1 : 0;

	memset(names + from, 0, (size_t)(cap + 1 - from) * sizeof(*names));
	memset(lim + from, 0, (size_t)(cap + 1 - from));
	memset(used + from, 0, (size_t)(cap + 1 - from));
	w->cap = cap;
	return 0;
}

/* A quoted string or name, or a -- comment, at *s: copied as it is (its
 * length), else 0. */
static size_t copy_verbatim(struct rewrite *w, const char *s)
{
	const char *e;

	if (*s == '\'' || *s == '"') {
		e = strchr(s + 1, *s);
		e = e ? e + 1 : s + strlen(s);
	} else if (s[0] == '-' && s[1] == '-') {
		e = strchr(s, '\n');
		e = e ? e : s + strlen(s);
	} else {
		return 0;
	}
	buf_addf(&w->out, "%.*s", (int)(e - s), s);
	return (size_t)(e - s);
}

/* ? or ?N at *s: its number in *idx (? is one more than the highest so
 * far, SQLite's rule) and the length read; 0 if not a parameter. */
static size_t positional(const struct rewrite *w, const char *s, int *idx)
{
	char *e;
	long v;

	if (*s != '?')
		return 0;
	v = strtol(s + 1, &e, 10);
	if (e > s + 1) {
		*idx = v < 1 || v > PARAMS_MAX ? -1 : (int)v;
		return (size_t)(e - s);
	}
	*idx = w->q->nparams + 1;
	return 1;
}

/* :name at *s (not a :: cast): its number in *idx, the same for each use
 * of the name, a new one the first time; the length read, 0 if not one. */
static size_t named(struct rewrite *w, const char *s, int *idx)
{
	const char *e = s + 1;
	size_t len;

	if (*s != ':' || s[1] == ':' || (s > w->sql && s[-1] == ':') ||
	    !(isalpha((unsigned char)s[1]) || s[1] == '_'))
		return 0;
	while (ident_char(*e))
		e++;
	len = (size_t)(e - s);
	for (int i = 1; i <= w->q->nparams; i++)
		if (w->q->names[i] && strlen(w->q->names[i]) == len && !strncmp(w->q->names[i], s, len)) {
			*idx = i;
			return len;
		}
	*idx = w->q->nparams + 1;
	if (grow(w, *idx) || !(w->q->names[*idx] = strndup(s, len)))
		*idx = -1;
	return len;
}

/* Writes parameter idx as $idx, noting whether it is a LIMIT's: 0 or -1. */
static int put_param(struct rewrite *w, int idx)
{
	char word[8];

	if (grow(w, idx))
		return -1;
	last_word(&w->out, word, sizeof(word));
	if (!strcmp(word, "LIMIT"))
		w->q->is_limit[idx] = 1;
	w->q->used[idx] = 1;
	buf_addf(&w->out, "$%d", idx);
	if (idx > w->q->nparams)
		w->q->nparams = idx;
	return 0;
}

int pg_sql_rewrite(const char *sql, struct pg_sql *q)
{
	struct rewrite w = { .sql = sql, .q = q };
	const char *s = sql;

	memset(q, 0, sizeof(*q));
	if (grow(&w, 1))
		goto fail;
	while (*s) {
		size_t n;
		int idx = 0;

		if ((n = copy_verbatim(&w, s))) {
			s += n;
			continue;
		}
		if (strncasecmp(s, "json_extract(", 13) == 0 && (s == sql || !ident_char(s[-1])) &&
		    (n = json_extract(s, &w.out))) {
			s += n;
			continue;
		}
		if (!(n = positional(&w, s, &idx)) && !(n = named(&w, s, &idx))) {
			/* a byte as it is (buf_addf's "%c" was a vsnprintf a
			 * byte: a 1000-run list's label query is ~10 KB) */
			buf_add(&w.out, s++, 1);
			continue;
		}
		if (put_param(&w, idx))
			goto fail;
		s += n;
	}
	q->sql = w.out.p ? w.out.p : strdup("");
	if (!q->sql)
		goto fail;
	return 0;
fail:
	free(w.out.p);
	q->sql = NULL;
	if (q->names)
		for (int i = 0; i <= w.cap; i++)
			free(q->names[i]);
	free(q->names);
	free(q->is_limit);
	free(q->used);
	memset(q, 0, sizeof(*q));
	return -1;
}

void pg_sql_free(struct pg_sql *q)
{
	for (int i = 1; q->names && i <= q->nparams; i++)
		free(q->names[i]);
	free(q->names);
	free(q->is_limit);
	free(q->used);
	free(q->sql);
	memset(q, 0, sizeof(*q));
}

int pg_sql_param_index(const struct pg_sql *q, const char *name)
{
	for (int i = 1; i <= q->nparams; i++)
		if (q->names[i] && !strcmp(q->names[i], name))
			return i;
	return 0;
}
